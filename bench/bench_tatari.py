"""Tatari benchmarks. Run: ``python bench/bench_tatari.py``.

Prints render+encode median vs the floor, engine moves/s on one core (``bench/common.moves_per_second``, 3-player
random-legal games), and durable moves/s through the store vs raw
sqlite3 insert+commit (both WAL + synchronous=FULL, same machine, same run). Goals: render <= 1.5x floor and <= 15 ms;
>= 20,000 moves/s; store >= 0.5x raw. Add ``--fuzz N`` to also play N random-legal games with invariants.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SMOKE_HELP, moves_per_second, positions, render_vs_floor  # noqa: E402

import games  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.store import Store  # noqa: E402
from renderers.tatari import palette, render  # noqa: E402

N_DURABLE = 200
ROUNDS = 5


def raw_sqlite(path: str, n: int) -> float:
    """Moves/s of plain sqlite3: one INSERT + COMMIT per move, WAL, synchronous=FULL."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE m (seq INTEGER PRIMARY KEY, player TEXT, option TEXT, at_ms INTEGER)")
    t = time.perf_counter()
    for i in range(n):
        db.execute("BEGIN")
        db.execute("INSERT INTO m VALUES (?, ?, ?, ?)", (i, "alice", "set:4", i))
        db.execute("COMMIT")
    dt = time.perf_counter() - t
    db.close()
    return n / dt


async def durable(path: str, n: int) -> float:
    """Moves/s through SessionService.act (load, apply, append move, save state, bump version, commit)."""
    store = await Store.open(path)
    svc = SessionService(store, seeds=lambda: 1)
    rng = random.Random(1)
    done, spent, game_no = 0, 0.0, 0
    while done < n:
        ch = f"c{game_no}"
        game_no += 1
        await svc.open_lobby(ch, "tatari", "a")
        await svc.join(ch, "b")
        up = await svc.start(ch, "a")
        while up.pending and done < n:
            d = up.pending[0]
            opt = rng.choice(d.options).id
            t = time.perf_counter()
            up = await svc.act(ch, d.player, opt)
            spent += time.perf_counter() - t
            done += 1
        if up.pending:
            await svc.abandon(ch, "a")
    await store.close()
    return done / spent


async def store_path(path: str, n: int) -> float:
    """Moves/s of the store's write path alone: one transaction appending a move and saving a ~1 KB state."""
    store = await Store.open(path)
    row = await store.create_session("c", "tatari", "a", {}, 1)
    state, version = "{" + '"x":"' + "y" * 900 + '"}', row.version
    t = time.perf_counter()
    for i in range(n):
        async with store.transaction() as db:
            await store.append_move(db, row.id, i + 1, "a", "set:4", i)
            await store.update_session(row.id, version, db=db, state=state, move_count=i + 1)
        version += 1
    dt = time.perf_counter() - t
    await store.close()
    return n / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuzz", type=int, default=0, metavar="N", help="also play N random-legal games with invariants")
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = ap.parse_args()
    durable_moves, rounds = (10, 1) if args.smoke else (N_DURABLE, ROUNDS)
    game = games.get("tatari")
    states = positions(game, 4, range(1 if args.smoke else 6), every=9)[:2 if args.smoke else None]
    r, f = render_vs_floor(render, states, repeat=1 if args.smoke else 3, palette=palette())
    print(f"render+encode median {r:.2f} ms, floor {f:.2f} ms, ratio {r / f:.2f}x  ({len(states)} positions)")
    rate = moves_per_second(game, 3, seconds=0.1 if args.smoke else 3.0)
    print(f"engine {rate.per_second:,.0f} moves/s on one core ({rate.moves:,} moves)")
    raws, ours, paths = [], [], []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        for k in range(rounds):  # interleaved rounds, so disk and load drift hit both alike
            raws.append(raw_sqlite(str(Path(tmp) / f"raw{k}.sqlite3"), durable_moves))
            ours.append(asyncio.run(durable(str(Path(tmp) / f"store{k}.sqlite3"), durable_moves)))
            paths.append(asyncio.run(store_path(str(Path(tmp) / f"path{k}.sqlite3"), durable_moves)))
    raw, our, path = statistics.median(raws), statistics.median(ours), statistics.median(paths)
    print(f"durable moves/s (median of {rounds} interleaved rounds of {durable_moves}): raw sqlite3 insert+commit "
          f"{raw:,.0f}; store write path {path:,.0f} ({path / raw:.2f}x); full SessionService.act {our:,.0f} "
          f"({our / raw:.2f}x)")
    if args.fuzz:
        run_fuzz(game, args.fuzz)


def run_fuzz(game, n: int) -> None:
    """The test suite's fuzz (tests/tatari/test_tatari_fuzz.py invariants at every step) over ``n`` games."""
    root = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(root / "tests"), str(root / "tests" / "tatari")]
    from support import fuzz
    from test_tatari_fuzz import invariants

    t = time.perf_counter()
    for seed in range(n):
        fuzz(game, 2 + seed % 4, 10_000 + seed, invariants, strict=True)
    print(f"fuzz: {n} games, invariants and round-trips at every step: ok ({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
