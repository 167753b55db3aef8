"""Durable timers: rows of the store's ``timers`` table served by ONE dispatcher loop (RoboDanny's reminder cog).

A due timer fires as an event: the dispatcher awaits every ``on_<kind>_timer_complete`` listener of the cogs
(:meth:`Timers.fire`) with one :class:`bot.service.timers.Timer` (``id``, ``kind``, ``channel_id``, ``session_id``,
``due_ms``, ``payload``, and ``update`` for what the service did when it fired), and knows nothing of what a kind
means. Kinds and the cog that listens:

- ``deadline`` (:class:`bot.discord.play.Play`) — written by :class:`bot.sessions.SessionService` for decisions with a
  ``deadline_ms`` (race windows); fired by the service (the system's timeout move,
  :meth:`bot.service.deadlines.TimeoutMoves.fire_due`), the listener posts the timer's ``update``. A race deadline is a time on Discord's clock (RULINGS TK-10): its timer
  fires ``Races.close_grace_ms()`` later on the local clock (the smallest delivery delay, plus
  ``Settings.race_grace_ms`` for inputs still in flight);
- ``ai_race`` (:class:`bot.discord.races.Races`) / ``ai_move`` (``Play``) — written by the session service for AI
  seats: an AI seat's race input is applied at once (it is timed by its own ``at_ms``) and before the deadlines due
  with it; an AI move is searched in a background task (off the event loop), so a search never delays this loop or
  another channel. The update is posted like a person's move (no ping: AI seats are never mentioned);
- ``reminder`` (``Play``) — payload ``{"version": int, "player": id}``: mention ``player`` if the board is still
  ``version`` after the channel's reminder hours (default ``Settings.reminder_hours``, 0 = off);
- ``afk`` (:class:`bot.discord.admin.Admin`) — same payload, after the channel's AFK hours (default 72, 0 = off):
  tells the other players and the host (pinging them, not the idle player) that any of them may remove the idle
  player;
- ``departed`` (:class:`bot.discord.departures.Departures`) — payload ``{"player": id}``: a player who left the
  server is resigned.
- ``lobby_expiry`` (:class:`bot.discord.lobby.Lobby`) — payload ``{"hours": float}``: written when a lobby opens (and
  at start-up for a lobby open without one), due ``Settings.lobby_hours`` later; a lobby still not started then is
  closed with a public line and its card loses its buttons. Removed when the lobby starts or is cancelled.

Reminder and AFK rows are replaced after every posted board (batched by :mod:`bot.discord.bookkeeping`); one whose
player has left the server starts that player's departure instead (:func:`waiting_on`). Their posts, like every post
outside an interaction, are retried in the background when Discord refuses them (:mod:`.delivery`).

The loop sleeps until the earliest ``due_ms`` (ms, the service clock) and is woken early by :meth:`Timers.wake`
whenever a nearer timer may have been added. Everything is in the store, so timers survive a restart.

Across processes (shards on one PostgreSQL): each process sees only the timers of the guilds of its shards, and fires
a due timer only after claiming it (the store's ``claim_timers``: a lease, ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL); the timer is deleted once fired. A process killed while firing leaves its claimed timers to whichever
process serves the shard once the lease runs out (the loop also wakes when the first live lease expires), never fired
twice before."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING

from bot.sessions import AI_MOVE, AI_RACE, DEADLINE, Timer
from bot.store import SessionRow, StoreUnavailable, now_ms

from .language import enter_channel

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

REMINDER = "reminder"
AFK = "afk"
EVENT = re.compile(r"on_(\w+)_timer_complete")
"""The listener name of a timer kind's event."""
HOUR_MS = 3_600_000
MAX_SLEEP_S = 3600.0


