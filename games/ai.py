"""AI players over the contract: they only read ``Game.pending`` and answer with an option id.

Used by ``python -m bot demo``, the fuzz tests and the benchmarks. Pure: the caller owns the ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import TIMEOUT, BaseState, Decision, Game, Move

RACE_CLOSE_CHANCE = 0.3
"""Chance that :func:`next_move` lets an open race (``player=None`` with a deadline) close instead of adding an
input, so AI games with real-time races end."""

Strategy = Callable[[Game, BaseState, Decision, random.Random], str]


def random_legal(game: Game, state: BaseState, decision: Decision, rng: random.Random) -> str:
    """A uniformly random listed option of ``decision``."""
    return rng.choice(decision.options).id


def greedy(game: Game, state: BaseState, decision: Decision, rng: random.Random) -> str:
    """The game's own greedy choice (``Game.greedy``), else a random legal option."""
    choice = game.greedy(state, decision, rng)
    return choice if choice is not None else random_legal(game, state, decision, rng)


STRATEGIES: dict[str, Strategy] = {"random": random_legal, "greedy": greedy}


def next_move(
    game: Game,
    state: BaseState,
    strategies: dict[str, Strategy],
    rng: random.Random,
    now_ms: int | None = None,
) -> Move | None:
    """The next move of a game played by AI: the first pending decision that names a player (or, for a race, a
    random seated player) is answered with that player's strategy. A decision with no options but a deadline, and
    an open race with chance ``RACE_CLOSE_CHANCE``, is answered with the system timeout at its deadline. None when
    the game is over."""
    decisions = game.pending(state)
    if not decisions:
        return None
    decision = decisions[0]
    race = decision.player is None and decision.deadline_ms is not None
    if not decision.options or (race and rng.random() < RACE_CLOSE_CHANCE):
        # a race only ends at its deadline: AI inputs alone would never close it
        if decision.deadline_ms is None:
            raise RuntimeError(f"decision {decision.kind!r} has no options and no deadline")
        return Move(player=None, option=TIMEOUT, at_ms=decision.deadline_ms)
    player = decision.player if decision.player is not None else rng.choice(state.players)
    strategy = strategies.get(player, random_legal)
    at = now_ms if now_ms is not None else decision.deadline_ms
    return Move(player=player, option=strategy(game, state, decision, rng), at_ms=at)


def play(
    game: Game,
    state: BaseState,
    strategies: dict[str, Strategy],
    rng: random.Random,
    max_moves: int = 100_000,
    on_step: Callable[[BaseState, Move, BaseState, list], None] | None = None,
) -> BaseState:
    """Play ``state`` to the end with AI players; ``on_step(before, move, after, events)`` sees every step.
    ``RuntimeError`` if the game has not ended after ``max_moves``."""
    for _ in range(max_moves):
        move = next_move(game, state, strategies, rng)
        if move is None:
            return state
        outcome = game.apply(state, move)
        if on_step is not None:
            on_step(state, move, outcome.state, outcome.events)
        state = outcome.state
    raise RuntimeError(f"{game.id}: no end after {max_moves} moves")
