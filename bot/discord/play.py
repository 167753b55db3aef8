"""Playing: the board message after every change, choice buttons and selects, ``/move`` (autocomplete), ``/board``,
``/history``, ``/resign``, ``/rules``, ``/help``.

Every handler parses Discord input, calls :class:`bot.sessions.SessionService`, and answers with
:meth:`Play.send_board`. Refusals are ephemeral one-liners (:meth:`Play.refuse`). A press carries
``(session, version, decision, option)`` (see :mod:`bot.discord.ids`); the move is applied with
``expect_version`` so a stale or double click can never reach another state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.sessions import SessionError, StaleBoard, Update
from bot.store import SessionRow
from games import Decision

from .freshness import BoardFloors
from .lobby import game_autocomplete
from .present import (
    as_mentions,
    as_names,
    board_text,
    board_view,
    display,
    page_view,
    pings,
    png_file,
)

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000
RENDER_BUDGET_S = 2.0
"""Longer than this and the interaction is deferred first (Discord's deadline is 3 s)."""
NO_PINGS = discord.AllowedMentions.none()
STALE = "This board is out of date — here is the current one."


@dataclass
class Posted:
    """A message just sent: its id (None when Discord did not say) and how to attach a file to it later."""

    message_id: int | None
    attach: Callable[[discord.File], Awaitable[Any]]


def snowflake_ms(snowflake: int) -> int:
    """Discord's clock: the ms timestamp inside a snowflake id (RULINGS TK-10)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


def is_moderator(interaction: discord.Interaction) -> bool:
    """Manage Channels or Manage Threads in this channel."""
    perms = interaction.permissions
    return bool(perms.manage_channels or perms.manage_threads)


class Play(commands.Cog):
    """Boards and moves."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._prefs: dict[str, dict[str, float]] = {}
        self.floors = BoardFloors()

    @property
    def service(self):
        return self.bot.service

    # -- channel settings -----------------------------------------------------------------------------------------
    def defaults(self) -> dict[str, float]:
        s = self.bot.settings
        return {"reminder_hours": s.reminder_hours, "afk_hours": s.afk_hours, "race_window_ms": s.race_window_ms}

    async def prefs(self, channel_id: str) -> dict[str, float]:
        """The channel's settings over the defaults: ``reminder_hours``, ``afk_hours`` (h, 0 = off),
        ``race_window_ms`` (ms). Cached; :meth:`save_prefs` updates the cache."""
        cached = self._prefs.get(channel_id)
        if cached is None:
            cached = {**self.defaults(), **await self.service.store.channel_settings(channel_id)}
            self._prefs[channel_id] = cached
        return cached

    def prefs_cached(self, channel_id: str) -> dict[str, float]:
        return self._prefs.get(channel_id) or self.defaults()

    async def save_prefs(self, channel_id: str, changes: dict[str, float]) -> dict[str, float]:
        stored = {**await self.service.store.channel_settings(channel_id), **changes}
        await self.service.store.save_channel_settings(channel_id, stored)
        self._prefs.pop(channel_id, None)
        return await self.prefs(channel_id)

    # -- answering ----------------------------------------------------------------------------------------------
    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """A short ephemeral answer (``{@id}`` refs become mentions, which do not ping in ephemeral messages)."""
        text = as_mentions(text)[:2000]
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not answer interaction %s in channel %s", interaction.id, interaction.channel_id)

    async def send(
        self,
        interaction: discord.Interaction | None,
        channel_id: str,
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
        ephemeral: bool = False,
    ) -> Posted:
        """Send one message: the interaction's response, else its follow-up, else a plain channel message."""
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction is not None:
                if not interaction.response.is_done():
                    resp = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
                    return Posted(resp.message_id, lambda f: interaction.edit_original_response(attachments=[f]))
                msg = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
            else:
                msg = await self.bot.get_partial_messageable(int(channel_id)).send(**kwargs)
            return Posted(msg.id, lambda f: msg.edit(attachments=[f]))
        finally:
            if view is not None:
                view.stop()  # its items are DynamicItems: presses are dispatched by template, not by this object

    async def _image(self, interaction: discord.Interaction | None, task: asyncio.Future) -> bytes | None:
        """Wait for a render; defer the interaction when it outlasts :data:`RENDER_BUDGET_S`."""
        if interaction is None or interaction.response.is_done():
            return await task
        try:
            return await asyncio.wait_for(asyncio.shield(task), RENDER_BUDGET_S)
        except TimeoutError:
            await interaction.response.defer(ephemeral=True, thinking=True)  # the board follows as a new message
            return await task

    async def send_board(
        self,
        update: Update,
        interaction: discord.Interaction | None = None,
        *,
        ephemeral: bool = False,
        notes: list[str] = (),
    ) -> None:
        """Post ``update`` as one message (image, events, components for the pending decisions); a public board
        becomes the session's board (the previous one loses its components) and resets its turn timers.

        Answering a player: the image is awaited at most ``bot.image_wait_s``; a slower render does not hold the
        reply — the message goes out with its text and components and the image is attached to that same message
        (an edit) as soon as it is ready."""
        row = update.session
        try:
            names = await self.bot.links.names(row.id)
            task = asyncio.ensure_future(self.bot.images.png(row, update.state, names))
            if interaction is not None and not ephemeral:
                done, _ = await asyncio.wait({task}, timeout=self.bot.image_wait_s)
                png = task.result() if done else None
            else:
                png = await self._image(interaction, task)
            text = board_text(update, notes=list(notes))
            view = board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                              emoji=self.bot.races.button_emoji(update)) if row.status == "active" else None
            posted = await self.send(interaction, row.channel_id, text, file=png_file(png, row.id, row.version),
                                     view=view, mentions=NO_PINGS if ephemeral else pings(update.pending),
                                     ephemeral=ephemeral)
            if not task.done() or (png is None and task.result() is not None):
                self.bot.spawn(self._attach(task, posted, row), f"image of board v{row.version} of session {row.id}")
        except Exception:
            # the change is committed already: say so instead of pretending nothing happened
            log.exception("posting board v%s of session %s failed", row.version, row.id)
            try:
                await self.send(interaction, row.channel_id, "Done — but the board could not be posted. "
                                "Use /board to see it.", ephemeral=interaction is not None)
            except Exception:
                log.warning("fallback message of session %s failed too", row.id)
            return
        if not ephemeral:
            await self._posted(update, posted.message_id)

    async def _attach(self, task: asyncio.Future, posted: Posted, row: SessionRow) -> None:
        """Attach a late image to the board message it belongs to."""
        png = await task
        if png is not None:
            await posted.attach(png_file(png, row.id, row.version))

    async def post(self, update: Update) -> None:
        """Post ``update`` to its channel without an interaction (timers)."""
        await self.send_board(update)

    async def _posted(self, update: Update, message_id: int | None) -> None:
        """After a public board: queue the bookkeeping (remember it, strip the old board's components, reset the
        reminder and AFK timers — batched, see :mod:`bot.discord.bookkeeping`)."""
        prefs = await self.prefs(update.session.channel_id)
        self.bot.bookkeeper.add(update, message_id, prefs)
        await self.bot.races.posted(update, message_id)

    async def strip(self, channel_id: str, message_id: str) -> None:
        """Remove the components of an old message (its buttons would only be refused as stale)."""
        msg = self.bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
        try:
            await msg.edit(view=None)
        except discord.HTTPException:
            pass

    # -- components ---------------------------------------------------------------------------------------------
    async def _current(self, interaction: discord.Interaction, sid: int, ver: int) -> Update | None:
        """The session a component names as it stands, if that board (version ``ver``) is still the current one;
        else the press is refused (not this channel's, not running, or out of date) and None returned."""
        row = await self._board_row(interaction, sid)
        if row is None:
            return None
        if row.version != ver:
            await self.stale(interaction)
            return None
        return self.service.view(row)

    async def _board_row(self, interaction: discord.Interaction, sid: int) -> SessionRow | None:
        """The session a component names, if it belongs to this channel and is running; else refuse."""
        row = await self.service.store.session(sid)
        if row is None or row.channel_id != str(interaction.channel_id):
            await self.refuse(interaction, "This button does not belong to a game in this channel.")
            return None
        if row.status == "lobby":
            await self.refuse(interaction, "The game has not started yet: the host can /start it.")
            return None
        if row.status != "active":
            await self.refuse(interaction, "This game is over. Start a new one with /play.")
            return None
        return row

    async def stale(self, interaction: discord.Interaction) -> None:
        """Refuse a press on an old board and show the current one (ephemeral)."""
        try:
            update = await self.service.show(str(interaction.channel_id))
        except SessionError:  # the press that won ended the game
            await self.refuse(interaction, "This board is out of date: the game is over.")
            return
        await self.send_board(update, interaction, ephemeral=True, notes=[STALE])

    async def choose(self, interaction: discord.Interaction, sid: int, ver: int, d: int, o: int) -> None:
        """A choice button or select: option ``o`` of decision ``d`` of board ``ver`` of session ``sid``."""
        try:
            await self._choose(interaction, sid, ver, d, o)
        except SessionError as exc:
            await self.refuse(interaction, str(exc))
        except Exception:
            log.exception("choice %s/%s/%s/%s failed (session %s)", sid, ver, d, o, sid)
            await self.refuse(interaction, "Something went wrong on our side; the game is unchanged. Try again.")

    async def _choose(self, interaction: discord.Interaction, sid: int, ver: int, d: int, o: int) -> None:
        if interaction.user.bot:
            return
        update = await self._current(interaction, sid, ver)
        if update is None:
            return
        row = update.session
        if not (0 <= d < len(update.pending)) or not (0 <= o < len(update.pending[d].options)):
            await self.refuse(interaction, "This button is not valid. Use the buttons on the current board.")
            return
        decision, user = update.pending[d], str(interaction.user.id)
        if user not in row.players:
            await self.refuse(interaction, "You are not playing in this game. Wait for the next one, or /play "
                                           "in another channel.")
            return
        if decision.player is not None and decision.player != user:
            await self.refuse(interaction, f"Waiting for {{@{decision.player}}}: this choice is theirs.")
            return
        try:
            update = await self.service.act(row.channel_id, user, decision.options[o].id,
                                            at_ms=snowflake_ms(interaction.id), expect_version=ver)
        except StaleBoard:
            await self.stale(interaction)
            return
        self.floors.committed(update.session.id, update.session.version)
        await self.send_board(update, interaction)

    async def open_group(self, interaction: discord.Interaction, sid: int, ver: int, d: int, page: int) -> None:
        """Step two of a two-step pick: an ephemeral select with page ``page`` of decision ``d``'s options."""
        update = await self._current(interaction, sid, ver)
        if update is None:
            return
        row = update.session
        if not (0 <= d < len(update.pending)) or page * 25 >= len(update.pending[d].options):
            await self.refuse(interaction, "This menu is not valid. Use the current board.")
            return
        names = await self.bot.links.names(row.id)
        await interaction.response.send_message(
            as_names(update.pending[d].prompt, names), view=page_view(row, d, update.pending[d], page, names),
            ephemeral=True,
        )

    # -- slash commands ------------------------------------------------------------------------------------------
    def _mine(self, update: Update, user: str) -> list[tuple[Decision, Any]]:
        return [
            (d, opt) for d in update.pending if d.player == user or (d.player is None and user in
                                                                     update.session.players)
            for opt in d.options
        ]

    async def option_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """The caller's legal options now (label shown, option id sent), filtered by what they typed."""
        try:
            update = await self.service.show(str(interaction.channel_id))
        except SessionError:
            return []
        if update.session.status != "active":
            return []
        names = await self.bot.links.names(update.session.id)
        needle = current.lower().strip()
        out = []
        for _, opt in self._mine(update, str(interaction.user.id)):
            label = as_names(opt.label, names)
            if needle in label.lower() or needle in opt.id.lower():
                out.append(app_commands.Choice(name=label[:100] or opt.id[:100], value=opt.id[:100]))
        return out[:25]

    @app_commands.command(name="move", description="Make your move: pick one of your options (it autocompletes)")
    @app_commands.describe(option="One of your legal options; start typing to see them")
    @app_commands.autocomplete(option=option_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, option: app_commands.Range[str, 1, 100]) -> None:
        self.floors.saw(interaction.id)
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        update = await self.service.show(channel)
        if update.session.status != "active":
            raise SessionError("The game has not started yet: the host can /start it.")
        seen = update.session.version
        if self.floors.stale(update.session.id, seen, interaction.id):
            await self.stale(interaction)
            return
        names = await self.bot.links.names(update.session.id)
        wanted = option.strip().lower()
        for _, opt in self._mine(update, user):
            if wanted in (opt.id.lower(), as_names(opt.label, names).lower()):
                option = opt.id
                break
        try:
            update = await self.service.act(channel, user, option, at_ms=snowflake_ms(interaction.id),
                                            expect_version=seen)
        except StaleBoard:
            await self.stale(interaction)
            return
        self.floors.committed(update.session.id, update.session.version)
        await self.send_board(update, interaction)

    @app_commands.command(name="board", description="Show this channel's board (or lobby) again with its choices")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        update = await self.service.show(str(interaction.channel_id))
        if update.session.status == "lobby":
            await self.bot.lobby.send_card(interaction, update)
            return
        await self.send_board(update, interaction)

    @app_commands.command(name="history", description="The recent events of this channel's game")
    @app_commands.describe(count="How many events (default 15)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        events = await self.service.history(str(interaction.channel_id), count)
        text = "\n".join(f"• {as_mentions(e.text)}" for e in events) or "Nothing has happened yet."
        while len(text) > 1900:
            text = text[text.index("\n") + 1:]
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="resign", description="Leave the game you are playing in this channel")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        update = await self.service.resign(str(interaction.channel_id), str(interaction.user.id))
        await self.send_board(update, interaction)

    async def topic_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            game = games.get(game_id)
        except KeyError:
            return []
        topics = [t for t in game.rules_help if t and current.lower() in t.lower()]
        return [app_commands.Choice(name=t, value=t) for t in topics[:25]]

    @app_commands.command(name="rules", description="How a game is played, in short")
    @app_commands.describe(game="Which game", topic="A topic of its rules (autocompletes)")
    @app_commands.autocomplete(game=game_autocomplete, topic=topic_autocomplete)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        g = self.service.game(game)
        help_ = g.rules_help
        if topic and topic not in help_:
            known = ", ".join(t for t in help_ if t) or "none"
            raise SessionError(f"{g.title} has no rules topic '{topic}'. Topics: {known}.")
        text = f"**{g.title}** — {topic or 'overview'}\n{help_.get(topic or '', g.summary)}"
        others = [t for t in help_ if t and t != topic]
        if others:
            text += f"\nMore: /rules {g.id} topic: " + ", ".join(others)
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @app_commands.command(name="help", description="What this bot does and its commands")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        gamelist = "\n".join(f"• **{g.title}** (`{g.id}`, {g.min_players}-{g.max_players} players) — {g.summary}"
                             for g in games.all())
        text = (
            "**Play-by-chat board games.** One game per channel or thread.\n"
            "`/play game [options] [thread]` open a lobby · `/join` `/leave` `/start` · "
            "`/move option` (or the buttons) · `/board` · `/history` · `/undo` (the others approve) · "
            "`/resign` · `/abandon` (host or moderators) · `/rules game [topic]` · `/settings`\n" + gamelist
        )
        if not self.bot.intents.message_content:
            text += ("\nTyped race words are off on this bot: use the race buttons or reactions. (Its owner can turn "
                     "them on with the Message Content intent in the Discord developer portal.)")
        await interaction.response.send_message(text[:2000], ephemeral=True)

    # -- start-up ---------------------------------------------------------------------------------------------------
    async def restore(self) -> int:
        """After a restart: the live sessions need nothing but their rows (components and timers are durable);
        the race listeners learn which channels wait on typed inputs. Returns the number of live sessions."""
        rows = await self.service.restore()
        for row in rows:
            if row.status == "active":
                try:
                    await self.bot.races.restored(self.service.view(row))
                except Exception:
                    log.exception("could not restore session %s", row.id)
        return len(rows)


__all__ = ["Play", "display", "is_moderator", "snowflake_ms"]
