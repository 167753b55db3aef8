"""Tatsumi solo mode through the offline sandbox (``python -m bot script``): one person in a channel opens a solo
lobby, starts it and plays by numbers to the rank line (TM-14)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bot.__main__ import cli
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store
from games.tatsumi import GAME


async def _chat(tmp_path, seed: int):
    store = await Store.open(tmp_path / "db.sqlite3")
    return store, LocalChat(SessionService(store, seeds=lambda: seed), None)


async def say(chat, *lines):
    out = []
    for line in lines:
        out += await chat.line(line)
    return out


async def test_a_whole_solo_game_by_numbers(tmp_path):
    """``alice: /play tatsumi solo=true``, ``alice: /start``, then "1" until the game is over: no refusal on the
    way, the storm and the weather happen, and the result names the rank line."""
    store, chat = await _chat(tmp_path, 4242)
    try:
        out = await say(chat, "alice: /play tatsumi solo=true")
        assert out[0] == "alice opened a lobby for Tatsumi."
        out = await say(chat, "alice: /start")
        assert out[0] == "Tatsumi begins!"
        assert any("solo card 1/16" in line for line in out)
        assert any(line.startswith("  alice: 1) ") for line in out)
        transcript = list(out)
        for _ in range(3000):
            out = await say(chat, "alice: 1")
            assert not any(line.startswith("!") for line in out), out
            transcript += out
            if any(line.startswith("[game over]") for line in out):
                break
        else:
            raise AssertionError("the solo game did not end")
        text = "\n".join(transcript)
        assert "The Tekitatsu wash away" in text and "Solo card 2 of 16" in text
        assert "sand dollar" in text
        (last,) = [line for line in transcript if line.startswith("[game over]")]
        assert "alice ends with" in last and "fortune:" in last
        finished = await chat.service.store.finished_games("table")
        assert len(finished) == 1 and finished[0]["result"]["winners"] == ["alice"]
    finally:
        await store.close()


async def test_one_player_without_solo_and_solo_with_two_are_refused(tmp_path):
    """A one-player lobby without solo=true does not start; a solo lobby has exactly one seat (TM-14, the game's
    ``seat_counts``), so a second player's /join is refused and the engine refuses two players in solo mode."""
    store, chat = await _chat(tmp_path, 7)
    try:
        out = await say(chat, "alice: /play tatsumi", "alice: /start")
        assert out[-1].startswith("! alice: ") and "solo=true" in out[-1]
        out = await say(chat, "alice: /cancel", "alice: /play tatsumi solo=true", "bob: /join")
        assert out[-1] == ("! bob: The lobby is full (1 player with these options; a table opened with solo=false "
                           "seats 4). Wait for the next game.")
        with pytest.raises(ValueError, match="exactly one player"):
            GAME.setup(["alice", "bob"], {"solo": True}, 7)
    finally:
        await store.close()


def test_script_command_runs_a_solo_transcript(tmp_path):
    """``python -m bot script``: the solo lobby, the start and a few choices by number, with board images."""
    f = tmp_path / "solo.txt"
    f.write_text("alice: /play tatsumi solo=true\nalice: /start\nalice: 1\nalice: 1\nalice: 1\nalice: 1\n")
    result = CliRunner().invoke(cli, ["script", str(f), "--out", str(tmp_path / "img"), "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "Tatsumi begins!" in result.output and "[board] " in result.output
    assert "solo card" in result.output
    assert "! " not in result.output.replace("!\n", "")
