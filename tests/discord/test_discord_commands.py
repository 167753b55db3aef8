"""The other commands (undo, abandon, threads, board, history, rules, help), select menus and two-step picks, and
the race inputs (typed messages, reactions, deadlines) through real gateway payloads."""

from __future__ import annotations

import random

import fakegame
import pytest
from harness import Harness, Reply
from test_discord_play import open_game, pending, play_turn

from bot.sessions import DEADLINE


@pytest.fixture
async def h(database):
    fakegame.register()
    async with Harness(database) as harness:
        yield harness
    fakegame.unregister()


async def test_undo_needs_the_others(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    users = {u.sid: u for u in (alice, bob, carol)}
    await open_game(h, [alice, bob, carol])
    reply = await h.slash(bob, "undo")
    assert reply.ephemeral() and "no move to undo" in reply.text
    await play_turn(h, users, random.Random(5))
    before = await pending(h)
    ask = (await h.slash(bob, "undo")).message(public=True)
    assert ask.buttons() == ["Approve undo", "Refuse"]
    reply = await h.click(bob, ask, "Approve undo")
    assert reply.ephemeral() and "other players decide" in reply.text
    reply = await h.click(alice, ask, "Approve undo")
    assert reply[-1].type == 7 and "waiting for <@103>" in reply[-1].content
    reply = await h.click(carol, ask, "Approve undo")
    assert "taken back" in reply.text
    after = await pending(h)
    assert len(await h.store.moves(after.session.id)) == 0
    assert after.session.version == before.session.version + 1
    # a refusal closes the vote; a stale vote is refused
    await play_turn(h, {u.sid: u for u in (alice, bob, carol)}, random.Random(6))
    ask = (await h.slash(alice, "undo")).message(public=True)
    reply = await h.click(bob, ask, "Refuse")
    assert "refused" in reply.text
    reply = await h.click(carol, ask, "Approve undo")
    assert "out of date" in reply.text


async def test_abandon_board_history_rules_help(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    mod = h.user(150, "mod", moderator=True)
    reply = await h.slash(alice, "board")
    assert reply.ephemeral() and "No game here" in reply.text
    await open_game(h, [alice, bob])
    reply = await h.slash(carol, "board")  # ephemeral; carol is not seated, so no buttons
    board = reply.message(public=False)
    assert not reply.public() and not board.custom_ids() and board.files
    reply = await h.slash(carol, "history")
    # Tatari's setup events (Game.begin): who holds the Cursed box first, then the first roll
    assert reply.ephemeral() and reply.text.startswith("• <@101> holds the Cursed box first (first seat).\n• <@101> rolls ")
    await play_turn(h, {alice.sid: alice, bob.sid: bob}, random.Random(1))
    reply = await h.slash(carol, "history")
    assert reply.ephemeral() and "<@101>" in reply.text
    reply = await h.slash(carol, "rules", game="tatari")
    assert reply.ephemeral() and "Tatari" in reply.text and "More:" in reply.text
    reply = await h.slash(carol, "rules", game="tatari", topic="bust")
    assert "fullest shrine" in reply.text
    reply = await h.slash(carol, "rules", game="tatari", topic="nope")
    assert reply.ephemeral() and "no rules topic" in reply.text
    topics = await h.autocomplete(carol, "rules", "topic", game="tatari", topic="s")
    assert {c["value"] for c in topics} >= {"stop", "stash"}
    reply = await h.slash(carol, "help")
    assert reply.ephemeral() and "/play" in reply.text and "Tatari" in reply.text
    reply = await h.slash(mod, "abandon")
    assert reply.public() and "abandoned" in reply.text
    assert await h.store.live_session(str(h.channel_id)) is None


async def test_play_in_a_thread_and_options_autocomplete(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    found = await h.autocomplete(alice, "play", "game", game="rac")
    assert [c["value"] for c in found] == ["racer"]
    reply = await h.slash(alice, "play", game="chess")
    assert reply.ephemeral() and "no game called 'chess'" in reply.text
    choices = await h.autocomplete(alice, "play", "options", game="racer", options="mo")
    assert [c["value"] for c in choices] == ["mode=plain", "mode=fancy"]
    reply = await h.slash(alice, "play", game="racer", options="n=30 rounds=1", thread=True)
    thread = next(s for s in reply if s.kind == "thread")
    tid = int(thread.message["id"])
    assert any(s.ephemeral and f"<#{tid}>" in s.content for s in reply)
    card = next(s for s in reply if s.kind == "message" and s.channel_id == tid)
    row = await h.store.live_session(str(tid))
    assert row.options["n"] == 30 and row.options["window_ms"] == 8000
    await h.click(bob, card, "Join")
    reply = await h.click(alice, card, "Start")
    board = reply.message(public=True, with_components=True)
    # 30 options: one select menu per 25; then the help row (How to play, Full board)
    assert [c["type"] for c in board.components] == [3, 3, 2, 2]
    assert "Racer" in board.content and not board.files  # no renderer: text only
    reply = await h.slash(alice, "play", game="racer", thread=True, channel_id=tid, channel_type=11)
    assert reply.ephemeral() and "thread already" in reply.text


async def test_selects_two_step_and_race_inputs(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    board = await open_game(h, [alice, bob], game="racer", options="n=200 rounds=3 window_ms=5000")
    # 200 options: one group select (two-step pick); then the help row
    assert [c["type"] for c in board.components] == [3, 2, 2]
    group = board.components[0]
    assert len(group["options"]) == 8
    reply = await h.select(alice, board, 0, ["7"])
    page = reply.ephemeral()[0]
    assert page.components[0]["type"] == 3 and page.components[0]["options"][0]["label"] == "Number 175"
    reply = await h.select(alice, page, 0, ["180"])
    race = reply.message(public=True)
    assert "picks Number 180" in race.content and "1️⃣ `shout`" in race.content
    sid = (await pending(h)).session.id
    assert [t.kind for t in await h.store.timers(sid)] == [DEADLINE]
    # a typed shout: the bot, a non-player and chatter are ignored; the first player's shout wins
    robot = h.user(199, "robot", bot=True)
    assert not (await h.say(robot, "shout")).public()
    assert not (await h.say(carol, "shout")).public()
    assert not (await h.say(bob, "hello")).public()
    h.advance(1200)
    reply = await h.say(bob, "Shout")
    assert "<@102> wins the race" in reply.text
    # next round: bob picks with a select; then a reaction (keycap 2 = grab) wins
    page = (await h.select(bob, h.board(), 0, ["0"])).ephemeral()[0]
    reply = await h.select(bob, page, 0, ["3"])
    race_board = int(reply.message(public=True).message["id"])
    assert not (await h.react(robot, race_board, "2️⃣")).public()
    assert not (await h.react(carol, race_board, "2️⃣")).public()
    reply = await h.react(alice, race_board, "2️⃣")
    assert "<@101> wins the race (grab" in reply.text
    # third round: nobody races; the dispatcher's tick closes the window at the deadline
    page = (await h.select(alice, h.board(), 0, ["0"])).ephemeral()[0]
    await h.select(alice, page, 0, ["0"])
    h.advance(6000)
    start = len(h.fake.sent)
    assert await h.bot.timers.fire_due(h.now_ms) >= 1
    await h.settle()
    final = Reply(h.fake.sent[start:]).message(public=True)
    assert "Nobody raced in time" in final.content and "Game over" in final.content


async def test_dispatcher_closes_a_race_window_by_itself(h):
    """The real dispatcher loop (no fire_due by hand) is woken by the new deadline and closes the window."""
    import asyncio

    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    board = await open_game(h, [alice, bob], game="racer", options="n=3 rounds=1 window_ms=50")
    await h.click(alice, board, 0)
    assert "Race!" in h.fake.sent[-1].content or "race" in Reply(h.fake.sent[-3:]).text.lower()
    h.advance(100)  # the fake clock passes the deadline; the loop wakes after 50 ms of real time
    start = len(h.fake.sent)
    for _ in range(100):
        await asyncio.sleep(0.02)
        if any("Nobody raced in time" in s.content for s in h.fake.sent[start:]):
            break
    await h.settle()
    assert any("Nobody raced in time" in s.content and "Game over" in s.content for s in h.fake.sent[start:])


async def test_tatamokatsu_race_by_typed_word(h):
    """The real race game: the roller presses Roll, a player types the game's chat word (Game.chat_word)."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    board = await open_game(h, [alice, bob], game="tatamokatsu")
    update = await pending(h)
    assert update.pending[0].player == alice.sid
    reply = await h.click(alice, board, 0)
    race = reply.message(public=True)
    update = await pending(h)
    assert any(d.player is None and d.deadline_ms for d in update.pending), race.content
    assert {t.kind for t in await h.store.timers(update.session.id)} >= {DEADLINE}
    h.advance(300)
    reply = await h.say(bob, "Tatamokatsu!")
    assert not reply.public()  # counted silently: the window ends with ONE result message (bot/discord/races.py)
    moves = await h.store.moves(update.session.id)
    assert moves[-1].player == bob.sid and moves[-1].option == "shout" and moves[-1].at_ms == h.now_ms
