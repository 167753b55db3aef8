"""A member's own games, wherever they are: ``/mygames`` and ``/away``.

``/mygames`` (only the member sees it; any channel of any server, also one without a game): every lobby and running
game the member is seated in across the servers they share with the bot (:mod:`bot.service.members`; a game in a
server the member is no longer in is left out, asked of Discord once per server), each with its game, server and
channel, a link to its live board, whom it waits on, since when (``<t:…:R>``), the deadline of that wait, and an
undo request waiting for the member's vote. Games waiting on the member come first, the oldest wait first. A live
table's roll held by people marked missing waits on them (their deadline; "I'm here" answers it), not on the roller.

``/away days:`` (1-30) freezes the member's reminders and move deadlines in all their games
(:mod:`bot.service.away`) and posts one line in each game; ``/away off`` — or any move of theirs — ends it early
(one line in each game again). Boards show "away until …" while it lasts.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai_seats import is_ai
from bot.i18n import reader_lang, say
from bot.service.away import Away, AwayChange
from bot.service.members import MemberGame, MemberGames
from bot.sessions import SessionError
from bot.store import SessionRow
from games.core import T, Text

from .answers import answer
from .language import channel_language
from .notify import jump, stamp
from .present import as_mentions, clip, mention

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

MAX_KNOWN = 4096
"""Members whose time away this process remembers (bounded; read again from the store when forgotten)."""


class MyGames(commands.Cog):
    """``/mygames`` and ``/away``."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.games: MemberGames = bot.service.members
        self.away: Away = bot.service.away
        self._away: OrderedDict[str, int | None] = OrderedDict()  # member -> end of their time away (None: here)

    @property
    def service(self):
        return self.bot.service

    # -- /mygames -----------------------------------------------------------------------------------------------
    async def listed(self, player: str) -> list[MemberGame]:
        """``player``'s games in the servers they are still in (one look-up per server)."""
        shared: dict[str | None, bool] = {}

        async def keep(row: SessionRow) -> bool:
            if row.guild_id not in shared:
                shared[row.guild_id] = not await self.bot.departures.is_gone(row.guild_id, player)
            return shared[row.guild_id]

        return await self.games.of(player, keep)

    async def line(self, entry: MemberGame) -> str:
        """One game of ``/mygames`` in the reader's language."""
        row = entry.row
        link = jump(row.guild_id, row.channel_id, await self.bot.notify.board_of(row))
        head = T("**{where}** · [board]({link})", where=self.bot.notify.where(row), link=link) if not entry.lobby \
            else T("**{where}** · lobby", where=self.bot.notify.where(row))
        since = stamp(entry.since_ms, "R")
        if entry.lobby:
            what = T("waiting for the host, {host}, to start it since {since}", host=mention(row.host), since=since)
        elif entry.mine and entry.held:
            what = T("➡️ the roll waits for you since {since}: you missed the last race; press “I'm here” on its "
                     "board", since=since)
        elif entry.mine:
            what = T("➡️ your move, waiting since {since}", since=since)
        else:
            who = Text.join(T(", "), [mention(p) for p in entry.waits_on])
            what = T("waiting on {players} since {since}", players=who, since=since)
        parts = [what]
        if entry.deadline_ms is not None:
            parts.append(T("due {when}", when=stamp(entry.deadline_ms, "f")))
        if entry.undo_vote:
            parts.append(T("↩️ an undo request waits for your vote"))
        return say(head, reader_lang()) + "\n  " + say(Text.join(T(" · "), parts), reader_lang())

    @app_commands.command(name="mygames", description="Your games and lobbies in every server, those waiting on you first")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def mygames(self, interaction: discord.Interaction) -> None:
        """The member's games (ephemeral), in any channel; this module's docstring says what each line holds."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        player = str(interaction.user.id)
        entries = await self.listed(player)
        if not entries:
            text = say(T("You are not seated in any game or lobby. /play opens one."), reader_lang())
        else:
            waiting = sum(1 for e in entries if e.mine)
            lines = [say(T("Your games ({n}); waiting on you: {waiting}.", n=len(entries), waiting=waiting),
                         reader_lang())]
            lines += [await self.line(e) for e in entries]
            text = clip(lines, head=1)
        await answer(interaction, as_mentions(text, reader_lang()), allowed_mentions=discord.AllowedMentions.none())

    # -- /away --------------------------------------------------------------------------------------------------
    @app_commands.command(name="away", description="Pause your reminders and move deadlines in all your games")
    @app_commands.describe(days="How many days you are away (1-30)", off="true: you are back now")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def away_command(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30] | None = None,
                           off: bool = False) -> None:
        """``/away days:N`` or ``/away off:true``; without either: where the member's time away stands."""
        player = str(interaction.user.id)
        if days is not None and off:
            raise SessionError(T("Choose days: to go away, or off: to come back, not both."))
        change = None
        if off:
            change = await self.away.back(player)
            self._know(player, None)
            text = T("Welcome back: your reminders and move deadlines run again.") if change is not None \
                else T("You are not away.")
        elif days is not None:
            try:
                change = await self.away.go(player, days)
            except ValueError as exc:
                raise SessionError(exc.args[0]) from None
            self._know(player, change.until)
            text = T("You are away until {date}: your reminders and move deadlines wait in {n} games. /away off:true "
                     "when you are back (a move of yours ends it too).", date=stamp(change.until, "D"),
                     n=len(change.sessions))
        else:
            until = await self.away.until(player)
            text = T("You are away until {date}.", date=stamp(until, "D")) if until else T("You are not away.")
        await answer(interaction, say(text, reader_lang()))  # the answer first, then a line in each game
        if change is not None:
            self.bot.timers.wake()
            await self._tell(player, change)

    def _know(self, player: str, until: int | None) -> None:
        self._away[player] = until
        self._away.move_to_end(player)
        while len(self._away) > MAX_KNOWN:
            self._away.popitem(last=False)

    async def back(self, player: str) -> AwayChange | None:
        """``player`` is back early: their timers run again and each game is told. None when they were not away."""
        change = await self.away.back(player)
        self._know(player, None)
        if change is not None:
            self.bot.timers.wake()
            await self._tell(player, change)
        return change

    async def moved(self, player: str) -> None:
        """``player`` acted in a game: a time away of theirs ends (remembered per member: no store read once
        known)."""
        if is_ai(player):
            return
        if player not in self._away:
            self._know(player, await self.away.until(player))
        until = self._away.get(player)
        if until is not None and until > self.service.clock():
            await self.back(player)

    async def _tell(self, player: str, change: AwayChange) -> None:
        """One line in each of the member's games about their time away (nobody is pinged)."""
        for row in change.sessions:
            if change.until is not None:
                text = T("💤 {player} is away until {date}: their reminders and move deadlines wait until then.",
                         player=mention(player), date=stamp(change.until, "D"))
            else:
                text = T("{player} is back: their reminders and move deadlines run again.", player=mention(player))
            channel = self.bot.get_partial_messageable(int(row.channel_id))
            line = as_mentions(text, await channel_language(self.bot, row.channel_id))
            await self.bot.delivery.send(
                lambda channel=channel, line=line: channel.send(line, allowed_mentions=discord.AllowedMentions.none()),
                what=T("a time away in session {sid}", sid=str(row.id)), channel_id=row.channel_id, session_id=row.id)


__all__ = ["MyGames"]
