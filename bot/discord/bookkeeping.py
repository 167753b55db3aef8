"""After-reply bookkeeping of boards, batched: remember each session's latest board message, strip the previous
board's components, and replace the turn reminder / AFK timers — for every board posted since the last flush, in ONE
store transaction (a handful of statements whatever the number of boards).

Why batched: every transaction of the store serialises on its write lock and each statement is a round trip to
aiosqlite's thread; at 40 boards a second, one transaction per board queued the players' moves behind them. Nothing
waits on purpose: a flush starts as soon as a board is queued, and the boards posted while it runs go in the next.
A crash can lose at most the boards of the flush in progress: their reminders (re-made by the next move) and the
stripping of their predecessors' buttons (presses on those are refused as stale anyway).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

from bot.ai_seats import is_ai
from bot.sessions import MAX_MS, Update
from bot.store import now_ms

from .timers import AFK, REMINDER

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)


class Bookkeeper:
    """Queue of posted boards (session id -> the latest), flushed by one background task."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._pending: dict[int, tuple[Update, int | None, dict, bool]] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task | None = None
        self.boards: dict[int, tuple[str, str]] = {}  # session id -> (channel id, message id) of its board

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="pbc-bookkeeper")

    async def stop(self) -> None:
        if self._task is not None:
            if self._pending:
                await self.flush()
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    def forget(self, session_id: int) -> None:
        """A session ended: its last board is not needed in memory (a board still queued is dropped after its
        flush)."""
        self.boards.pop(session_id, None)

    def add(self, update: Update, message_id: int | None, prefs: dict, strip: bool = True) -> None:
        """Queue the board of ``update`` just posted (or edited in place) as ``message_id`` (``prefs``: the channel's
        settings). ``strip=False``: the caller strips the previous board itself (it knows which one is live)."""
        old = self._pending.get(update.session.id)
        strip = strip or (old is not None and old[3])  # an earlier board of the batch still has one to strip
        self._pending[update.session.id] = (update, message_id, prefs, strip)
        self._idle.clear()
        self._wake.set()

    async def drain(self) -> None:
        """Wait until every queued board is written (tests, shutdown)."""
        while self._pending or not self._idle.is_set():
            if self._task is None:
                await self.flush()
            else:
                await self._idle.wait()

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.flush()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bookkeeping of boards failed")
            if not self._pending:
                self._idle.set()

    async def flush(self) -> None:
        """Write every queued board in one transaction, then strip the replaced boards' components. If the batch
        fails, each board is retried alone, so one bad session never costs the others their bookkeeping."""
        batch, self._pending = self._pending, {}
        if not batch:
            return
        try:
            await self._write(batch)
        except Exception:
            if len(batch) == 1:
                raise
            log.exception("bookkeeping batch of %d boards failed; retrying one by one", len(batch))
            for sid, item in batch.items():
                try:
                    await self._write({sid: item})
                except Exception:
                    log.exception("bookkeeping of session %s failed", sid)

    async def _write(self, batch: dict[int, tuple[Update, int | None, dict, bool]]) -> None:
        for sid in batch:
            if sid not in self.boards:  # first board of this session since start-up
                old = (await self.bot.links.get(sid)).get("board")
                if old:
                    self.boards[sid] = (str(old[0]), str(old[1]))
        now = self.bot.service.clock()
        timer_rows, link_rows, strips = [], [], []
        for sid, (update, message_id, _, strip) in batch.items():
            row = update.session
            if message_id is not None:
                old = self.boards.get(sid)
                if strip and old and old[1] != str(message_id):
                    strips.append((sid, old))
                if old != (row.channel_id, str(message_id)):  # an edit in place leaves the link as it is
                    link_rows.append((sid, json.dumps([row.channel_id, str(message_id)]), now_ms()))
                self.boards[sid] = (row.channel_id, str(message_id))
            if row.status != "active":  # the game is over: nothing more to strip later (bounded memory)
                self.boards.pop(sid, None)
                continue
            # the reminders and deadline of each person the board waits on (an AI seat never idles, is never pinged)
            timer_rows += await self.bot.notify.wait_timers(update, now)
        await self.bot.links.save_boards(list(batch), [REMINDER, AFK], timer_rows, link_rows)
        for sid, (channel, message) in strips:
            self.bot.spawn(self.bot.table.strip(channel, message), f"strip components of {message} (session {sid})")
        # the moves behind these boards may have added deadline or AI timers nearer than the one the dispatcher
        # sleeps on (then it looks again at once); otherwise only when a new reminder comes before it
        unknown = any(d.player is None or d.deadline_ms is not None or is_ai(d.player)
                      for update, *_ in batch.values() for d in update.pending)
        self.bot.timers.wake_before(None if unknown else min((r[3] for r in timer_rows), default=MAX_MS))
