"""Tsukimi benchmarks: render+encode vs the floor (paste the cached background and encode the same finished
image), engine moves/s.

Run: ``python bench/bench_tsukimi.py``. One core; medians over mid-game and end-game states of random games.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import play  # noqa: E402
from games.core import Move  # noqa: E402
from games.tsukimi import GAME  # noqa: E402
from renderers import tsukimi as r  # noqa: E402
from renderers.common import encode_png  # noqa: E402


def states(n: int) -> list:
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        s = GAME.setup(["alice", "bob"], {"side": "dark" if seed % 2 else "light"}, seed)
        cut = rng.randrange(10, 60)
        k = 0
        while GAME.pending(s):
            if k == cut:
                out.append(s)
            d = GAME.pending(s)[0]
            s = GAME.apply(s, Move(player=d.player, option=rng.choice(d.options).id)).state
            k += 1
        out.append(s)
    return out


def medians_ms(fns, items, reps: int = 3) -> list[float]:
    """Median ms of each function over ``items``, the functions interleaved so machine load hits all alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(reps):
        for it in items:
            for i, fn in enumerate(fns):
                t = time.perf_counter()
                fn(it)
                times[i].append((time.perf_counter() - t) * 1000)
    return [statistics.median(t) for t in times]


def main() -> None:
    sts = states(20)
    r.render(sts[0])  # warm the caches

    finals = {id(s): r.draw(s) for s in sts}

    def floor(state):
        """The floor: paste the pre-rendered background and encode the same (finished) image."""
        r._background(state.side).copy()
        return encode_png(finals[id(state)], r.palette())

    def bare(state):
        """For reference: paste and encode the bare background (compresses faster than a full board)."""
        return encode_png(r._background(state.side).copy(), r.palette())

    render_ms, floor_ms, bare_ms = medians_ms([r.render, floor, bare], sts)
    print(f"render+encode median {render_ms:.1f} ms, floor median {floor_ms:.1f} ms, "
          f"ratio {render_ms / floor_ms:.2f}x  (bare background paste+encode {bare_ms:.1f} ms)")

    moves = 0

    def count(*_):
        nonlocal moves
        moves += 1

    t = time.perf_counter()
    games = 300
    for seed in range(games):
        s = GAME.setup(["a", "b"], {"side": "dark" if seed % 2 else "light"}, seed)
        play(GAME, s, {}, random.Random(seed), on_step=count)
    dt = time.perf_counter() - t
    print(f"engine: {moves / dt:,.0f} moves/s ({games} random-legal games, {moves / games:.0f} moves/game, "
          f"{games / dt:.0f} games/s)")


if __name__ == "__main__":
    main()
