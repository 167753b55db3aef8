"""The table: the live board message of each session and every answer to a player — one home for both.

- the live message per session (:class:`Live`: where it is, the version it shows, who decides in it, the races open
  in it, its text and its retired text): a press by the player who keeps deciding edits it in place, a new message
  (pinging only the player whose turn starts) is posted when the decision passes on or a race opens, and the old one
  is retired (its text ``board_text(…, retired=True)``, no components; its image stays) — :meth:`Table.send_board`;
- sending (:meth:`Table.send`: the interaction's response, its follow-up, or a channel message; a board whose image
  Discord refuses goes out as its text form), refusing (:meth:`Table.refuse`), short acks (:meth:`Table.ack`),
  private boards, stale presses (:meth:`Table.stale`);
- the 3 s budget (:mod:`.answers`): :meth:`Table.in_budget` defers an interaction that starts late, a slow render
  defers, a late image is attached to its message when ready.

What a board says is decided by :func:`bot.board_text.board_lines` alone (its Discord form:
:func:`bot.discord.present.board_text`). Cogs import this module (via ``bot.table``), never the ``Play`` cog.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import memory
from bot.sessions import STALE_TEXT, SessionError, Update
from bot.store import SessionRow

from .answers import await_render, defer_when_late, followup
from .freshness import BoardFloors
from .images import png_file
from .present import as_mentions, board_text, board_view, deciders, event_lines, pings

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


@dataclass
class Live:
    """The live message of a session's current turn: where it is, the board version it shows, who
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
    retired: str = ""
    """Its text once a later board is posted (``board_text(…, retired=True)`` of the form it went out in; "" when
    not known: a message restored after a restart keeps its text)."""


@dataclass
class Posted:
    """A message just sent: its id (None when Discord did not say) and how to attach a file to it later."""

    message_id: int | None
    attach: Callable[[discord.File], Awaitable[Any]]
    retext: Callable[[str], Awaitable[Any]] | None = None
    """Replace the message's text (a board whose image Discord refused becomes its text form)."""
    content: str | None = None
    """The text the message went out with (a board's text form when its image was refused)."""


