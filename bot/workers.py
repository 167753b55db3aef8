"""The bot's worker processes, made one way: :func:`pool` builds the render, AI search and drawing pools.

Every worker is a ``spawn`` process (nothing of the bot's state is copied), starts with SIGINT ignored and at its
pool's priority (:func:`_start`, the one initialiser), then runs its pool's own start (importing the games, warming
the renderers). :meth:`Pool.stop` ends a pool within a bound, whatever its workers are doing.

SIGINT: a terminal's Ctrl-C (and a supervisor that signals the whole process group) sends it to every process of
the group; a pool worker would die with a ``KeyboardInterrupt`` traceback, even one still starting (importing), and
leave the pool broken while the bot stops. So SIGINT is ignored around the spawn (the new interpreter inherits it:
Python installs its own SIGINT handler only over the default one) and again in the worker's first step (for a
worker started from another thread than the main one); the bot stops its pools itself.
"""

from __future__ import annotations

import multiprocessing.context
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from bot import memory

STOP_GRACE_S = 0.5
"""How long :meth:`Pool.stop` lets the workers finish the job they run before it terminates them (s)."""


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


def _start(nice: int, then: Callable[..., None] | None, args: tuple) -> None:
    """A worker's first step: SIGINT ignored, the priority lowered by ``nice`` (0: unchanged), then ``then(*args)``,
    then what it holds frozen (:func:`bot.memory.freeze_heap`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the worker runs at the bot's priority
            pass
    if then is not None:
        then(*args)
    memory.freeze_heap()  # the modules and what the start built: out of every collection (bot.memory)


class Pool(ProcessPoolExecutor):
    """A pool of :func:`pool`; :meth:`stop` ends it within a bound."""

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """Stop the pool: queued jobs dropped, the running ones given ``grace_s`` seconds, then their workers
        terminated (SIGTERM); returns once every worker has exited. A job stopped so raises ``BrokenProcessPool``
        to its caller (whose work is then never stored). Blocking: call it off the event loop."""
        processes = list((getattr(self, "_processes", None) or {}).values())
        manager = getattr(self, "_executor_manager_thread", None)  # the first shutdown lets go of it
        self.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace_s
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        if manager is not None:  # it closes the queues: their semaphores are let go here, not in a late thread
            manager.join()
        self.shutdown(wait=True)


def pool(workers: int, *, nice: int = 0, start: Callable[..., None] | None = None, args: tuple = (),
         max_tasks_per_child: int | None = None) -> Pool:
    """A pool of at most ``workers`` processes (started on demand): ``spawn``, SIGINT ignored, their priority lowered
    by ``nice``, each running ``start(*args)`` first (a module-level function: it is pickled), each replaced after
    ``max_tasks_per_child`` jobs when given (its memory returns to the system)."""
    return Pool(max_workers=workers, mp_context=QuietSpawnContext(), initializer=_start,
                initargs=(nice, start, args), max_tasks_per_child=max_tasks_per_child)


__all__ = ["Pool", "STOP_GRACE_S", "pool"]
