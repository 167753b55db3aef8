"""Tatamokatsu is a live game at the Discord table (bot/service/presence.py, TatamokatsuOptions.presence): the
lobby card says so and the start calls every seated person once; a player present who misses a race loses as TK-6
and TK-7 say and is then marked missing; the next person's roll waits for them (one ping, an "I'm here" button only
they can use), an AI seat's roll too; a missing player who never comes back reaches their deadline and the others get
the AI stand-in (or the removal); a roll that opens while they are missing costs them nothing."""

from __future__ import annotations

import pytest
from harness import Harness
from test_discord_forged import assert_refused, forge
from test_discord_play import open_game
from test_discord_tatamokatsu_races import KATANA, SALUTE, close, force, no_render

from bot.config import Settings
from bot.discord import ids
from bot.discord.timers import AFK, REMINDER
from bot.sessions import AI_MOVE, AI_RACE


@pytest.fixture
async def h(database):
    settings = Settings(discord_token=None, reminder_hours=0, afk_hours=0, ai_iterations=3, ai_pause_ms=1500)
    async with Harness(database, settings=settings, render=no_render) as harness:
        yield harness


async def fire_ai(h: Harness) -> None:
    timers = [t for t in await h.store.timers() if t.kind in (AI_MOVE, AI_RACE)]
    assert timers
    h.now_ms = max(h.now_ms, min(t.due_ms for t in timers))
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()


async def state(h: Harness):
    return (await h.bot.service.show(str(h.channel_id))).state


