"""Playing: choice buttons and selects, ``/move`` (autocomplete), ``/board``, ``/history``, ``/resign``, ``/rules``,
``/help``, How to play and Full board, and the turn timers (deadlines, AI moves, reminders).

Every handler parses Discord input, calls :class:`bot.sessions.SessionService` (which makes every check and says
every refusal), and answers through :mod:`bot.discord.table` (the live board message) and :mod:`bot.discord.answers`
(refusals, stale presses). A press carries ``(session, version, decision, option)`` (see :mod:`bot.discord.ids`);
``SessionService.press`` applies it only to that board version, so a stale or double click can never reach another
state. A typed ``/move`` costs what a press costs (the session row read once): its text is resolved to an option
(:func:`bot.board_text.typed_choice`, as in the sandbox) once the service has read the row.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.board_text import option_label, options_open_to, typed_choice
from bot.i18n import reader_lang, say, speaking
from bot.matching import find_game, fold, matches, names_of
from bot.rules_help import MAX_CONTENT, guide, help_command, how_to_play, rules_command
from bot.service.timers import Timer
from bot.sessions import STALE_TEXT, SessionError, StaleBoard, Update
from bot.store import SessionRow
from games import Decision
from games.core import T

from .answers import DISCORD_EPOCH_MS, NO_PINGS, answer, await_render, snowflake_ms
from .components import let_go
from .cooldowns import Cooldown
from .images import board_words, png_file
from .lobby import game_autocomplete
from .present import (
    BoardText,
    as_mentions,
    as_names,
    deciders,
    display,
    page_view,
    topics_view,
)
from .table import Live

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

BOARD_COOLDOWN_MS = 60_000
"""``/board public:true`` shows the board to everyone at most once a minute per channel."""


def is_moderator(interaction: discord.Interaction) -> bool:
    """Manage Channels or Manage Threads in this channel."""
    perms = interaction.permissions
    return bool(perms.manage_channels or perms.manage_threads)


class Play(commands.Cog):
    """Boards and moves."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._shown = Cooldown(BOARD_COOLDOWN_MS)  # per channel: /board public:true

    @property
    def service(self):
        return self.bot.service

    @property
    def table(self):
        return self.bot.table

    # -- components ---------------------------------------------------------------------------------------------
    async def choose(self, interaction: discord.Interaction, sid: int, ver: int, d: int, o: int) -> None:
        """A choice button or select: option ``o`` of decision ``d`` of board ``ver`` of session ``sid``."""
        try:
            await self._choose(interaction, sid, ver, d, o)
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("choice %s/%s/%s/%s failed (session %s)", sid, ver, d, o, sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; the game is unchanged. "
                                                         "Try again."))

    async def _choose(self, interaction: discord.Interaction, sid: int, ver: int, d: int, o: int) -> None:
        if interaction.user.bot:
            return
        try:
            update = await self.service.press(str(interaction.channel_id), sid, ver, d, o, str(interaction.user.id),
                                              at_ms=snowflake_ms(interaction.id))
        except StaleBoard:
            await self.bot.answers.stale(interaction)
            return
        self.table.floors.committed(update.session.id, update.session.version)
        await self.table.send_board(update, interaction)

    async def open_group(self, interaction: discord.Interaction, sid: int, ver: int, d: int, page: int) -> None:
        """Step two of a two-step pick: an ephemeral select with page ``page`` of decision ``d``'s options."""
        update = await self.bot.answers.current(interaction, sid, ver)
        if update is None:
            return
        row = update.session
        if not (0 <= d < len(update.pending)) or page * 25 >= len(update.pending[d].options):
            await self.bot.answers.refuse(interaction, T("This menu is not valid. Use the current board."))
            return
        names = await self.bot.links.names(row.id)
        await answer(interaction, as_names(update.pending[d].prompt, names),
                     view=page_view(row, d, update.pending[d], page, names))

    # -- slash commands ------------------------------------------------------------------------------------------
    async def option_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """The caller's legal options now (label shown — with its board marker key first — option id
        sent), filtered by what they typed (:func:`bot.matching.matches`: kana script and width do not matter)."""
        try:
            update = await self.service.show(str(interaction.channel_id))
        except SessionError:
            return []
        if update.session.status != "active":
            return []
        names = await self.bot.links.names(update.session.id)
        out = []
        user = str(interaction.user.id)
        for d, i in options_open_to(update.pending, user, seated=user in update.session.players):
            label, opt = option_label(d, i, names), d.options[i]
            if matches(current, {fold(label), fold(opt.id)}):
                out.append(app_commands.Choice(name=label[:100] or opt.id[:100], value=opt.id[:100]))
        return out[:25]

    @app_commands.command(name="move", description="Make your move: pick one of your options (it autocompletes)")
    @app_commands.describe(option="One of your legal options; start typing to see them")
    @app_commands.autocomplete(option=option_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, option: app_commands.Range[str, 1, 100]) -> None:
        self.table.floors.saw(interaction.id)
        if not isinstance(option, str):  # a forged or stale payload (the tree refuses those before: belt and braces)
            raise SessionError(T("The option of /move is text: one of your options (it autocompletes)."))
        channel, user = str(interaction.channel_id), str(interaction.user.id)

        async def resolve(row: SessionRow, pending: list[Decision]) -> str:
            """The option id typed, once the session row is read (the service reads it once)."""
            if self.table.floors.stale(row.id, row.version, interaction.id):
                raise StaleBoard(STALE_TEXT)
            names = await self.bot.links.names(row.id)
            return typed_choice(pending, user, option, seated=user in row.players, names=names)

        try:
            update = await self.service.act(channel, user, option, at_ms=snowflake_ms(interaction.id), resolve=resolve)
        except StaleBoard:
            await self.bot.answers.stale(interaction)
            return
        self.table.floors.committed(update.session.id, update.session.version)
        await self.table.send_board(update, interaction)

    async def _shown_update(self, channel: str) -> Update:
        """The channel's game as it stands, or the last game when it is over (its final board and result)."""
        try:
            return await self.service.show(channel)
        except SessionError:
            last = await self.service.reads.last_session(channel)
            if last is None or last.status != "finished":
                raise
            return self.service.view(last)

    @app_commands.command(name="board", description="See this channel's board (only you; public:true for everyone)")
    @app_commands.describe(public="Post it in the channel for everyone (players of the game; once a minute)",
                           full="The whole board instead of the view of the current decision",
                           words="The whole board in words, only for you (for screen readers)")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, public: bool = False, full: bool = False,
                    words: bool = False) -> None:
        """Ephemeral by default for anyone (working buttons when it is the viewer's decision); a seated
        player may post it publicly, at most once per :data:`BOARD_COOLDOWN_MS` per channel. Never pings, never
        touches the live message, the turn timers or a race. After the game: its final board and result.
        ``words``: the whole board in words (:func:`renderers.words.board_words`), always only for the viewer,
        one ephemeral message per chunk of at most 1,900 characters (``public`` and ``full`` do not apply)."""
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        update = await self._shown_update(channel)
        row = update.session
        if row.status == "lobby":
            await self.bot.lobby.send_card(interaction, update)
            return
        if words and update.state is not None:
            names = await self.bot.links.names(row.id)
            for chunk in await asyncio.to_thread(board_words, update.state, names):
                await answer(interaction, chunk[:2000], ephemeral=True, allowed_mentions=NO_PINGS)
            return
        if not public:
            await self.table.send_private_board(update, interaction, full=full)
            return
        if user not in row.players:
            raise SessionError(T("Only the players of this game can show the board to everyone; /board shows it "
                                 "to you."))
        wait = self._shown.wait_s(channel, int(self.service.clock()))
        if wait:
            raise SessionError(T("The board was shown to everyone a moment ago; again in {wait} s (or /board for "
                                 "yourself).", wait=wait))
        names = await self.bot.links.names(row.id)
        render = self.bot.images.full_png(row, update.state, names) if full else \
            self.bot.images.png(row, update.state, names)
        png = await await_render(interaction, asyncio.ensure_future(render))
        live = row.status == "active"  # then the buttons stay on the live board: this copy is shown retired
        board = BoardText(update, names=names)
        text, plain = board.form(retired=live), board.form(numbered=True, retired=live)
        if live:
            note = say(T("-# Shown by /board; the buttons are on the live board."))
            text, plain = (t + "\n" + note for t in (text, plain))
        alt = await self.bot.images.alt(row, update.state, names)
        await self.bot.answers.send(interaction, channel, text[:2000], plain=plain[:2000],
                                    file=png_file(png, row.id, row.version, alt))

    @app_commands.command(name="history", description="The recent events of this channel's game")
    @app_commands.describe(count="How many events (default 15)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        channel = str(interaction.channel_id)
        events = await self.service.history(channel, count)  # a running game, or the last one that ended
        lang = reader_lang()  # an ephemeral answer
        text = "\n".join(f"• {as_mentions(e.text, lang)}" for e in events) or say(T("Nothing has happened yet."), lang)
        while len(text) > 1900:
            text = text[text.index("\n") + 1:]
        await answer(interaction, text, allowed_mentions=NO_PINGS)

    @app_commands.command(name="resign", description="Leave the game you are playing in this channel")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        update = await self.service.resign(str(interaction.channel_id), str(interaction.user.id))
        await self.table.send_board(update, interaction)

    async def topic_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """The game's rules topics whose key, or name in any language, holds what was typed
        (:func:`bot.matching.matches`)."""
        game = find_game(getattr(interaction.namespace, "game", None) or "")
        if game is None:
            return []
        lang = reader_lang()
        return [app_commands.Choice(name=say(game.topic_name(t), lang)[:100], value=t)
                for t in game.rules_help if t and matches(current, names_of(t, game.topic_name(t)))][:25]

    @app_commands.command(name="rules", description="How a game is played, in short; without a game: every command")
    @app_commands.describe(game="Which game (none: every command, results, ratings, AI players)",
                           topic="A topic of its rules (autocompletes)")
    @app_commands.autocomplete(game=game_autocomplete, topic=topic_autocomplete)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction, game: str | None = None, topic: str | None = None) -> None:
        if not game:
            text = guide(typed_words=self.bot.intents.message_content, lang=reader_lang())
            await answer(interaction, say(text, reader_lang())[:MAX_CONTENT])
            return
        await answer(interaction, say(rules_command(self.service.game(game), topic, reader_lang()), reader_lang())[:2000])

    async def how_to_play(self, interaction: discord.Interaction, game_id: str, topic: str | None = None) -> None:
        """The "How to play" button (``topic`` None: a new ephemeral answer with the overview) and its topic select
        (``topic`` a ``Game.rules_help`` key, "" the overview: that answer is edited)."""
        try:
            game = games.get(game_id)
        except KeyError:
            await self.bot.answers.refuse(interaction, T("This game is not available any more. /help lists the games."))
            return
        if topic and topic not in game.rules_help:
            await self.bot.answers.refuse(interaction, T("{game} has no rules topic '{topic}'.", game=game.title,
                                                         topic=topic[:50]))
            return
        with speaking(reader_lang()):  # the select's placeholder and options too: the answer is the reader's
            text, view = say(how_to_play(game, topic or ""))[:2000], topics_view(game, topic or "")
        try:
            if topic is None:
                kwargs: dict[str, Any] = {"view": view} if view is not None else {}
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
            else:
                await interaction.response.edit_message(content=text, view=view)
        finally:
            let_go(view)

    async def full_board(self, interaction: discord.Interaction, sid: int) -> None:
        """The "Full board" button: the whole board of session ``sid`` as it stands (``render(full=True)``),
        ephemeral; for a game that is over too."""
        row = await self.service.reads.session(sid)
        if row is None or row.channel_id != str(interaction.channel_id) or row.state is None:
            await self.bot.answers.refuse(interaction, T("This button does not belong to a game in this channel."))
            return
        await self.table.send_private_board(self.service.view(row), interaction, full=True)

    @app_commands.command(name="help", description="What this bot does and its commands")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, say(help_command(typed_words=self.bot.intents.message_content), reader_lang()))

    # -- timers (events of bot.discord.timers) ------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_deadline_timer_complete(self, timer: Timer) -> None:
        """A decision's deadline passed: the system's timeout move is committed (``timer.update``); its board is
        posted."""
        await self.table.post(timer.update)

    @commands.Cog.listener()
    async def on_ai_move_timer_complete(self, timer: Timer) -> None:
        """An AI seat's move: searched off the event loop by the session service, then posted."""
        update = await self.service.ai_turns.fire(timer)
        if update is not None:
            await self.table.post(update)

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
        self.table.live[row.id] = Live(int(board[1]), row.channel_id, row.version, frozenset(deciders(update.pending)),
                                 races, [], "")

    async def restore(self) -> int:
        """After a restart: the live sessions need nothing but their rows (components and timers are durable);
        the race listeners learn which channels wait on typed inputs. Returns the number of live sessions."""
        rows = await self.service.reads.live_sessions()
        for row in rows:
            if row.status == "active":
                try:
                    await self._restore_live(row)
                    await self.bot.races.restored(self.service.view(row))
                except Exception:
                    log.exception("could not restore session %s", row.id)
        return len(rows)


__all__ = ["DISCORD_EPOCH_MS", "Play", "display", "is_moderator", "snowflake_ms"]
