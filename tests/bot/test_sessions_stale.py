"""Lobby and ending verbs racing another process (shards on one PostgreSQL; the channel lock is only
per process): the verb that lost the race runs again on the session as it now stands, with its usual checks and
messages; an undo is refused rather than taking back another move; nothing half written. Both backends."""

from __future__ import annotations

import contextlib

import pytest

from bot.sessions import SessionError, SessionService, StaleBoard
from bot.store import Store

NOW = 1_000_000


@pytest.fixture
async def svc(database):
    store = await Store.open(database)
    service = SessionService(store, clock=lambda: NOW, seeds=lambda: 7)
    yield service
    await store.close()


def another_process_writes_first(monkeypatch, store: Store, rival, times: int = 1):
    """Before each of the service's next ``times`` transactions, "another process" commits ``await rival()``
    to the same session (its own transaction), so the service's versioned write finds a newer version."""
    real = store.transaction
    left = {"n": times, "rival": False}

    @contextlib.asynccontextmanager
    async def transaction():
        if left["n"] > 0 and not left["rival"]:  # the rival's own transactions are not raced
            left["n"] -= 1
            left["rival"] = True
            try:
                await rival()
            finally:
                left["rival"] = False
        async with real() as db:
            yield db

    monkeypatch.setattr(store, "transaction", transaction)


def touch_session(store: Store):
    async def rival():
        row = await store.live_session("c1")
        await store.update_session(row.id, row.version, meta=row.meta)
    return rival


def joins(store: Store, player: str):
    async def rival():
        row = await store.live_session("c1")
        await store.update_session(row.id, row.version, players=row.players + [player])
    return rival


async def test_a_join_that_lost_the_race_is_run_again_on_the_fresh_lobby(svc, monkeypatch):
    await svc.open_lobby("c1", "tatari", "alice")
    another_process_writes_first(monkeypatch, svc.store, joins(svc.store, "zed"))
    up = await svc.join("c1", "bob")
    assert up.session.players == ["alice", "zed", "bob"] and up.notes == ["{@bob} joined (3/5)."]


async def test_a_join_into_a_lobby_filled_meanwhile_gets_the_full_lobby_refusal(svc, monkeypatch):
    await svc.open_lobby("c1", "tsukimi", "alice")
    another_process_writes_first(monkeypatch, svc.store, joins(svc.store, "zed"))
    with pytest.raises(SessionError, match="The lobby is full"):
        await svc.join("c1", "bob")
    assert (await svc.store.live_session("c1")).players == ["alice", "zed"]


async def test_a_lobby_changed_on_every_try_is_refused_with_a_plain_message(svc, monkeypatch):
    await svc.open_lobby("c1", "tatari", "alice")
    await svc.join("c1", "bob")
    another_process_writes_first(monkeypatch, svc.store, touch_session(svc.store), times=99)
    with pytest.raises(SessionError, match="changed several times") as info:
        await svc.leave("c1", "bob")
    assert "session" not in str(info.value)  # no store internals in what a player reads
    assert (await svc.store.live_session("c1")).players == ["alice", "bob"]


async def test_a_start_that_lost_the_race_to_another_start_says_the_game_is_running(svc, monkeypatch):
    await svc.open_lobby("c1", "tatari", "alice")
    await svc.join("c1", "bob")
    rival = SessionService(svc.store, clock=lambda: NOW, seeds=lambda: 7)
    another_process_writes_first(monkeypatch, svc.store, lambda: rival.start("c1", "alice"))
    with pytest.raises(SessionError, match="already running"):
        await svc.start("c1", "alice")
    assert (await svc.store.live_session("c1")).status == "active"


async def test_an_undo_that_lost_the_race_takes_back_nothing(svc, monkeypatch):
    await svc.open_lobby("c1", "tatari", "alice")
    await svc.join("c1", "bob")
    await svc.start("c1", "alice")
    row = await svc.store.live_session("c1")
    decision = svc.game("tatari").pending(svc.state_of(row))[0]
    await svc.act("c1", decision.player, decision.options[0].id)
    before = [(m.seq, m.option) for m in await svc.store.moves(row.id)]
    version = (await svc.store.live_session("c1")).version
    vote = await svc.ask_undo("c1", "alice")
    another_process_writes_first(monkeypatch, svc.store, touch_session(svc.store))
    with pytest.raises(StaleBoard, match="moved on meanwhile"):
        await svc.vote_undo(row.id, vote.session.version, "bob", True)
    assert [(m.seq, m.option) for m in await svc.store.moves(row.id)] == before
    assert (await svc.store.live_session("c1")).version == version + 1  # only the rival's write


async def test_a_move_that_lost_the_race_withdraws_what_its_board_was_given(svc, monkeypatch):
    """Ledger.before_commit gets the row a move is about to store (the next version, with its state and pending
    decisions: the adapter draws the board meanwhile); when another process wrote the session first (StaleBoard,
    nothing stored), Ledger.not_committed gets that same row, so a board drawn ahead for it is dropped. A move
    stored gets no not_committed."""
    await svc.open_lobby("c1", "tatari", "alice")
    await svc.join("c1", "bob")
    await svc.start("c1", "alice")
    seen: list[tuple[str, int]] = []
    svc.ledger.before_commit = lambda row, state, pending: seen.append(("before", row.version))
    svc.ledger.not_committed = lambda row: seen.append(("withdrawn", row.version))
    row = await svc.store.live_session("c1")
    decision = svc.game("tatari").pending(svc.state_of(row))[0]
    real = svc.store.commit_move

    async def rival_first(*args, **kwargs):
        await touch_session(svc.store)()
        return await real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "commit_move", rival_first)
    with pytest.raises(StaleBoard):
        await svc.act("c1", decision.player, decision.options[0].id)
    assert seen == [("before", row.version + 1), ("withdrawn", row.version + 1)]
    assert await svc.store.moves(row.id) == []
    monkeypatch.setattr(svc.store, "commit_move", real)
    seen.clear()
    row = await svc.store.live_session("c1")  # the rival's version
    decision = svc.game("tatari").pending(svc.state_of(row))[0]
    update = await svc.act("c1", decision.player, decision.options[0].id)
    assert seen == [("before", row.version + 1)] and update.session.version == row.version + 1
