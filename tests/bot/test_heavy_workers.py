"""The drawing lanes' worker pools (``bot.heavy.Workers``): a pool is replaced after ``WORKER_TASKS x workers``
jobs, and every job still runs (no ``max_tasks_per_child``: on Python 3.11 it can strand queued jobs, CPython
gh-115634)."""

from __future__ import annotations

import asyncio
import os

from bot import heavy


async def test_a_pool_is_replaced_after_its_jobs_and_every_job_runs(monkeypatch):
    monkeypatch.setattr(heavy, "WORKER_TASKS", 2)
    lane = heavy.Workers()
    try:
        pids = await asyncio.gather(*(lane.run(1, 30.0, "card", os.getpid) for _ in range(6)))
        assert len(pids) == 6 and len(set(pids)) == 3  # three pools of one worker, two jobs each
        assert all(p != os.getpid() for p in pids)
    finally:
        await asyncio.to_thread(lane.stop)
