"""Typed and reacted inputs of real-time races (ARCHITECTURE.md; RULINGS TK-10).

A decision with ``player=None`` (anyone seated may answer, e.g. a shout) also accepts a chat message that the game
reads as one of its options (``Game.chat_word``: "Tatamokatsu!" -> ``shout``) or whose text is an option id or label,
timed by the message's snowflake, and a reaction on the board whose emoji name is
an option id (or a keycap 1️⃣-🔟 for option 1-10), timed by its receive time mapped onto Discord's clock: receive
time minus the smallest delivery delay seen in the last :data:`DELAY_WINDOW` messages.
Only channels whose game waits on such a decision are looked at (an in-memory set, rebuilt on start-up).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.sessions import SessionError, Update
from games import Decision

from .play import snowflake_ms
from .present import KEYCAPS

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

DELAY_WINDOW = 50


class DiscordClock:
    """Maps local receive times (ms) onto Discord's clock: ``receive - min(recent receive - snowflake time)``."""

    def __init__(self, now=lambda: int(time.time() * 1000)) -> None:
        self.now = now
        self._delays: deque[int] = deque(maxlen=DELAY_WINDOW)

    def observe(self, snowflake: int, received_ms: int | None = None) -> None:
        received = self.now() if received_ms is None else received_ms
        self._delays.append(received - snowflake_ms(snowflake))

    def discord_ms(self, received_ms: int | None = None) -> int:
        received = self.now() if received_ms is None else received_ms
        return received - (min(self._delays) if self._delays else 0)


class Races(commands.Cog):
    """Listens to messages and reactions in channels whose game waits on a race."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.channels: set[str] = set()
        self.clock = DiscordClock()

    def track(self, update: Update) -> None:
        """Note whether ``update``'s channel now waits on a decision anyone seated may answer."""
        channel = update.session.channel_id
        if update.session.status == "active" and any(d.player is None for d in update.pending):
            self.channels.add(channel)
        else:
            self.channels.discard(channel)

    async def _answer(self, channel: str, user: str, pick: Callable[[Update, Decision], str | None],
                      at_ms: int) -> None:
        """Apply the race option ``pick(update, decision)`` names for ``user`` (the first race decision where it
        names one); post the board. Silent when nothing matches: chat is mostly chat."""
        update = await self.bot.service.show(channel)
        row = update.session
        if row.status != "active" or user not in row.players:
            return
        for d in update.pending:
            if d.player is not None:
                continue
            option = pick(update, d)
            if option is None or d.option(option) is None:
                continue
            try:
                new = await self.bot.service.act(channel, user, option, at_ms=at_ms, expect_version=row.version)
            except SessionError as exc:
                log.info("race input refused in session %s: %s", row.id, exc)
                return
            await self.bot.play.post(new)
            return

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None:
            return
        self.clock.observe(message.id)
        if message.author.bot or str(message.channel.id) not in self.channels:
            return
        text = message.content.strip()
        if not text:
            return

        def pick(update: Update, d: Decision) -> str | None:
            """The game's chat word (``Game.chat_word``), else an option id or label typed as it is."""
            word = update.game.chat_word(text)
            if word is not None:
                return word
            plain = text.lower().lstrip("!/")
            return next((o.id for o in d.options if plain in (o.id.lower(), o.label.lower())), None)

        try:
            await self._answer(str(message.channel.id), str(message.author.id), pick, snowflake_ms(message.id))
        except Exception:
            log.exception("typed input in channel %s failed", message.channel.id)

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        at = self.clock.discord_ms()
        if payload.guild_id is None or str(payload.channel_id) not in self.channels:
            return
        if (payload.member is not None and payload.member.bot) or (
                self.bot.user is not None and payload.user_id == self.bot.user.id):
            return
        name = (payload.emoji.name or "").lower()
        index = KEYCAPS.index(payload.emoji.name) if payload.emoji.name in KEYCAPS else None

        def pick(update: Update, d: Decision) -> str | None:
            if index is not None:
                return d.options[index].id if index < len(d.options) else None
            return next((o.id for o in d.options if o.id.lower() == name), None)

        try:
            await self._answer(str(payload.channel_id), str(payload.user_id), pick, at)
        except Exception:
            log.exception("reaction input in channel %s failed", payload.channel_id)
