"""Durable storage of sessions, move logs, timers and finished games (ARCHITECTURE.md, "Sessions and storage").

SQLite through aiosqlite: one file (``./data/bot.sqlite3`` by default), WAL, ``synchronous=FULL``, foreign keys on,
numbered migrations (``MIGRATIONS``; ``PRAGMA user_version`` holds the last applied).

aiosqlite runs every call of one connection on one thread, so statements of concurrent tasks interleave on that
connection. Every multi-statement transaction therefore holds :attr:`Store.write_lock` from ``BEGIN`` to ``COMMIT``
(:meth:`Store.transaction`); single reads need no lock.

Rows (``sessions``): ``id``, ``channel_id``, ``guild_id``, ``game_id``, ``status`` (lobby | active | finished |
abandoned), ``host``, ``players`` (JSON list), ``options`` (JSON), ``seed``, ``state`` (JSON or NULL in the lobby),
``version`` (bumped by every change), ``move_count`` (moves in the log), ``meta`` (JSON: adapter data such as message ids), ``created_ms``,
``updated_ms``. One lobby or active session per channel (a partial unique index).
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel, Field
from tenacity import AsyncRetrying, retry_if_exception, stop_after_delay, wait_random_exponential

from . import records
from .records import RecordStore

MIGRATIONS: list[str] = [
    # 1: sessions, moves, timers, finished games, channel settings
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id TEXT NOT NULL,
        guild_id TEXT,
        game_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        host TEXT NOT NULL,
        players TEXT NOT NULL DEFAULT '[]',
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        move_count INTEGER NOT NULL DEFAULT 0,
        meta TEXT NOT NULL DEFAULT '{}',
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX sessions_one_live_per_channel ON sessions(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE TABLE moves (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        player TEXT,
        option TEXT NOT NULL,
        at_ms INTEGER,
        created_ms INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
        channel_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        due_ms INTEGER NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        created_ms INTEGER NOT NULL
    );
    CREATE INDEX timers_due ON timers(due_ms);
    CREATE TABLE finished_games (
        session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        game_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        result TEXT NOT NULL,
        moves INTEGER NOT NULL,
        finished_ms INTEGER NOT NULL
    );
    CREATE TABLE channel_settings (
        channel_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_ms INTEGER NOT NULL
    );
    """,
    # 2: the Discord adapter's data per session (message ids, display names, undo votes): written without bumping
    # the session version, so the components of a posted board stay current (bot/discord/links.py)
    """
    CREATE TABLE discord_sessions (
        session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        data TEXT NOT NULL DEFAULT '{}',
        updated_ms INTEGER NOT NULL
    );
    """,
    # 3: the Discord adapter's data per member (whether they muted their turn pings), bot/discord/links.py
    """
    CREATE TABLE discord_players (
        player_id TEXT PRIMARY KEY,
        data TEXT NOT NULL DEFAULT '{}',
        updated_ms INTEGER NOT NULL
    );
    """,
    # 4: finished-game records, their seats and the ratings per game per server (issue 15, bot/records.py);
    # backfilled from finished_games and the abandoned games (BACKFILLS)
    records.MIGRATION,
]

BACKFILLS: dict[int, Callable[[aiosqlite.Connection], Awaitable[Any]]] = {4: records.backfill}
"""Python steps run right after a migration's SQL, in the same transaction (migration number -> step)."""


def now_ms() -> int:
    """Wall-clock time in ms (the store's timestamps)."""
    return int(time.time() * 1000)


class SessionRow(BaseModel):
    """One ``sessions`` row, JSON columns decoded."""

    id: int
    channel_id: str
    guild_id: str | None = None
    game_id: str
    status: str
    host: str
    players: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    state: str | None = None
    version: int = 0
    move_count: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)
    created_ms: int = 0
    updated_ms: int = 0


