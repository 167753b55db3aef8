"""Lobbies: ``/play`` (options parsed against the game's ``Options`` model, optionally in a new thread), ``/join``,
``/leave``, ``/start`` and the Join / Leave / Start / Cancel buttons of the lobby card."""

from __future__ import annotations

import logging
import re
import typing
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

import games
from bot.ai_seats import level_of
from bot.i18n import reader_lang, say
from bot.rules_help import AI_LEVEL_TEXT
from bot.sessions import SessionError, Update
from games.ai import LEVELS

from . import permissions
from .answers import update_message
from .cooldowns import Cooldown
from .present import lobby_text, lobby_view

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

WINDOW_FIELDS = ("window_ms", "race_window_ms")
"""Option fields that take the channel's race window (``/settings``) when the lobby does not set them."""
PUBLIC_THREAD = 11
THREAD_ARCHIVE_MIN = 10080
"""A game thread archives after a week of silence at the most (and is unarchived while its game is live)."""

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
            raise SessionError(f"'{part}' is not key=value. {_known(game)}")
        if key not in fields:
            raise SessionError(f"{game.title} has no option '{key}'. {_known(game)}")
        out[key] = value
    try:
        game.options(out)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors())
        raise SessionError(f"Those options do not work for {game.title}: {problems}. {_known(game)}") from None
    return out


def _known(game: games.Game) -> str:
    parts = []
    for name in game.Options.model_fields:
        values = field_values(game.Options, name)
        parts.append(f"{name}=" + ("|".join(values) if values else "…"))
    return f"Options: {' '.join(parts)}." if parts else f"{game.title} has no options."


