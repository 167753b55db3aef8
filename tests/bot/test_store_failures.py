"""The store fails loudly and safely: a file it cannot use stops start-up with a clear
StoreError and no thread left behind; any number of processes may migrate a fresh file at once; a file deleted or
replaced under a running store is detected before the next move is acknowledged; the real runner exits non-zero
within seconds."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, Store, StoreError

ROOT = Path(__file__).resolve().parents[2]


def _store_threads() -> int:
    return sum(1 for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive())


async def _open_fails(path) -> str:
    before = _store_threads()
    with pytest.raises(StoreError) as info:
        await Store.open(path)
    for _ in range(50):  # aiosqlite's thread ends once its connection is closed
        if _store_threads() <= before:
            break
        await asyncio.sleep(0.02)
    assert _store_threads() <= before, "a store thread outlived the failed open"
    return str(info.value)


async def test_corrupted_file_is_refused_with_a_clear_line(tmp_path):
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"this is not a database, just text that happens to be here " * 100)
    message = await _open_fails(path)
    assert str(path) in message and "not a database" in message


async def test_damaged_pages_are_found_by_quick_check(tmp_path):
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    for i in range(300):
        await store.create_session(f"c{i}", "tatari", "alice", {"x": "y" * 200}, seed=i)
    await store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page + 100: 3 * page + 900] = bytes(range(256)) * 3 + bytes(32)  # scribble over a b-tree page
    path.write_bytes(bytes(data))
    message = await _open_fails(path)
    assert "damaged" in message or "malformed" in message, message


async def test_a_directory_in_place_of_the_file_is_refused(tmp_path):
    path = tmp_path / "bot.sqlite3"
    path.mkdir()
    message = await _open_fails(path)
    assert str(path) in message


async def test_a_file_in_place_of_the_folder_is_refused(tmp_path):
    (tmp_path / "data").write_text("a file, not a folder")
    message = await _open_fails(tmp_path / "data" / "bot.sqlite3")
    assert "cannot create the folder" in message


async def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    await store.conn.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    await store.close()
    message = await _open_fails(path)
    assert "newer than this bot's" in message


def _open_at(path: str, barrier, errors) -> None:
    try:
        barrier.wait(timeout=10)
        async def open_and_close() -> None:
            store = await Store.open(path)
            await store.close()

        asyncio.run(open_and_close())
    except Exception as exc:  # reported to the parent
        errors.put(f"{type(exc).__name__}: {exc}")


def test_four_processes_open_a_fresh_file_together_30_times(tmp_path):
    """Processes opening a fresh file together raced on the migration (23 failures in 30 trials), then on
    the switch to WAL, which SQLite refuses at once without its busy handler (CI: 1 failure in 30 trials)."""
    ctx = multiprocessing.get_context("fork")
    errors = ctx.Queue()
    for trial in range(30):
        path = str(tmp_path / f"fresh-{trial}.sqlite3")
        barrier = ctx.Barrier(4)
        procs = [ctx.Process(target=_open_at, args=(path, barrier, errors)) for _ in range(4)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
            assert p.exitcode == 0
        assert errors.empty(), errors.get()
    final = asyncio.run(_schema(str(tmp_path / "fresh-29.sqlite3")))
    assert final == len(MIGRATIONS)


async def _schema(path: str) -> int:
    store = await Store.open(path)
    try:
        cur = await store.conn.execute("PRAGMA user_version")
        return (await cur.fetchone())[0]
    finally:
        await store.close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_file_deleted_or_replaced_while_running_stops_the_next_move(tmp_path, how):
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    seen = []
    store.on_failure = seen.append
    row = await store.create_session("c1", "tatari", "alice", {}, seed=1)
    os.remove(path)
    for suffix in ("-wal", "-shm"):
        if Path(str(path) + suffix).exists():
            os.remove(str(path) + suffix)
    if how == "replaced":
        other = await Store.open(path)
        await other.close()
    with pytest.raises(StoreError, match="deleted or replaced"):
        async with store.transaction() as db:
            await store.append_move(db, row.id, 1, "alice", "set:4", 0)
    with pytest.raises(StoreError):
        async with store.transaction() as db:
            await store.append_move(db, row.id, 1, "alice", "set:4", 0)
    assert len(seen) == 1 and "deleted or replaced" in str(seen[0])
    assert await store.moves(row.id) == []  # rolled back: the move was never acknowledged
    await store.close()


def _run_bot(env_db: str, tmp_path: Path) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env.update(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=env_db, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # a bound that only catches a hang
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("kind", ["corrupted", "directory"])
def test_the_real_runner_exits_5_before_discord_when_the_store_is_unusable(tmp_path, kind):
    db = tmp_path / "bot.sqlite3"
    if kind == "corrupted":
        db.write_bytes(b"garbage " * 1000)
    else:
        db.mkdir()
    code, err = _run_bot(str(db), tmp_path)
    assert code == 5, err
    assert "The store cannot be used" in err and str(db) in err
    assert "Traceback" not in err


def test_the_real_runner_exits_5_when_the_postgresql_server_cannot_be_reached(tmp_path):
    """DATABASE_URL naming a PostgreSQL server that does not answer (nothing listens
    on port 1) stops the runner with exit code 5 and one line, before Discord is contacted, without the password."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env.update(DISCORD_TOKEN="not-a-real-token", DATABASE_URL="postgresql://bot:s3cret@127.0.0.1:1/bot",
               PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 5, proc.stderr
    assert "The store cannot be used: cannot open the database postgresql://bot:***@127.0.0.1:1/bot" in proc.stderr
    assert "s3cret" not in proc.stderr and "Traceback" not in proc.stderr
