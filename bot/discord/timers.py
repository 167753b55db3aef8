"""Durable timers: rows of the store's ``timers`` table served by ONE dispatcher loop (RoboDanny's reminder cog).

Kinds:
- ``deadline`` — written by :class:`bot.sessions.SessionService` for decisions with a ``deadline_ms`` (race windows);
  fired through ``SessionService.tick`` (the system's timeout move), the update is posted to the channel. A race
  deadline is a time on Discord's clock (RULINGS TK-10): its timer fires ``Races.close_grace_ms()`` later on the
  local clock (the smallest delivery delay, plus ``Settings.race_grace_ms`` for inputs still in flight);
Reminder and AFK rows are replaced after every posted board (batched by :mod:`bot.discord.bookkeeping`).

- ``reminder`` — payload ``{"version": int, "player": id}``: mention ``player`` if the board is still ``version``
  after the channel's reminder hours (default ``Settings.reminder_hours``, 0 = off);
- ``afk`` — same payload, after the channel's AFK hours (default 72, 0 = off): tells the other players and the host
  (pinging them, not the idle player) that any of them may remove the idle player;
- ``departed`` — payload ``{"player": id}``: a player who left the server is resigned (:mod:`.departures`).
A reminder or AFK timer whose player has left the server starts that player's departure instead. Their posts, like
every post outside an interaction, are retried in the background when Discord refuses them (:mod:`.delivery`).

The loop sleeps until the earliest ``due_ms`` (ms, the service clock) and is woken early by :meth:`Timers.wake`
whenever a nearer timer may have been added. Everything is in the store, so timers survive a restart.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.sessions import DEADLINE
from bot.store import TimerRow

from .components import AfkButton
from .departures import DEPARTED
from .present import as_mentions, display, mention

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

REMINDER = "reminder"
AFK = "afk"
HOUR_MS = 3_600_000
MAX_SLEEP_S = 3600.0


class Timers:
    """The dispatcher of ``bot``'s timers. ``start()`` once the store is open; ``stop()`` on close."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    @property
    def store(self):
        return self.bot.service.store

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
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                self._wake.clear()
                timer = await self.store.next_timer()
                now = self.bot.service.clock()
                due = None if timer is None else self.due(timer)
                if due is not None and due <= now:
                    await self.fire_due(now)
                    continue
                timeout = None if due is None else min(max(due - now, 1) / 1000, MAX_SLEEP_S)
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout)
                except TimeoutError:
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer dispatcher failed; retrying in 5 s")
                await asyncio.sleep(5)

    def grace(self) -> int:
        """Race deadlines are times on Discord's clock: their timers fire this much later on the local clock
        (``Races.close_grace_ms``, RULINGS TK-10)."""
        races = getattr(self.bot, "races", None)
        return races.close_grace_ms() if races is not None else 0

    def due(self, timer: TimerRow) -> int:
        """When ``timer`` fires on the local clock."""
        return timer.due_ms + (self.grace() if timer.kind == DEADLINE else 0)

    async def fire_due(self, now: int) -> int:
        """Fire every timer due at ``now`` (ms); returns how many fired. One channel's failure never stops the
        others: each is logged with its session id. Deadlines fire :meth:`grace` ms after their time."""
        fired = 0
        try:
            updates = await self.bot.service.tick(now - self.grace())
        except Exception:
            log.exception("deadline tick failed")
            updates = []
        for update in updates:
            fired += 1
            try:
                await self.bot.play.post(update)
            except Exception:
                log.exception("posting the deadline of session %s failed", update.session.id)
        for timer in await self.store.due_timers(now, [REMINDER, AFK, DEPARTED]):
            if not await self.store.delete_timer(timer.id):
                continue
            fired += 1
            try:
                await self._fire(timer)
            except Exception:
                log.exception("timer %s (%s) of session %s failed", timer.id, timer.kind, timer.session_id)
        return fired

    async def _fire(self, timer: TimerRow) -> None:
        if timer.kind == DEPARTED:
            await self.bot.departures.fire(timer)
            return
        row = await self.store.session(timer.session_id) if timer.session_id is not None else None
        if row is None or row.status != "active" or row.version != timer.payload.get("version"):
            return  # the board moved on: nothing to remind
        player = str(timer.payload.get("player"))
        if await self.bot.departures.is_gone(row.guild_id, player):  # no reminder for someone who left
            await self.bot.departures.noticed(row, player)
            return
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(int(player))] if player.isdigit() else [])
        update = self.bot.service.view(row)
        prompts = "; ".join(as_mentions(d.prompt) for d in update.pending if d.player == player)
        delivery = self.bot.delivery
        if timer.kind == REMINDER:
            text = (f"⏰ {mention(player)}, your turn in {update.game.title}: "
                    f"{prompts or 'you have a choice to make'}. Use the buttons on the board, or /board to see it "
                    "again.")
            await delivery.send(lambda: channel.send(text, allowed_mentions=mentions),
                                what=f"the turn reminder of {update.game.title}", channel_id=row.channel_id,
                                session_id=row.id)
        elif timer.kind == AFK and player in row.players:
            names = await self.bot.links.names(row.id)
            view = discord.ui.View(timeout=None)
            view.add_item(AfkButton(row.id, row.version, row.players.index(player),
                                    label=f"Remove {display(names, player)}"))
            hours = self.bot.play.prefs_cached(row.channel_id)["afk_hours"]
            others = [p for p in dict.fromkeys([*row.players, row.host]) if p != player]
            told = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(int(p)) for p in others if p.isdigit()])
            text = (f"💤 {display(names, player)} has not played for {hours:g} h. "
                    f"{', '.join(mention(p) for p in others)}: any of you may remove them from the game (it counts "
                    "as their resignation).")
            await delivery.send(lambda: channel.send(text, view=view, allowed_mentions=told),
                                what=f"the AFK notice of {update.game.title}", channel_id=row.channel_id,
                                session_id=row.id)


__all__ = ["AFK", "DEADLINE", "REMINDER", "Timers"]
