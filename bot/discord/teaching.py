"""Teaching commands: ``/hint`` — the strong AI's best options for the member whose decision is open, only for
them.

The service decides everything (:class:`bot.service.hints.Hints`: who may ask, the lobby's ``hints:``, the unrated
mark); this cog admits the request under the per-member and per-server quotas of the drawing workers
(:meth:`bot.heavy.Heavy.admit`, a refusal is one "Busy — try again in N s" line in a hint's words,
:data:`bot.heavy.HINT_WORDS`), defers (the search takes the AI
seats' budget, off the event loop) and answers ephemerally (saying when the hint made the game unrated; every
board from the next move on says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.heavy import HINT_WORDS, Busy
from bot.i18n import reader_lang
from bot.service.hints import hint_lines

from .answers import NO_PINGS, THINKING, answer
from .present import mention

if TYPE_CHECKING:
    from .bot import PlayBot


class Teaching(commands.Cog):
    """``/hint``."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description="The strong AI's best options for your decision (only you)")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        """Ephemeral: the hint for the member's open decision (module doc); refusals ephemeral, nothing changed."""
        channel, member = str(interaction.channel_id), str(interaction.user.id)
        try:
            ticket = self.bot.results.heavy.admit(member, interaction.guild_id, HINT_WORDS)
        except Busy as exc:
            await self.bot.answers.refuse(interaction, str(exc))
            return
        with ticket:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
                interaction.extras[THINKING] = "ephemeral"
            given = await self.bot.service.hints.hint(channel, member)
        lang = reader_lang()
        await answer(interaction, "\n".join(hint_lines(given, mention, lang))[:2000], ephemeral=True,
                     allowed_mentions=NO_PINGS)


__all__ = ["Teaching"]
