"""Teaching at the table: ``/hint`` (the strong AI's best options for the member whose decision is open), the
lobby's ``hints:`` setting and the unrated mark of a hinted game, the turning points of a finished game, and the
first-contact line of a lobby whose table has never finished the game.

- A lobby's ``hints:`` is kept in the session's ``meta[HINTS_META]`` (True/False; absent: :func:`hints_default`,
  on with fewer than two people seated, i.e. against AI seats or alone; off when two or more people sit, so a
  rated game between people never changes silently).
- A hint is asked for by a seated member whose decision is open (never a race, never another player's decision),
  searched OFF the event loop in the AI seats' executor (:attr:`bot.ai_seats.AiSettings.executor`) with the seat's
  own seed and budget (:func:`advise_stored`: the first option is what a strong AI seat would play there), and
  noted in ``meta[HINTED_META]`` (the players who used one) without changing the board's version (its buttons stay
  live). A game with a hint noted is recorded unrated, and its boards and result say so.
- A lobby notes whether its table is new to the game (nobody seated has finished it in this server): its card
  then offers the lesson (:func:`learn_line`).
- Turning points (:func:`turning_job`) run in a drawing worker within :data:`TURNING_BUDGET_MS`.

Adapters format with :func:`hint_lines`, :func:`hinted_line` and :func:`turning_lines`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import games
from games import ai as game_ai
from games.core import Move, N, T, Text, player_ref
from games.hints import Advice, advise, measure_text, value_text
from games.turning import TurningPoint, turning_points

from ..ai_seats import AiSettings, ai_rng, is_ai, seat_budget, stored_decision
from ..i18n import say
from ..refusals import SessionError
from ..store import SessionRow
from .board import Locks, States, game_of

HINTS_META = "hints"
"""Key in a session's ``meta``: the lobby's ``hints:`` setting (True/False; absent: :func:`hints_default`)."""
NEW_TABLE_META = "new_table"
"""Key in a lobby's ``meta``: True when nobody seated has finished the game before (:meth:`Hints.new_to`)."""
HINTED_META = "hinted"
"""Key in a session's ``meta``: the players who used a hint in this game (the game is then unrated)."""
TURNING_BUDGET_MS = 2000
"""CPU time the turning points of one game may take in a worker (ms); beyond, they are skipped."""


def hints_default(players: Sequence[str]) -> bool:
    """Whether hints are on when the lobby did not say: with fewer than two people seated (against AI seats, or
    alone)."""
    return sum(1 for p in players if not is_ai(p)) < 2


def hints_on(row: SessionRow) -> bool:
    """Whether ``row``'s game offers hints (its lobby's ``hints:``, else :func:`hints_default`)."""
    said = row.meta.get(HINTS_META)
    return bool(said) if isinstance(said, bool) else hints_default(row.players)


def hinted(row: SessionRow) -> list[str]:
    """The players who used a hint in ``row``'s game, in the order they first did."""
    return list(row.meta.get(HINTED_META) or [])


def hints_value(text: str | None) -> bool | None:
    """The lobby's ``hints:`` as typed (``on``/``off``, ``yes``/``no``, ``true``/``false``; None: not said).
    ``SessionError`` for anything else."""
    if text is None or not text.strip():
        return None
    word = text.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise SessionError(T("hints: is on or off, not {typed}.", typed=repr(text.strip()[:20])))


def advise_stored(game_id: str, state_json: str, decision_index: int, player: str, seed_text: str, budget_ms: int,
                  iterations: int | None) -> Advice:
    """The hint for pending decision ``decision_index`` of the stored state (:func:`games.hints.advise`), with
    the generator and budget an AI seat of ``player``'s place uses (:func:`bot.ai_seats.think`): a time budget of
    ``budget_ms`` (capped at ``games.ai.MAX_BUDGET_MS``) by ``time.perf_counter``, or ``iterations`` playouts.
    Runs in a worker (thread or process)."""
    game, state, decision = stored_decision(game_id, state_json, decision_index)
    return advise(game, state, decision, player, ai_rng(seed_text), seat_budget(budget_ms, iterations))


@dataclass
class HintAnswer:
    """A hint given: the ``advice``, the position it is for (``game``, ``state``, ``decision``), the session row
    after it and whether this hint made the game unrated (``first``: nobody had used one before)."""

    advice: Advice
    game: Any
    state: Any
    decision: Any
    row: SessionRow
    first: bool


class HintStore(Protocol):
    """What :class:`Hints` needs of the store (:class:`bot.store.Store` has it)."""

    async def live_session(self, channel_id: str) -> SessionRow | None: ...
    async def note_meta(self, session_id: int, expect_version: int, meta: dict) -> None: ...
    async def finished_any(self, guild_id: str | None, game_id: str, player_ids: Sequence[str]) -> bool: ...


