"""The offline adapters: transcript runner and demo (foundation issue, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import games
from bot.__main__ import cli
from bot.local.chat import LocalChat
from bot.local.demo import run_demo
from bot.sessions import SessionService
from bot.store import Store


@pytest.fixture
async def chat(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    svc = SessionService(store, seeds=lambda: 12345)
    yield LocalChat(svc, tmp_path / "img")
    await store.close()


async def say(chat, *lines):
    out = []
    for line in lines:
        out += await chat.line(line)
    return out


async def test_lobby_and_bad_input_lines(chat):
    out = await say(chat, "alice: /play tatari", "bob: /join", "bob: /join", "carol: /start")
    assert out[0] == "alice opened a lobby for Tatari."
    assert "! bob: You are already seated. Wait for the host to /start." in out
    assert out[-1] == "! carol: Only the host, alice, can start the game."
    out = await say(chat, "dave: /play tsukimi")
    assert out == ["! dave: A game of Tatari is already gathering players here. Finish it, /resign, or ask the host"
                   " to /abandon it — or play in another channel or thread."]
    out = await say(chat, "dave: /frobnicate", "this is not a line", "#other dave: /play chess")
    assert out[0].startswith("! dave: Unknown command /frobnicate.")
    assert out[1].startswith("! Cannot read 'this is not a line'")
    assert out[2].startswith("! dave: There is no game called 'chess'. Games: ")
    out = await say(chat, "alice: /start")
    assert out[:2] == ["Tatari begins!", "alice holds the Cursed box first (first seat)."]  # Game.begin's events
    assert out[2].startswith("alice rolls ")
    assert out[3].startswith("[board] ") and Path(out[3][8:]).exists()
    assert any(line.startswith("  alice: 1) ") for line in out)
    out = await say(chat, "alice: 99", "bob: 1", "mallory: 1")
    assert out[0].startswith("! alice: Choose a number from 1 to ")
    assert out[1] == "! bob: Nothing is waiting for you now."
    assert out[2] == "! mallory: Nothing is waiting for you now."


async def test_two_channels_and_a_whole_game_by_numbers(chat):
    await say(chat, "#a alice: /play tatari", "#a bob: /join", "#a alice: /start")
    await say(chat, "#b carol: /play tatari", "#b dave: /join", "#b carol: /start")
    live = {"a", "b"}
    for _ in range(2000):
        for ch in sorted(live):
            up = await chat.service.show(ch)
            d = up.pending[0]
            # a number picks from the list; while a Tatari face is to be set aside, the face is typed as itself
            typed = d.options[0].id.removeprefix("set:") if d.kind == "select" else "1"
            out = await say(chat, f"#{ch} {d.player}: {typed}")
            assert not any(line.startswith("!") for line in out), out
            if any(line.startswith("[game over]") for line in out):
                live.discard(ch)
        if not live:
            break
    a = await chat.service.store.finished_games("a")
    b = await chat.service.store.finished_games("b")
    assert len(a) == len(b) == 1
    assert set(a[0]["result"]["winners"]) <= {"alice", "bob"} and set(b[0]["result"]["winners"]) <= {"carol", "dave"}


async def test_demo_writes_every_board_and_a_gif(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    res = await run_demo(store, "tatari", 3, 7, tmp_path / "demo")
    await store.close()
    assert res.update.session.status == "finished"
    assert len(res.images) == res.moves + 1
    assert Image.open(res.images[0]).size == (1000, 770)
    gif = Image.open(res.gif)
    assert gif.is_animated and gif.n_frames == min(res.moves + 1, 400)


def test_demo_command_prints_the_result(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "tatari", "--players", "2", "--seed", "3", "--no-images"])
    assert result.exit_code == 0, result.output
    assert "moves." in result.output and "Ranking: 1. " in result.output
    bad = CliRunner().invoke(cli, ["demo", "chess"])
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.output


def test_demo_command_plays_the_ai_levels_and_refuses_a_bad_budget():
    """``--strategy strong`` (with ``--budget-ms``), ``easy`` and ``normal`` play a game to the end;
    a budget over 1000 ms is refused with the range, nothing played."""
    for strategy in ("strong", "easy", "normal"):
        result = CliRunner().invoke(cli, ["demo", "tatari", "--players", "2", "--seed", "3", "--no-images",
                                          "--strategy", strategy, "--budget-ms", "5"])
        assert result.exit_code == 0, result.output
        assert "Ranking: 1. " in result.output
    bad = CliRunner().invoke(cli, ["demo", "tatari", "--strategy", "strong", "--budget-ms", "5000"])
    assert bad.exit_code == 2 and "1<=x<=1000" in bad.output
    unknown = CliRunner().invoke(cli, ["demo", "tatari", "--strategy", "grandmaster"])
    assert unknown.exit_code == 2 and "grandmaster" in unknown.output


def test_script_command(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("alice: /play tatari\nbob: /join\nalice: /start\nalice: 1\n")
    result = CliRunner().invoke(cli, ["script", str(f), "--out", str(tmp_path / "img")])
    assert result.exit_code == 0, result.output
    assert "Tatari begins!" in result.output and "[board] " in result.output


async def test_race_offsets_count_from_the_roll_and_typed_words_count(chat):
    """``name +ms: text`` is timed from when the race opened (TK-10, C-4); "hai" is a salute (Game.chat_word)."""
    await say(chat, "alice: /play tatamokatsu", "bob: /join", "carol: /join", "alice: /start", "alice: 1")
    out = await say(chat, "bob +1200: Tatamokatsu!", "carol +900: hai")
    assert "bob shouts (+1200 ms)." in out
    assert "carol salutes (+900 ms)." in out
    up = await chat.service.show("table")
    (race,) = [d for d in up.pending if d.player is None]
    assert race.deadline_ms == chat.channels["table"].mark_ms + 8000
    out = await say(chat, "/wait 8000")
    up = await chat.service.show("table")
    assert all(d.player is not None for d in up.pending)  # the window closed at its deadline


async def test_mygames_lists_the_speakers_games_in_every_channel(chat):
    await say(chat, "alice: /play tatari", "bob: /join", "alice: /start",
              "#b bob: /play tsukimi", "#b carol: /join", "#b bob: /start", "#c dave: /play tatari")
    assert await say(chat, "#elsewhere bob: /mygames") == [
        "Your games (2); waiting on you: 1.", "#b Tsukimi: your move", "#table Tatari: waiting on alice"]
    assert await say(chat, "carol: /mygames") == ["Your games (1); waiting on you: 0.", "#b Tsukimi: waiting on bob"]
    assert await say(chat, "dave: /mygames") == ["Your games (1); waiting on you: 0.",
                                                "#c Tatari: lobby, waiting for the host, dave"]
    assert await say(chat, "erin: /mygames") == ["You are not seated in any game or lobby. /play opens one."]


async def test_mygames_lists_a_held_roll_as_waiting_on_the_missing_player_not_the_roller(chat):
    """A live table's roll held for carol, marked missing after a race she missed (presence): it waits on her,
    not on bob who rolls next."""
    await say(chat, "alice: /play tatamokatsu presence=true", "bob: /join", "carol: /join", "alice: /start")
    row = await chat.service.reads.live_session("table")
    forced = games.force(chat.service.state_of(row), "4", "4", "4")
    await chat.service.store.update_session(row.id, row.version, state=forced.model_dump_json())
    await say(chat, "alice: 1", "alice +1000: katana", "bob +1100: katana", "alice +1500: salute",
              "bob +1600: salute", "/wait 9000", "/wait 9000")
    s = (await chat.service.show("table")).state
    assert s.missing == ["carol"] and s.roller == "bob" and s.phase == "roll"
    assert await say(chat, "carol: /mygames") == [
        "Your games (1); waiting on you: 1.", "#table Tatamokatsu: the roll waits for you (you missed the last race)"]
    assert await say(chat, "bob: /mygames") == ["Your games (1); waiting on you: 0.",
                                                "#table Tatamokatsu: waiting on carol"]


async def test_here_in_the_sandbox_opens_a_roll_held_for_the_one_who_typed_it(chat):
    """The sandbox's ``/here`` is the board's "I'm here": carol, marked missing, is back and bob's roll opens; a
    player not marked missing is refused and nothing changes."""
    await say(chat, "alice: /play tatamokatsu presence=true", "bob: /join", "carol: /join", "alice: /start")
    row = await chat.service.reads.live_session("table")
    forced = games.force(chat.service.state_of(row), "4", "4", "4")
    await chat.service.store.update_session(row.id, row.version, state=forced.model_dump_json())
    await say(chat, "alice: 1", "alice +1000: katana", "bob +1100: katana", "alice +1500: salute",
              "bob +1600: salute", "/wait 9000", "/wait 9000")
    held = await chat.service.show("table")
    assert held.state.missing == ["carol"] and held.state.roller == "bob"
    refused = await say(chat, "alice: /here")
    assert (await chat.service.show("table")).session.version == held.session.version, refused
    await say(chat, "carol: /here")
    back = (await chat.service.show("table")).state
    assert back.missing == [] and back.roller == "bob" and back.phase == "roll"
    assert refused == ["! alice: You are not marked missing: nothing to do."]
    assert (await say(chat, "bob: 1"))[0].startswith("bob rolls ")
    assert (await chat.service.show("table")).state.phase == "race"
