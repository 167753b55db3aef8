"""The store interface and the SQL both backends share (ARCHITECTURE.md, "Sessions and storage").

:class:`Store` holds durable sessions, move logs, timers, finished games and channel settings; with the methods of
:class:`bot.store.records.RecordStore` (finished-game records and ratings) and :class:`bot.store.adapter.AdapterData`
(the chat adapter's own small data). Its SQL is written once with ``?`` placeholders; the backends
(:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) subclass it, and the PostgreSQL connection wrapper numbers the
placeholders (``$1``…). This module imports neither backend: :func:`bot.store.open` chooses one.

Guarantees on both backends: a move is one transaction (move, state, version, timers); a write that expects a session
version refuses a stale one (:class:`StaleVersion`) after locking the session's row (:meth:`Store.lock_session`), so
two processes never apply two moves to one version; a due timer is claimed with a lease (:meth:`Store.claim_timers`)
by one process serving its guild's shard, and fired once.

Rows (``sessions``): ``id``, ``channel_id``, ``guild_id``, ``game_id``, ``status`` (lobby | active | finished |
abandoned), ``host``, ``players`` (JSON list), ``options`` (JSON), ``seed``, ``state`` (JSON or NULL in the lobby),
``version`` (bumped by every change), ``move_count`` (moves in the log), ``meta`` (JSON: adapter data such as message
ids), ``created_ms``, ``updated_ms``. One lobby or active session per channel (a partial unique index).
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from .adapter import AdapterData
from .privacy import PrivacyData
from .records import RecordStore
from .rows import MoveRow, SessionRow, StaleVersion, StoreError, StoreUnavailable, TimerRow, now_ms

log = logging.getLogger("bot.store")

UNGUARDED = frozenset({"close", "migrate", "schema_version", "quick_check", "connect", "open"})
"""Store methods not wrapped by :meth:`Store.guarded`: opening, migrating and closing report their own
:class:`StoreError` (the runner stops with it)."""

_SESSION_COLS = (
    "id, channel_id, guild_id, game_id, status, host, players, options, seed, state, version, move_count, "
    "meta, created_ms, updated_ms"
)


def _session(row: tuple | None) -> SessionRow | None:
    if row is None:
        return None
    (id_, channel, guild, game, status, host, players, options, seed, state, version, moves, meta, created,
     updated) = row
    return SessionRow(
        id=id_,
        channel_id=channel,
        guild_id=guild,
        game_id=game,
        status=status,
        host=host,
        players=json.loads(players),
        options=json.loads(options),
        seed=seed,
        state=state,
        version=version,
        move_count=moves,
        meta=json.loads(meta),
        created_ms=created,
        updated_ms=updated,
    )


LEASE_MS = 60_000
"""How long a claimed timer stays with the process that claimed it (wall-clock ms): a process killed while firing
leaves it to be claimed again after this."""


def shard_of(guild_id: int | str | None, shard_count: int) -> int:
    """Discord's shard of a guild: ``(guild_id >> 22) % shard_count``; no guild (offline, direct messages) is 0."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (int(guild_id) >> 22) % shard_count


def _timer(r) -> TimerRow:
    return TimerRow(id=r[0], session_id=r[1], channel_id=r[2], kind=r[3], due_ms=r[4], payload=json.loads(r[5]))


_TIMER_COLS = "t.id, t.session_id, t.channel_id, t.kind, t.due_ms, t.payload"


