"""Giving freed memory back to the system, so that the process's resident size stays flat in steady play.

Board images are drawn in a pool of threads (:class:`bot.discord.images.Images`); glibc's malloc gives each thread
an arena of its own and keeps what a finished render freed (the image buffers, the PNG encoder's) in that arena for
later. The Python heap stays flat, yet the resident size crept up game after game (``bench/bench_memory.py``).
:func:`release` asks glibc to return the free pages of every arena (``malloc_trim(0)``); it is called when a game
ends, at most once per :data:`MIN_INTERVAL_S`. Elsewhere than glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import time

log = logging.getLogger(__name__)

MIN_INTERVAL_S = 1.0
"""The shortest time between two trims (s): a trim walks every arena (about a millisecond for this bot's heap)."""

_trim = None
_last = float("-inf")


def _load():
    global _trim
    if _trim is None:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _trim = libc.malloc_trim
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


__all__ = ["MIN_INTERVAL_S", "release"]
