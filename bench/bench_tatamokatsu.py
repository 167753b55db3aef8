"""Tatamokatsu benchmark: ``python bench/bench_tatamokatsu.py``.

Prints the render+encode median (5 players, a closed race with inputs) against two floors, in ms: pasting the cached
background and encoding it, and pasting it then encoding the finished image (the same pixels). Then the engine's
moves/s on one core (``bench/common.moves_per_second``) over whole 2-5 player games played by the race-aware driver
(``games.tatamokatsu.ai.TableDriver``: every race input timed at random in its window, delivered in random order,
then the timeout).
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import moves_per_second, smoke_mode  # noqa: E402

from games import TIMEOUT, Move, force, get  # noqa: E402
from games.tatamokatsu.ai import TableDriver  # noqa: E402
from renderers.common import encode_png  # noqa: E402
from renderers.tatamokatsu import _background, palette, render  # noqa: E402


def sample_state():
    game = get("tatamokatsu")
    s = game.setup(["alice", "bob", "carol", "dave", "eve"], None, 3)
    s = force(s, "1/10", "1/10", "6")
    s = game.apply(s, Move(player="alice", option="roll", at_ms=0)).state
    for p, what, ms in (("bob", "shout", 1200), ("carol", "shout", 1350), ("eve", "katana", 800),
                        ("dave", "grab", 500), ("alice", "salute", 2400)):
        s = game.apply(s, Move(player=p, option=what, at_ms=ms)).state
    return game.apply(s, Move(player=None, option=TIMEOUT, at_ms=s.deadline_ms)).state


def bench_render(reps: int = 40) -> tuple[float, ...]:
    state = sample_state()
    names = {p: p.title() for p in state.players}
    render(state, names)  # warm the caches
    final = Image.open(io.BytesIO(render(state, names)))
    final.load()
    final = final.convert("RGB")
    renders, floors, same = [], [], []
    for _ in range(reps):
        t = time.perf_counter()
        render(state, names)
        renders.append(time.perf_counter() - t)
        t = time.perf_counter()
        encode_png(_background(5).copy(), palette())
        floors.append(time.perf_counter() - t)
        t = time.perf_counter()
        _background(5).copy()
        encode_png(final, palette())
        same.append(time.perf_counter() - t)
    return tuple(statistics.median(x) * 1000 for x in (renders, floors, same))


def table(game, seats: list[str], rng: random.Random) -> TableDriver:
    """A table of careless and careful players, drawn from ``rng`` (``games.tatamokatsu.ai.TableDriver``)."""
    return TableDriver(game, {p: rng.choice(["random", "greedy"]) for p in seats}, rng)


def bench_engine(seconds: float = 3.0) -> tuple[float, int, float]:
    """(engine moves/s on one core, moves, rolls a game) by ``bench/common.moves_per_second`` over 2-5 player
    games driven by :func:`table`."""
    rate = moves_per_second(get("tatamokatsu"), (2, 3, 4, 5), seconds, driver=table)
    return rate.per_second, rate.moves, sum(s.rolls for s in rate.finals) / rate.games


if __name__ == "__main__":
    smoke = smoke_mode(__doc__)
    r, f, g = bench_render(2 if smoke else 40)
    print(f"render+encode median {r:.1f} ms; floor (paste + encode the background) {f:.1f} ms, ratio {r / f:.2f}; "
          f"floor (paste + encode the finished image) {g:.1f} ms, ratio {r / g:.2f}")
    rate, n, rolls = bench_engine(0.1 if smoke else 3.0)
    print(f"engine: {rate:,.0f} moves/s on one core ({n} moves, {rolls:.1f} rolls a game, 2-5 players)")
