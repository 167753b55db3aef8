"""Lobbies: ``/play`` (options parsed against the game's ``Options`` model, optionally in a new thread), ``/join``,
``/leave``, ``/start`` and the Join / Leave / Start / Cancel buttons of the lobby card.

A lobby never blocks its channel for ever: when it opens, a durable ``lobby_expiry`` timer is written, due
``Settings.lobby_hours`` later (a lobby already open when the bot starts without one gets it then, due a full period
later). A lobby still not started when it fires is closed (abandoned, reason in its meta) with a public line, and its
card says why and loses its buttons. Starting or cancelling the lobby removes the timer."""

from __future__ import annotations

import logging
import re
import typing
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

import games
from bot.ai_seats import LEVEL_NAMES, level_of
from bot.i18n import SOURCE, reader_lang, refusal, say
from bot.matching import find_game, matches, names_of
from bot.service.timers import Timer
from bot.sessions import SessionError, Update, option_problems
from bot.store import SessionRow
from games.ai import LEVELS
from games.core import N, T, Text

from . import permissions
from .answers import update_message
from .cooldowns import Cooldown
from .notify import LOBBY_WARNING, WARN_BEFORE_MS
from .present import level_text, lobby_text, lobby_view, mention

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

WINDOW_FIELDS = ("window_ms", "race_window_ms")
PRESENCE = "presence"
"""The option of a live game's presence (``TatamokatsuOptions.presence``): on for every game opened on Discord."""
"""Option fields that take the channel's race window (``/settings``) when the lobby does not set them."""
PUBLIC_THREAD = 11
THREAD_ARCHIVE_MIN = 10080
"""A game thread archives after a week of silence at the most (and is unarchived while its game is live)."""

LOBBY_EXPIRY = "lobby_expiry"
"""Timer kind of a lobby's expiry (payload ``{"hours": float}``, the period it was armed with)."""
HOUR_MS = 3_600_000

THREAD_COOLDOWN_MS = 120_000
"""One game thread per member per this many ms (/play thread:true created unlimited threads)."""


def field_values(model: type[BaseModel], name: str) -> list[str]:
    """The values a field accepts when they are few (Literal, Enum, bool); [] otherwise."""
    ann = model.model_fields[name].annotation
    if ann is bool:
        return ["true", "false"]
    if typing.get_origin(ann) is typing.Literal:
        return [str(v) for v in typing.get_args(ann)]
    if isinstance(ann, type) and issubclass(ann, __import__("enum").Enum):
        return [str(m.value) for m in ann]
    return []


def parse_options(game: games.Game, text: str | None) -> dict[str, Any]:
    """``"key=value key2=value2"`` (spaces or commas between) -> a dict checked against ``game.Options``.
    Raises :class:`SessionError` naming the bad part and the valid keys."""
    fields = game.Options.model_fields
    out: dict[str, Any] = {}
    for part in filter(None, re.split(r"[\s,;]+", text or "")):
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not key or not value:
            raise SessionError(T("'{part}' is not key=value. {known}", part=part, known=_known(game)))
        if key not in fields:
            raise SessionError(T("{game} has no option '{option}'. {known}", game=game.title, option=key,
                                 known=_known(game)))
        out[key] = value
    try:
        game.options(out)
    except ValidationError as exc:
        raise SessionError(T("Those options do not work for {game}: {problems}. {known}", game=game.title,
                             problems=option_problems(exc), known=_known(game))) from None
    return out


def _known(game: games.Game) -> Text:
    parts = []
    for name in game.Options.model_fields:
        values = field_values(game.Options, name)
        parts.append(f"{name}=" + ("|".join(values) if values else "…"))
    if parts:
        return T("Options: {options}.", options=" ".join(parts))
    return T("{game} has no options.", game=game.title)


