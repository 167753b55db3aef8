"""Defects found by attacking the offline chat: lines that crashed the runner (numbers that are digits to Python
but not to ``int``, times past what the store holds) and numbered race options nobody could pick by number."""

from __future__ import annotations

import pytest
from test_break_sessions import Dash

import games
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store

START = 1_700_000_000_000


@pytest.fixture
async def chat(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    svc = SessionService(store, seeds=lambda: 12345)
    yield LocalChat(svc, None, start_ms=START)
    await store.close()


@pytest.fixture
def dash():
    game = Dash()
    games._load()["dash"] = game
    yield game
    games._load().pop("dash", None)


async def say(chat, *lines):
    out = []
    for line in lines:
        out += await chat.line(line)
    return out


async def moves(chat, channel="table"):
    row = await chat.service.store.live_session(channel)
    return [(m.player, m.option) for m in await chat.service.store.moves(row.id)]


async def test_unicode_digits_are_not_numbers_of_a_list(chat):
    await say(chat, "alice: /play tatari", "bob: /join", "alice: /start")
    up = await chat.service.show("table")
    listed = "; ".join(o.short or o.label for o in up.pending[0].options)  # labels, never ids
    out = await say(chat, "alice: ²", "alice: /move ³", "alice: /wait ²")
    assert out == [
        f"! alice: '²' is not a choice now. Choose one of: {listed}.",
        f"! alice: '³' is not a choice now. Choose one of: {listed}.",
        "! alice: Say how long: /wait <ms>, a whole number from 0 to 31536000000 (a year).",
    ]
    assert await moves(chat) == [] and chat.now == START


async def test_times_past_what_the_store_holds_are_refused_and_the_clock_stays(chat):
    await say(chat, "alice: /play tatari", "bob: /join", "alice: /start")
    out = await say(chat, "alice +99999999999999999999: 1", "alice: /wait 99999999999999999999999",
                    "/wait 31536000001")
    assert out == [
        "! alice: The offset +99999999999999999999 ms is too far: at most +31536000000 ms (a year).",
        "! alice: Say how long: /wait <ms>, a whole number from 0 to 31536000000 (a year).",
        "! clock: Say how long: /wait <ms>, a whole number from 0 to 31536000000 (a year).",
    ]
    assert await moves(chat) == [] and chat.now == START
    # the table goes on
    out = await say(chat, "alice: 1")
    assert not any(line.startswith("!") for line in out) and len(await moves(chat)) == 1
    assert await say(chat, "/wait 31536000000") == [] and chat.now == START + 31_536_000_000


async def test_anyone_may_pick_a_race_option_by_its_number(chat, dash):
    await say(chat, "alice: /play dash", "bob: /join", "alice: /start", "alice: 1")
    out = await say(chat, "bob +10: 1")
    assert out[0] == "hit" and "! " not in " ".join(out)
    assert await moves(chat) == [("alice", "go"), ("bob", "hit")]
    out = await say(chat, "carol: 1")  # not seated: the service says so, not "nothing is waiting"
    assert out == ["! carol: Nothing is waiting for you now."]
    await say(chat, "bob: 1")  # bob's own "go"
    out = await say(chat, "carol: 1")
    assert out == ["! carol: You are not playing in this game. Wait for the next one, or /play in another channel."]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "0"], "Invalid value for '--players': Tatari takes 2-5 players, not 0."),
        (["--players", "6"], "Invalid value for '--players': Tatari takes 2-5 players, not 6."),
        (["-o", "first"], "Invalid value for '--option': write key=value, not 'first'."),
        (["-o", "frist=random"], "Error: Tatari has no option 'frist'. Options: first."),
    ],
)
def test_demo_refuses_a_bad_player_count_or_option_with_a_message(args, message):
    from click.testing import CliRunner

    from bot.__main__ import cli

    result = CliRunner().invoke(cli, ["demo", "tatari", "--no-images", *args])
    assert result.exit_code != 0 and not isinstance(result.exception, (IndexError, ValueError)), result.output
    assert message in result.output


def test_script_reads_a_windows_transcript_with_a_byte_order_mark(tmp_path):
    from click.testing import CliRunner

    from bot.__main__ import cli

    f = tmp_path / "t.txt"
    f.write_bytes("alice: /play tatari\r\nbob: /join\r\n".encode("utf-8-sig"))
    result = CliRunner().invoke(cli, ["script", str(f)])
    assert result.exit_code == 0, result.output
    assert "alice opened a lobby for Tatari." in result.output
    assert "bob joined (2/5)." in result.output
    assert "Cannot read" not in result.output


async def test_a_restarted_sandbox_goes_on_from_the_last_move_of_a_running_game(tmp_path, dash):
    store = await Store.open(tmp_path / "sandbox.sqlite3")
    try:
        first = LocalChat(SessionService(store, seeds=lambda: 1), None, start_ms=START)
        await say(first, "alice: /play dash", "bob: /join", "alice: /start", "/wait 50000", "alice: 1")
        # the sandbox restarts on the same database: a new service and chat, the virtual clock back at its start
        again = LocalChat(SessionService(store, seeds=lambda: 1), None, start_ms=START)
        out = await say(again, "bob +100: 1")
        assert out[0] == "hit", out
        row = await store.live_session("table")
        assert [(m.player, m.option, m.at_ms) for m in await store.moves(row.id)] == [
            ("alice", "go", START + 50_000), ("bob", "hit", START + 50_100)]
        assert again.now == START + 50_100
    finally:
        await store.close()


@pytest.mark.parametrize("command", [["demo", "tatari", "--no-images"], ["script", "-"]])
def test_a_seed_past_what_the_store_holds_is_refused(command):
    from click.testing import CliRunner

    from bot.__main__ import cli

    result = CliRunner().invoke(cli, [*command, "--seed", "99999999999999999999"], input="alice: /play tatari\n")
    assert result.exit_code == 2 and not isinstance(result.exception, OverflowError), result.output
    assert "Invalid value for '--seed'" in result.output
