"""Cancellation in the middle of a store transaction (ARCHITECTURE.md: "a crash at any instant ... leaves no half
move"): a task cancelled while any statement of ``act`` is in flight must leave the connection outside any
transaction, the log and the state in step, and the next move (of any channel) working."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from bot.sessions import SessionService, replay
from bot.store import Store

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


def cancel_during(store: Store, prefix: str) -> list[str]:
    """Cancel the calling task while the first statement starting with ``prefix`` runs on the connection's thread
    (the statement is queued, then the cancellation arrives in aiosqlite's wait, as a real ``Task.cancel()`` does)."""
    real = store.conn.execute
    seen: list[str] = []

    def execute(sql, *args):
        seen.append(sql.split()[0].upper())
        if sql.lstrip().upper().startswith(prefix) and store.conn.execute is execute:
            store.conn.execute = real  # once
            pending = real(sql, *args)

            async def run():
                asyncio.current_task().cancel()
                return await pending

            return run()
        return real(sql, *args)

    store.conn.execute = execute
    return seen


async def consistent(svc: SessionService, channel: str) -> tuple[int, int]:
    row = await svc.store.live_session(channel)
    moves = await svc.store.moves(row.id)
    assert row.move_count == len(moves)
    assert replay(TATARI, row.players, row.options, row.seed, moves).model_dump_json() == row.state
    return row.version, len(moves)


@pytest.mark.parametrize(
    ("statement", "committed"),
    [("BEGIN", False), ("INSERT INTO MOVES", False), ("UPDATE SESSIONS", False), ("COMMIT", True)],
)
async def test_a_move_cancelled_mid_transaction_is_all_or_nothing(service, statement, committed):
    up = await started(service, "c1")
    version = up.session.version
    d = up.pending[0]
    seen = cancel_during(service.store, statement)
    with pytest.raises(asyncio.CancelledError):
        await service.act("c1", d.player, d.options[0].id)
    assert statement.split()[0] in seen
    assert not service.store.conn.in_transaction, "a cancelled act left the connection inside a transaction"
    assert await consistent(service, "c1") == ((version + 1, 1) if committed else (version, 0))
    # the table goes on: the next move here, and a lobby in another channel
    up = await service.show("c1")
    d = up.pending[0]
    up = await service.act("c1", d.player, d.options[0].id)
    assert await consistent(service, "c1") == ((version + 2, 2) if committed else (version + 1, 1))
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


async def test_show_never_sees_a_move_that_is_not_committed(service):
    """A board read while a move of the channel is between its UPDATE and its COMMIT must not show that move: if
    the move is then rolled back (a cancellation), the shown board would never have existed."""
    up = await started(service, "c1")
    before = (up.session.version, up.session.state)
    d = up.pending[0]
    real = service.store.conn.execute
    gate, paused = asyncio.Event(), asyncio.Event()

    def execute(sql, *args):
        if sql.startswith("COMMIT") and not paused.is_set():
            async def run():
                paused.set()
                await gate.wait()
                return await real(sql, *args)
            return run()
        return real(sql, *args)

    service.store.conn.execute = execute
    move = asyncio.create_task(service.act("c1", d.player, d.options[0].id))
    await asyncio.wait_for(paused.wait(), 5)  # the move's UPDATE ran; its COMMIT waits
    show = asyncio.create_task(service.show("c1"))
    history = asyncio.create_task(service.history("c1"))
    for _ in range(20):
        await asyncio.sleep(0.005)
    move.cancel()
    with pytest.raises(asyncio.CancelledError):
        await move
    service.store.conn.execute = real
    shown = await show
    assert (shown.session.version, shown.session.state) == before
    row = up.session  # the history holds setup's events only (Game.begin: the first player, the first roll)
    assert await history == TATARI.begin(list(row.players), row.options, row.seed).events
    assert await consistent(service, "c1") == (before[0], 0)
