"""The AI stand-in: a table never dies of absence.

When a seated person's AFK limit has passed (the others press "The AI plays for X" on the AFK notice) or a member
who left the server is still gone when the departure grace ends (the default, at once), an AI of the normal level
plays that seat through the AI seats' durable timers (:mod:`bot.ai_turns`): the game goes on, a two-player game too.
The seat's owner takes it back with one press ("I'm back") while the game runs. Board Game Arena's rule for
leavers rates such a game: for the others as played, the absent player placed last (:mod:`bot.store.records`).

Kept in the session's ``meta`` (so the move log and replay are untouched: the stand-in's moves are logged under the
seat's own player id like any move):

- ``stand_ins``: the players the AI plays for now, in the order it took over;
- ``stood_in``: every player the AI played for at some time in this game (ranked last when it is recorded).

Each change is one transaction that also replans the AI seats' timers for the session's next version; it bumps the
version, so a board of the version before is stale (the adapter posts the new one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games import player_ref
from games.core import T

from ..ai_seats import DEFAULT_LEVEL, ai_level, is_ai
from ..refusals import LEFT_GAME, SessionError
from ..store import SessionRow
from .board import game_of
from .timers import AI_MOVE, AI_RACE, AI_RACES_META

if TYPE_CHECKING:
    from .ai_turns import AiPlanner
    from .board import Locks, Rows, States, Update
    from .reads import Reads
    from .resignations import Resignations

STAND_INS = "stand_ins"
"""Key in a session's ``meta``: the players the AI plays for now."""
STOOD_IN = "stood_in"
"""Key in a session's ``meta``: every player the AI played for in this game (the record ranks them last)."""
STAND_IN_LEVEL = DEFAULT_LEVEL
"""The level the stand-in plays at (``normal``: each game's greedy player)."""


def stand_in_label(player: str) -> str:
    """How a board marks a seat the AI plays for: ``{@player} · AI stand-in`` (a :class:`games.core.Text`)."""
    return T("{player} · AI stand-in", player=player_ref(player))


def stand_ins(row: SessionRow) -> list[str]:
    """The players of ``row`` the AI plays for now (``meta["stand_ins"]``)."""
    return [str(p) for p in row.meta.get(STAND_INS) or []]


def stood_in(row: SessionRow) -> set[str]:
    """Every player of ``row`` the AI played for at some time (``meta["stood_in"]``)."""
    return {str(p) for p in row.meta.get(STOOD_IN) or []}


def ai_players(row: SessionRow) -> dict[str, str]:
    """Player id -> AI level of every seat of ``row`` the AI plays: its AI seats (their own level) and the seats
    of absent people the stand-in plays (:data:`STAND_IN_LEVEL`), in seat order."""
    standing = set(stand_ins(row))
    return {p: ai_level(p) if is_ai(p) else STAND_IN_LEVEL for p in row.players if is_ai(p) or p in standing}


def without_plans_of(meta: dict, player: str) -> dict:
    """``meta`` without the AI race plans of ``player`` (``player|race|open|option``, :mod:`bot.ai_turns`)."""
    plans = [p for p in meta.get(AI_RACES_META) or [] if not str(p).startswith(f"{player}|")]
    return {**meta, AI_RACES_META: plans}


