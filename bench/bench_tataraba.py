"""Forest of Tataraba benchmark: ``python bench/bench_tataraba.py``.

Prints the render+encode median (4 players, mid-game) against two floors, in ms: pasting the cached background and
encoding it (an empty forest), and pasting it then encoding the finished image (the same pixels: PNG time grows with
the trees drawn, which no renderer can avoid). Then the engine's moves/s on one core over random-legal games (apply + pending, as the AI driver plays).
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import get  # noqa: E402
from games.ai import next_move  # noqa: E402
from renderers.common import encode_png  # noqa: E402
from renderers.tataraba import _background, render  # noqa: E402


def midgame(n: int, seed: int, steps: int):
    game = get("tataraba")
    state = game.setup([f"p{i}" for i in range(n)], None, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        move = next_move(game, state, {}, rng)
        if move is None:
            break
        state = game.apply(state, move).state
    return state


def bench_render(n: int = 4, reps: int = 40) -> tuple[float, ...]:
    state = midgame(n, 7, 120)
    names = {p: p.upper() for p in state.players}
    render(state, names)  # warm the caches
    key = tuple(sorted(names.items()))
    final = Image.open(io.BytesIO(render(state, names)))
    final.load()
    renders, floors, same = [], [], []
    for _ in range(reps):
        t = time.perf_counter()
        render(state, names)
        renders.append(time.perf_counter() - t)
        t = time.perf_counter()
        encode_png(_background(state.layout, tuple(state.players), key).copy())
        floors.append(time.perf_counter() - t)
        t = time.perf_counter()
        _background(state.layout, tuple(state.players), key).copy()
        encode_png(final)
        same.append(time.perf_counter() - t)
    return tuple(statistics.median(x) * 1000 for x in (renders, floors, same))


def bench_engine(games: int = 60) -> float:
    game = get("tataraba")
    moves = 0
    t = time.perf_counter()
    for seed in range(games):
        state = game.setup([f"p{i}" for i in range(2 + seed % 3)], None, seed)
        rng = random.Random(seed)
        while True:
            move = next_move(game, state, {}, rng)
            if move is None:
                break
            state = game.apply(state, move).state
            moves += 1
    return moves / (time.perf_counter() - t)


if __name__ == "__main__":
    r, f, g = bench_render()
    print(
        f"render+encode median {r:.1f} ms; floor (paste + encode the background) {f:.1f} ms, ratio {r / f:.2f}; "
        f"floor (paste + encode the finished image) {g:.1f} ms, ratio {r / g:.2f}"
    )
    print(f"engine {bench_engine():.0f} moves/s (random-legal games, 2-4 players, one core)")
