"""Finished-game records and ratings: the tables of store migration 4 (:mod:`bot.store.schema`), the seats of a
game that ended, the openskill ratings per game per server, and the queries of ``/stats``, ``/leaderboard`` and
``/replay``.

All SQL of these tables lives here, behind the :class:`RecordStore` methods that :class:`bot.store.base.Store`
inherits, one statement for both backends. Plain SQL only: no JSON functions, no SQLite-only syntax.

Tables (migration 4):

- ``game_records``: one row per game that was dealt and ended — ``outcome`` ``finished`` (it has a result) or
  ``abandoned`` (kept, marked, never rated); ``guild_id`` ``''`` offline; times in ms.
- ``game_seats``: one row per seat — player id, display name at the end, AI level (``ai:<level>:<n>`` ids,
  ai-seats), score, rank (1 = best, ties share a rank, resigners last), resigned, won, and the rating before and
  after (NULL when unrated). Game, server, end time and outcome are repeated there so ``/stats`` reads one index.
- ``ratings``: per (server, game, rating key) — μ, σ, ``ordinal`` = μ − 3σ (the leaderboard's order), games,
  wins. The key is the player id, or ``ai:<level>`` for every AI seat of that level (AI seats are rated as their
  level, so people's ratings account for the AI they beat).

Rules of rating: openskill's Plackett-Luce model with its defaults (μ 25, σ 25/3); a game is
rated when it finished with at least two rated entries; ties in the ranking share a rank; a player who resigned
ranks last (tied with the other resigners) whatever the game's own ranking says; an AI level seated twice in one
game moves by its best-ranked seat only (both seats still count as opponents).

Exact under concurrency: two games of one server that end at once and share a rating key (a player, or an AI level,
which every AI seat of that level shares) move its rating one after the other. :meth:`RecordStore.record_game`
first makes sure every key it will move has a ``ratings`` row (``INSERT … ON CONFLICT DO NOTHING``), then reads the
priors with those rows locked (PostgreSQL ``SELECT … FOR UPDATE``; an SQLite write transaction holds the file) until
the ending transaction commits; keys are taken in sorted order, so two games wait for each other and never deadlock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

import games

RESIGN_MOVE = "__resign__"
"""The option id under which a resignation is logged (``bot.sessions.RESIGN``)."""
MODEL = PlackettLuce()
"""The rating model: openskill's Plackett-Luce with its default parameters (μ 25, σ 25/3, β 25/6)."""
RECENT = 5
"""How many recent results ``/stats`` lists."""
LEADERBOARD_SIZE = 10

def ai_level(player_id: str) -> str | None:
    """The AI level of an AI seat (``ai:strong:1`` -> ``strong``), None for a person."""
    parts = player_id.split(":")
    return parts[1] if len(parts) >= 2 and parts[0] == "ai" and parts[1] else None


def rating_key(player_id: str) -> str:
    """Whose rating a seat moves: the player id, or ``ai:<level>`` for an AI seat."""
    level = ai_level(player_id)
    return f"ai:{level}" if level else player_id


def ai_name(level: str) -> str:
    """An AI level's display name ("AI · Strong")."""
    return f"AI · {level.capitalize()}"


def ordinal(mu: float, sigma: float) -> float:
    """The leaderboard's order: μ − 3σ (a conservative estimate of skill)."""
    return mu - 3 * sigma


@dataclass
class Seat:
    """One seat of a recorded game. ``rank``: 1 = best, ties share it, None when abandoned; ``score``: the game's
    score (None when the game gives none or was abandoned); ``mu_*``/``sigma_*``: the rating around the game
    (None when unrated)."""

    seat: int
    player_id: str
    name: str
    ai_level: str | None = None
    score: int | None = None
    rank: int | None = None
    resigned: bool = False
    won: bool = False
    stand_in: bool = False
    """The AI stand-in played this seat for a while (:mod:`bot.service.stand_in`): ranked last, never won."""
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None


@dataclass
class GameRecord:
    """A recorded game and its seats (in seat order)."""

    session_id: int
    game_id: str
    guild_id: str
    channel_id: str
    options: dict[str, Any]
    seed: int
    started_ms: int
    ended_ms: int
    moves: int
    outcome: str
    reason: str
    rated: bool
    seats: list[Seat] = field(default_factory=list)

    @property
    def ranked(self) -> list[Seat]:
        """The seats best first (abandoned games: seat order)."""
        return sorted(self.seats, key=lambda s: (s.rank is None, s.rank or 0, s.seat))


