"""Finished-game records and ratings: store migration 4, its backfill, the seats' ranks and
the openskill ratings per game per server, computed here with openskill directly and compared exactly."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from openskill.models import PlackettLuce

import bot.store.schema as schema_module
from bot.sessions import SessionService
from bot.store import MIGRATIONS, Store
from bot.store.records import RESIGN_MOVE, seats_of
from games import Result
from games.ai import random_legal


@pytest.fixture
async def service(database):
    store = await Store.open(database)
    seeds = iter(range(1000, 100000))
    clock = [5_000]
    svc = SessionService(store, clock=lambda: clock[0], seeds=lambda: next(seeds))
    svc.test_clock = clock
    yield svc
    await store.close()


async def play_game(svc: SessionService, channel: str, players: tuple[str, ...], rng: random.Random,
                    guild: str | None = "g1"):
    await svc.open_lobby(channel, "tatari", players[0], guild_id=guild)
    for p in players[1:]:
        await svc.join(channel, p)
    up = await svc.start(channel, players[0])
    while up.pending:
        svc.test_clock[0] += 1000
        d = up.pending[0]
        up = await svc.act(channel, d.player, random_legal(up.game, up.state, d, rng))
    return up


def expected_ranks(result: Result, players) -> list[int]:
    """Competition ranks (1, 2, 2, 4) from a result's ranking groups."""
    rank, placed = {}, 0
    for grp in result.ranking:
        for p in grp:
            rank[p] = placed + 1
        placed += len(grp)
    return [rank[p] for p in players]


def test_seats_resigners_rank_last_and_ties_share_a_rank():
    """A resignation ranks last whatever the game's ranking; tied groups share a rank."""
    result = Result(winners=["b"], ranking=[["b"], ["a", "c"], ["d"]], scores={"a": 3, "b": 5, "c": 3, "d": 0})
    seats = seats_of(["a", "b", "c", "d"], result, {"b"}, {"a": "Alice"})
    assert [(s.player_id, s.name, s.rank, s.won, s.resigned, s.score) for s in seats] == [
        ("a", "Alice", 1, False, False, 3), ("b", "b", 4, False, True, 5), ("c", "c", 1, False, False, 3),
        ("d", "d", 3, False, False, 0)]
    seats = seats_of(["ai:strong:1", "x"], None, set(), {})
    assert [(s.name, s.ai_level, s.rank, s.score) for s in seats] == [("AI · Strong", "strong", None, None),
                                                                     ("x", None, None, None)]


async def test_ratings_match_openskill_exactly(service):
    """Three games of Tatari in one server; the stored μ and σ equal openskill's Plackett-Luce
    computed game by game from the results (ties share a rank), and another server's ratings stay apart."""
    rng = random.Random(3)
    model = PlackettLuce()
    ratings = {p: model.rating() for p in ("alice", "bob", "carol")}
    tables = [("alice", "bob", "carol"), ("carol", "alice"), ("bob", "alice", "carol")]
    for i, players in enumerate(tables):
        up = await play_game(service, f"c{i}", players, rng)
        assert up.record is not None and up.record.rated
        new = model.rate([[ratings[p]] for p in players], ranks=expected_ranks(up.result, players))
        for p, team in zip(players, new, strict=True):
            ratings[p] = team[0]
    board = await service.store.leaderboard("g1", "tatari")
    assert {s.player_id: (s.mu, s.sigma) for s in board} == {p: (r.mu, r.sigma) for p, r in ratings.items()}
    assert {s.player_id: s.games for s in board} == {"alice": 3, "bob": 2, "carol": 3}
    assert [s.player_id for s in board] == sorted(ratings, key=lambda p: -(ratings[p].mu - 3 * ratings[p].sigma))
    assert await service.store.leaderboard("g2", "tatari") == []
    await play_game(service, "other", ("alice", "bob"), rng, guild="g2")
    assert [s.games for s in await service.store.leaderboard("g2", "tatari")] == [1, 1]
    assert {s.player_id: (s.mu, s.sigma) for s in await service.store.leaderboard("g1", "tatari")} == {
        p: (r.mu, r.sigma) for p, r in ratings.items()}


