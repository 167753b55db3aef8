"""``python -m bot migrate-store --to postgresql://…``: copy an SQLite store into PostgreSQL.

:func:`copy_store` opens both stores (each migrated to the newest schema), refuses a target that already holds
sessions, copies every table the two schemas share — sessions, moves, timers, finished games, channel settings, the
Discord adapter's data and whatever later migrations add — row for row with their ids, in foreign-key order, in ONE
PostgreSQL transaction (all or nothing), moves each identity sequence past the copied ids, then checks: the row count
of every table matches, and every session with a state replays from its seed and move log to exactly that state
(:func:`bot.sessions.replay`). Timer leases are not copied (a copied timer is free to be claimed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import is_postgres
from .base import Store
from .rows import StoreError
from .sqlite import SQLiteStore

SKIPPED_TABLES = {"sqlite_sequence", "schema_version"}
LEASE_COLUMNS = {"claimed_by", "lease_until"}


@dataclass
class CopyReport:
    """What :func:`copy_store` did: rows per table (source = target), sessions replayed, and problems (empty when
    the copy is exact)."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{table}: {count} rows" for table, count in self.rows.items()]
        out.append(f"{self.replayed} sessions replay to their stored state")
        out += [f"PROBLEM: {p}" for p in self.problems]
        return out


async def _sqlite_tables(src: SQLiteStore) -> list[str]:
    """The source's tables, parents before children (foreign keys)."""
    cur = await src.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    names = [r[0] for r in await cur.fetchall() if r[0] not in SKIPPED_TABLES and not r[0].startswith("sqlite_")]
    parents: dict[str, set[str]] = {}
    for name in names:
        cur = await src.conn.execute(f"PRAGMA foreign_key_list({name})")
        parents[name] = {r[2] for r in await cur.fetchall() if r[2] != name}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:  # a cycle: keep the rest in name order
            ready = [n for n in names if n not in ordered]
        ordered += ready
    return ordered


def _convert(value, pg_type: str):
    if value is None:
        return None
    if pg_type == "boolean":
        return bool(value)
    if pg_type in ("bigint", "integer", "smallint"):
        return int(value)
    if pg_type in ("double precision", "real", "numeric"):
        return float(value)
    if pg_type in ("text", "character varying"):
        return value if isinstance(value, str) else json.dumps(value) if isinstance(value, dict | list) else str(value)
    return value


async def copy_store(source: str, target: str) -> CopyReport:
    """Copy the SQLite store ``source`` (a path) into the empty PostgreSQL store ``target`` (a URL) and check the
    copy. :class:`StoreError` when the target is not PostgreSQL, the source is not SQLite, or the target already
    holds sessions (nothing is written then)."""
    if not is_postgres(target):
        raise StoreError(f"--to must be a postgresql:// URL, not {target!r}")
    if is_postgres(source):
        raise StoreError("--from must be an SQLite file")
    src = await Store.open(source)
    try:
        dst = await Store.open(target)
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: SQLiteStore, dst) -> CopyReport:
    report = CopyReport()
    tables = await _sqlite_tables(src)
    async with dst.pool.acquire() as conn, conn.transaction():
        if await conn.fetchval("SELECT COUNT(*) FROM sessions"):
            raise StoreError("the target database already holds sessions: copy into an empty database")
        for table in tables:
            columns = {r["column_name"]: r["data_type"] for r in await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1"
                " AND table_schema = current_schema()", table)}
            if not columns:
                report.problems.append(f"table {table} is not in the PostgreSQL schema: not copied")
                continue
            cur = await src.conn.execute(f"PRAGMA table_info({table})")
            names = [r[1] for r in await cur.fetchall() if r[1] in columns and r[1] not in LEASE_COLUMNS]
            cur = await src.conn.execute(f"SELECT {', '.join(names)} FROM {table}")
            rows = [[_convert(v, columns[n]) for v, n in zip(r, names, strict=True)] for r in await cur.fetchall()]
            if rows:
                marks = ", ".join(f"${i}" for i in range(1, len(names) + 1))
                await conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows)
            report.rows[table] = len(rows)
            for name in names:  # identity columns continue after the copied ids
                seq = await conn.fetchval("SELECT pg_get_serial_sequence($1, $2)", table, name)
                if seq is not None:
                    await conn.execute(f"SELECT setval('{seq}', GREATEST(COALESCE((SELECT MAX({name}) FROM {table}),"
                                       " 0), 1), (SELECT COUNT(*) > 0 FROM " + table + "))")
    for table, count in report.rows.items():
        cur = await dst.conn.execute(f"SELECT COUNT(*) FROM {table}")
        copied = (await cur.fetchone())[0]
        if copied != count:
            report.problems.append(f"{table}: {count} rows in SQLite, {copied} in PostgreSQL")
    report.replayed, problems = await check_replays(dst)
    report.problems += problems
    return report


async def check_replays(store: Store) -> tuple[int, list[str]]:
    """Replay every session that has a state from its seed and move log; returns (sessions checked, problems)."""
    import games

    from ..sessions import replay

    checked, problems = 0, []
    for row in await store.all_sessions():
        if row.state is None:
            continue
        try:
            game = games.get(row.game_id)
            state = replay(game, row.players, row.options, row.seed, await store.moves(row.id))
        except Exception as exc:  # a game that no longer exists, an engine error: reported, not fatal
            problems.append(f"session {row.id} ({row.game_id}) does not replay: {type(exc).__name__}: {exc}")
            continue
        if state.model_dump_json() != row.state:
            problems.append(f"session {row.id} ({row.game_id}) replays to another state than the stored one")
        checked += 1
    return checked, problems


__all__ = ["CopyReport", "check_replays", "copy_store"]
