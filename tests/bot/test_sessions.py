"""The session service over a real SQLite store (issue: foundation, items 5-6)."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from bot.sessions import SessionError, SessionService, StaleBoard, UndoOutOfDate, replay
from bot.store import Store
from games.ai import random_legal


@pytest.fixture
async def service(database):
    store = await Store.open(database)
    seeds = iter(range(1000, 100000))
    svc = SessionService(store, clock=lambda: 1_000, seeds=lambda: next(seeds))
    yield svc
    await store.close()


async def started(svc: SessionService, channel="c1", players=("alice", "bob", "carol")):
    await svc.open_lobby(channel, "tatari", players[0])
    for p in players[1:]:
        await svc.join(channel, p)
    return await svc.start(channel, players[0])


async def test_lobby_flow(service):
    up = await service.open_lobby("c1", "tatari", "alice")
    assert up.session.status == "lobby" and up.session.players == ["alice"]
    up = await service.join("c1", "bob")
    assert up.session.players == ["alice", "bob"]
    up = await service.leave("c1", "alice")
    assert up.session.host == "bob" and up.session.players == ["bob"]
    await service.join("c1", "carol")
    up = await service.start("c1", "bob")
    assert up.session.status == "active"
    assert up.pending and up.pending[0].player in ("bob", "carol")


async def test_lobby_refusals_store_nothing(service):
    with pytest.raises(SessionError, match="no game called 'chess'"):
        await service.open_lobby("c1", "chess", "alice")
    assert await service.store.live_session("c1") is None
    with pytest.raises(SessionError, match="Those options do not work"):
        await service.open_lobby("c1", "tatari", "alice", {"first": "nobody"})
    await service.open_lobby("c1", "tatari", "alice")
    with pytest.raises(SessionError, match="already gathering players"):
        await service.open_lobby("c1", "tatari", "bob")
    with pytest.raises(SessionError, match="already seated"):
        await service.join("c1", "alice")
    with pytest.raises(SessionError, match="at least 2 players: 1 more"):
        await service.start("c1", "alice")
    for p in "bcde":
        await service.join("c1", p)
    with pytest.raises(SessionError, match="full \\(5 players with these options\\)"):
        await service.join("c1", "f")
    with pytest.raises(SessionError, match="Only the host"):
        await service.start("c1", "b")
    row = await service.store.live_session("c1")
    assert row.players == ["alice", "b", "c", "d", "e"] and row.version == 4


async def test_act_refusals_change_nothing(service):
    up = await started(service)
    version = up.session.version
    current = up.pending[0].player
    other = next(p for p in ("alice", "bob", "carol") if p != current)
    with pytest.raises(SessionError, match="not your turn"):
        await service.act("c1", other, up.pending[0].options[0].id)
    with pytest.raises(SessionError, match="not playing"):
        await service.act("c1", "mallory", up.pending[0].options[0].id)
    with pytest.raises(SessionError, match="not a choice now"):
        await service.act("c1", current, "set:7")
    with pytest.raises(StaleBoard, match="out of date"):
        await service.act("c1", current, up.pending[0].options[0].id, expect_version=version - 1)
    with pytest.raises(SessionError, match="No game here"):
        await service.act("c2", current, "stop")
    row = await service.store.live_session("c1")
    assert row.version == version and await service.store.moves(row.id) == []


async def test_double_click_applies_one_move(service):
    up = await started(service)
    d = up.pending[0]
    results = await asyncio.gather(
        service.act("c1", d.player, d.options[0].id, expect_version=up.session.version),
        service.act("c1", d.player, d.options[0].id, expect_version=up.session.version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleBoard) for r in results) == 1
    assert len(await service.store.moves(up.session.id)) == 1


async def play_out(service, channel, rng):
    up = await service.show(channel)
    while up.pending:
        d = up.pending[0]
        up = await service.act(channel, d.player, random_legal(up.game, up.state, d, rng))
    return up


async def test_replay_reproduces_stored_state_over_many_games(service):
    rng = random.Random(7)
    game = games.get("tatari")
    for i in range(30):
        ch = f"r{i}"
        await started(service, ch, ("a", "b", "c")[: 2 + i % 2])
        up = await play_out(service, ch, rng)
        assert up.session.status == "finished" and up.result is not None
        row = await service.store.session(up.session.id)
        moves = await service.store.moves(row.id)
        rebuilt = replay(game, row.players, row.options, row.seed, moves)
        assert rebuilt.model_dump_json() == row.state
        assert row.version == (len(row.players) - 1) + 1 + len(moves)  # joins, start, moves
        finished = await service.store.finished_games(ch)
        assert finished[0]["moves"] == len(moves)
        assert finished[0]["result"]["winners"] == up.result.winners


async def test_two_channels_at_once_never_mix(service):
    rng = random.Random(3)
    await started(service, "x", ("a", "b"))
    await started(service, "y", ("c", "d"))
    ux, uy = await asyncio.gather(play_out(service, "x", rng), play_out(service, "y", rng))
    game = games.get("tatari")
    for up in (ux, uy):
        row = await service.store.session(up.session.id)
        moves = await service.store.moves(row.id)
        assert {m.player for m in moves} <= set(row.players)
        assert replay(game, row.players, row.options, row.seed, moves).model_dump_json() == row.state


async def test_undo_restores_previous_state(service):
    """The undo rule: a seated player asks, every other seated person approves; then the last move is gone."""
    up = await started(service)
    before = up.session.state
    d = up.pending[0]
    await service.act("c1", d.player, d.options[0].id)
    with pytest.raises(SessionError, match="^Only the players of this game can ask for an undo.$"):
        await service.ask_undo("c1", "dave")
    vote = await service.ask_undo("c1", "bob")
    assert (vote.by, vote.approved, vote.waiting, vote.update) == ("bob", ["bob"], ["alice", "carol"], None)
    sid, ver = vote.session.id, vote.session.version
    with pytest.raises(SessionError, match="^You asked for it: the other players decide.$"):
        await service.vote_undo(sid, ver, "bob", True)
    vote = await service.vote_undo(sid, ver, "alice", True)
    assert (vote.approved, vote.waiting, vote.update) == (["alice", "bob"], ["carol"], None)
    assert (await service.store.session(sid)).state != before  # nothing taken back before the last vote
    vote = await service.vote_undo(sid, ver, "carol", True)
    up = vote.update
    assert up.session.state == before and up.notes == [f"{{@bob}} took back the last move ({{@{d.player}}}: "
                                                       f"{d.options[0].id})."]
    assert await service.store.moves(up.session.id) == []
    assert await service.pending_undo(sid) is None
    with pytest.raises(SessionError, match="no move to undo"):
        await service.ask_undo("c1", "alice")


async def test_an_undo_request_is_refused_by_one_no_and_out_of_date_after_a_move(service):
    up = await started(service)
    d = up.pending[0]
    await service.act("c1", d.player, d.options[0].id)
    vote = await service.ask_undo("c1", "alice")
    sid, ver = vote.session.id, vote.session.version
    vote = await service.vote_undo(sid, ver, "bob", False)
    assert vote.refused_by == "bob" and vote.update is None
    with pytest.raises(UndoOutOfDate, match="^This undo request is out of date: the game moved on.$"):
        await service.vote_undo(sid, ver, "carol", True)
    await service.ask_undo("c1", "alice")
    d = (await service.show("c1")).pending[0]
    await service.act("c1", d.player, d.options[0].id)
    with pytest.raises(UndoOutOfDate):
        await service.vote_undo(sid, ver, "bob", True)
    assert (await service.store.session(sid)).move_count == 2


async def test_resign_and_abandon(service):
    up = await started(service)
    up = await service.resign("c1", "bob")
    assert "bob" in up.state.out and up.session.status == "active"
    up = await service.resign("c1", "carol")
    assert up.session.status == "finished" and up.result.winners == ["alice"]
    await started(service, "c2", ("a", "b"))
    with pytest.raises(SessionError, match="Only the host"):
        await service.abandon("c2", "b")
    up = await service.abandon("c2", "b", moderator=True)
    assert up.session.status == "abandoned"
    assert await service.store.live_session("c2") is None
