"""How a member hears of their games outside the board: the route they chose, direct messages, reminders, a game's
end and a lobby about to close.

- **Route** (``/notify how:``, :mod:`bot.service.notifications`): ``channel`` — the turn ping on the board (the
  default); ``dm`` — a direct message instead; ``both``; ``off``. ``/notify game:mute`` in a game's channel mutes
  that game for the member (no ping, no direct message). ``/pings turn:off`` is ``off`` for a member who chose no
  route.
- **A turn** (:meth:`Notify.turn_started`): when a board of a new turn is posted, each player it names who chose
  ``dm`` or ``both`` gets ONE direct message (sub-decisions of the same turn edit the board in place and send
  nothing): the game, the server and the channel, a link to the board, and what happened since their last move
  (the event lines, :func:`bot.service.notifications.digest`), with a **Stop** button that turns their direct
  messages off. Never a direct message to a member who did not choose one.
- **Direct messages closed** (Discord error 50007): that turn falls back to one ping in the game's channel (a reply
  to the board), the member's later turns ping them in the channel, and the next time they interact with the bot
  they get one ephemeral note saying so (until they choose ``dm`` or ``both`` again).
- **Reminders** (``reminder`` timers, :mod:`bot.service.pace`): repeated at the game's pace until the deadline, at
  most three per wait, each one sentence replying to the live board (by direct message: linking it), by the
  member's route; none while they are away.
- **The end of a game**: the result message pings the seated players whose route is the channel
  (:meth:`Notify.end_pings`), and each who chose direct messages gets the result by one.
- **A lobby about to close** (``lobby_warning`` timer, one hour before its expiry): one line pinging the seated
  members (or a direct message), once.

A wait's timers (reminders, the ``afk`` deadline) are written by the bookkeeping of each posted board
(:meth:`Notify.wait_timers`); the board says when the move is due and who is away (:meth:`Notify.board_lines`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.ai_seats import is_ai
from bot.i18n import reader_lang, say
from bot.service.notifications import MemberPrefs, Notifications, digest
from bot.service.pace import HOUR_MS, pace_of, plan_wait
from bot.service.presence import waited_on
from bot.service.timers import Timer
from bot.sessions import SessionError, Update
from bot.store import SessionRow, StoreUnavailable
from games.core import T, Text

from . import ids
from .answers import answer, followup
from .components import in_language, let_go
from .present import deciders, display, mention
from .timers import AFK, REMINDER, waiting_on

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

LOBBY_WARNING = "lobby_warning"
"""Timer kind: a lobby closes in an hour (payload ``{"closes_ms": int}``)."""
WARN_BEFORE_MS = HOUR_MS
MAX_DM_CHANNELS = 4096
DMS_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (their direct messages are closed)."""


def stamp(ms: int, style: str) -> str:
    """A Discord timestamp (``<t:seconds:style>``; ``R`` relative, ``f`` date and time, ``D`` date) of ``ms``."""
    return f"<t:{ms // 1000}:{style}>"


def jump(guild_id: str | None, channel_id: str, message_id: str | int | None = None) -> str:
    """A link that opens a channel (and a message in it) in Discord."""
    url = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{url}/{message_id}" if message_id else url


