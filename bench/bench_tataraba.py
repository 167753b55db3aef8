"""Forest of Tataraba benchmarks: ``python bench/bench_tataraba.py``.

Prints the render+encode median against the floor (``bench/common.render_vs_floor``: paste the finished image on a
fresh canvas and encode it the same way — the cost no renderer can beat) over random-legal 2- and 4-player
positions, for the decision's close-up (``render(state)``, the default) and the whole board (``full=True``), the
empty-forest floor (paste the cached background and encode it) for reference, and the engine's moves/s on one core
over random-legal games (``bench/common.moves_per_second``) for 2, 3 and 4 players. Goals: render <= 1.5x floor,
engine >= 5,000 moves/s.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import median_ms, moves_per_second, positions, render_vs_floor, smoke_mode  # noqa: E402

from games.tataraba import GAME  # noqa: E402
from renderers.common import encode_png  # noqa: E402
from renderers.tataraba import _background, palette, render  # noqa: E402


def main() -> None:
    smoke = smoke_mode(__doc__)
    for n in (2, 4):
        states = positions(GAME, n, range(2), every=25)[:2 if smoke else None]
        empty = statistics.median(
            median_ms(lambda s=s: encode_png(_background(s.layout, tuple(s.players), ()).copy(), palette()), 3)
            for s in states
        )
        for full, what in ((False, "close-up"), (True, "whole board")):
            r, f = render_vs_floor(lambda s, full=full: render(s, full=full), states, repeat=1 if smoke else 3,
                                   palette=palette())
            print(
                f"{n} players, {what}: render+encode median {r:.1f} ms vs floor {f:.1f} ms ({r / f:.2f}x; goal "
                f"<= 1.5x) over {len(states)} positions; empty-forest floor {empty:.1f} ms"
            )
    for n in (2, 3, 4):
        rate = moves_per_second(GAME, n, seconds=0.1 if smoke else 2.0)
        print(f"engine, {n} players: {rate.per_second:,.0f} moves/s on one core ({rate.moves} moves, "
              "random-legal games)")


if __name__ == "__main__":
    main()
