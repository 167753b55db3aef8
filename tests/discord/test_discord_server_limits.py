"""Running in real servers: /play checks the bot's permissions first and names every missing
one; a thread the bot cannot use is removed with its lobby; per-member cooldowns on game threads and /undo;
/settings and /abandon carry default member permissions."""

from __future__ import annotations

import discord
import pytest
from harness import ALL_PERMS, Harness
from test_discord_play import open_game


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


async def test_play_names_every_missing_permission_and_stores_nothing(h):
    alice = h.user(101, "alice")
    perms = discord.Permissions(ALL_PERMS)
    perms.attach_files = perms.embed_links = False
    h.app_permissions = perms.value
    reply = await h.slash(alice, "play", game="tatari")
    assert reply.ephemeral() and reply.text == (
        "I can't run Tatari here: I am missing Attach Files, Embed Links. Ask a moderator to grant them to me in "
        "this channel, then /play again.")
    assert await h.store.live_session(str(h.channel_id)) is None


async def test_add_reactions_is_needed_only_by_a_racing_game(h):
    alice = h.user(101, "alice")
    perms = discord.Permissions(ALL_PERMS)
    perms.add_reactions = False
    h.app_permissions = perms.value
    reply = await h.slash(alice, "play", game="tatamokatsu")
    assert reply.ephemeral() and "missing Add Reactions." in reply.text
    reply = await h.slash(alice, "play", game="tatari")
    assert not reply.ephemeral(), reply.text


async def test_a_thread_needs_the_thread_permissions(h):
    alice = h.user(101, "alice")
    perms = discord.Permissions(ALL_PERMS)
    perms.create_public_threads = False
    h.app_permissions = perms.value
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    assert reply.ephemeral() and "in a thread of this channel: I am missing Create Public Threads" in reply.text
    assert not [s for s in reply if s.kind == "thread"]


async def test_an_unusable_thread_is_removed_with_its_lobby(h):
    alice = h.user(101, "alice")
    class Forbidden:
        status, reason = 403, "Forbidden"

    rest = h.fake.rest
    deleted = []

    async def fail_in_thread(route, **kwargs):
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            raise discord.Forbidden(Forbidden(), {"code": 50013, "message": "Missing Permissions"})
        if route.method == "DELETE" and route.path == "/channels/{channel_id}":
            deleted.append(route.url.rsplit("/", 1)[-1])
            return {}
        return await rest(route, **kwargs)

    h.bot.http.request = fail_in_thread
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    thread = next(s for s in reply if s.kind == "thread")
    tid = thread.message["id"]
    assert deleted == [tid]
    assert await h.store.live_session(tid) is None
    assert reply.ephemeral(), reply


async def test_thread_and_undo_cooldowns_per_member(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    assert any(s.kind == "thread" for s in reply)
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    assert reply.ephemeral() and "try again in 120 s" in reply.text
    assert not [s for s in reply if s.kind == "thread"]
    reply = await h.slash(bob, "play", game="tatari", thread=True)  # another member is not held back
    assert any(s.kind == "thread" for s in reply)
    await open_game(h, [alice, bob])
    d = (await h.bot.service.show(str(h.channel_id))).pending[0]
    user = alice if d.player == alice.sid else bob
    await h.choose(user, d.options[0].id, allow_move=False)
    first = await h.slash(alice, "undo")
    assert not first.ephemeral(), first.text
    second = await h.slash(alice, "undo")
    assert second.ephemeral() and "try again in 60 s" in second.text
    h.advance(60_000)
    third = await h.slash(alice, "undo")
    assert not third.ephemeral(), third.text


def test_settings_and_abandon_are_for_channel_managers_by_default(h):
    for name in ("settings", "abandon"):
        command = h.bot.tree.get_command(name)
        assert command.default_permissions == discord.Permissions(manage_channels=True), name
    assert h.bot.tree.get_command("play").default_permissions is None
