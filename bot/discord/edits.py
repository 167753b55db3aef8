"""Edits of board messages made after the interactions that caused them were answered (answer first): a board
edited by REST (a same-turn ``/move``, a press on a private copy) and a retired board are edited afterwards, in order,
by :class:`BoardEdits` — the latest wanted content of each message only, retried in the background through
:mod:`.delivery` — since Discord's per-channel limits (5 edits, 5 sends per 5 s) make such a call wait seconds."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from .components import let_go

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)


@dataclass
class Edit:
    """An edit of a board message wanted after the interaction was answered: ``kwargs()`` builds the
    ``discord.Message.edit`` arguments (a fresh ``discord.File`` each try), ``plain()`` its text form for when
    Discord refuses the file (None: no file), ``what`` names it in words, ``notify``: a failure is surfaced at the
    channel's next interaction (a board behind), else only logged (a retired board keeping its text)."""

    session_id: int
    version: int
    kwargs: Callable[[], dict[str, Any]]
    plain: Callable[[], dict[str, Any]] | None
    what: str
    notify: bool = True
    on_plain: Callable[[], None] | None = None


class BoardEdits:
    """REST edits of board messages, made after the interactions that caused them were answered: per channel one
    background worker, in the order the messages were first queued, each message edited to the latest content
    queued for it (five edits queued while Discord makes the channel's edit bucket wait are one edit). Each edit is
    tried through :meth:`bot.discord.delivery.Delivery.post` (backoff, bounded; discord.py itself waits out a 429
    first). A message deleted meanwhile (404) makes the session post a new board (:meth:`Table.catch_up`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._pending: dict[str, dict[int, Edit]] = {}  # channel id -> message id -> the latest edit wanted
        self._running: set[str] = set()

    def queue(self, channel_id: str, message_id: int, edit: Edit) -> None:
        """Edit message ``message_id`` of ``channel_id`` as ``edit`` says, soon (replacing an edit not made yet)."""
        self._pending.setdefault(channel_id, {})[message_id] = edit
        if channel_id not in self._running:
            self._running.add(channel_id)
            self.table.bot.spawn(self._run(channel_id), f"board edits in channel {channel_id}")

    def waiting(self, channel_id: str) -> int:
        """How many messages of ``channel_id`` wait for an edit."""
        return len(self._pending.get(channel_id) or {})

    async def _run(self, channel_id: str) -> None:
        delivery = self.table.bot.delivery
        try:
            while self._pending.get(channel_id):
                mid, edit = next(iter(self._pending[channel_id].items()))
                ok = await delivery.post(lambda mid=mid: self._apply(channel_id, mid), what=edit.what,
                                         channel_id=channel_id, session_id=edit.session_id, needs=EDIT_NEEDS,
                                         notify=edit.notify, board=edit.notify)
                pending = self._pending.get(channel_id) or {}
                if not ok and pending.get(mid) is edit:
                    pending.pop(mid)
        finally:
            self._running.discard(channel_id)
            if not self._pending.get(channel_id):
                self._pending.pop(channel_id, None)

    async def _apply(self, channel_id: str, mid: int) -> None:
        pending = self._pending.get(channel_id) or {}
        edit = pending.get(mid)
        if edit is None:
            return
        msg = self.table.bot.get_partial_messageable(int(channel_id)).get_partial_message(mid)
        try:
            try:
                await self._edit(msg, edit.kwargs())
            except discord.Forbidden as exc:
                if edit.plain is None:
                    raise
                log.info("channel %s refused a board image (%s): edited as text", channel_id, exc.text)
                await self._edit(msg, edit.plain())
                if edit.on_plain is not None:
                    edit.on_plain()
        except discord.NotFound:
            if pending.get(mid) is edit:
                pending.pop(mid)
            self.table.gone(edit.session_id, channel_id, mid)
            return
        if pending.get(mid) is edit:
            pending.pop(mid)

    @staticmethod
    async def _edit(msg: discord.PartialMessage, kwargs: dict[str, Any]) -> None:
        try:
            await msg.edit(**kwargs)
        finally:
            let_go(kwargs.get("view"))


EDIT_NEEDS = ("view_channel", "read_message_history")
"""Permissions an edit of the bot's own message needs."""


__all__ = ["EDIT_NEEDS", "BoardEdits", "Edit"]