async def test_record_of_a_finished_game(service):
    """Game, options, server, channel, start and end time, moves, and per seat the player, name,
    score, rank, resigned — written in the transaction that ends the game."""
    clock = service.test_clock
    service = SessionService(service.store, clock=lambda: clock[0], seeds=iter(range(1000, 100000)).__next__,
                             display_names=_names({"alice": "Alice ✿", "bob": "ボブ"}))
    service.test_clock = clock
    up = await play_game(service, "c1", ("alice", "bob"), random.Random(4))
    rec = await service.store.game_record(up.session.id)
    assert (rec.game_id, rec.guild_id, rec.channel_id, rec.outcome, rec.rated) == ("tatari", "g1", "c1", "finished",
                                                                                   True)
    assert rec.moves == up.session.move_count == len(await service.store.moves(up.session.id))
    assert rec.options == up.session.options and rec.seed == up.session.seed
    assert rec.started_ms == 5_000 and rec.ended_ms == service.test_clock[0]
    assert [(s.player_id, s.name) for s in rec.seats] == [("alice", "Alice ✿"), ("bob", "ボブ")]
    assert [s.rank for s in rec.seats] == expected_ranks(up.result, ["alice", "bob"])
    assert [s.score for s in rec.seats] == [up.result.scores.get("alice"), up.result.scores.get("bob")]
    assert [s.won for s in rec.seats] == [p in up.result.winners for p in ("alice", "bob")]
    assert all(s.mu_before == 25.0 and s.mu_after is not None for s in rec.seats)


async def test_resignation_ranks_last_and_is_rated(service):
    """Bob resigns a two-player game: alice ranks 1, bob 2 (resigned), rated as such."""
    await service.open_lobby("c1", "tatari", "alice", guild_id="g1")
    await service.join("c1", "bob")
    await service.start("c1", "alice")
    up = await service.resign("c1", "bob")
    rec = up.record
    assert [(s.player_id, s.rank, s.resigned, s.won) for s in rec.seats] == [("alice", 1, False, True),
                                                                             ("bob", 2, True, False)]
    model = PlackettLuce()
    a, b = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    board = {s.player_id: (s.mu, s.sigma) for s in await service.store.leaderboard("g1", "tatari")}
    assert board == {"alice": (a[0].mu, a[0].sigma), "bob": (b[0].mu, b[0].sigma)}


async def test_abandoned_games_are_kept_marked_and_unrated(service):
    """A game abandoned after the deal is recorded as abandoned (no ranks, no ratings); a
    lobby cancelled before the deal is no game and leaves no record."""
    await service.open_lobby("c1", "tatari", "alice", guild_id="g1")
    await service.join("c1", "bob")
    up = await service.start("c1", "alice")
    d = up.pending[0]
    await service.act("c1", d.player, d.options[0].id)
    up = await service.abandon("c1", "alice")
    rec = await service.store.game_record(up.session.id)
    assert (rec.outcome, rec.rated, rec.moves) == ("abandoned", False, 1)
    assert [(s.rank, s.score, s.won) for s in rec.seats] == [(None, None, False), (None, None, False)]
    assert await service.store.leaderboard("g1", "tatari") == []
    stats = await service.store.player_stats("g1", "alice")
    assert [(g.game_id, g.games, g.abandoned, g.mu) for g in stats.games] == [("tatari", 0, 1, None)]
    await service.open_lobby("c2", "tatari", "alice", guild_id="g1")
    up = await service.cancel("c2", "alice")
    assert await service.store.game_record(up.session.id) is None


async def test_ai_seats_are_rated_as_their_level(service):
    """Our choice, said in /help: AI seats ("ai:<level>:<n>", ai-seats) share one rating per
    level; a level seated twice moves by its best-ranked seat; a game with one rated seat is unrated."""
    store = service.store
    result = Result(winners=["ai:strong:2"], ranking=[["ai:strong:2"], ["alice"], ["ai:strong:1"]])
    async with store.transaction() as db:
        await db.execute("INSERT INTO sessions (id, channel_id, game_id, status, host, seed, created_ms, updated_ms)"
                         " VALUES (7, 'c', 'tatari', 'finished', 'alice', 1, 0, 0)")
        rec = await store.record_game(db, session_id=7, game_id="tatari", guild_id="g1", channel_id="c",
                                      options={}, seed=1, players=["alice", "ai:strong:1", "ai:strong:2"],
                                      started_ms=0, ended_ms=10, moves=3, result=result, resigned=set(), names={})
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(3)], ranks=[2, 3, 1])
    board = {s.player_id: (s.name, s.mu, s.sigma, s.games, s.wins) for s in await store.leaderboard("g1", "tatari")}
    assert board == {"alice": ("alice", new[0][0].mu, new[0][0].sigma, 1, 0),
                     "ai:strong": ("AI · Strong", new[2][0].mu, new[2][0].sigma, 1, 1)}
    assert [s.name for s in rec.seats] == ["alice", "AI · Strong", "AI · Strong"]
    async with store.transaction() as db:
        await db.execute("INSERT INTO sessions (id, channel_id, game_id, status, host, seed, created_ms, updated_ms)"
                         " VALUES (8, 'c', 'tatsumi', 'finished', 'alice', 1, 0, 0)")
        solo = await store.record_game(db, session_id=8, game_id="tatsumi", guild_id="g1", channel_id="c",
                                       options={}, seed=1, players=["alice"], started_ms=0, ended_ms=11, moves=3,
                                       result=Result(winners=["alice"], ranking=[["alice"]]), resigned=set(),
                                       names={})
    assert not solo.rated and await store.leaderboard("g1", "tatsumi") == []