class Store(RecordStore, AdapterData, PrivacyData):
    """The store interface and the SQL both backends share (``?`` placeholders); finished-game records and ratings
    (:class:`bot.store.records.RecordStore`), the chat adapter's data (:class:`bot.store.adapter.AdapterData`) and
    forgetting a member or pruning old games (:class:`bot.store.privacy.PrivacyData`).

    Open with ``await Store.open(target)`` (:func:`bot.store.open`): a ``postgresql://`` URL gives a
    :class:`bot.store.postgres.PostgresStore`, anything else (a path, ``:memory:``, ``sqlite:///path``) a
    :class:`bot.store.sqlite.SQLiteStore`; close with ``await close()``. ``conn`` runs single statements (reads;
    autocommit); :meth:`transaction` yields the handle (``db``) the write methods take to join one transaction.

    Shards: :meth:`serve_shards` limits :meth:`live_sessions` and every timer query to the sessions of
    guilds whose shard ``(guild_id >> 22) % shard_count`` is served by this process (all when never called)."""

    open: ClassVar[Callable[..., Awaitable[Store]]]
    """``await Store.open(target, check=True)``: :func:`bot.store.open` (the package sets it, so that this interface
    imports none of its backends)."""

    backend = "store"
    """Which backend this is (``sqlite``, ``postgresql``), for logs and tests."""
    dialect = ""
    """The SQL dialect of the migrations (:mod:`bot.store.schema`): ``sqlite`` or ``postgresql``."""
    shared = False
    """True when other processes may write the same database at any time (PostgreSQL): the session service then keeps
    no per-process knowledge of what the store holds beyond versioned caches."""
    integrity_errors: tuple[type[BaseException], ...] = ()
    """The backend's unique-constraint errors (e.g. a second live session in one channel)."""
    _skip_locked = ""
    """What the backend adds to the timer claim's inner SELECT so that concurrent claims skip each other's rows (the
    row-lock clause of every other locking read is :attr:`RecordStore._for_update`)."""

    conn: Any

    def __init__(self) -> None:
        self.failed: StoreError | None = None
        self.on_failure: Callable[[StoreError], None] | None = None
        self.shard_count = 1
        self.shard_ids: list[int] | None = None
        self.lease_ms = LEASE_MS
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.down_since: float | None = None
        """While the database does not answer: since when (``time.monotonic()`` s); None when it answers."""
        self.refused_while_down = 0
        for name, _ in inspect.getmembers(type(self), inspect.iscoroutinefunction):
            if not name.startswith("_") and name not in UNGUARDED:
                setattr(self, name, self.guarded(getattr(self, name)))
        self.transaction = self._guarded_transaction(self.transaction)

    # -- outages ----------------------------------------------------------------------------------------------
    def unavailable(self, exc: BaseException) -> bool:
        """Whether ``exc`` means the database is not answering (rather than a bug or a refused write): an
        ``OSError`` (connection refused or reset, a timeout) here; each backend adds its own errors."""
        return isinstance(exc, OSError)

    def guarded(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``method`` with the database's unavailability (:meth:`unavailable`) raised as :class:`StoreUnavailable`
        (the one line players read), the outage logged once when it starts (WARNING) and once when a call
        succeeds again (INFO) — not a traceback per input. Every public store method is guarded (set up in
        ``__init__``), :meth:`transaction` too."""

        @functools.wraps(method)
        async def call(*args, **kwargs):
            try:
                result = await method(*args, **kwargs)
            except StoreUnavailable:  # from a store call inside this one: noted there
                raise
            except Exception as exc:
                if not self.unavailable(exc):
                    raise
                self._outage(exc)
                raise StoreUnavailable() from None
            if self.down_since is not None:
                self._answers_again()
            return result

        return call

    def _guarded_transaction(self, transaction):
        @asynccontextmanager
        @functools.wraps(transaction)
        async def guarded():
            try:
                async with transaction() as db:
                    yield db
            except StoreUnavailable:
                raise
            except Exception as exc:
                if not self.unavailable(exc):
                    raise
                self._outage(exc)
                raise StoreUnavailable() from None

        return guarded

    def _outage(self, exc: BaseException) -> None:
        """Note a failed call: the first of an outage is logged (one line, no traceback)."""
        if self.down_since is None:
            self.down_since = time.monotonic()
            self.refused_while_down = 0
            first = str(exc).splitlines()[0] if str(exc) else ""
            log.warning("the database (%s) is not answering: %s%s; inputs are refused until it answers again",
                        self.describe(), type(exc).__name__, f": {first}" if first else "")
        self.refused_while_down += 1

    def _answers_again(self) -> None:
        down_s = time.monotonic() - (self.down_since or time.monotonic())
        log.info("the database (%s) answers again after %.1f s (%d store calls failed meanwhile)",
                 self.describe(), down_s, self.refused_while_down)
        self.down_since = None
        self.refused_while_down = 0

    async def close(self) -> None:
        raise NotImplementedError

    async def migrate(self) -> int:
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The number of migrations applied."""
        raise NotImplementedError

    def transaction(self):  # pragma: no cover - each backend
        raise NotImplementedError

    async def atomically(self, body: Callable[[Any], Awaitable[Any]]) -> Any:
        """``body(db)`` in one transaction (:meth:`transaction`: all of it committed or nothing), its result
        returned. ``body`` awaits nothing but ``db``'s statements and store methods given ``db``: SQLite runs
        ``BEGIN``, the whole body and ``COMMIT`` in one call on its thread (:meth:`SQLiteStore.atomically`) instead
        of one hand-over of the event loop per statement."""
        async with self.transaction() as db:
            return await body(db)

    def check_file(self) -> None:
        """Raise :class:`StoreError` when the database went away under the bot (SQLite: its file)."""

    def describe(self) -> str:
        """Where the data lives, for logs (no password)."""
        return self.backend

    # -- shards -----------------------------------------------------------------------------------------------
    def serve_shards(self, shard_count: int, shard_ids: list[int] | None) -> None:
        """Serve only the guilds of ``shard_ids`` out of ``shard_count`` (None: all). ``ValueError`` for an id
        outside ``0 … shard_count-1``."""
        if shard_count < 1:
            raise ValueError(f"SHARD_COUNT must be 1 or more, not {shard_count}")
        if shard_ids is not None:
            bad = [i for i in shard_ids if not 0 <= i < shard_count]
            if bad:
                raise ValueError(f"shard {bad[0]} is not one of 0-{shard_count - 1} (SHARD_COUNT={shard_count})")
            shard_ids = sorted(set(shard_ids))
            if len(shard_ids) == shard_count:
                shard_ids = None
        self.shard_count, self.shard_ids = shard_count, shard_ids

    def serves(self, guild_id: int | str | None) -> bool:
        """Whether this process serves the shard of ``guild_id``."""
        return self.shard_ids is None or shard_of(guild_id, self.shard_count) in self.shard_ids

    def _shards(self, alias: str = "s") -> tuple[str, list]:
        """A WHERE condition (and its arguments) keeping the rows of sessions this process serves."""
        if self.shard_ids is None:
            return "1 = 1", []
        marks = ", ".join("?" * len(self.shard_ids))
        return (f"((CAST(COALESCE({alias}.guild_id, '0') AS BIGINT) >> 22) % ?) IN ({marks})",
                [self.shard_count, *self.shard_ids])

    # -- sessions ---------------------------------------------------------------------------------------------
    async def live_session(self, channel_id: str) -> SessionRow | None:
        """The lobby or active session of ``channel_id``, if any."""
        cur = await self.conn.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return _session(await cur.fetchone())

    async def last_session(self, channel_id: str) -> SessionRow | None:
        """The newest session of ``channel_id`` whatever its status (to tell "over" from "never started")."""
        cur = await self.conn.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return _session(await cur.fetchone())

    async def session(self, session_id: int) -> SessionRow | None:
        cur = await self.conn.execute(f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ?", (session_id,))
        return _session(await cur.fetchone())

    async def live_sessions(self) -> list[SessionRow]:
        """Every lobby and active session of the shards this process serves (restored on start-up)."""
        shard, args = self._shards("sessions")
        cur = await self.conn.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE status IN ('lobby', 'active') AND {shard} ORDER BY id", args
        )
        return [_session(r) for r in await cur.fetchall()]

    async def member_sessions(self, player: str) -> list[SessionRow]:
        """Every lobby and active session ``player`` is seated in, whatever its shard or server (a member's games,
        ``/mygames``), oldest first."""
        pattern = "%" + json.dumps(player).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        cur = await self.conn.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE status IN ('lobby', 'active') AND players LIKE ? ESCAPE '\\'"
            " ORDER BY id", (pattern,))
        rows = [_session(r) for r in await cur.fetchall()]
        return [r for r in rows if player in r.players]

    async def all_sessions(self) -> list[SessionRow]:
        """Every session whatever its status or shard, oldest first (copies between stores, checks)."""
        cur = await self.conn.execute(f"SELECT {_SESSION_COLS} FROM sessions ORDER BY id")
        return [_session(r) for r in await cur.fetchall()]

    async def create_session(
        self,
        channel_id: str,
        game_id: str,
        host: str,
        options: dict,
        seed: int,
        guild_id: str | None = None,
        meta: dict | None = None,
        players: list[str] | None = None,
    ) -> SessionRow:
        """Insert a lobby with the host seated (``players``: the whole seat list, host first, e.g. with AI seats).
        One of :attr:`integrity_errors` if the channel has a live session."""
        ts = now_ms()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO sessions (channel_id, guild_id, game_id, status, host, players, options, seed, meta,"
                " created_ms, updated_ms) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (channel_id, guild_id, game_id, host, json.dumps(players or [host]), json.dumps(options), seed,
                 json.dumps(meta or {}), ts, ts),
            )
            (session_id,) = (await cur.fetchall())[0]
        return await self.session(session_id)

    async def lock_session(self, db, session_id: int, expect_version: int | None = None) -> int:
        """Lock the session's row until the end of ``db``'s transaction (PostgreSQL ``SELECT … FOR UPDATE``; an
        SQLite write transaction holds the whole file) and return its version. :class:`StaleVersion` when
        ``expect_version`` is given and is not the stored version, or the session is gone: another process moved
        first."""
        cur = await db.execute(f"SELECT version FROM sessions WHERE id = ?{self._for_update}", (session_id,))
        row = await cur.fetchone()
        if row is None or (expect_version is not None and row[0] != expect_version):
            raise StaleVersion(f"session {session_id} changed meanwhile")
        return row[0]

    async def update_session(self, session_id: int, expect_version: int | None = None, db=None, **fields) -> None:
        """Set ``fields`` (players, options, status, state, meta, host) and bump the version, inside a transaction
        (the given ``db``, or a new one). ``StaleVersion`` when ``expect_version`` is not the stored version."""
        if db is None:
            async with self.transaction() as db2:
                await self._update(db2, session_id, expect_version, fields)
        else:
            await self._update(db, session_id, expect_version, fields)

    async def _update(self, db, session_id: int, expect_version: int | None, fields: dict) -> None:
        sets, values = ["version = version + 1", "updated_ms = ?"], [now_ms()]
        for key, value in fields.items():
            if key in ("players", "options", "meta"):
                value = json.dumps(value)
            sets.append(f"{key} = ?")
            values.append(value)
        sql = f"UPDATE sessions SET {', '.join(sets)} WHERE id = ?"
        values.append(session_id)
        if expect_version is not None:
            sql += " AND version = ?"
            values.append(expect_version)
        cur = await db.execute(sql, values)
        if cur.rowcount != 1:
            raise StaleVersion(f"session {session_id} changed meanwhile")

    async def note_meta(self, session_id: int, expect_version: int, meta: dict) -> None:
        """Replace a session's ``meta`` WITHOUT bumping its version (a note that changes nothing a board's buttons
        are pressed against, e.g. the players who used a hint). ``StaleVersion`` when ``expect_version`` is not the
        stored version (nothing written)."""
        async with self.transaction() as db:
            cur = await db.execute("UPDATE sessions SET meta = ?, updated_ms = ? WHERE id = ? AND version = ?",
                                   (json.dumps(meta), now_ms(), session_id, expect_version))
            if cur.rowcount != 1:
                raise StaleVersion(f"session {session_id} changed meanwhile")

    async def append_move(self, db, session_id: int, seq: int, player: str | None, option: str,
                          at_ms: int | None) -> None:
        """Append move number ``seq`` (1-based) to the log, inside the caller's transaction."""
        await db.execute(
            "INSERT INTO moves (session_id, seq, player, option, at_ms, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
            (session_id, seq, player, option, at_ms, now_ms()),
        )

    async def commit_move(self, row: SessionRow, seq: int, player: str | None, option: str, at_ms: int | None, *,
                          state: str, status: str, meta: dict, clear_kinds: list[str],
                          timers: list[tuple[str, int, dict]]) -> None:
        """A move in ONE transaction: lock the session's row and check it is still at ``row.version``
        (:class:`StaleVersion` otherwise, nothing stored), append move ``seq``, save ``state``/``status``/``meta``
        with ``move_count = seq`` and the version bumped, delete the session's timers of ``clear_kinds`` and add
        ``timers`` (``(kind, due_ms, payload)``). PostgreSQL does it in one statement (one round trip)."""
        async def move(db) -> None:
            await self.lock_session(db, row.id, row.version)
            await self.append_move(db, row.id, seq, player, option, at_ms)
            await self._update(db, row.id, row.version,
                               {"state": state, "status": status, "meta": meta, "move_count": seq})
            if clear_kinds:
                await self.clear_timers(row.id, clear_kinds, db=db)
            for kind, due_ms, payload in timers:
                await self.add_timer(row.channel_id, kind, due_ms, payload, session_id=row.id, db=db)

        await self.atomically(move)

    async def delete_move(self, db, session_id: int, seq: int) -> None:
        """Delete move ``seq`` from the log (undo), inside the caller's transaction."""
        await db.execute("DELETE FROM moves WHERE session_id = ? AND seq = ?", (session_id, seq))

    async def moves(self, session_id: int) -> list[MoveRow]:
        cur = await self.conn.execute(
            "SELECT session_id, seq, player, option, at_ms, created_ms FROM moves WHERE session_id = ? ORDER BY seq",
            (session_id,),
        )
        return [
            MoveRow(session_id=r[0], seq=r[1], player=r[2], option=r[3], at_ms=r[4], created_ms=r[5])
            for r in await cur.fetchall()
        ]

    async def players_with_move(self, session_id: int, option: str) -> set[str]:
        """The players who have a move ``option`` in the session's log (e.g. the resignation marker)."""
        cur = await self.conn.execute(
            "SELECT DISTINCT player FROM moves WHERE session_id = ? AND option = ? AND player IS NOT NULL",
            (session_id, option),
        )
        return {r[0] for r in await cur.fetchall()}

    async def move_count(self, session_id: int, db=None) -> int:
        cur = await (db or self.conn).execute("SELECT COUNT(*) FROM moves WHERE session_id = ?", (session_id,))
        return (await cur.fetchone())[0]

    async def record_finished(self, db, session_id: int, game_id: str, channel_id: str, result: dict, moves: int):
        await db.execute(
            "INSERT INTO finished_games (session_id, game_id, channel_id, result, moves, finished_ms)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET game_id = excluded.game_id,"
            " channel_id = excluded.channel_id, result = excluded.result, moves = excluded.moves,"
            " finished_ms = excluded.finished_ms",
            (session_id, game_id, channel_id, json.dumps(result), moves, now_ms()),
        )

    async def finished_games(self, channel_id: str | None = None, limit: int = 20) -> list[dict]:
        sql = "SELECT session_id, game_id, channel_id, result, moves, finished_ms FROM finished_games"
        args: tuple = ()
        if channel_id is not None:
            sql += " WHERE channel_id = ?"
            args = (channel_id,)
        cur = await self.conn.execute(sql + " ORDER BY finished_ms DESC, session_id DESC LIMIT ?", (*args, limit))
        return [
            {"session_id": r[0], "game_id": r[1], "channel_id": r[2], "result": json.loads(r[3]), "moves": r[4],
             "finished_ms": r[5]}
            for r in await cur.fetchall()
        ]

    # -- timers -----------------------------------------------------------------------------------------------
    async def add_timer(
        self, channel_id: str, kind: str, due_ms: int, payload: dict | None = None, session_id: int | None = None,
        db=None,
    ) -> int:
        """Add a timer row; returns its id. Inside ``db``'s transaction when given."""
        args = (session_id, channel_id, kind, due_ms, json.dumps(payload or {}), now_ms())
        sql = ("INSERT INTO timers (session_id, channel_id, kind, due_ms, payload, created_ms) VALUES (?, ?, ?, ?, ?, ?)"
               " RETURNING id")
        if db is not None:
            cur = await db.execute(sql, args)
            return (await cur.fetchall())[0][0]
        async with self.transaction() as tx:
            cur = await tx.execute(sql, args)
            return (await cur.fetchall())[0][0]

    async def add_timers(self, db, rows: list[tuple]) -> None:
        """Add many timers in ``db``'s transaction: rows of ``(session_id, channel_id, kind, due_ms, payload JSON,
        created_ms)``."""
        if rows:  # one statement however many rows
            await db.execute("INSERT INTO timers (session_id, channel_id, kind, due_ms, payload, created_ms) VALUES "
                             + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(rows)), [v for row in rows for v in row])

    async def clear_timers(self, session_id: int, kinds: list[str] | None = None, db=None) -> None:
        sql, args = "DELETE FROM timers WHERE session_id = ?", [session_id]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        if db is not None:
            await db.execute(sql, args)
        else:
            async with self.transaction() as tx:
                await tx.execute(sql, args)

    async def clear_session_timers(self, db, session_ids: list[int], kinds: list[str]) -> None:
        """Delete the timers of ``kinds`` of every session of ``session_ids``, in ``db``'s transaction."""
        if session_ids and kinds:
            await db.execute(
                f"DELETE FROM timers WHERE kind IN ({','.join('?' * len(kinds))})"
                f" AND session_id IN ({','.join('?' * len(session_ids))})", [*kinds, *session_ids])

    async def delete_timers(self, db, timer_ids: list[int]) -> None:
        """Delete the timers ``timer_ids`` in ``db``'s transaction (e.g. the AI timer whose move is committed)."""
        if timer_ids:
            await db.execute(f"DELETE FROM timers WHERE id IN ({','.join('?' * len(timer_ids))})", list(timer_ids))

    async def move_timers(self, db, moves: list[tuple[int, int]]) -> None:
        """Set the due time of timers, rows of ``(due_ms, timer id)``, in ``db``'s transaction (a member's waits
        frozen while away, :mod:`bot.service.away`)."""
        if moves:
            await db.executemany("UPDATE timers SET due_ms = ? WHERE id = ?", moves)

    async def delete_timer(self, timer_id: int) -> bool:
        async with self.transaction() as db:
            cur = await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            return cur.rowcount == 1

    async def next_timer(self, exclude: set[int] | frozenset[int] = frozenset()) -> TimerRow | None:
        """The timer due first among those this process may claim (its shards; no live lease of another claim),
        leaving out the ids in ``exclude`` (timers already in hand, e.g. an AI move being searched)."""
        shard, args = self._shards()
        skip = f" AND t.id NOT IN ({','.join('?' * len(exclude))})" if exclude else ""
        cur = await self.conn.execute(
            f"SELECT {_TIMER_COLS} FROM timers t LEFT JOIN sessions s ON s.id = t.session_id"
            f" WHERE (t.lease_until IS NULL OR t.lease_until <= ?) AND {shard}{skip} ORDER BY t.due_ms, t.id LIMIT 1",
            [now_ms(), *args, *exclude],
        )
        r = await cur.fetchone()
        return None if r is None else _timer(r)

    async def lease_expiry(self) -> int | None:
        """When the first live lease on a timer of this process's shards runs out (wall-clock ms), None if none:
        the dispatcher looks again then, in case its claimer died."""
        shard, args = self._shards()
        cur = await self.conn.execute(
            "SELECT MIN(t.lease_until) FROM timers t LEFT JOIN sessions s ON s.id = t.session_id"
            f" WHERE t.lease_until > ? AND {shard}", [now_ms(), *args])
        r = await cur.fetchone()
        return None if r is None or r[0] is None else int(r[0])

    async def due_timers(self, now_ms: int, kinds: list[str] | None = None) -> list[TimerRow]:
        """Timers due at ``now_ms`` or earlier (of ``kinds`` when given), earliest first (read only; firing goes
        through :meth:`claim_timers`)."""
        shard, args = self._shards()
        sql = (f"SELECT {_TIMER_COLS} FROM timers t LEFT JOIN sessions s ON s.id = t.session_id"
               f" WHERE t.due_ms <= ? AND {shard}")
        args = [now_ms, *args]
        if kinds:
            sql += f" AND t.kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        cur = await self.conn.execute(sql + " ORDER BY t.due_ms, t.id", args)
        return [_timer(r) for r in await cur.fetchall()]

    async def claim_timers(self, due_by_ms: int, kinds: list[str] | None = None, limit: int = 100) -> list[TimerRow]:
        """Claim up to ``limit`` timers due at ``due_by_ms`` or earlier (of ``kinds``) for this process: each gets
        ``claimed_by`` = :attr:`owner` and a lease of :attr:`lease_ms` (wall clock). Only timers of the shards served
        and without a live lease are claimed; PostgreSQL skips rows another process is claiming (``FOR UPDATE SKIP
        LOCKED``), SQLite's write transaction holds the file. Earliest first. Fire each, then :meth:`finish_timer`:
        a process killed in between leaves the timer to be claimed again once its lease ran out, never twice
        before."""
        shard, shard_args = self._shards()
        wall = now_ms()
        where = f"t.due_ms <= ? AND (t.lease_until IS NULL OR t.lease_until <= ?) AND {shard}"
        args: list = [due_by_ms, wall, *shard_args]
        if kinds:
            where += f" AND t.kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        sql = (f"UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN (SELECT t.id FROM timers t"
               f" LEFT JOIN sessions s ON s.id = t.session_id WHERE {where} ORDER BY t.due_ms, t.id LIMIT ?"
               f"{self._skip_locked}) RETURNING id, session_id, channel_id, kind, due_ms, payload")
        async with self.transaction() as db:
            cur = await db.execute(sql, [self.owner, wall + self.lease_ms, *args, limit])
            rows = [_timer(r) for r in await cur.fetchall()]
        return sorted(rows, key=lambda t: (t.due_ms, t.id))

    async def finish_timer(self, timer_id: int) -> bool:
        """Delete a timer this process claimed (it fired). False when it is gone already (e.g. removed by the
        commit of its timeout move) or its lease ran out and another process claimed it."""
        async with self.transaction() as db:
            cur = await db.execute("DELETE FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, self.owner))
            return cur.rowcount == 1

    async def release_timers(self, timer_ids: list[int]) -> None:
        """Give back timers this process claimed but did not fire (it is stopping): claimable again at once."""
        if timer_ids:
            async with self.transaction() as db:
                await db.execute(
                    "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?"
                    f" AND id IN ({','.join('?' * len(timer_ids))})", [self.owner, *timer_ids])

    async def timers(self, session_id: int | None = None) -> list[TimerRow]:
        sql = "SELECT id, session_id, channel_id, kind, due_ms, payload FROM timers"
        args: tuple = ()
        if session_id is not None:
            sql += " WHERE session_id = ?"
            args = (session_id,)
        cur = await self.conn.execute(sql + " ORDER BY due_ms, id", args)
        return [_timer(r) for r in await cur.fetchall()]

    # -- channel settings -------------------------------------------------------------------------------------
    async def channel_settings(self, channel_id: str) -> dict:
        cur = await self.conn.execute("SELECT settings FROM channel_settings WHERE channel_id = ?", (channel_id,))
        row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def save_channel_settings(self, channel_id: str, settings: dict) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO channel_settings (channel_id, settings, updated_ms) VALUES (?, ?, ?)"
                " ON CONFLICT(channel_id) DO UPDATE SET settings = excluded.settings, updated_ms = excluded.updated_ms",
                (channel_id, json.dumps(settings), now_ms()),
            )

    # -- the bot's own small values ---------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        """The value stored under ``key`` in ``bot_meta`` (e.g. the hash of the slash commands last synced), None
        when nothing is."""
        cur = await self.conn.execute("SELECT value FROM bot_meta WHERE key = ?", (key,))
        row = await cur.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` in ``bot_meta``, replacing what was there."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)"
                             " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
