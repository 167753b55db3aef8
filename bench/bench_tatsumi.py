"""Tatsumi benchmarks. Run: ``python bench/bench_tatsumi.py``.

Prints render+encode median vs the floor median (ms) over random-legal 4-player positions — the decision image
(``render(state)``: the close-up with markers, the goal) and the whole board (``full=True``) — and engine moves/s on
one core (``bench/common.moves_per_second``) over random-legal games for 2, 3 and 4 players. Goals: engine >= 5,000 moves/s; render <= 1.5x floor and
<= 15 ms.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import moves_per_second, positions, render_vs_floor, smoke_mode  # noqa: E402

import games  # noqa: E402
from renderers.tatsumi import palette, render  # noqa: E402


def main() -> None:
    smoke = smoke_mode(__doc__)
    game = games.get("tatsumi")
    states = positions(game, 4, range(1 if smoke else 3), every=25)[:2 if smoke else None]
    repeat = 1 if smoke else 5
    r, f = render_vs_floor(render, states, repeat=repeat, palette=palette())
    print(
        f"render+encode median {r:.1f} ms vs floor {f:.1f} ms ({r / f:.2f}x; goal <= 1.5x, <= 15 ms) over "
        f"{len(states)} states (decision images)"
    )
    r, f = render_vs_floor(lambda s: render(s, full=True), states, repeat=repeat, palette=palette())
    print(f"whole board (full=True) {r:.1f} ms vs floor {f:.1f} ms ({r / f:.2f}x)")
    for n in (2, 3, 4):
        rate = moves_per_second(game, n, seconds=0.1 if smoke else 2.0)
        print(f"engine {n} players: {rate.per_second:,.0f} moves/s over {rate.moves} moves (goal >= 5,000)")


if __name__ == "__main__":
    main()