async def test_stats_of_a_player(service):
    """Games, wins, average rank, best score, rating and recent results, newest first. Tatari's
    best score is the FEWEST dolls left (TA-10, ``Game.lower_score_wins``)."""
    rng = random.Random(9)
    ups = [await play_game(service, f"c{i}", ("alice", "bob"), rng) for i in range(3)]
    stats = await service.store.player_stats("g1", "alice", "tatari")
    ranks = [expected_ranks(u.result, ["alice", "bob"])[0] for u in ups]
    (g,) = stats.games
    assert (g.game_id, g.games, g.wins, g.abandoned) == ("tatari", 3, sum("alice" in u.result.winners for u in ups), 0)
    assert g.avg_rank == pytest.approx(sum(ranks) / 3)
    alice_scores = [u.result.scores["alice"] for u in ups]
    assert len(set(alice_scores)) > 1  # the seeds give different scores, so min and max differ
    assert g.best_score == min(alice_scores)
    (alice,) = [s for s in await service.store.leaderboard("g1", "tatari") if s.player_id == "alice"]
    assert (g.mu, g.sigma) == (alice.mu, alice.sigma)
    assert [r.session_id for r in stats.recent] == [u.session.id for u in reversed(ups)]
    assert [r.rank for r in stats.recent] == list(reversed(ranks))
    assert await service.store.player_stats("g1", "nobody") is None
    assert await service.store.player_stats("g1", "alice", "tsukimi") is None
    assert await service.store.player_by_name("g1", "bob") == "bob"


async def test_migration_4_backfills_finished_and_abandoned_games(tmp_path, monkeypatch):
    """A database at schema 3 with a finished game (``finished_games``), a game abandoned after
    its deal and a cancelled lobby: migration 4 records the first two (names from the Discord data, the finished
    one rated) and not the lobby."""
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(schema_module, "MIGRATIONS", MIGRATIONS[:3])
    old = await Store.open(path)
    async with old.transaction() as db:
        for sid, status, state in ((1, "finished", "{}"), (2, "abandoned", "{}"), (3, "abandoned", None)):
            await db.execute(
                "INSERT INTO sessions (id, channel_id, guild_id, game_id, status, host, players, seed, state,"
                " move_count, created_ms, updated_ms) VALUES (?, 'c', 'g1', 'tatari', ?, 'a', ?, 5, ?, 4, 100, ?)",
                (sid, status, json.dumps(["a", "b"]), state, 200 + sid))
        await db.execute("INSERT INTO finished_games VALUES (1, 'tatari', 'c', ?, 4, 150)", (json.dumps(
            {"winners": ["b"], "ranking": [["b"], ["a"]], "scores": {"a": 1, "b": 2}, "reason": "b wins."}),))
        await db.execute("INSERT INTO discord_sessions VALUES (1, ?, 0)", (json.dumps({"names": {"a": "Ann"}}),))
    await old.close()
    monkeypatch.undo()
    new = await Store.open(path)
    try:
        first, second = await new.game_record(1), await new.game_record(2)
        assert await new.game_record(3) is None
        assert (first.outcome, first.rated, first.ended_ms, first.moves, first.reason) == ("finished", True, 150, 4,
                                                                                            "b wins.")
        assert [(s.name, s.rank, s.score, s.won) for s in first.seats] == [("Ann", 2, 1, False), ("b", 1, 2, True)]
        assert (second.outcome, second.rated, second.ended_ms) == ("abandoned", False, 202)
        model = PlackettLuce()
        a, b = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
        assert {s.player_id: (s.mu, s.sigma) for s in await new.leaderboard("g1", "tatari")} == {
            "a": (a[0].mu, a[0].sigma), "b": (b[0].mu, b[0].sigma)}
    finally:
        await new.close()


def _names(names: dict[str, str]):
    async def get(session_id: int) -> dict[str, str]:
        return names
    return get


async def test_record_is_written_in_the_transaction_that_ends_the_game(service, monkeypatch):
    """The record and the ratings are part of the game's last transaction: if recording fails,
    the last move is not stored either (the game stays active, nothing half written)."""
    await service.open_lobby("c1", "tatari", "alice", guild_id="g1")
    await service.join("c1", "bob")
    up = await service.start("c1", "alice")

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service.store, "record_game", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await service.resign("c1", "bob")
    row = await service.store.session(up.session.id)
    assert (row.status, row.move_count) == ("active", 0)
    assert await service.store.finished_games() == [] and await service.store.game_record(row.id) is None



