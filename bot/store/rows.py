"""What the store gives back and raises, on both backends: rows (:class:`SessionRow`, :class:`MoveRow`,
:class:`TimerRow`), :class:`StoreError`, :class:`StaleVersion`, and the store's clock (:func:`now_ms`)."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field


def now_ms() -> int:
    """Wall-clock time in ms (the store's timestamps)."""
    return int(time.time() * 1000)


class SessionRow(BaseModel):
    """One ``sessions`` row, JSON columns decoded."""

    id: int
    channel_id: str
    guild_id: str | None = None
    game_id: str
    status: str
    host: str
    players: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    state: str | None = None
    version: int = 0
    move_count: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)
    created_ms: int = 0
    updated_ms: int = 0


class MoveRow(BaseModel):
    """One ``moves`` row: move ``seq`` (1-based) of a session, who played it (None: the system), the option id, the
    move's time and when it was stored (ms)."""

    session_id: int
    seq: int
    player: str | None
    option: str
    at_ms: int | None
    created_ms: int


class TimerRow(BaseModel):
    """One ``timers`` row: what fires (``kind``, ``payload``) for which channel and session, when (``due_ms``)."""

    id: int
    session_id: int | None
    channel_id: str
    kind: str
    due_ms: int
    payload: dict[str, Any] = Field(default_factory=dict)


class StoreError(RuntimeError):
    """The database cannot be used (cannot be opened, migrated or checked, or its file vanished while running).
    ``str(exc)`` is one line for the operator; the runner exits non-zero with it."""


class StaleVersion(Exception):
    """A write expected a session version that is no longer current (someone else moved first)."""


__all__ = ["MoveRow", "SessionRow", "StaleVersion", "StoreError", "TimerRow", "now_ms"]
