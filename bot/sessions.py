"""The session service: lobbies and games per channel, every verb one store transaction (ARCHITECTURE.md).

Verbs: :meth:`SessionService.open_lobby`, ``join``, ``leave``, ``add_ai``, ``remove_ai``, ``start``, ``cancel``,
``act`` (a move by option id), ``press`` (a board component: session, version, decision and option indices),
``tick``, ``resign``, ``abandon``, ``ask_undo``/``vote_undo`` (and ``undo``), ``show``. AI seats are played through
durable timers (:mod:`bot.ai_turns`). Each returns an :class:`Update` (what changed and what the game now waits for)
or raises :class:`SessionError` whose message a person can read (adapters show it ephemerally); a refused call stores
nothing. Every rule an adapter needs is checked here and every refusal worded here (``NOT_SEATED``,
:func:`not_your_turn`, …), so the Discord adapter, the sandbox and the transcripts meet the same rules:

- a move or press is taken only from a seated player, only for a decision that is theirs (or anyone's), only on
  the board version it was made on;
- undo: a seated player who is still playing asks; every other seated person still playing approves (AI seats
  never object; one refusal closes the request; any move makes it out of date); alone with AI seats, at once
  (the rule's verbs: :mod:`bot.undo`).

The refusals (errors and wordings) are in :mod:`bot.refusals`; their names import from here as well.

The reads adapters need are here too (``session``, ``live_session``, ``moves``, ``records``, the durable timers'
claim API for a dispatcher): adapters never reach into the store.

Guarantees:
- one lobby or active session per channel (also enforced by a unique index);
- every change of a channel runs under that channel's :class:`asyncio.Lock`, and every change is one store
  transaction (append the move, save the state, bump the version, reschedule deadline timers) committed before the
  verb returns — so before any reply;
- the move log replays: ``replay(game, players, options, seed, moves)`` rebuilds the stored state exactly.

Player ids are strings (Discord user ids, or names offline). Times are ms.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

import games
from games import TIMEOUT, Decision, Event, Game, IllegalMove, Move, Result, player_ref
from games.core import BaseState, N, T, Text

from . import metrics
from .ai_seats import AiSettings, is_ai, level_of, new_ai_ids
from .ai_turns import AI_MOVE, AI_RACE, AiTurns
from .i18n import refusal
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
from .service.hints import HINTED_META, HINTS_META, NEW_TABLE_META, Hints
from .store import SessionRow, StaleVersion, Store, now_ms
from .store.records import RESIGN_MOVE, GameRecord
from .undo import UNDONE_MS, MemoryUndoVotes, UndoRule, UndoVote, replay

RESIGN = RESIGN_MOVE
"""Option id under which a resignation is logged, so that replay reproduces it."""
DEADLINE = "deadline"
"""Timer kind of a decision's deadline (the session sends the system's timeout move)."""
MAX_MS = 2**63 - 1
"""The largest time (ms) the store can hold (SQLite INTEGER)."""
HOUR_MS = 3_600_000
STATE_CACHE_SIZE = 4096
"""How many sessions' parsed states one process keeps (least recently used evicted; a row is re-parsed on need)."""


STALE_RETRIES = 3
"""How many times a verb that re-checks everything it needs is run again when another process wrote the session
between its read and its write (``StaleVersion``: shards on one PostgreSQL)."""


def _rerun_when_stale(verb):
    """Run a lobby or ending verb again on the session as it now stands when another process changed it between
    the read and the write (``StaleVersion``; the verb's own checks run again, so a lobby that filled up or a game
    that started meanwhile is refused with its usual message). After :data:`STALE_RETRIES` tries: a
    :class:`SessionError` saying so. Nothing is written by a try that lost the race."""

    @functools.wraps(verb)
    async def run(self, *args, **kwargs):
        for _ in range(STALE_RETRIES):
            try:
                return await verb(self, *args, **kwargs)
            except StaleVersion:
                continue
        raise SessionError(T("This game changed several times while your request was handled; please try again."))

    return run


_OR = T(" or ")
"""The last separator of listed alternatives."""


def option_problems(exc: ValidationError) -> str:
    """What is wrong with a game's options, one clause per pydantic error joined by ``; ``, each a :class:`Text`
    (``first: Input should be 'host' or 'random'``): a value outside the choices, a number out of its bounds, text
    for a number or true/false, or the game's own validator's words (a :class:`Text` when it raised one); any
    other error keeps pydantic's English."""
    clauses = []
    for e in exc.errors():
        field = ".".join(map(str, e["loc"])) or "options"
        kind, ctx = e.get("type", ""), e.get("ctx") or {}
        error = ctx.get("error")
        if kind in ("literal_error", "enum"):
            expected = [str(v) for v in e.get("ctx", {}).get("expected", "").replace("'", "").replace(" or ", ", ")
                        .split(", ") if v]
            clause = T("{field}: Input should be {values}", field=field,
                       values=Text.join(_OR, [f"`{v}`" for v in expected]))
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            bound = {"greater_than_equal": "ge", "less_than_equal": "le", "greater_than": "gt", "less_than": "lt"}[kind]
            limit = str(ctx.get(bound))
            clause = {"ge": T("{field}: Input should be greater than or equal to {limit}", field=field, limit=limit),
                      "le": T("{field}: Input should be less than or equal to {limit}", field=field, limit=limit),
                      "gt": T("{field}: Input should be greater than {limit}", field=field, limit=limit),
                      "lt": T("{field}: Input should be less than {limit}", field=field, limit=limit)}[bound]
        elif kind in ("int_parsing", "int_type", "int_from_float"):
            clause = T("{field}: Input should be a valid integer", field=field)
        elif kind in ("float_parsing", "float_type"):
            clause = T("{field}: Input should be a valid number", field=field)
        elif kind in ("bool_parsing", "bool_type"):
            clause = T("{field}: Input should be a valid boolean", field=field)
        elif kind == "value_error" and isinstance(error, ValueError) and error.args and isinstance(error.args[0], Text):
            clause = T("{field}: {problem}", field=field, problem=error.args[0])
        else:
            clause = f"{field}: {e['msg']}"
        clauses.append(clause)
    return Text.join(T("; "), clauses)


