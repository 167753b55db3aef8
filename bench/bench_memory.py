"""Idle memory of the real bot, and bounded memory in steady play.

First the real ``python -m bot run`` is started against the stand-in of Discord (``bench/running.py``) and, once it
is connected and has settled, its resident memory and its worker processes' together are printed, exactly::

    idle_rss_mb=<x> workers_rss_mb=<y>

(goal: idle_rss_mb <= 150; the boards are drawn in the workers, which warm the renderers themselves). Then N whole
games are played through the real discord.py stack (``tests/discord/harness.py``, real renderer, real store) and the
process's resident memory before and after is reported. The last line is exactly::

    games=<n> rss_start_mb=<x> rss_end_mb=<y>

Each game is a 2-player Tatari game in a channel of its own (sessions, names, images and live messages accumulate
per channel unless they are evicted), answered through components with the greedy AI. ``rss_start_mb`` is taken
after ``--warm`` games (fonts, palettes, imports, SQLite page cache settle), ``rss_end_mb`` after N more, both after
a full garbage collection. The harness's own records (messages sent, stored messages) are cleared after each
game, so what grows is the bot's. Every 100 games a line ``  <i> games, rss_mb <x>`` goes to stderr; before the last
line, ``last_<k>_growth_mb=<x>``: the growth over the last ``k`` games (``k`` = 1000 for 2,000 games; half the games,
in hundreds, for fewer), what steady play adds once the bounded caches are full. Goals:
rss_end_mb - rss_start_mb <= 20 over 2,000 games, and last_1000_growth_mb <= 5.

    PYTHONPATH=$PWD python bench/bench_memory.py --games 2000

``--smoke``: the same code paths in a few seconds (one game, a short settling before the idle reading).

``--trace FROM TO`` also prints (stderr) the allocations that grew most between games FROM and TO (tracemalloc,
by traceback) and the object counts by type that grew most (``gc.get_objects``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

sys.path.insert(0, str(ROOT / "bench"))

from common import SMOKE_HELP  # noqa: E402
from harness import CHANNEL_ID, Harness  # noqa: E402
from running import CONNECTED, Running  # noqa: E402

import games  # noqa: E402
from bot import memory  # noqa: E402
from games.ai import greedy  # noqa: E402


def rss_mb() -> float:
    """Resident set size of this process, MB (``/proc/self/statm``)."""
    return memory.resident_bytes() / 1_048_576


async def idle(settle_s: float) -> str:
    """The line ``idle_rss_mb=<x> workers_rss_mb=<y>`` of the real bot, ``settle_s`` after it connected."""
    with tempfile.TemporaryDirectory() as tmp:
        async with Running(Path(tmp)) as bot:
            await bot.logged(CONNECTED)
            await asyncio.sleep(settle_s)
            main_mb = memory.resident_bytes(bot.proc.pid) / 1_048_576
            workers_mb = memory.children_resident_bytes(bot.proc.pid) / 1_048_576
            await bot.stop()
    return f"idle_rss_mb={main_mb:.1f} workers_rss_mb={workers_mb:.1f}"


async def play_one(h: Harness, channel: int, rng: random.Random) -> None:
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    card = (await h.slash(alice, "play", channel_id=channel, game="tatari")).message(public=True)
    await h.click(bob, card, "Join")
    await h.click(alice, card, "Start")
    game = games.get("tatari")
    for _ in range(2000):
        update = await h.bot.service.show(str(channel)) if await h.store.live_session(str(channel)) else None
        if update is None or not update.pending:
            return
        d = update.pending[0]
        option = greedy(game, update.state, d, rng)
        await h.choose(users[d.player], option, channel)
    raise RuntimeError("a game did not end in 2000 moves")


def last_games(n: int) -> int:
    """How many of the last games ``last_<k>_growth_mb`` covers: 1000 of 2,000 or more, else half, in hundreds."""
    return 1000 if n >= 2000 else max(100, n // 200 * 100) if n >= 200 else n


def type_counts() -> dict[str, int]:
    """Live objects tracked by the garbage collector, by type name."""
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        counts[name] = counts.get(name, 0) + 1
    return counts


def top_types(before: dict[str, int], after: dict[str, int], limit: int = 20) -> None:
    grown = sorted(((after.get(k, 0) - before.get(k, 0), k) for k in after), reverse=True)[:limit]
    for diff, name in grown:
        if diff > 0:
            print(f"  {name}: +{diff}", file=sys.stderr)


def top_growth(before, after, limit: int = 25) -> None:
    """The ``limit`` source lines whose live allocations grew the most between two tracemalloc snapshots."""
    for stat in after.compare_to(before, "traceback")[:limit]:
        print(f"  +{stat.size_diff / 1024:.1f} KiB ({stat.count_diff:+d} blocks)", file=sys.stderr)
        for line in stat.traceback.format()[-8:]:
            print(f"      {line}", file=sys.stderr)


def malloc_trim() -> None:
    """glibc's ``malloc_trim(0)``: give the free memory of every arena back to the system (no-op elsewhere)."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


