"""The sandbox's /undo follows the service's undo rule: a seated player asks, the other seated players approve with
/undo (or refuse with /undo no); alone with AI seats the move is taken back at once."""

from __future__ import annotations

import pytest

from bot.local.chat import LocalChat
from bot.rules_help import SANDBOX_HELP, UNDO_RULE
from bot.sessions import SessionService
from bot.store import Store


@pytest.fixture
async def chat(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    yield LocalChat(SessionService(store, seeds=lambda: 7), None)
    await store.close()


async def say(chat: LocalChat, line: str) -> list[str]:
    return await chat.line(line)


async def started(chat: LocalChat) -> tuple[str, str]:
    """Start a 3-player Tatari game; the first decider and the id of their first listed option."""
    for line in ("alice: /play tatari", "bob: /join", "carol: /join", "alice: /start"):
        await say(chat, line)
    d = (await chat.service.show("table")).pending[0]
    return d.player, d.options[0].id


async def test_a_request_needs_every_other_player(chat):
    first, option = await started(chat)
    await say(chat, f"{first}: 1")
    assert await say(chat, "bob: /undo") == [
        "bob asks to take back the last move. alice, carol: approve with /undo, or refuse with /undo no. (Any move "
        "meanwhile cancels the request.)"]
    assert await say(chat, "bob: /undo") == ["! bob: You asked for it: the other players decide."]
    assert await say(chat, "alice: /undo") == [
        "bob asks to take back the last move. Approved by alice, bob; waiting for carol."]
    out = await say(chat, "carol: /undo")
    assert out[:2] == ["Everyone approved: the last move is taken back.",
                       f"bob took back the last move ({first}: {option})."]
    row = await chat.service.store.live_session("table")
    assert row.move_count == 0


async def test_one_refusal_closes_the_request(chat):
    first, _ = await started(chat)
    await say(chat, f"{first}: 1")
    await say(chat, "alice: /undo")
    assert await say(chat, "carol: /undo no") == ["carol refused to undo the last move."]
    assert await say(chat, "bob: /undo no") == ["! bob: No undo request is open: /undo asks for one."]
    row = await chat.service.store.live_session("table")
    assert row.move_count == 1


async def test_help_states_the_undo_rule(chat):
    assert (await say(chat, "alice: /help"))[0] == SANDBOX_HELP
    assert SANDBOX_HELP.endswith(f"{UNDO_RULE!s} Approve with /undo, refuse with /undo no.")
