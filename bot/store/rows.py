"""What the store gives back and raises, on both backends: rows (:class:`SessionRow`, :class:`MoveRow`,
:class:`TimerRow`), :class:`StoreError`, :class:`StoreUnavailable`, :class:`StaleVersion`, and the store's clock
(:func:`now_ms`)."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field

from ..refusals import SessionError


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


class StoreUnavailable(StoreError, SessionError):
    """The database is not answering (connection refused or lost, the server shutting down, SQLite's file unreadable
    or its disk failing): the call stored nothing. A :class:`bot.refusals.SessionError` too, so every adapter
    answers it like any refusal: ``str(exc)`` is :data:`UNAVAILABLE_TEXT`, the one line players read. The store
    logs the outage once when it starts and once when the database answers again (:meth:`Store.guarded`)."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text or UNAVAILABLE_TEXT)


UNAVAILABLE_TEXT = "The game's database is not answering; nothing was changed. Try again in a minute."
"""What a player reads for any input while the database does not answer (:class:`StoreUnavailable`)."""


class StaleVersion(Exception):
    """A write expected a session version that is no longer current (someone else moved first)."""


__all__ = ["UNAVAILABLE_TEXT", "MoveRow", "SessionRow", "StaleVersion", "StoreError", "StoreUnavailable", "TimerRow",
           "now_ms"]
