"""Every answer to a player, and the 3 s it must come within.

- :class:`Answers` (``bot.answers``): refusals (:meth:`Answers.refuse`: what was asked was not done), short news of
  what was done (:meth:`Answers.tell`: "✅ Counted.", "Done."), any message (:meth:`Answers.send`: the interaction's
  response, its follow-up, or a channel message; a board whose image Discord refuses goes out as its text form),
  stale presses (:meth:`Answers.stale`: refused, the current board shown), and the board a channel missed
  (:meth:`Answers.missed`: a board that could not be posted at all, e.g. no Send Messages, is the next
  interaction's public answer, with one line on what is missing);
- the 3 s budget: Discord's deadline counts from an interaction's creation (its snowflake), so a handler that starts
  late defers before its database work (:func:`defer_when_late`, :meth:`Answers.in_budget`), a slow render defers
  (:func:`await_render`); the helpers here answer the same way whether or not the interaction was deferred.

The live board message itself is :mod:`.table`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.sessions import STALE_TEXT, SessionError, Update
from bot.store import SessionRow
from games.core import T, Text

from ..i18n import reader_lang
from .components import let_go
from .language import enter_interaction
from .present import as_mentions

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()

DISCORD_EPOCH_MS = 1_420_070_400_000
INTERACTION_BUDGET_MS = 3000
"""Discord's deadline for the first answer to an interaction, counted from its creation (its snowflake)."""
THINKING = "pbc_thinking"
"""``Interaction.extras`` key: ``"public"`` or ``"ephemeral"`` while a deferred command's "thinking…" message
waits for its first follow-up (which replaces it and keeps its visibility)."""
RENDER_BUDGET_S = 2.0
"""Longer than this and the interaction is deferred first (Discord's deadline is 3 s)."""
DEFER_BELOW_MS = 1500
"""An interaction with less than this left of :data:`INTERACTION_BUDGET_MS` when its handler starts is deferred
before any database work, and answered by follow-ups."""


