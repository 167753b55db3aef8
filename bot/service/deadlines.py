"""Decisions' deadlines (race windows): their timers are written with each move (:class:`Deadlines`) and fire as
the system's timeout move (:class:`TimeoutMoves`), each claimed first (a lease: one process cluster-wide) and
removed by the commit of its move."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from games import TIMEOUT, Decision, IllegalMove, Move

from ..refusals import StaleBoard
from ..store import SessionRow
from .ai_turns import AI_MOVE, AI_RACE, AiTurns, Commit
from .board import Locks, States, game_of
from .timers import Timer

if TYPE_CHECKING:
    from .board import Update

DEADLINE = "deadline"
"""Timer kind of a decision's deadline (the session sends the system's timeout move)."""


class Deadlines:
    """The deadline timers of each session's pending decisions, replaced in every move's transaction. Only sessions
    this process knows to have none skip the delete (after a restart every session is cleared once; on a store
    other processes write too — ``store.shared`` — every time)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._untimed: set[int] = set()  # sessions known (by this process) to have no deadline timers in the store

    def __contains__(self, session_id: int) -> bool:
        """Whether ``session_id`` is known to have no deadline timer."""
        return session_id in self._untimed

    def plan(self, row: SessionRow, pending: list[Decision]) -> tuple[list[int], bool]:
        """The deadlines (ms, sorted, distinct) of ``pending`` and whether the session's stored ones must be
        cleared first."""
        deadlines = sorted({d.deadline_ms for d in pending if d.deadline_ms is not None})
        return deadlines, bool(deadlines) or row.id not in self._untimed or self.store.shared

    def settled(self, session_id: int, deadlines: list[int]) -> None:
        """The session's deadlines are now ``deadlines`` (as written)."""
        if deadlines:
            self._untimed.discard(session_id)
        else:
            self._untimed.add(session_id)

    async def schedule(self, db, row: SessionRow, pending: list[Decision]) -> None:
        """Replace the session's deadline timers by those of ``pending``, in the caller's transaction ``db``, so
        the commit of a timeout move also removes the timer that fired it."""
        deadlines, clear = self.plan(row, pending)
        if clear:
            await self.store.clear_timers(row.id, [DEADLINE], db=db)
        for d in deadlines:
            await self.store.add_timer(row.channel_id, DEADLINE, d, {"deadline_ms": d}, session_id=row.id, db=db)
        self.settled(row.id, deadlines)

    def forget(self, session_id: int) -> None:
        """A session ended: drop what is known of its timers."""
        self._untimed.discard(session_id)


class TimeoutMoves:
    """Firing due deadline (and, for the sandbox and demo, AI) timers: the system's timeout move through
    ``commit``."""

    def __init__(self, store: Any, locks: Locks, states: States, commit: Commit, ai: AiTurns) -> None:
        self.store = store
        self.lock = locks
        self.states = states
        self.commit = commit
        self.ai = ai

    async def fire_due(self, now: int, ai: bool = True) -> list[Timer]:
        """Fire every timer of the game due at ``now`` (ms), earliest first: the system's timeout move for each
        decision whose deadline has passed and, when ``ai``, the AI seats' moves and race inputs
        (:meth:`AiTurns.fire`). Returns the timers that changed a game, each with its ``update``. Stale timers (the
        decision was already answered) are dropped.

        Each due timer is claimed first (a lease, one process cluster-wide, only the shards this process serves).
        A timer is removed by the commit of its move (same transaction), so a crash or a cancellation before that
        commit keeps it: claimed again once its lease ran out (after a restart too), never fired twice. An engine
        error in a deadline drops the timer (a retry would fail the same way) and is raised."""
        fired: list[Timer] = []
        done: set[int] = set()
        kinds = [DEADLINE, AI_RACE, AI_MOVE] if ai else [DEADLINE]
        while due := [t for t in await self.store.claim_timers(now, kinds) if t.id not in done]:
            unfired = [t.id for t in due]
            try:
                for row in due:
                    done.add(row.id)
                    timer = Timer.of(row)
                    if timer.kind != DEADLINE:
                        timer.update = await self.ai.fire(timer)
                        unfired.remove(timer.id)
                        await self.store.finish_timer(timer.id)  # normally removed by the commit already
                    else:
                        try:
                            timer.update = await self.fire(timer.channel_id,
                                                           timer.payload.get("deadline_ms", timer.due_ms))
                        except Exception:
                            unfired.remove(timer.id)
                            await self.store.finish_timer(timer.id)
                            raise
                        unfired.remove(timer.id)
                        await self.store.finish_timer(timer.id)  # a stale one; after a commit it is gone already
                    if timer.update is not None:
                        fired.append(timer)
            except BaseException:
                # stopped (cancelled, or an engine error): the timers not fired are free again at once
                await asyncio.shield(self.store.release_timers(unfired))
                raise
        return fired

    async def fire(self, channel_id: str, deadline_ms: int) -> Update | None:
        """Send the timeout move for the decision of ``channel_id`` due at ``deadline_ms``, if still pending."""
        async with self.lock(channel_id):
            row = await self.store.live_session(channel_id)
            if row is None or row.status != "active":
                return None
            game = game_of(row.game_id)
            state = self.states.state_of(row)
            if not any(d.deadline_ms == deadline_ms for d in game.pending(state)):
                return None
            move = Move(player=None, option=TIMEOUT, at_ms=deadline_ms)
            try:
                outcome = game.apply(state, move)
            except IllegalMove:
                return None
            try:
                return await self.commit(row, game, move, outcome.state, outcome.events)
            except StaleBoard:  # another process answered the decision first
                return None


__all__ = ["DEADLINE", "Deadlines", "TimeoutMoves"]