async def held_for_carol(h: Harness):
    """alice, bob and carol at a live table: alice rolls triples, carol misses the race and is marked missing, and
    bob's roll waits for her. Returns the three users."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    card = (await h.slash(alice, "play", game="tatamokatsu")).message(public=True)
    await h.click(bob, card, "Join")
    await h.click(carol, card, "Join")
    await h.click(alice, card, "Start")
    await force(h, "4", "4", "4")
    board = (await h.slash(alice, "board")).message(with_components=True)
    roll = (await h.click(alice, board, "Roll the dice")).message(public=True)
    for user in (alice, bob):
        await h.click(user, roll, KATANA)
        await h.click(user, roll, SALUTE)
    await close(h)
    if (await state(h)).phase == "salute":
        await close(h)
    return alice, bob, carol


async def test_a_missing_player_holds_the_roll_is_pinged_once_and_loses_nothing_while_missing(h):
    alice, carol = h.user(101, "alice"), h.user(103, "carol")
    card = (await h.slash(alice, "play", game="tatamokatsu", ai=1, level="normal")).message(public=True)
    assert "Tatamokatsu is a live game: all players must be in the channel together" in card.content
    await h.click(carol, card, "Join")
    start = len(h.fake.sent)
    await h.click(alice, card, "Start")
    call = [s for s in h.fake.sent[start:] if "begins, all of you in this channel now" in (s.content or "")]
    assert len(call) == 1 and sorted(call[0].body["allowed_mentions"]["users"]) == [101, 103]
    row = await h.store.live_session(str(h.channel_id))
    assert row.options["presence"] is True and row.players == [alice.sid, "ai:normal:1", carol.sid]

    # alice rolls triples (12): alice and the AI answer, carol is silent and loses as TK-6 and TK-7 say
    await force(h, "4", "4", "4", "4", "4", "4")
    board = (await h.slash(alice, "board")).message(with_components=True)
    roll = (await h.click(alice, board, "Roll the dice")).message(public=True)
    await h.click(alice, roll, KATANA)
    await h.click(alice, roll, SALUTE)
    await close(h)  # the AI's inputs fire before the deadline; then the salute window opens with the race's close
    if (await state(h)).phase == "salute":
        await close(h)
    s = await state(h)
    assert s.fingers[carol.sid] == 3 and s.missing == [carol.sid] and s.roller == "ai:normal:1"
    posted = [m for m in h.fake.sent if "The roll waits for" in (m.content or "")]
    assert posted and f"<@{carol.sid}>" in posted[-1].content
    assert int(carol.sid) in posted[-1].body["allowed_mentions"]["users"]

    # the AI's roll waits for carol like a person's: no AI move is planned while she is marked missing
    assert not [t for t in await h.store.timers(row.id) if t.kind == AI_MOVE]
    assert (await state(h)).phase == "roll"

    # carol's own roll would end her mark; the others cannot say "I'm here" for her
    sid = row.id
    here_board = h.latest_with(("pbc:hr:",))
    reply = await h.click(alice, here_board, ids.here(sid))
    assert reply.ephemeral() and "You are not marked missing" in reply.text
    outsider = h.user(160, "dave")
    reply = await h.click(outsider, here_board, ids.here(sid))
    assert reply.ephemeral() and "You are not playing in this game" in reply.text
    assert (await state(h)).missing == [carol.sid]
    reply = await h.click(carol, here_board, ids.here(sid))
    assert not reply.ephemeral()
    s = await state(h)
    assert s.missing == [] and s.fingers[carol.sid] == 3
    moves = await h.store.moves(sid)
    assert (moves[-1].player, moves[-1].option) == (carol.sid, "here")  # logged: a replay re-derives the marks

    # she is back: the AI rolls, and the race is everyone's
    await fire_ai(h)
    s = await state(h)
    assert s.phase == "race" and s.excused == [] and s.roller == "ai:normal:1"


async def test_a_missing_player_who_never_comes_back_gets_the_stand_in_at_the_deadline_and_loses_nothing(h):
    """The roll a missing player holds is theirs to answer: their move deadline (the live pace, 15 min) brings the
    AFK notice; "The AI plays for carol" lets the AI roll, and the race that opens while she is still marked
    missing costs her nothing for being missing (TK-6, TK-7 as the presence option reads them)."""
    alice, carol = h.user(101, "alice"), h.user(103, "carol")
    card = (await h.slash(alice, "play", game="tatamokatsu", ai=1, level="normal")).message(public=True)
    await h.click(carol, card, "Join")
    await h.click(alice, card, "Start")
    sid = (await h.store.live_session(str(h.channel_id))).id
    await force(h, "4", "4", "4", "4", "4", "4")
    board = (await h.slash(alice, "board")).message(with_components=True)
    roll = (await h.click(alice, board, "Roll the dice")).message(public=True)
    await h.click(alice, roll, KATANA)
    await h.click(alice, roll, SALUTE)
    await close(h)
    if (await state(h)).phase == "salute":
        await close(h)
    s = await state(h)
    assert s.missing == [carol.sid] and s.roller == "ai:normal:1" and s.fingers[carol.sid] == 3
    waits = [(t.kind, t.payload["player"]) for t in await h.store.timers(sid) if t.kind in (REMINDER, AFK)]
    assert (AFK, carol.sid) in waits and all(p == carol.sid for _, p in waits)  # the wait is hers

    start = len(h.fake.sent)
    h.advance(15 * 60_000)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    notice = next(m for m in h.fake.sent[start:] if "has not played" in (m.content or ""))
    assert notice.buttons()[:2] == ["🤖 The AI plays for carol", "Remove carol"]
    assert notice.content.startswith("💤 carol has not played for 15 min. <@101>: any of you")  # never the AI seat
    assert (await state(h)).phase == "roll"  # held until someone chooses
    await h.click(alice, notice, "🤖 The AI plays for carol")
    await fire_ai(h)
    s = await state(h)
    assert s.phase == "race" and s.excused == [carol.sid]  # opened while she is marked missing
    await h.click(alice, h.latest_with(("pbc:r:",)), KATANA)
    await h.click(alice, h.latest_with(("pbc:r:",)), SALUTE)
    await close(h)
    if (await state(h)).phase == "salute":
        await close(h)
    s = await state(h)
    # nothing for being missing (nobody missed the race); the one finger she lost is her stand-in's wrong shout
    assert s.missed == [] and s.fingers[carol.sid] == 2
    assert [(e.input, e.note) for e in s.last_race if e.player == carol.sid] == [("shout", "mistake")]


async def test_the_next_persons_roll_waits_for_a_missing_player(h):
    alice, bob, carol = await held_for_carol(h)
    s = await state(h)
    assert s.missing == [carol.sid] and s.roller == bob.sid and s.fingers[carol.sid] == 3
    board = (await h.slash(bob, "board")).message(with_components=True)
    reply = await h.click(bob, board, "Roll the dice")
    assert reply.ephemeral() and "Waiting for <@103>: they missed the last race" in reply.text
    assert (await state(h)).phase == "roll"
    live = h.latest_with(("pbc:hr:",))
    await h.click(carol, live, "🙋 I'm here")
    board = (await h.slash(bob, "board")).message(with_components=True)
    reply = await h.click(bob, board, "Roll the dice")
    assert not reply.ephemeral() and (await state(h)).phase == "race"


async def test_mygames_lists_a_held_roll_as_waiting_on_the_missing_player_with_her_deadline(h):
    """/mygames of a roll held for a missing player: it waits on her (first in her list, with the deadline that is
    hers, the live pace's 15 min), and for the roller on her, never on him."""
    other = h.add_channel(700_000_000_000_000_077, h.guild_id)
    await open_game(h, [h.user(101, "alice"), h.user(103, "carol")], channel_id=other)  # older, waiting on alice
    h.advance(60_000)
    alice, bob, carol = await held_for_carol(h)
    s = await state(h)
    assert s.missing == [carol.sid] and s.roller == bob.sid and s.phase == "roll"
    row = await h.store.live_session(str(h.channel_id))
    since = await h.bot.service.waiting_since(row)
    (due,) = [t.due_ms for t in await h.store.timers(row.id) if t.kind == AFK and t.payload["player"] == carol.sid]
    assert due == since + 15 * 60_000

    lines = (await h.slash(carol, "mygames"))[-1].content.split("\n")
    assert lines[0] == "Your games (2); waiting on you: 1."
    assert lines[1].startswith(f"**Tatamokatsu in Table Town, <#{h.channel_id}>** · [board](")
    assert lines[2] == (f"  ➡️ the roll waits for you since <t:{since // 1000}:R>: you missed the last race; press "
                        f"“I'm here” on its board · due <t:{due // 1000}:f>")
    assert lines[3].startswith(f"**Tatari in Table Town, <#{other}>**") and lines[4].startswith("  waiting on <@101> ")
    lines = (await h.slash(bob, "mygames"))[-1].content.split("\n")
    assert lines[0] == "Your games (1); waiting on you: 0."
    assert lines[2] == f"  waiting on <@103> since <t:{since // 1000}:R> · due <t:{due // 1000}:f>"


async def test_the_stand_in_press_before_the_deadline_says_the_idle_limit_and_when_the_seat_becomes_idle(h):
    """"The AI plays for carol" (and "Remove carol") before her wait reaches the live pace's deadline: refused, with
    the idle limit as a duration and the moment it passes as a Discord timestamp; nothing changes."""
    alice, _, carol = await held_for_carol(h)
    row = await h.store.live_session(str(h.channel_id))
    due = await h.bot.service.waiting_since(row) + 15 * 60_000
    said = f"<@{carol.sid}> is not idle yet: this game's idle limit is 15 min; they become idle <t:{due // 1000}:R>."
    h.advance(14 * 60_000)
    for custom_id in (ids.seat(row.id, row.version, 2, "ai"), ids.afk(row.id, row.version, 2)):
        reply = await forge(h, alice, custom_id)
        assert_refused(reply, said)
    assert await h.store.live_session(str(h.channel_id)) == row
