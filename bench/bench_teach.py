"""Teaching figures per game: hints, lessons, turning points. Run: ``python bench/bench_teach.py`` (``--smoke``: a
few decisions and games, to check the script itself). One line per game, exactly:

    game=<id> hints=<n> hint_agrees=<fraction> hint_p99_ms=<x> lesson_steps=<n> lesson_done=<yes|no> turning_points=<n>

- ``hints``: hints asked (:func:`games.hints.advise`) on ``--decisions`` random decisions of the game (200; decisions
  that name a player and list two or more options, met in 2-player games of greedy players with random moves mixed
  in, dealt from seeds 0, 1, …), each at the default AI budget (``games.ai.DEFAULT_BUDGET_MS`` of wall time).
  ``hint_agrees``: the share whose first option equals the strong AI's move at the same seed and budget —
  ``games.ai.choose`` at the strong level with the same generator and ``Budget(iterations=n)``, ``n`` the samples the
  hint's timed search spent (the same search, so a time budget is repeated exactly). Goal 1.0.
  ``hint_p99_ms``: the 99th percentile of a hint's wall time (ms; goal ≤ 2,500 — a loaded machine inflates it).
- ``lesson_steps`` / ``lesson_done``: the game's lesson from the lesson registry (``games.lessons.LESSONS``, game id
  -> lesson, when that module exists): its steps, and whether ``games.lessons.play_scripted(lesson,
  wrong_first=True)`` — a scripted learner who first makes one wrong choice at every step — reaches its end.
  ``0`` and ``no`` while the game has no lesson.
- ``turning_points``: the fewest turning points (:func:`games.turning.turning_points`, within
  ``bot.service.hints.TURNING_BUDGET_MS`` each) found in any of ``--games`` finished games (20; greedy players,
  seeds 0, 1, …). Goal 3.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from games import ai as game_ai  # noqa: E402
from games.hints import advise  # noqa: E402
from games.turning import turning_points  # noqa: E402

TURNING_BUDGET_MS = 2000
"""The turning points' CPU budget per game (``bot.service.hints.TURNING_BUDGET_MS``, repeated: the bench imports
no bot code)."""
RANDOM_SHARE = 0.2
"""Share of random moves mixed into the greedy games the decisions are drawn from (positions off the greedy path)."""
TAKE_SHARE = 0.15
"""Chance that a decision met is one the bench asks a hint for."""


def decisions(game_id: str, count: int) -> list[tuple]:
    """``count`` (state, decision, player) of 2-player games of ``game_id`` (see the module doc)."""
    game = games.get(game_id)
    out: list[tuple] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = game.begin(["p0", "p1"], None, seed).state
        strategies = {p: game_ai.greedy for p in state.players}
        for _ in range(5000):
            pending = game.pending(state)
            if not pending:
                break
            d = pending[0]
            if d.player is not None and len(d.options) > 1 and rng.random() < TAKE_SHARE:
                out.append((state, d, d.player))
                if len(out) >= count:
                    break
            move = game_ai.next_move(game, state, {} if rng.random() < RANDOM_SHARE else strategies, rng)
            if move is None:
                break
            state = game.apply(state, move).state
        seed += 1
    return out


def hint_figures(game_id: str, count: int, budget_ms: int) -> tuple[int, float, float]:
    """(hints asked, share agreeing with the strong AI, p99 ms) over ``count`` decisions."""
    game = games.get(game_id)
    agree, times = 0, []
    for i, (state, d, player) in enumerate(decisions(game_id, count)):
        start = time.perf_counter()
        advice = advise(game, state, d, player, random.Random(f"hint:{i}"),
                        game_ai.Budget.from_ms(budget_ms, time.perf_counter))
        times.append((time.perf_counter() - start) * 1000)
        strong = game_ai.choose(game, state, d, player, "strong", random.Random(f"hint:{i}"),
                                game_ai.Budget(iterations=advice.iterations))
        agree += advice.choice == strong
    return len(times), agree / len(times) if times else 0.0, percentile(times, 0.99)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def lesson_figures(game_id: str) -> tuple[int, bool]:
    """(steps, played to its end by a learner who first errs at every step) of the game's lesson; (0, False)
    without one (module doc)."""
    try:
        module = importlib.import_module("games.lessons")
    except ModuleNotFoundError as e:
        if e.name not in ("games.lessons", "games"):
            raise
        return 0, False
    lesson = getattr(module, "LESSONS", {}).get(game_id)
    if lesson is None:
        return 0, False
    return len(lesson.steps), bool(module.play_scripted(lesson, wrong_first=True))


def turning_figures(game_id: str, count: int) -> int:
    """The fewest turning points found in ``count`` finished greedy games (-1 when one was skipped: its budget
    ran out)."""
    game = games.get(game_id)
    fewest = None
    for seed in range(count):
        state = game.begin(["p0", "p1"], None, seed).state
        states, moves = [state], []

        def step(_before, move, after, _events, states=states, moves=moves):
            moves.append(move)
            states.append(after)

        game_ai.play(game, state, {p: game_ai.greedy for p in state.players}, random.Random(seed), on_step=step)
        budget = game_ai.Budget(deadline=time.perf_counter() + TURNING_BUDGET_MS / 1000, clock=time.perf_counter)
        points = turning_points(game, states, moves, budget)
        n = -1 if points is None else len(points)
        fewest = n if fewest is None else min(fewest, n)
    return fewest if fewest is not None else 0


def line(game_id: str, hints: int, agrees: float, p99: float, steps: int, done: bool, turning: int) -> str:
    """One game's line, exactly the documented format."""
    return (f"game={game_id} hints={hints} hint_agrees={agrees:.3f} hint_p99_ms={round(p99)} lesson_steps={steps} "
            f"lesson_done={'yes' if done else 'no'} turning_points={turning}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget-ms", type=int, default=game_ai.DEFAULT_BUDGET_MS)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--smoke", action="store_true", help="4 decisions and 2 games a game at 50 ms")
    args = parser.parse_args(argv)
    if args.smoke:
        args.decisions, args.games, args.budget_ms = 4, 2, 50
    for game in sorted(games.all(), key=lambda g: g.id):
        if args.game and game.id not in args.game:
            continue
        hints, agrees, p99 = hint_figures(game.id, args.decisions, args.budget_ms)
        steps, done = lesson_figures(game.id)
        print(line(game.id, hints, agrees, p99, steps, done, turning_figures(game.id, args.games)), flush=True)


if __name__ == "__main__":
    main()
