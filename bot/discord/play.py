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
import re
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.results import RATING_HELP
from bot.sessions import SessionError, StaleBoard, Update
from bot.store import SessionRow, TimerRow
from games import Decision
from games.ai import LEVELS
from games.core import seats_text

from .answers import DISCORD_EPOCH_MS, THINKING, answer, budget_ms, followup, snowflake_ms
from .cooldowns import Cooldown
from .freshness import BoardFloors
from .lobby import game_autocomplete
from .present import (
    AI_LEVEL_TEXT,
    HOW_TO_ANSWER,
    as_mentions,
    as_names,
    board_text,
    board_view,
    deciders,
    display,
    event_lines,
    mention,
    option_label,
    page_view,
    pings,
    png_file,
    rules_text,
    topics_view,
)
from .timers import waiting_on

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

RENDER_BUDGET_S = 2.0
"""Longer than this and the interaction is deferred first (Discord's deadline is 3 s)."""
DEFER_BELOW_MS = 1500
"""An interaction with less than this left of :data:`INTERACTION_BUDGET_MS` when its handler starts is deferred
before any database work, and answered by follow-ups (issue 17 item 7)."""

MAX_CHANNELS = 4096
"""Channels whose settings are cached at the most (bounded memory, issue 17 item 8)."""
NO_PINGS = discord.AllowedMentions.none()
STALE = "This board is out of date — here is the current one."
AI_SEATS_LINE = (
    "-# **AI players**: alone? `/play game ai:1 level:strong` seats AI players at once, or the host adds them with "
    "the lobby's Add AI menu (and removes them there before the start). Levels: "
    + "; ".join(f"{lv} — {AI_LEVEL_TEXT.get(lv, '').lower()}" for lv in LEVELS) + "."
)
"""One line on AI seats (issue 14) under ``/rules`` and ``/help``."""
BOARD_COOLDOWN_MS = 60_000
"""``/board public:true`` shows the board to everyone at most once a minute per channel."""


@dataclass
class Live:
    """The live message of a session's current turn (issue 12): where it is, the board version it shows, who
    decides in it (player ids), the races open in it (``Game.race_key`` names), the event lines of the turn so far,
    its text, and whether it is the game's first board."""

    message_id: int
    channel_id: str
    version: int
    deciders: frozenset[str]
    races: frozenset[str]
    lines: list[str]
    text: str
    first: bool = False


NUMBERED = re.compile(r"`\d+\.` |… \d+ more: `/move`")


def retired(text: str) -> str:
    """A board that is no longer live: its text without the prompt, the how-to line and the numbered options of a
    board sent as text."""
    return "\n".join(line for line in text.split("\n")
                     if not line.startswith("➡️") and line != HOW_TO_ANSWER and not NUMBERED.match(line)) or text


