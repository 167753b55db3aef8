"""Departures: a seated player who leaves the server is played by the AI stand-in after the grace period, with a
public line (the stand-in itself: test_discord_stand_in.py); the host or a moderator can /kick a seated player; nobody can act twice on one who already left."""

from __future__ import annotations

import discord
import pytest
from harness import GUILD_ID, Harness
from test_discord_play import open_game, pending

from bot.config import Settings
from bot.discord.departures import DEPARTED

HOUR = 3_600_000


class _NotFound:
    status, reason = 404, "Not Found"


def _gone(h: Harness, monkeypatch, *players: str) -> None:
    """Discord answers "Unknown Member" for ``players`` in the harness guild."""
    rest = h.fake.rest

    async def members(route, **kwargs):
        if route.method == "GET" and route.path == "/guilds/{guild_id}/members/{member_id}":
            if route.url.rstrip("/").rsplit("/", 1)[-1] in players:
                raise discord.NotFound(_NotFound(), {"code": 10007, "message": "Unknown Member"})
            return {"user": {"id": route.url.rstrip("/").rsplit("/", 1)[-1], "username": "x", "discriminator": "0", "avatar": None},
                    "roles": [], "joined_at": None, "deaf": False, "mute": False}
        return await rest(route, **kwargs)

    monkeypatch.setattr(h.bot.http, "request", members)


async def test_a_player_who_left_is_played_by_the_ai_after_the_grace_period(database, monkeypatch):
    settings = Settings(discord_token=None, reminder_hours=2, afk_hours=0, departure_grace_hours=24)
    async with Harness(database, settings=settings) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        await open_game(h, [alice, bob, carol])
        update = await pending(h)
        idle = update.pending[0].player
        _gone(h, monkeypatch, idle)
        h.advance(2 * HOUR)
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) == 1  # the reminder finds the player gone: no reminder
        await h.settle()
        assert not [s for s in h.fake.sent[start:] if "waiting for your move" in (s.content or "")]
        timers = [t for t in await h.store.timers(update.session.id) if t.kind == DEPARTED]
        assert len(timers) == 1 and timers[0].payload == {"player": idle}
        assert timers[0].due_ms == h.now_ms + 24 * HOUR
        h.advance(24 * HOUR)
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) >= 1
        await h.settle()
        text = "\n".join(s.content or "" for s in h.fake.sent[start:])
        assert f"<@{idle}> left the server: the AI plays for them until they are back" in text
        after = await pending(h)
        assert after.session.status == "active" and after.session.meta["stand_ins"] == [idle]
        assert await h.store.moves(after.session.id) == []  # nobody resigned


async def test_a_player_who_came_back_is_not_resigned(database, monkeypatch):
    settings = Settings(discord_token=None, reminder_hours=0, afk_hours=0, departure_grace_hours=1)
    async with Harness(database, settings=settings) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        await open_game(h, [alice, bob, carol])
        row = (await pending(h)).session
        h.bot._connection.parse_guild_member_remove(
            {"guild_id": str(GUILD_ID), "user": {"id": bob.sid, "username": "bob", "discriminator": "0",
                                                 "avatar": None}})
        await h.settle()
        assert [t.payload for t in await h.store.timers(row.id) if t.kind == DEPARTED] == [{"player": bob.sid}]
        h.advance(HOUR)
        await h.bot.timers.fire_due(h.now_ms)  # bob is a member again (the harness answers with a member)
        await h.settle()
        assert (await h.store.moves(row.id)) == []
        assert [t for t in await h.store.timers(row.id) if t.kind == DEPARTED] == []


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


async def test_kick_by_the_host_or_a_moderator_only(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob, carol])
    version = (await pending(h)).session.version
    reply = await h.slash(bob, "kick", player=carol)
    assert reply.ephemeral() and "Only the host" in reply.text
    reply = await h.slash(alice, "kick", player=h.user(999, "dave"))
    assert reply.ephemeral() and "is not playing in this game" in reply.text
    reply = await h.slash(alice, "kick", player=int(carol.sid))  # a stale registration: an integer, not a user
    assert reply.ephemeral() and "Reload Discord" in reply.text
    assert (await pending(h)).session.version == version
    reply = await h.slash(alice, "kick", player=carol)
    assert reply.public() and "removed" in reply.text
    reply = await h.slash(alice, "kick", player=carol)
    assert reply.ephemeral() and "has already left this game" in reply.text
    moves = await h.store.moves((await pending(h)).session.id)
    assert [(m.player, m.option) for m in moves] == [(carol.sid, "__resign__")]


