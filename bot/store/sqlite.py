"""The SQLite store: :class:`SQLiteStore`, the :class:`bot.store.base.Store` interface over aiosqlite.

Chosen by a file path (``./data/bot.sqlite3`` by default), ``:memory:`` or ``sqlite:///path``. WAL,
``synchronous=FULL``, foreign keys on; the migrations of :mod:`bot.store.schema` in SQLite's dialect, the last applied
in ``PRAGMA user_version``.

aiosqlite runs every call of one connection on one thread, so statements of concurrent tasks interleave on that
connection. Each statement is run and all its rows fetched in one call on that thread (:class:`Connection`): a
statement left open between two awaits would hold a read snapshot, and SQLite refuses a connection holding a stale
snapshot the write lock at once ("database is locked", without waiting the busy timeout) as soon as another process
has committed. Every multi-statement transaction therefore holds :attr:`SQLiteStore.write_lock` from ``BEGIN`` to
``COMMIT`` (:meth:`SQLiteStore.transaction`); single reads need no lock. A write transaction (``BEGIN IMMEDIATE``)
holds the whole file, so the row locks PostgreSQL takes (:meth:`Store.lock_session`, the ratings) need no SQL here.
The transactions of every move and of the boards' bookkeeping run whole in ONE call on that thread
(:meth:`SQLiteStore.atomically`): one hand-over of the event loop instead of one per statement.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from tenacity import AsyncRetrying, retry_if_exception, stop_after_delay, wait_random_exponential

from . import schema
from .base import Store
from .rows import StoreError

BUSY_TIMEOUT_MS = 10_000
"""How long a statement waits for another process's write lock before "database is locked" (ms)."""


