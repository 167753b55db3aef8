"""Nothing blocks a channel: a lobby nobody starts within ``LOBBY_HOURS`` closes itself with a public line (its card
loses its buttons and says why), a durable timer that survives a restart; a seated player who leaves the server is
announced at once, resigned after the grace period unless they return."""

from __future__ import annotations

import discord
import pytest
from harness import GUILD_ID, Harness
from test_discord_play import open_game, pending

from bot.config import Settings, SettingsError, load_settings
from bot.discord.departures import DEPARTED
from bot.discord.lobby import LOBBY_EXPIRY

HOUR = 3_600_000
SETTINGS = Settings(discord_token=None, reminder_hours=0, afk_hours=0, lobby_hours=6, departure_grace_hours=5)


@pytest.fixture
async def h(database):
    async with Harness(database, settings=SETTINGS) as harness:
        yield harness


async def _expiry(h: Harness, session_id: int) -> list:
    return [t for t in await h.store.timers(session_id) if t.kind == LOBBY_EXPIRY]


async def _fire(h: Harness) -> list:
    """Fire what is due at the harness clock; the calls it caused."""
    start = len(h.fake.sent)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    return h.fake.sent[start:]


def _closed_card(h: Harness, card_id: int) -> dict:
    return h.fake.messages[card_id]


CLOSED_LINE = ("⌛ The Tatari lobby closed itself: nobody started it within 6 h. The channel is free: /play opens a "
               "new game.")


