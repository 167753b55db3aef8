"""Offline parity: ``demo`` records its games at DATABASE_PATH; the sandbox and ``script`` know
/stats, /leaderboard and /replay (which writes the GIF)."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner
from PIL import Image

from bot.__main__ import cli


def run_script(lines: list[str], *args: str) -> str:
    result = CliRunner().invoke(cli, ["script", "-", "--no-echo", *args], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    return result.output


def test_three_demos_then_the_leaderboard_in_a_script(tmp_path):
    """Three demos of Tatari (alice, bob, carol) are recorded and rated at DATABASE_PATH; /leaderboard tatari in
    a script on that database lists the three with their ratings; /stats answers for a name and a game."""
    db = os.environ["DATABASE_PATH"]
    for seed in (1, 2, 3):
        result = CliRunner().invoke(cli, ["demo", "tatari", "--players", "3", "--seed", str(seed), "--no-images"])
        assert result.exit_code == 0, result.output
    out = run_script(["alice: /leaderboard tatari", "bob: /stats", "bob: /stats carol tatari", "bob: /stats zed",
                      "bob: /stats alice tsukimi", "bob: /leaderboard", "bob: /leaderboard chess"], "--db", db)
    lines = out.splitlines()
    assert lines[0] == "Tatari — top 3 of this table (by μ − 3σ)"
    assert sorted(re.sub(r"^\d\. (\w+) — .*$", r"\1", line) for line in lines[1:4]) == ["alice", "bob", "carol"]
    assert all(re.fullmatch(r"\d\. \w+ — \d+\.\d ± \d\.\d · 3 games, \d wins?", line) for line in lines[1:4])
    assert lines[4] == "Stats of bob" and lines[5].startswith("Tatari: 3 games, ")
    assert "Stats of carol" in lines and "! bob: Nobody called 'zed' has played here, and there is no game " \
        "called 'zed'. Games: " in out
    assert "! bob: alice has no recorded games of Tsukimi yet." in lines
    assert any(line.startswith("! bob: Name a game: /leaderboard <game>.") for line in lines)
    assert "! bob: There is no game called 'chess'." in out


def test_replay_writes_the_animation(tmp_path):
    """/replay writes the GIF of this channel's last game (or #id); other channels' games and words are refused."""
    out = run_script(["#other alice: /replay", "alice: /play tatari", "bob: /join", "alice: /start",
                      "bob: /resign", "alice: /replay", "#other alice: /replay #1", "alice: /replay last",
                      "alice: /stats"], "--out", str(tmp_path))
    assert "! alice: No game has ended in this channel yet: /replay shows games that ended here." in out
    (line,) = [x for x in out.splitlines() if x.startswith("Replay of #1 Tatari")]
    path = line.rsplit(": ", 1)[1]
    assert path == str(tmp_path / "replay-1.gif") and Image.open(path).format == "GIF"
    assert "! alice: Game #1 did not end in this channel." in out
    assert "! alice: 'last' is not a game of this channel: say /replay #<game number>." in out
    assert f"[card] {tmp_path / 'stats-alice.png'}" in out
