"""Refusals and odd input through real interactions: a second resignation, a /move delivered
twice, select values that are digits to ``str.isdigit`` but not to ``int``, malformed slash payloads, a mention."""

from __future__ import annotations

import asyncio
import logging

import fakegame
import pytest
from harness import Harness
from test_discord_play import open_game, pending

import games


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


@pytest.mark.parametrize("game", ["tatari", "tatamokatsu", "tatsumi"])
async def test_second_resignation_is_refused_and_changes_nothing(h, game):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob, carol], game=game)
    first = await h.slash(alice, "resign")
    assert not first.ephemeral(), first.text
    update = await pending(h)
    assert update.session.status == "active"
    board = first.message(public=True)
    assert "alice" not in board.content.split("\n")[0].lower() or "left" in board.content.lower()
    version = update.session.version
    again = await h.slash(alice, "resign")
    assert again.ephemeral() and again.text == "You have already left this game."
    after = await pending(h)
    assert after.session.status == "active" and after.session.version == version
    assert len(await h.store.moves(after.session.id)) == 1


async def _force_next_dice(h: Harness, *faces: str) -> None:
    """Queue the next dice of the channel's Tatari game in its stored state (RULINGS C-1), as a test may."""
    update = await pending(h)
    state = games.force(update.state, *faces)
    await h.store.conn.execute("UPDATE sessions SET state = ? WHERE id = ?",
                               (state.model_dump_json(), update.session.id))
    await h.store.conn.commit()
    h.bot.service.states.forget(update.session.id)


def _slash_payload(h: Harness, user, name: str, **options) -> dict:
    """A ``/name`` interaction created now (its snowflake is now) to be delivered later."""
    data = {"id": str(10_000 + hash(name) % 10_000), "name": name, "type": 1, "options": h._options(options)}
    return h._interaction(user, 2, data)


@pytest.mark.parametrize("delivery", ["together", "late"])
async def test_move_delivered_twice_applies_once(h, delivery):
    """Two identical ``/move continue`` delivered together: the second was sent before the board
    it would act on existed, so it is stale — refused, nothing stored — even where ``continue`` is legal again."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    users = {alice.sid: alice, bob.sid: bob}
    # play set-asides until someone may continue
    for _ in range(20):
        d = (await pending(h)).pending[0]
        if d.option("continue"):
            break
        await h.slash(users[d.player], "move", option=d.options[0].id)
    assert d.option("continue"), "no continue decision reached"
    me = users[d.player]
    update = await pending(h)
    taken = len(update.state.set_aside)
    # the next roll shows a single new face, set aside by itself (C-3): continue is legal again afterwards
    assert 6 - taken >= 2, update.state.set_aside
    new_face = next(f for f in ("1", "2", "3", "4", "doll", "double-doll") if f not in update.state.set_aside)
    old_face = update.state.set_aside[0]
    await _force_next_dice(h, new_face, *([old_face] * (5 - taken)))
    before = len(await h.store.moves(update.session.id))
    if delivery == "together":
        first, second = await asyncio.gather(h.slash(me, "move", option="continue"),
                                             h.slash(me, "move", option="continue"))
    else:  # the second was sent first but arrives after the first was applied (a laggy phone's retry)
        late = _slash_payload(h, me, "move", option="continue")
        first = await h.slash(me, "move", option="continue")
        second = await h._feed(h.bot._connection.parse_interaction_create, late)
    after = await pending(h)
    assert after.pending and after.pending[0].option("continue"), "continue must be legal again for this test"
    assert len(await h.store.moves(after.session.id)) == before + 1
    assert after.session.version == update.session.version + 1
    texts = [s.content for r in (first, second) for s in r.ephemeral()]
    assert any("out of date" in t for t in texts), texts


async def test_move_after_seeing_the_board_applies(h):
    """The same ``/move`` sent again after the board was shown is a new move, not a stale one."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    d = (await pending(h)).pending[0]
    user = alice if d.player == alice.sid else bob
    version = (await pending(h)).session.version
    reply = await h.slash(user, "move", option=d.options[0].id)
    assert not any("out of date" in s.content for s in reply.ephemeral()), reply.text
    h.advance(1500)
    d2 = (await pending(h)).pending[0]
    user2 = alice if d2.player == alice.sid else bob
    reply = await h.slash(user2, "move", option=d2.options[0].id)
    assert not any("out of date" in s.content for s in reply.ephemeral()), reply.text
    assert (await pending(h)).session.version == version + 2


@pytest.mark.parametrize("value", ["²", "①", "٣", "-1", "", "99999999999999999999999"])
async def test_select_values_that_are_not_plain_numbers_are_refused(h, value):
    """A select value ``str.isdigit`` accepts but ``int`` refuses ("²", "①") once left the interaction unanswered."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    fakegame.register()
    try:
        await open_game(h, [alice, bob], game="racer", options="n=30 rounds=1")
        board = h.board()
        before = (await pending(h)).session.version
        menus = [c for row in board.get("components", []) for c in row["components"] if c.get("type") == 3]
        assert menus, "a decision of 30 options has a select menu"
        d = (await pending(h)).pending[0]
        user = alice if d.player == alice.sid else bob
        reply = await h.select(user, board, menus[0]["custom_id"], [value])
        assert reply.ephemeral(), f"unanswered: {reply}"
        assert (await pending(h)).session.version == before
    finally:
        fakegame.unregister()


async def test_malformed_slash_payload_gets_an_answer_and_no_traceback(h, caplog):
    """Wrong option types (a stale command registration) get a clear ephemeral answer, not a logged traceback."""
    alice = h.user(101, "alice")
    caplog.set_level(logging.WARNING)
    reply = await h.slash(alice, "history", count="lots")
    assert reply.ephemeral(), reply
    reply = await h.slash(alice, "play", game=12)
    assert reply.ephemeral(), reply
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


async def test_a_mention_of_the_bot_is_ignored_quietly(h, caplog):
    """"@bot hello" is no command: nothing is posted and nothing is logged as an error (no prefix commands)."""
    alice = h.user(101, "alice")
    caplog.set_level(logging.WARNING)
    reply = await h.say(alice, f"<@{h.bot.user.id}> hello")
    assert not reply.public()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