ROUNDS = 30


def _chains(seats: list[tuple[int, str, float, float, float, float]],
            final: dict[str, tuple[float, float]]) -> tuple[dict[str, list[int]], int]:
    """Per rating key, the games whose ratings follow one another from the model's defaults (each seat's
    rating-before is the previous game's rating-after), and how many updates were lost: games whose rating-after
    no other game started from and that is not the stored rating either."""
    model = PlackettLuce()
    by_key: dict[str, list[tuple[int, tuple[float, float], tuple[float, float]]]] = {}
    for sid, key, mu_b, sigma_b, mu_a, sigma_a in seats:
        by_key.setdefault(key, []).append((sid, (mu_b, sigma_b), (mu_a, sigma_a)))
    chains, lost = {}, 0
    for key, games in by_key.items():
        order, current, left = [], (model.mu, model.sigma), list(games)
        while len(step := [g for g in left if g[1] == current]) == 1:
            order.append(step[0][0])
            current = step[0][2]
            left.remove(step[0])
        chains[key] = order
        befores = {g[1] for g in games}
        lost += sum(1 for g in games if g[2] not in befores and g[2] != final[key])
    return chains, lost


async def test_two_games_ending_at_once_keep_every_rating_one_chain(service, tmp_path):
    """Two games of one server share a player (alice) and an AI level (``ai:normal``, one rating for every seat of
    that level) and end at the same instant, 30 times: no rating update is lost on either backend — every rating is
    one unbroken chain of its games (each seat's rating-before is the previous game's rating-after), and the stored
    ratings equal SQLite's for the same games recorded one by one in that order."""
    svc, store = service, service.store
    for _ in range(ROUNDS):
        await svc.open_lobby("a", "tatari", "alice", guild_id="g1", ai_seats=1, ai_level="normal")
        await svc.start("a", "alice")
        await svc.open_lobby("b", "tatari", "bob", guild_id="g1", ai_seats=1, ai_level="normal")
        await svc.join("b", "alice")
        await svc.start("b", "bob")
        await svc.resign("b", "bob")  # alice and the AI play on
        ends = await asyncio.gather(svc.resign("a", "alice"), svc.resign("b", "alice"))
        assert [u.session.status for u in ends] == ["finished", "finished"]
    cur = await store.conn.execute(
        "SELECT session_id, CASE WHEN ai_level IS NULL THEN player_id ELSE 'ai:' || ai_level END, mu_before,"
        " sigma_before, mu_after, sigma_after FROM game_seats WHERE guild_id = 'g1' ORDER BY session_id, seat")
    seats = [tuple(r) for r in await cur.fetchall()]
    board = await store.leaderboard("g1", "tatari")
    final = {s.player_id: (s.mu, s.sigma) for s in board}
    chains, lost = _chains(seats, final)
    assert lost == 0
    assert {key: len(order) for key, order in chains.items()} == {"alice": 2 * ROUNDS, "ai:normal": 2 * ROUNDS,
                                                                  "bob": ROUNDS}
    assert {s.player_id: (s.games, s.wins) for s in board} == {"alice": (2 * ROUNDS, 0),
                                                               "ai:normal": (2 * ROUNDS, 2 * ROUNDS),
                                                               "bob": (ROUNDS, 0)}
    # alice sits in every game: her chain is the order of commit; the AI's agrees with it
    order = chains["alice"]
    assert [sid for sid in order if sid in set(chains["ai:normal"])] == chains["ai:normal"]
    finished = {g["session_id"]: g for g in await store.finished_games(limit=10 * ROUNDS)}
    again = await Store.open(tmp_path / "replayed.sqlite3")
    try:
        for sid in order:
            row = await store.session(sid)
            async with again.transaction() as db:
                await db.execute("INSERT INTO sessions (id, channel_id, game_id, status, host, seed, created_ms,"
                                 " updated_ms) VALUES (?, ?, 'tatari', 'finished', ?, 1, 0, 0)",
                                 (sid, row.channel_id, row.host))
                await again.record_game(
                    db, session_id=sid, game_id="tatari", guild_id="g1", channel_id=row.channel_id, options={},
                    seed=row.seed, players=row.players, started_ms=0, ended_ms=svc.test_clock[0], moves=1,
                    result=finished[sid]["result"], resigned=await store.players_with_move(sid, RESIGN_MOVE),
                    names={})
        replayed = await again.leaderboard("g1", "tatari")
    finally:
        await again.close()
    assert [(s.player_id, s.mu, s.sigma, s.games, s.wins) for s in board] == [
        (s.player_id, s.mu, s.sigma, s.games, s.wins) for s in replayed]
