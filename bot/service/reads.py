"""The sessions and move logs adapters read (read only; no lock: a row is one read)."""

from __future__ import annotations

from typing import Any, Protocol

from ..store import SessionRow
from ..store.records import RESIGN_MOVE


class SessionReads(Protocol):
    """What :class:`Reads` needs of the store (:class:`bot.store.Store` has it)."""

    async def session(self, session_id: int) -> SessionRow | None: ...
    async def live_session(self, channel_id: str) -> SessionRow | None: ...
    async def last_session(self, channel_id: str) -> SessionRow | None: ...
    async def live_sessions(self) -> list[SessionRow]: ...
    async def moves(self, session_id: int) -> list: ...
    async def players_with_move(self, session_id: int, option: str) -> set[str]: ...


class Reads:
    """Sessions as stored, for adapters."""

    def __init__(self, store: SessionReads) -> None:
        self._store = store

    async def session(self, session_id: int) -> SessionRow | None:
        """Session ``session_id`` as stored, or None."""
        return await self._store.session(session_id)

    async def live_session(self, channel_id: str) -> SessionRow | None:
        """The lobby or running game of ``channel_id``, or None."""
        return await self._store.live_session(channel_id)

    async def last_session(self, channel_id: str) -> SessionRow | None:
        """The channel's most recent session (ended or not), or None."""
        return await self._store.last_session(channel_id)

    async def live_sessions(self) -> list[SessionRow]:
        """Every lobby and running game this process serves (after a restart too: their timers are stored)."""
        return await self._store.live_sessions()

    async def moves(self, session_id: int) -> list[Any]:
        """The move log of ``session_id`` (``MoveRow``: ``seq``, ``player``, ``option``, ``at_ms``), oldest first."""
        return await self._store.moves(session_id)

    async def resigned(self, session_id: int) -> set[str]:
        """The players of ``session_id`` who resigned or were removed."""
        return await self._store.players_with_move(session_id, RESIGN_MOVE)


__all__ = ["Reads", "SessionReads"]