class Hints:
    """The hint verbs (module doc) over the store, the channel ``locks``, the parsed ``states`` and the AI seats'
    settings ``ai`` (their executor, budget and iterations: a hint searches as a seat would)."""

    def __init__(self, store: HintStore, locks: Locks, states: States, ai: AiSettings) -> None:
        self._store = store
        self.lock = locks
        self.states = states
        self.ai = ai

    async def hint(self, channel_id: str, member: str) -> HintAnswer:
        """The strong AI's best options for ``member``'s open decision in ``channel_id`` (module doc). Refused
        (``SessionError``, nothing changed) with no game running, to a member not seated or whose decision is
        not open (a race is nobody's own decision), and in a game whose lobby set ``hints:off``; when the board
        moved on while the AI thought, nothing is noted and the member is asked to ask again."""
        async with self.lock(channel_id):
            row = await self._store.live_session(channel_id)
            if row is None or row.status != "active":
                raise SessionError(T("No game is running here: /hint helps with your decision in a running game."))
            if member not in row.players:
                raise SessionError(T("You are not playing in this game: a hint is only for a player's own "
                                     "decision."))
            if not hints_on(row):
                raise SessionError(T("Hints are off in this game: its lobby set hints:off (the default when two or "
                                     "more people play, so a rated game stays fair)."))
            game = game_of(row.game_id)
            state = self.states.state_of(row)
            pending = self.states.pending_of(row, state)
            index = next((i for i, d in enumerate(pending) if d.player == member and len(d.options) > 1), None)
            if index is None:
                if any(d.player == member for d in pending):
                    raise SessionError(T("Your decision has one option only: no hint needed."))
                raise SessionError(T("It is not your turn: a hint is only for the decision you have to make now."))
            version, state_json, decision = row.version, row.state, pending[index]
        ai = self.ai
        advice = await asyncio.get_running_loop().run_in_executor(
            ai.executor, advise_stored, row.game_id, state_json, index, member, f"{row.seed}:{version}:{member}",
            ai.budget_ms, ai.iterations)
        async with self.lock(channel_id):
            now = await self._store.live_session(channel_id)
            if now is None or now.id != row.id or now.version != version:
                raise SessionError(T("The board changed while the AI thought: ask for a hint again."))
            used = hinted(now)
            first = not used
            if member not in used:
                meta = {**now.meta, HINTED_META: [*used, member]}
                await self._store.note_meta(now.id, now.version, meta)
                now = now.model_copy(update={"meta": meta})
        return HintAnswer(advice, game, state, decision, now, first)

    async def new_to(self, guild_id: str | None, game_id: str, players: Sequence[str]) -> bool:
        """Whether nobody of ``players`` (people; AI seats never count) has finished a game of ``game_id`` in the
        server ``guild_id`` (kept in a lobby's ``meta[NEW_TABLE_META]`` for :func:`learn_line`)."""
        people = [p for p in players if not is_ai(p)]
        return bool(people) and not await self._store.finished_any(guild_id, game_id, people)


def hint_lines(answer: HintAnswer, name: Callable[[str], str] | dict[str, str] | None = None,
               lang: str | None = None) -> list[str]:
    """A hint as lines for its reader in ``lang``: the heading (the decision and what the numbers mean), one line
    per option ("1. **Stop: put 4 on shrine 8** — 61 % · 4 dolls onto shrine 8; going on busts 41 % of the
    time"), and when this hint made the game unrated, a line that says so."""
    state, game = answer.state, answer.game
    out = [say(T("💡 **Hint** — {prompt} ({measure}; the strong AI's choice first):",
                 prompt=answer.decision.prompt, measure=measure_text(state)), lang, name)]
    for i, h in enumerate(answer.advice.hints, 1):
        out.append(say(T("{i}. **{option}** — {share} · {reason}", i=i, option=h.label,
                         share=value_text(h, state, game), reason=h.reason), lang, name))
    if answer.first:
        out.append(say(T("-# A hint was used: this game is unrated now (the board and the result say so)."), lang))
    return out


def learn_line(row: SessionRow) -> Text | None:
    """The lobby card's first-contact line for a table new to its game ("New to Tatsumi? Learn it first (`/learn
    tatsumi`)."), or None."""
    if not row.meta.get(NEW_TABLE_META):
        return None
    lesson = "`/learn " + row.game_id + "`"  # the command a player types, as typed in every language
    return T("New to {game}? Learn it first ({command}).", game=games.get(row.game_id).title, command=lesson)


def hinted_line(row: SessionRow, name: Callable[[str], str] | dict[str, str] | None = None,
                lang: str | None = None) -> str | None:
    """The board's and the result's line for a game in which hints were used ("💡 Hints used by alice: this
    game is unrated."), or None."""
    used = hinted(row)
    if not used:
        return None
    who = Text.join(T(", "), [player_ref(p) for p in used])
    return say(N("💡 Hint used by {players}: this game is unrated.", "💡 Hints used by {players}: this game is unrated.",
                 n=len(used), players=who), lang, name)


def turning_job(game_id: str, players: Sequence[str], options: dict, seed: int, moves: Sequence[Any],
                budget_ms: int = TURNING_BUDGET_MS) -> list[TurningPoint] | None:
    """The turning points of a finished game (:func:`games.turning.turning_points`), its states rebuilt from the
    seed and move log (:func:`bot.results.replay_states`), within ``budget_ms`` of this worker's time (None:
    skipped). Runs in a worker process."""
    from ..results import replay_states

    start = time.perf_counter()
    budget = game_ai.Budget(deadline=start + budget_ms / 1000, clock=time.perf_counter)
    game = games.get(game_id)
    states = replay_states(game, players, options, seed, moves)
    if budget.spent(0):
        return None
    log = [Move(player=m.player, option=m.option, at_ms=m.at_ms) for m in moves]
    return turning_points(game, states, log, budget)


def turning_lines(points: list[TurningPoint] | None, name: Callable[[str], str] | dict[str, str] | None = None,
                  lang: str | None = None) -> list[str]:
    """The turning points as lines ("Turning points:", then one line each); one line when they were skipped
    (None); none when the game had none."""
    if points is None:
        return [say(T("-# Turning points skipped: the bot is busy right now."), lang)]
    if not points:
        return []
    return [say(T("**Turning points:**"), lang), *("-# " + say(p.text(), lang, name) for p in points)]


__all__ = ["HINTED_META", "HINTS_META", "HintAnswer", "HintStore", "Hints", "TURNING_BUDGET_MS", "advise_stored", "hint_lines",
           "hinted", "hinted_line", "hints_default", "learn_line", "NEW_TABLE_META", "hints_on", "hints_value", "turning_job", "turning_lines"]
