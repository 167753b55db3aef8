"""The PostgreSQL store: :class:`PostgresStore`, the :class:`bot.store.base.Store` interface over asyncpg.

Chosen by a ``postgresql://user:password@host:port/database`` target (``DATABASE_URL``); asyncpg is the optional
extra ``pip install -e ".[postgres]"``. Query parameters of the URL other than asyncpg's own are server settings,
e.g. ``?search_path=bot`` keeps the tables in schema ``bot`` (the tests give each test its own schema).

- A pool of connections (:data:`POOL_SIZE`); each transaction takes one connection from ``BEGIN`` to ``COMMIT``, so
  transactions of different sessions run side by side; single reads take one for the statement (autocommit).
- The shared SQL of :class:`bot.store.base.Store` is written with ``?`` placeholders; :class:`PgConnection` numbers them
  (``$1``…) and answers like an aiosqlite cursor (``fetchone``, ``fetchall``, ``rowcount``).
- Migrations: :data:`bot.store.schema.MIGRATIONS` in PostgreSQL's dialect (ids ``BIGINT`` identities, times
  ``BIGINT`` ms, JSON as ``TEXT``), applied in one transaction under an advisory lock (any number of processes may
  open a fresh database at once); the version is in ``schema_version``.
- A session's row is locked (``SELECT … FOR UPDATE``) before a move is written (:meth:`Store.lock_session`), and the
  ratings rows a finished game moves before their priors are read (:meth:`RecordStore.record_game`, in key order);
  due timers are claimed with ``FOR UPDATE SKIP LOCKED`` and a lease (:meth:`Store.claim_timers`).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import schema
from .base import Store
from .rows import StaleVersion, StoreError, now_ms

POOL_SIZE = 10
"""Connections per process (transactions of different sessions in flight at once)."""
CONNECT_TIMEOUT_S = 10.0
"""How long opening the store waits for the server before :class:`StoreError` (s)."""
MIGRATION_LOCK = 7_216_016
"""The advisory lock key under which migrations run (one process migrates, the others wait and find none to do)."""

_MARK = re.compile(r"\?(\d*)")
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)


def numbered(sql: str) -> str:
    """``?`` placeholders (and SQLite's ``?N``) as PostgreSQL's ``$N``. The shared SQL has no ``?`` in literals."""
    counter = iter(range(1, 10_000))

    def mark(m: re.Match) -> str:
        return f"${m.group(1) or next(counter)}"

    return _MARK.sub(mark, sql)


def redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is (asyncpg still rolls back an open transaction): the store keeps
    no session state (no LISTEN, no session-level advisory lock, no temporary table), so the default reset — one more
    round trip per statement — would buy nothing."""


class PgCursor:
    """What a statement gave back, shaped like an aiosqlite cursor."""

    def __init__(self, rows: list, rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        self.lastrowid = None  # PostgreSQL has none: the shared SQL uses ``RETURNING id``

    async def fetchone(self):
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list:
        rows, self._next = self._rows[self._next:], len(self._rows)
        return rows


def _plain(record: asyncpg.Record) -> tuple:
    """A row as SQLite gives it: PostgreSQL's ``numeric`` (``SUM``/``AVG`` of integers) as int when whole, else
    float, so the shared code sees the same values on both backends."""
    values = tuple(record)
    if any(isinstance(v, Decimal) for v in values):
        values = tuple((int(v) if v == v.to_integral_value() else float(v)) if isinstance(v, Decimal) else v
                       for v in values)
    return values


def _count(status: str) -> int:
    """Rows affected, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    tail = status.rsplit(" ", 1)[-1] if status else ""
    return int(tail) if tail.isdigit() else 0


class PgConnection:
    """Runs the shared SQL on one asyncpg connection (inside a transaction) or, without one, on a pooled
    connection per statement (autocommit). ``execute`` returns a :class:`PgCursor`."""

    def __init__(self, pool: asyncpg.Pool | None = None, conn: asyncpg.Connection | None = None) -> None:
        self._pool = pool
        self._conn = conn

    async def _run(self, conn: asyncpg.Connection, sql: str, args: Sequence) -> PgCursor:
        sql = numbered(sql)
        if _RETURNS_ROWS.search(sql):
            rows = [_plain(r) for r in await conn.fetch(sql, *args)]
            return PgCursor(rows, len(rows))
        return PgCursor([], _count(await conn.execute(sql, *args)))

    async def execute(self, sql: str, args: Sequence | dict = ()) -> PgCursor:
        args = list(args)
        if self._conn is not None:
            return await self._run(self._conn, sql, args)
        async with self._pool.acquire() as conn:
            return await self._run(conn, sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None:
        rows = [list(r) for r in rows]
        if not rows:
            return
        if self._conn is not None:
            await self._conn.executemany(numbered(sql), rows)
            return
        async with self._pool.acquire() as conn:
            await conn.executemany(numbered(sql), rows)

    async def commit(self) -> None:
        """Nothing to do: statements outside :meth:`PostgresStore.transaction` commit by themselves."""


class PostgresStore(Store):
    """The PostgreSQL store over an asyncpg pool. Open with ``await Store.open("postgresql://…")``."""

    backend = "postgresql"
    dialect = "postgresql"
    shared = True
    integrity_errors = (asyncpg.IntegrityConstraintViolationError,)
    _for_update = " FOR UPDATE"
    _skip_locked = " FOR UPDATE OF t SKIP LOCKED"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__()
        self.pool = pool
        self.url = url
        self.conn = PgConnection(pool=pool)

    def describe(self) -> str:
        return f"postgresql {redacted(self.url)}"

    UNAVAILABLE_STATES = ("57P01", "57P02", "57P03", "53300")
    """SQLSTATEs besides class 08 (connection exceptions) that mean the server is not answering now: shutting
    down (admin, crash), starting up, too many connections."""

    def unavailable(self, exc: BaseException) -> bool:
        """:meth:`Store.unavailable`, and asyncpg's lost or refused connections: class 08 and
        :data:`UNAVAILABLE_STATES`, a connection closed under a statement."""
        if isinstance(exc, asyncpg.PostgresError):
            state = getattr(exc, "sqlstate", "") or ""
            return state.startswith("08") or state in self.UNAVAILABLE_STATES
        if isinstance(exc, asyncpg.InterfaceError):
            return "connection is closed" in str(exc) or "connection was closed" in str(exc)
        return super().unavailable(exc)

    @classmethod
    async def connect(cls, url: str, *, check: bool = True, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect (a pool of ``pool_size``), check the server answers and migrate. :class:`StoreError` with one line
        (no password) when the server cannot be reached, refuses the login, or has a newer schema."""
        try:
            # no connection floor (min_size 0): while the server is down asyncpg would otherwise log a traceback
            # every few seconds restoring it; the store logs the outage once (Store.guarded) and connects on demand
            pool = await asyncpg.create_pool(url, min_size=0, max_size=pool_size, timeout=CONNECT_TIMEOUT_S,
                                             command_timeout=60, reset=_keep_session)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"cannot open the database {redacted(url)}: {type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
        try:  # the pool's first connection (it opens none by itself)
            async with pool.acquire():
                pass
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            await pool.close()
            raise StoreError(f"cannot open the database {redacted(url)}: {type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
        store = cls(pool, url)
        try:
            if check:
                await pool.fetchval("SELECT 1")
            await store.migrate()
            return store
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
                raise StoreError(f"cannot use the database {redacted(url)}: {exc}") from None
            raise

    async def close(self) -> None:
        await self.pool.close()

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            return int(await conn.fetchval("SELECT version FROM schema_version")) if exists else 0

    async def migrate(self) -> int:
        """Apply the migrations not yet applied in ONE transaction under an advisory lock (several processes may
        open a fresh database at once: the first migrates, the others wait and find nothing to do). Returns the
        schema version; :class:`StoreError` when the database's schema is newer than this code's."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await conn.fetchval("SELECT version FROM schema_version")
            if version is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                version = 0
            migrations = schema.MIGRATIONS
            if version > len(migrations):
                raise StoreError(f"the database {redacted(self.url)} has schema version {version}, newer than this "
                                 f"bot's {len(migrations)}: run the newer bot, or restore an older backup")
            for number, migration in enumerate(migrations, start=1):
                if number > version:
                    await conn.execute(";\n".join(migration.statements(self.dialect)))
                    if migration.backfill is not None:
                        await migration.backfill(PgConnection(conn=conn))
                    version = number
            await conn.execute("UPDATE schema_version SET version = $1", version)
            return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """One connection from the pool, ``BEGIN`` … ``COMMIT``; ``ROLLBACK`` on any exception (also
        cancellation: asyncpg cancels the statement in flight and resets the connection before it goes back)."""
        async with self.pool.acquire() as conn, conn.transaction():
            yield PgConnection(conn=conn)

    async def commit_move(self, row, seq: int, player: str | None, option: str, at_ms: int | None, *,
                          state: str, status: str, meta: dict, clear_kinds: list[str],
                          timers: list[tuple[str, int, dict]]) -> None:
        """:meth:`Store.commit_move` as ONE statement (its own transaction): the ``UPDATE … WHERE version = $7``
        takes the session's row lock (a second process's statement waits for it, then matches no row: stale), and
        every other change hangs on the updated row, so a stale version stores nothing."""
        ts = now_ms()
        async with self.pool.acquire() as conn:
            updated = await conn.fetchval(
                """
                WITH upd AS (
                    UPDATE sessions SET version = version + 1, updated_ms = $1, state = $2, status = $3, meta = $4,
                        move_count = $5
                    WHERE id = $6 AND version = $7 RETURNING id, channel_id
                ), mv AS (
                    INSERT INTO moves (session_id, seq, player, option, at_ms, created_ms)
                    SELECT id, $5, $8, $9, $10, $1 FROM upd
                ), del AS (
                    DELETE FROM timers WHERE session_id = $6 AND kind = ANY($11::text[]) AND EXISTS (SELECT 1 FROM upd)
                ), tm AS (
                    INSERT INTO timers (session_id, channel_id, kind, due_ms, payload, created_ms)
                    SELECT upd.id, upd.channel_id, t.kind, t.due_ms, t.payload, $1
                    FROM upd, unnest($12::text[], $13::bigint[], $14::text[]) AS t(kind, due_ms, payload)
                )
                SELECT COUNT(*) FROM upd
                """,
                ts, state, status, json.dumps(meta), seq, row.id, row.version, player, option, at_ms, clear_kinds,
                [t[0] for t in timers], [t[1] for t in timers], [json.dumps(t[2]) for t in timers])
        if updated != 1:
            raise StaleVersion(f"session {row.id} changed meanwhile")


__all__ = ["PgConnection", "PostgresStore", "numbered", "redacted"]