def _is_locked(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


async def _switch_to_wal(conn: aiosqlite.Connection) -> None:
    """``PRAGMA journal_mode=WAL``, retried while another process holds the lock: SQLite answers the journal-mode
    switch with "database is locked" at once, without its busy handler, when several processes open a fresh file
    together (22 of 1800 openings, six processes at a time, on a loaded machine). Retried for the busy timeout
    (:data:`BUSY_TIMEOUT_MS`), then the error stands."""
    async for attempt in AsyncRetrying(retry=retry_if_exception(_is_locked), reraise=True,
                                       stop=stop_after_delay(BUSY_TIMEOUT_MS / 1000),
                                       wait=wait_random_exponential(multiplier=0.005, max=0.2)):
        with attempt:
            await conn.execute("PRAGMA journal_mode=WAL")


class Rows:
    """What a statement gave back, every row already fetched (shaped like an aiosqlite cursor)."""

    def __init__(self, rows: list, rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self):
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list:
        rows, self._next = self._rows[self._next:], len(self._rows)
        return rows


def _run(conn: sqlite3.Connection, sql: str, args) -> Rows:
    cursor = conn.execute(sql, args)
    try:
        return Rows(cursor.fetchall(), cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _run_many(conn: sqlite3.Connection, sql: str, rows) -> Rows:
    cursor = conn.executemany(sql, rows)
    try:
        return Rows([], cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


class InOneCall:
    """A connection whose statements run at once on the calling thread: the ``db`` a body of
    :meth:`SQLiteStore.atomically` gets, on aiosqlite's thread (its awaits never suspend)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, args=()) -> Rows:
        return _run(self._conn, sql, args)

    async def executemany(self, sql: str, rows) -> Rows:
        return _run_many(self._conn, sql, list(rows))


def _to_the_end(body: Coroutine[Any, Any, Any]) -> Any:
    """Run ``body`` (whose awaits never suspend: :class:`InOneCall`'s statements) to its end; its result.
    ``RuntimeError`` when it suspends (it awaited something else)."""
    try:
        body.send(None)
    except StopIteration as end:
        return end.value
    body.close()
    raise RuntimeError("a body of SQLiteStore.atomically awaited something besides its statements")


def _in_one_transaction(conn: sqlite3.Connection, body: Callable[[Any], Awaitable[Any]]) -> Any:
    """``BEGIN IMMEDIATE``, ``body`` to its end (:func:`_to_the_end`), ``COMMIT``; ``ROLLBACK`` and raise on any
    exception. Runs on aiosqlite's thread."""
    _run(conn, "BEGIN IMMEDIATE", ())
    try:
        result = _to_the_end(body(InOneCall(conn)))
        _run(conn, "COMMIT", ())
    except BaseException:
        try:
            _run(conn, "ROLLBACK", ())
        except sqlite3.OperationalError:  # "no transaction is active": the COMMIT went through
            pass
        raise
    return result


class Connection:
    """An aiosqlite connection whose ``execute`` and ``executemany`` run the statement, fetch all its rows and close
    it in ONE call on aiosqlite's thread, returning :class:`Rows`: no statement of one task stays open while another
    task's ``BEGIN IMMEDIATE`` waits for the write lock. (An open read statement keeps its snapshot; once another
    process commits, SQLite answers that connection's ``BEGIN IMMEDIATE`` with "database is locked" at once instead of
    waiting :data:`BUSY_TIMEOUT_MS`: two bench processes had 103 of 720 moves refused after at most 367 ms.)
    Everything else is aiosqlite's connection (:attr:`raw`)."""

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, args=()) -> Rows:
        # aiosqlite's own queue (its execute_fetchall does the same, without rowcount and lastrowid)
        return await self.raw._execute(lambda: _run(self.raw._conn, sql, args))

    async def executemany(self, sql: str, rows) -> Rows:
        return await self.raw._execute(lambda: _run_many(self.raw._conn, sql, list(rows)))

    async def close(self) -> None:
        await self.raw.close()

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


class SQLiteStore(Store):
    """The SQLite store (one file, or ``:memory:``)."""

    backend = "sqlite"
    dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__()
        self.conn = Connection(conn)
        self.path = path
        self.write_lock = asyncio.Lock()
        self._identity: tuple[int, int] | None = None

    def describe(self) -> str:
        return f"sqlite {self.path}"

    UNAVAILABLE_MESSAGES = ("unable to open", "disk i/o error", "database is locked", "database or disk is full",
                            "no active connection")
    """SQLite errors (lower case, part of the message) that mean the file cannot be used now rather than a bug: an
    unreadable file or folder, a failing or full disk, a lock held past the busy timeout, a closed connection."""

    def unavailable(self, exc: BaseException) -> bool:
        """:meth:`Store.unavailable`, and SQLite's "cannot use the file now" errors
        (:data:`UNAVAILABLE_MESSAGES`)."""
        if isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError | ValueError):
            text = str(exc).lower()
            return any(m in text for m in self.UNAVAILABLE_MESSAGES)
        return super().unavailable(exc)

    @classmethod
    async def connect(cls, path: str, *, check: bool = True) -> SQLiteStore:
        """Open (creating folders and file), check and migrate the database at ``path``.

        Fails loudly and leaves nothing running: any problem — a folder that cannot be made, a
        read-only or corrupted file, "database is locked" past the busy timeout, a schema newer than this code —
        closes the connection (aiosqlite's thread would otherwise keep the process alive) and raises
        :class:`StoreError` with one line an operator can act on. ``check``: run ``PRAGMA quick_check`` first."""
        path = str(path)
        if path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder of the database {path}: {exc.strerror or exc}") from None
        conn = aiosqlite.connect(path, isolation_level=None)
        try:
            await conn
        except sqlite3.Error as exc:
            # aiosqlite stops its thread by itself after a failed connect; wait for it while the loop still runs
            # (it reports back to the loop) so that nothing outlives this call
            thread = getattr(conn, "_thread", None)
            if thread is not None:
                await asyncio.to_thread(thread.join, 5)
            raise StoreError(f"cannot open the database {path}: {exc}") from None
        try:
            # the busy timeout first: every later statement (WAL switch, migrations) waits for other processes
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await _switch_to_wal(conn)
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            store = cls(conn, path)
            if check:
                await store.quick_check()
            await store.migrate()
            store._identity = store._file_identity()
            return store
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot use the database {path}: {exc}") from None
            raise

    async def close(self) -> None:
        await self.conn.close()

    async def quick_check(self) -> None:
        """``PRAGMA quick_check``: raises :class:`StoreError` naming the first problem of a damaged file."""
        cur = await self.conn.execute("PRAGMA quick_check")
        rows = [r[0] for r in await cur.fetchall()]
        if rows != ["ok"]:
            raise StoreError(f"the database {self.path} is damaged (quick_check: {'; '.join(rows[:3])}); restore "
                             "it from a backup or move it away to start a new one")

    def _file_identity(self) -> tuple[int, int] | None:
        """(device, inode) of the database file, None for ``:memory:`` or a file that is gone."""
        if self.path == ":memory:":
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def check_file(self) -> None:
        """Raise :class:`StoreError` when the database file was deleted or replaced since it was opened: writes
        would go to a file nobody will read again, so no move may be acknowledged. The first failure
        is kept in :attr:`failed` and reported once to :attr:`on_failure` (the runner stops the bot)."""
        if self._identity is None or self._file_identity() == self._identity:
            return
        exc = StoreError(f"the database file {self.path} was deleted or replaced while the bot was running; "
                         "nothing more is stored — restart the bot")
        if self.failed is None:
            self.failed = exc
            if self.on_failure is not None:
                self.on_failure(exc)
        raise exc

    async def schema_version(self) -> int:
        cur = await self.conn.execute("PRAGMA user_version")
        return (await cur.fetchone())[0]

    async def migrate(self) -> int:
        """Apply the migrations not yet applied, all in ONE immediate write transaction that reads the schema
        version inside it: any number of processes may open a fresh file at once — the first migrates, the others
        wait (busy timeout) and find nothing to do. Returns the schema version; :class:`StoreError` when the file's
        schema is newer than this code's."""
        async with self.write_lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                cur = await self.conn.execute("PRAGMA user_version")
                (version,) = await cur.fetchone()
                migrations = schema.MIGRATIONS
                if version > len(migrations):
                    raise StoreError(f"the database {self.path} has schema version {version}, newer than this "
                                     f"bot's {len(migrations)}: run the newer bot, or restore an older backup")
                for number, migration in enumerate(migrations, start=1):
                    if number <= version:
                        continue
                    for statement in migration.statements(self.dialect):
                        await self.conn.execute(statement)
                    if migration.backfill is not None:
                        await migration.backfill(self.conn)
                    await self.conn.execute(f"PRAGMA user_version={number}")
                    version = number
                await self.conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise
            return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` under the write lock; ``ROLLBACK`` on any exception (also
        cancellation), so no half transaction is ever committed.

        A cancelled ``await`` does not stop a statement already queued on aiosqlite's thread: a ``BEGIN`` or
        ``COMMIT`` whose caller was cancelled still runs. So ``BEGIN`` sits inside the ``try`` and the ``ROLLBACK``
        (queued right behind, before the lock is released) tolerates "no transaction is active": a cancelled
        ``BEGIN`` leaves no open transaction behind, a cancelled ``COMMIT`` that went through stays committed."""
        async with self.write_lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                yield self.conn
                self.check_file()
                await self.conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def atomically(self, body: Callable[[Any], Awaitable[Any]]) -> Any:
        """:meth:`Store.atomically` in ONE call on aiosqlite's thread, under the write lock: ``BEGIN IMMEDIATE``,
        ``body`` with an :class:`InOneCall` connection, ``COMMIT`` — or ``ROLLBACK`` on any exception, which is
        raised. A caller cancelled meanwhile leaves the call to finish (committed or rolled back, never half).
        The file is checked (:meth:`check_file`) first: a transaction of a few statements in one call takes
        microseconds."""
        async with self.write_lock:
            self.check_file()
            raw = self.conn.raw
            return await raw._execute(lambda: _in_one_transaction(raw._conn, body))

    async def _rollback(self) -> None:
        """``ROLLBACK``, ignoring "no transaction is active" (the ``BEGIN`` failed, or the ``COMMIT`` went through)."""
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass



__all__ = ["BUSY_TIMEOUT_MS", "SQLiteStore"]
