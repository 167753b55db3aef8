"""The event loop of a bot process (:mod:`bot.event_loop`): uvloop by default where it is installed (it is a
dependency on Linux), asyncio's own when ``EVENT_LOOP=asyncio`` says so or uvloop is missing."""

from __future__ import annotations

import asyncio

import pytest

from bot import event_loop
from bot.config import Settings


async def running_loop() -> tuple[str, int]:
    """The running loop's module and a result computed across a thread and a task (the loop does its job)."""
    loop = asyncio.get_running_loop()
    doubled = await asyncio.gather(asyncio.to_thread(lambda: 21 * 2), asyncio.sleep(0, 1))
    return type(loop).__module__, sum(doubled)


def test_the_default_is_uvloop_where_it_is_installed():
    assert event_loop.uvloop_installed()  # a dependency of the bot on this platform (pyproject.toml)
    assert Settings(_env_file=None).event_loop == "uvloop"
    assert event_loop.chosen() == "uvloop" and event_loop.describe() == "uvloop"
    assert event_loop.run(running_loop()) == ("uvloop", 43)


def test_asyncio_chosen_runs_asyncios_own_loop():
    assert Settings(_env_file=None, event_loop=" AsyncIO ").event_loop == "asyncio"
    assert event_loop.chosen("asyncio") == "asyncio" and event_loop.loop_factory("asyncio") is None
    assert event_loop.run(running_loop(), "asyncio") == ("asyncio.unix_events", 43)


def test_without_uvloop_the_default_falls_back_to_asyncio_and_says_so(monkeypatch):
    monkeypatch.setattr(event_loop, "uvloop_installed", lambda: False)
    assert event_loop.chosen() == "asyncio"
    assert event_loop.describe() == "asyncio (uvloop is not installed)"
    assert event_loop.run(running_loop()) == ("asyncio.unix_events", 43)


def test_an_unknown_loop_is_refused():
    with pytest.raises(ValueError, match="unknown event loop 'tokio': one of uvloop, asyncio"):
        event_loop.chosen("tokio")
    with pytest.raises(ValueError, match="EVENT_LOOP|event_loop"):
        Settings(_env_file=None, event_loop="tokio")


def test_what_main_raises_comes_out_of_run():
    async def fails() -> None:
        raise LookupError("from main")

    for name in event_loop.EVENT_LOOPS:
        with pytest.raises(LookupError, match="from main"):
            event_loop.run(fails(), name)
