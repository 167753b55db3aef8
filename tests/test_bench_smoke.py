"""Every ``bench/*.py`` runs: each is started as ``python bench/<name>.py --smoke`` (a few seconds, the same code
paths at tiny sizes) and must exit 0 and print its documented lines. A bench added later is picked up by itself
(exit 0 and some output; its lines checked once listed in :data:`LINES`). Figures are never asserted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("bench_*.py"))  # common.py, running.py: their helpers

NUM = r"-?\d[\d,]*(?:\.\d+)?"
RENDER = rf"render\+encode median {NUM} ms"

LINES: dict[str, list[str]] = {
    "bench_abuse": [rf"phase={name} moves=\d+ p50_ms={NUM} p99_ms={NUM} rss_mb={NUM}"
                    for name in ("baseline1", "spam", "baseline2")] + [rf"p99_ratio={NUM} rss_growth_mb={NUM}"],
    "bench_ai": [rf"game={game} players=\d+ games=1 strong_wins={NUM} rate={NUM} ci_low={NUM} ci_high={NUM} "
                 rf"ms_p50=\d+ ms_p99=\d+" for game in ("tatari", "tsukimi", "tatamokatsu", "tataraba", "tatsumi")]
    + [rf"game=tatsumi players=1 games=1 mean_score={NUM} ranks=\S+ ms_p50=\d+ ms_p99=\d+"],
    "bench_discord": [rf"\s*2 channels \(mean wait {NUM} s\): \d+ moves, {NUM} moves/s, latency ms p50 {NUM} p90 {NUM} "
                      rf"p99 {NUM} max {NUM} errors=\d+",
                      r"ramp 4 channels, offered \d+ moves/s: .* errors=\d+",
                      rf"knee_moves_s={NUM} floor_moves_s={NUM} knee_ratio={NUM} errors=\d+"],
    "bench_discord_races": [r"\s+\d+\s+all\s+\d+\s+\d+ inputs/s; \d+ shouts logged"],
    "bench_forged": [r"forged_presses=\d+ legal=\d+ state_changes=\d+ illegal_changes=\d+ unanswered=\d+ games=\d+"],
    "bench_memory": [rf"last_\d+_growth_mb={NUM}", rf"games=\d+ rss_start_mb={NUM} rss_end_mb={NUM}"],
    "bench_move_cost": [rf"part=[a-z_]+ cpu_ms={NUM}", rf"total_cpu_ms={NUM} render_floor_ms={NUM} ratio={NUM}"],
    "bench_restart": [rf"sessions=\d+ ready_s={NUM} first_move_ms=\d+ rss_mb={NUM}"],
    "bench_results": [rf"\s+/leaderboard query\s+{NUM} ms .*", rf"\s+/stats query \+ text \+ card\s+{NUM} ms .*"],
    "bench_store": [rf"backend=sqlite processes=1 moves_per_s=\d+ p50_ms={NUM} p99_ms={NUM}"],
    "bench_table": [r"game=tatari players=2 moves=\d+ turns=\d+ messages=\d+ edits=\d+ pings=\d+ self_pings=\d+ "
                    rf"upload_kb=\d+ taps={NUM} alt_missing=\d+"],
    "bench_tatamokatsu": [rf"{RENDER}; floor .*", rf"engine: {NUM} moves/s on one core .*"],
    "bench_tataraba": [rf"\d players, close-up: {RENDER} .*", rf"engine, \d players: {NUM} moves/s .*"],
    "bench_tatari": [rf"{RENDER}, floor {NUM} ms.*", rf"engine {NUM} moves/s .*", r"durable moves/s .*"],
    "bench_tatsumi": [rf"{RENDER} vs floor .*", rf"engine \d players: {NUM} moves/s .*"],
    "bench_tsukimi": [rf"close-up: {RENDER}, .*", rf"engine: {NUM} moves/s .*"],
}
"""Per bench, patterns each of which some line of its output matches in full."""

LAST: dict[str, str] = {
    "bench_abuse": rf"p99_ratio={NUM} rss_growth_mb={NUM}",
    "bench_discord": rf"knee_moves_s={NUM} floor_moves_s={NUM} knee_ratio={NUM} errors=\d+",
    "bench_memory": rf"games=\d+ rss_start_mb={NUM} rss_end_mb={NUM}",
    "bench_move_cost": rf"total_cpu_ms={NUM} render_floor_ms={NUM} ratio={NUM}",
}
"""Benches whose last line is documented exactly."""


def test_every_listed_bench_exists():
    assert sorted(set(LINES) - set(BENCHES)) == []


@pytest.mark.parametrize("name", BENCHES)
def test_bench_runs_in_smoke_mode_and_prints_its_lines(name, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / f"{name}.py"), "--smoke"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines, done.stderr[-3000:]
    for pattern in LINES.get(name, []):
        assert any(re.fullmatch(pattern, line) for line in lines), (pattern, lines)
    if name in LAST:
        assert re.fullmatch(LAST[name], lines[-1]), lines[-1]
    if name == "bench_discord":
        assert all(re.search(r" errors=\d+$", line) for line in lines), lines
