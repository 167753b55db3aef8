"""Play over days through real interactions, on both store backends: /mygames across servers (never another
member's game, never a server the member left), the routes a member chooses (direct messages with a digest and a
Stop button; closed direct messages), a game's pace (reminders, the deadline on the board, across a restart) and
/away."""

from __future__ import annotations

import contextlib
import random

import pytest
from harness import CHANNEL_ID, GUILD_ID, Harness
from test_discord_play import open_game, pending, play_turn

from bot.config import Settings
from bot.discord.timers import AFK, REMINDER

HOUR = 3_600_000
DAY = 24 * HOUR
GUILD_B, GUILD_C = 800_000_000_000_000_002, 800_000_000_000_000_003
CH_B, CH_C, CH_EMPTY = 700_000_000_000_000_002, 700_000_000_000_000_003, 700_000_000_000_000_004
DM_CHANNEL = 700_000_000_000_000_099
"""A channel of no server: the harness sends its interactions as a direct message with the bot."""


@contextlib.asynccontextmanager
async def three_servers(database):
    """A bot in three servers: Table Town (the harness's channel), Moon Club (``CH_B``), Third Place (``CH_C``,
    ``CH_EMPTY``)."""
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=72)
    async with Harness(database, settings=settings) as harness:
        harness.add_channel(CH_B, GUILD_B, "Moon Club")
        harness.add_channel(CH_C, GUILD_C, "Third Place")
        harness.add_channel(CH_EMPTY, GUILD_C)
        yield harness


@pytest.fixture
async def h(database):
    async with three_servers(database) as harness:
        yield harness


def stamp(ms: int, style: str) -> str:
    return f"<t:{ms // 1000}:{style}>"


async def test_mygames_lists_a_members_games_across_servers_and_never_anothers(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob])  # Tatari in Table Town: alice (the host) moves first
    started_a = h.now_ms
    h.advance(HOUR)
    await open_game(h, [bob, alice], channel_id=CH_B, game="tsukimi")  # bob moves first
    h.advance(HOUR)
    await open_game(h, [bob, carol], channel_id=CH_C)  # not alice's
    reply = await h.slash(alice, "mygames", channel_id=CH_EMPTY)  # a channel without a game, another server
    text = reply[-1].content
    assert all(s.ephemeral for s in reply) and reply[0].type == 5
    lines = text.split("\n")
    assert lines[0] == "Your games (2); waiting on you: 1."
    sid_a = (await pending(h)).session.id
    board_a = h.bot.bookkeeper.boards[sid_a][1]
    assert lines[1] == (f"**Tatari in Table Town, <#{CHANNEL_ID}>** · "
                        f"[board](https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{board_a})")
    assert lines[2] == (f"  ➡️ your move, waiting since {stamp(started_a, 'R')} · "
                        f"due {stamp(started_a + 72 * HOUR, 'f')}")
    assert lines[3].startswith(f"**Tsukimi in Moon Club, <#{CH_B}>** · [board](https://discord.com/channels/"
                               f"{GUILD_B}/{CH_B}/")
    assert lines[4].startswith("  waiting on <@102> since ")
    assert str(CH_C) not in text and "Third Place" not in text  # bob and carol's game: never listed
    # carol's list has only her own game
    text_c = (await h.slash(carol, "mygames"))[-1].content
    assert "Your games (1); waiting on you: 0." in text_c and str(CH_C) in text_c and str(CHANNEL_ID) not in text_c
    # alice leaves the Moon Club: its game is no longer listed
    h.left.add((GUILD_B, alice.id))
    text = (await h.slash(alice, "mygames"))[-1].content
    assert text.startswith("Your games (1); waiting on you: 1.") and str(CH_B) not in text
    # a member with no games
    dave = h.user(104, "dave")
    assert (await h.slash(dave, "mygames"))[-1].content == "You are not seated in any game or lobby. /play opens one."