def snowflake_ms(snowflake: int) -> int:
    """Discord's clock: the ms timestamp inside a snowflake id (RULINGS TK-10)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


def budget_ms(interaction: discord.Interaction, now_ms: int) -> int:
    """What is left (ms, may be negative) of the interaction's 3 s at ``now_ms`` (the local clock), counted from its
    creation time inside its snowflake."""
    return INTERACTION_BUDGET_MS - (int(now_ms) - snowflake_ms(interaction.id))


async def followup(interaction: discord.Interaction, *, ephemeral: bool, **kwargs: Any) -> discord.WebhookMessage:
    """A follow-up to an answered interaction. The first follow-up of a deferred command replaces its "thinking…"
    message and keeps its visibility: when that is not the one wanted (a refusal after a public defer), the
    "thinking…" message is deleted first, so a refusal stays ephemeral and a board stays public."""
    thinking = interaction.extras.pop(THINKING, None)
    if thinking is not None and thinking != ("ephemeral" if ephemeral else "public"):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.info("deferred answer of interaction %s not deleted: %s", interaction.id, exc)
    return await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)


async def update_message(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on: the press's own update, or its original message once deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def answer(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction with a message: its response, or a follow-up once it was deferred."""
    if interaction.response.is_done():
        await followup(interaction, ephemeral=ephemeral, content=content, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def defer_when_late(interaction: discord.Interaction, now_ms: int, *, ephemeral: bool = False) -> bool:
    """Before a handler's database work: defer ``interaction`` when less than :data:`DEFER_BELOW_MS` is left of its
    3 s at ``now_ms`` (:func:`budget_ms`) — a component by a deferred update (its answers follow), a command by a
    "thinking…" message (``ephemeral``: the visibility of its answer). Never raises; always True (it is used as an
    ``interaction_check``)."""
    try:
        if interaction.response.is_done() or interaction.type not in (
                discord.InteractionType.component, discord.InteractionType.application_command):
            return True
        left = budget_ms(interaction, now_ms)
        if left >= DEFER_BELOW_MS:
            return True
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            interaction.extras[THINKING] = "ephemeral" if ephemeral else "public"
        log.debug("interaction %s deferred with %d ms of its budget left", interaction.id, left)
    except discord.HTTPException as exc:
        log.info("interaction %s could not be deferred: %s", interaction.id, exc)
    except Exception:
        log.exception("deferring interaction %s failed", interaction.id)
    return True


async def await_render(interaction: discord.Interaction | None, task: asyncio.Future) -> bytes | None:
    """Wait for a render (``task``: PNG bytes or None); defer the interaction when it outlasts
    :data:`RENDER_BUDGET_S` (the board then follows as a new message)."""
    if interaction is None or interaction.response.is_done():
        return await task
    try:
        return await asyncio.wait_for(asyncio.shield(task), RENDER_BUDGET_S)
    except TimeoutError:
        await interaction.response.defer(ephemeral=True, thinking=True)
        return await task


@dataclass
class Posted:
    """A message just sent: its id (None when Discord did not say) and how to attach a file to it later."""

    message_id: int | None
    attach: Callable[[discord.File], Awaitable[Any]]
    retext: Callable[[str], Awaitable[Any]] | None = None
    """Replace the message's text (a board whose image Discord refused becomes its text form)."""
    content: str | None = None
    """The text the message went out with (a board's text form when its image was refused)."""


class Answers:
    """The answers to ``bot``'s interactions (cogs use ``bot.answers``)."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot

    async def in_budget(self, interaction: discord.Interaction, *, ephemeral: bool = False) -> bool:
        """:func:`defer_when_late` on the service clock (used as an ``interaction_check``), then the table's and the
        reader's language noted for the task (:mod:`bot.discord.language`)."""
        ok = await defer_when_late(interaction, self.bot.service.clock(), ephemeral=ephemeral)
        await enter_interaction(self.bot, interaction)
        return ok

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """Say why what ``interaction`` asked was not done (or went wrong): a short ephemeral answer in the reader's
        language (``{@id}`` refs become mentions, which do not ping in ephemeral messages). Nothing changed."""
        await self._short(interaction, text)

    async def tell(self, interaction: discord.Interaction | None, text: str) -> None:
        """Say that what ``interaction`` asked was done when its effect shows elsewhere ("✅ Counted.", "Done."): a
        short ephemeral answer in the reader's language; nothing without an interaction."""
        if interaction is not None:
            await self._short(interaction, text)

    async def counted(self, interaction: discord.Interaction | None, update: Update) -> None:
        """:meth:`tell` that an input inside a race that goes on was counted: "✅" and what it did (its events), else
        "✅ Counted." (the race message stays untouched)."""
        counted = Text.join(" ", [e.text for e in update.events]) if update.events else T("Counted.")
        await self.tell(interaction, Text.join(" ", ["✅", counted]))

    async def _short(self, interaction: discord.Interaction, text: str) -> None:
        text = as_mentions(text, reader_lang())[:2000]
        await self.missed(interaction)
        try:
            if interaction.response.is_done():
                await followup(interaction, ephemeral=True, content=text, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not answer interaction %s in channel %s", interaction.id, interaction.channel_id)
            return
        await self.bot.delivery.surface(interaction)

    async def send(
        self,
        interaction: discord.Interaction | None,
        channel_id: str,
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
        ephemeral: bool = False,
        plain: str | None = None,
    ) -> Posted:
        """Send one message: the interaction's response, else its follow-up, else a plain channel message.

        ``plain``: the message's text form (a board's position in words and numbered options): when Discord
        refuses the ``file`` (403: no Attach Files), the message is sent again as ``plain``, without the file and
        with the same components. Raises ``discord.HTTPException`` when Discord refuses it."""
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await self.missed(interaction)
        try:
            try:
                posted = await self._send(interaction, channel_id, ephemeral, kwargs)
            except discord.Forbidden as exc:
                if file is None or plain is None:
                    raise
                log.info("channel %s refused a board image (%s): sent as text", channel_id, exc.text)
                kwargs.pop("file")
                kwargs["content"] = plain
                posted = await self._send(interaction, channel_id, ephemeral, kwargs)
        finally:
            let_go(view)
        posted.content = kwargs["content"]
        await self.bot.delivery.surface(interaction)
        return posted

    async def _send(self, interaction: discord.Interaction | None, channel_id: str, ephemeral: bool,
                    kwargs: dict[str, Any]) -> Posted:
        if interaction is not None:
            if not interaction.response.is_done():
                resp = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
                return Posted(resp.message_id, lambda f: interaction.edit_original_response(attachments=[f]),
                              lambda t: interaction.edit_original_response(content=t))
            msg = await followup(interaction, ephemeral=ephemeral, **kwargs)
        else:
            msg = await self.bot.get_partial_messageable(int(channel_id)).send(**kwargs)
        return Posted(msg.id, lambda f: msg.edit(attachments=[f]), lambda t: msg.edit(content=t))

    async def current(self, interaction: discord.Interaction, sid: int, ver: int) -> Update | None:
        """The session a component names as it stands, if that board (version ``ver``) is still the current one;
        else the press is refused (not this channel's, not running, or out of date) and None returned."""
        row = await self.board_row(interaction, sid)
        if row is None:
            return None
        if row.version != ver:
            await self.stale(interaction)
            return None
        return self.bot.service.view(row)

    async def board_row(self, interaction: discord.Interaction, sid: int) -> SessionRow | None:
        """The running session a component in this channel names (``SessionService.board_row``); else the press is
        refused and None returned."""
        try:
            return await self.bot.service.board_row(str(interaction.channel_id), sid)
        except SessionError as exc:
            await self.refuse(interaction, str(exc))
            return None

    async def stale(self, interaction: discord.Interaction) -> None:
        """Refuse a press on an old board and show the current one (ephemeral; public when that board could not
        be posted: :meth:`missed`)."""
        if await self.missed(interaction):
            return
        try:
            update = await self.bot.service.show(str(interaction.channel_id))
        except SessionError:  # the press that won ended the game
            await self.refuse(interaction, T("This board is out of date: the game is over."))
            return
        await self.bot.table.send_board(update, interaction, ephemeral=True, notes=[STALE_TEXT])

    async def missed(self, interaction: discord.Interaction | None) -> bool:
        """When a board of this channel could not be posted (every try failed, e.g. no Send Messages), answer
        ``interaction`` with the session's current board, publicly, as a new live message (interaction answers
        need no Send Messages), with one line on what the bot lacks (:meth:`Delivery.cannot_post`); the previous
        board is retired once this one is out. Returns whether it did; once per failure."""
        if interaction is None or interaction.channel_id is None:
            return False
        channel = str(interaction.channel_id)
        if not self.bot.delivery.has_boards(channel):
            return False
        try:
            update = await self.bot.service.show(channel)
        except SessionError:
            return False
        if update.session.status != "active" or self.bot.table.showing(update.session.id):
            return False  # (a board of the session is being shown; the notice waits for the next one)
        notices = self.bot.delivery.boards(channel)
        if not notices:
            return False
        line = self.bot.delivery.cannot_post(notices, getattr(interaction, "app_permissions", None))
        try:
            await self.bot.table.show(update, interaction, notes=[line], first=False, fresh=True)
        except Exception:
            log.exception("missed board of session %s not shown", update.session.id)
            return False
        return True