class StandIns:
    """The stand-in's verbs over the service's parts: the channel ``locks``, the running ``rows``, the parsed
    ``states``, the stored sessions (``reads``), the ``store`` (one transaction per change), the AI seats'
    ``planner`` and the ``resignations`` (the idle checks and the removal). Each returns an :class:`Update` or
    raises :class:`SessionError` (nothing stored)."""

    def __init__(self, store: Any, locks: Locks, rows: Rows, states: States, reads: Reads, planner: AiPlanner,
                 resignations: Resignations) -> None:
        self.store = store
        self.lock = locks
        self.rows = rows
        self.states = states
        self.reads = reads
        self.planner = planner
        self.resignations = resignations

    async def take_over(self, channel_id: str, session_id: int, version: int, seat: int, by: str,
                        idle_after_ms: int, moderator: bool = False) -> Update:
        """"The AI plays for X" on an AFK notice: the AI plays the idle seat ``seat`` of board ``version`` of
        session ``session_id`` from now on, chosen by ``by`` (another seated player still playing, or a moderator).
        Refused as ``remove_idle`` is (:meth:`bot.service.resignations.Resignations.idle_seat`), and when the AI
        plays that seat already."""
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            if 0 <= seat < len(row.players) and row.players[seat] in stand_ins(row):
                raise SessionError(T("The AI plays for {player} already.", player=player_ref(row.players[seat])))
            idle, _ = await self.resignations.idle_seat(row, version, seat, by, idle_after_ms, moderator)
            return await self._hand_over(row, idle, T("{by} let the AI play for {player} until they are back.",
                                                       by=player_ref(by), player=player_ref(idle)))

    async def take_over_departed(self, session_id: int, player: str) -> Update | None:
        """A member who left the server is still gone when the grace ends: the AI plays their seat (the default;
        the others may still remove them, :meth:`remove`). None, and nothing written, when the game no longer runs,
        ``player`` is not seated, has left the game, or the AI plays for them already."""
        row = await self.reads.session(session_id)
        if row is None or row.status != "active":
            return None
        async with self.lock(row.channel_id):
            row = await self.reads.session(session_id)
            if row is None or row.status != "active" or player not in row.players or is_ai(player) \
                    or player in stand_ins(row) or player in await self.reads.resigned(row.id):
                return None
            return await self._hand_over(row, player, T("{player} left the server: the AI plays for them until "
                                                        "they are back.", player=player_ref(player)))

    async def take_back(self, channel_id: str, session_id: int, seat: int, by: str) -> Update:
        """"I'm back": the owner of seat ``seat`` of session ``session_id`` plays it again. Refused for another
        channel's or an ended game, a seat that names nobody, anyone but the seat's owner, and a seat the AI does
        not play."""
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            if not 0 <= seat < len(row.players):
                raise SessionError(T("This button is not valid. Use the buttons of the latest notice."))
            owner = row.players[seat]
            if by != owner:
                raise SessionError(T("Only {player} can take their seat back.", player=player_ref(owner)))
            if owner not in stand_ins(row):
                raise SessionError(T("You are playing your seat yourself already."))
            meta = without_plans_of({**row.meta, STAND_INS: [p for p in stand_ins(row) if p != owner]}, owner)
            async with self.store.transaction() as db:
                await self.store.lock_session(db, row.id, row.version)
                await self.store.update_session(row.id, row.version, db=db, meta=meta)
                for timer in await self.store.timers(row.id):
                    if timer.kind in (AI_MOVE, AI_RACE) and timer.payload.get("player") == owner:
                        await self.store.delete_timers(db, [timer.id])
            row = await self.store.session(row.id)
        return self.states.view(row, notes=[T("{player} is back and plays their seat again.",
                                              player=player_ref(owner))])

    async def remove(self, channel_id: str, session_id: int, seat: int, by: str, moderator: bool = False) -> Update:
        """"Remove X" beside a stand-in: the absent player of ``seat`` leaves the game (their resignation, as
        /kick) — another seated player still playing, or a moderator. Refused for a seat the AI does not play."""
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            if not 0 <= seat < len(row.players) or row.players[seat] not in stand_ins(row):
                raise SessionError(T("The AI does not play this seat: nothing to do."))
            absent = row.players[seat]
            resigned = await self.reads.resigned(row.id)
            if by in resigned:
                raise SessionError(LEFT_GAME)
            if by == absent:
                raise SessionError(T("You cannot remove yourself: /resign leaves the game."))
            if by not in row.players and not moderator:
                raise SessionError(T("Only the other players or a moderator can remove a player the AI plays for."))
            return await self.resignations.resign_row(row, absent, by, resigned)

    async def _hand_over(self, row: SessionRow, player: str, note: str) -> Update:
        """Write ``player`` as stood in for (``stand_ins``, ``stood_in``) and plan the AI's timers for the pending
        decisions, in one transaction (under the channel's lock)."""
        meta = {**row.meta, STAND_INS: [*stand_ins(row), player], STOOD_IN: sorted(stood_in(row) | {player})}
        planned = row.model_copy(update={"meta": meta})
        game = game_of(row.game_id)
        state = self.states.state_of(row)
        plan = self.planner.plan(planned, game, state, self.states.pending_of(row, state))
        meta = self.planner.with_plans(meta, plan)
        async with self.store.transaction() as db:
            await self.store.lock_session(db, row.id, row.version)
            await self.store.update_session(row.id, row.version, db=db, meta=meta)
            await self.planner.schedule(db, row, plan)
        return self.states.view(await self.store.session(row.id), notes=[note])


__all__ = ["STAND_INS", "STAND_IN_LEVEL", "STOOD_IN", "StandIns", "ai_players", "stand_in_label", "stand_ins",
           "stood_in", "without_plans_of"]
