"""Whole games and refusals through real interactions (buttons, selects, /move with autocomplete)."""

from __future__ import annotations

import random

import pytest
from harness import Harness

from bot.discord import ids


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


async def open_game(h: Harness, players, channel_id=None, game="tatari", options=None):
    host = players[0]
    kw = {"game": game}
    if options:
        kw["options"] = options
    card = (await h.slash(host, "play", channel_id=channel_id, **kw)).message(public=True)
    for p in players[1:]:
        await h.click(p, card, "Join")
    return (await h.click(host, card, "Start")).message(public=True, with_components=True)


async def pending(h: Harness, channel_id=None):
    update = await h.bot.service.show(str(channel_id or h.channel_id))
    return update


async def play_turn(h: Harness, users: dict, rng: random.Random, channel_id=None):
    """Answer the first pending decision with a random option through the current board, as its player."""
    decision = (await pending(h, channel_id)).pending[0]
    return await h.choose(users[decision.player], rng.choice(decision.options).id, channel_id, allow_move=False)


async def test_whole_tatari_game_through_interactions(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    users = {u.sid: u for u in (alice, bob, carol)}
    await open_game(h, [alice, bob, carol])
    sid = (await pending(h)).session.id
    rng = random.Random(7)
    moves = 0
    while (await h.store.session(sid)).status == "active":
        reply = await play_turn(h, users, rng)
        assert not reply.ephemeral(), reply.text
        board = reply.message(public=True)
        assert board.content.startswith("**Tatari**")
        moves += 1
        assert moves < 2000
    row = await h.store.session(sid)
    assert row.status == "finished"
    assert "Game over" in board.content and not board.components
    assert board.files and board.files[0][1].startswith(b"\x89PNG")
    assert len(await h.store.moves(row.id)) == moves


async def test_move_command_and_autocomplete(h, monkeypatch):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    update = await pending(h)
    d = update.pending[0]
    me = alice if d.player == alice.sid else bob
    other = bob if me is alice else alice
    choices = await h.autocomplete(me, "move", "option", option="")
    assert {c["value"] for c in choices} == {o.id for o in d.options}
    assert await h.autocomplete(other, "move", "option", option="") == []
    reply = await h.slash(other, "move", option=d.options[0].id)
    assert reply.ephemeral() and reply.text == f"It is not your turn: waiting for <@{me.sid}>."
    reply = await h.slash(me, "move", option="nonsense")
    assert reply.ephemeral() and "not a choice" in reply.text
    said: list[tuple[str, str]] = []
    for verb in ("refuse", "tell"):
        original = getattr(h.bot.answers, verb)

        async def recorded(interaction, text, _verb=verb, _original=original):
            said.append((_verb, str(text)))
            await _original(interaction, text)

        monkeypatch.setattr(h.bot.answers, verb, recorded)
    reply = await h.slash(me, "move", option=d.options[0].id)
    assert said == [("tell", "✅ Done: the board in the channel shows it.")]  # a success is told, never refused
    # the same player decides next (Tatari: set aside, then continue), so /move edits the live board
    # in place and answers the command ephemerally instead of posting
    assert not reply.public() or all(s.kind == "edit" for s in reply.public()), reply.text
    [edit] = [s for s in reply if s.kind == "edit"]
    assert edit.message["id"] == h.board()["id"] and f"board v{update.session.version + 1}" in edit.content
    assert [s.content for s in reply.ephemeral()] == ["✅ Done: the board in the channel shows it."]
    assert (await pending(h)).session.version == update.session.version + 1


async def test_refusals(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    robot = h.user(199, "robot", bot=True)
    first = await open_game(h, [alice, bob])
    update = await pending(h)
    sid, ver = update.session.id, update.session.version
    d = update.pending[0]
    me = alice if d.player == alice.sid else bob
    other = bob if me is alice else alice
    button = first.custom_ids()[0]

    reply = await h.click(other, first, button)  # not your turn: the same wording as /move
    assert reply.ephemeral() and reply.text == f"It is not your turn: waiting for <@{me.sid}>."
    reply = await h.click(carol, first, button)  # not seated
    assert reply.ephemeral() and "not playing" in reply.text
    reply = await h.click(robot, first, button)  # bot users never play
    assert not reply.public()
    # forged ids: another session, another index, a template we never made
    for forged in (ids.choice(sid + 5, ver, 0, 0), ids.choice(sid, ver, 7, 0), ids.choice(sid, ver, 0, 99),
                   "pbc:c:xx", "pbc:zz:1"):
        reply = await h.click(me, first, button, custom_id=forged)
        assert reply.ephemeral() and not reply.public(), (forged, reply)
    assert (await pending(h)).session.version == ver  # nothing applied

    reply = await h.click(me, first, button)
    assert reply.public()
    reply = await h.click(me, first, button)  # the board as it was before that press: stale
    assert reply.ephemeral() and "out of date" in reply.text
    stale = reply.ephemeral()[0]
    choices = [c for c in stale.custom_ids() if c.startswith("pbc:c:")]
    assert choices and all(f":{ver + 1}:" in c for c in choices)

    # bad slash input
    reply = await h.slash(carol, "play", game="tatari")
    assert reply.ephemeral() and "already running" in reply.text
    reply = await h.slash(carol, "resign")
    assert reply.ephemeral() and "not playing" in reply.text
    reply = await h.slash(carol, "abandon")
    assert reply.ephemeral() and "Only the host" in reply.text
    reply = await h.slash(carol, "play", game="tatari", channel_id=h.channel_id + 1, options="first=nobody")
    assert reply.ephemeral() and "first" in reply.text
    reply = await h.slash(carol, "play", game="tatari", channel_id=h.channel_id + 1, options="colour=red")
    assert reply.ephemeral() and "no option 'colour'" in reply.text
    assert await h.store.live_session(str(h.channel_id + 1)) is None


async def test_double_click_applies_one_move(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    board = await open_game(h, [alice, bob])
    update = await pending(h)
    user = alice if update.pending[0].player == alice.sid else bob
    cid = board.custom_ids()[0]
    # two presses delivered before either is handled
    p1 = h._interaction(user, 3, {"custom_id": cid, "component_type": 2}, h.channel_id, board.message)
    p2 = h._interaction(user, 3, {"custom_id": cid, "component_type": 2}, h.channel_id, board.message)
    start = len(h.fake.sent)
    h.bot._connection.parse_interaction_create(p1)
    h.bot._connection.parse_interaction_create(p2)
    await h.settle()
    sent = h.fake.sent[start:]
    assert len(await h.store.moves(update.session.id)) == 1
    assert sum(1 for s in sent if s.kind == "response" and not s.ephemeral) == 1
    assert any(s.ephemeral and "out of date" in s.content for s in sent)


async def test_slow_image_is_attached_to_the_same_message(database):
    """A render slower than the wait does not hold the reply: text and buttons first, the image by an edit."""
    import time

    import renderers

    def slow(state, names):
        time.sleep(0.3)
        return renderers.render(state, names=names)

    async with Harness(database, render=slow, image_wait_s=0.01) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        update = await pending(h)
        user = alice if update.pending[0].player == alice.sid else bob
        board = h.board()
        reply = await h.click(user, board, board["components"][0]["components"][0]["custom_id"])
        first = reply.message(public=True)
        assert first.type == 7 and not first.files and first.custom_ids()  # the live board, updated in place
        late = [s for s in reply if s.kind == "edit_original"]
        assert len(late) == 1 and late[0].files and late[0].files[0][1].startswith(b"\x89PNG")
        assert late[0].message["id"] == first.message["id"]


async def test_slow_render_defers_within_the_deadline(database, monkeypatch):
    """An ephemeral board whose image outlasts the budget: the interaction is deferred, the board follows."""
    import time

    import bot.discord.answers as answers_module
    import renderers

    monkeypatch.setattr(answers_module, "RENDER_BUDGET_S", 0.01)

    def slow(state, names):
        time.sleep(0.2)
        return renderers.render(state, names=names)

    async with Harness(database, render=slow) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        first = await open_game(h, [alice, bob])
        update = await pending(h)
        user = alice if update.pending[0].player == alice.sid else bob
        await h.click(user, first, first.custom_ids()[0])
        h.bot.images._cache.clear()  # the current board's image must be rendered again
        reply = await h.click(user, first, first.custom_ids()[0])  # stale: the current board, ephemeral
        assert [s.kind for s in reply] == ["response", "followup"]
        assert reply[0].type == 5 and reply[0].ephemeral
        assert reply[1].ephemeral and "out of date" in reply[1].content and reply[1].files
