"""Restarts, timers and channel isolation."""

from __future__ import annotations

import random

from harness import Harness
from test_discord_play import open_game, pending, play_turn

from bot.discord.timers import AFK, REMINDER

HOUR = 3_600_000


async def test_old_button_works_after_restart(database):
    h = Harness(database)
    await h.open()
    try:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        board = await open_game(h, [alice, bob])
        update = await pending(h)
        player = alice if update.pending[0].player == alice.sid else bob
        old_bot = h.bot
        await h.restart()
        assert h.bot is not old_bot
        reply = await h.click(player, board, board.custom_ids()[0])
        assert reply.public() and not reply.ephemeral(), reply.text
        assert (await pending(h)).session.version == update.session.version + 1
        # the lobby card's buttons too: a new lobby in another channel, restart, join through the old card
        other = h.channel_id + 7
        card = (await h.slash(alice, "play", game="tatari", channel_id=other)).message(public=True)
        await h.restart()
        reply = await h.click(bob, card, "Join")
        assert reply[-1].type == 7 and "<@102>" in reply[-1].content
    finally:
        await h.close()


async def test_two_channels_play_without_interference(database):
    async with Harness(database) as h:
        a1, a2, b1, b2 = (h.user(i, n) for i, n in ((101, "a1"), (102, "a2"), (201, "b1"), (202, "b2")))
        c1, c2 = h.channel_id, h.channel_id + 1
        board1 = await open_game(h, [a1, a2], channel_id=c1)
        await open_game(h, [b1, b2], channel_id=c2)
        users = {u.sid: u for u in (a1, a2, b1, b2)}
        rng = random.Random(3)
        for _ in range(6):
            for c in (c1, c2):
                if (await h.store.live_session(str(c))) is not None:
                    reply = await play_turn(h, users, rng, channel_id=c)
                    assert all(s.channel_id in (None, c) for s in reply.public())
        # a button of channel 1's board pressed in channel 2 is refused there
        msg = dict(board1.message, channel_id=str(c2))
        reply = await h.click(b1, msg, board1.custom_ids()[0])
        assert reply.ephemeral() and "does not belong" in reply.text
        # a failure in one channel does not affect the other
        row2 = await h.store.live_session(str(c2))
        if row2 is not None:
            h.fake.fail_next.append(RuntimeError("network down"))
            update = await pending(h, c1)
            if update.session.status == "active":
                await play_turn(h, users, rng, channel_id=c1)
            reply = await play_turn(h, users, rng, channel_id=c2)
            assert reply.public()


async def test_turn_reminder_and_afk_timers(database):
    from bot.config import Settings

    settings = Settings(discord_token=None, reminder_hours=2, afk_hours=5)
    async with Harness(database, settings=settings) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        update = await pending(h)
        player = update.pending[0].player
        timers = await h.store.timers(update.session.id)
        assert {t.kind for t in timers} == {REMINDER, AFK}
        assert min(t.due_ms for t in timers) == h.now_ms + 2 * HOUR
        h.advance(2 * HOUR)
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) == 1
        await h.settle()
        sent = h.fake.sent[start:]
        due = (h.now_ms + 3 * HOUR) // 1000  # the AFK limit: 5 h after the board
        assert [s.content for s in sent] == [f"⏰ <@{player}>, Tatari is waiting for your move; it is due <t:{due}:R>."]
        assert sent[0].body["allowed_mentions"]["users"] == [int(player)]
        board = h.board()
        assert sent[0].body["message_reference"]["message_id"] == int(board["id"])  # a reply to the live board
        h.advance(2 * HOUR)  # reminders repeat at the pace's interval until the deadline
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) == 1
        await h.settle()
        assert [s.content for s in h.fake.sent[start:]] == [sent[0].content]
        h.advance(1 * HOUR)
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) == 1
        afk = h.fake.sent[start]
        assert "has not played" in afk.content and afk.buttons() == ["🤖 The AI plays for alice", "Remove alice"]
        assert player == alice.sid  # first=host: alice, the host, is the idle one
        # the notice pings the others and the host, never the idle player; any other player may remove
        assert afk.body["allowed_mentions"]["users"] == [int(bob.sid)]
        assert f"<@{alice.sid}>" not in afk.content and f"<@{bob.sid}>" in afk.content
        outsider = h.user(160, "carol")
        reply = await h.click(outsider, afk, "Remove alice")
        assert reply.ephemeral() and "Only the other players, the host or a moderator" in reply.text
        reply = await h.click(bob, afk, "Remove alice")
        assert reply.public() and "resigns" in reply.text
        assert (await h.store.session(update.session.id)).status == "finished"
        mod = h.user(150, "mod", moderator=True)
        reply = await h.click(mod, afk, "Remove alice")
        assert reply.ephemeral() and "over" in reply.text


