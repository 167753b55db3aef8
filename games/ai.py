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


# -- AI seats (issue 14): levels, budgets and race answers ---------------------------------------------------------

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
"""AI levels, weakest first (issue 14): easy = random-legal avoiding moves that lose at once, normal = the game's
greedy player, strong = a search player over the contract."""

DEFAULT_BUDGET_MS = 300
"""The strong level's default thinking budget per move (ms, one core); never more than ``MAX_BUDGET_MS``."""

MAX_BUDGET_MS = 1000

MIN_REACTION_MS = 250
"""No AI race input is ever timed sooner than this after its window opened (ms, issue 14 item 3)."""


class Budget:
    """How long a search may think: at most ``iterations`` playouts, and/or until ``clock()`` reaches
    ``deadline`` (both in the caller's units, e.g. ``time.perf_counter`` seconds). Pure: ``games/`` never reads a
    clock itself; the caller passes one in. ``Budget(iterations=n)`` alone is deterministic for a given rng."""

    def __init__(self, iterations: int | None = None, deadline: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        if iterations is None and deadline is None:
            raise ValueError("a Budget needs iterations or a deadline")
        if deadline is not None and clock is None:
            raise ValueError("a deadline needs a clock")
        self.iterations = iterations
        self.deadline = deadline
        self.clock = clock

    def spent(self, done: int) -> bool:
        """True when ``done`` iterations use the budget up (or the deadline has passed)."""
        if self.iterations is not None and done >= self.iterations:
            return True
        return self.deadline is not None and self.clock() >= self.deadline


def choose(game: Game, state: BaseState, decision: Decision, player: str, level: str, rng: random.Random,
           budget: Budget | None = None) -> str:
    """The option id an AI seat of ``level`` (one of :data:`LEVELS`) answers ``decision`` with, as ``player``.
    ``budget`` bounds the strong level's search (default: 200 iterations). ``ValueError`` for an unknown level.
    Pure and deterministic for a given ``rng`` and an iteration budget."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    if level == "easy":
        return random_legal(game, state, decision, rng)
    return greedy(game, state, decision, rng)


def race_answer(game: Game, state: BaseState, decision: Decision, player: str, level: str,
                rng: random.Random) -> tuple[str, int] | None:
    """An AI seat's input to an open race (``decision.player is None`` with a deadline, e.g. Tatamokatsu's shout,
    grab, Katana or salute): ``(option id, reaction ms after the window opened)``, the reaction drawn from ``rng``
    by a per-level distribution and never below :data:`MIN_REACTION_MS`; None: the seat lets this race pass."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    option = greedy(game, state, decision, rng)
    return option, max(MIN_REACTION_MS, int(rng.gauss(700, 150)))
