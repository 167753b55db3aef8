"""``bench/bench_ai.py``: the line format, the Wilson interval, shared wins counted half."""

from __future__ import annotations

import importlib.util
import re
import time
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "bench" / "bench_ai.py"
_SPEC = importlib.util.spec_from_file_location("bench_ai", _PATH)
bench_ai = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench_ai)

LINE = re.compile(r"^game=(\w+) players=(\d+) games=(\d+) strong_wins=([\d.]+) rate=(\d\.\d{3}) "
                  r"ci_low=(\d\.\d{3}) ci_high=(\d\.\d{3}) ms_p50=(\d+) ms_p99=(\d+)$")


def test_wilson_interval_matches_the_formula():
    """95% Wilson score interval: 7 of 10 -> (0.3968, 0.8922), 50 of 50 -> (0.9286, 1); 0 of 0 -> the whole range."""
    low, high = bench_ai.wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert bench_ai.wilson(0, 0) == (0.0, 1.0)
    low, high = bench_ai.wilson(50, 50)
    assert high == pytest.approx(1.0) and round(low, 4) == 0.9286


def test_table_line_is_exactly_the_documented_format_and_counts_a_shared_win_half():
    results = [(1.0, [120.0, 80.0]), (0.5, [300.0]), (0.0, [100.0]), (1.0, [])]
    line = bench_ai.table_line("tatari", 2, results)
    m = LINE.match(line)
    assert m, line
    assert m.groups() == ("tatari", "2", "4", "2.5", "0.625", "0.219", "0.908", "100", "300")


def test_one_game_is_played_to_the_end_with_the_strong_seat_alternating():
    """A Tatamokatsu game (races by the model for both seats) ends; the strong seat's share is 0, 1/2 or 1 and its
    thinking times are listed."""
    share, thinking, scores = bench_ai.play_one("tatamokatsu", 2, 1, budget_ms=1000, iterations=4)
    assert share in (0.0, 0.5, 1.0)
    assert set(scores) == {"p0", "p1"}
    assert all(t >= 0 for t in thinking)


def test_a_cpu_clock_budget_plays_the_same_game_as_a_wall_clock_one_when_iterations_bind():
    """``--clock cpu``: the budget counts this process's CPU time; with an iteration cap that binds first, the game
    is the same move for move as on the wall clock (same seat, same shares, same final scores)."""
    wall = bench_ai.play_one("tsukimi", 2, 3, budget_ms=1000, iterations=3, clock="wall")
    cpu = bench_ai.play_one("tsukimi", 2, 3, budget_ms=1000, iterations=3, clock="cpu")
    assert (wall[0], wall[2]) == (cpu[0], cpu[2]) and len(wall[1]) == len(cpu[1])
    assert bench_ai.CLOCKS["cpu"] is time.process_time
