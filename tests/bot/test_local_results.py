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
    assert lines[0] == "Tatari — top 3 of this table (by rating, a conservative estimate)"
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


def test_tataraba_ranking_and_stats_name_the_sen(tmp_path):
    """Forest of Tataraba's scores are Sen: the demo's ranking names them and the Eidai builder, /stats says
    "best 0 Sen" and "0 Sen" (never a bare number that reads as a score)."""
    db = str(tmp_path / "bot.sqlite3")
    result = CliRunner().invoke(cli, ["demo", "tataraba", "--players", "2", "--seed", "1", "--no-images", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "Ranking: 1. bob — Eidai Tatara, 0 Sen, 0 material; 2. alice — 12 Sen, 6 material"
    )
    lines = run_script(["bob: /stats", "alice: /stats"], "--db", db).splitlines()
    assert lines[:2] == ["Stats of bob", "Forest of Tataraba: 1 game, 1 win (100%), average place 1.00, rating "
                         "27.6 ± 8.1, best 0 Sen"]
    assert lines[2].startswith("Recent: Forest of Tataraba 1st of 2, 0 Sen (")
    assert lines[4].endswith(", best 12 Sen") and lines[5].startswith("Recent: Forest of Tataraba 2nd of 2, 12 Sen (")


def test_tataraba_result_message_names_the_sen_and_the_eidai_builder():
    """The result message's lines: the game's standing when its result is at hand, else the Sen of the record;
    other games keep "score N"."""
    from bot.results import summary_lines
    from bot.store.records import GameRecord, Seat
    from games import Result

    seats = [Seat(seat=0, player_id="a", name="alice", score=12, rank=2),
             Seat(seat=1, player_id="b", name="bob", score=0, rank=1, won=True)]
    record = GameRecord(session_id=1, game_id="tataraba", guild_id="g", channel_id="c", options={}, seed=1,
                        started_ms=0, ended_ms=1, moves=108, outcome="finished", reason="", rated=False,
                        seats=seats)
    result = Result(winners=["b"], ranking=[["b"], ["a"]], scores={"a": 12, "b": 0},
                    standings={"a": "12 Sen, 6 material", "b": "Eidai Tatara, 0 Sen, 0 material"})
    assert summary_lines(record, result=result) == ["1st bob ★ · Eidai Tatara, 0 Sen, 0 material",
                                                     "2nd alice · 12 Sen, 6 material"]
    assert summary_lines(record) == ["1st bob ★ · 0 Sen", "2nd alice · 12 Sen"]
    record.game_id = "tsukimi"  # points: a plain score
    assert summary_lines(record) == ["1st bob ★ · score 0", "2nd alice · score 12"]
    record.game_id = "tatari"  # the dolls left in a stash (TA-10)
    assert summary_lines(record) == ["1st bob ★ · 0 dolls left", "2nd alice · 12 dolls left"]
