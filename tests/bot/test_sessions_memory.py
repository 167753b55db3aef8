"""Bounded memory in the session service: a game that ends leaves nothing cached; the state cache
is an LRU of STATE_CACHE_SIZE sessions; a channel's lock lives only while it is held or awaited."""

from __future__ import annotations

import gc

from bot.service import board
from bot.sessions import SessionService
from bot.store import Store


async def _two_player_game(service: SessionService, channel: str) -> int:
    await service.open_lobby(channel, "tatari", "alice")
    await service.join(channel, "bob")
    update = await service.start(channel, "alice")
    return update.session.id


async def test_an_ended_game_leaves_nothing_cached(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    service = SessionService(store, clock=lambda: 1_000)
    try:
        sid = await _two_player_game(service, "c1")
        await service.show("c1")
        assert sid in service.states
        await service.resign("c1", "alice")  # two players: the game ends
        assert (await store.session(sid)).status == "finished"
        assert sid not in service.states and sid not in service.deadlines
        sid2 = await _two_player_game(service, "c2")
        await service.abandon("c2", "alice")
        assert sid2 not in service.states
    finally:
        await store.close()


async def test_the_state_cache_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(board, "STATE_CACHE_SIZE", 3)
    store = await Store.open(tmp_path / "db.sqlite3")
    service = SessionService(store, clock=lambda: 1_000)
    try:
        ids = [await _two_player_game(service, f"c{i}") for i in range(5)]
        assert list(service.states) == ids[-3:]
        await service.show("c0")  # read again: parsed again and now the most recent
        assert list(service.states) == [ids[3], ids[4], ids[0]]
    finally:
        await store.close()


async def test_channel_locks_are_dropped_when_unused(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    service = SessionService(store, clock=lambda: 1_000)
    try:
        for i in range(50):
            await _two_player_game(service, f"c{i}")
        gc.collect()
        assert len(service.lock) == 0
        async with service.lock("c1"):
            assert service.lock("c1") is service.lock("c1") and len(service.lock) == 1
    finally:
        await store.close()
