"""The store's durable timers as an adapter uses them: its own kinds added and cleared, and a dispatcher's claim
API. Every kind fires as one :class:`Timer` event (RoboDanny's ``Timer``), the deadlines' with the :class:`Update`
of the timeout move they produced."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..store import TimerRow

AI_MOVE = "ai_move"
"""Timer kind of an AI seat's move: payload ``{"version": int, "player": id}``, due a human-like pause
(``AiSettings.pause_ms``) after the move that made the decision; written in that move's transaction."""
AI_RACE = "ai_race"
"""Timer kind of an AI seat's race input: payload ``{"plan", "player", "race", "open_ms",
"option", "at_ms"}``, due at ``at_ms`` = the window's opening + the seat's reaction (``games.ai.race_answer``)."""
AI_RACES_META = "ai_races"
"""Key in a session's ``meta``: the AI race plans (``player|race|open_ms|option``) made for the races pending now,
so a seat sends each input once (its timer is removed when it fires; the plan stays while the seat's answer is
still that input; once the input is applied the answer is its next input, a new plan)."""

if TYPE_CHECKING:
    from .board import Update


@dataclass
class Timer:
    """A timer that fired: its row's ``id``, ``kind``, ``channel_id``, ``session_id`` (None for a channel's own
    timer), ``due_ms`` (ms, the service clock) and ``payload``; ``update``: what firing it did, for a ``deadline``
    the :class:`Update` of the timeout move (None for the kinds an adapter handles itself)."""

    id: int
    kind: str
    channel_id: str
    session_id: int | None
    due_ms: int
    payload: dict[str, Any] = field(default_factory=dict)
    update: Update | None = None

    @classmethod
    def of(cls, row: TimerRow, update: Update | None = None) -> Timer:
        """The event of the stored timer ``row``."""
        return cls(row.id, row.kind, row.channel_id, row.session_id, row.due_ms, dict(row.payload), update)


class TimerStore(Protocol):
    """What :class:`Timers` needs of the store (:class:`bot.store.Store` has it)."""

    async def timers(self, session_id: int) -> list[TimerRow]: ...
    async def add_timer(self, channel_id: str, kind: str, due_ms: int, payload: dict,
                        session_id: int | None = None, db=None) -> Any: ...
    async def clear_timers(self, session_id: int, kinds: list[str] | None = None, db=None) -> Any: ...
    async def due_timers(self, now_ms: int, kinds: list[str] | None = None) -> list[TimerRow]: ...
    async def next_timer(self, exclude: frozenset[int] = frozenset()) -> TimerRow | None: ...
    async def lease_expiry(self) -> int | None: ...
    async def claim_timers(self, due_by_ms: int, kinds: list[str]) -> list[TimerRow]: ...
    async def finish_timer(self, timer_id: int) -> Any: ...
    async def release_timers(self, timer_ids: list[int]) -> Any: ...


class Timers:
    """The durable timers (ms, the service clock) of an adapter's own kinds, and the claim API of its dispatcher
    (:mod:`bot.discord.timers`): one process cluster-wide fires each due timer."""

    def __init__(self, store: TimerStore) -> None:
        self._store = store

    async def of(self, session_id: int) -> list[Timer]:
        """The durable timers of ``session_id``."""
        return [Timer.of(t) for t in await self._store.timers(session_id)]

    async def add(self, channel_id: str, kind: str, due_ms: int, payload: dict, session_id: int | None = None) -> None:
        """A durable timer of an adapter's own ``kind``, due at ``due_ms``."""
        await self._store.add_timer(channel_id, kind, due_ms, payload, session_id=session_id)

    async def clear(self, session_id: int, kinds: list[str]) -> None:
        """Remove the timers of ``kinds`` of ``session_id`` (an adapter's own kinds, e.g. a lobby's expiry once it
        started)."""
        await self._store.clear_timers(session_id, kinds)

    async def due(self, now_ms: int, kinds: list[str]) -> list[Timer]:
        """The timers of ``kinds`` due at ``now_ms`` or earlier, earliest first (read only: firing claims them)."""
        return [Timer.of(t) for t in await self._store.due_timers(now_ms, kinds)]

    async def next(self, exclude: frozenset[int] = frozenset()) -> Timer | None:
        """The earliest timer not claimed (nor in ``exclude``), or None."""
        row = await self._store.next_timer(exclude=exclude)
        return None if row is None else Timer.of(row)

    async def lease_expiry(self) -> int | None:
        """When the first live claim on a timer runs out (ms), or None."""
        return await self._store.lease_expiry()

    async def claim(self, due_by_ms: int, kinds: list[str]) -> list[Timer]:
        """Claim the timers of ``kinds`` due by ``due_by_ms`` (a lease: one process cluster-wide fires each)."""
        return [Timer.of(t) for t in await self._store.claim_timers(due_by_ms, kinds)]

    async def finish(self, timer_id: int) -> None:
        """A claimed timer fired: remove it (gone already when the commit of its move removed it)."""
        await self._store.finish_timer(timer_id)

    async def release(self, timer_ids: list[int]) -> None:
        """Claimed timers that did not fire: free again at once."""
        await self._store.release_timers(timer_ids)


__all__ = ["Timer", "TimerStore", "Timers"]