@dataclass
class Standing:
    """A line of the leaderboard: place (1-based), rating key, display name, μ, σ, games, wins."""

    place: int
    player_id: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def is_ai(self) -> bool:
        return ai_level(self.player_id) is not None


def _lower_score_wins(game_id: str) -> bool:
    """Whether fewer is better in ``game_id``'s scores (``Game.lower_score_wins``; False for a game no longer known)."""
    try:
        return games.get(game_id).lower_score_wins
    except KeyError:
        return False


@dataclass
class GameStats:
    """A player's record in one game of one server: finished games, wins, average rank, best score, abandoned
    games, and the rating (None before the first rated game)."""

    game_id: str
    games: int
    wins: int
    avg_rank: float | None
    best_score: int | None
    abandoned: int
    mu: float | None = None
    sigma: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class RecentResult:
    """One recent game of a player: game, session id, rank of how many seats (None: abandoned), score, resigned,
    end time (ms)."""

    game_id: str
    session_id: int
    rank: int | None
    seats: int
    score: int | None
    resigned: bool
    ended_ms: int


@dataclass
class PlayerStats:
    """``/stats``: the player's display name (latest recorded), one :class:`GameStats` per game played (most played
    first) and the recent results, newest first."""

    player_id: str
    name: str
    games: list[GameStats]
    recent: list[RecentResult]


def seats_of(players: Sequence[str], result: Any | None, resigned: set[str], names: dict[str, str],
             stood_in: frozenset[str] | set[str] = frozenset()) -> list[Seat]:
    """The seats of a game that ended: ``result`` a ``games.Result`` (or its JSON dict; None when abandoned),
    ``resigned`` the players who resigned and ``stood_in`` those whose seat the AI stand-in played for a while
    (both rank last, tied, and never win: Board Game Arena's rule for leavers; the others keep their places as
    played), ``names`` player id -> display name (an AI seat without one gets "AI · <Level>"; anyone else their
    id)."""
    if isinstance(result, dict):
        ranking, winners, scores = result.get("ranking", []), result.get("winners", []), result.get("scores", {})
    elif result is not None:
        ranking, winners, scores = result.ranking, result.winners, result.scores
    else:
        ranking, winners, scores = [], [], {}
    rank_of: dict[str, int] = {}
    if result is not None:
        placed = 0
        last = set(resigned) | set(stood_in)
        groups = [[p for p in grp if p in players and p not in last] for grp in ranking]
        listed = {p for grp in groups for p in grp}
        groups.append([p for p in players if p not in listed and p not in last])  # missing from the ranking
        groups.append([p for p in players if p in last])
        for grp in groups:
            for p in grp:
                rank_of[p] = placed + 1
            placed += len(grp)
    seats = []
    for i, p in enumerate(players):
        level = ai_level(p)
        name = names.get(p) or (ai_name(level) if level else p)
        seats.append(Seat(seat=i, player_id=p, name=name, ai_level=level, score=scores.get(p),
                          rank=rank_of.get(p), resigned=p in resigned, stand_in=p in stood_in,
                          won=result is not None and p in winners and p not in resigned and p not in stood_in))
    return seats


