"""Real-time races on Discord: buttons, reactions and typed words on one clock (ARCHITECTURE.md; RULINGS TK-10).

A race is a pending decision with ``player=None`` (anyone seated may answer, e.g. Tatamokatsu's shout). It is
answered by

- its **buttons** — race buttons (``ids.RACE``) carry the race's key (``Game.race_key``) instead of the board
  version, so they stay valid for every player until the race is over; timed by the interaction's snowflake;
- **reactions** on the race's board messages: the game's emoji (``Game.reactions``, added to the board by the bot)
  or a keycap 1️⃣-🔟 for option 1-10; timed by their receive time mapped onto Discord's clock (below);
- **typed words**: a message the game reads as an option (``Game.chat_word``: "Tatamokatsu!" -> ``shout``) or
  whose text is an option id or label; timed by the message's snowflake.

An accepted input gets no public reply while its race goes on (a button press gets an ephemeral "counted" note, a
typed word that counts gets the :data:`COUNTED` reaction at once; a message that is no input gets none):
the race ends with ONE board message whose first line (the engine's ``window`` event) says who was first and by how
many ms. Bots are ignored; players not seated are ignored silently (messages, reactions) or told ephemerally
(buttons). A duplicated delivery (the same message or reaction twice) is applied once, a press on a race that is
over is refused with the current board, and the engine keeps each player's earliest time per input, so arrival
order never matters.

TK-10, one clock per race:

- snowflake inputs (buttons, messages) are timed by their snowflake: Discord's clock, 1 ms;
- a reaction carries no timestamp: :class:`DiscordClock` keeps the delivery delay (receive time minus snowflake time)
  of the last :data:`DELAY_WINDOW` snowflake events received (messages, interactions, the bot's own posted boards)
  and times a reaction ``receive time - the smallest of those delays``;
- "the window opens at the snowflake time of the roll message": the roll is committed before its message can be
  posted, so right after posting a board the adapter sends the game's opening input (``Game.opening``;
  Tatamokatsu: ``Move(None, "open", at_ms=<the board message's snowflake time>)``), which moves the window to
  ``[T_msg, T_msg + window]`` and is logged like any move (replay stays exact). The bot then adds the reactions.

Windows close through the durable deadline timers of the store (``bot.discord.timers``), after a restart too.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.service.timers import Timer
from bot.sessions import GAME_OVER, NOT_SEATED, SessionError, StaleBoard, Update, not_your_turn
from games import Decision
from games.core import T

from ..board_text import KEYCAPS
from . import ids
from .answers import snowflake_ms

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

COUNTED = "\N{WHITE HEAVY CHECK MARK}"
"""The reaction the bot adds to a typed message as soon as the game accepts it as a race input ("はい", "hai")."""

DELAY_WINDOW = 50
"""How many recent snowflake events the delivery-delay estimate looks at (TK-10: "recently observed")."""
SEEN_MAX = 4096
"""How many input deliveries are remembered to drop duplicates."""
RETRIES = 8
"""How often an input is re-tried when another input of the same race was committed in between."""


class DiscordClock:
    """Maps local receive times (ms) onto Discord's clock: ``receive - min(recent receive - snowflake time)``.

    ``now`` is the local clock (the bot's service clock: the same one the deadline timers use)."""

    def __init__(self, now: Callable[[], int] = lambda: int(time.time() * 1000)) -> None:
        self.now = now
        self._delays: deque[int] = deque(maxlen=DELAY_WINDOW)

    def observe(self, snowflake: int, received_ms: int | None = None) -> int:
        """Note one snowflake event received at ``received_ms`` (default now); returns its delay."""
        received = self.now() if received_ms is None else received_ms
        delay = received - snowflake_ms(snowflake)
        self._delays.append(delay)
        return delay

    def delay(self) -> int:
        """The smallest recently observed delivery delay (0 before any)."""
        return min(self._delays) if self._delays else 0

    def discord_ms(self, received_ms: int | None = None) -> int:
        """A receive time (default now) on Discord's clock."""
        received = self.now() if received_ms is None else received_ms
        return received - self.delay()

    def reset(self) -> None:
        self._delays.clear()


class Races(commands.Cog):
    """Race buttons, reactions and typed inputs; the opening input and the reactions of race boards."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self.channels: set[str] = set()
        self.clock = DiscordClock(now=lambda: int(bot.service.clock()))
        # channel -> (race names, ids of the board messages posted while one of them was pending)
        self.boards: dict[str, tuple[frozenset[str], set[int]]] = {}
        self._seen: OrderedDict[tuple, None] = OrderedDict()

    # -- what a board shows -------------------------------------------------------------------------------------
    @staticmethod
    def names(update: Update) -> list[str | None]:
        """``Game.race_key`` of each pending decision (None: a versioned decision)."""
        if update.state is None or update.session.status != "active":
            return [None] * len(update.pending)
        out = []
        for d in update.pending:
            try:
                out.append(update.game.race_key(update.state, d))
            except Exception:
                log.exception("race_key of session %s failed", update.session.id)
                out.append(None)
        return out

    def keys(self, update: Update) -> list[str | None]:
        """The race keys (``ids.race_key`` form) of the pending decisions, for ``present.board_view``."""
        return [ids.race_key(n) if n else None for n in self.names(update)]

    @staticmethod
    def button_emoji(update: Update) -> list[dict[str, str]]:
        """Per pending decision: option id -> the game's reaction emoji for it (shown on the race buttons)."""
        return [{opt: e for e, opt in update.game.reactions(d).items()} for d in update.pending]

    @commands.Cog.listener()
    async def on_ai_race_timer_complete(self, timer: Timer) -> None:
        """An AI seat's race input: counted silently while its race goes on (like a person's), else the board."""
        update = await self.bot.service.ai_turns.fire(timer)
        if update is None:
            return
        self.track(update)
        if timer.payload.get("race") in self.names(update):
            return  # the race goes on: its one board comes when it closes
        await self.bot.table.post(update)

    def track(self, update: Update) -> None:
        """Note whether ``update``'s channel now waits on a decision anyone seated may answer."""
        channel = update.session.channel_id
        if update.session.status == "active" and any(d.player is None for d in update.pending):
            self.channels.add(channel)
        else:
            self.channels.discard(channel)
            self.boards.pop(channel, None)

    def forget(self, channel_id: str) -> None:
        """The channel's game ended: it waits on no race any more."""
        self.channels.discard(channel_id)
        self.boards.pop(channel_id, None)

    def _note_board(self, update: Update, message_id: int) -> None:
        names = frozenset(n for n, d in zip(self.names(update), update.pending, strict=False)
                          if n and d.player is None)
        channel = update.session.channel_id
        if not names:
            self.boards.pop(channel, None)
            return
        old = self.boards.get(channel)
        if old is not None and old[0] & names:
            old[1].add(message_id)
            self.boards[channel] = (old[0] | names, old[1])
        else:
            self.boards[channel] = (names, {message_id})

    async def posted(self, update: Update, message_id: int | None) -> None:
        """After a public board was posted as ``message_id``: track the race, send the game's opening input timed by
        the message (TK-10), and add the game's reactions to the message (in the background)."""
        self.track(update)
        if message_id is None:
            return
        self.clock.observe(message_id)  # the send's answer arrives after the message was created
        self._note_board(update, message_id)
        row = update.session
        if row.status != "active" or update.state is None:
            return
        opening = update.game.opening(update.state)
        if opening is not None:
            await self._open(update, opening, message_id)
        emoji: list[str] = []
        for d in update.pending:
            emoji += [e for e in update.game.reactions(d) if e not in emoji]
        if emoji:
            self.bot.spawn(self._add_reactions(row.channel_id, message_id, emoji),
                           f"reactions on board {message_id} (session {row.id})")

    async def _open(self, update: Update, option: str, message_id: int) -> None:
        """The system's opening input, at the board message's time (TK-10). A refusal (the window is already open,
        or closed) is logged: the window then stays where the engine put it."""
        row = update.session
        try:
            new = await self.bot.service.act(row.channel_id, None, option, at_ms=snowflake_ms(message_id))
        except SessionError as exc:
            log.warning("opening input %r of session %s refused: %s", option, row.id, exc)
            return
        self.track(new)
        self.bot.timers.wake()  # the deadline moved

    async def _add_reactions(self, channel_id: str, message_id: int, emoji: list[str]) -> None:
        msg = self.bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
        for e in emoji:
            try:
                await msg.add_reaction(e)
            except discord.Forbidden:
                log.warning("cannot add reactions in channel %s (Add Reactions / Read Message History)", channel_id)
                return
            except discord.HTTPException as exc:
                log.warning("adding %s to message %s failed: %s", e, message_id, exc)

    async def restored(self, update: Update) -> None:
        """After a restart: track the race; a window whose opening input was not sent (a crash between the post and
        it) opens at the last board message's time if the engine accepts it."""
        self.track(update)
        if update.session.status != "active" or update.state is None:
            return
        opening = update.game.opening(update.state)
        if opening is None:
            return
        board = (await self.bot.links.get(update.session.id)).get("board")
        if board and str(board[0]) == update.session.channel_id:
            self._note_board(update, int(board[1]))
            await self._open(update, opening, int(board[1]))

    def close_grace_ms(self) -> int:
        """How long after a race deadline (a time on Discord's clock) its timer fires on the local clock: the
        smallest delivery delay (local clock minus Discord's, TK-10) plus ``Settings.race_grace_ms`` for inputs
        still in flight. Never negative: a window never closes before Discord's clock reaches its deadline."""
        return max(0, self.clock.delay()) + int(getattr(self.bot.settings, "race_grace_ms", 0) or 0)

    # -- inputs -------------------------------------------------------------------------------------------------
    def _first_seen(self, key: tuple) -> bool:
        """True the first time ``key`` (a delivery) is seen; duplicates give False."""
        if key in self._seen:
            return False
        self._seen[key] = None
        while len(self._seen) > SEEN_MAX:
            self._seen.popitem(last=False)
        return True

    def _same_race(self, before: Update, after: Update) -> bool:
        """Whether a race of ``before`` is still pending in ``after`` (then the input needs no public board)."""
        old = {n for n, d in zip(self.names(before), before.pending, strict=False) if n and d.player is None}
        new = {n for n in self.names(after) if n}
        if old:
            return bool(old & new)
        return False

    async def _answer(self, channel: str, user: str, pick: Callable[[Update, Decision], str | None],
                      at_ms: int) -> bool:
        """Apply the race option ``pick(update, decision)`` names for ``user`` (the first race decision where it
        names one). Silent when nothing matches (chat is mostly chat) and while the race goes on; a board when the
        input ended it. True when the input was accepted and counts (not one the game ignored, e.g. a salute
        from a player without fingers)."""
        update = await self.bot.service.show(channel)
        for _ in range(RETRIES):
            row = update.session
            if row.status != "active" or user not in row.players:
                return False
            option = None
            for d in update.pending:
                if d.player is None:
                    o = pick(update, d)
                    if o is not None and d.option(o) is not None:
                        option = o
                        break
            if option is None:
                return False
            try:
                new = await self.bot.service.act(channel, user, option, at_ms=at_ms, expect_version=row.version)
            except StaleBoard:  # another input got in first: look again (the race may be over)
                update = await self.bot.service.show(channel)
                continue
            except SessionError as exc:
                log.info("race input refused in session %s: %s", row.id, exc)
                return False
            self.track(new)
            if not self._same_race(update, new):
                await self.bot.table.post(new)
            return not any(e.kind == "ignored" for e in new.events)
        log.warning("race input of %s in channel %s gave up after %d retries", user, channel, RETRIES)
        return False

    async def press(self, interaction: discord.Interaction, sid: int, key: str, option: str) -> None:
        """A race button: ``option`` of the race ``key`` (``ids.race_key``) of session ``sid``."""
        try:
            await self._press(interaction, sid, key, option)
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("race button %s/%s/%s failed (session %s)", sid, key, option, sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; the game is unchanged. "
                                                        "Try again."))

    async def _press(self, interaction: discord.Interaction, sid: int, key: str, option: str) -> None:
        if interaction.user.bot:
            return
        answers, service = self.bot.answers, self.bot.service
        at = snowflake_ms(interaction.id)
        row = await answers.board_row(interaction, sid)
        if row is None:
            return
        user = str(interaction.user.id)
        if user not in row.players:
            await answers.refuse(interaction, NOT_SEATED)
            return
        for _ in range(RETRIES):
            update = service.view(row)
            keys = self.keys(update)
            match = next((d for d, k in zip(update.pending, keys, strict=False)
                          if k == key and d.option(option) is not None), None)
            if match is None:
                await answers.stale(interaction)  # that race is over: the current board, ephemeral
                return
            if match.player is not None and match.player != user:
                await answers.refuse(interaction, not_your_turn([match]))
                return
            try:
                new = await service.act(row.channel_id, user, option, at_ms=at, expect_version=row.version)
            except StaleBoard:
                row = await service.reads.session(sid)
                if row is None or row.status != "active":
                    await answers.refuse(interaction, GAME_OVER)
                    return
                continue
            self.track(new)
            if self._same_race(update, new):
                await answers.counted(interaction, new)
            else:
                await self.bot.table.send_board(new, interaction)
            return
        await answers.refuse(interaction, T("Too many inputs at once; press again."))

    # -- gateway events -----------------------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.clock.observe(interaction.id)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None:
            return
        self.clock.observe(message.id)
        if message.author.bot or str(message.channel.id) not in self.channels:
            return
        text = message.content.strip()
        if not text or not self._first_seen(("m", message.id)):
            return

        def pick(update: Update, d: Decision) -> str | None:
            """The game's chat word (``Game.chat_word``), else an option id or label typed as it is."""
            word = update.game.chat_word(text)
            if word is not None:
                return word
            plain = text.lower().lstrip("!/")
            return next((o.id for o in d.options if plain in (o.id.lower(), o.label.lower())), None)

        try:
            counted = await self._answer(str(message.channel.id), str(message.author.id), pick,
                                         snowflake_ms(message.id))
        except Exception:
            log.exception("typed input in channel %s failed", message.channel.id)
            return
        if counted:
            self.bot.spawn(self._add_reactions(str(message.channel.id), message.id, [COUNTED]),
                           f"counted reaction on message {message.id}")

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        at = self.clock.discord_ms()  # TK-10: receive time on Discord's clock
        channel = str(payload.channel_id)
        if payload.guild_id is None or channel not in self.channels:
            return
        if (payload.member is not None and payload.member.bot) or (
                self.bot.user is not None and payload.user_id == self.bot.user.id):
            return
        if not await self._race_message(channel, payload.message_id):
            return  # a reaction on another message (an old board, chatter)
        emoji = payload.emoji.name or ""
        if not self._first_seen(("r", payload.message_id, payload.user_id, emoji)):
            return
        index = KEYCAPS.index(emoji) if emoji in KEYCAPS else None

        def pick(update: Update, d: Decision) -> str | None:
            mapped = update.game.reactions(d).get(emoji)
            if mapped is not None:
                return mapped
            if index is not None:
                return d.options[index].id if index < len(d.options) else None
            return next((o.id for o in d.options if o.id.lower() == emoji.lower()), None)

        try:
            await self._answer(channel, str(payload.user_id), pick, at)
        except Exception:
            log.exception("reaction input in channel %s failed", payload.channel_id)

    async def _race_message(self, channel: str, message_id: int) -> bool:
        """Whether ``message_id`` is a board of the channel's current race (after a restart: its last board)."""
        known = self.boards.get(channel)
        if known is not None:
            return message_id in known[1]
        row = await self.bot.service.reads.live_session(channel)
        if row is None:
            return False
        board = (await self.bot.links.get(row.id)).get("board")
        if board and int(board[1]) == message_id:
            self._note_board(self.bot.service.view(row), message_id)
            return True
        return False