async def test_mygames_away_and_notify_answer_in_a_direct_message_with_the_bot(h):
    """In a DM with the bot (no guild): /mygames lists the member's games across servers as in a guild (never
    another's, never a server they left), /away and /notify work."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob])  # Table Town: alice moves first
    await open_game(h, [bob, alice], channel_id=CH_B, game="tsukimi")  # Moon Club: bob moves first
    await open_game(h, [bob, carol], channel_id=CH_C)  # not alice's
    in_guild = (await h.slash(alice, "mygames", channel_id=CH_EMPTY))[-1].content
    reply = await h.slash(alice, "mygames", channel_id=DM_CHANNEL)
    assert reply[0].body["data"]["flags"] == 64 and reply[-1].content == in_guild
    assert in_guild.startswith("Your games (2); waiting on you: 1.") and str(CH_C) not in in_guild
    h.left.add((GUILD_B, alice.id))
    text = (await h.slash(alice, "mygames", channel_id=DM_CHANNEL))[-1].content
    assert text.startswith("Your games (1); waiting on you: 1.") and str(CH_B) not in text

    sid = (await pending(h)).session.id
    before = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    reply = await h.slash(alice, "away", channel_id=DM_CHANNEL, days=2)
    assert reply[0].content.startswith("You are away until ")
    after = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    assert after == [t + 2 * DAY for t in before]
    reply = await h.slash(alice, "notify", channel_id=DM_CHANNEL, how="both")
    assert reply[0].content == "Saved. When a game waits on you: a ping in the game's channel and a direct message."
    assert (await h.bot.service.notifications.of(alice.sid)).route == "both"


async def test_mygames_shows_an_undo_request_waiting_for_the_members_vote(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    users = {alice.sid: alice, bob.sid: bob}
    rng = random.Random(3)
    while (await pending(h)).pending[0].player == alice.sid:
        await play_turn(h, users, rng)
    await h.slash(alice, "undo")
    assert "↩️ an undo request waits for your vote" in (await h.slash(bob, "mygames"))[-1].content
    assert "undo request" not in (await h.slash(alice, "mygames"))[-1].content


async def test_a_member_who_chose_dms_gets_one_per_turn_with_a_digest_and_can_stop_them(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    reply = await h.slash(bob, "notify", how="dm")
    assert reply.text == "Saved. When a game waits on you: a direct message."
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    rng = random.Random(5)
    turn = None
    while (await pending(h)).pending[0].player == alice.sid:
        turn = await play_turn(h, users, rng)
    # the board of bob's turn does not ping bob (his route is the direct message)
    board = [s for s in turn if s.message is not None and not s.ephemeral and s.components][-1]
    assert board.body["allowed_mentions"].get("users", []) == []
    (dm,) = h.dms(bob)
    sid = (await pending(h)).session.id
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{h.bot.bookkeeper.boards[sid][1]}"
    lines = dm["content"].split("\n")
    assert lines[:2] == [f"🎲 Your turn: Tatari in Table Town, <#{CHANNEL_ID}>.", link]
    assert lines[2] == "Since your last move:" and all(line.startswith("• ") for line in lines[3:])
    assert len(lines) > 3
    assert [c["label"] for row in dm["components"] for c in row["components"]] == ["Stop these messages"]
    assert h.dms(alice) == []  # alice chose nothing: never a direct message
    # a forged press by someone else is refused; bob's own press turns them off
    reply = await h.click(alice, dm, 0)
    assert reply.text == "This button belongs to someone else's messages."
    reply = await h.click(bob, dm, 0)
    assert reply.text == ("Direct messages about your games are off. When a game waits on you: a ping in the "
                          "game's channel.")


async def test_closed_dms_fall_back_to_one_channel_ping_and_one_note_across_a_restart(database):
    async with three_servers(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        h.dms_closed.add(bob.id)
        await h.slash(bob, "notify", how="dm")
        users = {alice.sid: alice, bob.sid: bob}
        await open_game(h, [alice, bob])
        rng = random.Random(5)
        start = len(h.fake.sent)
        while (await pending(h)).pending[0].player == alice.sid:
            await play_turn(h, users, rng)
        fallback = [s for s in h.fake.sent[start:] if s.content.startswith("🔔")]
        assert [(s.content, s.body["allowed_mentions"]["users"]) for s in fallback] == [
            ("🔔 <@102>, Tatari is waiting for your move (your direct messages are closed, so you are told here).",
             [102])]
        assert h.dms(bob) == []
        assert (await h.store.players_data([bob.sid]))[bob.sid]["dm_note"] is True  # owed in the store
        await h.restart()  # a new process: the store still owes bob the note
        reply = await h.slash(bob, "mygames")  # the next interaction: its answer, then one note
        notes = [s.content for s in reply if s.ephemeral and "direct messages are closed" in s.content]
        assert notes == ["Your direct messages are closed, so your turns are announced in the games' channels. Allow "
                         "direct messages from this server's members, then /notify how:dm."]
        reply = await h.slash(bob, "mygames")
        assert not [s for s in reply if "direct messages are closed" in s.content]
        assert "dm_note" not in (await h.store.players_data([bob.sid]))[bob.sid]
        assert await h.bot.service.notifications.take_note(bob.sid) is False  # once, whichever process asks


async def test_pace_sets_reminders_and_the_deadline_shown_on_the_board_across_a_restart(database):
    async with three_servers(database) as h:
        await _pace_across_a_restart(h)


async def _pace_across_a_restart(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari", pace="fast")).message(public=True)
    assert "Pace: fast (reminder every hour, move due in 6 h)" in card.content
    await h.click(bob, card, "Join")
    board = (await h.click(alice, card, "Start")).message(public=True, with_components=True)
    start = h.now_ms
    assert f"-# ⏳ Move due {stamp(start + 6 * HOUR, 'f')} ({stamp(start + 6 * HOUR, 'R')})." in board.content
    sid = (await pending(h)).session.id
    timers = sorted((t.kind, t.due_ms) for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    assert timers == [(AFK, start + 6 * HOUR), *[(REMINDER, start + k * HOUR) for k in (1, 2, 3)]]
    await h.restart()
    sent = []
    for _ in range(3):
        h.advance(HOUR)
        mark = len(h.fake.sent)
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
        sent += [s.content for s in h.fake.sent[mark:]]
    due = stamp(start + 6 * HOUR, "R")
    assert sent == [f"⏰ <@101>, Tatari is waiting for your move; it is due {due}."] * 3


async def test_away_freezes_reminders_and_deadlines_and_ends_on_a_move(database):
    async with three_servers(database) as h:
        await _away_across_a_restart(h)


async def _away_across_a_restart(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    await open_game(h, [bob, alice], channel_id=CH_B)
    sid = (await pending(h)).session.id
    before = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    h.advance(HOUR)
    mark = len(h.fake.sent)
    reply = await h.slash(alice, "away", days=3)
    until = h.now_ms + 3 * DAY
    assert reply[0].content == (f"You are away until {stamp(until, 'D')}: your reminders and move deadlines wait in "
                                "2 games. /away off:true when you are back (a move of yours ends it too).")
    lines = sorted((s.channel_id, s.content) for s in h.fake.sent[mark:] if s.kind == "message")
    line = f"💤 <@101> is away until {stamp(until, 'D')}: their reminders and move deadlines wait until then."
    assert lines == [(CHANNEL_ID, line), (CH_B, line)]
    after = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    assert after == [t + 3 * DAY for t in before]
    await h.restart()  # the time away is in the store
    h.advance(DAY)
    mark = len(h.fake.sent)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    assert not [s for s in h.fake.sent[mark:] if "⏰ <@101>" in s.content]  # frozen: no reminder at 12 h or 24 h
    board = (await h.slash(alice, "board")).message()
    assert f"💤 <@101> is away until {stamp(until, 'D')}." in board.content
    # a move of hers ends it early: her timers run again from now (the new board's, in both games)
    users = {alice.sid: alice, bob.sid: bob}
    await play_turn(h, users, random.Random(1))
    assert await h.bot.mygames.away.until(alice.sid) is None
    assert (await h.slash(alice, "away"))[0].content == "You are not away."


async def test_away_off_moves_the_waits_back(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    sid = (await pending(h)).session.id
    before = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    await h.slash(alice, "away", days=2)
    h.advance(HOUR)
    reply = await h.slash(alice, "away", off=True)
    assert reply[0].content == "Welcome back: your reminders and move deadlines run again."
    after = sorted(t.due_ms for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK))
    assert after == [t + HOUR for t in before]  # the clock stood still for the hour she was away


async def test_the_end_of_a_game_is_a_dm_to_a_member_who_chose_them(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await h.slash(bob, "notify", how="both")
    await open_game(h, [alice, bob])
    await h.slash(alice, "resign")
    (*_, end) = h.dms(bob)
    assert end["content"].split("\n") == [
        f"🏁 Tatari in Table Town, <#{CHANNEL_ID}> is over: bob is the last player left.",
        f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"]
    assert h.dms(alice) == []


async def test_a_muted_game_pings_nobody_and_sends_no_dm(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await h.slash(bob, "notify", how="both")
    await open_game(h, [alice, bob])
    reply = await h.slash(bob, "notify", game="mute")
    assert reply.text.startswith("Saved. Tatari here is muted for you.")
    users = {alice.sid: alice, bob.sid: bob}
    rng = random.Random(5)
    start = len(h.fake.sent)
    while (await pending(h)).pending[0].player == alice.sid:
        await play_turn(h, users, rng)
    assert all(102 not in (s.body.get("allowed_mentions") or {}).get("users", []) for s in h.fake.sent[start:])
    assert h.dms(bob) == []
