"""How the session service plays AI seats: their durable timers and what firing them does.

Two parts of the session service: :class:`AiPlanner` (what the AI seats will do about a move's pending decisions,
planned before the move's transaction and written inside it: :meth:`AiPlanner.plan`, :meth:`AiPlanner.schedule`)
and :class:`AiTurns` (firing those timers). Every move of the service plans:

- ``ai_move`` — one timer per AI seat that a pending decision names, for the session's new version, due after the
  human-like pause (``AiSettings.pause_ms``); firing it searches OFF the event loop (``AiSettings.executor``, without
  the channel's lock) and applies the move only if the session is still at that version (a stale search is dropped:
  the move that made it stale planned the seat's next move already);
- ``ai_race`` — one timer per AI seat and open race (``player=None`` with a deadline): ``games.ai.race_answer``'s
  option at the window's opening + the seat's reaction (never sooner than ``games.ai.MIN_REACTION_MS``), applied with
  that ``at_ms`` and judged by the engine like a person's input (RULINGS TK-10). Each input is planned once
  (``meta["ai_races"]``); once it is applied the seat is asked again for its next input of the same window (a
  Tatamokatsu roll wants a shout, then a salute: TK-3, TK-4; triples a Katana, then a salute: TK-7); when the window
  moves (Tatamokatsu's ``open`` input) it is planned again, same reaction.

Every AI move is logged like any other, so replay stays exact.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from games import Decision, Game, IllegalMove, Move
from games import ai as game_ai
from games.core import BaseState

from ..ai_seats import AiSettings, ai_rng, race_opened_ms, think
from ..store import SessionRow
from .board import Locks, States, game_of
from .presence import held_people
from .stand_in import ai_players
from .timers import AI_MOVE, AI_RACE, AI_RACES_META

if TYPE_CHECKING:
    from .board import Update
    from .timers import Timer

log = logging.getLogger(__name__)

@dataclass
class AiPlan:
    """The AI seats' timers for a session's next version (:meth:`AiPlanner.plan`): ``seated`` (the table
    has AI seats), ``moves`` and ``races`` as ``(player, due ms, payload)``, ``plans`` the race plans now pending."""

    seated: bool
    moves: list[tuple[str, int, dict]]
    races: list[tuple[str, int, dict]]
    plans: list[str]


class AiPlanner:

    """What the AI seats do about a move (see the module's docstring), over the store's timers, the service clock
    (ms) and the AI settings."""

    def __init__(self, store: Any, clock: Callable[[], int], settings: AiSettings) -> None:
        self.store = store
        self.clock = clock
        self.ai = settings

    def plan(self, row: SessionRow, game: Game, state: BaseState | None, pending: list[Decision]) -> AiPlan:
        """What the AI seats of ``row`` do about ``pending`` (the decisions of the session's NEXT version,
        ``row.version + 1``): an ``ai_move`` timer per AI seat a decision names, due after ``ai.pause_ms`` — none for
        a decision held by a person marked missing (:func:`bot.service.presence.held_people`); for each
        open race (``player=None`` with a deadline) not planned yet, each AI seat's input from
        ``games.ai.race_answer`` as an ``ai_race`` timer at the window's opening + the reaction (never sooner than
        ``games.ai.MIN_REACTION_MS``; none when the reaction falls after the deadline or the seat lets it pass)."""
        levels = ai_players(row)  # AI seats, and the absent people the stand-in plays for
        seats = list(levels)
        if not seats or state is None:
            return AiPlan(False, [], [], [])
        version = row.version + 1
        due = self.clock() + max(0, int(self.ai.pause_ms))
        moves = [(p, due, {"version": version, "player": p})  # a held roll waits for the missing (presence)
                 for p in dict.fromkeys(d.player for d in pending
                                        if d.player in levels and not held_people(row, state, [d]))]
        done = set(row.meta.get(AI_RACES_META) or [])
        plans: list[str] = []
        races: list[tuple[str, int, dict]] = []
        opened = race_opened_ms(state)
        for d in pending:
            if d.player is not None or d.deadline_ms is None or not d.options or opened is None:
                continue
            race = game.race_key(state, d) or f"{d.kind}@{d.deadline_ms}"
            for p in seats:
                try:
                    answer = game_ai.race_answer(game, state, d, p, levels[p], ai_rng(row.seed, race, p))
                except Exception:
                    log.exception("race answer of %s failed in session %s; it lets the race pass", p, row.id)
                    answer = None
                if answer is None or d.option(answer[0]) is None:
                    continue
                plan = f"{p}|{race}|{opened}|{answer[0]}"
                plans.append(plan)
                if plan in done:
                    continue
                at = opened + max(game_ai.MIN_REACTION_MS, int(answer[1]))
                if at <= d.deadline_ms:
                    races.append((p, at, {"plan": plan, "player": p, "race": race, "open_ms": opened,
                                          "option": answer[0], "at_ms": at}))
        return AiPlan(True, moves, races, plans)

    async def schedule(self, db, row: SessionRow, plan: AiPlan) -> None:
        """Write ``plan`` in the caller's transaction: the ``ai_move`` timers replaced, the ``ai_race`` timers of
        races no longer pending (or whose window moved) removed, the new ones added."""
        if not plan.seated:
            return
        await self.store.clear_timers(row.id, [AI_MOVE], db=db)
        current = set(plan.plans)
        for timer in await self.store.timers(row.id):
            if timer.kind == AI_RACE and timer.payload.get("plan") not in current:
                await self.store.delete_timers(db, [timer.id])
        for kind, items in ((AI_MOVE, plan.moves), (AI_RACE, plan.races)):
            for _player, due, payload in items:
                await self.store.add_timer(row.channel_id, kind, due, payload, session_id=row.id, db=db)

    @staticmethod
    def with_plans(meta: dict, plan: AiPlan) -> dict:
        """``meta`` with the AI race plans of ``plan`` (unchanged when the table has no AI seat)."""
        if not plan.seated:
            return meta
        return {**meta, AI_RACES_META: plan.plans}

class Commit(Protocol):
    """The service's one write path of a move (:meth:`bot.service.ledger.Ledger.commit`)."""

    async def __call__(self, row: SessionRow, game: Game, move: Move, state: BaseState, events: list,
                       result: Any = None, fired: int | None = None) -> Update: ...


