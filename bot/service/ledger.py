"""The one write path of a game: a move committed in one transaction (the move appended, the state saved, the
version bumped, the deadlines and AI seats' timers replanned, a finished game recorded), and a game abandoned."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import Decision, Event, Game, IllegalMove, Move, Result
from games.core import BaseState, T

from .. import metrics
from ..i18n import refusal
from ..refusals import SessionError, StaleBoard
from ..store import SessionRow, StaleVersion
from ..store.records import RESIGN_MOVE, GameRecord
from .ai_turns import AiPlan, AiPlanner
from .board import States, Update, game_of
from .deadlines import DEADLINE, Deadlines
from .presence import HERE, check_held
from .records import Records
from .stand_in import stand_ins


class Ledger:
    """Moves and endings written to the store (``store``; ms from ``clock``), keeping ``states``, ``deadlines``
    and the AI seats' plans (``planner``) in step, ended games recorded through ``records``."""

    def __init__(self, store: Any, clock: Callable[[], int], states: States, deadlines: Deadlines,
                 planner: AiPlanner, records: Records) -> None:
        self.store = store
        self.clock = clock
        self.states = states
        self.deadlines = deadlines
        self.planner = planner
        self.records = records
        self.before_commit: Callable[[SessionRow, BaseState, list[Decision]], None] | None = None
        """Called with the session row a move is about to store (its new version), its state and pending decisions,
        before the transaction starts: the adapter starts drawing the board meanwhile (the image and the commit's
        disk write overlap instead of following each other). Must not raise."""
        self.not_committed: Callable[[SessionRow], None] | None = None
        """Called with that row when its transaction failed (nothing stored): what was started for it is dropped."""

    def forget(self, session_id: int) -> None:
        """Drop what this process keeps in memory for a session that ended (its parsed state, its timer note)."""
        self.states.forget(session_id)
        self.deadlines.forget(session_id)

    async def apply(self, row: SessionRow, state: BaseState, player: str | None, option: str,
                    at_ms: int | None) -> Update:
        """Apply a checked move to ``row``'s ``state`` and commit it (under the channel's lock); the engine's
        refusal as a :class:`SessionError`. A person whose seat the AI stand-in plays is refused: "I'm back" first
        (:mod:`bot.service.stand_in`)."""
        if player is not None and player in stand_ins(row):
            raise SessionError(T("The AI plays for you now: press “I'm back” on the board to take your seat back first."))
        if option != HERE:  # a live table's presence: "I'm here" itself is never held
            check_held(row, state, self.states.pending_of(row, state), player)
        game = game_of(row.game_id)
        move = Move(player=player, option=option, at_ms=self.clock() if at_ms is None else at_ms)
        try:
            outcome = game.apply(state, move)
        except IllegalMove as exc:
            raise SessionError(refusal(exc)) from None
        return await self.commit(row, game, move, outcome.state, outcome.events)

    async def commit(
        self, row: SessionRow, game: Game, move: Move, state: BaseState, events: list[Event],
        result: Result | None = None, fired: int | None = None,
    ) -> Update:
        """Append ``move``, save ``state``, bump the version, reschedule deadlines and AI seats' timers (and
        record a finished game) in one transaction. ``fired``: the id of the timer whose move this is (removed in
        the same transaction). :class:`StaleBoard` when another process wrote the session first (nothing
        stored)."""
        result = result or game.result(state)
        status = "finished" if result is not None else "active"
        pending = game.pending(state) if status == "active" else []
        plan = self.planner.plan(row, game, state, pending)
        meta = self.planner.with_plans(row.meta, plan)
        if result is not None:
            meta = {**meta, "result": result.model_dump(mode="json")}
        seq = row.move_count + 1
        state_json = state.model_dump_json()
        new = row.model_copy(update={"version": row.version + 1, "status": status, "meta": meta,
                                     "state": state_json, "move_count": seq})
        if self.before_commit is not None:
            self.before_commit(new, state, pending)
        record = None
        try:
            if result is None and fired is None and not plan.seated:
                # the common case, one round trip on PostgreSQL (Store.commit_move)
                deadlines, clear = self.deadlines.plan(row, pending)
                await self.store.commit_move(
                    row, seq, move.player, move.option, move.at_ms, state=state_json, status=status, meta=meta,
                    clear_kinds=[DEADLINE] if clear else [],
                    timers=[(DEADLINE, d, {"deadline_ms": d}) for d in deadlines],
                )
                self.deadlines.settled(row.id, deadlines)
            else:
                record = await self._commit_tx(row, seq, move, state_json, status, meta, pending, result, plan,
                                               fired)
        except BaseException as exc:
            if self.not_committed is not None:
                self.not_committed(new)
            if isinstance(exc, StaleVersion):
                # another process (a shard moving between processes) wrote this session first: nothing was stored
                raise StaleBoard(T("This board changed meanwhile — here is the current one.")) from None
            raise
        if status == "active":
            self.states.remember(row.id, new.version, state, pending)
        else:
            self.forget(row.id)
        update = self.states.view(new, events=events, result=result)
        update.record = record
        metrics.move_committed(row.game_id)
        return update

    async def _commit_tx(self, row: SessionRow, seq: int, move: Move, state_json: str, status: str, meta: dict,
                         pending: list[Decision], result: Result | None, plan: AiPlan,
                         fired: int | None) -> GameRecord | None:
        """A move with more to write than :meth:`Store.commit_move` does, in one transaction: the move, the state,
        the version, the deadlines, the AI seats' timers (``fired``: the AI timer whose move this is,
        removed), and when the game ends the finished game and its record (seats, ratings), returned.
        :class:`StaleVersion` when another process moved first."""
        if result is not None:
            resigned = await self.store.players_with_move(row.id, RESIGN_MOVE)
            if move.option == RESIGN_MOVE and move.player is not None:
                resigned.add(move.player)
            names = await self.records.names(row)
        async with self.store.transaction() as db:
            # the session's row first: another process acting on this version waits here, then finds it stale
            await self.store.lock_session(db, row.id, row.version)
            await self.store.append_move(db, row.id, seq, move.player, move.option, move.at_ms)
            await self.store.update_session(
                row.id, row.version, db=db, state=state_json, status=status, meta=meta, move_count=seq
            )
            await self.deadlines.schedule(db, row, pending)
            await self.planner.schedule(db, row, plan)
            if fired is not None:
                await self.store.delete_timers(db, [fired])
            if result is None:
                return None
            await self.store.record_finished(
                db, row.id, row.game_id, row.channel_id, result.model_dump(mode="json"), seq
            )
            return await self.records.record(db, row, seq, result, resigned, names)

    async def abandon(self, row: SessionRow, reason: str | None = None) -> SessionRow:
        """Mark ``row`` abandoned (``reason`` kept in its meta) and clear its timers; a game already dealt is
        recorded (marked abandoned, unrated) in the same transaction. The row after it."""
        dealt = row.status == "active"
        if dealt:
            resigned = await self.store.players_with_move(row.id, RESIGN_MOVE)
            names = await self.records.names(row)
        async with self.store.transaction() as db:
            await self.store.lock_session(db, row.id, row.version)
            fields: dict[str, Any] = {"status": "abandoned"}
            if reason:
                fields["meta"] = {**row.meta, "abandoned": reason}
            await self.store.update_session(row.id, row.version, db=db, **fields)
            await self.store.clear_timers(row.id, db=db)
            if dealt:
                await self.records.record(db, row, row.move_count, None, resigned, names)
        return await self.store.session(row.id)


__all__ = ["Ledger"]
