"""Worker processes that a Ctrl-C leaves to the bot: :func:`quiet_spawn`, the ``spawn`` context of the render and
AI search pools.

A terminal's Ctrl-C (and a supervisor that signals the whole process group) sends SIGINT to every process of the
group: a pool worker would die with a ``KeyboardInterrupt`` traceback, even one still starting (importing), and
leave the pool broken while the bot stops. So each worker starts with SIGINT ignored — set around the spawn, which
the new interpreter inherits (Python installs its own SIGINT handler only over the default one) — and the bot stops
its pools itself.
"""

from __future__ import annotations

import multiprocessing.context
import signal
import threading


class QuietSpawnProcess(multiprocessing.context.SpawnProcess):
    """A ``spawn`` process started with SIGINT ignored."""

    def start(self) -> None:
        if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
            super().start()
            return
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            super().start()
        finally:
            signal.signal(signal.SIGINT, previous)


class QuietSpawnContext(multiprocessing.context.SpawnContext):
    Process = QuietSpawnProcess


def quiet_spawn() -> QuietSpawnContext:
    """The ``spawn`` context whose processes ignore SIGINT (``ProcessPoolExecutor(mp_context=quiet_spawn())``)."""
    return QuietSpawnContext()


def ignore_sigint() -> None:
    """In a worker: ignore SIGINT (for workers started from another thread than the main one)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
