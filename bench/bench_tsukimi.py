"""Tsukimi benchmarks: render+encode vs the floor (paste the finished image on a fresh canvas and encode it the
same way, ``bench/common.render_vs_floor``), for the decision's close-up (``render(state)``, the default) and the
whole board (``full=True``); engine moves/s on one core (``bench/common.moves_per_second``) over random-legal
games, both sides of the Moon. Goals: <= 1.5x the floor and <= 15 ms median.

Run: ``python bench/bench_tsukimi.py``. One core; medians over mid-game and end-game states of random games.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import moves_per_second, render_vs_floor, smoke_mode  # noqa: E402

from games.core import Move  # noqa: E402
from games.tsukimi import GAME  # noqa: E402
from renderers import tsukimi as r  # noqa: E402


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


def main() -> None:
    smoke = smoke_mode(__doc__)
    sts = states(1 if smoke else 20)
    r.render(sts[0])  # warm the caches
    for full, what in ((False, "close-up"), (True, "whole board")):
        rm, fm = render_vs_floor(lambda s, full=full: r.render(s, full=full), sts, repeat=1 if smoke else 3,
                                 palette=r.palette())
        print(f"{what}: render+encode median {rm:.1f} ms, floor median {fm:.1f} ms, ratio {rm / fm:.2f}x "
              f"(goal <= 1.5x, <= 15 ms) over {len(sts)} positions")

    rate = moves_per_second(GAME, 2, seconds=0.1 if smoke else 2.0, options=lambda seed: {"side": "dark" if seed % 2 else "light"})
    print(f"engine: {rate.per_second:,.0f} moves/s ({rate.games} random-legal games, {rate.moves / rate.games:.0f} "
          f"moves/game, {rate.games_per_second:.0f} games/s)")


if __name__ == "__main__":
    main()
