"""The event loop a bot process runs on: uvloop (libuv's loop, https://github.com/MagicStack/uvloop) where it is
installed — Linux and macOS, a dependency there — else asyncio's own; ``EVENT_LOOP=asyncio`` chooses asyncio's.

Why: every move wakes the event loop many times (the interaction's tasks, the SQLite thread's results, the
render worker's image, the bookkeeping after the reply, timers re-armed), and asyncio's loop does that in Python.
Near its limit the bot's process answers more moves, sooner, on uvloop (``python bench/bench_discord.py --channels``
against ``--loop asyncio``, run after each other on this 2-core machine, two pairs): at 640 moves/s offered, 317 and
310 moves/s answered with p99 141 and 185 ms, against 236 and 238 moves/s with p99 449 and 450 ms; every press a
move (``--moves-only``), the ramp's knee at 0.68 of the render floor against 0.63. At 23 moves/s (200 channels,
mean wait 5 s) the two loops are alike. Red-DiscordBot, too, runs on uvloop wherever it is installed.

The bot itself never depends on which loop it runs on: the harness tests run it on asyncio's (pytest's loop);
the processes of ``python -m bot run`` (and the tests that start one, on both loops), the cluster test's nodes and
the benches that measure it (``bench_discord``, ``bench_abuse``) on uvloop.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

EVENT_LOOPS = ("uvloop", "asyncio")
"""The values of ``EVENT_LOOP``: uvloop when it is installed (else asyncio's, said by :func:`describe`), or
asyncio's own."""

T = TypeVar("T")


def uvloop_installed() -> bool:
    """Whether uvloop can be imported here (it is not imported by asking)."""
    return importlib.util.find_spec("uvloop") is not None


def chosen(name: str = "uvloop") -> str:
    """The loop ``name`` (one of :data:`EVENT_LOOPS`) gives on this machine: ``"uvloop"`` only where it is
    installed. Raises ``ValueError`` for another name."""
    if name not in EVENT_LOOPS:
        raise ValueError(f"unknown event loop {name!r}: one of {', '.join(EVENT_LOOPS)}")
    return "uvloop" if name == "uvloop" and uvloop_installed() else "asyncio"


def loop_factory(name: str = "uvloop") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes a new loop of :func:`chosen` ``(name)``: uvloop's ``new_event_loop``, or None (asyncio's
    default, as ``asyncio.Runner`` takes it)."""
    if chosen(name) == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    return None


def describe(name: str = "uvloop") -> str:
    """``name``'s loop in words for the start-up log line: ``uvloop``, ``asyncio`` or ``asyncio (uvloop is not
    installed)``."""
    got = chosen(name)
    return got if got == name else f"{got} (uvloop is not installed)"


def run(main: Coroutine[Any, Any, T], name: str = "uvloop") -> T:
    """``asyncio.run(main)`` on a new loop of :func:`chosen` ``(name)``; returns what ``main`` returns and raises
    what it raises (a Ctrl-C as ``KeyboardInterrupt``, as ``asyncio.run`` does)."""
    with asyncio.Runner(loop_factory=loop_factory(name)) as runner:
        return runner.run(main)
