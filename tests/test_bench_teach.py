"""``bench/bench_teach.py``: the exact line format, the nearest-rank p99, and lessons read from the registry
(nothing yet: 0 steps, not done)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "bench" / "bench_teach.py"
_SPEC = importlib.util.spec_from_file_location("bench_teach", _PATH)
bench_teach = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench_teach)

LINE = re.compile(r"^game=(\w+) hints=(\d+) hint_agrees=(\d\.\d{3}) hint_p99_ms=(\d+) lesson_steps=(\d+) "
                  r"lesson_done=(yes|no) turning_points=(-?\d+)$")


def test_line_is_exactly_the_documented_format():
    line = bench_teach.line("tatari", 200, 1.0, 466.6, 0, False, 3)
    assert line == ("game=tatari hints=200 hint_agrees=1.000 hint_p99_ms=467 lesson_steps=0 lesson_done=no "
                    "turning_points=3")
    assert LINE.match(bench_teach.line("tsukimi", 7, 6 / 7, 12.0, 9, True, 2)).groups() == (
        "tsukimi", "7", "0.857", "12", "9", "yes", "2")


def test_p99_is_the_nearest_rank():
    assert bench_teach.percentile(list(range(1, 201)), 0.99) == 198
    assert bench_teach.percentile([5.0], 0.99) == 5.0 and bench_teach.percentile([], 0.99) == 0.0


def test_a_game_without_a_lesson_in_the_registry_has_none():
    if importlib.util.find_spec("games.lessons") is None:
        assert bench_teach.lesson_figures("tatari") == (0, False)


def test_the_hints_are_asked_on_decisions_that_name_a_player_with_a_choice():
    found = bench_teach.decisions("tatari", 5)
    assert len(found) == 5
    assert all(d.player == player and len(d.options) > 1 for _state, d, player in found)
