"""A member's time away (``/away days:``): their reminders and move deadlines wait in every game they play.

Going away for ``days`` (1-30) sets ``away_until`` in the member's data and moves every reminder and deadline timer
of theirs (the ``kinds`` given, payload ``{"player": id}``) still to come by the time they are away: the clock of
each wait stops until they are back. A wait that starts while they are away is timed from their return
(:func:`bot.service.pace.plan_wait`). Coming back early (a move of theirs, ``/away off``) moves those timers back by
the time they did not use. Everything is in the store: a restart changes nothing.

Times are ms on the service clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import T

from ..store import SessionRow
from .notifications import Notifications
from .pace import DAY_MS, MOVE_DEADLINE, REMINDER

MAX_DAYS = 30


@dataclass(frozen=True)
class AwayChange:
    """What a change of a member's time away did: ``until`` (ms; None: they are back), and the live games it
    concerns (``sessions``: lobbies and running games they are seated in)."""

    until: int | None
    sessions: list[SessionRow]


class Away:
    """``/away`` over the store: ``store`` (the service's), ``clock`` (ms) and the timer ``kinds`` a wait has."""

    def __init__(self, store, clock, kinds: tuple[str, ...] = (REMINDER, MOVE_DEADLINE)) -> None:
        self.store = store
        self.clock = clock
        self.kinds = kinds
        self.notifications = Notifications(store)

    async def until(self, player: str) -> int | None:
        """When ``player``'s time away ends (ms), or None when they are not away."""
        prefs = await self.notifications.of(player)
        return prefs.away_until if prefs.away(self.clock()) else None

    async def go(self, player: str, days: int) -> AwayChange:
        """``player`` is away for ``days`` (1-30) from now; :class:`ValueError` (a :class:`Text`) otherwise. Going
        away again while away sets the new end (the timers move by the difference)."""
        if not 1 <= days <= MAX_DAYS:
            raise ValueError(T("Away is 1 to {most} days.", most=MAX_DAYS))
        now = self.clock()
        end = now + days * DAY_MS
        before = await self.until(player) or now
        await self.store.update_player_data(player, {"away_until": end})
        sessions = await self.store.member_sessions(player)
        await self._shift(player, sessions, end - before, now)
        return AwayChange(end, sessions)

    async def back(self, player: str) -> AwayChange | None:
        """``player`` is back before their time away ran out (``/away off``, a move of theirs): their waits' clocks
        run again from now. None when they were not away."""
        end = await self.until(player)
        if end is None:
            return None
        now = self.clock()
        await self.store.update_player_data(player, {"away_until": None})
        sessions = await self.store.member_sessions(player)
        await self._shift(player, sessions, now - end, now)
        return AwayChange(None, sessions)

    async def _shift(self, player: str, sessions: list[SessionRow], delta: int, now: int) -> None:
        """Move ``player``'s wait timers in ``sessions`` due after ``now`` by ``delta`` ms (never before now)."""
        if not delta:
            return
        moves = []
        for row in sessions:
            for t in await self.store.timers(row.id):
                if t.kind in self.kinds and str(t.payload.get("player")) == player and t.due_ms >= now:
                    moves.append((max(now, t.due_ms + delta), t.id))
        if moves:
            async with self.store.transaction() as db:
                await self.store.move_timers(db, moves)


__all__ = ["MAX_DAYS", "Away", "AwayChange"]
