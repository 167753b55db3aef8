"""Shared helpers for the benchmark scripts: timing medians, random-legal game positions, render against its floor,
and engine moves/s (:func:`moves_per_second`, the one measure every game's bench prints)."""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from games import BaseState, Decision, Game, Move
from games.ai import next_move

SMOKE_HELP = "a few seconds: the same code paths at tiny sizes (does the bench still run; figures meaningless)"
"""The help of every bench's ``--smoke`` (``tests/test_bench_smoke.py`` runs each bench so)."""


def smoke_mode(doc: str | None) -> bool:
    """Parse the command line of a bench whose only option is ``--smoke`` (``doc``: its module docstring, the
    first line of which is the help's description); whether it was given."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    return ap.parse_args().smoke


def loop_option(ap: argparse.ArgumentParser) -> None:
    """``--loop``: the event loop a bench that measures the bot's process runs on (:mod:`bot.event_loop`; default:
    the bot process's, uvloop where installed), for runs side by side with ``--loop asyncio``."""
    from bot.event_loop import EVENT_LOOPS

    ap.add_argument("--loop", choices=EVENT_LOOPS, default="uvloop", help="the event loop (bot.event_loop; "
                    "default: the bot process's, uvloop where installed)")


def run_on_loop(main: Coroutine[Any, Any, Any], name: str) -> Any:
    """``main`` run on the event loop ``name`` (:func:`bot.event_loop.run`), said first on stderr (``event loop:
    uvloop``): stdout keeps the bench's own lines."""
    from bot import event_loop

    print(f"event loop: {event_loop.describe(name)}", file=sys.stderr, flush=True)
    return event_loop.run(main, name)


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
    render: Callable[[object], bytes], states: list, repeat: int = 3, palette=None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """(render+encode median, floor median) in ms. The floor pastes the already rendered image onto a fresh
    canvas and encodes it the same way (``encode_png`` with the renderer's ``palette``, if it uses one): the cost
    no renderer can beat. Per state, after one warm-up of each, the render and its floor are timed in turn
    ``repeat`` times (so a change of load on a shared machine hits both alike) and each takes its median; the
    figures are the medians of those over the states. ``clock``: seconds (wall time by default;
    ``time.process_time`` for CPU time, which other work on the machine does not inflate)."""
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
            t = clock()
            render(s)
            r.append((clock() - t) * 1000)
            t = clock()
            floor_one(im)
            f.append((clock() - t) * 1000)
        renders.append(statistics.median(r))
        floors.append(statistics.median(f))
    return statistics.median(renders), statistics.median(floors)


Driver = Callable[[BaseState, list[Decision]], Move]
"""Picks the next move of a game in play from its state and pending decisions (never timed)."""


def random_legal(game: Game, players: list[str], rng: random.Random) -> Driver:
    """The default :data:`Driver` of :func:`moves_per_second`: random-legal play (``games.ai.next_move`` with no
    strategies; races close with ``games.ai.RACE_CLOSE_CHANCE``)."""
    return lambda state, decisions: next_move(game, state, {}, rng)


@dataclass(frozen=True)
class EngineRate:
    """What :func:`moves_per_second` measured: ``moves`` applied over ``games`` whole games in ``seconds`` of
    engine time (CPU s), and the last state of each game."""

    moves: int
    games: int
    seconds: float
    finals: tuple[BaseState, ...]

    @property
    def per_second(self) -> float:
        """Engine moves/s on one core."""
        return self.moves / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def moves_per_second(
    game: Game,
    players: int | Sequence[int],
    seconds: float = 2.0,
    options: Callable[[int], dict | None] | None = None,
    driver: Callable[[Game, list[str], random.Random], Driver] = random_legal,
) -> EngineRate:
    """Engine moves/s on one core, measured the one way every game's bench measures it: whole games from seeds 0,
    1, 2 … (game ``k``: ``players[k % len(players)]`` seats ``p0``, ``p1`` …, ``options(k)``, a driver made by
    ``driver(game, seats, random.Random(k))``), each move picked by the driver (not timed), then ``game.apply``
    and the ``game.pending`` that follows it timed (what a session pays per move), in this process's CPU time
    (``time.process_time``, so other work on the machine does not count). Games are played until the timed total
    reaches ``seconds``; the game in play is finished."""
    counts = [players] if isinstance(players, int) else list(players)
    moves, spent, seed = 0, 0.0, 0
    finals = []
    while spent < seconds:
        rng = random.Random(seed)
        seats = [f"p{i}" for i in range(counts[seed % len(counts)])]
        s = game.setup(seats, options(seed) if options is not None else None, seed)
        pick = driver(game, seats, rng)
        t = time.process_time()
        decisions = game.pending(s)
        spent += time.process_time() - t
        while decisions:
            m = pick(s, decisions)
            t = time.process_time()
            s = game.apply(s, m).state
            decisions = game.pending(s)
            spent += time.process_time() - t
            moves += 1
        finals.append(s)
        seed += 1
    return EngineRate(moves=moves, games=seed, seconds=spent, finals=tuple(finals))
