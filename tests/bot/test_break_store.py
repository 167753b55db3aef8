"""Cancellation in the middle of a store transaction (ARCHITECTURE.md: "a crash at any instant ... leaves no half
move"): a task cancelled at any point of ``act`` (SQLite writes a move in one call on its connection's thread,
``Store.atomically``) must leave the connection outside any transaction, the log and the state in step — the move
stored whole or not at all — and the next move (of any channel) working."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

import games
from bot.sessions import SessionService, replay
from bot.store import Store
from bot.store import sqlite as sqlite_store

TATARI = games.get("tatari")


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "bot.sqlite3")
    svc = SessionService(store, clock=lambda: 1_000, seeds=lambda: 42)
    yield svc
    await store.close()


async def started(svc: SessionService, channel: str):
    await svc.open_lobby(channel, "tatari", "alice")
    await svc.join(channel, "bob")
    return await svc.start(channel, "alice")


def cancel_in_transaction(store: Store) -> list[str]:
    """Cancel the calling task once its transaction's one call is queued on the connection's thread
    (:meth:`SQLiteStore.atomically`; the cancellation arrives in aiosqlite's wait, as a real ``Task.cancel()`` does).
    Returns the calls cancelled so (one)."""
    raw = store.conn.raw
    real = raw._execute
    seen: list[str] = []

    def execute(fn, *args, **kwargs):
        if not store.write_lock.locked():  # a single read: not the transaction
            return real(fn, *args, **kwargs)
        raw._execute = real  # once
        seen.append("transaction")
        pending = real(fn, *args, **kwargs)

        async def run():
            asyncio.current_task().cancel()
            return await pending

        return run()

    raw._execute = execute
    return seen


async def consistent(svc: SessionService, channel: str) -> tuple[int, int]:
    row = await svc.store.live_session(channel)
    moves = await svc.store.moves(row.id)
    assert row.move_count == len(moves)
    assert replay(TATARI, row.players, row.options, row.seed, moves).model_dump_json() == row.state
    return row.version, len(moves)


async def test_a_move_cancelled_while_waiting_for_the_write_lock_stores_nothing(service):
    up = await started(service, "c1")
    version = up.session.version
    d = up.pending[0]
    async with service.store.write_lock:  # another transaction holds the file
        move = asyncio.create_task(service.act("c1", d.player, d.options[0].id))
        for _ in range(20):
            await asyncio.sleep(0)
        move.cancel()
        with pytest.raises(asyncio.CancelledError):
            await move
    assert not service.store.conn.in_transaction
    assert await consistent(service, "c1") == (version, 0)
    up = await service.act("c1", d.player, d.options[0].id)  # the table goes on
    assert await consistent(service, "c1") == (version + 1, 1)


async def test_a_move_cancelled_once_its_transaction_is_queued_is_stored_whole(service):
    """The move's statements run in one call on the connection's thread: once queued, a cancellation of its caller
    cannot stop it halfway — the whole move is stored (as a cancellation during ``COMMIT`` always did)."""
    up = await started(service, "c1")
    version = up.session.version
    d = up.pending[0]
    seen = cancel_in_transaction(service.store)
    with pytest.raises(asyncio.CancelledError):
        await service.act("c1", d.player, d.options[0].id)
    assert seen == ["transaction"]
    assert not service.store.conn.in_transaction, "a cancelled act left the connection inside a transaction"
    assert await consistent(service, "c1") == (version + 1, 1)
    # the table goes on: the next move here, and a lobby in another channel
    up = await service.show("c1")
    d = up.pending[0]
    await service.act("c1", d.player, d.options[0].id)
    assert await consistent(service, "c1") == (version + 2, 2)
    assert (await service.open_lobby("c2", "tatari", "carol")).session.status == "lobby"


async def test_many_channels_with_random_cancellations_never_keep_half_moves(service):
    rng = random.Random(11)
    channels = [f"ch{i}" for i in range(6)]
    for ch in channels:
        await started(service, ch)

    async def move(ch: str) -> None:
        up = await service.show(ch)
        if up.pending:
            d = up.pending[0]
            await service.act(ch, d.player, d.options[rng.randrange(len(d.options))].id)

    for _ in range(25):
        tasks = [asyncio.create_task(move(ch)) for ch in channels for _ in range(2)]
        for _ in range(rng.randrange(12)):
            await asyncio.sleep(0)
        for t in rng.sample(tasks, 4):
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert not service.store.conn.in_transaction
    for ch in channels:
        await consistent(service, ch)


async def test_show_never_sees_a_move_that_is_not_committed(service, monkeypatch):
    """A board read while a move of the channel is between its UPDATE and its COMMIT must not show the move half
    written: the read waits for the move's one call (the same connection's thread) and sees it committed, its
    events in the history, even when the move's caller was cancelled meanwhile."""
    up = await started(service, "c1")
    before = up.session.version
    d = up.pending[0]
    gate, paused = threading.Event(), threading.Event()
    real = sqlite_store._run

    def run(conn, sql, args):
        if sql.startswith("COMMIT") and not paused.is_set():  # on the connection's thread, the UPDATE done
            paused.set()
            gate.wait(5)
        return real(conn, sql, args)

    monkeypatch.setattr(sqlite_store, "_run", run)
    move = asyncio.create_task(service.act("c1", d.player, d.options[0].id))
    assert await asyncio.to_thread(paused.wait, 5)  # the move's UPDATE ran; its COMMIT waits
    show = asyncio.create_task(service.show("c1"))
    history = asyncio.create_task(service.history("c1"))
    for _ in range(20):
        await asyncio.sleep(0.005)
    assert not show.done() and not history.done()
    move.cancel()
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await move
    shown = await show
    assert shown.session.version == before + 1
    row = up.session  # the history holds setup's events (Game.begin), then the move's
    setup = TATARI.begin(list(row.players), row.options, row.seed).events
    events = await history
    assert events[:len(setup)] == setup and len(events) > len(setup)
    assert await consistent(service, "c1") == (before + 1, 1)