class MoveRow(BaseModel):
    session_id: int
    seq: int
    player: str | None
    option: str
    at_ms: int | None
    created_ms: int


class TimerRow(BaseModel):
    id: int
    session_id: int | None
    channel_id: str
    kind: str
    due_ms: int
    payload: dict[str, Any] = Field(default_factory=dict)


class StoreError(RuntimeError):
    """The database cannot be used (cannot be opened, migrated or checked, or its file vanished while running).
    ``str(exc)`` is one line for the operator; the runner exits non-zero with it (issue 17)."""


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


class StaleVersion(Exception):
    """A write expected a session version that is no longer current (someone else moved first)."""


_SESSION_COLS = (
    "id, channel_id, guild_id, game_id, status, host, players, options, seed, state, version, move_count, "
    "meta, created_ms, updated_ms"
)


def _session(row: aiosqlite.Row | tuple | None) -> SessionRow | None:
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


class Store(RecordStore):
    """The SQLite store. Open with ``await Store.open(path)`` (or ``":memory:"``), close with ``await close()``.
    Finished-game records and ratings: the methods of :class:`bot.records.RecordStore`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self.write_lock = asyncio.Lock()
        self._identity: tuple[int, int] | None = None
        self.failed: StoreError | None = None
        self.on_failure: Callable[[StoreError], None] | None = None

    @classmethod
    async def open(cls, path: str | Path, *, check: bool = True) -> Store:
        """Open (creating folders and file), check and migrate the database at ``path``.

        Fails loudly and leaves nothing running (issue 17): any problem — a folder that cannot be made, a
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
        would go to a file nobody will read again, so no move may be acknowledged (issue 17). The first failure
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
                if version > len(MIGRATIONS):
                    raise StoreError(f"the database {self.path} has schema version {version}, newer than this "
                                     f"bot's {len(MIGRATIONS)}: run the newer bot, or restore an older backup")
                for number, sql in enumerate(MIGRATIONS, start=1):
                    if number <= version:
                        continue
                    for statement in filter(str.strip, sql.split(";")):
                        await self.conn.execute(statement)
                    if number in BACKFILLS:
                        await BACKFILLS[number](self.conn)
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

    async def _rollback(self) -> None:
        """``ROLLBACK``, ignoring "no transaction is active" (the ``BEGIN`` failed, or the ``COMMIT`` went through)."""
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass

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
        """Every lobby and active session (restored on start-up)."""
        cur = await self.conn.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE status IN ('lobby', 'active') ORDER BY id"
        )
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
    ) -> SessionRow:
        """Insert a lobby with the host seated. ``aiosqlite.IntegrityError`` if the channel has a live session."""
        ts = now_ms()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO sessions (channel_id, guild_id, game_id, status, host, players, options, seed, meta,"
                " created_ms, updated_ms) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                (channel_id, guild_id, game_id, host, json.dumps([host]), json.dumps(options), seed,
                 json.dumps(meta or {}), ts, ts),
            )
            session_id = cur.lastrowid
        return await self.session(session_id)

    async def update_session(
        self, session_id: int, expect_version: int | None = None, db: aiosqlite.Connection | None = None, **fields
    ) -> None:
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

    async def append_move(
        self, db: aiosqlite.Connection, session_id: int, seq: int, player: str | None, option: str, at_ms: int | None
    ) -> None:
        """Append move number ``seq`` (1-based) to the log, inside the caller's transaction."""
        await db.execute(
            "INSERT INTO moves (session_id, seq, player, option, at_ms, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
            (session_id, seq, player, option, at_ms, now_ms()),
        )

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

    async def move_count(self, session_id: int, db: aiosqlite.Connection | None = None) -> int:
        cur = await (db or self.conn).execute("SELECT COUNT(*) FROM moves WHERE session_id = ?", (session_id,))
        return (await cur.fetchone())[0]

    async def record_finished(self, db, session_id: int, game_id: str, channel_id: str, result: dict, moves: int):
        await db.execute(
            "INSERT OR REPLACE INTO finished_games (session_id, game_id, channel_id, result, moves, finished_ms)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (session_id, game_id, channel_id, json.dumps(result), moves, now_ms()),
        )

    async def finished_games(self, channel_id: str | None = None, limit: int = 20) -> list[dict]:
        sql = "SELECT session_id, game_id, channel_id, result, moves, finished_ms FROM finished_games"
        args: tuple = ()
        if channel_id is not None:
            sql += " WHERE channel_id = ?"
            args = (channel_id,)
        cur = await self.conn.execute(sql + " ORDER BY finished_ms DESC LIMIT ?", (*args, limit))
        return [
            {"session_id": r[0], "game_id": r[1], "channel_id": r[2], "result": json.loads(r[3]), "moves": r[4],
             "finished_ms": r[5]}
            for r in await cur.fetchall()
        ]

    # -- timers -----------------------------------------------------------------------------------------------
    async def add_timer(
        self, channel_id: str, kind: str, due_ms: int, payload: dict | None = None, session_id: int | None = None,
        db: aiosqlite.Connection | None = None,
    ) -> int:
        """Add a timer row; returns its id. Inside ``db``'s transaction when given."""
        args = (session_id, channel_id, kind, due_ms, json.dumps(payload or {}), now_ms())
        sql = "INSERT INTO timers (session_id, channel_id, kind, due_ms, payload, created_ms) VALUES (?, ?, ?, ?, ?, ?)"
        if db is not None:
            cur = await db.execute(sql, args)
            return cur.lastrowid
        async with self.transaction() as tx:
            cur = await tx.execute(sql, args)
            return cur.lastrowid

    async def clear_timers(
        self, session_id: int, kinds: list[str] | None = None, db: aiosqlite.Connection | None = None
    ) -> None:
        sql, args = "DELETE FROM timers WHERE session_id = ?", [session_id]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        if db is not None:
            await db.execute(sql, args)
        else:
            async with self.transaction() as tx:
                await tx.execute(sql, args)

    async def delete_timer(self, timer_id: int) -> bool:
        async with self.transaction() as db:
            cur = await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            return cur.rowcount == 1

    async def next_timer(self) -> TimerRow | None:
        """The timer due first."""
        cur = await self.conn.execute(
            "SELECT id, session_id, channel_id, kind, due_ms, payload FROM timers ORDER BY due_ms, id LIMIT 1"
        )
        r = await cur.fetchone()
        return None if r is None else TimerRow(
            id=r[0], session_id=r[1], channel_id=r[2], kind=r[3], due_ms=r[4], payload=json.loads(r[5])
        )

    async def due_timers(self, now_ms: int, kinds: list[str] | None = None) -> list[TimerRow]:
        """Timers due at ``now_ms`` or earlier (of ``kinds`` when given), earliest first."""
        sql = "SELECT id, session_id, channel_id, kind, due_ms, payload FROM timers WHERE due_ms <= ?"
        args: list = [now_ms]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        cur = await self.conn.execute(sql + " ORDER BY due_ms, id", args)
        return [
            TimerRow(id=r[0], session_id=r[1], channel_id=r[2], kind=r[3], due_ms=r[4], payload=json.loads(r[5]))
            for r in await cur.fetchall()
        ]

    async def timers(self, session_id: int | None = None) -> list[TimerRow]:
        sql = "SELECT id, session_id, channel_id, kind, due_ms, payload FROM timers"
        args: tuple = ()
        if session_id is not None:
            sql += " WHERE session_id = ?"
            args = (session_id,)
        cur = await self.conn.execute(sql + " ORDER BY due_ms, id", args)
        return [
            TimerRow(id=r[0], session_id=r[1], channel_id=r[2], kind=r[3], due_ms=r[4], payload=json.loads(r[5]))
            for r in await cur.fetchall()
        ]

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