class Table:
    """The live board messages of ``bot``'s sessions and the answers to its interactions."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.floors = BoardFloors()
        self.live: dict[int, Live] = {}  # session id -> its live message
        # a session's board lock lives while held or awaited (bounded memory)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @property
    def service(self):
        return self.bot.service

    def forget(self, session_id: int, channel_id: str) -> None:
        """Session ``session_id`` of ``channel_id`` ended (finished, abandoned, cancelled, its place gone): drop
        what the adapter keeps of it in memory — its live message, board floor, the channel's cached settings,
        display names, race tracking, failed-post log mark and last board id (memory stays flat however many games
        are played), and gives the memory malloc keeps free back to the system (:func:`bot.memory.release`).
        Everything is in the store and is read again when needed."""
        self.live.pop(session_id, None)
        self.floors.forget(session_id)
        self.bot.prefs.forget(channel_id)
        self.bot.links.forget(session_id)
        self.bot.races.forget(channel_id)
        self.bot.delivery.forget(session_id)
        self.bot.bookkeeper.forget(session_id)
        memory.release()  # what its renders freed goes back to the system (bot.memory)

    def ended(self, update: Update) -> None:
        """:meth:`forget` ``update``'s session if it is over (neither a lobby nor a running game)."""
        if update.session.status not in ("lobby", "active"):
            self.forget(update.session.id, update.session.channel_id)

    async def in_budget(self, interaction: discord.Interaction, *, ephemeral: bool = False) -> bool:
        """:func:`bot.discord.answers.defer_when_late` on the service clock (used as an ``interaction_check``)."""
        return await defer_when_late(interaction, self.service.clock(), ephemeral=ephemeral)

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
        with the same components. Raises ``discord.HTTPException`` when Discord refuses it."""
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

    async def send_board(
        self,
        update: Update,
        interaction: discord.Interaction | None = None,
        *,
        ephemeral: bool = False,
        notes: list[str] = (),
        first: bool = False,
    ) -> None:
        """Show ``update`` at the table: one live message per turn.

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
        # without Attach Files the board goes out as text at once
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

            def texts(events: list[str] | None, first: bool) -> tuple[str, str, dict[str, str]]:
                """The board's text (with its image, else its text form), its text form, and each one's
                retired text."""
                kw: dict[str, Any] = {"notes": notes, "events": events, "first": first}
                plain = board_text(update, numbered=names, **kw)
                text = board_text(update, **kw) if attach else plain
                retire = {plain: board_text(update, numbered=names, retired=True, **kw)}
                if attach:
                    retire[text] = board_text(update, retired=True, **kw)
                return text, plain, retire

            posted = None
            lines = event_lines(update)
            if same:
                lines = [*live.lines, *lines]
                text, plain, retire = texts(lines, live.first)
                try:
                    posted = await self._edit_live(interaction, live, text, png_file(png, row.id, row.version),
                                                   view(), plain)
                    live.version, live.lines, live.text, live.deciders = row.version, lines, posted.content, now
                    live.retired = retire.get(posted.content or "", "")
                except discord.NotFound:  # the live message was deleted: a new board instead
                    log.info("board message %s of session %s is gone: posting a new one", live.message_id, row.id)
                    self.live.pop(row.id, None)
                    first, live, same = live.first, None, False
            if posted is None:
                text, plain, retire = texts(lines, first)
                clicker = str(interaction.user.id) if interaction is not None else None
                posted = await self._post_turn(interaction, live, update, text, png_file(png, row.id, row.version),
                                               view(), clicker, plain)
                if row.status == "active" and posted.message_id is not None:
                    self.live[row.id] = Live(posted.message_id, row.channel_id, row.version, now, races, lines,
                                             posted.content or text, first, retire.get(posted.content or text, ""))
                else:
                    self.live.pop(row.id, None)
            if task is not None and (not task.done() or (png is None and task.result() is not None)):
                self.bot.spawn(self._attach(task, posted, row, plain, retire[plain]),
                               f"image of board v{row.version} of session {row.id}")
        await self._posted(update, posted.message_id, new=not same, strip=live is None)
        if row.status == "finished" and update.record is not None:  # the result message
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
            kwargs: dict[str, Any] = {"content": live.retired} if live.retired else {}
            await interaction.response.edit_message(view=None, allowed_mentions=NO_PINGS, **kwargs)
        elif live is not None:
            self.bot.spawn(self.retire(live), f"retire board {live.message_id} (session {update.session.id})")
        mentions = await self.turn_pings(update, clicker)
        return await self.send(interaction, update.session.channel_id, text, file=file, view=view, mentions=mentions,
                               plain=plain)

    async def retire(self, live: Live) -> None:
        """The previous turn's message: its text without the prompt, no components (its image stays)."""
        msg = self.bot.get_partial_messageable(int(live.channel_id)).get_partial_message(live.message_id)
        kwargs: dict[str, Any] = {"content": live.retired} if live.retired else {}  # (unknown: restored)
        try:
            await msg.edit(view=None, allowed_mentions=NO_PINGS, **kwargs)
        except discord.HTTPException:
            pass

    async def turn_pings(self, update: Update, clicker: str | None) -> discord.AllowedMentions:
        """Who the board of a new turn notifies: the players it names, minus ``clicker`` (whose input caused it),
        minus members who muted their turn pings; nobody when the channel's ping mode is ``off``."""
        prefs = await self.bot.prefs.get(update.session.channel_id)
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
            png = await await_render(interaction, asyncio.ensure_future(render))
            text = board_text(update, notes=list(notes))
            mine = any(d.player == viewer or (d.player is None and viewer in row.players) for d in update.pending)
            view = board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                              emoji=self.bot.races.button_emoji(update)) if row.status == "active" and mine else None
            await self.send(interaction, row.channel_id, text, file=png_file(png, row.id, row.version), view=view,
                            ephemeral=True, plain=board_text(update, notes=list(notes), numbered=names))
        except Exception:
            log.exception("private board v%s of session %s failed", row.version, row.id)
            await self.ack(interaction, "The board could not be shown; try again.")

    async def _attach(self, task: asyncio.Future, posted: Posted, row: SessionRow, plain: str | None = None,
                      plain_retired: str = "") -> None:
        """Attach a late image to the board message it belongs to (unless that message shows a newer board now).
        Discord refusing the image (403: no Attach Files) turns the message into ``plain``, the board's text form
        (``plain_retired`` once retired); a message deleted meanwhile is left alone (the next update posts a new
        board)."""
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
                live.text, live.retired = plain, plain_retired

    async def post(self, update: Update) -> None:
        """Post ``update`` to its channel without an interaction (timers)."""
        await self.send_board(update)

    async def _posted(self, update: Update, message_id: int | None, *, new: bool = True, strip: bool = True) -> None:
        """After a public board (``new``: a new message, else the live one edited): queue the bookkeeping (remember
        it, strip the old board's components unless ``strip`` is False, reset the reminder and AFK timers —
        batched, see :mod:`bot.discord.bookkeeping`); a new message may open a race (opening input, reactions)."""
        prefs = await self.bot.prefs.get(update.session.channel_id)
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

    async def current(self, interaction: discord.Interaction, sid: int, ver: int) -> Update | None:
        """The session a component names as it stands, if that board (version ``ver``) is still the current one;
        else the press is refused (not this channel's, not running, or out of date) and None returned."""
        row = await self.board_row(interaction, sid)
        if row is None:
            return None
        if row.version != ver:
            await self.stale(interaction)
            return None
        return self.service.view(row)

    async def board_row(self, interaction: discord.Interaction, sid: int) -> SessionRow | None:
        """The running session a component in this channel names (``SessionService.board_row``); else the press is
        refused and None returned."""
        try:
            return await self.service.board_row(str(interaction.channel_id), sid)
        except SessionError as exc:
            await self.refuse(interaction, str(exc))
            return None

    async def stale(self, interaction: discord.Interaction) -> None:
        """Refuse a press on an old board and show the current one (ephemeral)."""
        try:
            update = await self.service.show(str(interaction.channel_id))
        except SessionError:  # the press that won ended the game
            await self.refuse(interaction, "This board is out of date: the game is over.")
            return
        await self.send_board(update, interaction, ephemeral=True, notes=[STALE_TEXT])


__all__ = ["Live", "Posted", "Table"]