async def main(n: int, warm: int, trace: tuple[int, int] | None = None, trim: bool = False,
               types: tuple[int, int] | None = None) -> None:
    logging.disable(logging.WARNING)
    snapshot = counts = None
    tail = last_games(n)
    tail_start = None
    if trace:
        import tracemalloc

        tracemalloc.start(8)
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness(Path(tmp) / "bot.sqlite3") as h:
            rng = random.Random(1)
            channel = CHANNEL_ID
            for i in range(warm + n):
                if i == warm:
                    gc.collect()
                    start = rss_mb()
                if i - warm == n - tail:
                    gc.collect()
                    tail_start = rss_mb()
                channel += 1
                await play_one(h, channel, rng)
                h.fake.messages.clear()
                h.fake.sent.clear()
                h.fake.interactions.clear()
                if trim:
                    malloc_trim()
                if (i + 1 - warm) % 100 == 0 and i >= warm:
                    print(f"  {i + 1 - warm} games, rss_mb {rss_mb():.1f}", file=sys.stderr, flush=True)
                if types and i + 1 - warm in types:
                    gc.collect()
                    now = type_counts()
                    if counts is not None:
                        print(f"objects that grew between games {types[0]} and {types[1]}, by type:", file=sys.stderr)
                        top_types(counts, now)
                    counts = now
                if trace and i + 1 - warm in trace:
                    gc.collect()
                    taken = tracemalloc.take_snapshot().filter_traces(
                        [tracemalloc.Filter(False, tracemalloc.__file__)])
                    if snapshot is not None:
                        print(f"growth between games {trace[0]} and {trace[1]}:", file=sys.stderr)
                        top_growth(snapshot, taken)
                        print("objects that grew, by type:", file=sys.stderr)
                        top_types(counts, type_counts())
                    snapshot = taken
                    counts = type_counts()
            gc.collect()
            end = rss_mb()
    print(f"last_{tail}_growth_mb={end - tail_start:.1f}")
    print(f"games={n} rss_start_mb={start:.1f} rss_end_mb={end:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--trace", type=int, nargs=2, metavar=("FROM", "TO"),
                        help="tracemalloc snapshots after games FROM and TO; the lines that grew most (stderr)")
    parser.add_argument("--trim", action="store_true",
                        help="malloc_trim(0) after every game (diagnosis: is the growth free memory malloc keeps?)")
    parser.add_argument("--types", type=int, nargs=2, metavar=("FROM", "TO"),
                        help="object counts by type after games FROM and TO; the types that grew most (stderr; cheap, "
                        "unlike --trace)")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; one game after none, 1 s settling before the idle reading")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.warm = 1, 0
    print(asyncio.run(idle(1.0 if args.smoke else 10.0)), flush=True)
    asyncio.run(main(args.games, args.warm, tuple(args.trace) if args.trace else None, args.trim,
                     tuple(args.types) if args.types else None))
