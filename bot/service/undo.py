"""The undo rule (the same on Discord and in the sandbox): a seated player who is still playing asks to take back
the last move; every other seated person still playing approves (AI seats never object); one refusal closes the
request and any move makes it out of date; alone with AI seats, the move is taken back at once. The move log
replays (:func:`replay`), so taking a move back is replaying the others from the seed.

:class:`UndoRule` holds the verbs (the facade :class:`bot.sessions.SessionService` offers them); the open requests
are kept where the adapter says (:class:`UndoVotes`: the Discord adapter's links, in memory offline)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from games import Decision, Game, Move, player_ref
from games.core import BaseState, T, Text

from ..ai_seats import is_ai
from ..refusals import LEFT_GAME, UNDO_OUT_OF_DATE, SessionError, StaleBoard, UndoOutOfDate
from ..store import SessionRow, StaleVersion
from ..store.records import RESIGN_MOVE as RESIGN
from .ai_turns import AI_RACE, AI_RACES_META, AiPlan, AiPlanner
from .board import Locks, Rows, States, Update, game_of
from .deadlines import Deadlines

UNDONE_MS = "undone_ms"
"""Session meta key: when (ms, the service clock) the last move was taken back (an idle player's AFK limit counts
from then: ``SessionService.waiting_since``)."""


@dataclass
class UndoVote:
    """Where an undo request stands (:meth:`UndoRule.ask`, :meth:`UndoRule.vote`): who
    asked (``by``), who approved (the asker first), who is still waiting to vote (seated people, never AI seats),
    ``refused_by`` when someone said no (the request is closed), and ``update`` once everyone approved (the last
    move is taken back)."""

    session: SessionRow
    by: str
    approved: list[str]
    waiting: list[str]
    refused_by: str | None = None
    update: Update | None = None


class UndoVotes(Protocol):
    """Where open undo requests are kept, per session id: ``{"version": int, "by": player id, "yes": [player
    ids]}`` (:class:`MemoryUndoVotes`; the Discord adapter's :class:`bot.discord.links.Links`, which keeps them
    with its per-session data so they survive a restart)."""

    async def get_undo(self, session_id: int) -> dict | None: ...
    async def put_undo(self, session_id: int, vote: dict | None) -> None: ...


class MemoryUndoVotes:
    """Open undo requests kept in memory, per session id (the sandbox and transcripts)."""

    def __init__(self) -> None:
        self._votes: dict[int, dict] = {}

    async def get_undo(self, session_id: int) -> dict | None:
        return self._votes.get(session_id)

    async def put_undo(self, session_id: int, vote: dict | None) -> None:
        if vote is None:
            self._votes.pop(session_id, None)
        else:
            self._votes[session_id] = vote


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


class UndoRule:
    """The undo verbs over the store, the service ``clock`` (ms), the channel ``locks``, the live ``rows``, the
    parsed ``states``, the ``deadlines`` and AI ``planner`` (a take-back replans both) and the open requests'
    ``votes``."""

    def __init__(self, store: Any, clock: Callable[[], int], locks: Locks, rows: Rows, states: States,
                 deadlines: Deadlines, planner: AiPlanner, votes: UndoVotes) -> None:
        self.store = store
        self.clock = clock
        self.lock = locks
        self.rows = rows
        self.states = states
        self.deadlines = deadlines
        self.planner = planner
        self.votes = votes

    async def ask(self, channel_id: str, by: str) -> UndoVote:
        """``by`` asks to take back the last move. The rule (the same on Discord and in the sandbox): any seated
        player who is still playing may ask; every other seated person still playing must approve (AI seats never
        object); one refusal closes the request, and any move meanwhile makes it out of date. Alone with AI seats,
        the move is taken back at once (``UndoVote.update`` set). Refused (:class:`SessionError`, nothing stored)
        for no running game, someone not playing, or no move to take back."""
        async with self.lock(channel_id):
            row = await self.rows.active(channel_id)
            playing = await self._playing(row)
            if by not in playing:
                raise SessionError(T("Only the players of this game can ask for an undo."))
            if row.move_count == 0:
                raise SessionError(T("There is no move to undo yet."))
        others = [p for p in playing if p != by and not is_ai(p)]
        if not others:
            return UndoVote(row, by, [by], [], update=await self._take_back(channel_id, by))
        await self.votes.put_undo(row.id, {"version": row.version, "by": by, "yes": [by]})
        return UndoVote(row, by, [by], others)

    async def vote(self, session_id: int, version: int, by: str, yes: bool) -> UndoVote:
        """``by`` approves (``yes``) or refuses the undo request made on board ``version`` of ``session_id``.
        Refused (nothing stored; adapters tell only the presser): :class:`SessionError` for someone not seated,
        one who left the game (:data:`LEFT_GAME`) or the asker (the others decide); :class:`UndoOutOfDate` when
        that request no longer stands. When the last vote is in, the move is taken back (``update`` set)."""
        row = await self.store.session(session_id)
        if row is None or row.status != "active":
            raise UndoOutOfDate(UNDO_OUT_OF_DATE)
        playing = await self._playing(row)
        if by not in playing:
            raise SessionError(LEFT_GAME if by in row.players else T("Only the players of this game vote on an undo."))
        vote = await self.votes.get_undo(session_id)
        if row.version != version or not vote or vote.get("version") != version:
            raise UndoOutOfDate(UNDO_OUT_OF_DATE)
        if by == vote["by"]:
            raise SessionError(T("You asked for it: the other players decide."))
        if not yes:
            await self.votes.put_undo(session_id, None)
            return UndoVote(row, vote["by"], list(vote["yes"]), [], refused_by=by)
        approved = sorted({*vote["yes"], by})
        waiting = [p for p in playing if p not in approved and not is_ai(p)]
        if waiting:
            await self.votes.put_undo(session_id, {**vote, "yes": approved})
            return UndoVote(row, vote["by"], approved, waiting)
        update = await self._take_back(row.channel_id, vote["by"], expect_version=version)
        await self.votes.put_undo(session_id, None)
        return UndoVote(update.session, vote["by"], approved, [], update=update)

    async def pending(self, session_id: int) -> dict | None:
        """The open undo request of ``session_id`` (``{"version", "by", "yes"}``) or None."""
        return await self.votes.get_undo(session_id)

    async def _playing(self, row: SessionRow) -> list[str]:
        """The seated players of ``row`` who have not resigned or been removed."""
        resigned = await self.store.players_with_move(row.id, RESIGN)
        return [p for p in row.players if p not in resigned]

    async def ask_or_take_back(self, channel_id: str, by: str) -> Update:
        """``by`` asks to take back the last move (:meth:`ask`): the :class:`Update` after it when it is
        taken back at once (alone with AI seats), else the board as it stands with a note saying who must
        approve. Adapters that show votes use :meth:`ask` and :meth:`vote`."""
        vote = await self.ask(channel_id, by)
        if vote.update is not None:
            return vote.update
        update = self.states.view(vote.session)
        update.notes.append(T("{player} asks to take back the last move. {waiting}: approve? (Any move meanwhile "
                              "cancels the request.)", player=player_ref(by),
                              waiting=Text.join(T(", "), [player_ref(p) for p in vote.waiting])))
        return update

    async def _take_back(self, channel_id: str, asked_by: str, expect_version: int | None = None) -> Update:
        """Delete the last move from the log and replay the rest from the seed (the undo rule's checks are done by
        the caller). :class:`StaleBoard` when the game moved on meanwhile; :class:`SessionError` with no move."""
        async with self.lock(channel_id):
            row = await self.rows.active(channel_id)
            if expect_version is not None and row.version != expect_version:
                raise UndoOutOfDate(UNDO_OUT_OF_DATE)
            moves = await self.store.moves(row.id)
            if not moves:
                raise SessionError(T("There is no move to undo yet."))
            game = game_of(row.game_id)
            last = moves[-1]
            state = replay(game, row.players, row.options, row.seed, moves[:-1])
            pending = game.pending(state)
            # the AI seats plan the races pending now afresh (an AI input taken back is answered again, at the
            # same time: its reaction is drawn from the race's own seed)
            fresh = row.model_copy(update={"meta": {k: v for k, v in row.meta.items() if k != AI_RACES_META}})
            plan = self.planner.plan(fresh, game, state, pending)
            try:
                await self._undo_tx(row, last, state, pending, plan)
            except StaleVersion:  # another process moved first: taking back "the last move" would be another one
                raise StaleBoard(T("The game moved on meanwhile — here is the current board; undo again if you "
                                   "still want to.")) from None
            row = await self.store.session(row.id)
            self.states.remember(row.id, row.version, state, pending)
        who: str = player_ref(last.player) if last.player else T("the timer")
        what: Text = (T("{who} resigned", who=who) if last.option == RESIGN
                      else T("{who}: {option}", who=who, option=last.option))
        return self.states.view(row, notes=[T("{player} took back the last move ({what}).", player=player_ref(asked_by),
                                          what=what)])

    async def _undo_tx(self, row: SessionRow, last, state: BaseState, pending: list[Decision], plan: AiPlan) -> None:
        """The undo's one transaction: the last move deleted, the replayed state stored, deadlines and AI timers
        planned afresh. ``StaleVersion`` when another process wrote the session first (nothing stored)."""
        async with self.store.transaction() as db:
            await self.store.lock_session(db, row.id, row.version)
            await self.store.delete_move(db, row.id, last.seq)
            if plan.seated:
                await self.store.clear_timers(row.id, [AI_RACE], db=db)
            await self.store.update_session(
                row.id, row.version, db=db, state=state.model_dump_json(), move_count=last.seq - 1,
                meta={**self.planner.with_plans(row.meta, plan), UNDONE_MS: self.clock()},
            )
            await self.deadlines.schedule(db, row, pending)
            await self.planner.schedule(db, row, plan)


__all__ = ["UNDONE_MS", "MemoryUndoVotes", "UndoRule", "UndoVote", "UndoVotes", "replay"]