class AiTurns:
    """Firing the AI seats' timers (see the module's docstring): the position read under the channel's lock, the
    search off the event loop (``settings.executor``), the move written through ``commit``."""

    def __init__(self, store: Any, clock: Callable[[], int], settings: AiSettings, locks: Locks, states: States,
                 commit: Commit) -> None:
        self.store = store
        self.clock = clock
        self.ai = settings
        self.lock = locks
        self.states = states
        self.commit = commit
        self._thinking: set[int] = set()  # AI timers whose move is being searched or applied now

    async def fire(self, timer: Timer) -> Update | None:
        """Play the AI timer ``timer`` (``ai_move`` or ``ai_race``); None when nothing was applied (stale, already
        in hand, or refused). Errors are logged with the session id and drop the timer: one broken AI never stops
        the dispatcher or another channel."""
        if timer.id in self._thinking:
            return None
        self._thinking.add(timer.id)
        try:
            if timer.kind == AI_RACE:
                return await self._fire_ai_race(timer)
            return await self._fire_ai_move(timer)
        except Exception:
            log.exception("AI timer %s (%s) of session %s failed; dropped", timer.id, timer.kind, timer.session_id)
            await self.store.delete_timer(timer.id)
            return None
        finally:
            self._thinking.discard(timer.id)

    async def _fire_ai_move(self, timer: Timer) -> Update | None:
        """An AI seat's move: the position of the timer's version is read under the channel's lock, searched OFF
        the event loop (``ai.executor``; the lock is free meanwhile, so the table and other channels go on), and
        applied only if the session is still at that version, stamped with it. A stale search is dropped: the move
        that made it stale planned the seat's next move already (never applied to a newer state)."""
        version, player = timer.payload.get("version"), str(timer.payload.get("player"))
        async with self.lock(timer.channel_id):
            row = await self.store.live_session(timer.channel_id)
            if row is None or row.status != "active" or row.id != timer.session_id or row.version != version:
                await self.store.delete_timer(timer.id)  # stale: its board moved on (normally gone already)
                return None
            game = game_of(row.game_id)
            state = self.states.state_of(row)
            index = next((i for i, d in enumerate(game.pending(state)) if d.player == player), None)
            if index is None:
                await self.store.delete_timer(timer.id)
                return None
            decision = game.pending(state)[index]
            state_json = row.state
            level = ai_players(row).get(player)
            if level is None:  # the seat's owner is back: the stand-in no longer plays it
                await self.store.delete_timer(timer.id)
                return None
        seed_text = f"{row.seed}:{version}:{player}"
        loop = asyncio.get_running_loop()
        try:
            option = await loop.run_in_executor(self.ai.executor, think, row.game_id, state_json, index, player,
                                                level, seed_text, self.ai.budget_ms, self.ai.iterations)
        except Exception as exc:  # a broken search must not stall the game: a random legal option instead
            log.exception("AI search of %s failed in session %s; a random legal option instead", player, row.id)
            if isinstance(exc, BrokenExecutor) and self.ai.executor is not None:
                log.error("the AI search workers broke; searching in threads from now on")
                self.ai.executor = None
            option = game_ai.random_legal(game, state, decision, ai_rng(seed_text))
        async with self.lock(timer.channel_id):
            now = await self.store.live_session(timer.channel_id)
            if now is None or now.id != row.id or now.status != "active" or now.version != version:
                log.info("AI move of %s for version %s of session %s is stale; dropped", player, version, row.id)
                return None
            move = Move(player=player, option=option, at_ms=self.clock())
            try:
                outcome = game.apply(state, move)
            except IllegalMove as exc:
                log.warning("AI move %r of %s refused in session %s: %s", option, player, row.id, exc)
                await self.store.delete_timer(timer.id)
                return None
            return await self.commit(now, game, move, outcome.state, outcome.events, fired=timer.id)

    async def _fire_ai_race(self, timer: Timer) -> Update | None:
        """An AI seat's race input, timed ``at_ms`` (the window's opening + its reaction) and judged by the engine
        like a person's; dropped when that race (and window) is no longer pending or the engine refuses it."""
        payload = timer.payload
        async with self.lock(timer.channel_id):
            row = await self.store.live_session(timer.channel_id)
            if row is None or row.status != "active" or row.id != timer.session_id \
                    or payload.get("plan") not in (row.meta.get(AI_RACES_META) or []):
                await self.store.delete_timer(timer.id)
                return None
            game = game_of(row.game_id)
            state = self.states.state_of(row)
            move = Move(player=str(payload["player"]), option=str(payload["option"]), at_ms=int(payload["at_ms"]))
            try:
                outcome = game.apply(state, move)
            except IllegalMove as exc:
                log.info("AI race input of %s refused in session %s: %s", move.player, row.id, exc)
                await self.store.delete_timer(timer.id)
                return None
            return await self.commit(row, game, move, outcome.state, outcome.events, fired=timer.id)


__all__ = ["AI_MOVE", "AI_RACE", "AI_RACES_META", "AiPlan", "AiPlanner", "AiTurns", "Commit"]
