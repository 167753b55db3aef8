"""The 3 s interaction budget counts from the interaction's creation, its snowflake: an
interaction with less than ``DEFER_BELOW_MS`` left when its handler starts is deferred before the database work and
answered by follow-ups; a fresh one is answered directly."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from harness import DISCORD_EPOCH_MS, Harness
from test_discord_play import open_game, pending
from test_discord_tatamokatsu_races import no_render

from bot.discord.answers import DEFER_BELOW_MS, INTERACTION_BUDGET_MS

DEFERRED_UPDATE, THINKING, UPDATE_MESSAGE = 6, 5, 7


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3", render=no_render) as harness:
        yield harness


@contextlib.contextmanager
def aged(h: Harness, ms: int):
    """Interactions created meanwhile carry a snowflake ``ms`` older than the bot's clock (a slow gateway)."""
    seq, real = itertools.count(5_000), h.snowflake
    h.snowflake = lambda: ((h.now_ms - ms - DISCORD_EPOCH_MS) << 22) | (next(seq) & 0x3FFFFF)
    try:
        yield
    finally:
        h.snowflake = real


def sent_before_moves(h: Harness) -> list[int]:
    """Record how many calls had been made to Discord each time a move is applied (``SessionService.act`` for
    ``/move`` and typed inputs, ``SessionService.press`` for components)."""
    seen: list[int] = []

    def recording(verb):
        async def run(*args, **kwargs):
            seen.append(len(h.fake.sent))
            return await verb(*args, **kwargs)
        return run

    h.bot.service.act = recording(h.bot.service.act)
    h.bot.service.press = recording(h.bot.service.press)
    return seen


async def mover(h: Harness, users: dict):
    d = (await pending(h)).pending[0]
    return users[d.player], d


async def test_fresh_press_is_answered_directly(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    user, d = await mover(h, {alice.sid: alice, bob.sid: bob})
    reply = await h.choose(user, d.options[0].id, allow_move=False)
    assert reply[0].kind == "response" and reply[0].type in (4, UPDATE_MESSAGE)
    assert not [s for s in reply if s.type in (DEFERRED_UPDATE, THINKING)]


async def test_press_two_seconds_old_is_deferred_before_the_move(h):
    """A press created 2 s before its handler starts (1 s left < DEFER_BELOW_MS): a deferred update goes out
    before the move is applied; the board follows, and the game moved on exactly once."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    before = await pending(h)
    user, d = await mover(h, {alice.sid: alice, bob.sid: bob})
    seen = sent_before_moves(h)
    start = len(h.fake.sent)
    with aged(h, 2000):
        reply = await h.choose(user, d.options[0].id, allow_move=False)
    assert reply[0].kind == "response" and reply[0].type == DEFERRED_UPDATE
    assert seen == [start + 1]  # the deferral was sent before the move
    after = await pending(h)
    assert after.session.version == before.session.version + 1
    board = h.bot.table.live[after.session.id]
    assert int(reply[-1].message["id"]) == board.message_id or board.message_id in h.fake.messages
    assert [s for s in reply if s.kind in ("followup", "edit", "edit_original") and not s.ephemeral]


@pytest.mark.parametrize(("age_ms", "deferred"), [
    (INTERACTION_BUDGET_MS - DEFER_BELOW_MS - 100, False),
    (INTERACTION_BUDGET_MS - DEFER_BELOW_MS + 100, True),
])
async def test_deferral_threshold(h, age_ms, deferred):
    """1.4 s old: 1.6 s left, answered directly; 1.6 s old: 1.4 s left, deferred (DEFER_BELOW_MS = 1500)."""
    assert DEFER_BELOW_MS == 1500
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    user, d = await mover(h, {alice.sid: alice, bob.sid: bob})
    with aged(h, age_ms):
        reply = await h.choose(user, d.options[0].id, allow_move=False)
    assert (reply[0].type == DEFERRED_UPDATE) is deferred


async def test_move_command_two_seconds_old_thinks_publicly_then_posts_the_board(h):
    """``/move`` 2 s old: a public "thinking…" before the move, then either replaced by the public board of the
    next turn (its first follow-up), or — the same player deciding again, the live board edited in place —
    deleted, with an ephemeral "Done" sent before the REST edit; no "thinking…" message is left either way. Both happen in a few moves."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    seen = sent_before_moves(h)
    ways = set()
    for _ in range(30):
        if (await pending(h)).session.status != "active" or len(ways) == 2:
            break
        user, d = await mover(h, users)
        seen.clear()
        h.advance(3000)  # created after the last board was posted (else it is stale)
        start = len(h.fake.sent)
        with aged(h, 2000):
            reply = await h.slash(user, "move", option=d.options[0].id)
        assert reply[0].type == THINKING and not reply[0].ephemeral
        assert seen == [start + 1]  # deferred before the move
        first = next(s for s in reply if s.kind in ("followup", "delete_original"))
        if first.kind == "followup":
            assert not first.ephemeral and first.custom_ids() and first.message["id"] == reply[0].message["id"]
        else:
            edited = [i for i, s in enumerate(reply) if s.kind == "edit"]
            assert edited and reply[edited[0]].custom_ids()
            done = [i for i, s in enumerate(reply) if s.kind == "followup"]
            assert done and reply[done[0]].ephemeral and "Done" in reply[done[0]].content
            assert done[0] < edited[0]  # answered before the REST edit of the live board
            assert int(reply[0].message["id"]) not in h.fake.messages
        ways.add(first.kind)
    assert ways == {"followup", "delete_original"}


async def test_refusal_after_a_public_deferral_stays_ephemeral(h):
    """``/move`` 2 s old by the player who is not to move: the public "thinking…" is deleted and the refusal is an
    ephemeral follow-up; nothing public is left."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    user, d = await mover(h, {alice.sid: alice, bob.sid: bob})
    other = bob if user is alice else alice
    with aged(h, 2000):
        reply = await h.slash(other, "move", option=d.options[0].id)
    assert [s.kind for s in reply] == ["response", "delete_original", "followup"]
    assert reply[0].type == THINKING and reply[2].ephemeral and reply[2].content
    assert int(reply[0].message["id"]) not in h.fake.messages


async def test_history_two_seconds_old_thinks_privately(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    with aged(h, 2000):
        reply = await h.slash(alice, "history")
    assert [s.kind for s in reply] == ["response", "followup"]
    assert reply[0].type == THINKING and reply[0].ephemeral and reply[1].ephemeral and reply[1].content