async def level_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
    """The AI levels (``games.ai.LEVELS``) that start with what was typed."""
    needle = current.lower().strip()
    return [app_commands.Choice(name=f"{lv} — {say(AI_LEVEL_TEXT.get(lv, ''), reader_lang())}"[:100], value=lv)
            for lv in LEVELS if lv.startswith(needle)]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
    """Every registered game whose title or id contains what was typed (read at use: games added later show)."""
    needle = current.lower().strip()
    try:
        found = games.all()
    except Exception:  # a broken game package must not break the command
        log.exception("the game registry failed to load")
        return []
    return [
        app_commands.Choice(name=f"{g.title} ({g.seats_summary()})"[:100], value=g.id)
        for g in found if needle in g.id or needle in g.title.lower()
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
        posted = await self.bot.table.send(interaction, channel_id or row.channel_id, text,
                                          view=lobby_view(row, update.game))
        if posted.message_id is not None:
            await self.bot.links.update(row.id, lobby=[channel_id or row.channel_id, str(posted.message_id)])
        self.bot.table.ended(update)  # a lobby closed by its last player leaving: forget it (bounded memory)

    async def options_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Suggest ``key=value`` completions of the last word from the chosen game's ``Options`` fields."""
        try:
            game = games.get(getattr(interaction.namespace, "game", None) or "")
        except KeyError:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        out = []
        for name in game.Options.model_fields:
            values = field_values(game.Options, name) or [str(game.Options.model_fields[name].default)]
            for v in values:
                token = f"{name}={v}"
                if token.startswith(last.lower()) or not last:
                    out.append(app_commands.Choice(name=(prefix + token)[:100], value=(prefix + token)[:100]))
        return out[:25]

    @app_commands.command(name="play", description="Open a lobby for a game in this channel (or a new thread)")
    @app_commands.describe(
        game="Which game",
        options="Game options as key=value pairs, e.g. first=random (autocompletes)",
        thread="Start the game in a new thread of this channel",
        ai="Seat this many AI players at once (the host can add or remove them in the lobby too)",
        level="How strong the AI players are: easy, normal (default) or strong",
    )
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete, level=level_autocomplete)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: str, options: str | None = None,
                   thread: bool = False, ai: app_commands.Range[int, 0, 10] = 0, level: str | None = None) -> None:
        g = self.service.game(game)
        if level is not None and not ai:
            raise SessionError("level: goes with ai:<n>, the number of AI players to seat (e.g. ai:1 level:strong).")
        try:
            level = level_of(level)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        lacking = permissions.missing(interaction.app_permissions, permissions.needed_for(g, thread))
        if lacking:
            raise SessionError(
                f"I can't run {g.title} {'in a thread of this channel' if thread else 'here'}: I am missing "
                f"{', '.join(lacking)}. Ask a moderator to grant {'it' if len(lacking) == 1 else 'them'} to me in "
                "this channel, then /play again."
            )
        opts = parse_options(g, options)
        prefs = await self.bot.prefs.get(str(interaction.channel_id))
        for name in WINDOW_FIELDS:
            if name in g.Options.model_fields and name not in opts:
                opts[name] = int(prefs["race_window_ms"])
        host, guild = str(interaction.user.id), str(interaction.guild_id) if interaction.guild_id else None
        channel = str(interaction.channel_id)
        if thread:
            if isinstance(interaction.channel, discord.Thread):
                raise SessionError("This is a thread already: run /play without thread:true here.")
            wait = self.thread_cooldown.wait_s((interaction.guild_id, interaction.user.id), self.service.clock())
            if wait:
                raise SessionError(f"You opened a game thread a moment ago: try again in {wait} s, or /play here.")
            busy = await self.service.live_session(channel)
            del busy  # a thread is its own channel: the parent may be busy
            if not interaction.response.is_done():  # (deferred already when its 3 s were running out)
                await interaction.response.defer(ephemeral=True, thinking=True)
            data = await self.bot.http.start_thread_without_message(
                interaction.channel_id, name=f"{g.title} — {interaction.user.display_name}"[:100],
                auto_archive_duration=THREAD_ARCHIVE_MIN, type=PUBLIC_THREAD,
                reason=f"/play {g.id} by {interaction.user.id}",
            )
            channel = str(data["id"])
            try:
                update = await self.service.open_lobby(channel, g.id, host, opts, guild_id=guild, ai_seats=ai,
                                                       ai_level=level)
                await self.bot.links.add_name(update.session.id, host, interaction.user.display_name)
                # the card is retried with backoff: the interaction is deferred, nothing else waits
                await self.bot.delivery.insist(lambda: self.send_card(None, update, channel),
                                               what=f"the {g.title} lobby card", channel_id=channel)
            except Exception as exc:  # a thread the bot could not use is removed, with its lobby: nothing left behind
                await self._remove_thread(channel)
                if isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.NotFound):
                    raise SessionError(self.unusable_thread(interaction, g.title, exc)) from exc
                raise
            await interaction.followup.send(f"The {g.title} lobby is open in <#{channel}>.", ephemeral=True)
            return
        update = await self.service.open_lobby(channel, g.id, host, opts, guild_id=guild, ai_seats=ai,
                                               ai_level=level)
        await self.bot.links.add_name(update.session.id, host, interaction.user.display_name)
        await self.send_card(interaction, update)

    @staticmethod
    def unusable_thread(interaction: discord.Interaction, title: str, exc: discord.HTTPException) -> str:
        """The refusal when the new thread's lobby card could not be posted: the permissions the bot lacks (a
        thread has its channel's), else Discord's answer."""
        from .delivery import describe

        lacking = permissions.missing(interaction.app_permissions, (
            "view_channel", "send_messages_in_threads", "read_message_history"))
        why = f"I am missing {', '.join(lacking)}" if lacking else f"Discord answered {describe(exc)}"
        return (f"I could not post the {title} lobby in the new thread ({why}), so I removed the thread. Ask a "
                "moderator to check my permissions in this channel's threads, or /play here without thread.")

    async def _remove_thread(self, channel: str) -> None:
        try:
            await self.service.close_place(channel, "its thread could not be used")
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
        await self.send_card(interaction, update)

    @app_commands.command(name="start", description="Start the game of this channel's lobby (the host)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        update = await self.service.start(str(interaction.channel_id), str(interaction.user.id))
        await self._started(interaction, update)

    async def _started(self, interaction: discord.Interaction, update: Update) -> None:
        card = (await self.bot.links.get(update.session.id)).get("lobby")
        await self.bot.table.send_board(update, interaction, first=True)
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
                raise SessionError("Pick one entry from the menu.")
            row = await self.service.session(sid)
            if row is None or row.channel_id != str(interaction.channel_id):
                raise SessionError("This menu does not belong to a lobby in this channel.")
            if row.status != "lobby":
                raise SessionError("The game is running: AI players are added or removed in the lobby, before "
                                   "the start." if row.status == "active" else "This lobby is closed.")
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
            await self.bot.table.refuse(interaction, str(exc))
        except Exception:
            log.exception("lobby AI %s failed (session %s)", action, sid)
            await self.bot.table.refuse(interaction, "Something went wrong on our side; nothing changed. Try again.")

    async def press(self, interaction: discord.Interaction, sid: int, action: str) -> None:
        """A lobby button: the card is edited in place (Join/Leave/Cancel) or the board follows (Start)."""
        try:
            await self._press(interaction, sid, action)
        except SessionError as exc:
            await self.bot.table.refuse(interaction, str(exc))
        except Exception:
            log.exception("lobby %s failed (session %s)", action, sid)
            await self.bot.table.refuse(interaction, "Something went wrong on our side; nothing changed. Try again.")

    async def _press(self, interaction: discord.Interaction, sid: int, action: str) -> None:
        if interaction.user.bot:
            return
        row = await self.service.session(sid)
        if row is None or row.channel_id != str(interaction.channel_id):
            await self.bot.table.refuse(interaction, "This button does not belong to a lobby in this channel.")
            return
        if row.status != "lobby":
            await self.bot.table.refuse(interaction, "This lobby is closed" + (
                ": the game is running (/board shows it)." if row.status == "active" else ". Open one with /play."))
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
            return
        await update_message(
            interaction, content=lobby_text(update.session, update.game, update.notes),
            view=lobby_view(update.session, update.game),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.bot.table.ended(update)  # a cancelled lobby: forget it (bounded memory)