@dataclass
class Posted:
    """A message just sent: its id (None when Discord did not say) and how to attach a file to it later."""

    message_id: int | None
    attach: Callable[[discord.File], Awaitable[Any]]
    retext: Callable[[str], Awaitable[Any]] | None = None
    """Replace the message's text (a board whose image Discord refused becomes its text form)."""
    content: str | None = None
    """The text the message went out with (a board's text form when its image was refused)."""


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
        self.live: dict[int, Live] = {}  # session id -> its live message (issue 12)
        # a session's board lock lives while held or awaited (bounded memory, issue 17)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._shown = Cooldown(BOARD_COOLDOWN_MS)  # per channel: /board public:true

    @property
    def service(self):
        return self.bot.service

    # -- channel settings -----------------------------------------------------------------------------------------
    def defaults(self) -> dict[str, float]:
        s = self.bot.settings
        return {"reminder_hours": s.reminder_hours, "afk_hours": s.afk_hours, "race_window_ms": s.race_window_ms,
                "pings": "turn"}

    async def prefs(self, channel_id: str) -> dict[str, float]:
        """The channel's settings over the defaults: ``reminder_hours``, ``afk_hours`` (h, 0 = off),
        ``race_window_ms`` (ms), ``pings`` (``turn``: the player whose turn starts is notified | ``off``). Cached;
        :meth:`save_prefs` updates the cache."""
        cached = self._prefs.get(channel_id)
        if cached is None:
            cached = {**self.defaults(), **await self.service.store.channel_settings(channel_id)}
            self._prefs[channel_id] = cached
            while len(self._prefs) > MAX_CHANNELS:  # the oldest channel first (dicts keep insertion order)
                self._prefs.pop(next(iter(self._prefs)))
        return cached

    def forget(self, session_id: int, channel_id: str) -> None:
        """Session ``session_id`` of ``channel_id`` ended (finished, abandoned, cancelled, its place gone): drop
        what the adapter keeps of it in memory — its live message, board floor, the channel's cached settings,
        display names, race tracking, failed-post log mark and last board id (issue 17 item 8: memory stays flat
        however many games are played). Everything is in the store and is read again when needed."""
        self.live.pop(session_id, None)
        self.floors.forget(session_id)
        self._prefs.pop(channel_id, None)
        self.bot.links.forget(session_id)
        self.bot.races.forget(channel_id)
        self.bot.delivery.forget(session_id)
        self.bot.bookkeeper.forget(session_id)

    def ended(self, update: Update) -> None:
        """:meth:`forget` ``update``'s session if it is over (neither a lobby nor a running game)."""
        if update.session.status not in ("lobby", "active"):
            self.forget(update.session.id, update.session.channel_id)

    def prefs_cached(self, channel_id: str) -> dict[str, float]:
        return self._prefs.get(channel_id) or self.defaults()

    async def save_prefs(self, channel_id: str, changes: dict[str, float]) -> dict[str, float]:
        stored = {**await self.service.store.channel_settings(channel_id), **changes}
        await self.service.store.save_channel_settings(channel_id, stored)
        self._prefs.pop(channel_id, None)
        return await self.prefs(channel_id)

    # -- answering ----------------------------------------------------------------------------------------------
    async def in_budget(self, interaction: discord.Interaction, *, ephemeral: bool = False) -> bool:
        """Before a handler's database work: defer ``interaction`` when less than :data:`DEFER_BELOW_MS` is left of
        its 3 s (:func:`budget_ms`) — a component by a deferred update (its answers follow), a command by a
        "thinking…" message (``ephemeral``: the visibility of its answer). Never raises; always True (it is used
        as an ``interaction_check``)."""
        try:
            if interaction.response.is_done() or interaction.type not in (
                    discord.InteractionType.component, discord.InteractionType.application_command):
                return True
            left = budget_ms(interaction, self.service.clock())
            if left >= DEFER_BELOW_MS:
                return True
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                interaction.extras[THINKING] = "ephemeral" if ephemeral else "public"
            log.debug("interaction %s deferred with %d ms of its budget left", interaction.id, left)
        except discord.HTTPException as exc:
            log.info("interaction %s could not be deferred: %s", interaction.id, exc)
        except Exception:
            log.exception("deferring interaction %s failed", interaction.id)
        return True

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """A short ephemeral answer (``{@id}`` refs become mentions, which do not ping in ephemeral messages)."""
        text = as_mentions(text)[:2000]
        try:
            if interaction.response.is_done():
                await followup(interaction, ephemeral=True, content=text, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not answer interaction %s in channel %s", interaction.id, interaction.channel_id)
            return
        await self.bot.delivery.surface(interaction)

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
        plain: str | None = None,
    ) -> Posted:
        """Send one message: the interaction's response, else its follow-up, else a plain channel message.

        ``plain``: the message's text form (a board's position in words and numbered options): when Discord
        refuses the ``file`` (403: no Attach Files), the message is sent again as ``plain``, without the file and
        with the same components (issue 17 item 1). Raises ``discord.HTTPException`` when Discord refuses it."""
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        try:
            try:
                posted = await self._send(interaction, channel_id, ephemeral, kwargs)
            except discord.Forbidden as exc:
                if file is None or plain is None:
                    raise
                log.info("channel %s refused a board image (%s): sent as text", channel_id, exc.text)
                kwargs.pop("file")
                kwargs["content"] = plain
                posted = await self._send(interaction, channel_id, ephemeral, kwargs)
        finally:
            if view is not None:
                view.stop()  # its items are DynamicItems: presses are dispatched by template, not by this object
        posted.content = kwargs["content"]
        await self.bot.delivery.surface(interaction)
        return posted

    async def _send(self, interaction: discord.Interaction | None, channel_id: str, ephemeral: bool,
                    kwargs: dict[str, Any]) -> Posted:
        if interaction is not None:
            if not interaction.response.is_done():
                resp = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
                return Posted(resp.message_id, lambda f: interaction.edit_original_response(attachments=[f]),
                              lambda t: interaction.edit_original_response(content=t))
            msg = await followup(interaction, ephemeral=ephemeral, **kwargs)
        else:
            msg = await self.bot.get_partial_messageable(int(channel_id)).send(**kwargs)
        return Posted(msg.id, lambda f: msg.edit(attachments=[f]), lambda t: msg.edit(content=t))

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
        first: bool = False,
    ) -> None:
        """Show ``update`` at the table: one live message per turn (issue 12).

        - While the same player keeps deciding (the deciders of ``update`` are among those of the live message and
          no race is open), the live message is edited in place — the press's own update when the press is on it,
          else a REST edit and a short ephemeral "done" to the interaction. The turn's event lines accumulate (the
          oldest fold into "… N earlier"). Nobody is pinged.
        - Otherwise (the decision passes to another player, a race opens or closes, the game ends) a new message is
          posted — the interaction's answer or follow-up, else a channel message — and the previous live message
          keeps its image and text but loses its components and prompt. It pings the players whose turn starts,
          never the one whose input caused it, nor anyone who muted turn pings or in a channel with pings off.
        - An input inside a race that goes on gets an ephemeral "counted" and leaves the race message untouched.

        ``ephemeral``: an answer only the interaction's user sees (see :meth:`send_private_board`). ``first``: the
        game's first board (it says how to answer). The image is awaited at most ``bot.image_wait_s`` when answering
        an interaction; a slower render is attached to the same message as soon as it is ready."""
        if ephemeral:
            await self.send_private_board(update, interaction, notes=notes)
            return
        row = update.session

        async def show() -> None:
            await self._show(update, interaction, notes=list(notes), first=first)

        try:
            if interaction is None:  # a post of its own: retried in the background when Discord refuses it
                await self.bot.delivery.send(show, what=self.what(update), channel_id=row.channel_id,
                                             session_id=row.id, needs=self.bot.delivery.needs(row.channel_id))
            else:
                await show()
        except Exception:
            # the change is committed already: say so instead of pretending nothing happened
            log.exception("posting board v%s of session %s failed", row.version, row.id)
            try:
                await self.send(interaction, row.channel_id, "Done — but the board could not be posted. "
                                "Use /board to see it.", ephemeral=interaction is not None)
            except Exception:
                log.warning("fallback message of session %s failed too", row.id)

    @staticmethod
    def what(update: Update) -> str:
        """A board in words, for the notice of a post that failed ("the race result (Tatamokatsu board v7)")."""
        board = f"{update.game.title} board v{update.session.version}"
        if any(e.kind == "window" for e in update.events):
            return f"the race result ({board})"
        return f"the result ({board})" if update.result is not None else f"the {board}"

    async def _show(self, update: Update, interaction: discord.Interaction | None, *, notes: list[str],
                    first: bool) -> None:
        """:meth:`send_board`'s work; raises ``discord.HTTPException`` when Discord refuses the post. Outside an
        interaction it may run again (a retry): a board older than the live one is then not posted."""
        row = update.session
        names = await self.bot.links.names(row.id)
        # without Attach Files the board goes out as text at once (issue 17 item 1)
        attach = interaction is None or bool(interaction.app_permissions.attach_files)
        task = asyncio.ensure_future(self.bot.images.png(row, update.state, names)) if attach else None
        async with self._lock(row.id):
            live = self.live.get(row.id)
            if live is not None and live.version >= row.version and row.status == "active":
                await self.ack(interaction, "Done.")  # a later board is out already
                return
            now = frozenset(deciders(update.pending))
            races = frozenset(n for n, d in zip(self.bot.races.names(update), update.pending, strict=False)
                              if d.player is None and n)
            racing = any(d.player is None for d in update.pending)
            if live is not None and live.races and races & live.races and row.status == "active":
                counted = " ".join(as_mentions(e.text) for e in update.events) or "Counted."
                await self.ack(interaction, f"✅ {counted}")
                self.bot.races.track(update)
                return
            same = (live is not None and row.status == "active" and not racing and not live.races
                    and bool(now) and now <= live.deciders and live.channel_id == row.channel_id)
            if task is None:
                png = None
            elif interaction is not None:
                done, _ = await asyncio.wait({task}, timeout=self.bot.image_wait_s)
                png = task.result() if done else None
            else:
                png = await task

            def view() -> discord.ui.View | None:
                return board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                                  emoji=self.bot.races.button_emoji(update)) if row.status == "active" else None

            def texts(events: list[str] | None, first: bool) -> tuple[str, str]:
                plain = board_text(update, notes=notes, events=events, first=first, numbered=names)
                return (board_text(update, notes=notes, events=events, first=first) if attach else plain), plain

            posted = None
            lines = event_lines(update)
            if same:
                lines = [*live.lines, *lines]
                text, plain = texts(lines, live.first)
                try:
                    posted = await self._edit_live(interaction, live, text, png_file(png, row.id, row.version),
                                                   view(), plain)
                    live.version, live.lines, live.text, live.deciders = row.version, lines, posted.content, now
                except discord.NotFound:  # the live message was deleted (issue 17 item 3): a new board instead
                    log.info("board message %s of session %s is gone: posting a new one", live.message_id, row.id)
                    self.live.pop(row.id, None)
                    first, live, same = live.first, None, False
            if posted is None:
                text, plain = texts(lines, first)
                clicker = str(interaction.user.id) if interaction is not None else None
                posted = await self._post_turn(interaction, live, update, text, png_file(png, row.id, row.version),
                                               view(), clicker, plain)
                if row.status == "active" and posted.message_id is not None:
                    self.live[row.id] = Live(posted.message_id, row.channel_id, row.version, now, races, lines,
                                             posted.content or text, first)
                else:
                    self.live.pop(row.id, None)
            if task is not None and (not task.done() or (png is None and task.result() is not None)):
                self.bot.spawn(self._attach(task, posted, row, plain),
                               f"image of board v{row.version} of session {row.id}")
        await self._posted(update, posted.message_id, new=not same, strip=live is None)
        if row.status == "finished" and update.record is not None:  # issue 15: the result message
            try:
                await self.bot.results.post_result(update)
            except Exception:
                log.exception("result message of session %s failed", row.id)
        self.ended(update)

    def _lock(self, sid: int) -> asyncio.Lock:
        lock = self._locks.get(sid)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[sid] = lock
        return lock

    @staticmethod
    def _on(interaction: discord.Interaction | None, live: Live | None) -> bool:
        """Whether ``interaction`` is a press on ``live``'s message not answered yet (its update can edit it)."""
        return (interaction is not None and live is not None and not interaction.response.is_done()
                and interaction.type is discord.InteractionType.component and interaction.message is not None
                and interaction.message.id == live.message_id)

    async def _edit_live(self, interaction: discord.Interaction | None, live: Live, text: str,
                         file: discord.File | None, view: discord.ui.View | None, plain: str | None = None) -> Posted:
        """Edit the live message in place: the press's own update when the press is on it, else a REST edit (and a
        short ephemeral answer to the interaction). When Discord refuses the ``file`` (403), the edit is made again
        with ``plain`` (the board's text form) and no file. Raises ``discord.NotFound`` when the message was
        deleted (the caller posts a new board)."""
        kwargs: dict[str, Any] = {"content": text, "view": view, "allowed_mentions": NO_PINGS}
        if file is not None:
            kwargs["attachments"] = [file]
        msg = self.bot.get_partial_messageable(int(live.channel_id)).get_partial_message(live.message_id)

        async def edit() -> Posted:
            if self._on(interaction, live):
                await interaction.response.edit_message(**kwargs)
                return Posted(live.message_id, lambda f: interaction.edit_original_response(attachments=[f]),
                              lambda t: interaction.edit_original_response(content=t))
            await msg.edit(**kwargs)
            await self.ack(interaction, "✅ Done: the board in the channel shows it.")
            return Posted(live.message_id, lambda f: msg.edit(attachments=[f]), lambda t: msg.edit(content=t))

        try:
            try:
                posted = await edit()
            except discord.Forbidden as exc:
                if file is None or plain is None:
                    raise
                log.info("channel %s refused a board image (%s): edited as text", live.channel_id, exc.text)
                kwargs.pop("attachments")
                kwargs["content"] = plain
                posted = await edit()
        finally:
            if view is not None:
                view.stop()
        posted.content = kwargs["content"]
        await self.bot.delivery.surface(interaction)
        return posted

    async def _post_turn(self, interaction: discord.Interaction | None, live: Live | None, update: Update,
                         text: str, file: discord.File | None, view: discord.ui.View | None,
                         clicker: str | None, plain: str | None = None) -> Posted:
        """Post the board of a new turn; the previous live message keeps its image and loses its components (the
        press's own update when the press is on it)."""
        if live is not None and self._on(interaction, live):
            kwargs: dict[str, Any] = {"content": retired(live.text)} if live.text else {}
            await interaction.response.edit_message(view=None, allowed_mentions=NO_PINGS, **kwargs)
        elif live is not None:
            self.bot.spawn(self.retire(live), f"retire board {live.message_id} (session {update.session.id})")
        mentions = await self.turn_pings(update, clicker)
        return await self.send(interaction, update.session.channel_id, text, file=file, view=view, mentions=mentions,
                               plain=plain)

    async def retire(self, live: Live) -> None:
        """The previous turn's message: its text without the prompt, no components (its image stays)."""
        msg = self.bot.get_partial_messageable(int(live.channel_id)).get_partial_message(live.message_id)
        kwargs: dict[str, Any] = {"content": retired(live.text)} if live.text else {}  # (text unknown: restored)
        try:
            await msg.edit(view=None, allowed_mentions=NO_PINGS, **kwargs)
        except discord.HTTPException:
            pass

    async def turn_pings(self, update: Update, clicker: str | None) -> discord.AllowedMentions:
        """Who the board of a new turn notifies: the players it names, minus ``clicker`` (whose input caused it),
        minus members who muted their turn pings; nobody when the channel's ping mode is ``off`` (issue 12)."""
        prefs = await self.prefs(update.session.channel_id)
        if prefs.get("pings", "turn") == "off":
            return NO_PINGS
        named = deciders(update.pending) - {clicker}
        return pings(update.pending, exclude={clicker or "", *await self.bot.links.muted(named)})

    async def ack(self, interaction: discord.Interaction | None, text: str) -> None:
        """A short ephemeral answer to an interaction whose effect shows elsewhere (nothing without one)."""
        if interaction is not None:
            await self.refuse(interaction, text)

    async def send_private_board(self, update: Update, interaction: discord.Interaction | None, *,
                                 notes: list[str] = (), full: bool = False) -> None:
        """The board only the interaction's user sees: never pings, never touches the live message or the turn
        timers. Its components work only for a viewer the pending decisions name (a race: any seated player)."""
        row = update.session
        viewer = str(interaction.user.id) if interaction is not None else None
        try:
            names = await self.bot.links.names(row.id)
            render = self.bot.images.full_png(row, update.state, names) if full else \
                self.bot.images.png(row, update.state, names)
            png = await self._image(interaction, asyncio.ensure_future(render))
            text = board_text(update, notes=list(notes))
            mine = any(d.player == viewer or (d.player is None and viewer in row.players) for d in update.pending)
            view = board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                              emoji=self.bot.races.button_emoji(update)) if row.status == "active" and mine else None
            await self.send(interaction, row.channel_id, text, file=png_file(png, row.id, row.version), view=view,
                            ephemeral=True, plain=board_text(update, notes=list(notes), numbered=names))
        except Exception:
            log.exception("private board v%s of session %s failed", row.version, row.id)
            await self.ack(interaction, "The board could not be shown; try again.")

    async def _attach(self, task: asyncio.Future, posted: Posted, row: SessionRow, plain: str | None = None) -> None:
        """Attach a late image to the board message it belongs to (unless that message shows a newer board now).
        Discord refusing the image (403: no Attach Files) turns the message into ``plain``, the board's text form
        (issue 17 item 1); a message deleted meanwhile is left alone (the next update posts a new board)."""
        png = await task
        live = self.live.get(row.id)
        if live is not None and live.message_id == posted.message_id and live.version != row.version:
            return
        if png is None:
            return
        try:
            await posted.attach(png_file(png, row.id, row.version))
        except discord.NotFound:
            log.info("board v%s of session %s was deleted before its image came", row.version, row.id)
        except discord.Forbidden as exc:
            if plain is None or posted.retext is None:
                raise
            log.info("channel %s refused the image of board v%s (%s): its text form instead", row.channel_id,
                     row.version, exc.text)
            await posted.retext(plain)
            if live is not None and live.message_id == posted.message_id:
                live.text = plain

    async def post(self, update: Update) -> None:
        """Post ``update`` to its channel without an interaction (timers)."""
        await self.send_board(update)

    async def _posted(self, update: Update, message_id: int | None, *, new: bool = True, strip: bool = True) -> None:
        """After a public board (``new``: a new message, else the live one edited): queue the bookkeeping (remember
        it, strip the old board's components unless ``strip`` is False, reset the reminder and AFK timers —
        batched, see :mod:`bot.discord.bookkeeping`); a new message may open a race (opening input, reactions)."""
        prefs = await self.prefs(update.session.channel_id)
        self.bot.bookkeeper.add(update, message_id, prefs, strip=strip)
        if new:
            await self.bot.races.posted(update, message_id)
        else:
            self.bot.races.track(update)

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
        try:
            update = await self.service.press(str(interaction.channel_id), sid, ver, d, o, str(interaction.user.id),
                                              at_ms=snowflake_ms(interaction.id))
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
        await answer(interaction, as_names(update.pending[d].prompt, names),
                     view=page_view(row, d, update.pending[d], page, names))

    # -- slash commands ------------------------------------------------------------------------------------------
    def _mine(self, update: Update, user: str) -> list[tuple[Decision, int]]:
        """The caller's options now: (decision, option index)."""
        return [
            (d, i) for d in update.pending if d.player == user or (d.player is None and user in
                                                                   update.session.players)
            for i in range(len(d.options))
        ]

    async def option_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """The caller's legal options now (label shown — with its board marker key first, issue 13 — option id
        sent), filtered by what they typed."""
        try:
            update = await self.service.show(str(interaction.channel_id))
        except SessionError:
            return []
        if update.session.status != "active":
            return []
        names = await self.bot.links.names(update.session.id)
        needle = current.lower().strip()
        out = []
        for d, i in self._mine(update, str(interaction.user.id)):
            label, opt = option_label(d, i, names), d.options[i]
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
        for d, i in self._mine(update, user):
            opt = d.options[i]
            if wanted in (opt.id.lower(), as_names(opt.label, names).lower(), option_label(d, i, names).lower()):
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

    async def _shown_update(self, channel: str) -> Update:
        """The channel's game as it stands, or the last game when it is over (its final board and result)."""
        try:
            return await self.service.show(channel)
        except SessionError:
            last = await self.service.store.last_session(channel)
            if last is None or last.status != "finished":
                raise
            return self.service.view(last)

    @app_commands.command(name="board", description="See this channel's board (only you; public:true for everyone)")
    @app_commands.describe(public="Post it in the channel for everyone (players of the game; once a minute)",
                           full="The whole board instead of the view of the current decision")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, public: bool = False, full: bool = False) -> None:
        """Issue 12: ephemeral by default for anyone (working buttons when it is the viewer's decision); a seated
        player may post it publicly, at most once per :data:`BOARD_COOLDOWN_MS` per channel. Never pings, never
        touches the live message, the turn timers or a race. After the game: its final board and result."""
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        update = await self._shown_update(channel)
        row = update.session
        if row.status == "lobby":
            await self.bot.lobby.send_card(interaction, update)
            return
        if not public:
            await self.send_private_board(update, interaction, full=full)
            return
        if user not in row.players:
            raise SessionError("Only the players of this game can show the board to everyone; /board shows it "
                               "to you.")
        wait = self._shown.wait_s(channel, int(self.service.clock()))
        if wait:
            raise SessionError(f"The board was shown to everyone a moment ago; again in {wait} s (or /board for "
                               "yourself).")
        names = await self.bot.links.names(row.id)
        render = self.bot.images.full_png(row, update.state, names) if full else \
            self.bot.images.png(row, update.state, names)
        png = await self._image(interaction, asyncio.ensure_future(render))
        text, plain = board_text(update), board_text(update, numbered=names)
        if row.status == "active":
            text, plain = (retired(t) + "\n-# Shown by /board; the buttons are on the live board." for t in (text, plain))
        await self.send(interaction, channel, text[:2000], file=png_file(png, row.id, row.version), plain=plain[:2000])

    @app_commands.command(name="history", description="The recent events of this channel's game")
    @app_commands.describe(count="How many events (default 15)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        channel = str(interaction.channel_id)
        events = await self.service.history(channel, count)  # a running game, or the last one that ended
        text = "\n".join(f"• {as_mentions(e.text)}" for e in events) or "Nothing has happened yet."
        while len(text) > 1900:
            text = text[text.index("\n") + 1:]
        await answer(interaction, text, allowed_mentions=NO_PINGS)

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
        if not topic:
            text = f"{text[:2000 - len(AI_SEATS_LINE) - 1]}\n{AI_SEATS_LINE}"
        await answer(interaction, text[:2000])

    async def how_to_play(self, interaction: discord.Interaction, game_id: str, topic: str | None = None) -> None:
        """The "How to play" button (``topic`` None: a new ephemeral answer with the overview) and its topic select
        (``topic`` a ``Game.rules_help`` key, "" the overview: that answer is edited)."""
        try:
            game = games.get(game_id)
        except KeyError:
            await self.refuse(interaction, "This game is not available any more. /help lists the games.")
            return
        if topic and topic not in game.rules_help:
            await self.refuse(interaction, f"{game.title} has no rules topic '{topic[:50]}'.")
            return
        text, view = rules_text(game, topic or ""), topics_view(game, topic or "")
        try:
            if topic is None:
                kwargs: dict[str, Any] = {"view": view} if view is not None else {}
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
            else:
                await interaction.response.edit_message(content=text, view=view)
        finally:
            if view is not None:
                view.stop()

    async def full_board(self, interaction: discord.Interaction, sid: int) -> None:
        """The "Full board" button: the whole board of session ``sid`` as it stands (``render(full=True)``),
        ephemeral; for a game that is over too."""
        row = await self.service.store.session(sid)
        if row is None or row.channel_id != str(interaction.channel_id) or row.state is None:
            await self.refuse(interaction, "This button does not belong to a game in this channel.")
            return
        await self.send_private_board(self.service.view(row), interaction, full=True)

    @app_commands.command(name="help", description="What this bot does and its commands")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        gamelist = "\n".join(f"• **{g.title}** (`{g.id}`, {seats_text(g.seat_counts())}) — {g.summary}"
                              for g in games.all())
        text = (
            "**Play-by-chat board games.** One game per channel or thread.\n"
            "`/play game [options] [thread]` open a lobby · `/join` `/leave` `/start` · "
            "`/move option` (or the buttons) · `/board [public] [full]` · `/history` · `/undo` (the others approve) · "
            "`/resign` · `/rules game [topic]` · `/pings` (your own turn pings) · moderators: `/abandon`, `/kick` "
            "(or the host), `/settings`\n"
            "Results: `/stats [member] [game]` · `/leaderboard game` · `/replay [game]` (only you see them; "
            "`public:true` posts them) · every result has a Replay button.\n" + RATING_HELP + "\n" + AI_SEATS_LINE + "\n"
            + gamelist
        )
        if not self.bot.intents.message_content:
            text += ("\nTyped race words are off on this bot: use the race buttons or reactions. (Its owner can turn "
                     "them on with the Message Content intent in the Discord developer portal.)")
        await answer(interaction, text[:2000])

    # -- timers (events of bot.discord.timers) ------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_deadline_timer_complete(self, update: Update) -> None:
        """A decision's deadline passed: the system's timeout move is committed; its board is posted."""
        await self.post(update)

    @commands.Cog.listener()
    async def on_ai_move_timer_complete(self, timer: TimerRow) -> None:
        """An AI seat's move: searched off the event loop by the session service, then posted."""
        update = await self.service.fire_ai(timer)
        if update is not None:
            await self.post(update)

    @commands.Cog.listener()
    async def on_reminder_timer_complete(self, timer: TimerRow) -> None:
        """Mention the player whose turn it still is (the board is still the timer's version)."""
        waiting = await waiting_on(self.bot, timer)
        if waiting is None:
            return
        row, player = waiting
        update = self.service.view(row)
        prompts = "; ".join(as_mentions(d.prompt) for d in update.pending if d.player == player)
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(int(player))] if player.isdigit() else [])
        text = (f"⏰ {mention(player)}, your turn in {update.game.title}: "
                f"{prompts or 'you have a choice to make'}. Use the buttons on the board, or /board to see it again.")
        channel = self.bot.get_partial_messageable(int(row.channel_id))
        await self.bot.delivery.send(lambda: channel.send(text, allowed_mentions=mentions),
                                     what=f"the turn reminder of {update.game.title}", channel_id=row.channel_id,
                                     session_id=row.id)

    # -- start-up ---------------------------------------------------------------------------------------------------
    async def _restore_live(self, row: SessionRow) -> None:
        """The live message of ``row`` after a restart: its last board (``links``), so that a race on it keeps its
        buttons and the turn goes on in it (its text is not known: it is replaced at the next edit)."""
        board = (await self.bot.links.get(row.id)).get("board")
        if not board or str(board[0]) != row.channel_id:
            return
        update = self.service.view(row)
        races = frozenset(n for n, d in zip(self.bot.races.names(update), update.pending, strict=False)
                          if d.player is None and n)
        self.live[row.id] = Live(int(board[1]), row.channel_id, row.version, frozenset(deciders(update.pending)),
                                 races, [], "")

    async def restore(self) -> int:
        """After a restart: the live sessions need nothing but their rows (components and timers are durable);
        the race listeners learn which channels wait on typed inputs. Returns the number of live sessions."""
        rows = await self.service.restore()
        for row in rows:
            if row.status == "active":
                try:
                    await self._restore_live(row)
                    await self.bot.races.restored(self.service.view(row))
                except Exception:
                    log.exception("could not restore session %s", row.id)
        return len(rows)


__all__ = ["DISCORD_EPOCH_MS", "Play", "display", "is_moderator", "snowflake_ms"]
