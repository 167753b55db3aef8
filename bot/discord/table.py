"""The live board message of each session: posted, edited in place, retired, caught up.

- one live message per session's turn (:class:`Live`: where it is, the version it shows, who decides in it, the
  races open in it, its text and its retired text): a press by the player who keeps deciding edits it in place, a
  new message (pinging only the player whose turn starts) is posted when the decision passes on or a race opens, and
  the old one is retired (its text without the prompt, no components; its image stays) — :meth:`Table.send_board`;
  private boards (:meth:`Table.send_private_board`);
- answer first: an interaction is answered (its response, or a deferral) before any REST call to the channel's
  messages; a board edited by REST and a retired board are edited afterwards (:mod:`.edits`); an input that finds
  the session's board being posted by a timer defers first; an image later than ``bot.image_wait_s`` is attached to
  its message when ready;
- never behind: when the answer to a committed move fails (5xx, 429, network), the channel's live board is brought
  to the stored version in the background once Discord answers (:meth:`Table.catch_up`); a board that could not be
  posted at all (no Send Messages) leaves the previous board its buttons, and the next interaction in the channel
  answers with it (:meth:`bot.discord.answers.Answers.missed`).

Every answer to a player (refusals, news of what was done, stale presses, the 3 s budget) is :mod:`.answers`'s.
What a board says is decided by :func:`bot.board_text.board_lines` alone, built once per board in every form it may
go out in (:class:`bot.discord.present.BoardText`). Cogs use this module via ``bot.table``, never the ``Play`` cog.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import memory
from bot.service.presence import held_people
from bot.service.stand_in import stand_ins
from bot.sessions import Update
from bot.store import SessionRow
from games.core import BaseState, Decision, T

from ..i18n import reader_lang, say, speaking
from .answers import NO_PINGS, THINKING, Posted, await_render
from .components import let_go
from .edits import BoardEdits, Edit
from .freshness import BoardFloors
from .images import NOT_DRAWN, png_file
from .present import BoardText, board_view, deciders, event_lines, pings

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)


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
    """Its text once a later board is posted (``BoardText.form(…, retired=True)`` of the form it went out in; "" when
    not known: a message restored after a restart keeps its text)."""


class Table:
    """The live board messages of ``bot``'s sessions (cogs use ``bot.table``)."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.edits = BoardEdits(self)
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
        display names, race tracking, failed-post log mark, last board id and board images (memory stays flat however
        many games are played), and gives the memory malloc keeps free back to the system (:func:`bot.memory.release`).
        Everything is in the store and is read again when needed."""
        self.live.pop(session_id, None)
        self.floors.forget(session_id)
        self.bot.prefs.forget(channel_id)
        self.bot.links.forget(session_id)
        self.bot.races.forget(channel_id)
        self.bot.delivery.forget(session_id)
        self.bot.bookkeeper.forget(session_id)
        self.bot.images.forget(session_id)
        memory.release()  # what its renders freed goes back to the system (bot.memory)

    def ended(self, update: Update) -> None:
        """:meth:`forget` ``update``'s session if it is over (neither a lobby nor a running game)."""
        if update.session.status not in ("lobby", "active"):
            self.forget(update.session.id, update.session.channel_id)

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
          else a short ephemeral "done" to the interaction first and then a REST edit (queued, :class:`BoardEdits`).
          The turn's event lines accumulate (the oldest fold into "… N earlier"). Nobody is pinged.
        - Otherwise (the decision passes to another player, a race opens or closes, the game ends) a new message is
          posted — the interaction's answer or follow-up, else a channel message — and the previous live message
          keeps its image and text but loses its components and prompt (once the new one is out). It pings the
          players whose turn starts, never the one whose input caused it, nor anyone who muted turn pings or in a
          channel with pings off.
        - An input inside a race that goes on gets an ephemeral "counted" and leaves the race message untouched.

        ``ephemeral``: an answer only the interaction's user sees (see :meth:`send_private_board`). ``first``: the
        game's first board (it says how to answer). The image is awaited at most ``bot.image_wait_s`` when answering
        an interaction; a slower render is attached to the same message as soon as it is ready."""
        if ephemeral:
            await self.send_private_board(update, interaction, notes=notes)
            return
        row = update.session

        async def show() -> None:
            await self.show(update, interaction, notes=list(notes), first=first)

        try:
            if interaction is None:  # a post of its own: retried in the background when Discord refuses it
                await self.bot.delivery.send(show, what=self.what(update), channel_id=row.channel_id,
                                             session_id=row.id, needs=self.bot.delivery.needs(row.channel_id),
                                             board=True)
            else:
                await show()
        except Exception as exc:
            # the change is committed already: the channel's board catches up once Discord answers, and the
            # player is told (if Discord lets us answer at all)
            if interaction is not None and self.bot.delivery.retryable(exc):
                log.warning("answer to interaction %s (board v%s of session %s) failed: %s; the channel's board "
                            "follows in the background", interaction.id, row.version, row.id,
                            self.bot.delivery.describe(exc))
            else:
                log.exception("posting board v%s of session %s failed", row.version, row.id)
            if interaction is not None:
                self.catch_up(update)
            try:
                done = T("Done — but the board could not be posted yet; it follows in the channel as soon as "
                         "Discord takes it (/board shows it now).")
                await self.bot.answers.send(interaction, row.channel_id,
                                            say(done, reader_lang() if interaction else None),
                                            ephemeral=interaction is not None)
            except Exception:
                log.warning("fallback message of session %s failed too", row.id)

    def catch_up(self, update: Update) -> None:
        """Bring the channel's live board of ``update``'s session to the stored version, in the background: posted
        (a new turn) or edited (the same one) without an interaction, tried with backoff until Discord answers
        (:meth:`bot.discord.delivery.Delivery.later`); a board already out is left alone."""
        row = update.session
        self.bot.delivery.later(lambda: self._catch_up(update), what=self.what(update), channel_id=row.channel_id,
                                session_id=row.id, needs=self.bot.delivery.needs(row.channel_id), board=True)

    async def _catch_up(self, update: Update) -> None:
        row = await self.service.reads.session(update.session.id)
        if row is None:
            return
        latest = update if row.version == update.session.version else self.service.view(row)
        if row.status != "active" and row.version != update.session.version:
            return  # over since: its own answer showed the end
        await self.show(latest, None, notes=[], first=False)

    def gone(self, session_id: int, channel_id: str, message_id: int) -> None:
        """Board message ``message_id`` was deleted before an edit reached it: when it is the session's live one,
        a new board is posted (:meth:`catch_up`)."""
        live = self.live.get(session_id)
        if live is None or live.message_id != message_id:
            return
        log.info("board message %s of session %s is gone: posting a new one", message_id, session_id)
        self.live.pop(session_id, None)
        self.bot.spawn(self._catch_up_session(session_id), f"new board of session {session_id}")

    async def _catch_up_session(self, session_id: int) -> None:
        row = await self.service.reads.session(session_id)
        if row is not None and row.status == "active":
            self.catch_up(self.service.view(row))

    def draw_ahead(self, row: SessionRow, state: BaseState, pending: list[Decision]) -> None:
        """Start drawing the board of a move about to be stored (``row``: the session at its new version), so that
        the image and the store's write overlap (:meth:`bot.discord.images.Images.ahead`; :meth:`show` then finds
        it started). Not while a race is open: its inputs are only counted, the race's message stays. Never
        raises."""
        if any(d.player is None for d in pending):
            return
        try:
            self.bot.images.ahead(row, state, lambda: self.bot.links.names(row.id), pending)
        except Exception:
            log.exception("board v%s of session %s could not be drawn ahead", row.version, row.id)

    @staticmethod
    def what(update: Update) -> str:
        """A board in words, for the notice of a post that failed ("the race result (Tatamokatsu board v7)")."""
        board = T("{game} board v{version}", game=update.game.title, version=str(update.session.version))
        if any(e.kind == "window" for e in update.events):
            return T("the race result ({board})", board=board)
        if update.result is not None:
            return T("the result ({board})", board=board)
        return T("the {game} board v{version}", game=update.game.title, version=str(update.session.version))

    async def show(self, update: Update, interaction: discord.Interaction | None, *, notes: list[str],
                    first: bool, fresh: bool = False) -> None:
        """:meth:`send_board`'s work; raises ``discord.HTTPException`` when Discord refuses the post. Outside an
        interaction it may run again (a retry): a board older than the live one is then not posted. ``fresh``: a
        new message, whoever decides (the answer that shows a missed board)."""
        row = update.session
        if interaction is not None and not fresh:
            missed = self.bot.delivery.boards(row.channel_id)
            if missed:  # a board of this channel could not be posted: this one says why
                notes = [*notes, self.bot.delivery.cannot_post(missed, getattr(interaction, "app_permissions", None))]
                fresh = True
        names = await self.bot.links.names(row.id)
        # without Attach Files the board goes out as text at once; the image and its alt text are drawn together,
        # handed to the render workers first (the loop yields once): the text and components are built meanwhile
        attach = interaction is None or bool(interaction.app_permissions.attach_files)
        task = asyncio.ensure_future(self.bot.images.board(row, update.state, names, first=first,
                                                           pending=update.pending)) if attach else None
        if task is not None:
            await asyncio.sleep(0)
        if interaction is not None and update.events and row.status == "active":
            await self.bot.mygames.moved(str(interaction.user.id))  # a move ends its player's time away
        clock = await self.bot.notify.board_lines(update)
        lock = self._lock(row.id)
        if lock.locked() and interaction is not None:
            await self._defer(interaction)  # a board of this session is being posted by REST: answer first
        async with lock:
            live = self.live.get(row.id)
            if live is not None and live.version >= row.version and row.status == "active":
                await self.bot.answers.tell(interaction, T("Done."))  # a later board is out already
                return
            now = frozenset(deciders(update.pending))
            races = frozenset(n for n, d in zip(self.bot.races.names(update), update.pending, strict=False)
                              if d.player is None and n)
            racing = any(d.player is None for d in update.pending)
            if live is not None and live.races and races & live.races and row.status == "active":
                await self.bot.answers.counted(interaction, update)
                self.bot.races.track(update)
                return
            same = (live is not None and row.status == "active" and not racing and not live.races and not fresh
                    and bool(now) and now <= live.deciders and live.channel_id == row.channel_id)
            built: list[discord.ui.View | None] = []  # the first view, built while the image is drawn

            def view() -> discord.ui.View | None:
                if built:
                    return built.pop()
                return board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                                  emoji=self.bot.races.button_emoji(update),
                                  held=held_people(row, update.state, update.pending)) \
                    if row.status == "active" else None

            def texts(events: list[str] | None, first: bool) -> tuple[str, str, dict[str, str]]:
                """The board's text (with its image, else its text form), its text form, and each one's
                retired text."""
                board = BoardText(update, notes=notes, events=events, first=first, names=names, clock=clock)
                plain = board.form(numbered=True)
                text = board.form() if attach else plain
                retire = {plain: board.form(numbered=True, retired=True)}
                if attach:
                    retire[text] = board.form(retired=True)
                return text, plain, retire

            posted = None
            lines = event_lines(update)
            if same:
                lines = [*live.lines, *lines]
            text, plain, retire = texts(lines, live.first if same else first)
            built.append(view())
            if task is None:
                png, alt = NOT_DRAWN
            elif interaction is not None:
                done, _ = await asyncio.wait({task}, timeout=self.bot.image_wait_s)
                png, alt = task.result() if done else NOT_DRAWN
            else:
                png, alt = await task
            if same:
                try:
                    posted = await self._edit_live(interaction, live, update, text, png, view, plain, retire, alt=alt)
                    live.version, live.lines, live.deciders = row.version, lines, now
                    if posted.content is not None:
                        live.text, live.retired = posted.content, retire.get(posted.content, "")
                except discord.NotFound:  # the live message was deleted: a new board instead
                    log.info("board message %s of session %s is gone: posting a new one", live.message_id, row.id)
                    self.live.pop(row.id, None)
                    first, live, same = live.first, None, False
                    text, plain, retire = texts(lines, first)
            if posted is None:
                clicker = str(interaction.user.id) if interaction is not None else None
                posted = await self._post_turn(interaction, live, update, text, png_file(png, row.id, row.version, alt),
                                               view(), clicker, plain, own=not fresh)
                if row.status == "active":
                    self.bot.spawn(self.bot.notify.turn_started(update, clicker, posted.message_id),
                                   f"turn messages of board v{row.version} of session {row.id}")
                if row.status == "active" and posted.message_id is not None:
                    self.live[row.id] = Live(posted.message_id, row.channel_id, row.version, now, races, lines,
                                             posted.content or text, first, retire.get(posted.content or text, ""))
                else:
                    self.live.pop(row.id, None)
            if task is not None and (not task.done() or (png is None and task.result().png is not None)):
                self.bot.spawn(self._attach(task, posted, row, plain, retire[plain]),
                               f"image of board v{row.version} of session {row.id}")
        await self._posted(update, posted.message_id, new=not same, strip=live is None)
        if row.status == "finished" and update.record is not None:  # the result message
            try:
                await self.bot.results.post_result(update)
            except Exception:
                log.exception("result message of session %s failed", row.id)
            self.bot.spawn(self.bot.notify.ended(update), f"the end of session {row.id} told to its players")
        self.ended(update)

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        """Answer ``interaction`` now (a deferred update for a component, a public "thinking…" for a command); its
        board follows by follow-up. Never raises."""
        if interaction.response.is_done():
            return
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True)
                interaction.extras[THINKING] = "public"
        except discord.HTTPException as exc:
            log.info("interaction %s could not be deferred: %s", interaction.id, exc)

    def showing(self, sid: int) -> bool:
        """Whether a board of session ``sid`` is being shown now."""
        return self._lock(sid).locked()

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

    async def _edit_live(self, interaction: discord.Interaction | None, live: Live, update: Update, text: str,
                         png: bytes | None, view: Callable[[], discord.ui.View | None], plain: str | None,
                         retire: dict[str, str], alt: str | None = None) -> Posted:
        """Edit the live message in place (the image described by ``alt``): the press's own update when the press is
        on it (when Discord refuses the image, 403, the update is made again with ``plain``, the board's text form);
        else the interaction is told first (a short ephemeral "done") and the REST edit is queued
        (:class:`bot.discord.edits.BoardEdits`: made after the answer, the latest content only, in the background).
        Raises ``discord.NotFound`` when the pressed message was deleted (the caller posts a new board)."""
        row = update.session
        if self._on(interaction, live):
            kwargs: dict[str, Any] = {"content": text, "view": view(), "allowed_mentions": NO_PINGS}
            file = png_file(png, row.id, row.version, alt)
            if file is not None:
                kwargs["attachments"] = [file]
            try:
                try:
                    await interaction.response.edit_message(**kwargs)
                except discord.Forbidden as exc:
                    if file is None or plain is None:
                        raise
                    log.info("channel %s refused a board image (%s): edited as text", live.channel_id, exc.text)
                    kwargs.pop("attachments")
                    kwargs["content"] = plain
                    await interaction.response.edit_message(**kwargs)
            finally:
                let_go(kwargs["view"])
            posted = Posted(live.message_id, lambda f: interaction.edit_original_response(attachments=[f]),
                            lambda t: interaction.edit_original_response(content=t), kwargs["content"])
            await self.bot.delivery.surface(interaction)
            return posted
        await self.bot.answers.tell(interaction, T("✅ Done: the board in the channel shows it."))

        def edit(image: bytes | None) -> Edit:
            def kwargs() -> dict[str, Any]:
                kw: dict[str, Any] = {"content": text, "view": view(), "allowed_mentions": NO_PINGS}
                if image is not None:
                    kw["attachments"] = [png_file(image, row.id, row.version, alt)]
                return kw

            def as_text() -> dict[str, Any]:
                return {"content": plain, "view": view(), "allowed_mentions": NO_PINGS}

            def went_plain() -> None:
                if live.version == row.version and plain is not None:
                    live.text, live.retired = plain, retire.get(plain, "")

            return Edit(row.id, row.version, kwargs, as_text if image is not None and plain is not None else None,
                        self.what(update), on_plain=went_plain)

        async def attach(f: discord.File) -> None:
            self.edits.queue(live.channel_id, live.message_id, edit(f.fp.getvalue()))

        async def retext(t: str) -> None:
            nonlocal text
            text = t
            self.edits.queue(live.channel_id, live.message_id, edit(None))

        self.edits.queue(live.channel_id, live.message_id, edit(png))
        return Posted(live.message_id, attach, retext, text)

    async def _post_turn(self, interaction: discord.Interaction | None, live: Live | None, update: Update,
                         text: str, file: discord.File | None, view: discord.ui.View | None,
                         clicker: str | None, plain: str | None = None, *, own: bool = True) -> Posted:
        """Post the board of a new turn; the previous live message keeps its image and loses its components: the
        press's own update when the press is on it (``own``), else an edit queued once the new board is out (a
        board that could not be posted leaves the previous one its buttons)."""
        on = own and live is not None and self._on(interaction, live)
        if on:
            kwargs: dict[str, Any] = {"content": live.retired} if live.retired else {}
            await interaction.response.edit_message(view=None, allowed_mentions=NO_PINGS, **kwargs)
        mentions = await self.turn_pings(update, clicker)
        posted = await self.bot.answers.send(interaction, update.session.channel_id, text, file=file, view=view,
                                             mentions=mentions, plain=plain)
        if live is not None and not on:
            self.retire(live, update.session.id)
        return posted

    def retire(self, live: Live, session_id: int) -> None:
        """The previous turn's message: its text without the prompt, no components (its image stays); queued
        (:class:`bot.discord.edits.BoardEdits`), after any edit of it not made yet."""
        kwargs: dict[str, Any] = {"content": live.retired} if live.retired else {}  # (unknown: restored)
        self.edits.queue(live.channel_id, live.message_id,
                         Edit(session_id, live.version, lambda: {"view": None, "allowed_mentions": NO_PINGS, **kwargs},
                              None, f"the retired board {live.message_id}", notify=False))

    async def turn_pings(self, update: Update, clicker: str | None) -> discord.AllowedMentions:
        """Who the board of a new turn notifies: the players it names, minus ``clicker`` (whose input caused it),
        minus members whose route is not the channel or who muted the game (:mod:`.notify`) and those the AI
        stand-in plays for; nobody when the channel's ping mode is ``off``."""
        prefs = await self.bot.prefs.get(update.session.channel_id)
        if prefs.get("pings", "turn") == "off":
            return NO_PINGS
        held = held_people(update.session, update.state, update.pending)  # a live table's missing: pinged once
        named = (deciders(update.pending) | set(held)) - {clicker}
        told = await self.bot.notify.in_channel(update, named)
        muted = {clicker or "", *stand_ins(update.session), *(named - told)}
        mentions = pings(update.pending, exclude=muted)
        extra = [discord.Object(int(p)) for p in held if p.isdigit() and p not in muted]
        return discord.AllowedMentions(everyone=False, roles=False, users=[*(mentions.users or []), *extra]) \
            if extra else mentions

    async def send_private_board(self, update: Update, interaction: discord.Interaction | None, *,
                                 notes: list[str] = (), full: bool = False) -> None:
        """The board only the interaction's user sees: never pings, never touches the live message or the turn
        timers. Its components work only for a viewer the pending decisions name (a race: any seated player)."""
        row = update.session
        viewer = str(interaction.user.id) if interaction is not None else None
        try:
            names = await self.bot.links.names(row.id)
            mine = any(d.player == viewer or (d.player is None and viewer in row.players) for d in update.pending)
            with speaking(reader_lang()):  # only the viewer reads it: text, image and alt text in their language
                render = self.bot.images.full_png(row, update.state, names) if full else \
                    self.bot.images.png(row, update.state, names)
                png = await await_render(interaction, asyncio.ensure_future(render))
                clock = await self.bot.notify.board_lines(update)
                board = BoardText(update, notes=list(notes), names=names, clock=clock)
                text = board.form()
                view = board_view(row, update.pending, names, keys=self.bot.races.keys(update),
                                  emoji=self.bot.races.button_emoji(update)) if row.status == "active" and mine \
                    else None
                plain = board.form(numbered=True)
                alt = await self.bot.images.alt(row, update.state, names, pending=update.pending)
            await self.bot.answers.send(interaction, row.channel_id, text, view=view, ephemeral=True, plain=plain,
                                        file=png_file(png, row.id, row.version, alt))
        except Exception:
            log.exception("private board v%s of session %s failed", row.version, row.id)
            if interaction is not None:
                await self.bot.answers.refuse(interaction, T("The board could not be shown; try again."))

    async def _attach(self, task: asyncio.Future, posted: Posted, row: SessionRow, plain: str | None = None,
                      plain_retired: str = "") -> None:
        """Attach a late image (``task``: its :class:`~bot.discord.images.Drawn`, with its alt text) to the board
        message it belongs to (unless that message shows a newer board now).
        Discord refusing the image (403: no Attach Files) turns the message into ``plain``, the board's text form
        (``plain_retired`` once retired); a message deleted meanwhile is left alone (the next update posts a new
        board)."""
        png, alt = await task
        live = self.live.get(row.id)
        if live is not None and live.message_id == posted.message_id and live.version != row.version:
            return
        if png is None:
            return
        try:
            await posted.attach(png_file(png, row.id, row.version, alt))
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


__all__ = ["Live", "Table"]