async def level_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
    """The AI levels (``games.ai.LEVELS``) whose id, or name or reading in any language, starts with what was typed
    (:func:`bot.matching.matches`: "つよ", "ツヨ", "強" and "str" find 強い（strong）; shown as "強い — …" in Japanese,
    "strong — …" in English)."""
    lang = reader_lang()
    names = {lv: say(LEVEL_NAMES.get(lv, lv), lang) if lang != SOURCE else lv for lv in LEVELS}
    return [app_commands.Choice(name=f"{names[lv]} — {level_text(lv, lang) or ''}"[:100], value=lv)
            for lv in LEVELS if matches(current, names_of(lv, LEVEL_NAMES.get(lv, lv)), prefix=True)]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
    """Every registered game whose id, title or reading in any language holds what was typed (read at use: games
    added later show; :func:`bot.matching.matches`: "たた", "ﾀﾀ", "つきみ" and "Tsu" all find their games)."""
    lang = reader_lang()
    try:
        found = games.all()
    except Exception:  # a broken game package must not break the command
        log.exception("the game registry failed to load")
        return []
    return [
        app_commands.Choice(name=say(T("{game} ({seats})", game=g.title, seats=g.seats_summary()), lang)[:100],
                            value=g.id)
        for g in found if matches(current, names_of(g.id, g.title))
    ][:25]


