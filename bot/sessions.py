"""The session service: lobbies and games per channel, every verb one store transaction (ARCHITECTURE.md).

Verbs: :meth:`SessionService.open_lobby`, ``join``, ``leave``, ``add_ai``, ``remove_ai``, ``start``, ``cancel``,
``act``, ``tick``, ``resign``, ``abandon``, ``undo``, ``show``. AI seats (issue 14) are played through durable timers
(:mod:`bot.ai_turns`). Each returns an :class:`Update` (what changed and what the game now waits for) or
raises :class:`SessionError` whose message a person can read (adapters show it ephemerally); a refused call stores
nothing.

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
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

import games
from games import TIMEOUT, Decision, Event, Game, IllegalMove, Move, Result, player_ref
from games.core import BaseState

from . import metrics
from .ai_seats import AiSettings, is_ai, level_of, new_ai_ids
from .ai_turns import AI_MOVE, AI_RACE, AI_RACES_META, AiTurns
from .records import RESIGN_MOVE, GameRecord
from .store import SessionRow, StaleVersion, Store, now_ms

RESIGN = RESIGN_MOVE
"""Option id under which a resignation is logged, so that replay reproduces it."""
DEADLINE = "deadline"
"""Timer kind of a decision's deadline (the session sends the system's timeout move)."""
MAX_MS = 2**63 - 1
"""The largest time (ms) the store can hold (SQLite INTEGER)."""
STATE_CACHE_SIZE = 4096
"""How many sessions' parsed states one process keeps (least recently used evicted; a row is re-parsed on need)."""


class SessionError(Exception):
    """A refused request. ``str(exc)`` says what is wrong and what to do instead; nothing was stored."""


class StaleBoard(SessionError):
    """A move answered an older version of the board than the stored one."""


STALE_RETRIES = 3
"""How many times a verb that re-checks everything it needs is run again when another process wrote the session
between its read and its write (``StaleVersion``: shards on one PostgreSQL, issue 16)."""


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
        raise SessionError("This game changed several times while your request was handled; please try again.")

    return run


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
    """The game's record (seats, ranks, ratings before and after) when this update ended a dealt game (issue 15)."""

    @property
    def finished(self) -> bool:
        return self.session.status in ("finished", "abandoned")


def replay(game: Game, players: list[str], options: dict, seed: int, moves: Iterable[Any]) -> BaseState:
    """Rebuild a game's state from its seed and move log (objects with ``player``, ``option``, ``at_ms``)."""
    state = game.setup(list(players), options, seed)
    for m in moves:
        if m.option == RESIGN:
            outcome = game.resign(state, m.player)
            if outcome is None:  # the game ended with that resignation
                break
        else:
            outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
        state = outcome.state
    return state


def resign_result(game: Game, state: BaseState, players: list[str], resigner: str) -> Result:
    """The result when a game that cannot go on without ``resigner`` ends: the others share the win."""
    others = [p for p in players if p != resigner]
    return Result(
        winners=others,
        ranking=[others, [resigner]] if others else [[resigner]],
        scores={},
        reason=f"{player_ref(resigner)} resigned.",
    )