class Timers:
    """The dispatcher of ``bot``'s timers. ``start()`` once the store is open; ``stop()`` on close."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._wake = asyncio.Event()
        self._resting = asyncio.Event()  # the loop sleeps and no wake is pending
        self._task: asyncio.Task | None = None
        self._busy: set[int] = set()  # AI move timers whose search runs in a background task
        self._until: int | None = None  # the due time (ms, service clock) the loop sleeps until; None: no timer

    @property
    def service(self):
        return self.bot.service

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="pbc-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    def wake(self) -> None:
        """Re-read the earliest timer now (a nearer one may have been added)."""
        self._resting.clear()
        self._wake.set()

    def wake_before(self, due_ms: int | None) -> None:
        """:meth:`wake` unless the loop is resting until a time at or before ``due_ms`` (ms, service clock; None:
        a timer of unknown time may have been added, always wake)."""
        if due_ms is None or self._until is None or due_ms < self._until or not self._resting.is_set():
            self.wake()

    async def rest(self, timeout: float = 10.0) -> None:
        """Wait until the loop has looked at the store after the last :meth:`wake` and sleeps again (tests: a
        dispatcher still busy with an earlier wake would race a test's own :meth:`fire_due`). At most ``timeout``
        s; returns at once when the loop is not running."""
        if self._task is None or self._task.done():
            return
        try:
            await asyncio.wait_for(self._resting.wait(), timeout)
        except TimeoutError:
            pass

    async def _loop(self) -> None:
        while True:
            try:
                self._wake.clear()
                timer = await self.service.timers.next(exclude=frozenset(self._busy))
                now = self.bot.service.clock()
                due = None if timer is None else self.due(timer)
                if due is not None and due <= now:
                    await self.fire_due(now)
                    continue
                timeout = None if due is None else min(max(due - now, 1) / 1000, MAX_SLEEP_S)
                self._until = None if due is None else min(due, now + int(MAX_SLEEP_S * 1000))
                lease = await self.service.timers.lease_expiry()  # a claimer that died: its timers are free again then
                if lease is not None:
                    wait = max(lease - now_ms(), 1) / 1000
                    timeout = wait if timeout is None else min(timeout, wait)
                if not self._wake.is_set():
                    self._resting.set()
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout)
                except TimeoutError:
                    pass
                self._resting.clear()
            except asyncio.CancelledError:
                raise
            except StoreUnavailable:  # the store logs the outage once; look again in a while (or when woken)
                self._resting.set()
                try:
                    await asyncio.wait_for(self._wake.wait(), 5)
                except TimeoutError:
                    pass
                self._resting.clear()
            except Exception:
                log.exception("timer dispatcher failed; retrying in 5 s")
                await asyncio.sleep(5)

    def grace(self) -> int:
        """Race deadlines are times on Discord's clock: their timers fire this much later on the local clock
        (``Races.close_grace_ms``, RULINGS TK-10)."""
        races = getattr(self.bot, "races", None)
        return races.close_grace_ms() if races is not None else 0

    def due(self, timer: Timer) -> int:
        """When ``timer`` fires on the local clock."""
        return timer.due_ms + (self.grace() if timer.kind == DEADLINE else 0)

    async def fire(self, timer: Timer) -> None:
        """Hand a fired timer to the cogs that own its kind: every ``on_<kind>_timer_complete`` listener (RoboDanny's
        ``bot.dispatch(f"{kind}_timer_complete", timer)``), awaited in turn so that the timer is finished only once
        its work is done. A listener's failure is logged with the session id, never stops the others."""
        try:
            await enter_channel(self.bot, timer.channel_id)  # its posts in the channel's language
        except Exception:  # the store is not answering: the listeners meet it and say so
            log.debug("no language for channel %s", timer.channel_id, exc_info=True)
        for listener in self.bot.extra_events.get(f"on_{timer.kind}_timer_complete", ()):
            try:
                await listener(timer)
            except Exception:
                log.exception("%s timer of session %s failed", timer.kind, timer.session_id)

    def kinds(self) -> list[str]:
        """The timer kinds fired one by one (neither deadlines nor AI seats' timers): those some cog listens for."""
        found = (EVENT.fullmatch(name) for name in self.bot.extra_events)
        return sorted(m[1] for m in found if m is not None and m[1] not in (DEADLINE, AI_RACE, AI_MOVE))

    async def fire_due(self, now: int) -> int:
        """Fire every timer due at ``now`` (ms); returns how many fired. One channel's failure never stops the
        others: each is logged with its session id. Deadlines fire :meth:`grace` ms after their time. Order: AI
        seats' race inputs (before the deadlines that close their races), the deadlines (the service's timeout
        moves), AI moves (searched in background tasks), then the other kinds."""
        fired = 0
        # AI seats' timers are claimed like the others (one process cluster-wide, its lease covers the search)
        ai = await self.service.timers.claim(now, [AI_RACE, AI_MOVE])
        for timer in (t for t in ai if t.kind == AI_RACE):
            fired += 1
            await self.fire(timer)
            await self.service.timers.finish(timer.id)  # normally gone already: removed by the commit of its input
        try:
            deadlines = await self.service.timeouts.fire_due(now - self.grace(), ai=False)
        except Exception:
            log.exception("deadline tick failed")
            deadlines = []
        for timer in deadlines:
            fired += 1
            await self.fire(timer)
        for timer in (t for t in ai if t.kind == AI_MOVE):
            if timer.id in self._busy:
                continue
            fired += 1
            self._busy.add(timer.id)
            self.bot.spawn(self._ai_move(timer), f"AI move (timer {timer.id}) of session {timer.session_id}")
        claimed = await self.service.timers.claim(now, self.kinds())
        unfired = [t.id for t in claimed]
        try:
            for timer in claimed:
                fired += 1
                await self.fire(timer)
                unfired.remove(timer.id)
                await self.service.timers.finish(timer.id)
        finally:
            if unfired:  # stopped while firing: the rest are free again at once
                await asyncio.shield(self.service.timers.release(unfired))
        return fired

    async def _ai_move(self, timer: Timer) -> None:
        """An AI seat's move, in a background task (its search runs off the event loop)."""
        try:
            await self.fire(timer)
        finally:
            await self.service.timers.finish(timer.id)  # normally gone already: removed by the commit of the move
            self._busy.discard(timer.id)
            self.wake()


async def waiting_on(bot: PlayBot, timer: Timer) -> tuple[SessionRow, str] | None:
    """For a ``reminder`` or ``afk`` timer (payload ``{"version", "player"}``): its running session and player when
    the board is still that version and the player still in the server; None otherwise (a player who left starts
    their departure instead)."""
    row = await bot.service.reads.session(timer.session_id) if timer.session_id is not None else None
    if row is None or row.status != "active" or row.version != timer.payload.get("version"):
        return None  # the board moved on: nothing to remind
    player = str(timer.payload.get("player"))
    if await bot.departures.is_gone(row.guild_id, player):  # no reminder for someone who left
        await bot.departures.noticed(row, player)
        return None
    return row, player


__all__ = ["AFK", "DEADLINE", "REMINDER", "Timers", "waiting_on"]
