"""Freed memory goes back to the system when a game ends (``bot.memory.release``: glibc's ``malloc_trim``), at most
once per ``MIN_INTERVAL_S``; never an error where there is no such call."""

from __future__ import annotations

import ctypes.util

import pytest

from bot import memory


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    monkeypatch.setattr(memory, "_last", float("-inf"))


@pytest.mark.skipif(not ctypes.util.find_library("c"), reason="no C library to load")
def test_release_trims_at_most_once_per_interval(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "_trim", lambda pad: calls.append(pad) or 1)
    assert memory.release(100.0) is True
    assert memory.release(100.0 + memory.MIN_INTERVAL_S / 2) is False
    assert memory.release(100.0 + memory.MIN_INTERVAL_S) is True
    assert calls == [0, 0]


def test_release_does_nothing_without_malloc_trim(monkeypatch):
    monkeypatch.setattr(memory, "_trim", False)
    assert memory.release(5.0) is False


def test_release_survives_a_failing_trim(monkeypatch):
    def broken(pad):
        raise OSError("no")

    monkeypatch.setattr(memory, "_trim", broken)
    assert memory.release(5.0) is False
    assert memory._trim is False


def test_the_real_trim_runs_here(monkeypatch):
    monkeypatch.setattr(memory, "_trim", None)
    assert memory.release() in (True, False)  # glibc: True; elsewhere nothing to trim
    assert memory._trim is not None


async def test_a_finished_game_releases_memory(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "discord"))
    from harness import Harness
    from test_discord_play import open_game

    calls = []
    monkeypatch.setattr(memory, "release", lambda now=None: calls.append(now) or True)
    async with Harness(tmp_path / "bot.sqlite3") as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        assert calls == []
        await h.slash(alice, "abandon")
        assert calls == [None]


def test_limit_arenas_leaves_an_operators_setting(monkeypatch):
    monkeypatch.setattr(memory, "_limited", False)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert memory.limit_arenas() is False


def test_limit_arenas_sets_the_limit_once(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "_limited", False)
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setattr(memory, "_libc", lambda: type("L", (), {"mallopt": _Fn(calls)})())
    assert memory.limit_arenas() is True
    assert memory.limit_arenas() is False
    assert calls == [(memory.M_ARENA_MAX, memory.ARENAS)]


class _Fn:
    """A stand-in for a ctypes function: settable argtypes/restype, records its calls."""

    def __init__(self, calls):
        self.calls = calls

    def __call__(self, param, value):
        self.calls.append((param, value))
        return 1


def test_limit_arenas_without_glibc(monkeypatch):
    def missing():
        raise OSError("no libc")

    monkeypatch.setattr(memory, "_limited", False)
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setattr(memory, "_libc", missing)
    assert memory.limit_arenas() is False