async def test_reminder_is_dropped_when_the_player_moved(database):
    async with Harness(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        users = {alice.sid: alice, bob.sid: bob}
        await play_turn(h, users, random.Random(1))
        update = await pending(h)
        timers = await h.store.timers(update.session.id)
        # reminder every 12 h, AFK limit off: the three reminders of the wait (at most 3)
        assert [(t.payload["version"], t.due_ms) for t in timers if t.kind == REMINDER] == [
            (update.session.version, h.now_ms + k * 12 * HOUR) for k in (1, 2, 3)]
        await h.slash(alice, "settings", reminder_hours=0.0)
        reply = await h.slash(alice, "settings", reminder_hours=0.0)
        assert "Only members with Manage" in reply.text
        mod = h.user(150, "mod", moderator=True)
        reply = await h.slash(mod, "settings", reminder_hours=0.0, afk_hours=1.5)
        assert "Saved" in reply.text and "turn reminder off" in reply.text and "AFK limit 1.5 h" in reply.text
        await play_turn(h, users, random.Random(2))
        update = await pending(h)
        kinds = [t.kind for t in await h.store.timers(update.session.id)]
        assert REMINDER not in kinds and AFK in kinds


async def test_dispatcher_loop_wakes_for_due_timers(database):
    """The real loop: a timer due now is fired without calling fire_due by hand."""
    import asyncio

    async with Harness(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        update = await pending(h)
        await h.store.add_timer(update.session.channel_id, REMINDER, h.now_ms,
                                {"version": update.session.version, "player": update.pending[0].player},
                                session_id=update.session.id)
        start = len(h.fake.sent)
        h.bot.timers.wake()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(h.fake.sent) > start:
                break
        assert "waiting for your move" in h.fake.sent[start].content


async def test_engine_bug_in_one_channel_spares_the_other(database, caplog):
    import logging

    import fakegame

    fakegame.register()
    try:
        async with Harness(database) as h:
            a1, a2, b1, b2 = (h.user(i, n) for i, n in ((101, "a1"), (102, "a2"), (201, "b1"), (202, "b2")))
            c1, c2 = h.channel_id, h.channel_id + 1
            await open_game(h, [a1, a2], channel_id=c1, game="racer", options="n=20")
            await open_game(h, [b1, b2], channel_id=c2, game="racer", options="n=20")
            before = (await pending(h, c1)).session.version
            caplog.set_level(logging.ERROR)
            reply = await h.choose(a1, fakegame.BOOM, c1)
            assert reply.ephemeral() and "went wrong" in reply.text and not reply.public()
            sid = (await pending(h, c1)).session.id
            assert any(f"(session {sid})" in r.getMessage() for r in caplog.records)
            assert (await pending(h, c1)).session.version == before  # nothing half-done
            reply = await h.choose(b1, "n:3", c2)
            assert reply.public() and "picks Number 3" in reply.text
            reply = await h.choose(a1, "n:4", c1)  # and channel 1 goes on with a good move
            assert reply.public() and "picks Number 4" in reply.text
    finally:
        fakegame.unregister()
