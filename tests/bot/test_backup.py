"""``python -m bot backup --to FILE``: a consistent copy of the SQLite store while moves are being committed; an
existing file is never overwritten; a PostgreSQL store is pointed to pg_dump."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot import store as stores
from bot.backup import backup_sqlite
from bot.sessions import SessionService
from games.ai import random_legal

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = ("c1", "c2", "c3")


def cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_TOKEN")}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**base, "PYTHONPATH": str(ROOT), **env})


async def play_one(svc: SessionService, channel: str, rng: random.Random):
    """One acknowledged step in ``channel``: a new two-player game when none is live, else one legal move.
    Returns the update of a move (None for a new game)."""
    if await svc.reads.live_session(channel) is None:
        await svc.open_lobby(channel, "tatari", f"{channel}-alice")
        await svc.join(channel, f"{channel}-bob")
        await svc.start(channel, f"{channel}-alice")
        return None
    up = await svc.show(channel)
    d = up.pending[0]
    return await svc.act(channel, d.player, random_legal(up.game, up.state, d, rng))


async def test_backup_under_concurrent_moves_keeps_every_acknowledged_move(tmp_path):
    """The moves committed since the last checkpoint are only in the -wal file: a copy of the main file alone
    (``cp``, ``shutil.copy``) would miss them; the backup holds every move acknowledged before it began."""
    db = tmp_path / "bot.sqlite3"
    live = await stores.open(db)
    seeds = iter(range(1000, 1_000_000))
    svc = SessionService(live, clock=lambda: 1_000, seeds=lambda: next(seeds))
    rng = random.Random(11)
    acked: dict[int, int] = {}  # session id -> stored version after its last acknowledged move
    moves_acked: dict[int, int] = {}  # session id -> moves acknowledged
    stop = asyncio.Event()

    async def player():
        i = 0
        while not stop.is_set():
            up = await play_one(svc, CHANNELS[i % len(CHANNELS)], rng)
            i += 1
            if up is not None:
                acked[up.session.id] = up.session.version
                moves_acked[up.session.id] = moves_acked.get(up.session.id, 0) + 1

    task = asyncio.create_task(player())
    while sum(moves_acked.values()) < 20:
        await asyncio.sleep(0)
    async with live.write_lock:  # between two moves: the tables and the first moves go into the main file
        cur = await live.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert (await cur.fetchone())[0] == 0  # not busy: the checkpoint went through
    checkpointed = sum(moves_acked.values())
    while sum(moves_acked.values()) < checkpointed + 40:  # these moves are only in the -wal file
        await asyncio.sleep(0)
    try:
        at_start, moves_at_start = dict(acked), dict(moves_acked)
        report = await asyncio.to_thread(backup_sqlite, db, tmp_path / "copy.sqlite3")
    finally:
        stop.set()
        await task
    copy = tmp_path / "copy.sqlite3"
    assert report.path == copy and report.size == copy.stat().st_size
    assert not copy.with_name("copy.sqlite3-wal").exists()
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        total = check.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    assert report.moves == total
    assert sum(moves_at_start.values()) <= total, "the copy misses moves acknowledged before it began (the -wal's)"
    assert total <= sum(moves_acked.values())

    backup = await stores.open(copy)
    try:
        for sid, version in at_start.items():
            row = await backup.session(sid)
            assert row is not None and row.version >= version
            copied, stored = await backup.moves(sid), await live.moves(sid)
            assert len(copied) >= moves_at_start[sid]
            assert copied == stored[:len(copied)]  # the copy holds a prefix of each game: no move half-stored
    finally:
        await backup.close()
        await live.close()


def test_existing_target_is_not_overwritten(tmp_path):
    db = tmp_path / "bot.sqlite3"
    sqlite3.connect(db).close()
    target = tmp_path / "old-backup.sqlite3"
    target.write_bytes(b"an earlier backup")
    done = cli("backup", "--from", str(db), "--to", str(target), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"{target} exists already: give a new file name (a backup never overwrites)"]
    assert done.stdout == ""
    assert target.read_bytes() == b"an earlier backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.sqlite3", "old-backup.sqlite3"]


def test_postgres_store_gets_pg_dump_advice_and_exit_2(tmp_path):
    done = cli("backup", "--to", str(tmp_path / "b.sqlite3"), cwd=tmp_path,
               DATABASE_URL="postgresql://bot:s3cret@db.example:5432/bot")
    shown = "postgresql://bot:***@db.example:5432/bot"
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"The store is PostgreSQL ({shown}): back it up with pg_dump, e.g. pg_dump --format=custom "
        f"--file=bot.dump '{shown}'; restore into an empty database with pg_restore --dbname='{shown}' bot.dump."]
    assert "s3cret" not in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
