"""Where games are played, and what happens when that place goes.

A channel or thread deleted, or the bot removed from the server: the sessions there are abandoned and their timers
cleared — from the gateway events (``guild_channel_delete``, ``raw_thread_delete``, which fires for uncached threads
too, ``guild_remove``) and, for whatever happened while the bot was offline, from a sweep once the bot is ready:
a live session whose server the bot is no longer in, or whose channel Discord answers "Unknown Channel" for, is
abandoned. A game's thread that Discord archives while the game is live is unarchived (threads archive after a
period of silence; a game may wait days for a move).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from games.core import T

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)


class Places(commands.Cog):
    """Listeners for deleted channels and threads, removal from a server, and archived game threads."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.swept = False

    async def gone(self, channel_id: str, reason: str) -> bool:
        """Abandon the live session of ``channel_id`` (its place is gone); True when there was one."""
        update = await self.bot.service.close_place(channel_id, reason)
        if update is None:
            return False
        self.bot.table.forget(update.session.id, update.session.channel_id)
        log.info("session %s abandoned: %s (channel %s)", update.session.id, reason, channel_id)
        return True

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.gone(str(channel.id), T("its channel was deleted"))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.gone(str(payload.thread_id), T("its thread was deleted"))

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for row in await self.bot.service.reads.live_sessions():
            if row.guild_id == str(guild.id):
                await self.gone(row.channel_id, T("the bot was removed from the server"))

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        if not after.archived or before.archived:
            return
        if await self.bot.service.reads.live_session(str(after.id)) is None:
            return
        try:
            await after.edit(archived=False)
        except discord.HTTPException as exc:
            log.warning("could not unarchive game thread %s: %s", after.id, exc)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self.swept:
            self.swept = True
            await self.sweep()

    async def sweep(self) -> int:
        """Abandon the live sessions whose place went while the bot was offline; returns how many."""
        closed = 0
        for row in await self.bot.service.reads.live_sessions():
            if row.guild_id and self.bot.get_guild(int(row.guild_id)) is None:
                closed += await self.gone(row.channel_id, T("the bot was removed from the server"))
                continue
            if self.bot.get_channel(int(row.channel_id)) is not None:
                continue
            try:
                await self.bot.fetch_channel(int(row.channel_id))
            except discord.NotFound:
                closed += await self.gone(row.channel_id, T("its channel or thread was deleted"))
            except discord.HTTPException as exc:  # no access (Forbidden) or Discord trouble: keep the game
                log.info("channel %s of session %s not checked: %s", row.channel_id, row.id, exc)
        if closed:
            log.info("start-up sweep: %d sessions abandoned whose place is gone", closed)
        return closed
