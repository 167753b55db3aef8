"""Shared helpers for the benchmark scripts: timing medians and random-legal game positions."""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable

from PIL import Image

from games import Game
from games.ai import next_move


def median_ms(fn: Callable[[], object], repeat: int = 50) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, ms (after one warm-up)."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def positions(game: Game, players: int, seeds: range, every: int = 7) -> list:
    """States met in random-legal games (every ``every``-th), for render benchmarks."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = game.setup([f"p{i}" for i in range(players)], None, seed)
        k = 0
        while (m := next_move(game, s, {}, rng)) is not None:
            s = game.apply(s, m).state
            k += 1
            if k % every == 0:
                out.append(s)
        out.append(s)
    return out


def render_vs_floor(
    render: Callable[[object], bytes], states: list, repeat: int = 3, palette=None
) -> tuple[float, float]:
    """(render+encode median, floor median) in ms. The floor pastes the already rendered image onto a fresh
    canvas and encodes it the same way (``encode_png`` with the renderer's ``palette``, if it uses one): the cost
    no renderer can beat. Per state, after one warm-up of each, the render and its floor are timed in turn
    ``repeat`` times (so a change of load on a shared machine hits both alike) and each takes its median; the
    figures are the medians of those over the states."""
    from renderers.common import encode_png

    pre = [Image.open(io.BytesIO(render(s))).convert("RGB") for s in states]

    def floor_one(img):
        canvas = Image.new("RGB", img.size)
        canvas.paste(img)
        encode_png(canvas, palette)

    renders, floors = [], []
    for s, im in zip(states, pre, strict=True):
        render(s)
        floor_one(im)
        r, f = [], []
        for _ in range(repeat):
            t = time.perf_counter()
            render(s)
            r.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            floor_one(im)
            f.append((time.perf_counter() - t) * 1000)
        renders.append(statistics.median(r))
        floors.append(statistics.median(f))
    return statistics.median(renders), statistics.median(floors)


def moves_per_second(game: Game, players: int, seconds: float = 3.0) -> tuple[float, int]:
    """Engine moves/s on one core over random-legal games (``apply`` only timed), and the moves counted."""
    moves, spent, seed = 0, 0.0, 0
    while spent < seconds:
        rng = random.Random(seed)
        s = game.setup([f"p{i}" for i in range(players)], None, seed)
        while (m := next_move(game, s, {}, rng)) is not None:
            t = time.perf_counter()
            s = game.apply(s, m).state
            spent += time.perf_counter() - t
            moves += 1
        seed += 1
    return moves / spent, moves
