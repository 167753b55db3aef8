"""What the service knows of a board: the :class:`Update` a verb returns, each channel's lock, and the parsed
states (with their pending decisions) kept per session version."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

import games
from games import Decision, Event, Game, Result
from games.core import BaseState, T

from ..refusals import GAME_OVER, NOT_STARTED, NOT_THIS_CHANNEL, SessionError
from ..store import SessionRow
from ..store.records import GameRecord

STATE_CACHE_SIZE = 4096
"""How many sessions' parsed states one process keeps (least recently used evicted; a row is re-parsed on need)."""


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


def game_of(game_id: str) -> Game:
    """The game ``game_id``; :class:`SessionError` naming the known games when there is none."""
    try:
        return games.get(game_id)
    except KeyError:
        known = ", ".join(g.id for g in games.all())
        raise SessionError(T("There is no game called '{game}'. Games: {known}.", game=game_id, known=known)) from None


class Locks:
    """One :class:`asyncio.Lock` per channel; a lock lives while someone holds or awaits it, then it is dropped
    (memory stays bounded)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, channel_id: str) -> asyncio.Lock:
        """The lock of ``channel_id`` (created on first use)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class Rows:
    """The channel's live session as the verbs need it, each refusal worded here."""

    def __init__(self, store) -> None:
        self.store = store

    async def live(self, channel_id: str) -> SessionRow:
        """The lobby or running game of ``channel_id``; :class:`SessionError` saying there is none (or that the
        last one is over)."""
        row = await self.store.live_session(channel_id)
        if row is None:
            last = await self.store.last_session(channel_id)
            if last is not None and last.status == "finished":
                raise SessionError(T("The game of {game} here is over. Start a new one with /play.",
                                     game=game_of(last.game_id).title))
            raise SessionError(T("No game here. Start one with /play."))
        return row

    async def active(self, channel_id: str) -> SessionRow:
        """The running game of ``channel_id``; :class:`SessionError` for none or a lobby (:data:`NOT_STARTED`)."""
        row = await self.live(channel_id)
        if row.status == "lobby":
            raise SessionError(NOT_STARTED)
        return row


    async def on_board(self, channel_id: str, session_id: int) -> SessionRow:
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


class States:
    """Parsed states per session version, least recently used first (at most :data:`STATE_CACHE_SIZE`), with
    their pending decisions once asked; a session that ends is dropped."""

    def __init__(self) -> None:
        # session id -> (version, parsed state, its pending decisions or None until asked)
        self._cache: OrderedDict[int, tuple[int, BaseState, list[Decision] | None]] = OrderedDict()

    def __contains__(self, session_id: int) -> bool:
        return session_id in self._cache

    def __iter__(self):
        return iter(self._cache)

    def remember(self, session_id: int, version: int, state: BaseState,
                 pending: list[Decision] | None = None) -> None:
        """Keep a parsed state (and its pending decisions when known), evicting the least recently used beyond
        :data:`STATE_CACHE_SIZE`."""
        self._cache[session_id] = (version, state, pending)
        self._cache.move_to_end(session_id)
        while len(self._cache) > STATE_CACHE_SIZE:
            self._cache.popitem(last=False)

    def forget(self, session_id: int) -> None:
        """Drop the parsed state of ``session_id`` (it ended, or its row changed outside this process)."""
        self._cache.pop(session_id, None)

    def state_of(self, row: SessionRow) -> BaseState | None:
        """The parsed state of ``row`` (cached by version); None in a lobby."""
        if row.state is None:
            return None
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = game_of(row.game_id).load_state(row.state)
        if row.status == "active":  # an ended game is read rarely (its last board): not kept
            self.remember(row.id, row.version, state)
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
        pending = game_of(row.game_id).pending(state)
        if cached is not None and cached[0] == row.version and cached[1] is state:
            self._cache[row.id] = (row.version, state, pending)
        return pending

    def view(self, row: SessionRow, events=(), notes=(), result: Result | None = None) -> Update:
        """The :class:`Update` of a stored row as it stands (state, pending decisions, result), with ``events`` and
        ``notes``; the stored result of a finished game when the state gives none."""
        game = game_of(row.game_id)
        state = self.state_of(row)
        pending = self.pending_of(row, state) if state is not None else []
        if result is None and state is not None and row.status in ("active", "finished"):
            result = game.result(state)
            if result is None and row.status == "finished":
                data = row.meta.get("result")
                result = Result.model_validate(data) if data else None
        return Update(row, game, state, list(events), pending, result, list(notes))


__all__ = ["STATE_CACHE_SIZE", "Locks", "Rows", "States", "Update", "game_of"]
