"""The strong AI against the normal one . Run: ``python bench/bench_ai.py --games N --budget-ms B``.

Plays the strong level (``games.ai.choose``, the search, ``B`` ms a move on one core) against the normal level (the
games' greedy players) in 2-player games of every game, Tatsumi also with 3 players (strong against two normals);
Tatamokatsu's races are played with the race model for every seat (``games.ai.play_race``). The strong seat moves
round the table from game to game (seat ``i % players`` in game ``i``; game ``i`` is dealt from seed ``i``). One
line per game and table:

    game=<id> players=<n> games=<n> strong_wins=<n> rate=<x> ci_low=<x> ci_high=<x> ms_p50=<x> ms_p99=<x>

``strong_wins`` counts a shared win as half; ``ci_low``/``ci_high`` are the 95% Wilson interval of the rate; ``ms_*``
the strong seat's thinking time per decision that had two or more options (ms, wall clock). Then Tatsumi solo:
the strong AI's mean fortune and its rank distribution (rulebook "Solo-mode Scoring Rank") over ``--solo-games``
seeds. Goals: ci_low > 0.5 for every game, rate >= 0.65 in Tsukimi, Tataraba and Tatsumi, ms_p99 <= 1000.
``--workers`` plays games in that many processes (default 1; the goals are per move on one core). ``--clock cpu``
measures the budget and ``ms_*`` in this process's CPU time (``time.process_time``) instead of elapsed time, so a
machine busy with other work still gives each move its 300 ms on one core.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from games import TIMEOUT, Move  # noqa: E402
from games.ai import DEFAULT_BUDGET_MS, Budget, choose, play_race  # noqa: E402

TABLES: list[tuple[str, int]] = [
    ("tatamokatsu", 2), ("tataraba", 2), ("tatari", 2), ("tatsumi", 2), ("tatsumi", 3), ("tsukimi", 2),
]
MAX_DECISIONS = 20_000


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""The clocks a search's budget and its thinking time may be measured by (seconds): ``wall`` (elapsed time; right
on a quiet machine) or ``cpu`` (the time this process had a core: "300 ms a move on one core" even when other
work shares the machine)."""


def play_one(game_id: str, players: int, index: int, budget_ms: int, options: dict | None = None,
             iterations: int | None = None, clock: str = "wall") -> tuple[float, list[float], dict[str, int]]:
    """Play game ``index`` of a table: (the strong seat's win share, its thinking times in ms by ``clock`` (a key
    of :data:`CLOCKS`), final scores)."""
    tick = CLOCKS[clock]
    game = games.get(game_id)
    names = [f"p{i}" for i in range(players)]
    strong = names[index % players]
    levels = {p: ("strong" if p == strong else "normal") for p in names}
    rng = random.Random(1_000_003 * index + players)
    state = game.begin(names, options, index).state
    thinking: list[float] = []
    for _ in range(MAX_DECISIONS):
        pending = game.pending(state)
        if not pending:
            break
        d = pending[0]
        if d.player is None and d.deadline_ms is not None:
            state = play_race(game, state, d, levels, rng)
            continue
        if not d.options:
            state = game.apply(state, Move(player=None, option=TIMEOUT, at_ms=d.deadline_ms)).state
            continue
        level = levels[d.player]
        if level == "strong" and len(d.options) > 1:
            t = tick()
            budget = Budget.from_ms(budget_ms, tick, iterations=iterations)
            option = choose(game, state, d, d.player, level, rng, budget)
            thinking.append((tick() - t) * 1000)
        else:
            option = choose(game, state, d, d.player, level, rng)
        state = game.apply(state, Move(player=d.player, option=option, at_ms=d.deadline_ms)).state
    else:
        raise RuntimeError(f"{game_id}: no end after {MAX_DECISIONS} decisions (game {index})")
    result = game.result(state)
    share = 0.0
    if strong in result.winners:
        share = 1.0 if len(result.winners) == 1 else 0.5
    return share, thinking, dict(result.scores)


def _task(args: tuple) -> tuple:
    game_id, players, index, budget_ms, options, iterations, clock = args
    return (game_id, players, index) + play_one(game_id, players, index, budget_ms, options, iterations, clock)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``successes / n`` (``successes`` may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return (centre - spread) / denom, (centre + spread) / denom


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def table_line(game_id: str, players: int, results: list[tuple[float, list[float]]]) -> str:
    """The bench's line for one table (see the module doc)."""
    n = len(results)
    if n == 0:
        return f"game={game_id} players={players} games=0"
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, n)
    ms = [t for r in results for t in r[1]]
    return (f"game={game_id} players={players} games={n} strong_wins={wins:g} rate={wins / n:.3f} "
            f"ci_low={low:.3f} ci_high={high:.3f} ms_p50={percentile(ms, 0.5):.0f} ms_p99={percentile(ms, 0.99):.0f}")


def _rank_order(name: str) -> int:
    """Solo ranks best first: ``"100+"`` before ``"90+"`` …, ``"under 70"`` last."""
    return -int(name.rstrip("+")) if name[0].isdigit() else 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per table")
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS, help="strong's budget per move (ms)")
    parser.add_argument("--iterations", type=int, default=None, help="also cap strong's search iterations")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--solo-games", type=int, default=100, help="Tatsumi solo seeds (0: skip)")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what the budget and ms_* count: wall (elapsed; a quiet machine) or cpu (this process's "
                             "time on a core, for a shared machine)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: one game per table and one solo game "
                        "with a 5 ms budget capped at 8 search iterations (the same code paths; figures meaningless)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.budget_ms, args.iterations, args.solo_games, args.workers = 1, 5, 8, 1, 1
    only = {g for g in args.only.split(",") if g}
    tables = [(g, n) for g, n in TABLES if not only or g in only]
    tasks = [(g, n, i, args.budget_ms, None, args.iterations, args.clock) for g, n in tables for i in range(args.games)]
    solo = args.solo_games if not only or "tatsumi" in only else 0
    tasks += [("tatsumi", 1, i, args.budget_ms, {"solo": True}, args.iterations, args.clock) for i in range(solo)]
    done: dict[tuple[str, int], list] = {}
    wanted = {(g, n): args.games for g, n in tables}
    if solo:
        wanted["tatsumi", 1] = solo
    pool = Pool(args.workers) if args.workers > 1 else None
    outs = pool.imap(_task, tasks, chunksize=1) if pool is not None else map(_task, tasks)
    for game_id, players, _index, share, thinking, scores in outs:
        runs = done.setdefault((game_id, players), [])
        runs.append((share, thinking, scores))
        if players > 1 and len(runs) == wanted[game_id, players]:
            print(table_line(game_id, players, runs), flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    if solo:
        from games.tatsumi.solo_data import rank_name

        runs = done[("tatsumi", 1)]
        fortunes = [next(iter(r[2].values())) for r in runs]
        ranks = Counter(rank_name(f) for f in fortunes)
        ms = [t for r in runs for t in r[1]]
        dist = ",".join(f"{k!s}:{v}" for k, v in sorted(ranks.items(), key=lambda kv: _rank_order(kv[0])))
        print(f"game=tatsumi players=1 games={len(runs)} mean_score={sum(fortunes) / len(fortunes):.1f} "
              f"ranks={dist} ms_p50={percentile(ms, 0.5):.0f} ms_p99={percentile(ms, 0.99):.0f}")


if __name__ == "__main__":
    main()
