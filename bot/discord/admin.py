"""Game management: ``/abandon`` (host or moderators), ``/undo`` with the other players' approval, the host's
"remove the idle player" button, and ``/settings`` (per channel: turn reminder, AFK limit, race window, pings; per
member: their own turn pings)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai_seats import is_ai
from bot.i18n import reader_lang, say
from bot.service.resignations import NotIdleYet, duration
from bot.service.timers import Timer
from bot.sessions import NOT_STARTED, SessionError
from games.core import T, Text, player_ref

from .answers import NO_PINGS, answer, update_message
from .components import AfkButton, SeatButton, UndoButton
from .cooldowns import Cooldown
from .language import channel_language
from .notify import stamp
from .present import display, mention
from .timers import waiting_on

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

UNDO_COOLDOWN_MS = 60_000
"""One undo request per member per this many ms (each request pings the other players)."""


class Admin(commands.Cog):
    """Abandon, undo, idle players, channel settings."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.undo_cooldown = Cooldown(UNDO_COOLDOWN_MS)

    @property
    def service(self):
        return self.bot.service

    @app_commands.command(name="abandon", description="End this channel's lobby or game without a result")
    @app_commands.default_permissions(manage_channels=True)
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction) -> None:
        update = await self.service.abandon(str(interaction.channel_id), str(interaction.user.id),
                                            moderator=self.bot.is_moderator(interaction))
        await self.bot.table.send_board(update, interaction)

    # -- undo -----------------------------------------------------------------------------------------------------
    @app_commands.command(name="undo", description="Ask the other players to take back the last move")
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        """A seated player asks to take back the last move; the others approve with the buttons (the service's
        undo rule, :meth:`bot.sessions.SessionService.ask_undo`). One request per member per
        :data:`UNDO_COOLDOWN_MS` (each pings the others)."""
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        wait = self.undo_cooldown.wait_s((channel, user), self.service.clock())
        if wait:
            raise SessionError(T("You asked for an undo a moment ago: try again in {wait} s.", wait=wait))
        try:
            vote = await self.service.ask_undo(channel, user)
        except SessionError as exc:
            self.undo_cooldown.release((channel, user))  # a refused request is not counted
            if str(exc) == NOT_STARTED:
                raise SessionError(T("The game has not started yet: there is nothing to undo.")) from None
            raise
        if vote.update is not None:  # alone against AI seats: taken back at once
            await self.bot.table.send_board(vote.update, interaction)
            return
        row = vote.session
        view = discord.ui.View(timeout=None)
        view.add_item(UndoButton(row.id, row.version, "y"))
        view.add_item(UndoButton(row.id, row.version, "n"))
        await answer(
            interaction,
            say(T("↩️ {player} asks to take back the last move. {waiting}: approve? (Any move meanwhile cancels the "
                  "request.)", player=mention(user), waiting=Text.join(T(", "), [mention(p) for p in vote.waiting]))),
            ephemeral=False,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(p)) for p in vote.waiting
                                                            if p.isdigit()]),
        )

    async def undo_vote(self, interaction: discord.Interaction, sid: int, ver: int, yes: bool) -> None:
        try:
            await self._undo_vote(interaction, sid, ver, yes)
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("undo vote failed (session %s)", sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; nothing changed."))

    async def _undo_vote(self, interaction: discord.Interaction, sid: int, ver: int, yes: bool) -> None:
        await self.service.board_row(str(interaction.channel_id), sid)  # this channel's running game, else refused
        user = str(interaction.user.id)
        # refused (an out-of-date request, someone not playing): only the presser is told; the message stays
        vote = await self.service.vote_undo(sid, ver, user, yes)
        if vote.refused_by is not None:
            await update_message(interaction, content=say(T("↩️ {player} refused to undo the last move.", player=mention(user))),
                                 view=None, allowed_mentions=NO_PINGS)
            return
        if vote.update is None:
            await update_message(
                interaction,
                content=say(T("↩️ {player} asks to take back the last move. Approved by {approved}; waiting for "
                              "{waiting}.", player=mention(vote.by),
                              approved=Text.join(T(", "), [mention(p) for p in vote.approved]),
                              waiting=Text.join(T(", "), [mention(p) for p in vote.waiting]))),
                allowed_mentions=NO_PINGS,
            )
            return
        await update_message(interaction, content=say(T("↩️ Everyone approved: the last move is taken back.")), view=None)
        await self.bot.table.send_board(vote.update, interaction)

    # -- idle players ---------------------------------------------------------------------------------------------
    async def remove_idle(self, interaction: discord.Interaction, sid: int, ver: int, seat: int) -> None:
        """The idle player of ``seat`` is removed (their resignation) once their move is due (the game's pace,
        :meth:`bot.discord.notify.Notify.idle_limit_ms`) — by a moderator or any other seated player still playing
        (the host may be the idle one). Every check is the service's
        (:meth:`bot.sessions.SessionService.remove_idle`); a refusal is ephemeral and changes nothing."""
        try:
            user = str(interaction.user.id)
            update = await self.service.remove_idle(
                str(interaction.channel_id), sid, ver, seat, user, await self.bot.notify.idle_limit_ms(sid),
                moderator=self.bot.is_moderator(interaction))
            idle = update.session.players[seat]
            await self.bot.table.send_board(update, interaction, notes=[T("{by} removed the idle {player}.", by=player_ref(user),
                                                                       player=player_ref(idle))])
        except NotIdleYet as exc:  # when the seat becomes idle, as a Discord timestamp
            await self.bot.answers.refuse(interaction, exc.when(stamp(exc.due_ms, "R")))
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("removing an idle player failed (session %s)", sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; nothing changed."))

    @commands.Cog.listener()
    async def on_afk_timer_complete(self, timer: Timer) -> None:
        """A player has not played for the channel's AFK hours: tell the others (and the host) that any of them may
        let the AI stand-in play for them (the first button, the default: :mod:`bot.discord.stand_in`) or remove
        them (the button :meth:`remove_idle` answers)."""
        waiting = await waiting_on(self.bot, timer)
        if waiting is None:
            return
        row, player = waiting
        if player not in row.players:
            return
        update = self.service.view(row)
        names = await self.bot.links.names(row.id)
        view = discord.ui.View(timeout=None)
        view.add_item(SeatButton(row.id, row.version, row.players.index(player), "ai",
                                 say(T("🤖 The AI plays for {player}", player=display(names, player)))))
        view.add_item(AfkButton(row.id, row.version, row.players.index(player),
                                label=say(T("Remove {player}", player=display(names, player)))))
        idle_ms = await self.bot.notify.idle_limit_ms(row.id)
        others = [p for p in dict.fromkeys([*row.players, row.host]) if p != player and not is_ai(p)]  # who may choose
        told = discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(int(p)) for p in others if p.isdigit()])
        text = say(T("💤 {player} has not played for {time}. {others}: any of you may let the AI play for them "
                     "until they are back, or remove them from the game (it counts as their resignation).",
                     player=display(names, player), time=duration(idle_ms),
                     others=Text.join(T(", "), [mention(p) for p in others])))
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        await self.bot.delivery.send(lambda: channel.send(text, view=view, allowed_mentions=told),
                                     what=T("the AFK notice of {game}", game=update.game.title), channel_id=row.channel_id,
                                     session_id=row.id)

    # -- kick -----------------------------------------------------------------------------------------------------
    @app_commands.command(name="kick", description="Remove a seated player from this channel's game (host or moderators)")
    @app_commands.describe(player="The seated player to remove (it counts as their resignation)")
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        """The host or a moderator removes a seated player: their resignation."""
        channel, user, target = str(interaction.channel_id), str(interaction.user.id), str(player.id)
        row = await self.service.reads.live_session(channel)
        if row is None or row.status != "active":
            raise SessionError(T("There is no running game in this channel."))
        if user != row.host and not self.bot.is_moderator(interaction):
            raise SessionError(T("Only the host, {host}, or a moderator can remove a player.", host=player_ref(row.host)))
        if target not in row.players:
            raise SessionError(T("{player} is not playing in this game.", player=player_ref(target)))
        update = await self.service.resign(channel, target, by=user)
        await self.bot.table.send_board(update, interaction, notes=[T("{by} removed {player} from the game.",
                                                                       by=player_ref(user), player=player_ref(target))])

    # -- settings -------------------------------------------------------------------------------------------------
    @app_commands.command(name="settings",
                          description="This channel's turn reminder, AFK limit, race window, pings and language")
    @app_commands.default_permissions(manage_channels=True)
    @app_commands.describe(
        reminder_hours="Mention the player whose turn it is after this many hours (0 = off)",
        afk_hours="After this many idle hours the host may remove the player (0 = off)",
        race_window_seconds="Reaction window of real-time games, seconds (new games)",
        pings="Notify the player whose turn starts (turn) or nobody (off), in this channel",
        language="The language of this channel's boards and messages: en (English) or ja (日本語)",
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[float, 0, 168] | None = None,
        afk_hours: app_commands.Range[float, 0, 720] | None = None,
        race_window_seconds: app_commands.Range[float, 1, 60] | None = None,
        pings: Literal["turn", "off"] | None = None,
        language: Literal["en", "ja"] | None = None,
    ) -> None:
        """Channel settings: moderators change them (the command is for Manage Channels by default);
        ``pings`` per channel. A member's own turn pings are :meth:`my_pings`."""
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        changes: dict[str, float | str] = {}
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        if afk_hours is not None:
            changes["afk_hours"] = afk_hours
        if race_window_seconds is not None:
            changes["race_window_ms"] = int(race_window_seconds * 1000)
        if pings is not None:
            changes["pings"] = pings
        if language is not None:
            changes["language"] = language
        if changes:
            if not self.bot.is_moderator(interaction):
                raise SessionError(T("Only members with Manage Channels or Manage Threads can change the channel's "
                                     "settings (your own turn pings: /pings)."))
            prefs = await self.bot.prefs.save(channel, changes)
        else:
            prefs = await self.bot.prefs.get(channel)
        muted = bool(await self.bot.links.muted([user]))
        lang = await channel_language(self.bot, channel, interaction.guild_locale)
        window = f"{prefs['race_window_ms'] / 1000:g}"
        text = T(
            "Settings of this channel: turn reminder {reminder}, AFK limit {afk}, race window {window} s, pings "
            "{pings}, language {language}. Your turn pings: {mine} (/pings).",
            reminder=_hours(prefs["reminder_hours"]), afk=_hours(prefs["afk_hours"]),
            window=window,
            pings=T("when a turn starts") if prefs.get("pings", "turn") == "turn" else T("off"),
            language=LANGUAGE_NAMES[lang] if prefs.get("language") else T("{language} (the server's)",
                                                                          language=LANGUAGE_NAMES[lang]),
            mine=T("off") if muted else T("on"),
        )
        if changes:
            text = T("Saved. {settings} (Reminders apply from the next move; race windows to new games.)",
                     settings=text)
        await answer(interaction, say(text, reader_lang()))

    @app_commands.command(name="pings", description="Your own turn pings, in every channel: on or off")
    @app_commands.describe(turn="off: you are never notified when your turn starts (the board still names you)")
    @app_commands.guild_only()
    async def my_pings(self, interaction: discord.Interaction, turn: Literal["on", "off"] | None = None) -> None:
        """A member's own turn pings, stored per member in ``discord_players``; any member may set
        theirs (``/settings`` is for channel managers)."""
        user = str(interaction.user.id)
        if turn is not None:
            await self.bot.links.set_muted(user, turn == "off")
        muted = bool(await self.bot.links.muted([user]))
        text = T("Your turn pings: {mine}, in every channel.", mine=T("off") if muted else T("on"))
        if turn is not None:
            text = T("Saved. {pings}", pings=text)
        await answer(interaction, say(text, reader_lang()))


LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
"""Each language by its own name (as a language menu shows it)."""


def _hours(h: float) -> Text:
    hours = f"{h:g}"
    return T("off") if not h else T("{hours} h", hours=hours)