class Lobby(commands.Cog):
    """Opening, joining and starting games."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.thread_cooldown = Cooldown(THREAD_COOLDOWN_MS)

    @property
    def service(self):
        return self.bot.service

    async def send_card(self, interaction: discord.Interaction | None, update: Update, channel_id: str | None = None,
                        notes: list[str] = ()) -> None:
        """Post the lobby card (as the interaction's answer, or in ``channel_id``) and remember it."""
        row = update.session
        text = lobby_text(row, update.game, [*update.notes, *notes])
        posted = await self.bot.answers.send(interaction, channel_id or row.channel_id, text,
                                                view=lobby_view(row, update.game))
        if posted.message_id is not None:
            await self.bot.links.update(row.id, lobby=[channel_id or row.channel_id, str(posted.message_id)])
        self.bot.table.ended(update)  # a lobby closed by its last player leaving: forget it (bounded memory)

    async def refresh_card(self, update: Update) -> None:
        """Edit the posted card of lobby ``update.session`` to show it as it stands (a join made elsewhere, e.g.
        the Rematch button); nothing when no card is known."""
        row = update.session
        card = (await self.bot.links.get(row.id)).get("lobby")
        if not card or str(card[0]) != row.channel_id:
            return
        message = self.bot.get_partial_messageable(int(card[0])).get_partial_message(int(card[1]))
        text, view = lobby_text(row, update.game, update.notes), lobby_view(row, update.game)
        await self.bot.delivery.send(
            lambda: message.edit(content=text, view=view, allowed_mentions=discord.AllowedMentions.none()),
            what=T("the {game} lobby card", game=update.game.title), channel_id=row.channel_id, session_id=row.id)

    async def options_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Suggest ``key=value`` completions of the last word from the chosen game's ``Options`` fields."""
        game = find_game(getattr(interaction.namespace, "game", None) or "")
        if game is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        out = []
        for name in game.Options.model_fields:
            values = field_values(game.Options, name) or [str(game.Options.model_fields[name].default)]
            for v in values:
                token = f"{name}={v}"
                if token.startswith(last.lower()) or not last:  # an empty default: "layout=…", a value to type
                    out.append(app_commands.Choice(name=(prefix + token + ("" if v else "…"))[:100],
                                                   value=(prefix + token)[:100]))
        return out[:25]

    @app_commands.command(name="play", description="Open a lobby for a game in this channel (or a new thread)")
    @app_commands.describe(
        game="Which game",
        options="Game options as key=value pairs, e.g. first=random (autocompletes)",
        thread="Start the game in a new thread of this channel",
        ai="Seat this many AI players at once (the host can add or remove them in the lobby too)",
        level="How strong the AI players are: easy, normal (default) or strong",
        pace="Reminders and move deadline: live, fast, day or week (default: the channel's settings)",
        hints="Allow /hint, the strong AI's advice (a hinted game is unrated); default: on unless 2+ people play",
    )
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete, level=level_autocomplete)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: str, options: str | None = None,
                   thread: bool = False, ai: app_commands.Range[int, 0, 10] = 0, level: str | None = None,
                   pace: Literal["live", "fast", "day", "week"] | None = None, hints: bool | None = None) -> None:
        g = self.service.game(game)
        if level is not None and not ai:
            raise SessionError(T("level: goes with ai:<n>, the number of AI players to seat (e.g. ai:1 "
                                 "level:strong)."))
        try:
            level = level_of(level)
        except ValueError as exc:
            raise SessionError(refusal(exc)) from None
        lacking = permissions.missing(interaction.app_permissions, permissions.needed_for(g, thread))
        if lacking:
            missing = Text.join(T(", "), lacking)
            if thread:
                raise SessionError(N("I can't run {game} in a thread of this channel: I am missing {missing}. Ask a "
                                     "moderator to grant it to me in this channel, then /play again.",
                                     "I can't run {game} in a thread of this channel: I am missing {missing}. Ask a "
                                     "moderator to grant them to me in this channel, then /play again.",
                                     n=len(lacking), game=g.title, missing=missing))
            raise SessionError(N("I can't run {game} here: I am missing {missing}. Ask a moderator to grant it to me "
                                 "in this channel, then /play again.",
                                 "I can't run {game} here: I am missing {missing}. Ask a moderator to grant them to "
                                 "me in this channel, then /play again.", n=len(lacking), game=g.title,
                                 missing=missing))
        opts = parse_options(g, options)
        prefs = await self.bot.prefs.get(str(interaction.channel_id))
        for name in WINDOW_FIELDS:
            if name in g.Options.model_fields and name not in opts:
                opts[name] = int(prefs["race_window_ms"])
        if PRESENCE in g.Options.model_fields and PRESENCE not in opts:
            opts[PRESENCE] = True  # a chat table: the roll waits for players who missed a race (bot.service.presence)
        host, guild = str(interaction.user.id), str(interaction.guild_id) if interaction.guild_id else None
        channel = str(interaction.channel_id)
        if thread:
            if isinstance(interaction.channel, discord.Thread):
                raise SessionError(T("This is a thread already: run /play without thread:true here."))
            wait = self.thread_cooldown.wait_s((interaction.guild_id, interaction.user.id), self.service.clock())
            if wait:
                raise SessionError(T("You opened a game thread a moment ago: try again in {wait} s, or /play here.",
                                       wait=wait))
            busy = await self.service.reads.live_session(channel)
            del busy  # a thread is its own channel: the parent may be busy
            if not interaction.response.is_done():  # (deferred already when its 3 s were running out)
                await interaction.response.defer(ephemeral=True, thinking=True)
            data = await self.bot.http.start_thread_without_message(
                interaction.channel_id, name=f"{say(g.title)} — {interaction.user.display_name}"[:100],
                auto_archive_duration=THREAD_ARCHIVE_MIN, type=PUBLIC_THREAD,
                reason=f"/play {g.id} by {interaction.user.id}",
            )
            channel = str(data["id"])
            try:
                update = await self.service.open_lobby(channel, g.id, host, opts, guild_id=guild, ai_seats=ai,
                                                       ai_level=level, pace=pace, hints=hints)
                await self.arm(update.session)
                await self.bot.links.add_name(update.session.id, host, interaction.user.display_name)
                # the card is retried with backoff: the interaction is deferred, nothing else waits
                await self.bot.delivery.insist(lambda: self.send_card(None, update, channel),
                                               what=T("the {game} lobby card", game=g.title), channel_id=channel)
            except Exception as exc:  # a thread the bot could not use is removed, with its lobby: nothing left behind
                await self._remove_thread(channel)
                if isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.NotFound):
                    raise SessionError(self.unusable_thread(interaction, g.title, exc)) from exc
                raise
            await interaction.followup.send(say(T("The {game} lobby is open in {channel}.", game=g.title,
                                                  channel="<#" + channel + ">"), reader_lang()), ephemeral=True)
            return
        update = await self.service.open_lobby(channel, g.id, host, opts, guild_id=guild, ai_seats=ai,
                                               ai_level=level, pace=pace, hints=hints)
        await self.arm(update.session)
        await self.bot.links.add_name(update.session.id, host, interaction.user.display_name)
        await self.send_card(interaction, update)

    @staticmethod
    def unusable_thread(interaction: discord.Interaction, title: str, exc: discord.HTTPException) -> Text:
        """The refusal when the new thread's lobby card could not be posted: the permissions the bot lacks (a
        thread has its channel's), else Discord's answer."""
        from .delivery import describe

        lacking = permissions.missing(interaction.app_permissions, (
            "view_channel", "send_messages_in_threads", "read_message_history"))
        why = (T("I am missing {missing}", missing=Text.join(T(", "), lacking)) if lacking
               else T("Discord answered {answer}", answer=describe(exc)))
        return T("I could not post the {game} lobby in the new thread ({why}), so I removed the thread. Ask a "
                 "moderator to check my permissions in this channel's threads, or /play here without thread.",
                 game=title, why=why)

    async def _remove_thread(self, channel: str) -> None:
        try:
            await self.service.close_place(channel, T("its thread could not be used"))
        except Exception:
            log.exception("closing the lobby of unusable thread %s failed", channel)
        try:
            await self.bot.http.delete_channel(int(channel), reason="the game's thread could not be used")
        except discord.HTTPException as exc:
            log.warning("could not remove unusable thread %s: %s", channel, exc)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        update = await self.service.join(str(interaction.channel_id), str(interaction.user.id))
        await self.bot.links.add_name(update.session.id, str(interaction.user.id), interaction.user.display_name)
        await self.send_card(interaction, update)

    @app_commands.command(name="leave", description="Leave this channel's lobby (a running game: /resign)")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        update = await self.service.leave(str(interaction.channel_id), str(interaction.user.id))
        await self.disarm(update)
        await self.send_card(interaction, update)

    @app_commands.command(name="start", description="Start the game of this channel's lobby (the host)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        update = await self.service.start(str(interaction.channel_id), str(interaction.user.id))
        await self._started(interaction, update)

    async def _started(self, interaction: discord.Interaction, update: Update) -> None:
        card = (await self.bot.links.get(update.session.id)).get("lobby")
        await self.bot.table.send_board(update, interaction, first=True)
        await self.disarm(update)
        if card:
            self.bot.spawn(self.bot.table.strip(card[0], card[1]), f"strip lobby card of session {update.session.id}")

    async def ai_select(self, interaction: discord.Interaction, sid: int, action: str, values: list[str]) -> None:
        """The lobby card's "Add AI" (``action`` ``add``, values: a level) or "Remove AI" (``remove``, values: an AI
        seat's id) select: the host only, before the start; the card is edited in place. Refusals are
        ephemeral and change nothing."""
        try:
            if interaction.user.bot:
                return
            if len(values) != 1:
                raise SessionError(T("Pick one entry from the menu."))
            row = await self.service.reads.session(sid)
            if row is None or row.channel_id != str(interaction.channel_id):
                raise SessionError(T("This menu does not belong to a lobby in this channel."))
            if row.status != "lobby":
                raise SessionError(T("The game is running: AI players are added or removed in the lobby, before "
                                     "the start.") if row.status == "active" else T("This lobby is closed."))
            user = str(interaction.user.id)
            if action == "add":
                update = await self.service.add_ai(row.channel_id, user, values[0])
            else:
                update = await self.service.remove_ai(row.channel_id, user, values[0])
            await update_message(
                interaction, content=lobby_text(update.session, update.game, update.notes),
                view=lobby_view(update.session, update.game), allowed_mentions=discord.AllowedMentions.none(),
            )
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("lobby AI %s failed (session %s)", action, sid)
            await self.bot.answers.refuse(interaction,
                                          T("Something went wrong on our side; nothing changed. Try again."))

    async def press(self, interaction: discord.Interaction, sid: int, action: str) -> None:
        """A lobby button: the card is edited in place (Join/Leave/Cancel) or the board follows (Start)."""
        try:
            await self._press(interaction, sid, action)
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("lobby %s failed (session %s)", action, sid)
            await self.bot.answers.refuse(interaction,
                                          T("Something went wrong on our side; nothing changed. Try again."))

    async def _press(self, interaction: discord.Interaction, sid: int, action: str) -> None:
        if interaction.user.bot:
            return
        row = await self.service.reads.session(sid)
        if row is None or row.channel_id != str(interaction.channel_id):
            await self.bot.answers.refuse(interaction, T("This button does not belong to a lobby in this channel."))
            return
        if row.status != "lobby":
            await self.bot.answers.refuse(interaction, T("This lobby is closed: the game is running (/board shows it).")
                                          if row.status == "active"
                                          else T("This lobby is closed. Open one with /play."))
            return
        channel, user = row.channel_id, str(interaction.user.id)
        if action == "join":
            update = await self.service.join(channel, user)
            await self.bot.links.add_name(sid, user, interaction.user.display_name)
        elif action == "leave":
            update = await self.service.leave(channel, user)
        elif action == "cancel":
            update = await self.service.cancel(channel, user, moderator=self.bot.is_moderator(interaction))
        else:
            update = await self.service.start(channel, user)
            await update_message(interaction, content=lobby_text(update.session, update.game), view=None)
            await self.bot.table.send_board(update, interaction, first=True)
            await self.disarm(update)
            if update.game.live:
                await self.call_the_table(update)
            return
        await self.disarm(update)
        await update_message(
            interaction, content=lobby_text(update.session, update.game, update.notes),
            view=lobby_view(update.session, update.game),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.bot.table.ended(update)  # a cancelled lobby: forget it (bounded memory)

    async def call_the_table(self, update: Update) -> None:
        """A live game (``Game.live``) started: one line pinging every seated person once, since every roll opens
        a race of a few seconds."""
        row = update.session
        people = [p for p in row.players if p.isdigit()]
        if not people:
            return
        text = say(T("⚡ {players}: {game} begins, all of you in this channel now: every roll opens a race of a few "
                     "seconds.", players=Text.join(T(", "), [mention(p) for p in people]), game=update.game.title))
        told = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(p)) for p in people])
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        await self.bot.delivery.send(lambda: channel.send(text, allowed_mentions=told),
                                     what=T("the start call of {game}", game=update.game.title),
                                     channel_id=row.channel_id, session_id=row.id)

    # -- expiry (a lobby nobody starts never blocks its channel) ------------------------------------------------------
    async def arm(self, row: SessionRow) -> None:
        """Write the expiry timer (``lobby_expiry``) of lobby ``row`` (just opened, or found without one at
        start-up), due ``Settings.lobby_hours`` from now (ms, the service clock)."""
        hours = float(self.bot.settings.lobby_hours)
        due = self.service.clock() + int(hours * HOUR_MS)
        await self.service.timers.add(row.channel_id, LOBBY_EXPIRY, due, {"hours": hours}, session_id=row.id)
        await self.bot.notify.arm_lobby(row, due)  # its seated members are told an hour before
        self.bot.timers.wake_before(due - WARN_BEFORE_MS)

    async def disarm(self, update: Update) -> None:
        """The lobby of ``update`` started or closed: its expiry timer goes (a stale one would be ignored anyway)."""
        if update.session.status != "lobby":
            await self.service.timers.clear(update.session.id, [LOBBY_EXPIRY, LOBBY_WARNING])

    async def restore(self) -> int:
        """At start-up: every lobby open without an expiry timer (opened by a version without one, or by a bot
        whose timer write failed) gets one, due a full ``Settings.lobby_hours`` from now. Returns how many were
        armed."""
        armed = 0
        for row in await self.service.reads.live_sessions():
            if row.status != "lobby":
                continue
            try:
                if not any(t.kind == LOBBY_EXPIRY for t in await self.service.timers.of(row.id)):
                    await self.arm(row)
                    armed += 1
            except Exception:
                log.exception("could not arm the expiry of lobby %s", row.id)
        return armed

    @commands.Cog.listener("on_lobby_expiry_timer_complete")
    async def expire(self, timer: Timer) -> None:
        """A lobby's expiry is due: if it is still a lobby, close it — its card says why and loses its buttons,
        and a public line tells the channel it is free. Nothing happens to a lobby started or closed meanwhile."""
        if timer.session_id is None:
            return
        hours = float(timer.payload.get("hours") or self.bot.settings.lobby_hours)
        update = await self.service.expire_lobby(timer.session_id, f"nobody started it within {hours:g} h")
        if update is None:
            return
        row, game = update.session, update.game
        self.bot.table.ended(update)  # forget it (bounded memory)
        shown = f"{hours:g}"
        why = T("⌛ Nobody started this lobby within {hours} h, so it closed itself.", hours=shown)
        card = (await self.bot.links.get(row.id)).get("lobby")
        if card and str(card[0]) == row.channel_id:
            message = self.bot.get_partial_messageable(int(card[0])).get_partial_message(int(card[1]))
            text = lobby_text(row, game, [why])
            try:
                await self.bot.delivery.send(
                    lambda: message.edit(content=text, view=None, allowed_mentions=discord.AllowedMentions.none()),
                    what=T("the closed {game} lobby card", game=game.title), channel_id=row.channel_id, session_id=row.id)
            except discord.HTTPException as exc:  # the card was deleted: the line below still tells the channel
                log.info("the card of expired lobby %s was not edited: %s", row.id, exc)
        line = say(T("⌛ The {game} lobby closed itself: nobody started it within {hours} h. The channel is free: "
                     "/play opens a new game.", game=game.title, hours=shown))
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        await self.bot.delivery.send(lambda: channel.send(line, allowed_mentions=discord.AllowedMentions.none()),
                                     what=T("the closing line of the {game} lobby", game=game.title), channel_id=row.channel_id,
                                     session_id=row.id)
