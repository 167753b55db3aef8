"""Durable moves/s and act latency of the store with P concurrent bot processes.

Run: ``python bench/bench_store.py --database-url URL --processes P [--seconds S] [--channels C] [--rate R]``

``URL`` is ``sqlite:///path/file.sqlite3`` (or a plain path; the file and its WAL are deleted first) or
``postgresql://user@host:port/db`` (the run gets a fresh schema, dropped at the end). P worker processes start
together; each opens the store, opens C channels of Tatari (2 players) and plays random legal moves through
``SessionService.act`` (load, apply, append the move, save the state, bump the version, reschedule timers: one
committed transaction per move) on all its channels at once, for S seconds. A finished game is replaced by a new one.
Without ``--rate`` each channel moves as fast as it can (throughput); with ``--rate R`` the processes together
aim at R moves/s, evenly spaced (latency at a given load). Prints ONE line::

    backend=<sqlite|postgresql> processes=<p> moves_per_s=<x> p50_ms=<x> p99_ms=<x>

``moves_per_s``: committed moves of all processes / S; ``p50_ms``, ``p99_ms``: percentiles of the time one ``act``
takes (ms), over every move of every process. Goal on the 2-core machine: PostgreSQL with 2 processes >= SQLite's
single-process moves/s, and p99 <= 20 ms at 200 moves/s. ``--smoke``: a temporary SQLite file (unless
``--database-url`` names one), one process, 2 channels, 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import SMOKE_HELP  # noqa: E402

from bot.sessions import SessionError, SessionService  # noqa: E402
from bot.store import Store, is_postgres, sqlite_path  # noqa: E402


async def _new_game(svc: SessionService, channel: str):
    await svc.open_lobby(channel, "tatari", "a")
    await svc.join(channel, "b")
    return await svc.start(channel, "a")


async def worker(url: str, index: int, channels: int, seconds: float, rate: float, start_at: float) -> dict:
    """One process: ``channels`` games played at once for ``seconds`` from the wall time ``start_at``; ``rate``
    moves/s for this process (0 = as fast as possible). Returns {"moves": n, "latencies_ms": [...]}."""
    store = await Store.open(url)
    svc = SessionService(store, seeds=lambda: random.getrandbits(62))
    rng = random.Random(index)
    slots: list[list] = []  # [channel, latest update] per game played at once
    serial = 0
    try:
        for _ in range(channels):
            ch = f"w{index}-c{serial}"
            serial += 1
            slots.append([ch, await _new_game(svc, ch)])
    except BaseException:
        await store.close()
        raise
    latencies: list[float] = []
    busy: list[float] = []  # ms each "database is locked" act waited (SQLite with several processes); a new game
    # refused so counts 0 ms
    await asyncio.sleep(max(0.0, start_at - time.time()))
    t0 = time.perf_counter()
    end = t0 + seconds

    async def play(slot: list, offset: float) -> None:
        nonlocal serial
        interval = channels / rate if rate else 0.0
        k = 0
        while True:
            if interval:
                at = t0 + offset + k * interval
                k += 1
                now = time.perf_counter()
                if at > now:
                    await asyncio.sleep(at - now)
            if time.perf_counter() >= end:
                return
            ch, up = slot
            turn = [d for d in up.pending if d.player is not None]
            if up.finished or not turn:  # a new game in a new channel (not timed)
                ch = f"w{index}-c{serial}"
                serial += 1
                try:
                    slot[:] = [ch, await _new_game(svc, ch)]
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    busy.append(0.0)  # the next try opens the game in another new channel
                continue
            d = turn[0]
            option = rng.choice(d.options).id
            t = time.perf_counter()
            try:
                up = await svc.act(ch, d.player, option)
            except SessionError:
                slot[1] = svc.view(await store.live_session(ch))
                continue
            except sqlite3.OperationalError as exc:  # the other process held the write lock past the busy timeout
                if "locked" not in str(exc):
                    raise
                busy.append((time.perf_counter() - t) * 1000)
                slot[1] = svc.view(await store.live_session(ch))
                continue
            done = time.perf_counter()
            slot[1] = up
            if done <= end:
                latencies.append((done - t) * 1000)

    try:
        await asyncio.gather(*(play(slot, i * (1 / rate if rate else 0.0)) for i, slot in enumerate(slots)))
    finally:
        await store.close()  # else aiosqlite's thread keeps a failed worker alive (and the bench waiting for it)
    return {"moves": len(latencies), "latencies_ms": latencies, "busy_ms": busy}


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _fresh_schema(url: str) -> tuple[str, str]:
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema, f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database-url", help="required unless --smoke (then a temporary SQLite file)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--channels", type=int, default=8, help="games played at once per process")
    ap.add_argument("--rate", type=float, default=0.0, help="moves/s of all processes together (0 = flat out)")
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; one process, 2 channels, 1 s")
    args = ap.parse_args()
    if args.smoke:
        args.processes, args.seconds, args.channels = 1, 1.0, 2
    if args.database_url is None and not args.smoke:
        ap.error("--database-url is required")
    if args.database_url is None:
        with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
            args.database_url = str(Path(tmp) / "store.sqlite3")
            return run(args)
    run(args)


def run(args: argparse.Namespace) -> None:
    """Start the worker processes on a fresh database and print the line."""
    if args.worker is not None:
        out = asyncio.run(worker(args.database_url, args.worker, args.channels, args.seconds,
                                 args.rate / max(args.processes, 1), args.start_at))
        print(json.dumps(out))
        return
    url, schema = args.database_url, None
    if is_postgres(url):
        backend = "postgresql"
        schema, url = asyncio.run(_fresh_schema(url))
    else:
        backend = "sqlite"
        path = sqlite_path(url)
        for suffix in ("", "-wal", "-shm"):
            Path(path + suffix).unlink(missing_ok=True)
        url = path
    try:
        asyncio.run(_migrate_once(url))  # the schema exists before the workers race to open it
        start_at = time.time() + (1.0 if args.smoke else 3.0) + 0.5 * args.processes  # every worker has started
        procs = [subprocess.Popen([sys.executable, __file__, "--database-url", url, "--processes",
                                   str(args.processes), "--seconds", str(args.seconds), "--channels",
                                   str(args.channels), "--rate", str(args.rate), "--worker", str(k),
                                   "--start-at", str(start_at)], stdout=subprocess.PIPE, text=True)
                 for k in range(args.processes)]
        results = []
        try:
            for p in procs:
                out, _ = p.communicate(timeout=args.seconds + 120)
                if p.returncode != 0:
                    raise SystemExit(f"worker failed with exit code {p.returncode}")
                results.append(json.loads(out.strip().splitlines()[-1]))
        finally:
            for p in procs:  # a failed or stuck worker: the others are stopped, nothing is left running
                if p.poll() is None:
                    p.kill()
                    p.wait()
    finally:
        if schema is not None:
            asyncio.run(_drop_schema(args.database_url, schema))
    moves = sum(r["moves"] for r in results)
    busy = [x for r in results for x in r["busy_ms"]]
    if busy:
        print(f"{len(busy)} moves refused with 'database is locked' after waiting up to {max(busy):.0f} ms "
              "(not counted)", file=sys.stderr)
    lat = [x for r in results for x in r["latencies_ms"]]
    p50 = statistics.median(lat) if lat else float("nan")
    print(f"backend={backend} processes={args.processes} moves_per_s={moves / args.seconds:.0f} "
          f"p50_ms={p50:.2f} p99_ms={_percentile(lat, 0.99):.2f}")


async def _migrate_once(url: str) -> None:
    store = await Store.open(url)
    await store.close()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
