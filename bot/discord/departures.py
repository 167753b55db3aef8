"""Players who leave the server: no game waits for ever on someone who is gone.

A seated player who is no longer a member of the game's server is resigned after ``Settings.departure_grace_hours``
(unless they came back by then), with a public line. The moment the departure is noticed, the game's channel is told
(``🚪 bob left the server; they are resigned from the game in 24 h unless they return; the host (@alice) can /kick
them now``, the hours those of the setting; "a moderator" when the host left), so nobody waits in silence. A departure is noticed at once from the gateway
(``raw_member_remove``, with the optional Server Members intent, ``Settings.members_intent``) and otherwise when a
turn reminder or AFK limit comes due for the player (a REST look-up of the member: "Unknown Member" means gone).
The pending resignation is a durable timer row of kind ``departed`` (payload ``{"player": id}``): it survives a
restart like every other timer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.i18n import say
from bot.service.timers import Timer
from bot.sessions import SessionError
from bot.store import SessionRow
from games.core import T, player_ref

from .present import display, mention

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

DEPARTED = "departed"
HOUR_MS = 3_600_000


class Departures(commands.Cog):
    """Notices departures and resigns the departed after the grace period."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot

    async def is_gone(self, guild_id: str | None, player: str) -> bool:
        """True when Discord says ``player`` is not a member of ``guild_id`` ("Unknown Member"); False when they
        are, or when it cannot tell (no guild, not a Discord id, Discord trouble)."""
        if not guild_id or not player.isdigit():
            return False
        try:
            await self.bot.http.get_member(int(guild_id), int(player))
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            log.info("member %s of guild %s not checked: %s", player, guild_id, exc)
            return False
        return False

    async def noticed(self, row: SessionRow, player: str) -> bool:
        """``player`` of ``row`` left the server: schedule their resignation after the grace period (once).
        Returns True when a timer was added."""
        if row.status != "active" or player not in row.players:
            return False
        if player in await self.bot.service.reads.resigned(row.id):
            return False
        if any(t.kind == DEPARTED and t.payload.get("player") == player for t in await self.bot.service.timers.of(row.id)):
            return False
        grace_ms = int(float(self.bot.settings.departure_grace_hours) * HOUR_MS)
        await self.bot.service.timers.add(row.channel_id, DEPARTED, self.bot.service.clock() + grace_ms,
                                         {"player": player}, session_id=row.id)
        self.bot.timers.wake()
        log.info("session %s: player %s left the server; resigned in %s h unless back", row.id, player,
                 self.bot.settings.departure_grace_hours)
        await self.tell(row, player)
        return True

    async def tell(self, row: SessionRow, player: str) -> None:
        """The public line in ``row``'s channel the moment ``player``'s departure is noticed: when they are resigned
        (the grace period, ``Settings.departure_grace_hours``) unless they return, and that the host may /kick them
        at once. Nobody is pinged; a refused post is retried in the background (:mod:`.delivery`)."""
        hours = float(self.bot.settings.departure_grace_hours)
        names = await self.bot.links.names(row.id)
        who = display(names, player)
        shown = f"{hours:g}"
        when = T("in {hours} h unless they return", hours=shown) if hours > 0 else T("now")
        kicks = T("a moderator") if row.host == player else T("the host ({host})", host=mention(row.host))
        text = say(T("🚪 {player} left the server; they are resigned from the game {when}; {who} can /kick them now.",
                     player=who, when=when, who=kicks))
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        await self.bot.delivery.send(lambda: channel.send(text, allowed_mentions=discord.AllowedMentions.none()),
                                     what=T("the departure notice of session {sid}", sid=str(row.id)), channel_id=row.channel_id,
                                     session_id=row.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        player = str(payload.user.id)
        for row in await self.bot.service.reads.live_sessions():
            if row.guild_id == str(payload.guild_id) and player in row.players:
                await self.noticed(row, player)

    @commands.Cog.listener("on_departed_timer_complete")
    async def fire(self, timer: Timer) -> None:
        """The grace period of a departure is over: resign the player if they are still gone."""
        row = await self.bot.service.reads.session(timer.session_id) if timer.session_id is not None else None
        player = str(timer.payload.get("player"))
        if row is None or row.status != "active" or not await self.is_gone(row.guild_id, player):
            return
        hours = float(self.bot.settings.departure_grace_hours)
        try:
            update = await self.bot.service.resign(row.channel_id, player, by="departure")
        except SessionError:
            return  # already resigned or removed
        update.notes.append(T("{player} left the server {hours} h ago and is resigned from the game.",
                              player=player_ref(player), hours=format(hours, "g")))
        await self.bot.table.post(update)
