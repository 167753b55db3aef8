"""Keeping the process's resident size flat in steady play (glibc's malloc; elsewhere, musl or macOS, nothing here
does anything).

Board images are drawn in a pool of threads (:class:`bot.discord.images.Images`), the store runs in a thread of
its own, and glibc's malloc gives threads arenas of their own (up to 8 per core), each keeping what a finished render
freed (image buffers, the PNG encoder's) for later. The Python heap stays flat, yet the resident size crept up game
after game, spread over half-used pages of many arenas (``bench/bench_memory.py``). Two calls:

- :func:`limit_arenas` (when the render pool is made): at most :data:`ARENAS` arenas (``mallopt(M_ARENA_MAX)``, what
  ``MALLOC_ARENA_MAX=2`` does; an operator's ``MALLOC_ARENA_MAX`` is left as it is);
- :func:`release` (when a game ends, at most once per :data:`MIN_INTERVAL_S`): the free pages of every arena go back
  to the system (``malloc_trim(0)``).

And keeping the cyclic garbage collector's pauses short: a full collection walks every tracked object of the heap,
and after start-up most of them (modules, classes, the cogs, a render worker's fonts and sprites) live as long as
the process. :func:`freeze_heap` (after the bot's start-up, after a worker's) moves them to the collector's permanent
generation (``gc.freeze``): later collections walk only what play made since (a full one fell from tens of ms to a
few); :func:`thaw_heap` (when the bot stops) gives them back, so a process that runs several bots (tests, benches)
collects each one's garbage once it is closed.

And collecting less often while the bot runs (:func:`space_collections`, :data:`COLLECTOR_THRESHOLDS`; undone by
:func:`thaw_heap`): a move allocates thousands of tracked objects (discord.py's interaction, message and view objects,
the engine's events and options), most of them freed by their reference counts once the move is answered. At
Python's thresholds (700, 10, 10) the youngest generation was collected several times a move, so whatever the moves
in flight held was walked and promoted again and again: at 200-250 moves/s (``bench/bench_discord.py``) the collector
took 0.57-0.63 ms of the event loop's CPU a move, with six full collections of 100-200 ms each in 15 s.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import time
from pathlib import Path

log = logging.getLogger(__name__)

MIN_INTERVAL_S = 1.0
"""The shortest time between two trims (s): a trim walks every arena (about a millisecond for this bot's heap)."""

ARENAS = 2
"""The most malloc arenas of the process (glibc's default is 8 per core)."""
M_ARENA_MAX = -8
"""``mallopt``'s parameter number of the arena limit (glibc's ``malloc.h``)."""

_trim = None
_last = float("-inf")
_limited = False


def _libc():
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` malloc arenas from now on (threads that have none yet share them), unless the environment
    sets ``MALLOC_ARENA_MAX`` (glibc read it at start) or it was done already. Returns whether the limit was set.
    Never raises."""
    global _limited
    if _limited or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = _libc().mallopt
        mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
        _limited = bool(mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):  # not glibc
        _limited = False
    return _limited


def _load():
    global _trim
    if _trim is None:
        try:
            _trim = _libc().malloc_trim
            _trim.argtypes, _trim.restype = [ctypes.c_size_t], ctypes.c_int
        except (OSError, AttributeError):  # not glibc: nothing to trim
            _trim = False
    return _trim


def release(now: float | None = None) -> bool:
    """Return the free memory of every malloc arena to the system (``malloc_trim(0)``), unless the last trim was
    less than :data:`MIN_INTERVAL_S` ago (``now``: ``time.monotonic()`` seconds; tests pass their own). Returns
    whether it trimmed. Never raises."""
    global _last
    now = time.monotonic() if now is None else now
    if now - _last < MIN_INTERVAL_S:
        return False
    trim = _load()
    if not trim:
        return False
    _last = now
    try:
        trim(0)
    except Exception:  # a libc without it: never again
        log.debug("malloc_trim failed", exc_info=True)
        globals()["_trim"] = False
        return False
    return True


COLLECTOR_THRESHOLDS = (7_000, 20, 20)
"""The cyclic garbage collector's thresholds while the bot runs (``gc.set_threshold``; Python's: 700, 10, 10): the
youngest generation collected after 7,000 new tracked objects (about two moves' worth), the middle one every 20 of
those, the oldest every 20 of those. Measured at 200-290 moves/s: the collector's CPU fell from 0.57-0.63 to 0.26 ms
a move, and no full collection ran in 15 s (six before). Its longest pause at that load did not change (about 200 ms:
the middle generation, which then holds what hundreds of moves in flight hold). What it frees later is cyclic
garbage only: a move leaves about 55 such objects (discord.py's interaction and its response, a view and its
items), a few hundred moves' worth at the most between full collections. Not more: at (50,000, 20, 20) the
collector's CPU at 300-330 moves/s fell further (0.28-0.34 to 0.17-0.19 ms a move), but while members spam heavy
lookups (``bench/bench_abuse.py``: replays, statistics) the youngest generation holds tens of thousands of live
objects when it is collected: its longest pause in a run reached 84 ms (10 ms at 7,000), and p99_ratio went
above 1.5 in 4 runs of 9 (1 of 4 at 7,000)."""

_thresholds: tuple[int, int, int] | None = None  # the thresholds before space_collections, for thaw_heap


def space_collections() -> None:
    """Collect cyclic garbage at :data:`COLLECTOR_THRESHOLDS` from now on (until :func:`thaw_heap`)."""
    global _thresholds
    if _thresholds is None:
        _thresholds = gc.get_threshold()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def freeze_heap() -> None:
    """Leave every object the process holds now out of the garbage collector's later collections (``gc.freeze``:
    they are never freed by it, only by their reference counts, until :func:`thaw_heap`). Call it once start-up is
    done: what is alive then lives as long as the process."""
    gc.freeze()


def thaw_heap() -> None:
    """Give the objects :func:`freeze_heap` left out back to the garbage collector (``gc.unfreeze``), and its
    thresholds back to what they were before :func:`space_collections`."""
    global _thresholds
    gc.unfreeze()
    if _thresholds is not None:
        gc.set_threshold(*_thresholds)
        _thresholds = None


def resident_bytes(pid: int | None = None) -> int:
    """Resident memory of process ``pid`` (default: this one), bytes, from ``/proc/<pid>/statm``; 0 when it cannot
    be read (gone, or no ``/proc``)."""
    try:
        pages = int(Path(f"/proc/{pid or os.getpid()}/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def children(pid: int | None = None) -> list[int]:
    """The process ids whose parent is ``pid`` (default: this process), from ``/proc``; [] without it."""
    pid = pid or os.getpid()
    found = []
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
    return found


def children_resident_bytes(pid: int | None = None) -> int:
    """Resident memory of the child processes of ``pid`` (default: this one: its worker processes) together,
    bytes."""
    return sum(resident_bytes(child) for child in children(pid))


__all__ = ["ARENAS", "COLLECTOR_THRESHOLDS", "MIN_INTERVAL_S", "children", "children_resident_bytes", "freeze_heap",
           "limit_arenas", "release", "resident_bytes", "space_collections", "thaw_heap"]