class StopDmsButton(ui.DynamicItem[ui.Button], template=ids.STOP_DMS):
    """"Stop" on a direct message: the member's direct messages about games are turned off."""

    interaction_check = in_language

    def __init__(self, member: str) -> None:
        super().__init__(ui.Button(label=say(T("Stop these messages")), style=discord.ButtonStyle.secondary,
                                   custom_id=ids.stop_dms(member)))
        self.member = member

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(match["uid"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.notify.stop(interaction, self.member)


class Notify(commands.Cog):
    """Routes, direct messages, reminders, the end of games and lobbies about to close."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.members: Notifications = bot.service.notifications
        self._dm_channels: OrderedDict[str, int] = OrderedDict()  # member -> their DM channel id (bounded)

    @property
    def service(self):
        return self.bot.service

    # -- the wait of each player: its timers and what the board says --------------------------------------------
    async def pace(self, row: SessionRow):
        """The pace of ``row``'s game (:func:`bot.service.pace.pace_of`, over its channel's saved settings)."""
        return pace_of(row.meta, row.game_id, await self.bot.prefs.get(row.channel_id))

    async def idle_limit_ms(self, session_id: int) -> int:
        """When a seat of session ``session_id`` counts as idle (ms after its wait began; 0 = never): the move
        deadline of the game's pace (:meth:`pace`), the limit its AFK notice is posted at. 0 for no session (the
        service refuses the press for that)."""
        row = await self.service.reads.session(session_id)
        return (await self.pace(row)).deadline_ms if row is not None else 0

    async def wait_timers(self, update: Update, now: int) -> list[tuple]:
        """The timer rows (``Store.add_timers``' shape) of the wait of each person ``update``'s board waits on (the
        people its decisions name, or the missing people holding a live table's roll:
        :func:`bot.service.presence.waited_on`): a ``reminder`` per reminder of the game's pace (payload
        ``{"version", "player", "due"}``) and its ``afk`` deadline (``{"version", "player"}``), timed from the end
        of their time away."""
        row = update.session
        people = waited_on(row, update.state, update.pending)  # never an AI seat or a seat the AI stand-in plays
        if not people:
            return []
        pace = await self.pace(row)
        prefs = await self.members.prefs(people)
        rows = []
        for player in people:
            wait = plan_wait(pace, now, prefs[player].away_until)
            for due in wait.reminders:
                payload = {"version": row.version, "player": player, "due": wait.deadline}
                rows.append((row.id, row.channel_id, REMINDER, due, json.dumps(payload), now))
            if wait.deadline is not None:
                payload = {"version": row.version, "player": player}
                rows.append((row.id, row.channel_id, AFK, wait.deadline, json.dumps(payload), now))
        return rows

    async def board_lines(self, update: Update) -> list[str]:
        """The board's lines on time (in the table's language): when each person it waits on must move (a
        Discord timestamp), and who of them is away until when."""
        row = update.session
        people = waited_on(row, update.state, update.pending)
        if row.status != "active" or not people:
            return []
        pace = await self.pace(row)
        prefs = await self.members.prefs(people)
        now = self.service.clock()
        lines = []
        for player in people:
            wait = plan_wait(pace, now, prefs[player].away_until)
            if prefs[player].away(now):
                lines.append(say(T("💤 {player} is away until {date}.", player=mention(player),
                                   date=stamp(prefs[player].away_until, "D"))))
            if wait.deadline is not None:
                due = T("⏳ Move due {when} ({relative}).", when=stamp(wait.deadline, "f"),
                        relative=stamp(wait.deadline, "R")) if len(people) == 1 else \
                    T("⏳ {player}: move due {when} ({relative}).", player=mention(player),
                      when=stamp(wait.deadline, "f"), relative=stamp(wait.deadline, "R"))
                lines.append("-# " + say(due))
        return lines

    async def in_channel(self, update: Update, players: set[str]) -> set[str]:
        """Those of ``players`` a turn of ``update``'s game pings in its channel (their route and mutes)."""
        prefs = await self.members.prefs(players)
        return {p for p in players if prefs[p].in_channel(update.session.id)}

    # -- direct messages ---------------------------------------------------------------------------------------
    async def dm(self, player: str, text: str, row: SessionRow | None = None, board: int | None = None) -> bool:
        """Send ``text`` to ``player`` by direct message, with the Stop button. False when it did not go out: their
        direct messages are closed (50007: the first time, ``row``'s channel gets one ping instead, replying to
        ``board``, and they are told at their next interaction) or Discord failed (logged)."""
        if not player.isdigit():
            return False
        view = ui.View(timeout=None)
        view.add_item(StopDmsButton(player))
        try:
            channel_id = self._dm_channels.get(player)
            if channel_id is None:
                data = await self.bot.http.start_private_message(int(player))
                channel_id = int(data["id"])
                self._dm_channels[player] = channel_id
                while len(self._dm_channels) > MAX_DM_CHANNELS:
                    self._dm_channels.popitem(last=False)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(text[:2000], view=view, allowed_mentions=discord.AllowedMentions.none())
            return True
        except discord.HTTPException as exc:
            if exc.code != DMS_CLOSED:
                log.info("direct message to %s failed: %s", player, exc)
                return False
            if await self.members.dm_refused(player):
                if row is not None:
                    await self._fallback(row, player, board)
            return False
        finally:
            let_go(view)

    async def _fallback(self, row: SessionRow, player: str, board: int | None) -> None:
        """The one channel ping of a turn whose direct message Discord refused."""
        title = self.service.game(row.game_id).title
        text = say(T("🔔 {player}, {game} is waiting for your move (your direct messages are closed, so you are told "
                     "here).", player=mention(player), game=title))
        await self._say(row, text, [player], board)

    async def _say(self, row: SessionRow, text: str, pinged: list[str], board: int | None = None) -> None:
        """Post ``text`` in ``row``'s channel pinging ``pinged``, as a reply to message ``board`` when given."""
        users = [discord.Object(int(p)) for p in pinged if p.isdigit()]
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        kwargs = {}
        if board is not None:
            kwargs["reference"] = discord.MessageReference(message_id=int(board), channel_id=int(row.channel_id),
                                                           fail_if_not_exists=False)
        await self.bot.delivery.send(lambda: channel.send(text, allowed_mentions=mentions, **kwargs),
                                     what=T("a notice of session {sid}", sid=str(row.id)), channel_id=row.channel_id,
                                     session_id=row.id)

    async def board_of(self, row: SessionRow) -> int | None:
        """The message id of ``row``'s live board in its channel (after a restart: the stored one), or None."""
        board = self.bot.bookkeeper.boards.get(row.id) or (await self.bot.links.get(row.id)).get("board")
        return int(board[1]) if board and str(board[0]) == row.channel_id else None

    def where(self, row: SessionRow) -> Text:
        """"Tatari in Friends, #games": a game's title, its server and its channel."""
        guild = self.bot.get_guild(int(row.guild_id)) if row.guild_id and row.guild_id.isdigit() else None
        server = guild.name if guild is not None and guild.name else T("a server")
        channel = "<#" + row.channel_id + ">"
        return T("{game} in {server}, {channel}", game=self.service.game(row.game_id).title, server=server,
                 channel=channel)

    async def turn_started(self, update: Update, clicker: str | None, message_id: int | None) -> None:
        """A board of a new turn is out (message ``message_id``): one direct message to each person it names who
        chose them (not the one whose input caused it), with the digest of the game since their last move."""
        row = update.session
        named = {p for p in deciders(update.pending) if not is_ai(p)} - {clicker or ""}
        if row.status != "active" or not named:
            return
        prefs = await self.members.prefs(named)
        for player in sorted(p for p in named if prefs[p].by_dm(row.id)):
            try:
                lines = digest(update.game, row, await self.service.reads.moves(row.id), player)
            except Exception:  # a log that does not replay (never expected): the message goes without its digest
                log.exception("digest of session %s failed", row.id)
                lines = []
            text = [say(T("🎲 Your turn: {where}.", where=self.where(row))), jump(row.guild_id, row.channel_id,
                                                                              message_id)]
            if lines:
                text.append(say(T("Since your last move:")))
                text += ["• " + say(line, None, lambda p: display({}, p)) for line in lines]
            await self.dm(player, "\n".join(text), row, message_id)

    # -- reminders ---------------------------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_reminder_timer_complete(self, timer: Timer) -> None:
        """A reminder of a wait (the board is still the timer's version): one sentence to the player by their
        route — in the channel, replying to the live board; by direct message, linking it. None while the
        player is away or muted the game."""
        waiting = await waiting_on(self.bot, timer)
        if waiting is None:
            return
        row, player = waiting
        prefs = (await self.members.prefs({player}))[player]
        if prefs.away(self.service.clock()):
            return
        message = await self.board_of(row)
        due = timer.payload.get("due")
        title = self.service.game(row.game_id).title
        if prefs.by_dm(row.id):
            text = say(T("⏰ {where} is waiting for your move; it is due {when}.", where=self.where(row),
                         when=stamp(int(due), "R")) if due else
                       T("⏰ {where} is waiting for your move.", where=self.where(row)))
            await self.dm(player, text + "\n" + jump(row.guild_id, row.channel_id, message), row, message)
        if prefs.in_channel(row.id):
            text = say(T("⏰ {player}, {game} is waiting for your move; it is due {when}.", player=mention(player),
                         game=title, when=stamp(int(due), "R")) if due else
                       T("⏰ {player}, {game} is waiting for your move.", player=mention(player), game=title))
            if message is None:
                text += "\n" + jump(row.guild_id, row.channel_id)
            await self._say(row, text, [player], message)

    # -- the end of a game, a lobby about to close --------------------------------------------------------------
    async def end_pings(self, update: Update) -> list[str]:
        """The seated people the result message of ``update``'s game pings: those whose route is the channel
        (nobody in a channel whose pings are off)."""
        row = update.session
        if (await self.bot.prefs.get(row.channel_id)).get("pings", "turn") == "off":
            return []
        people = [p for p in row.players if not is_ai(p) and p.isdigit()]
        prefs = await self.members.prefs(people)
        return [p for p in people if prefs[p].in_channel(row.id)]

    async def ended(self, update: Update) -> None:
        """A game ended with a result: the result by direct message to each seated person who chose direct
        messages (the others are pinged by the result message, :meth:`end_pings`)."""
        row = update.session
        people = [p for p in row.players if not is_ai(p) and p.isdigit()]
        if not people or update.result is None:
            return
        prefs = await self.members.prefs(people)
        told = [p for p in people if prefs[p].by_dm(row.id)]
        if not told:
            return
        names = await self.bot.links.names(row.id)
        reason = say(update.result.reason, None, lambda p: display(names, p))
        for player in told:
            text = say(T("🏁 {where} is over: {reason}", where=self.where(row), reason=reason))
            await self.dm(player, text + "\n" + jump(row.guild_id, row.channel_id))

    async def arm_lobby(self, row: SessionRow, closes_ms: int) -> None:
        """Write the warning of lobby ``row`` (due an hour before it closes at ``closes_ms``; none for a lobby that
        lives an hour or less)."""
        due = closes_ms - WARN_BEFORE_MS
        if due > self.service.clock():
            await self.service.timers.add(row.channel_id, LOBBY_WARNING, due, {"closes_ms": closes_ms},
                                         session_id=row.id)

    @commands.Cog.listener()
    async def on_lobby_warning_timer_complete(self, timer: Timer) -> None:
        """A lobby closes in an hour: its seated people are told once (by their route)."""
        row = await self.service.reads.session(timer.session_id) if timer.session_id is not None else None
        if row is None or row.status != "lobby":
            return
        closes = int(timer.payload.get("closes_ms") or 0)
        if closes <= self.service.clock():  # fired late (the bot was down): the lobby closes now, no warning
            return
        people = [p for p in row.players if not is_ai(p) and p.isdigit()]
        prefs = await self.members.prefs(people)
        title = self.service.game(row.game_id).title
        pinged = [p for p in people if prefs[p].in_channel(row.id)]
        if pinged:
            await self._say(row, say(T("⌛ {players}: the {game} lobby closes {when} unless the host starts it "
                                       "(/start).", players=", ".join(mention(p) for p in pinged), game=title,
                                       when=stamp(closes, "R"))), pinged)
        for player in (p for p in people if prefs[p].by_dm(row.id)):
            await self.dm(player, say(T("⌛ The lobby of {where} closes {when} unless the host starts it.",
                                        where=self.where(row), when=stamp(closes, "R"))) + "\n" +
                          jump(row.guild_id, row.channel_id), row)

    # -- the member's choices ----------------------------------------------------------------------------------
    @app_commands.command(name="notify", description="How you hear that a game waits on you: channel, dm, both or off")
    @app_commands.describe(how="channel: a ping on the board; dm: a direct message instead; both; off: nothing",
                           game="mute or unmute this channel's game for you")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def notify(self, interaction: discord.Interaction,
                     how: Literal["channel", "dm", "both", "off"] | None = None,
                     game: Literal["mute", "unmute"] | None = None) -> None:
        """A member's own route (every game) and, in a game's channel, that game muted or not."""
        user = str(interaction.user.id)
        saved = []
        if game is not None:
            row = await self.service.reads.live_session(str(interaction.channel_id))
            if row is None or user not in row.players:
                raise SessionError(T("There is no game of yours in this channel to mute."))
            await self.members.mute(user, row.id, game == "mute")
            saved.append(T("{game} here is muted for you.", game=self.service.game(row.game_id).title)
                         if game == "mute" else
                         T("{game} here is no longer muted for you.", game=self.service.game(row.game_id).title))
        if how is not None:
            await self.members.choose(user, how)
        prefs = await self.members.of(user)
        text = [say(T("Saved."), reader_lang())] if saved or how is not None else []
        text += [say(s, reader_lang()) for s in saved]
        text.append(say(route_text(prefs), reader_lang()))
        await answer(interaction, " ".join(text))

    async def stop(self, interaction: discord.Interaction, member: str) -> None:
        """The Stop button of a direct message: that member's direct messages are off (their turns ping them in
        the channel). Only the member it was sent to may press it."""
        if str(interaction.user.id) != member:
            await answer(interaction, say(T("This button belongs to someone else's messages."), reader_lang()))
            return
        prefs = await self.members.of(member)
        route = {"dm": "channel", "both": "channel"}.get(prefs.route, prefs.route)
        prefs = await self.members.choose(member, route)
        await answer(interaction, say(T("Direct messages about your games are off. {route}", route=route_text(prefs)),
                                      reader_lang()))

    async def owes_note(self, member: str) -> bool:
        """Whether ``member`` is owed the note that their direct messages are closed (the store's word, read at
        most every ``PLAYER_CACHE_S`` per member). False while the store does not answer: the interaction's own
        answer says so, and the note waits for a later interaction."""
        if self.bot.store.down_since is not None:
            return False
        try:
            return await self.members.owes_note(member)
        except StoreUnavailable:
            return False

    async def note(self, interaction: discord.Interaction) -> None:
        """At a member's first interaction after Discord refused their direct messages (in any process, after a
        restart too: the store keeps the note owed): one ephemeral note, after the interaction's own answer."""
        user = str(interaction.user.id)
        try:
            if not await self.members.take_note(user):
                return
        except StoreUnavailable:  # still owed: told at a later interaction
            return
        for _ in range(300):  # the interaction's own answer first (at most its 3 s)
            if interaction.response.is_done():
                break
            await asyncio.sleep(0.01)
        if not interaction.response.is_done():
            return
        try:
            await followup(interaction, ephemeral=True, content=say(T(
                "Your direct messages are closed, so your turns are announced in the games' channels. Allow direct "
                "messages from this server's members, then /notify how:dm."), reader_lang()))
        except discord.HTTPException as exc:
            log.info("note about closed direct messages to %s failed: %s", user, exc)


def route_text(prefs: MemberPrefs) -> Text:
    """A member's route in words."""
    words = {"channel": T("a ping in the game's channel"), "dm": T("a direct message"),
             "both": T("a ping in the game's channel and a direct message"), "off": T("nothing")}[prefs.route]
    text = T("When a game waits on you: {how}.", how=words)
    if prefs.dm_closed and prefs.route in ("dm", "both"):
        text = T("{text} Your direct messages are closed, so the ping comes in the channel.", text=text)
    return text


__all__ = ["LOBBY_WARNING", "Notify", "StopDmsButton", "jump", "stamp"]