@dataclass
class Update:
    """What a verb did: the session row after it, the game and state (None in a lobby), the engine's events,
    the pending decisions, the result when the game is over, and ``notes`` (lines from the session service)."""

    session: SessionRow
    game: Game
    state: BaseState | None = None
    events: list[Event] = field(default_factory=list)
    pending: list[Decision] = field(default_factory=list)
    result: Result | None = None
    notes: list[str] = field(default_factory=list)
    record: GameRecord | None = None
    """The game's record (seats, ranks, ratings before and after) when this update ended a dealt game."""

    @property
    def finished(self) -> bool:
        return self.session.status in ("finished", "abandoned")


def resign_result(game: Game, state: BaseState, players: list[str], resigner: str) -> Result:
    """The result when a game that cannot go on without ``resigner`` ends: the others share the win."""
    others = [p for p in players if p != resigner]
    return Result(
        winners=others,
        ranking=[others, [resigner]] if others else [[resigner]],
        scores={},
        reason=T("{player} resigned.", player=player_ref(resigner)),
    )


class SessionService(UndoRule, AiTurns):
    """Lobbies and games over a :class:`Store`. ``clock()`` gives ms (tests pass a fake); ``seeds()`` new seeds."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int] = now_ms,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
        ai: AiSettings | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds
        self.ai = ai or AiSettings()
        self._thinking: set[int] = set()  # AI timers whose move is being searched or applied now
        # a lock lives while someone holds or awaits it; then it is dropped (memory stays bounded)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # session id -> (version, parsed state, its pending decisions or None until asked), least recently used
        # first; a session that ends is dropped
        self._cache: OrderedDict[int, tuple[int, BaseState, list[Decision] | None]] = OrderedDict()
        self._untimed: set[int] = set()  # sessions known (by this process) to have no deadline timers in the store
        self.undo_votes: Any = MemoryUndoVotes()
        """Where open undo requests are kept (``get_undo(session_id)``, ``put_undo(session_id, vote | None)``; the
        Discord adapter sets its :class:`bot.discord.links.Links`, which keeps them with its per-session data)."""
        self.hints = Hints(self)
        """The hint verbs (:class:`bot.service.hints.Hints`): ``/hint``, the lobby's first-contact line."""
        self.display_names: Callable[[int], Awaitable[dict[str, str]]] | None = None
        """Session id -> {player id: display name} at the game's end, for its record (the Discord adapter sets
        it; offline the ids are the names)."""

    def lock(self, channel_id: str) -> asyncio.Lock:
        """The lock of ``channel_id`` (created on first use)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def _remember(self, session_id: int, version: int, state: BaseState,
                  pending: list[Decision] | None = None) -> None:
        """Cache a parsed state (and its pending decisions when known), evicting the least recently used beyond
        :data:`STATE_CACHE_SIZE`."""
        self._cache[session_id] = (version, state, pending)
        self._cache.move_to_end(session_id)
        while len(self._cache) > STATE_CACHE_SIZE:
            self._cache.popitem(last=False)

    # -- helpers ----------------------------------------------------------------------------------------------
    @staticmethod
    def game(game_id: str) -> Game:
        try:
            return games.get(game_id)
        except KeyError:
            known = ", ".join(g.id for g in games.all())
            raise SessionError(T("There is no game called '{game}'. Games: {known}.", game=game_id, known=known)) from None

    async def _live(self, channel_id: str) -> SessionRow:
        row = await self.store.live_session(channel_id)
        if row is None:
            last = await self.store.last_session(channel_id)
            if last is not None and last.status == "finished":
                raise SessionError(T("The game of {game} here is over. Start a new one with /play.",
                                     game=self.game(last.game_id).title))
            raise SessionError(T("No game here. Start one with /play."))
        return row

    async def _active(self, channel_id: str) -> SessionRow:
        row = await self._live(channel_id)
        if row.status == "lobby":
            raise SessionError(NOT_STARTED)
        return row

    def state_of(self, row: SessionRow) -> BaseState | None:
        """The parsed state of ``row`` (cached by version)."""
        if row.state is None:
            return None
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = self.game(row.game_id).load_state(row.state)
        if row.status == "active":  # an ended game is read rarely (its last board): not kept
            self._remember(row.id, row.version, state)
        return state

    def pending_of(self, row: SessionRow, state: BaseState | None = None) -> list[Decision]:
        """The decisions ``row``'s game waits for (none unless it is running), computed once per board version
        (kept with the cached state)."""
        if row.status != "active" or row.state is None:
            return []
        state = state if state is not None else self.state_of(row)
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version and cached[1] is state and cached[2] is not None:
            return cached[2]
        pending = self.game(row.game_id).pending(state)
        if cached is not None and cached[0] == row.version and cached[1] is state:
            self._cache[row.id] = (row.version, state, pending)
        return pending

    def view(self, row: SessionRow) -> Update:
        """The :class:`Update` of a stored row as it stands (state, pending decisions, result), for adapters."""
        return self._update(row)

    def _update(self, row: SessionRow, events=(), notes=(), result: Result | None = None) -> Update:
        game = self.game(row.game_id)
        state = self.state_of(row)
        pending = self.pending_of(row, state) if state is not None else []
        if result is None and state is not None and row.status in ("active", "finished"):
            result = game.result(state)
            if result is None and row.status == "finished":
                result = _stored_result(row)
        return Update(row, game, state, list(events), pending, result, list(notes))

    async def _schedule_deadlines(self, db, row: SessionRow, pending: list[Decision]) -> None:
        """Replace the session's deadline timers by those of ``pending``, in the caller's transaction. Only sessions
        this process knows to have none skip the delete (after a restart every session is cleared once; on a store
        other processes write too, every time), so the commit of a timeout move also removes the timer that fired
        it."""
        deadlines = sorted({d.deadline_ms for d in pending if d.deadline_ms is not None})
        if deadlines or row.id not in self._untimed or self.store.shared:
            await self.store.clear_timers(row.id, [DEADLINE], db=db)
        for d in deadlines:
            await self.store.add_timer(row.channel_id, DEADLINE, d, {"deadline_ms": d}, session_id=row.id, db=db)
        if deadlines:
            self._untimed.discard(row.id)
        else:
            self._untimed.add(row.id)

    # -- AI seats in the lobby -----------------------------------------------------------------------
    @_rerun_when_stale
    async def add_ai(self, channel_id: str, by: str, level: str | None = None, count: int = 1) -> Update:
        """Seat ``count`` AI players of ``level`` (default ``normal``) in the lobby — the host only. Refused (nothing
        changes) for no lobby, a running game, someone else than the host, an unknown level, or too few free
        seats."""
        try:
            level = level_of(level)
        except ValueError as exc:
            raise SessionError(refusal(exc)) from None
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("The game is running: AI players are added in the lobby, before /start."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can add AI players.", host=player_ref(row.host)))
            seats = max(game.seat_counts(row.options) or [game.max_players])
            free = seats - len(row.players)
            if count < 1:
                raise SessionError(T("Add at least one AI player."))
            if free <= 0:
                raise SessionError(N("The lobby is full ({n} player with these options): no seat for an AI.",
                                     "The lobby is full ({n} players with these options): no seat for an AI.",
                                     n=seats))
            if count > free:
                raise SessionError(N("Only {n} seat is free: {ais} AI players do not fit.",
                                     "Only {n} seats are free: {ais} AI players do not fit.", n=free, ais=count))
            added = new_ai_ids(row.players, level, count)
            players = row.players + added
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        notes = [T("{player} joined ({seated}/{seats}).", player=player_ref(p),
                   seated=len(row.players) - len(added) + i, seats=seats)
                 for i, p in enumerate(added, 1)]
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def remove_ai(self, channel_id: str, by: str, player: str) -> Update:
        """Take AI seat ``player`` out of the lobby — the host only, before the start. Refused (nothing changes)
        for no lobby, a running game, someone else than the host, or a player who is not an AI seat here."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game is running: AI players can only be removed in the lobby."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can remove AI players.", host=player_ref(row.host)))
            if not is_ai(player) or player not in row.players:
                raise SessionError(T("That is not an AI player of this lobby."))
            players = [p for p in row.players if p != player]
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        return self._update(row, notes=[T("{by} removed {player}.", by=player_ref(by), player=player_ref(player))])

    # -- lobby ------------------------------------------------------------------------------------------------
    async def open_lobby(
        self, channel_id: str, game_id: str, host: str, options: dict | None = None, guild_id: str | None = None,
        ai_seats: int = 0, ai_level: str | None = None, hints: bool | None = None,
    ) -> Update:
        """Open a lobby for ``game_id`` with ``host`` seated, and ``ai_seats`` AI players of ``ai_level`` (default
        ``normal``; ``/play <game> ai:<n> [level:<level>]``); ``hints``: the lobby's ``hints:`` (None: the default,
        :func:`bot.service.hints.hints_default`); whether the table is new to the game is noted for its card. Refused (nothing stored) when the channel is
        busy, the game unknown, an option invalid or unknown, the level unknown, or the AI seats do not fit."""
        game = self.game(game_id)
        if is_ai(host):
            raise SessionError(T("An AI player cannot open a lobby."))
        try:
            level = level_of(ai_level)
        except ValueError as exc:
            raise SessionError(refusal(exc)) from None
        fields = game.Options.model_fields
        unknown = [k for k in (options or {}) if k not in fields]
        if unknown:
            if fields:
                raise SessionError(T("{game} has no option '{option}'. Options: {options}.", game=game.title,
                                     option=unknown[0], options=", ".join(fields)))
            raise SessionError(T("{game} has no option '{option}'. {game} has no options.", game=game.title,
                                 option=unknown[0]))
        try:
            opts = game.options(options or {}).model_dump(mode="json")
        except ValidationError as exc:
            raise SessionError(T("Those options do not work for {game}: {problems}.", game=game.title,
                                 problems=option_problems(exc))) from None
        seats = max(game.seat_counts(opts) or [game.max_players])
        if ai_seats < 0 or 1 + ai_seats > seats:
            free = seats - 1
            raise SessionError(T("{game} seats {players} with these options: room for {ais} beside you, not {asked}.",
                                 game=game.title, players=N("{n} player", "{n} players", n=seats),
                                 ais=N("{n} AI player", "{n} AI players", n=free), asked=ai_seats))
        players = [host, *new_ai_ids([host], level, ai_seats)]
        async with self.lock(channel_id):
            busy = await self.store.live_session(channel_id)
            if busy is not None:
                busy_title = self.game(busy.game_id).title
                if busy.status == "lobby":
                    raise SessionError(T("A game of {game} is already gathering players here. Finish it, /resign, "
                                         "or ask the host to /abandon it — or play in another channel or thread.",
                                         game=busy_title))
                raise SessionError(T("A game of {game} is already running here. Finish it, /resign, or ask the host "
                                     "to /abandon it — or play in another channel or thread.", game=busy_title))
            try:
                meta = {NEW_TABLE_META: await self.hints.new_to(guild_id, game_id, players)}
                if hints is not None:
                    meta[HINTS_META] = hints
                row = await self.store.create_session(channel_id, game_id, host, opts, self.seeds(), guild_id,
                                                      players=players, meta=meta)
            except self.store.integrity_errors:
                raise SessionError(T("A game is already open here.")) from None
        notes = [T("{player} opened a lobby for {game}.", player=player_ref(host), game=game.title)]
        notes += [T("{player} joined ({seated}/{seats}).", player=player_ref(p), seated=i, seats=seats)
                  for i, p in enumerate(players[1:], 2)]
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def join(self, channel_id: str, player: str) -> Update:
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("This game has already started; wait for the next one."))
            if player in row.players:
                raise SessionError(T("You are already seated. Wait for the host to /start."))
            if is_ai(player):
                raise SessionError(T("AI players are seated by the host (Add AI), not by /join."))
            seats = max(game.seat_counts(row.options) or [game.max_players])
            if len(row.players) >= seats:
                more = game.more_seats(row.options)
                if more:
                    raise SessionError(N("The lobby is full ({n} player with these options; {more}). Wait for the next "
                                         "game.", "The lobby is full ({n} players with these options; {more}). Wait "
                                         "for the next game.", n=seats, more=more))
                raise SessionError(N("The lobby is full ({n} player with these options). Wait for the next game.",
                                     "The lobby is full ({n} players with these options). Wait for the next game.",
                                     n=seats))
            players = row.players + [player]
            new = await self.hints.new_to(row.guild_id, row.game_id, players)
            await self.store.update_session(row.id, row.version, players=players, meta={**row.meta, NEW_TABLE_META: new})
            row = await self.store.session(row.id)
        return self._update(row, notes=[T("{player} joined ({seated}/{seats}).", player=player_ref(player),
                                                 seated=len(players), seats=seats)])

    @_rerun_when_stale
    async def leave(self, channel_id: str, player: str) -> Update:
        """Leave a lobby. A host who leaves hands the lobby to the next person seated (never an AI seat); the last
        person out closes it."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game has started: use /resign to leave it."))
            if player not in row.players:
                raise SessionError(T("You are not seated in this lobby."))
            players = [p for p in row.players if p != player]
            notes = [T("{player} left.", player=player_ref(player))]
            people = [p for p in players if not is_ai(p)]
            if not people:  # AI seats never host: the last person out closes the lobby
                await self.store.update_session(row.id, row.version, players=players, status="abandoned")
                notes.append(T("The lobby is closed."))
            else:
                host = row.host if row.host != player else people[0]
                if host != row.host:
                    notes.append(T("{player} is now the host.", player=player_ref(host)))
                new = await self.hints.new_to(row.guild_id, row.game_id, players)
                await self.store.update_session(row.id, row.version, players=players, host=host,
                                                meta={**row.meta, NEW_TABLE_META: new})
            row = await self.store.session(row.id)
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def cancel(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """Close a lobby (the host, or a moderator)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game has started: use /abandon to end it."))
            if by != row.host and not moderator:
                raise SessionError(T("Only the host, {host}, can cancel the lobby.", host=player_ref(row.host)))
            await self.store.update_session(row.id, row.version, status="abandoned")
            row = await self.store.session(row.id)
        return self._update(row, notes=[T("{player} cancelled the lobby.", player=player_ref(by))])

    @_rerun_when_stale
    async def start(self, channel_id: str, by: str) -> Update:
        """Deal the game (``Game.setup`` with the lobby's seed) — the host only, with enough players."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("The game is already running."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can start the game.", host=player_ref(row.host)))
            if len(row.players) < game.min_players:
                need = game.min_players - len(row.players)
                raise SessionError(T("{game} needs at least {least} players: {need} more must /join first (or the "
                                     "host adds AI players).", game=game.title, least=game.min_players, need=need))
            try:
                opening = game.begin(list(row.players), row.options, row.seed)
                state = opening.state
            except ValueError as exc:  # e.g. options that do not fit this many players (checked at setup)
                why = refusal(exc)
                if str(why).endswith("."):  # the engine's sentence, its full stop kept (translated as a whole)
                    raise SessionError(T("{game} cannot start: {problem} Change the seats (/join, /leave), or cancel "
                                         "the lobby and /play again with other options.", game=game.title,
                                         problem=why)) from None
                raise SessionError(T("{game} cannot start: {problem}. Change the seats (/join, /leave), or cancel "
                                     "the lobby and /play again with other options.", game=game.title,
                                     problem=why)) from None
            pending = game.pending(state)
            plan = self._plan_ai(row, game, state, pending)
            async with self.store.transaction() as db:
                await self.store.lock_session(db, row.id, row.version)
                await self.store.update_session(
                    row.id, row.version, db=db, status="active", state=state.model_dump_json(),
                    meta={**self._with_plans(row.meta, plan), "started_ms": self.clock()},
                )
                await self._schedule_deadlines(db, row, pending)
                await self._schedule_ai(db, row, plan)
            row = await self.store.session(row.id)
            self._remember(row.id, row.version, state, pending)
        return self._update(row, events=opening.events, notes=[T("{game} begins!", game=game.title)])

    # -- play -------------------------------------------------------------------------------------------------
    async def act(
        self,
        channel_id: str,
        player: str | None,
        option: str,
        at_ms: int | None = None,
        expect_version: int | None = None,
    ) -> Update:
        """Apply ``player``'s ``option`` in ``channel_id``'s game: one transaction (move, state, version, timers).

        ``expect_version``: the board version the player saw (components carry it); a different stored version
        raises :class:`StaleBoard`. ``at_ms`` defaults to ``clock()`` and is logged with the move.
        Raises :class:`SessionError` for no game, a player not seated, another player's turn, a player who resigned
        or was removed (:data:`LEFT_GAME`), or an illegal move (the engine's message).
        """
        if at_ms is not None and not 0 <= at_ms <= MAX_MS:
            raise SessionError(T("That time ({at} ms) is out of range: a move's time is 0 to {most} ms.", at=str(at_ms),
                                 most=str(MAX_MS)))
        async with self.lock(channel_id):
            row = await self._active(channel_id)
            if expect_version is not None and expect_version != row.version:
                raise StaleBoard(STALE_TEXT)
            if player is not None and player not in row.players:
                raise SessionError(NOT_SEATED)
            state = self.state_of(row)
            pending = self.pending_of(row, state)
            if player is not None and pending and not any(d.player in (None, player) for d in pending):
                raise SessionError(not_your_turn(pending))
            if player is not None and not any(d.player == player for d in pending):
                await self._still_playing(row, player)  # only anyone's decisions (a race) are open to them
            return await self._apply(row, state, player, option, at_ms)

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
            row = await self.board_row(channel_id, session_id)
            if row.version != version:
                raise StaleBoard(STALE_TEXT)
            state = self.state_of(row)
            pending = self.pending_of(row, state)
            if not (0 <= decision < len(pending)) or not (0 <= option < len(pending[decision].options)):
                raise SessionError(T("This button is not valid. Use the buttons on the current board."))
            d = pending[decision]
            if player not in row.players:
                raise SessionError(NOT_SEATED)
            if d.player is not None and d.player != player:
                raise SessionError(not_your_turn([d]))
            if d.player is None:  # anyone's decision: anyone still playing (the engine never names one who left)
                await self._still_playing(row, player)
            return await self._apply(row, state, player, d.options[option].id, at_ms)

    async def _still_playing(self, row: SessionRow, player: str) -> None:
        """:data:`LEFT_GAME` when ``player`` resigned or was removed from ``row``'s game."""
        if player in await self.store.players_with_move(row.id, RESIGN):
            raise SessionError(LEFT_GAME)

    async def board_row(self, channel_id: str, session_id: int) -> SessionRow:
        """The running session ``session_id`` that a component in ``channel_id`` names; :class:`SessionError`
        (:data:`NOT_THIS_CHANNEL`, :data:`NOT_STARTED`, :data:`GAME_OVER`) when it is not one."""
        row = await self.store.session(session_id)
        if row is None or row.channel_id != channel_id:
            raise SessionError(NOT_THIS_CHANNEL)
        if row.status == "lobby":
            raise SessionError(NOT_STARTED)
        if row.status != "active":
            raise SessionError(GAME_OVER)
        return row

    async def _apply(self, row: SessionRow, state: BaseState, player: str | None, option: str,
                     at_ms: int | None) -> Update:
        """Apply a checked move to ``row``'s ``state`` and commit it (under the channel's lock)."""
        game = self.game(row.game_id)
        move = Move(player=player, option=option, at_ms=self.clock() if at_ms is None else at_ms)
        try:
            outcome = game.apply(state, move)
        except IllegalMove as exc:
            raise SessionError(refusal(exc)) from None
        return await self._commit(row, game, move, outcome.state, outcome.events)

    async def _commit(
        self, row: SessionRow, game: Game, move: Move, state: BaseState, events: list[Event],
        result: Result | None = None, fired: int | None = None,
    ) -> Update:
        """Append ``move``, save ``state``, bump the version, reschedule deadlines and AI seats' timers (and
        record a finished game) in one transaction. ``fired``: the id of the timer whose move this is (removed in
        the same transaction)."""
        result = result or game.result(state)
        status = "finished" if result is not None else "active"
        pending = game.pending(state) if status == "active" else []
        plan = self._plan_ai(row, game, state, pending)
        meta = self._with_plans(row.meta, plan)
        if result is not None:
            meta = {**meta, "result": result.model_dump(mode="json")}
        seq = row.move_count + 1
        state_json = state.model_dump_json()
        record = None
        try:
            if result is None and fired is None and not plan.seated:
                # the common case, one round trip on PostgreSQL (Store.commit_move)
                deadlines = sorted({d.deadline_ms for d in pending if d.deadline_ms is not None})
                clear = bool(deadlines) or row.id not in self._untimed or self.store.shared
                await self.store.commit_move(
                    row, seq, move.player, move.option, move.at_ms, state=state_json, status=status, meta=meta,
                    clear_kinds=[DEADLINE] if clear else [],
                    timers=[(DEADLINE, d, {"deadline_ms": d}) for d in deadlines],
                )
                if deadlines:
                    self._untimed.discard(row.id)
                else:
                    self._untimed.add(row.id)
            else:
                record = await self._commit_tx(row, seq, move, state_json, status, meta, pending, result, plan,
                                               fired)
        except StaleVersion:
            # another process (a shard moving between processes) wrote this session first: nothing was stored
            raise StaleBoard(T("This board changed meanwhile — here is the current one.")) from None
        new = row.model_copy(update={"version": row.version + 1, "status": status, "meta": meta,
                                     "state": state_json, "move_count": seq})
        if status == "active":
            self._remember(row.id, new.version, state, pending)
        else:
            self.forget(row.id)
        update = self._update(new, events=events, result=result)
        update.record = record
        metrics.move_committed(row.game_id)
        return update

    async def _names(self, row: SessionRow) -> dict[str, str]:
        """Display names of ``row``'s players for its record (:attr:`display_names`, else none: ids stand)."""
        if self.display_names is None:
            return {}
        return dict(await self.display_names(row.id))

    async def _record(self, db, row: SessionRow, moves: int, result: Result | None,
                      resigned: set[str], names: dict[str, str]) -> GameRecord:
        """Record the game of ``row`` that ends now (``result`` None: abandoned), in the ending transaction."""
        return await self.store.record_game(
            db, session_id=row.id, game_id=row.game_id, guild_id=row.guild_id, channel_id=row.channel_id,
            options=row.options, seed=row.seed, players=row.players,
            started_ms=int(row.meta.get("started_ms", row.created_ms)), ended_ms=self.clock(), moves=moves,
            result=result, resigned=resigned, names=names, rated=not row.meta.get(HINTED_META))

    async def _commit_tx(self, row: SessionRow, seq: int, move: Move, state_json: str, status: str, meta: dict,
                         pending: list[Decision], result: Result | None, plan, fired: int | None) -> GameRecord | None:
        """A move with more to write than :meth:`Store.commit_move` does, in one transaction: the move, the state,
        the version, the deadlines, the AI seats' timers (``fired``: the AI timer whose move this is,
        removed), and when the game ends the finished game and its record (seats, ratings), returned.
        :class:`StaleVersion` when another process moved first."""
        if result is not None:
            resigned = await self.store.players_with_move(row.id, RESIGN)
            if move.option == RESIGN and move.player is not None:
                resigned.add(move.player)
            names = await self._names(row)
        async with self.store.transaction() as db:
            # the session's row first: another process acting on this version waits here, then finds it stale
            await self.store.lock_session(db, row.id, row.version)
            await self.store.append_move(db, row.id, seq, move.player, move.option, move.at_ms)
            await self.store.update_session(
                row.id, row.version, db=db, state=state_json, status=status, meta=meta, move_count=seq
            )
            await self._schedule_deadlines(db, row, pending)
            await self._schedule_ai(db, row, plan)
            if fired is not None:
                await self.store.delete_timers(db, [fired])
            if result is None:
                return None
            await self.store.record_finished(
                db, row.id, row.game_id, row.channel_id, result.model_dump(mode="json"), seq
            )
            return await self._record(db, row, seq, result, resigned, names)

    async def tick(self, now: int | None = None, ai: bool = True) -> list[Update]:
        """Fire every timer of the game due at ``now`` (ms, default the clock), earliest first: the system's
        timeout move for each decision whose deadline has passed and, when ``ai``, the AI seats' moves and race
        inputs (:meth:`fire_ai`); returns the updates. Stale timers (the decision was already answered) are
        dropped.

        Each due timer is claimed first (:meth:`Store.claim_timers`: a lease, one process cluster-wide, only the
        shards this process serves). A timer is removed by the commit of its move (same transaction), so a crash or
        a cancellation before that commit keeps it: claimed again once its lease ran out (after a restart too),
        never fired twice. An engine error in a deadline drops the timer (a retry would fail the same way) and is
        raised."""
        now = self.clock() if now is None else now
        updates: list[Update] = []
        done: set[int] = set()
        kinds = [DEADLINE, AI_RACE, AI_MOVE] if ai else [DEADLINE]
        while due := [t for t in await self.store.claim_timers(now, kinds) if t.id not in done]:
            unfired = [t.id for t in due]
            try:
                for timer in due:
                    done.add(timer.id)
                    if timer.kind != DEADLINE:
                        update = await self.fire_ai(timer)
                        unfired.remove(timer.id)
                        await self.store.finish_timer(timer.id)  # normally removed by the commit already
                        if update is not None:
                            updates.append(update)
                        continue
                    try:
                        update = await self.fire_deadline(
                            timer.channel_id, timer.payload.get("deadline_ms", timer.due_ms)
                        )
                    except Exception:
                        unfired.remove(timer.id)
                        await self.store.finish_timer(timer.id)
                        raise
                    unfired.remove(timer.id)
                    await self.store.finish_timer(timer.id)  # a stale one; after a commit it is gone already
                    if update is not None:
                        updates.append(update)
            except BaseException:
                # stopped (cancelled, or an engine error): the timers not fired are free again at once
                await asyncio.shield(self.store.release_timers(unfired))
                raise
        return updates

    async def fire_deadline(self, channel_id: str, deadline_ms: int) -> Update | None:
        """Send the timeout move for the decision of ``channel_id`` due at ``deadline_ms``, if still pending."""
        async with self.lock(channel_id):
            row = await self.store.live_session(channel_id)
            if row is None or row.status != "active":
                return None
            game = self.game(row.game_id)
            state = self.state_of(row)
            if not any(d.deadline_ms == deadline_ms for d in game.pending(state)):
                return None
            move = Move(player=None, option=TIMEOUT, at_ms=deadline_ms)
            try:
                outcome = game.apply(state, move)
            except IllegalMove:
                return None
            try:
                return await self._commit(row, game, move, outcome.state, outcome.events)
            except StaleBoard:  # another process answered the decision first
                return None

    async def resign(self, channel_id: str, player: str, by: str | None = None) -> Update:
        """``player`` leaves a running game: ``Game.resign`` when the game can go on without them, else the game
        ends and the others share the win. Logged as a move (``RESIGN``). ``by``: who removes them (the host or a
        moderator with /kick, ``"departure"`` for a member who left the server), None when they resign themselves.

        One check for every game: a player who has already resigned (or been removed) is no longer playing and
        cannot resign, be removed again, or remove anyone (:class:`SessionError`; nothing is stored) — before this,
        a second resignation in Tatamokatsu ended the game for everyone."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status == "lobby":
                raise SessionError(T("The game has not started yet: use /leave to leave the lobby."))
            return await self._resign(row, player, by, await self.store.players_with_move(row.id, RESIGN))

    async def remove_idle(self, channel_id: str, session_id: int, version: int, seat: int, by: str,
                          idle_after_ms: int, moderator: bool = False) -> Update:
        """The "remove the idle player" press: the player of ``seat`` (index into the seats) of board ``version``
        of session ``session_id`` is removed (their resignation, :meth:`resign`) by ``by``. ``idle_after_ms``: the
        channel's AFK limit (ms; 0 = off). ``moderator``: ``by`` manages the channel.

        Refused (:class:`SessionError`, nothing stored), in this order: not this channel's running game; the AFK
        limit off; another board version (:data:`IDLE_PLAYED`); a seat that names nobody, an AI seat, or a player
        who already left; a player the game does not wait for; ``by`` who left the game; ``by`` the idle player
        themselves (/resign is theirs); ``by`` neither a seated player still playing nor a moderator
        (:data:`IDLE_WHO`); the AFK limit not yet due since the board was dealt (the last move, the start or the
        last undo: :meth:`waiting_since`)."""
        async with self.lock(channel_id):
            row = await self.board_row(channel_id, session_id)
            if idle_after_ms <= 0:
                raise SessionError(T("Idle players are not removed in this channel (its AFK limit is off: /settings)."))
            if row.version != version:
                raise SessionError(IDLE_PLAYED)
            if not 0 <= seat < len(row.players):
                raise SessionError(T("This button is not valid. Use the buttons of the latest notice."))
            idle = row.players[seat]
            if is_ai(idle):
                raise SessionError(T("AI players never idle: they move on their own."))
            resigned = await self.store.players_with_move(row.id, RESIGN)
            if idle in resigned:
                raise SessionError(T("{player} has already left this game.", player=player_ref(idle)))
            pending = self.pending_of(row)
            if not any(d.player == idle for d in pending):
                raise SessionError(T("The game is not waiting for {player}: nothing to do.", player=player_ref(idle)))
            if by in resigned:
                raise SessionError(LEFT_GAME)
            if by == idle:
                raise SessionError(T("You cannot remove yourself: /resign leaves the game."))
            if by not in row.players and not moderator:
                raise SessionError(IDLE_WHO)
            since = await self.waiting_since(row)
            due = since + idle_after_ms
            now = self.clock()
            if now < due:
                raise SessionError(T("{player} is not idle yet: they may be removed once the AFK limit ({hours} h) "
                                     "has passed, in {wait}.", player=player_ref(idle),
                                     hours=format(idle_after_ms / HOUR_MS, "g"), wait=_duration(due - now)))
            return await self._resign(row, idle, by, resigned)

    async def waiting_since(self, row: SessionRow) -> int:
        """When (ms, the service clock) ``row``'s board version was dealt: the time of the last move, the start of
        the game, or the last undo, whichever came last."""
        moves = await self.store.moves(row.id) if row.move_count else []
        times = [int(row.meta.get("started_ms", row.created_ms)), int(row.meta.get(UNDONE_MS, 0))]
        if moves and moves[-1].at_ms is not None:
            times.append(int(moves[-1].at_ms))
        return max(times)

    async def _resign(self, row: SessionRow, player: str, by: str | None, resigned: set[str]) -> Update:
        """:meth:`resign` on the running session ``row`` (under the channel's lock); ``resigned``: who has left."""
        if player not in row.players:
            raise SessionError(T("You are not playing in this game."))
        if player in resigned:
            if by is None or by == player:
                raise SessionError(T("You have already left this game."))
            raise SessionError(T("{player} has already left this game.", player=player_ref(player)))
        if by is not None and by != player and by in resigned:
            raise SessionError(LEFT_GAME)
        game = self.game(row.game_id)
        state = self.state_of(row)
        try:
            outcome = game.resign(state, player)
        except IllegalMove as exc:
            raise SessionError(refusal(exc)) from None
        move = Move(player=player, option=RESIGN, at_ms=self.clock())
        playing = [p for p in row.players if p != player and p not in resigned]
        if outcome is not None and playing and all(is_ai(p) for p in playing):
            # no person is left: AI seats do not play on alone; they share the win
            events = [*outcome.events, Event(kind="resign", text=T("{player} resigns: only AI players are left, so the "
                                                                 "game ends.", player=player_ref(player)))]
            ranking = [playing, [player], *([sorted(resigned)] if resigned else [])]
            result = Result(winners=playing, ranking=ranking, scores={},
                            reason=T("{player} resigned; only AI players were left.", player=player_ref(player)))
            return await self._commit(row, game, move, outcome.state, events, result=result)
        if outcome is not None:
            return await self._commit(row, game, move, outcome.state, outcome.events)
        result = resign_result(game, state, row.players, player)
        events = [Event(kind="resign", text=T("{player} resigns. The game ends.", player=player_ref(player)))]
        return await self._commit(row, game, move, state, events, result=result)

    @_rerun_when_stale
    async def abandon(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """End the channel's lobby or game without a result: the host, or a moderator (Manage Channels/Threads)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if by != row.host and not moderator:
                raise SessionError(T("Only the host, {host}, or a moderator can abandon this game. To leave it "
                                     "yourself, {command}.", host=player_ref(row.host),
                                     command=T("/leave") if row.status == "lobby" else T("/resign")))
            row = await self._abandon(row)
        self.forget(row.id)
        return self._update(row, notes=[T("{player} abandoned the game.", player=player_ref(by))])

    @_rerun_when_stale
    async def close_place(self, channel_id: str, reason: str) -> Update | None:
        """The place of ``channel_id``'s session is gone (channel or thread deleted, bot removed from the server):
        abandon its lobby or game and clear its timers. ``reason`` is kept in the row's meta. None when the channel
        had no live session."""
        async with self.lock(channel_id):
            row = await self.store.live_session(channel_id)
            if row is None:
                return None
            row = await self._abandon(row, reason)
        self.forget(row.id)
        return self._update(row, notes=[T("The game was abandoned: {reason}.", reason=reason)])

    @_rerun_when_stale
    async def expire_lobby(self, session_id: int, reason: str) -> Update | None:
        """Close lobby ``session_id`` that nobody started in time (its expiry timer fired): abandoned with
        ``reason`` kept in the row's meta (``abandoned``), its timers cleared. None, and nothing written, when the
        session is no longer a lobby (started, cancelled or closed meanwhile)."""
        row = await self.store.session(session_id)
        if row is None or row.status != "lobby":
            return None
        async with self.lock(row.channel_id):
            row = await self.store.session(session_id)
            if row is None or row.status != "lobby":
                return None
            row = await self._abandon(row, reason)
        self.forget(row.id)
        return self._update(row, notes=[f"The lobby closed itself: {reason}."])

    async def _abandon(self, row: SessionRow, reason: str | None = None) -> SessionRow:
        """Mark ``row`` abandoned and clear its timers; a game already dealt is recorded (marked abandoned,
        unrated) in the same transaction."""
        dealt = row.status == "active"
        if dealt:
            resigned = await self.store.players_with_move(row.id, RESIGN)
            names = await self._names(row)
        async with self.store.transaction() as db:
            await self.store.lock_session(db, row.id, row.version)
            fields: dict[str, Any] = {"status": "abandoned"}
            if reason:
                fields["meta"] = {**row.meta, "abandoned": reason}
            await self.store.update_session(row.id, row.version, db=db, **fields)
            await self.store.clear_timers(row.id, db=db)
            if dealt:
                await self._record(db, row, row.move_count, None, resigned, names)
        return await self.store.session(row.id)

    def forget(self, session_id: int) -> None:
        """Drop what this process keeps in memory for a session that ended (its parsed state, its timer note)."""
        self._cache.pop(session_id, None)
        self._untimed.discard(session_id)

    async def show(self, channel_id: str) -> Update:
        """The channel's lobby or game as it stands (read only). Under the channel's lock: the store's connection
        is shared, so a read during a move's transaction would see that move before its commit (and a rollback
        would leave a board that never existed)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
        return self._update(row)

    # -- reads adapters need (read only; no lock: a row is one read) ---------------------------------------------
    async def session(self, session_id: int) -> SessionRow | None:
        """Session ``session_id`` as stored, or None."""
        return await self.store.session(session_id)

    async def live_session(self, channel_id: str) -> SessionRow | None:
        """The lobby or running game of ``channel_id``, or None."""
        return await self.store.live_session(channel_id)

    async def last_session(self, channel_id: str) -> SessionRow | None:
        """The channel's most recent session (ended or not), or None."""
        return await self.store.last_session(channel_id)

    async def live_sessions(self) -> list[SessionRow]:
        """Every lobby and running game this process serves."""
        return await self.store.live_sessions()

    async def moves(self, session_id: int) -> list:
        """The move log of ``session_id`` (``MoveRow``: ``seq``, ``player``, ``option``, ``at_ms``), oldest first."""
        return await self.store.moves(session_id)

    async def resigned(self, session_id: int) -> set[str]:
        """The players of ``session_id`` who resigned or were removed."""
        return await self.store.players_with_move(session_id, RESIGN)

    @property
    def records(self) -> Any:
        """The records of ended games (``game_record``, ``channel_records``, ``leaderboard``, ``player_stats``:
        :mod:`bot.records`)."""
        return self.store

    async def timers_of(self, session_id: int) -> list:
        """The durable timers of ``session_id`` (``TimerRow``)."""
        return await self.store.timers(session_id)

    async def add_timer(self, channel_id: str, kind: str, due_ms: int, payload: dict,
                        session_id: int | None = None) -> None:
        """A durable timer of an adapter's own ``kind``, due at ``due_ms`` (ms, the service clock)."""
        await self.store.add_timer(channel_id, kind, due_ms, payload, session_id=session_id)

    async def clear_timers(self, session_id: int, kinds: list[str]) -> None:
        """Remove the durable timers of ``kinds`` of ``session_id`` (an adapter's own kinds, e.g. a lobby's expiry
        once it started)."""
        await self.store.clear_timers(session_id, kinds)

    # -- the store's durable timers, for an adapter's dispatcher (bot.discord.timers) ------------------------------
    async def next_timer(self, exclude: frozenset[int] = frozenset()):
        """The earliest timer not claimed (nor in ``exclude``), or None (``TimerRow``)."""
        return await self.store.next_timer(exclude=exclude)

    async def lease_expiry(self) -> int | None:
        """When the first live claim on a timer runs out (ms), or None."""
        return await self.store.lease_expiry()

    async def claim_timers(self, due_by_ms: int, kinds: list[str]) -> list:
        """Claim the timers of ``kinds`` due by ``due_by_ms`` (a lease: one process cluster-wide fires each)."""
        return await self.store.claim_timers(due_by_ms, kinds)

    async def finish_timer(self, timer_id: int) -> None:
        """A claimed timer fired: remove it (gone already when the commit of its move removed it)."""
        await self.store.finish_timer(timer_id)

    async def release_timers(self, timer_ids: list[int]) -> None:
        """Claimed timers that did not fire: free again at once."""
        await self.store.release_timers(timer_ids)

    def serve_shards(self, shard_count: int, shard_ids: list[int] | None) -> None:
        """Serve only the guilds of ``shard_ids`` of ``shard_count`` (sessions restored, timers fired)."""
        self.store.serve_shards(shard_count, shard_ids)

    async def close(self) -> None:
        """Close the store."""
        await self.store.close()

    async def restore(self) -> list[SessionRow]:
        """Live sessions after a restart (their deadline timers are in the store already)."""
        return await self.store.live_sessions()

    async def history(self, channel_id: str, limit: int = 20) -> list[Event]:
        """The events of the channel's game (setup's first, then the last ``limit``), rebuilt by replaying the log
        (read under the channel's lock, as :meth:`show`). A running game, or — when none runs — the channel's last
        finished game (``/history`` after the end). :class:`SessionError` when there is neither."""
        async with self.lock(channel_id):
            row = await self.store.live_session(channel_id)
            if row is None or row.status != "active":
                last = await self.store.last_session(channel_id)
                if row is None and last is not None and last.status == "finished":
                    row = last
                else:
                    row = await self._active(channel_id)  # raises the right message
            moves = await self.store.moves(row.id)
        game = self.game(row.game_id)
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


def _duration(ms: int) -> str:
    """``ms`` for people: ``3 h 20 min``, ``12 min``, ``40 s`` (a :class:`games.core.Text`)."""
    s = max(1, -(-ms // 1000))
    if s < 60:
        return T("{s} s", s=s)
    h, m = divmod(-(-s // 60), 60)
    return T("{h} h {m} min", h=h, m=m) if h and m else T("{h} h", h=h) if h else T("{m} min", m=m)


def _stored_result(row: SessionRow) -> Result | None:
    data = row.meta.get("result")
    return Result.model_validate(data) if data else None


__all__ = ["AI_MOVE", "AI_RACE", "DEADLINE", "GAME_OVER", "IDLE_PLAYED", "IDLE_WHO", "LEFT_GAME", "NOT_SEATED", "NOT_STARTED", "NOT_THIS_CHANNEL", "RESIGN",
           "STALE_TEXT", "MemoryUndoVotes", "SessionError", "SessionService", "StaleBoard", "StaleVersion",
           "UndoOutOfDate", "UndoVote", "Update", "not_your_turn", "replay"]