class SessionService(AiTurns):
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
        # a lock lives while someone holds or awaits it; then it is dropped (memory stays bounded, issue 17)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # session id -> (version, parsed state), least recently used first; a session that ends is dropped
        self._cache: OrderedDict[int, tuple[int, BaseState]] = OrderedDict()
        self._untimed: set[int] = set()  # sessions known (by this process) to have no deadline timers in the store
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

    def _remember(self, session_id: int, version: int, state: BaseState) -> None:
        """Cache a parsed state, evicting the least recently used beyond :data:`STATE_CACHE_SIZE`."""
        self._cache[session_id] = (version, state)
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
            raise SessionError(f"There is no game called '{game_id}'. Games: {known}.") from None

    async def _live(self, channel_id: str) -> SessionRow:
        row = await self.store.live_session(channel_id)
        if row is None:
            last = await self.store.last_session(channel_id)
            if last is not None and last.status == "finished":
                raise SessionError(
                    f"The game of {self.game(last.game_id).title} here is over. Start a new one with /play."
                )
            raise SessionError("No game here. Start one with /play.")
        return row

    async def _active(self, channel_id: str) -> SessionRow:
        row = await self._live(channel_id)
        if row.status == "lobby":
            raise SessionError("The game has not started yet: the host can /start it.")
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

    def view(self, row: SessionRow) -> Update:
        """The :class:`Update` of a stored row as it stands (state, pending decisions, result), for adapters."""
        return self._update(row)

    def _update(self, row: SessionRow, events=(), notes=(), result: Result | None = None) -> Update:
        game = self.game(row.game_id)
        state = self.state_of(row)
        pending = game.pending(state) if state is not None and row.status == "active" else []
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

    # -- AI seats in the lobby (issue 14) -----------------------------------------------------------------------
    @_rerun_when_stale
    async def add_ai(self, channel_id: str, by: str, level: str | None = None, count: int = 1) -> Update:
        """Seat ``count`` AI players of ``level`` (default ``normal``) in the lobby — the host only. Refused (nothing
        changes) for no lobby, a running game, someone else than the host, an unknown level, or too few free
        seats."""
        try:
            level = level_of(level)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError("The game is running: AI players are added in the lobby, before /start.")
            if by != row.host:
                raise SessionError(f"Only the host, {player_ref(row.host)}, can add AI players.")
            seats = max(game.seat_counts(row.options) or [game.max_players])
            free = seats - len(row.players)
            if count < 1:
                raise SessionError("Add at least one AI player.")
            if free <= 0:
                raise SessionError(f"The lobby is full ({seats} player{'s' if seats != 1 else ''} with these "
                                   "options): no seat for an AI.")
            if count > free:
                raise SessionError(f"Only {free} seat{'s are' if free != 1 else ' is'} free: {count} AI players do "
                                   "not fit.")
            added = new_ai_ids(row.players, level, count)
            players = row.players + added
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        notes = [f"{player_ref(p)} joined ({len(row.players) - len(added) + i}/{seats})."
                 for i, p in enumerate(added, 1)]
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def remove_ai(self, channel_id: str, by: str, player: str) -> Update:
        """Take AI seat ``player`` out of the lobby — the host only, before the start. Refused (nothing changes)
        for no lobby, a running game, someone else than the host, or a player who is not an AI seat here."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError("The game is running: AI players can only be removed in the lobby.")
            if by != row.host:
                raise SessionError(f"Only the host, {player_ref(row.host)}, can remove AI players.")
            if not is_ai(player) or player not in row.players:
                raise SessionError("That is not an AI player of this lobby.")
            players = [p for p in row.players if p != player]
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        return self._update(row, notes=[f"{player_ref(by)} removed {player_ref(player)}."])

    # -- lobby ------------------------------------------------------------------------------------------------
    async def open_lobby(
        self, channel_id: str, game_id: str, host: str, options: dict | None = None, guild_id: str | None = None,
        ai_seats: int = 0, ai_level: str | None = None,
    ) -> Update:
        """Open a lobby for ``game_id`` with ``host`` seated, and ``ai_seats`` AI players of ``ai_level`` (default
        ``normal``; issue 14: ``/play <game> ai:<n> [level:<level>]``). Refused (nothing stored) when the channel is
        busy, the game unknown, an option invalid or unknown, the level unknown, or the AI seats do not fit."""
        game = self.game(game_id)
        if is_ai(host):
            raise SessionError("An AI player cannot open a lobby.")
        try:
            level = level_of(ai_level)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        fields = game.Options.model_fields
        unknown = [k for k in (options or {}) if k not in fields]
        if unknown:
            known = f"Options: {', '.join(fields)}." if fields else f"{game.title} has no options."
            raise SessionError(f"{game.title} has no option '{unknown[0]}'. {known}")
        try:
            opts = game.options(options or {}).model_dump(mode="json")
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors())
            raise SessionError(f"Those options do not work for {game.title}: {problems}.") from None
        seats = max(game.seat_counts(opts) or [game.max_players])
        if ai_seats < 0 or 1 + ai_seats > seats:
            free = seats - 1
            raise SessionError(f"{game.title} seats {seats} player{'s' if seats != 1 else ''} with these options: "
                               f"room for {free} AI player{'s' if free != 1 else ''} beside you, not {ai_seats}.")
        players = [host, *new_ai_ids([host], level, ai_seats)]
        async with self.lock(channel_id):
            busy = await self.store.live_session(channel_id)
            if busy is not None:
                raise SessionError(
                    f"A game of {self.game(busy.game_id).title} is already "
                    f"{'gathering players' if busy.status == 'lobby' else 'running'} here. "
                    "Finish it, /resign, or ask the host to /abandon it — or play in another channel or thread."
                )
            try:
                row = await self.store.create_session(channel_id, game_id, host, opts, self.seeds(), guild_id,
                                                      players=players)
            except self.store.integrity_errors:
                raise SessionError("A game is already open here.") from None
        notes = [f"{player_ref(host)} opened a lobby for {game.title}."]
        notes += [f"{player_ref(p)} joined ({i}/{seats})." for i, p in enumerate(players[1:], 2)]
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def join(self, channel_id: str, player: str) -> Update:
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError("This game has already started; wait for the next one.")
            if player in row.players:
                raise SessionError("You are already seated. Wait for the host to /start.")
            if is_ai(player):
                raise SessionError("AI players are seated by the host (Add AI), not by /join.")
            seats = max(game.seat_counts(row.options) or [game.max_players])
            if len(row.players) >= seats:
                raise SessionError(f"The lobby is full ({seats} player{'s' if seats != 1 else ''} with these "
                                   "options). Wait for the next game.")
            players = row.players + [player]
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        return self._update(row, notes=[f"{player_ref(player)} joined ({len(players)}/{seats})."])

    @_rerun_when_stale
    async def leave(self, channel_id: str, player: str) -> Update:
        """Leave a lobby. A host who leaves hands the lobby to the next person seated (never an AI seat); the last
        person out closes it."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError("The game has started: use /resign to leave it.")
            if player not in row.players:
                raise SessionError("You are not seated in this lobby.")
            players = [p for p in row.players if p != player]
            notes = [f"{player_ref(player)} left."]
            people = [p for p in players if not is_ai(p)]
            if not people:  # AI seats never host: the last person out closes the lobby
                await self.store.update_session(row.id, row.version, players=players, status="abandoned")
                notes.append("The lobby is closed.")
            else:
                host = row.host if row.host != player else people[0]
                if host != row.host:
                    notes.append(f"{player_ref(host)} is now the host.")
                await self.store.update_session(row.id, row.version, players=players, host=host)
            row = await self.store.session(row.id)
        return self._update(row, notes=notes)

    @_rerun_when_stale
    async def cancel(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """Close a lobby (the host, or a moderator)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status != "lobby":
                raise SessionError("The game has started: use /abandon to end it.")
            if by != row.host and not moderator:
                raise SessionError(f"Only the host, {player_ref(row.host)}, can cancel the lobby.")
            await self.store.update_session(row.id, row.version, status="abandoned")
            row = await self.store.session(row.id)
        return self._update(row, notes=[f"{player_ref(by)} cancelled the lobby."])

    @_rerun_when_stale
    async def start(self, channel_id: str, by: str) -> Update:
        """Deal the game (``Game.setup`` with the lobby's seed) — the host only, with enough players."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            game = self.game(row.game_id)
            if row.status != "lobby":
                raise SessionError("The game is already running.")
            if by != row.host:
                raise SessionError(f"Only the host, {player_ref(row.host)}, can start the game.")
            if len(row.players) < game.min_players:
                need = game.min_players - len(row.players)
                raise SessionError(
                    f"{game.title} needs at least {game.min_players} players: {need} more must /join first (or "
                    "the host adds AI players)."
                )
            try:
                opening = game.begin(list(row.players), row.options, row.seed)
                state = opening.state
            except ValueError as exc:  # e.g. options that do not fit this many players (checked at setup)
                raise SessionError(
                    f"{game.title} cannot start: {str(exc).rstrip('.')}. Change the seats (/join, /leave), or cancel "
                    "the lobby and /play again with other options."
                ) from None
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
            self._remember(row.id, row.version, state)
        return self._update(row, events=opening.events, notes=[f"{game.title} begins!"])

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
        Raises :class:`SessionError` for no game, a player not seated, or an illegal move (the engine's message).
        """
        if at_ms is not None and not 0 <= at_ms <= MAX_MS:
            raise SessionError(f"That time ({at_ms} ms) is out of range: a move's time is 0 to {MAX_MS} ms.")
        async with self.lock(channel_id):
            row = await self._active(channel_id)
            if expect_version is not None and expect_version != row.version:
                raise StaleBoard("This board is out of date — here is the current one.")
            if player is not None and player not in row.players:
                raise SessionError("You are not playing in this game. Wait for the next one, or /play in another channel.")
            game = self.game(row.game_id)
            state = self.state_of(row)
            move = Move(player=player, option=option, at_ms=self.clock() if at_ms is None else at_ms)
            try:
                outcome = game.apply(state, move)
            except IllegalMove as exc:
                raise SessionError(str(exc)) from None
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
            raise StaleBoard("This board changed meanwhile — here is the current one.") from None
        new = row.model_copy(update={"version": row.version + 1, "status": status, "meta": meta,
                                     "state": state_json, "move_count": seq})
        if status == "active":
            self._remember(row.id, new.version, state)
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
            result=result, resigned=resigned, names=names)

    async def _commit_tx(self, row: SessionRow, seq: int, move: Move, state_json: str, status: str, meta: dict,
                         pending: list[Decision], result: Result | None, plan, fired: int | None) -> GameRecord | None:
        """A move with more to write than :meth:`Store.commit_move` does, in one transaction: the move, the state,
        the version, the deadlines, the AI seats' timers (issue 14; ``fired``: the AI timer whose move this is,
        removed), and when the game ends the finished game and its record (seats, ratings: issue 15), returned.
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
        moderator removing an idle player), None when they resign themselves.

        One check for every game: a player who has already resigned (or been removed) is no longer playing and
        cannot resign or be removed again (:class:`SessionError`; nothing is stored) — before this, a second
        resignation in Tatamokatsu ended the game for everyone."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if row.status == "lobby":
                raise SessionError("The game has not started yet: use /leave to leave the lobby.")
            if player not in row.players:
                raise SessionError("You are not playing in this game.")
            resigned = await self.store.players_with_move(row.id, RESIGN)
            if player in resigned:
                if by is None or by == player:
                    raise SessionError("You have already left this game.")
                raise SessionError(f"{player_ref(player)} has already left this game.")
            game = self.game(row.game_id)
            state = self.state_of(row)
            try:
                outcome = game.resign(state, player)
            except IllegalMove as exc:
                raise SessionError(str(exc)) from None
            move = Move(player=player, option=RESIGN, at_ms=self.clock())
            playing = [p for p in row.players if p != player and p not in resigned]
            if outcome is not None and playing and all(is_ai(p) for p in playing):
                # no person is left (issue 14): AI seats do not play on alone; they share the win
                events = [*outcome.events, Event(kind="resign", text=f"{player_ref(player)} resigns: only AI "
                                                 "players are left, so the game ends.")]
                ranking = [playing, [player], *([sorted(resigned)] if resigned else [])]
                result = Result(winners=playing, ranking=ranking, scores={},
                                reason=f"{player_ref(player)} resigned; only AI players were left.")
                return await self._commit(row, game, move, outcome.state, events, result=result)
            if outcome is not None:
                return await self._commit(row, game, move, outcome.state, outcome.events)
            result = resign_result(game, state, row.players, player)
            events = [Event(kind="resign", text=f"{player_ref(player)} resigns. The game ends.")]
            return await self._commit(row, game, move, state, events, result=result)

    @_rerun_when_stale
    async def abandon(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """End the channel's lobby or game without a result: the host, or a moderator (Manage Channels/Threads)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
            if by != row.host and not moderator:
                raise SessionError(
                    f"Only the host, {player_ref(row.host)}, or a moderator can abandon this game. "
                    f"To leave it yourself, {'/leave' if row.status == 'lobby' else '/resign'}."
                )
            row = await self._abandon(row)
        self.forget(row.id)
        return self._update(row, notes=[f"{player_ref(by)} abandoned the game."])

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
        return self._update(row, notes=[f"The game was abandoned: {reason}."])

    async def _abandon(self, row: SessionRow, reason: str | None = None) -> SessionRow:
        """Mark ``row`` abandoned and clear its timers; a game already dealt is recorded (marked abandoned,
        unrated: issue 15) in the same transaction."""
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

    async def undo(self, channel_id: str, by: str) -> Update:
        """Take back the last move (the host only; adapters may ask the other players first): delete it from the
        log and replay the rest from the seed. Refused when no player move has been made."""
        async with self.lock(channel_id):
            row = await self._active(channel_id)
            if by != row.host:
                raise SessionError(f"Only the host, {player_ref(row.host)}, can undo.")
            moves = await self.store.moves(row.id)
            if not moves:
                raise SessionError("There is no move to undo yet.")
            game = self.game(row.game_id)
            last = moves[-1]
            state = replay(game, row.players, row.options, row.seed, moves[:-1])
            pending = game.pending(state)
            # the AI seats plan the races pending now afresh (an AI input taken back is answered again, at the
            # same time: its reaction is drawn from the race's own seed)
            fresh = row.model_copy(update={"meta": {k: v for k, v in row.meta.items() if k != AI_RACES_META}})
            plan = self._plan_ai(fresh, game, state, pending)
            try:
                await self._undo_tx(row, last, state, pending, plan)
            except StaleVersion:  # another process moved first: taking back "the last move" would be another one
                raise StaleBoard("The game moved on meanwhile — here is the current board; undo again if you "
                                 "still want to.") from None
            row = await self.store.session(row.id)
            self._remember(row.id, row.version, state)
        who = player_ref(last.player) if last.player else "the timer"
        what = f"{who} resigned" if last.option == RESIGN else f"{who}: {last.option}"
        return self._update(row, notes=[f"{player_ref(by)} took back the last move ({what})."])

    async def _undo_tx(self, row: SessionRow, last, state: BaseState, pending: list[Decision], plan) -> None:
        """The undo's one transaction: the last move deleted, the replayed state stored, deadlines and AI timers
        planned afresh. ``StaleVersion`` when another process wrote the session first (nothing stored)."""
        async with self.store.transaction() as db:
            await self.store.lock_session(db, row.id, row.version)
            await self.store.delete_move(db, row.id, last.seq)
            if plan.seated:
                await self.store.clear_timers(row.id, [AI_RACE], db=db)
            await self.store.update_session(
                row.id, row.version, db=db, state=state.model_dump_json(), move_count=last.seq - 1,
                meta=self._with_plans(row.meta, plan),
            )
            await self._schedule_deadlines(db, row, pending)
            await self._schedule_ai(db, row, plan)

    async def show(self, channel_id: str) -> Update:
        """The channel's lobby or game as it stands (read only). Under the channel's lock: the store's connection
        is shared, so a read during a move's transaction would see that move before its commit (and a rollback
        would leave a board that never existed)."""
        async with self.lock(channel_id):
            row = await self._live(channel_id)
        return self._update(row)

    async def restore(self) -> list[SessionRow]:
        """Live sessions after a restart (their deadline timers are in the store already)."""
        return await self.store.live_sessions()

    async def history(self, channel_id: str, limit: int = 20) -> list[Event]:
        """The events of the channel's game (setup's first, then the last ``limit``), rebuilt by replaying the log
        (read under the channel's lock, as :meth:`show`). A running game, or — when none runs — the channel's last
        finished game (issue 12: ``/history`` after the end). :class:`SessionError` when there is neither."""
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
                    events.append(Event(kind="resign", text=f"{player_ref(m.player)} resigns. The game ends."))
                    break
            else:
                outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
            state = outcome.state
            events.extend(outcome.events)
        return events[-limit:]


def _stored_result(row: SessionRow) -> Result | None:
    data = row.meta.get("result")
    return Result.model_validate(data) if data else None


__all__ = ["AI_MOVE", "AI_RACE", "RESIGN", "DEADLINE", "SessionError", "SessionService", "StaleBoard", "StaleVersion",
           "Update", "replay"]