def rate(seats: list[Seat], priors: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """New (μ, σ) per rating key after a finished game, with openskill's Plackett-Luce model; ``priors`` holds the
    keys rated before (others start at the model's defaults). Fills the seats' ``mu_*``/``sigma_*``. Returns {} —
    the game unrated — when fewer than two seats are ranked."""
    ranked = [s for s in seats if s.rank is not None]
    if len(ranked) < 2:
        return {}
    teams, ranks = [], []
    for s in ranked:
        mu, sigma = priors.get(rating_key(s.player_id), (MODEL.mu, MODEL.sigma))
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        ranks.append(s.rank)
    new = MODEL.rate(teams, ranks=ranks)
    out: dict[str, tuple[float, float]] = {}
    for s, team in sorted(zip(ranked, new, strict=True), key=lambda st: (st[0].rank, st[0].seat)):
        key = rating_key(s.player_id)
        before = priors.get(key, (MODEL.mu, MODEL.sigma))
        s.mu_before, s.sigma_before = before
        if key in out:  # an AI level seated twice moves by its best-ranked seat only
            s.mu_after, s.sigma_after = out[key]
            continue
        out[key] = (team[0].mu, team[0].sigma)
        s.mu_after, s.sigma_after = out[key]
    return out


def rated_keys(seats: list[Seat]) -> list[str]:
    """The rating keys a finished game moves, sorted: those of its ranked seats when two or more seats are ranked
    (as :func:`rate` rates), else none. A forgotten member's seat (``former-<n>``) is rated against but gets no
    rating of its own."""
    ranked = [s for s in seats if s.rank is not None]
    keys = {rating_key(s.player_id) for s in ranked if not s.player_id.startswith("former-")}
    return sorted(keys) if len(ranked) >= 2 else []


def shown_names(seats: list[Seat]) -> dict[str, str]:
    """Rating key -> the name the leaderboard shows: an AI level's name ("AI · Strong"), else the seat's name."""
    shown: dict[str, str] = {}
    for s in seats:
        shown.setdefault(rating_key(s.player_id), ai_name(s.ai_level) if s.ai_level else s.name)
    return shown


def guild_key(guild_id: str | None) -> str:
    """The stored server id: ``''`` offline and outside a server."""
    return guild_id or ""


class RecordStore:
    """The records and ratings part of :class:`bot.store.base.Store` (needs ``self.conn``)."""

    conn: Any
    _for_update = ""
    """What the backend appends to a SELECT to lock its rows until the transaction ends (PostgreSQL ``FOR UPDATE``;
    nothing on SQLite, whose write transaction holds the whole file)."""

    async def record_game(
        self, db: Any, *, session_id: int, game_id: str, guild_id: str | None, channel_id: str,
        options: dict, seed: int, players: Sequence[str], started_ms: int, ended_ms: int, moves: int,
        result: Any | None, resigned: set[str], names: dict[str, str], stood_in: frozenset[str] | set[str] = frozenset(),
        rated: bool = True,
    ) -> GameRecord:
        """Record a game that ended, inside the caller's transaction (the one that ends it): ``result`` a
        ``games.Result`` or its dict, None when abandoned (kept, marked, unrated). A finished game with two or
        more ranked seats updates the ratings of (server, game) in the same transaction, unless ``rated`` is False
        (a game in which a hint was used: recorded, never rated). Recording a session twice replaces its record
        (the ratings move once more: callers record once). ``stood_in``: the players whose seat the AI stand-in
        played (ranked last: :func:`seats_of`). Returns the record."""
        guild = guild_key(guild_id)
        seats = seats_of(players, result, resigned, names, stood_in)
        reason = (result.get("reason", "") if isinstance(result, dict) else result.reason) if result else ""
        outcome = "finished" if result is not None else "abandoned"
        new: dict[str, tuple[float, float]] = {}
        keys = rated_keys(seats) if result is not None and rated else []
        shown = shown_names(seats)
        if keys:
            new = rate(seats, await self._lock_ratings(db, guild, game_id, keys, shown, ended_ms))
            for s in seats:  # a forgotten member's seat keeps no rating
                if s.player_id.startswith("former-"):
                    new.pop(s.player_id, None)
                    s.mu_before = s.sigma_before = s.mu_after = s.sigma_after = None
        await db.execute("DELETE FROM game_seats WHERE session_id = ?", (session_id,))
        await db.execute("DELETE FROM game_records WHERE session_id = ?", (session_id,))
        await db.execute(
            "INSERT INTO game_records (session_id, game_id, guild_id, channel_id, options, seed, seats,"
            " started_ms, ended_ms, moves, outcome, reason, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, game_id, guild, channel_id, json.dumps(options), seed, len(seats), started_ms, ended_ms,
             moves, outcome, reason, int(bool(new))),
        )
        # ``stand_in`` (migration 7) only when a seat was stood in for: migration 4's backfill runs this before it
        extra = ", stand_in" if stood_in else ""
        await db.executemany(
            "INSERT INTO game_seats (session_id, seat, player_id, display_name, ai_level, score, rank, resigned, won,"
            f" mu_before, sigma_before, mu_after, sigma_after, game_id, guild_id, seats, ended_ms, outcome{extra})"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{', ?' if stood_in else ''})",
            [(session_id, s.seat, s.player_id, s.name, s.ai_level, s.score, s.rank, int(s.resigned), int(s.won),
              s.mu_before, s.sigma_before, s.mu_after, s.sigma_after, game_id, guild, len(seats), ended_ms,
              outcome, *([int(s.stand_in)] if stood_in else [])) for s in seats],
        )
        if new:
            wins: dict[str, int] = {}
            for s in seats:
                key = rating_key(s.player_id)
                wins[key] = max(wins.get(key, 0), int(s.won))
            await db.executemany(
                "UPDATE ratings SET display_name = ?, mu = ?, sigma = ?, ordinal = ?, games = games + 1,"
                " wins = wins + ?, updated_ms = ? WHERE guild_id = ? AND game_id = ? AND player_id = ?",
                [(shown[key], mu, sigma, ordinal(mu, sigma), wins[key], ended_ms, guild, game_id, key)
                 for key, (mu, sigma) in sorted(new.items())],
            )
        return GameRecord(session_id, game_id, guild, channel_id, dict(options), seed, started_ms, ended_ms, moves,
                          outcome, reason, bool(new), seats)

    async def _lock_ratings(self, db, guild: str, game_id: str, keys: list[str], shown: dict[str, str],
                            ended_ms: int) -> dict[str, tuple[float, float]]:
        """The priors (μ, σ) of ``keys`` (sorted) in (server, game), their rows locked until ``db``'s transaction
        ends: a key never rated gets its row first, at the model's defaults and 0 games (the caller's update in the
        same transaction counts the game), so there is always a row to lock. Rows are inserted and locked in key
        order, so two games sharing keys wait for each other instead of deadlocking."""
        await db.executemany(
            "INSERT INTO ratings (guild_id, game_id, player_id, display_name, mu, sigma, ordinal, games, wins,"
            " updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?) ON CONFLICT (guild_id, game_id, player_id) DO NOTHING",
            [(guild, game_id, key, shown[key], MODEL.mu, MODEL.sigma, ordinal(MODEL.mu, MODEL.sigma), ended_ms)
             for key in keys])
        cur = await db.execute(
            f"SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ? AND game_id = ? AND player_id IN "
            f"({', '.join('?' * len(keys))}) ORDER BY player_id{self._for_update}", (guild, game_id, *keys))
        return {r[0]: (r[1], r[2]) for r in await cur.fetchall()}

    async def game_record(self, session_id: int) -> GameRecord | None:
        """The record of session ``session_id`` with its seats, or None."""
        cur = await self.conn.execute(
            "SELECT session_id, game_id, guild_id, channel_id, options, seed, started_ms, ended_ms, moves, outcome,"
            " reason, rated FROM game_records WHERE session_id = ?", (session_id,))
        r = await cur.fetchone()
        if r is None:
            return None
        record = GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7], r[8], r[9], r[10],
                            bool(r[11]))
        cur = await self.conn.execute(
            "SELECT seat, player_id, display_name, ai_level, score, rank, resigned, won, stand_in, mu_before,"
            " sigma_before, mu_after, sigma_after FROM game_seats WHERE session_id = ? ORDER BY seat", (session_id,))
        record.seats = [Seat(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), bool(r[8]), r[9], r[10],
                             r[11], r[12]) for r in await cur.fetchall()]
        return record

    async def channel_records(self, channel_id: str, game_id: str | None = None,
                              limit: int = 25) -> list[tuple[int, str, int, str]]:
        """The channel's recorded games, newest first: (session id, game id, end ms, outcome)."""
        sql = "SELECT session_id, game_id, ended_ms, outcome FROM game_records WHERE channel_id = ?"
        args: list[Any] = [channel_id]
        if game_id is not None:
            sql += " AND game_id = ?"
            args.append(game_id)
        cur = await self.conn.execute(sql + " ORDER BY ended_ms DESC, session_id DESC LIMIT ?", (*args, limit))
        return [(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]

    async def leaderboard(self, guild_id: str | None, game_id: str,
                          limit: int = LEADERBOARD_SIZE) -> list[Standing]:
        """The top ``limit`` ratings of (server, game) by μ − 3σ (AI levels included, marked by their key)."""
        cur = await self.conn.execute(
            "SELECT player_id, display_name, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game_id = ?"
            " ORDER BY ordinal DESC, player_id LIMIT ?", (guild_key(guild_id), game_id, limit))
        return [Standing(i, r[0], r[1], r[2], r[3], r[4], r[5]) for i, r in enumerate(await cur.fetchall(), 1)]

    async def finished_any(self, guild_id: str | None, game_id: str, player_ids: Sequence[str]) -> bool:
        """Whether any of ``player_ids`` has a seat in a finished (not abandoned) game of ``game_id`` in the
        server ``guild_id`` (None: offline)."""
        if not player_ids:
            return False
        marks = ", ".join("?" for _ in player_ids)
        cur = await self.conn.execute(
            f"SELECT 1 FROM game_seats WHERE guild_id = ? AND player_id IN ({marks}) AND game_id = ?"
            " AND outcome = 'finished' LIMIT 1", (guild_key(guild_id), *player_ids, game_id))
        return bool(await cur.fetchall())

    async def player_stats(self, guild_id: str | None, player_id: str,
                           game_id: str | None = None) -> PlayerStats | None:
        """``/stats`` of ``player_id`` in the server (one game, or every game they played); None when they have no
        recorded game there."""
        guild = guild_key(guild_id)
        where, args = "guild_id = ? AND player_id = ?", [guild, player_id]
        if game_id is not None:
            where += " AND game_id = ?"
            args.append(game_id)
        cur = await self.conn.execute(
            "SELECT game_id, SUM(CASE WHEN outcome = 'finished' THEN 1 ELSE 0 END), SUM(won), AVG(rank),"
            " MAX(score), MIN(score), SUM(CASE WHEN outcome = 'abandoned' THEN 1 ELSE 0 END) FROM game_seats"
            f" WHERE {where} GROUP BY game_id", args)
        per_game = [GameStats(r[0], r[1] or 0, r[2] or 0, r[3], r[5] if _lower_score_wins(r[0]) else r[4], r[6] or 0)
                    for r in await cur.fetchall()]
        if not per_game:
            return None
        key = rating_key(player_id)
        cur = await self.conn.execute(
            "SELECT game_id, mu, sigma FROM ratings WHERE guild_id = ? AND player_id = ?"
            + (" AND game_id = ?" if game_id else ""), (guild, key, *([game_id] if game_id else [])))
        rated = {r[0]: (r[1], r[2]) for r in await cur.fetchall()}
        for g in per_game:
            g.mu, g.sigma = rated.get(g.game_id, (None, None))
        per_game.sort(key=lambda g: (-(g.games + g.abandoned), g.game_id))
        cur = await self.conn.execute(
            "SELECT game_id, session_id, rank, seats, score, resigned, ended_ms, display_name FROM game_seats"
            f" WHERE {where} ORDER BY ended_ms DESC, session_id DESC LIMIT ?", (*args, RECENT))
        rows = await cur.fetchall()
        recent = [RecentResult(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]
        return PlayerStats(player_id, rows[0][7] if rows else player_id, per_game, recent)

    async def player_by_name(self, guild_id: str | None, name: str) -> str | None:
        """The player id recorded in the server under display name (or id) ``name``, newest first; None if none."""
        guild = guild_key(guild_id)
        cur = await self.conn.execute(
            "SELECT player_id FROM game_seats WHERE guild_id = ? AND (display_name = ? OR player_id = ?)"
            " ORDER BY ended_ms DESC LIMIT 1", (guild, name, name))
        row = await cur.fetchone()
        return row[0] if row else None


async def backfill(db: Any) -> int:
    """Migration 4's backfill, inside its transaction: a record for every ``finished_games`` row and every game
    abandoned after it was dealt (a ``sessions`` row with a state), oldest end first so the ratings come out as if
    recorded live. Display names come from the Discord adapter's ``discord_sessions`` data when it has them.
    Returns how many games were recorded."""
    cur = await db.execute(
        "SELECT s.id, s.game_id, s.guild_id, s.channel_id, s.options, s.seed, s.players, s.created_ms,"
        " s.updated_ms, s.status, f.result, f.moves, f.finished_ms, s.move_count FROM sessions s"
        " LEFT JOIN finished_games f ON f.session_id = s.id"
        " WHERE f.session_id IS NOT NULL OR (s.status = 'abandoned' AND s.state IS NOT NULL)")
    rows = await cur.fetchall()
    rows.sort(key=lambda r: (r[12] if r[12] is not None else r[8], r[0]))
    store = RecordStore()
    for (sid, game_id, guild, channel, options, seed, players, created, updated, _status, result, moves,
         finished, move_count) in rows:
        cur = await db.execute("SELECT DISTINCT player FROM moves WHERE session_id = ? AND option = ?"
                               " AND player IS NOT NULL", (sid, RESIGN_MOVE))
        resigned = {r[0] for r in await cur.fetchall()}
        cur = await db.execute("SELECT data FROM discord_sessions WHERE session_id = ?", (sid,))
        data = await cur.fetchone()
        names = json.loads(data[0]).get("names", {}) if data else {}
        await store.record_game(
            db, session_id=sid, game_id=game_id, guild_id=guild, channel_id=channel, options=json.loads(options),
            seed=seed, players=json.loads(players), started_ms=created,
            ended_ms=finished if finished is not None else updated,
            moves=moves if moves is not None else move_count,
            result=json.loads(result) if result is not None else None, resigned=resigned, names=names)
    return len(rows)