async def test_a_lobby_nobody_starts_closes_itself_after_lobby_hours_not_before(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    row = await h.store.live_session(str(h.channel_id))
    timers = await _expiry(h, row.id)
    assert [(t.due_ms, t.payload) for t in timers] == [(h.now_ms + 6 * HOUR, {"hours": 6.0})]
    await h.click(bob, card, "Join")

    h.advance(5 * HOUR - 1)
    assert await _fire(h) == []
    h.advance(1)  # an hour before it closes, its seated members are pinged once
    warned = await _fire(h)
    closes = (h.now_ms + HOUR) // 1000
    assert [(s.content, s.body["allowed_mentions"]["users"]) for s in warned] == [
        (f"⌛ <@101>, <@102>: the Tatari lobby closes <t:{closes}:R> unless the host starts it (/start).",
         [101, 102])]
    h.advance(HOUR - 1)
    assert await _fire(h) == []
    assert (await h.store.live_session(str(h.channel_id))).status == "lobby"

    h.advance(1)
    sent = await _fire(h)
    assert await h.store.live_session(str(h.channel_id)) is None
    ended = await h.store.session(row.id)
    assert ended.status == "abandoned" and ended.meta["abandoned"] == "nobody started it within 6 h"
    assert await h.store.timers(row.id) == []
    lines = [s for s in sent if s.kind == "message"]
    assert [s.content for s in lines] == [CLOSED_LINE]
    closed = _closed_card(h, int(card.message["id"]))
    assert closed["components"] == []
    assert closed["content"].startswith("⌛ Nobody started this lobby within 6 h, so it closed itself.")
    assert "The Tatari lobby is closed." in closed["content"]

    reply = await h.click(bob, card, "Join")  # the card as the client saw it before the edit
    assert reply.ephemeral() and "This lobby is closed" in reply.text
    reply = await h.slash(bob, "play", game="tatari")  # the channel is free again
    assert reply.message(public=True).buttons()[0] == "Join"


async def test_lobby_expiry_survives_a_restart(database):
    async with Harness(database, settings=SETTINGS) as h:
        alice = h.user(101, "alice")
        card = (await h.slash(alice, "play", game="tatari")).message(public=True)
        sid = (await h.store.live_session(str(h.channel_id))).id
        due = (await _expiry(h, sid))[0].due_ms
        h.advance(2 * HOUR)
        await h.restart()
        assert [t.due_ms for t in await _expiry(h, sid)] == [due]  # not armed again: still 6 h after the opening
        h.advance(4 * HOUR)
        sent = await _fire(h)
        assert [s.content for s in sent if s.kind == "message"] == [CLOSED_LINE]
        assert (await h.store.session(sid)).status == "abandoned"
        assert _closed_card(h, int(card.message["id"]))["components"] == []


async def test_a_lobby_open_without_an_expiry_gets_one_at_start_up(database):
    async with Harness(database, settings=SETTINGS) as h:
        alice = h.user(101, "alice")
        await h.slash(alice, "play", game="tatari")
        sid = (await h.store.live_session(str(h.channel_id))).id
        await h.store.clear_timers(sid, [LOBBY_EXPIRY])  # as a lobby opened by a version without expiry
        h.advance(30 * HOUR)
        await h.restart()
        assert [t.due_ms for t in await _expiry(h, sid)] == [h.now_ms + 6 * HOUR]
        h.advance(6 * HOUR)
        await _fire(h)
        assert (await h.store.session(sid)).status == "abandoned"


async def test_a_started_game_is_never_closed_by_its_lobby_expiry(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    row = (await pending(h)).session
    assert await _expiry(h, row.id) == []
    h.advance(7 * HOUR)
    assert [s.content for s in await _fire(h) if s.kind == "message"] == []
    assert (await pending(h)).session.status == "active"


async def test_a_stale_expiry_of_a_started_lobby_changes_nothing(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    row = await h.store.live_session(str(h.channel_id))
    await h.click(bob, card, "Join")
    await h.click(alice, card, "Start")
    # a timer left behind (the process stopped between the start and the timer's removal)
    await h.store.add_timer(row.channel_id, LOBBY_EXPIRY, h.now_ms + 6 * HOUR, {"hours": 6.0}, session_id=row.id)
    h.advance(6 * HOUR)
    assert [s.content for s in await _fire(h) if s.kind == "message"] == []
    assert (await pending(h)).session.status == "active"
    assert await _expiry(h, row.id) == []


async def test_cancel_and_the_last_leave_remove_the_expiry(h):
    alice = h.user(101, "alice")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    first = (await h.store.live_session(str(h.channel_id))).id
    await h.click(alice, card, "Cancel")
    assert await _expiry(h, first) == []
    await h.slash(alice, "play", game="tatari")
    second = (await h.store.live_session(str(h.channel_id))).id
    assert len(await _expiry(h, second)) == 1
    await h.slash(alice, "leave")
    assert (await h.store.session(second)).status == "abandoned"
    assert await _expiry(h, second) == []


def test_lobby_hours_is_bounded():
    assert load_settings(discord_token=None, lobby_hours=48).lobby_hours == 48
    assert Settings(discord_token=None).lobby_hours == 24
    with pytest.raises(SettingsError) as err:
        load_settings(discord_token=None, lobby_hours=0)
    assert err.value.lines == ["LOBBY_HOURS='0' is not allowed: a number from 1 to 720."]


# -- departures -----------------------------------------------------------------------------------------------------
def _member_left(h: Harness, user) -> None:
    h.bot._connection.parse_guild_member_remove(
        {"guild_id": str(GUILD_ID), "user": {"id": user.sid, "username": user.name, "discriminator": "0",
                                             "avatar": None}})


class _NotFound:
    status, reason = 404, "Not Found"


def _gone(h: Harness, monkeypatch, *players: str) -> None:
    """Discord answers "Unknown Member" for ``players``."""
    rest = h.fake.rest

    async def members(route, **kwargs):
        if route.method == "GET" and route.path == "/guilds/{guild_id}/members/{member_id}":
            if route.url.rstrip("/").rsplit("/", 1)[-1] in players:
                raise discord.NotFound(_NotFound(), {"code": 10007, "message": "Unknown Member"})
        return await rest(route, **kwargs)

    monkeypatch.setattr(h.bot.http, "request", members)


async def test_a_player_who_leaves_is_announced_at_once_and_played_by_the_ai_after_the_grace(h, monkeypatch):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob, carol])
    row = (await pending(h)).session
    start = len(h.fake.sent)
    _member_left(h, bob)
    await h.settle()
    lines = [s for s in h.fake.sent[start:] if s.kind == "message"]
    assert [s.content for s in lines] == [
        "🚪 bob left the server; the AI plays for them in 5 h unless they return; the host (<@101>) can "
        "/kick them now."]
    assert lines[0].body["allowed_mentions"]["parse"] == [] and lines[0].channel_id == h.channel_id
    _member_left(h, bob)  # told once
    await h.settle()
    assert [s for s in h.fake.sent[start + 1:] if s.kind == "message"] == []
    assert [t.due_ms for t in await h.store.timers(row.id) if t.kind == DEPARTED] == [h.now_ms + 5 * HOUR]

    _gone(h, monkeypatch, bob.sid)
    h.advance(5 * HOUR - 1)
    await _fire(h)
    assert await h.store.moves(row.id) == []
    h.advance(1)
    sent = await _fire(h)
    assert "<@102> left the server: the AI plays for them until they are back" in "\n".join(s.content for s in sent)
    assert (await h.store.moves(row.id)) == [] and (await h.store.session(row.id)).meta["stand_ins"] == [bob.sid]


async def test_a_host_who_leaves_can_be_kicked_by_a_moderator(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    start = len(h.fake.sent)
    _member_left(h, alice)
    await h.settle()
    assert [s.content for s in h.fake.sent[start:] if s.kind == "message"] == [
        "🚪 alice left the server; the AI plays for them in 5 h unless they return; a moderator can "
        "/kick them now."]


async def test_a_player_who_returns_within_the_grace_is_not_resigned(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob, carol])
    row = (await pending(h)).session
    _member_left(h, carol)
    await h.settle()
    h.advance(5 * HOUR)
    sent = await _fire(h)  # carol is a member again (the harness answers with a member)
    assert [s.content for s in sent if s.kind == "message"] == []
    assert await h.store.moves(row.id) == []
    assert (await pending(h)).session.status == "active"


async def test_a_member_who_leaves_only_their_games_channels_are_told(h):
    alice, bob, carol, dave = (h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol"),
                               h.user(104, "dave"))
    other = h.channel_id + 1
    await open_game(h, [alice, bob])
    await open_game(h, [carol, bob], channel_id=other)
    await open_game(h, [alice, dave], channel_id=other + 1)
    start = len(h.fake.sent)
    _member_left(h, bob)
    await h.settle()
    told = sorted(s.channel_id for s in h.fake.sent[start:] if s.kind == "message")
    assert told == [h.channel_id, other]


async def test_a_deleted_lobby_card_does_not_stop_the_closing_line(h):
    alice = h.user(101, "alice")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    sid = (await h.store.live_session(str(h.channel_id))).id
    h.delete_message(card.message["id"])
    h.advance(6 * HOUR)
    sent = await _fire(h)
    assert [s.content for s in sent if s.kind == "message"] == [CLOSED_LINE]
    assert (await h.store.session(sid)).status == "abandoned"


async def test_an_expired_lobby_leaves_nothing_in_memory(h):
    from test_discord_memory import leftovers

    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    await h.click(bob, card, "Join")
    row = await h.store.live_session(str(h.channel_id))
    h.advance(6 * HOUR)
    await _fire(h)
    assert leftovers(h, row.id, row.channel_id) == {}
