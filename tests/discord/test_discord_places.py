"""Deleted places: a channel or thread deleted, or the bot removed from the server, abandons the
sessions there and clears their timers — from gateway events and from a sweep at start-up."""

from __future__ import annotations

import discord
import pytest
from harness import CHANNEL_ID, GUILD_ID, Harness
from test_discord_play import open_game

OTHER = CHANNEL_ID + 7


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


def _cache_channel(h: Harness, channel_id: int) -> None:
    state = h.bot._connection
    guild = state._get_guild(GUILD_ID)
    guild._add_channel(discord.TextChannel(state=state, guild=guild, data={
        "id": str(channel_id), "type": 0, "name": "games", "position": 0, "guild_id": str(GUILD_ID),
        "permission_overwrites": [], "nsfw": False, "parent_id": None}))


async def _game(h: Harness, channel_id: int):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob], channel_id=channel_id)
    row = await h.store.live_session(str(channel_id))
    assert row.status == "active" and await h.store.timers(row.id)
    return row


async def _assert_abandoned(h: Harness, row, reason: str):
    after = await h.store.session(row.id)
    assert after.status == "abandoned" and reason in after.meta["abandoned"]
    assert await h.store.timers(row.id) == []
    assert await h.store.live_session(row.channel_id) is None


async def test_a_deleted_channel_abandons_its_game_and_clears_its_timers(h):
    row = await _game(h, CHANNEL_ID)
    other = await _game(h, OTHER)
    _cache_channel(h, CHANNEL_ID)
    h.bot._connection.parse_channel_delete({"id": str(CHANNEL_ID), "guild_id": str(GUILD_ID), "type": 0})
    await h.settle()
    await _assert_abandoned(h, row, "channel was deleted")
    assert (await h.store.session(other.id)).status == "active"


async def test_a_deleted_thread_abandons_its_game_even_uncached(h):
    row = await _game(h, OTHER)
    h.bot._connection.parse_thread_delete({"id": str(OTHER), "guild_id": str(GUILD_ID), "parent_id": str(CHANNEL_ID),
                                           "type": 11})
    await h.settle()
    await _assert_abandoned(h, row, "thread was deleted")


async def test_removal_from_the_server_abandons_its_games(h):
    row = await _game(h, CHANNEL_ID)
    h.bot._connection.parse_guild_delete({"id": str(GUILD_ID), "unavailable": False})
    await h.settle()
    await _assert_abandoned(h, row, "removed from the server")


async def test_the_start_up_sweep_abandons_games_whose_channel_is_gone(h, monkeypatch):
    gone = await _game(h, CHANNEL_ID)
    kept = await _game(h, OTHER)
    rest = h.fake.rest

    class Response:
        status, reason = 404, "Not Found"

    async def channels(route, **kwargs):
        if route.method == "GET" and route.path == "/channels/{channel_id}":
            if route.channel_id == CHANNEL_ID:
                raise discord.NotFound(Response(), {"code": 10003, "message": "Unknown Channel"})
            return {"id": str(route.channel_id), "type": 0, "name": "games", "position": 0,
                    "guild_id": str(GUILD_ID), "permission_overwrites": []}
        return await rest(route, **kwargs)

    monkeypatch.setattr(h.bot.http, "request", channels)
    assert await h.bot.places.sweep() == 1
    await _assert_abandoned(h, gone, "deleted")
    assert (await h.store.session(kept.id)).status == "active"
