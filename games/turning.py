"""The turning points of a finished game: the moves where a player's estimated chance of winning changed most.

Each position of the replayed game is valued by the strong AI's evaluation (:func:`games.search.shares`: the
game's heuristic ``evaluate`` squashed into each seat's share of the result, the result itself once the game is
over); a move's swing is the change of its player's share from the position before it to the one after it (dice
rolled and cards drawn by the move count with it). A player's move counts for its player when it was a choice
(a decision with one option is none; a race input is: pressing at all is the choice); the system's move (a
timeout closing a race or a turn) for the seat whose share it moved most. For each turning point the option the strong AI ranks first
there (its ``candidates`` hook, else the game's greedy player) is named when the player chose another.

Pure: the caller's budget (:class:`games.ai.Budget`, its clock passed in) bounds the work; a budget spent
before the end answers None (the caller says the turning points were skipped).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.core import BaseState, Game, Move, T, Text, player_ref
from games.hints import measure
from games.search import knowledge, shares

TOP = 3
"""How many turning points a game shows."""


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """One turning point: ``move`` its 1-based number in the action log, ``player`` whose share it moved (who made
    it, unless the system did), ``chosen`` the chosen option's label (None: the system's timeout), ``preferred`` the label of the option the strong AI ranks first there when the player
    chose another (else None), ``before`` / ``after`` the player's share of the result (0..1) around the move,
    ``measure`` what a share is (:func:`games.hints.measure`)."""

    move: int
    player: str
    chosen: str | None
    preferred: str | None
    before: float
    after: float
    measure: str

    @property
    def swing(self) -> float:
        return abs(self.after - self.before)

    def text(self) -> Text:
        """One line: ``"move 34 · {@alice} chose Stop: put 1 on shrine 8 instead of Continue (roll 3 dice): 61 %
        -> 38 %"`` (player references for the presenter to name)."""
        before, after = round(100 * self.before), round(100 * self.after)
        who = player_ref(self.player)
        if self.chosen is None:
            return T("move {n} · {player}, as the time ran out: {before} % -> {after} %", n=self.move, player=who,
                     before=before, after=after)
        if self.preferred is not None:
            return T("move {n} · {player} chose {chosen} instead of {preferred}: {before} % -> {after} %",
                     n=self.move, player=who, chosen=self.chosen, preferred=self.preferred, before=before,
                     after=after)
        return T("move {n} · {player} chose {chosen}: {before} % -> {after} %", n=self.move, player=who,
                 chosen=self.chosen, before=before, after=after)


def turning_points(game: Game, states: Sequence[BaseState], moves: Sequence[Move], budget: Any,
                   top: int = TOP) -> list[TurningPoint] | None:
    """The ``top`` moves of a replayed game whose player's share changed most, in move order (module doc).
    ``states[i]`` is the position before ``moves[i]`` and ``states[i + 1]`` the one after (as
    ``bot.results.replay_states`` rebuilds them; a log longer than its states is read as far as they go).
    ``budget.spent(positions valued)`` is asked after every position: None once it is spent. Positions of a
    game with one seat has none (a chance of winning means nothing alone)."""
    know = knowledge(game)
    if not states or len(states[0].players) < 2:
        return []
    values: list[list[float]] = []
    for i, s in enumerate(states):
        values.append(shares(game, s, know))
        if budget.spent(i + 1) and i + 1 < len(states):
            return None
    swings: list[tuple[float, int]] = []
    for i, move in enumerate(moves[:len(states) - 1]):
        seat = _seat(game, states[i], move, values[i], values[i + 1])
        if seat is not None and abs(values[i + 1][seat] - values[i][seat]) >= 0.005:
            swings.append((abs(values[i + 1][seat] - values[i][seat]), i))
    chosen = sorted(i for _, i in sorted(swings, key=lambda x: (-x[0], x[1]))[:max(0, top)])
    out = []
    for i in chosen:
        state, move = states[i], moves[i]
        seat = _seat(game, state, move, values[i], values[i + 1])
        chosen = preferred = None
        if move.player is not None:
            decision = _answered(game.pending(state), move)
            chosen = decision.option(move.option).label
            best = _preferred(game, state, decision, know)
            preferred = decision.option(best).label if best is not None and best != move.option else None
        out.append(TurningPoint(move=i + 1, player=state.players[seat], chosen=chosen, preferred=preferred,
                                before=values[i][seat], after=values[i + 1][seat], measure=measure(state)))
    return out


def _seat(game: Game, state: BaseState, move: Move, before: list[float], after: list[float]) -> int | None:
    """The seat whose share a move is a turning point for: a player's choice, its player's (a race input
    counts; a decision with one option does not); the system's move (a timeout), the seat whose share moved
    most; None for a move that is no choice."""
    if move.player is None:
        return max(range(len(before)), key=lambda k: abs(after[k] - before[k]))
    if move.player not in state.players:
        return None
    decision = _answered(game.pending(state), move)
    if decision is None or (decision.player is not None and len(decision.options) < 2):
        return None
    return list(state.players).index(move.player)


def _answered(pending, move: Move):
    """The pending decision ``move`` answers: its player's, or an open race (``player=None``) that lists its
    option; None when none does."""
    return next((d for d in pending if d.player in (move.player, None) and d.option(move.option) is not None), None)


def _preferred(game: Game, state: BaseState, decision, know) -> str | None:
    """The option the strong AI ranks first at ``decision`` (its ``candidates`` hook, else the greedy player's)."""
    rng = random.Random(0)
    if know.candidates is not None:
        ranked = know.candidates(state, decision, rng)
        if ranked and decision.option(ranked[0]) is not None:
            return ranked[0]
    choice = game.greedy(state, decision, rng)
    return choice if choice is not None and decision.option(choice) is not None else None


__all__ = ["TOP", "TurningPoint", "turning_points"]
