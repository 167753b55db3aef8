"""Bounded memory: what the adapter keeps per session in memory is dropped when the session ends —
played to the end, abandoned, its lobby cancelled, its channel deleted — so memory does not grow with the number of
games played (``bench/bench_memory.py`` measures the whole process)."""

from __future__ import annotations

import random

import discord
import pytest
from harness import CHANNEL_ID, Harness
from test_discord_play import open_game
from test_discord_tatamokatsu_races import no_render

import games
from games.ai import greedy


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3", render=no_render) as harness:
        yield harness


def leftovers(h: Harness, sid: int, channel: str) -> dict:
    """Everything the adapter keeps in memory about session ``sid`` of ``channel`` (empty when forgotten)."""
    bot = h.bot
    found = {
        "Bookkeeper.boards": sid in bot.bookkeeper.boards,
        "Links._names": sid in bot.links._names,
        "ChannelPrefs._cache": channel in bot.prefs._cache,
        "Table.live": sid in bot.table.live,
        "BoardFloors": bot.table.floors._floors.get(sid) is not None,
        "Races.channels": channel in bot.races.channels,
        "Races.boards": channel in bot.races.boards,
        "Delivery._logged": sid in bot.delivery._logged,
        "Images": any(sid in kept for kept in (bot.images._cache, bot.images._alts, bot.images._full)),
    }
    return {k: v for k, v in found.items() if v}


async def play_to_the_end(h: Harness, channel: int, game: str, users, rng: random.Random) -> int:
    await open_game(h, users, channel_id=channel, game=game)
    by_id = {u.sid: u for u in users}
    sid = (await h.store.live_session(str(channel))).id
    g = games.get(game)
    for _ in range(3000):
        row = await h.store.live_session(str(channel))
        if row is None:
            return sid
        update = await h.bot.service.show(str(channel))
        d = update.pending[0]
        if d.player is None:  # a race: let its window close
            h.advance(60_000)
            await h.bot.timers.fire_due(h.now_ms)
            await h.settle()
            continue
        await h.choose(by_id[d.player], greedy(g, update.state, d, rng), channel)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["tatari", "tatsumi"])
async def test_a_game_played_to_the_end_leaves_nothing_in_memory(h, game):
    """Memory stays flat: Bookkeeper.boards, Links._names, ChannelPrefs._cache, Races.channels/boards (and the live
    message, board floor, failed-post mark) hold nothing of a game once it is over."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    channel = CHANNEL_ID + 7
    sid = await play_to_the_end(h, channel, game, [alice, bob], random.Random(5))
    assert (await h.store.session(sid)).status == "finished"
    assert leftovers(h, sid, str(channel)) == {}


async def test_abandoned_game_and_cancelled_lobby_leave_nothing_in_memory(h):
    alice, bob, mod = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "mod", moderator=True)
    await open_game(h, [alice, bob])
    sid = (await h.store.live_session(str(h.channel_id))).id
    assert leftovers(h, sid, str(h.channel_id))  # a running game is remembered
    await h.slash(mod, "abandon")
    assert (await h.store.session(sid)).status == "abandoned"
    assert leftovers(h, sid, str(h.channel_id)) == {}
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    lobby = (await h.store.live_session(str(h.channel_id))).id
    await h.click(bob, card, "Join")
    assert leftovers(h, lobby, str(h.channel_id))
    await h.click(alice, card, "Cancel")
    assert (await h.store.session(lobby)).status != "lobby"
    assert leftovers(h, lobby, str(h.channel_id)) == {}


async def test_deleted_channel_leaves_nothing_in_memory(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    sid = (await h.store.live_session(str(h.channel_id))).id
    assert await h.bot.places.gone(str(h.channel_id), "its channel was deleted")
    await h.settle()
    assert leftovers(h, sid, str(h.channel_id)) == {}


async def test_names_and_channel_settings_caches_are_bounded(h, monkeypatch):
    import bot.discord.links as links_module
    import bot.discord.prefs as prefs_module

    monkeypatch.setattr(links_module, "MAX_NAMES", 3)
    monkeypatch.setattr(prefs_module, "MAX_CHANNELS", 3)
    for sid in range(10):
        await h.bot.links.names(1000 + sid)
        await h.bot.prefs.get(str(900 + sid))
    assert list(h.bot.links._names) == [1007, 1008, 1009]
    assert list(h.bot.prefs._cache) == ["907", "908", "909"]


async def test_the_bot_collects_garbage_at_its_own_thresholds_while_it_runs(tmp_path):
    """bot.memory.space_collections: while a bot runs, the cyclic collector works at COLLECTOR_THRESHOLDS (a move's
    thousands of short-lived objects are not walked and promoted several times a move); once it is closed, the
    process's thresholds are what they were before (a test or bench process runs many bots)."""
    import gc

    from bot import memory

    before = gc.get_threshold()
    assert before != memory.COLLECTOR_THRESHOLDS
    async with Harness(tmp_path / "bot.sqlite3", render=no_render):
        assert gc.get_threshold() == memory.COLLECTOR_THRESHOLDS == (7_000, 20, 20)
    assert gc.get_threshold() == before


async def test_no_view_waits_for_the_cyclic_garbage_collector(h):
    """A view and its items point at each other: every view of a press — the one discord.py rebuilds from the pressed
    message to find the item, and the ones the answer sends or edits in — is let go when done
    (:func:`bot.discord.components.let_go`), so none is left for the cyclic garbage collector after moves, a Rules
    lookup, a Full board and a rules topic (they were more than half of the bot's cyclic garbage)."""
    import gc

    from bot.discord import ids

    alice, bob = h.user(1, "alice"), h.user(2, "bob")
    await open_game(h, [alice, bob])
    sid = (await h.store.live_session(str(CHANNEL_ID))).id
    rng = random.Random(3)
    g = games.get("tatari")
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(4):
            update = await h.bot.service.show(str(CHANNEL_ID))
            d = update.pending[0]
            player = alice if d.player == alice.sid else bob
            board = h.board()
            assert (await h.click(player, board, ids.full(sid))).ephemeral()  # Full board
            rules = (await h.click(player, board, ids.help_(g.id))).ephemeral()[0]  # How to play: a topic menu
            topic = await h.select(player, rules, ids.topic(g.id), [sorted(g.rules_help)[0]])  # edits it in place
            assert [s.custom_ids() for s in topic] == [[ids.topic(g.id)]]
            await h.choose(player, greedy(g, update.state, d, rng))
        await h.settle()
        gc.collect()
        views = [o for o in gc.garbage if isinstance(o, discord.ui.View)]
        interactions = [o for o in gc.garbage if isinstance(o, discord.Interaction)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert interactions  # the presses' own cycle (discord.py's Interaction and its response) is still there
    assert views == []


async def test_a_view_let_go_is_stopped_and_empty():
    from bot.discord.components import let_go

    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", custom_id="x"))
    let_go(view)
    assert view.children == [] and view.is_finished()
