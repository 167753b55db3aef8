"""``/privacy`` and ``/forget-me`` (``PRIVACY.md``), and the daily pruning of old finished games (``RECORDS_DAYS``).

``/forget-me`` answers ephemerally with two buttons, ``Delete my data`` and ``Keep it``. Their ``custom_id`` is
``pbc-privacy:<user id>:<y|n>`` (a ``DynamicItem``: a press works after a restart); only the member named in it may
press them — anyone else is refused ephemerally and nothing changes. Confirming runs :func:`bot.privacy.forget_member`
(live games resign the member first; each resignation is posted to its table as usual) and edits the answer to say
what was removed.

Pruning: when ``RECORDS_DAYS`` is more than 0, :meth:`bot.service.privacy.Privacy.prune` runs when the cog loads (before the
bot restores its games) and then every :data:`PRUNE_EVERY_S` seconds (every process may run it: deleting what is already gone deletes nothing).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.i18n import reader_lang, say, speaking
from bot.privacy import forget_member, privacy_text
from games.core import N, T

from .answers import NO_PINGS, answer, update_message
from .components import in_budget

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

FORGET = r"pbc-privacy:(?P<uid>[0-9]{1,20}):(?P<yes>[yn])"
"""The ``custom_id`` template of the ``/forget-me`` buttons."""
PRUNE_EVERY_S = 86_400.0
"""How often old finished games are pruned (s)."""
ASK = T("This deletes your ratings and preferences and removes your id and name from every game this bot keeps "
       "(your seats stay as \"a former player\", so the other players' records stay as they are). A game you are "
       "playing now resigns you first. This cannot be undone.")
NOT_YOURS = T("Only the member who used /forget-me can answer it.")
KEPT = T("Nothing was deleted.")


def forget_id(user_id: int | str, yes: bool) -> str:
    return f"pbc-privacy:{user_id}:{'y' if yes else 'n'}"


class ForgetButton(ui.DynamicItem[ui.Button], template=FORGET):
    """``Delete my data`` (``yes``) or ``Keep it`` for member ``uid``."""

    interaction_check = in_budget  # the reader's language noted, deferred when late

    def __init__(self, uid: int, yes: bool) -> None:
        label, style = (say(T("Delete my data")), discord.ButtonStyle.danger) if yes else (
            say(T("Keep it")), discord.ButtonStyle.secondary)
        super().__init__(ui.Button(label=label, style=style, custom_id=forget_id(uid, yes)))
        self.uid, self.yes = uid, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["uid"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.privacy.answer(interaction, self.uid, self.yes)


def confirm_view(user_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, True))
    view.add_item(ForgetButton(user_id, False))
    return view


class Privacy(commands.Cog):
    """``/privacy``, ``/forget-me`` and the pruning task."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.service = bot.service
        self._prune: asyncio.Task | None = None

    @property
    def records_days(self) -> int:
        return int(getattr(self.bot.settings, "records_days", 0) or 0)

    async def cog_load(self) -> None:
        self.bot.privacy = self
        self.bot.add_dynamic_items(ForgetButton)
        if self.records_days > 0:
            await self.prune()
            self._prune = asyncio.get_running_loop().create_task(self._pruning(), name="pbc-prune")

    async def cog_unload(self) -> None:
        if self._prune is not None:
            self._prune.cancel()
            await asyncio.gather(self._prune, return_exceptions=True)
            self._prune = None

    async def prune(self) -> int:
        """Delete the finished games older than ``RECORDS_DAYS`` days on the service's clock; failures are logged
        (the next day tries again). Returns how many were deleted."""
        try:
            return await self.service.privacy.prune(self.records_days, now=self.service.clock())
        except Exception:
            log.exception("pruning finished games older than %d days failed", self.records_days)
            return 0

    async def _pruning(self) -> None:
        while True:
            await asyncio.sleep(PRUNE_EVERY_S)
            await self.prune()

    @app_commands.command(name="privacy", description="What this bot stores about you, why, how long, how to delete")
    @app_commands.guild_only()
    async def privacy(self, interaction: discord.Interaction) -> None:
        await answer(interaction, say(privacy_text(self.records_days), reader_lang()), allowed_mentions=NO_PINGS)

    @app_commands.command(name="forget-me", description="Delete everything this bot stores about you")
    @app_commands.guild_only()
    async def forget_me(self, interaction: discord.Interaction) -> None:
        with speaking(reader_lang()):  # the buttons too
            view = confirm_view(interaction.user.id)
        await answer(interaction, say(ASK, reader_lang()), view=view, allowed_mentions=NO_PINGS)

    async def answer(self, interaction: discord.Interaction, user_id: int, yes: bool) -> None:
        """A press of a ``/forget-me`` button: refused for anyone but ``user_id``; ``Keep it`` changes nothing;
        ``Delete my data`` forgets the member, posts each resignation to its table and says what was removed."""
        if interaction.user.id != user_id:
            await self.bot.answers.refuse(interaction, NOT_YOURS)
            return
        if not yes:
            await update_message(interaction, content=say(KEPT, reader_lang()), view=None)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()
        done = await forget_member(self.service, str(user_id))
        for sid in done.forgotten.sessions if done.forgotten else []:
            self.bot.links.forget(sid)
        for update in done.updates:
            fresh = await self.service.reads.session(update.session.id)
            if fresh is not None:  # the board's buttons carry the version the forgetting left
                update.session = fresh
                update.state = self.service.state_of(fresh)
                update.pending = self.service.view(fresh).pending
            self.bot.spawn(self.bot.table.post(update), f"session {update.session.id}: a forgotten member's resignation")
        lang = reader_lang()
        lines = [T("Done: your data is deleted ({n} rows).", n=done.forgotten.total if done.forgotten else 0)]
        if done.updates:
            lines.append(N("You were resigned from or left {n} game.", "You were resigned from or left {n} games.",
                           n=len(done.updates)))
        if done.refused:
            lines.append(N("{n} game could not resign you; your seat there stays, as a former player.",
                           "{n} games could not resign you; your seat there stays, as a former player.",
                           n=len(done.refused)))
        await update_message(interaction, content="\n".join(say(line, lang) for line in lines), view=None)


__all__ = ["ASK", "FORGET", "KEPT", "NOT_YOURS", "ForgetButton", "Privacy", "confirm_view", "forget_id"]
