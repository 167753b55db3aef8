"""The session service: lobbies and games per channel, every verb one store transaction (ARCHITECTURE.md).

Verbs: :meth:`SessionService.open_lobby`, ``join``, ``leave``, ``add_ai``, ``remove_ai``, ``start``, ``cancel``,
``act`` (a move by option id), ``press`` (a board component: session, version, decision and option indices),
``tick``, ``resign``, ``remove_idle``, ``abandon``, ``ask_undo``/``vote_undo`` (and ``undo``), ``show``. AI seats
are played through durable timers (:mod:`bot.service.ai_turns`). Each returns an :class:`Update` (what changed and
what the game now waits for) or raises :class:`SessionError` whose message a person can read (adapters show it ephemerally); a refused call stores
nothing. Every rule an adapter needs is checked here and every refusal worded here (``NOT_SEATED``,
:func:`not_your_turn`, …), so the Discord adapter, the sandbox and the transcripts meet the same rules:

- a move or press is taken only from a seated player, only for a decision that is theirs (or anyone's), only on
  the board version it was made on;
- undo: a seated player who is still playing asks; every other seated person still playing approves (AI seats
  never object; one refusal closes the request; any move makes it out of date); alone with AI seats, at once
  (the rule's verbs: :mod:`bot.service.undo`).

The refusals (errors and wordings) are in :mod:`bot.refusals`; their names import from here as well.

The service is a facade of these verbs over composed parts (:mod:`bot.service`), each given what it needs. The parts
adapters use by name: ``reads`` (sessions and move logs), ``records`` (ended games, ratings, standings), ``timers``
(their own kinds and a dispatcher's claim API; every kind fires as one :class:`~bot.service.timers.Timer`),
``privacy`` (a member's games and data), ``ai_turns`` (firing AI seats' timers). Adapters never reach into the store;
their own data comes in through the constructor (``undo_votes``, ``display_names``).

Guarantees:
- one lobby or active session per channel (also enforced by a unique index);
- every change of a channel runs under that channel's :class:`asyncio.Lock`, and every change is one store
  transaction (append the move, save the state, bump the version, reschedule deadline timers) committed before the
  verb returns — so before any reply;
- the move log replays: ``replay(game, players, options, seed, moves)`` rebuilds the stored state exactly.

Player ids are strings (Discord user ids, or names offline). Times are ms.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from games import Decision, Event, Move, player_ref
from games.core import BaseState, T

from .ai_seats import AiSettings
from .refusals import (
    GAME_OVER,
    IDLE_PLAYED,
    IDLE_WHO,
    LEFT_GAME,
    NOT_SEATED,
    NOT_STARTED,
    NOT_THIS_CHANNEL,
    STALE_TEXT,
    SessionError,
    StaleBoard,
    UndoOutOfDate,
    not_your_turn,
)
from .refusals import (
    UNDO_OUT_OF_DATE as UNDO_OUT_OF_DATE,
)
from .service.ai_turns import AI_MOVE, AI_RACE, AiPlanner, AiTurns
from .service.away import Away
from .service.board import Locks, Rows, States, Update, game_of
from .service.deadlines import DEADLINE, Deadlines, TimeoutMoves
from .service.hints import Hints
from .service.ledger import Ledger
from .service.lobby import Lobby, option_problems, rerun_when_stale
from .service.members import MemberGames
from .service.notifications import Notifications
from .service.presence import Presence
from .service.privacy import Privacy
from .service.reads import Reads
from .service.records import DisplayNames, Records
from .service.rematch import Rematch
from .service.resignations import Resignations
from .service.stand_in import StandIns
from .service.timers import Timer, Timers
from .service.undo import MemoryUndoVotes, UndoRule, UndoVote, UndoVotes, replay
from .store import SessionRow, StaleVersion, Store, now_ms
from .store.records import RESIGN_MOVE

RESIGN = RESIGN_MOVE
"""Option id under which a resignation is logged, so that replay reproduces it."""
MAX_MS = 2**63 - 1
"""The largest time (ms) the store can hold (SQLite INTEGER)."""


class SessionService:
    """Lobbies and games over a :class:`Store`. ``clock()`` gives ms (tests pass a fake); ``seeds()`` new seeds;
    ``ai`` the AI seats' settings; ``undo_votes`` where open undo requests are kept (default in memory; the Discord
    adapter passes its :class:`bot.discord.links.Links`, so they survive a restart); ``display_names`` the players'
    names a finished game is recorded with (default none: the ids are the names)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int] = now_ms,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
        ai: AiSettings | None = None,
        undo_votes: UndoVotes | None = None,
        display_names: DisplayNames | None = None,
    ) -> None:
        self.store = store
        """The store (the process's own: opened and closed by whoever made the service; adapters use the parts)."""
        self.clock = clock
        """ms now; replaceable (the sandbox runs the service on its virtual clock): every part reads it here."""
        clock = self._now
        self.ai = ai or AiSettings()
        self.lock = Locks()
        self.states = States()
        self.deadlines = Deadlines(store)
        self.rows = Rows(store)
        self.reads = Reads(store)
        self.records = Records(store, clock, display_names)
        self.timers = Timers(store)
        planner = AiPlanner(store, clock, self.ai)
        self.ledger = Ledger(store, clock, self.states, self.deadlines, planner, self.records)
        self.ai_turns = AiTurns(store, clock, self.ai, self.lock, self.states, self.ledger.commit)
        self.timeouts = TimeoutMoves(store, self.lock, self.states, self.ledger.commit, self.ai_turns)
        self.hints = Hints(store, self.lock, self.states, self.ai)
        self.lobby = Lobby(store, clock, seeds, self.lock, self.rows, self.states, self.deadlines, planner,
                           self.hints.new_to)
        self.undo_rule = UndoRule(store, clock, self.lock, self.rows, self.states, self.deadlines, planner,
                                  undo_votes or MemoryUndoVotes())
        self.privacy = Privacy(store, self.lock, self.forget)
        self.resignations = Resignations(clock, self.lock, self.rows, self.states, self.reads, self.ledger)
        self.stand_ins = StandIns(store, self.lock, self.rows, self.states, self.reads, planner, self.resignations)
        """The AI stand-in: take over an absent person's seat, "I'm back", remove (:mod:`bot.service.stand_in`)."""
        self.presence = Presence(self.lock, self.rows, self.states, self.ledger.apply)
        """A live table's "I'm here" (:mod:`bot.service.presence`)."""
        self.rematch = Rematch(store, self.lock, self.reads, self.states, self.lobby)
        """Rematch of a finished game (:mod:`bot.service.rematch`)."""
        self.notifications = Notifications(store)
        self.away = Away(store, clock)
        self.members = MemberGames(store, self)

    def _now(self) -> int:
        return self.clock()

    game = staticmethod(game_of)

    def state_of(self, row: SessionRow) -> BaseState | None:
        """The parsed state of ``row`` (cached by version); None in a lobby."""
        return self.states.state_of(row)

    def view(self, row: SessionRow) -> Update:
        """The :class:`Update` of a stored row as it stands (state, pending decisions, result), for adapters."""
        return self.states.view(row)

    def forget(self, session_id: int) -> None:
        """Drop what this process keeps in memory for a session that ended (its parsed state, its timer note)."""
        self.ledger.forget(session_id)

    # -- lobby (:mod:`bot.service.lobby`) --------------------------------------------------------------------------
    async def open_lobby(self, channel_id: str, game_id: str, host: str, options: dict | None = None,
                         guild_id: str | None = None, ai_seats: int = 0, ai_level: str | None = None,
                         pace: str | None = None, hints: bool | None = None) -> Update:
        """:meth:`bot.service.lobby.Lobby.open_lobby`: a lobby for ``game_id`` with ``host`` (and AI seats), at
        ``pace`` (:mod:`bot.service.pace`); ``hints``: the lobby's ``hints:``, None for the default."""
        return await self.lobby.open_lobby(channel_id, game_id, host, options, guild_id, ai_seats, ai_level, pace,
                                           hints)

    async def join(self, channel_id: str, player: str) -> Update:
        """:meth:`bot.service.lobby.Lobby.join`: ``player`` takes a seat in the lobby."""
        return await self.lobby.join(channel_id, player)

    async def leave(self, channel_id: str, player: str) -> Update:
        """:meth:`bot.service.lobby.Lobby.leave`: ``player`` leaves the lobby."""
        return await self.lobby.leave(channel_id, player)

    async def add_ai(self, channel_id: str, by: str, level: str | None = None, count: int = 1) -> Update:
        """:meth:`bot.service.lobby.Lobby.add_ai`: the host seats AI players."""
        return await self.lobby.add_ai(channel_id, by, level, count)

    async def remove_ai(self, channel_id: str, by: str, player: str) -> Update:
        """:meth:`bot.service.lobby.Lobby.remove_ai`: the host unseats an AI player."""
        return await self.lobby.remove_ai(channel_id, by, player)

    async def cancel(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """:meth:`bot.service.lobby.Lobby.cancel`: the host or a moderator closes the lobby."""
        return await self.lobby.cancel(channel_id, by, moderator)

    async def start(self, channel_id: str, by: str) -> Update:
        """:meth:`bot.service.lobby.Lobby.start`: the host deals the game."""
        return await self.lobby.start(channel_id, by)

    # -- play -------------------------------------------------------------------------------------------------
    async def act(
        self,
        channel_id: str,
        player: str | None,
        option: str,
        at_ms: int | None = None,
        expect_version: int | None = None,
        resolve: Callable[[SessionRow, list[Decision]], Awaitable[str]] | None = None,
    ) -> Update:
        """Apply ``player``'s ``option`` in ``channel_id``'s game: one transaction (move, state, version, timers).

        ``expect_version``: the board version the player saw (components carry it); a different stored version
        raises :class:`StaleBoard`. ``at_ms`` defaults to ``clock()`` and is logged with the move. ``resolve``: a typed
        move (``/move``) — the session row is read once and ``resolve(row, pending)`` (under the channel's lock) says
        the option id the typed ``option`` stands for (:func:`bot.board_text.typed_choice`), or raises
        (:class:`StaleBoard`: typed before its board could be seen).
        Raises :class:`SessionError` for no game, a player not seated, another player's turn, a player who resigned
        or was removed (:data:`LEFT_GAME`), or an illegal move (the engine's message).
        """
        if at_ms is not None and not 0 <= at_ms <= MAX_MS:
            raise SessionError(T("That time ({at} ms) is out of range: a move's time is 0 to {most} ms.", at=str(at_ms),
                                 most=str(MAX_MS)))
        async with self.lock(channel_id):
            row = await self.rows.active(channel_id)
            if expect_version is not None and expect_version != row.version:
                raise StaleBoard(STALE_TEXT)
            state = self.states.state_of(row)
            pending = self.states.pending_of(row, state)
            if resolve is not None:
                option = await resolve(row, pending)
            if player is not None and player not in row.players:
                raise SessionError(NOT_SEATED)
            if player is not None and pending and not any(d.player in (None, player) for d in pending):
                raise SessionError(not_your_turn(pending))
            if player is not None and not any(d.player == player for d in pending):
                await self._still_playing(row, player)  # only anyone's decisions (a race) are open to them
            return await self.ledger.apply(row, state, player, option, at_ms)

    async def press(self, channel_id: str, session_id: int, version: int, decision: int, option: int, player: str,
                    at_ms: int | None = None) -> Update:
        """A press on a board's component: option ``option`` of pending decision ``decision`` (indices) of board
        ``version`` of session ``session_id``, by ``player`` in ``channel_id``. The session row is read once.
        Refused, in this order: not this channel's game (:data:`NOT_THIS_CHANNEL`), a lobby (:data:`NOT_STARTED`),
        a game that ended (:data:`GAME_OVER`), another board version (:class:`StaleBoard`), indices that name
        nothing, someone not seated (:data:`NOT_SEATED`), another player's decision (:func:`not_your_turn`), a
        player who resigned or was removed (:data:`LEFT_GAME`), or an illegal move (the engine's message). Nothing
        is stored when refused."""
        if at_ms is not None and not 0 <= at_ms <= MAX_MS:
            raise SessionError(T("That time ({at} ms) is out of range: a move's time is 0 to {most} ms.", at=str(at_ms),
                                 most=str(MAX_MS)))
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            if row.version != version:
                raise StaleBoard(STALE_TEXT)
            state = self.states.state_of(row)
            pending = self.states.pending_of(row, state)
            if not (0 <= decision < len(pending)) or not (0 <= option < len(pending[decision].options)):
                raise SessionError(T("This button is not valid. Use the buttons on the current board."))
            d = pending[decision]
            if player not in row.players:
                raise SessionError(NOT_SEATED)
            if d.player is not None and d.player != player:
                raise SessionError(not_your_turn([d]))
            if d.player is None:  # anyone's decision: anyone still playing (the engine never names one who left)
                await self._still_playing(row, player)
            return await self.ledger.apply(row, state, player, d.options[option].id, at_ms)

    async def _still_playing(self, row: SessionRow, player: str) -> None:
        """:data:`LEFT_GAME` when ``player`` resigned or was removed from ``row``'s game."""
        if player in await self.reads.resigned(row.id):
            raise SessionError(LEFT_GAME)

    async def board_row(self, channel_id: str, session_id: int) -> SessionRow:
        """:meth:`bot.service.board.Rows.on_board`: the running session a component in ``channel_id`` names."""
        return await self.rows.on_board(channel_id, session_id)

    async def resign(self, channel_id: str, player: str, by: str | None = None) -> Update:
        """:meth:`bot.service.resignations.Resignations.resign`: ``player`` leaves a running game (``by``: who
        removes them; None when they resign themselves)."""
        return await self.resignations.resign(channel_id, player, by)

    async def remove_idle(self, channel_id: str, session_id: int, version: int, seat: int, by: str,
                          idle_after_ms: int, moderator: bool = False) -> Update:
        """:meth:`bot.service.resignations.Resignations.remove_idle`: the "remove the idle player" press."""
        return await self.resignations.remove_idle(channel_id, session_id, version, seat, by, idle_after_ms,
                                                   moderator)

    async def waiting_since(self, row: SessionRow) -> int:
        """When (ms) ``row``'s board version was dealt (:meth:`bot.service.resignations.Resignations.waiting_since`)."""
        return await self.resignations.waiting_since(row)

    async def tick(self, now: int | None = None, ai: bool = True) -> list[Update]:
        """Fire every timer of the game due at ``now`` (ms, default the clock), earliest first: the system's
        timeout move for each decision whose deadline has passed and, when ``ai``, the AI seats' moves and race
        inputs; returns the updates (:meth:`bot.service.deadlines.TimeoutMoves.fire_due`, whose :class:`Timer`
        events carry them)."""
        fired = await self.timeouts.fire_due(self.clock() if now is None else now, ai)
        return [t.update for t in fired if t.update is not None]

    @rerun_when_stale
    async def abandon(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """End the channel's lobby or game without a result: the host, or a moderator (Manage Channels/Threads)."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            if by != row.host and not moderator:
                raise SessionError(T("Only the host, {host}, or a moderator can abandon this game. To leave it "
                                     "yourself, {command}.", host=player_ref(row.host),
                                     command=T("/leave") if row.status == "lobby" else T("/resign")))
            row = await self.ledger.abandon(row)
        self.forget(row.id)
        return self.states.view(row, notes=[T("{player} abandoned the game.", player=player_ref(by))])

    @rerun_when_stale
    async def close_place(self, channel_id: str, reason: str) -> Update | None:
        """The place of ``channel_id``'s session is gone (channel or thread deleted, bot removed from the server):
        abandon its lobby or game and clear its timers. ``reason`` is kept in the row's meta. None when the channel
        had no live session."""
        async with self.lock(channel_id):
            row = await self.reads.live_session(channel_id)
            if row is None:
                return None
            row = await self.ledger.abandon(row, reason)
        self.forget(row.id)
        return self.states.view(row, notes=[T("The game was abandoned: {reason}.", reason=reason)])

    @rerun_when_stale
    async def expire_lobby(self, session_id: int, reason: str) -> Update | None:
        """Close lobby ``session_id`` that nobody started in time (its expiry timer fired): abandoned with
        ``reason`` kept in the row's meta (``abandoned``), its timers cleared. None, and nothing written, when the
        session is no longer a lobby (started, cancelled or closed meanwhile)."""
        row = await self.reads.session(session_id)
        if row is None or row.status != "lobby":
            return None
        async with self.lock(row.channel_id):
            row = await self.reads.session(session_id)
            if row is None or row.status != "lobby":
                return None
            row = await self.ledger.abandon(row, reason)
        self.forget(row.id)
        return self.states.view(row, notes=[f"The lobby closed itself: {reason}."])

    async def show(self, channel_id: str) -> Update:
        """The channel's lobby or game as it stands (read only). Under the channel's lock: the store's connection
        is shared, so a read during a move's transaction would see that move before its commit (and a rollback
        would leave a board that never existed)."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
        return self.states.view(row)

    # -- undo (:mod:`bot.service.undo`) -----------------------------------------------------------------------------
    async def ask_undo(self, channel_id: str, by: str) -> UndoVote:
        """:meth:`bot.service.undo.UndoRule.ask`: ``by`` asks to take back the last move."""
        return await self.undo_rule.ask(channel_id, by)

    async def vote_undo(self, session_id: int, version: int, by: str, yes: bool) -> UndoVote:
        """:meth:`bot.service.undo.UndoRule.vote`: ``by`` approves (``yes``) or refuses the open undo request."""
        return await self.undo_rule.vote(session_id, version, by, yes)

    async def undo(self, channel_id: str, by: str) -> Update:
        """:meth:`bot.service.undo.UndoRule.ask_or_take_back`: the board after an undo asked for (or taken back at
        once), for adapters that show no votes."""
        return await self.undo_rule.ask_or_take_back(channel_id, by)

    async def pending_undo(self, session_id: int) -> dict | None:
        """The open undo request of ``session_id`` (``{"version", "by", "yes"}``) or None."""
        return await self.undo_rule.pending(session_id)

    # -- the process -----------------------------------------------------------------------------------------------
    def serve_shards(self, shard_count: int, shard_ids: list[int] | None) -> None:
        """Serve only the guilds of ``shard_ids`` of ``shard_count`` (sessions restored, timers fired)."""
        self.store.serve_shards(shard_count, shard_ids)

    async def close(self) -> None:
        """Close the store."""
        await self.store.close()

    async def history(self, channel_id: str, limit: int = 20) -> list[Event]:
        """The events of the channel's game (setup's first, then the last ``limit``), rebuilt by replaying the log
        (read under the channel's lock, as :meth:`show`). A running game, or — when none runs — the channel's last
        finished game (``/history`` after the end). :class:`SessionError` when there is neither."""
        async with self.lock(channel_id):
            row = await self.reads.live_session(channel_id)
            if row is None or row.status != "active":
                last = await self.reads.last_session(channel_id)
                if row is None and last is not None and last.status == "finished":
                    row = last
                else:
                    row = await self.rows.active(channel_id)  # raises the right message
            moves = await self.reads.moves(row.id)
        game = game_of(row.game_id)
        opening = game.begin(list(row.players), row.options, row.seed)
        state = opening.state
        events: list[Event] = list(opening.events)
        for m in moves:
            if m.option == RESIGN:
                outcome = game.resign(state, m.player)
                if outcome is None:
                    events.append(Event(kind="resign", text=T("{player} resigns. The game ends.", player=player_ref(m.player))))
                    break
            else:
                outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
            state = outcome.state
            events.extend(outcome.events)
        return events[-limit:]


__all__ = ["AI_MOVE", "AI_RACE", "DEADLINE", "GAME_OVER", "IDLE_PLAYED", "IDLE_WHO", "LEFT_GAME", "NOT_SEATED",
           "NOT_STARTED", "NOT_THIS_CHANNEL", "RESIGN", "STALE_TEXT", "MemoryUndoVotes", "SessionError",
           "SessionService", "StaleBoard", "StaleVersion", "Timer", "UndoOutOfDate", "UndoVote", "Update",
           "not_your_turn", "option_problems", "replay"]
