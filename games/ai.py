"""AI players over the contract: they only read ``Game.pending`` and answer with an option id.

Used by ``python -m bot demo``, the fuzz tests and the benchmarks. Pure: the caller owns the ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.core import TIMEOUT, BaseState, Decision, Game, IllegalMove, Move
from games.search import knowledge, search

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


# -- AI seats: levels, budgets and race answers ------------------------------------------------------------------

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
"""AI levels, weakest first: easy = random-legal avoiding moves that lose at once, normal = the game's
greedy player, strong = a search player over the contract."""

DEFAULT_BUDGET_MS = 300
"""The strong level's default thinking budget per move (ms, one core); never more than ``MAX_BUDGET_MS``."""

MAX_BUDGET_MS = 1000
"""The most a strong move may think (ms); :meth:`Budget.from_ms` clamps to it."""

MIN_REACTION_MS = 250
"""No AI race input is ever timed sooner than this after its window opened (ms)."""


DEFAULT_ITERATIONS = 48
"""The strong level's search iterations when :func:`choose` gets no budget (deterministic for a given rng)."""


class Budget:
    """How long a search may think: at most ``iterations`` playouts, and/or until ``clock()`` reaches
    ``deadline`` (both in the caller's units, e.g. ``time.perf_counter`` seconds). Pure: ``games/`` never reads a
    clock itself; the caller passes one in. ``Budget(iterations=n)`` alone is deterministic for a given rng.
    ``ValueError`` without iterations and deadline, or with a deadline but no clock."""

    def __init__(self, iterations: int | None = None, deadline: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        if iterations is None and deadline is None:
            raise ValueError("a Budget needs iterations or a deadline")
        if deadline is not None and clock is None:
            raise ValueError("a deadline needs a clock")
        self.iterations = iterations
        self.deadline = deadline
        self.clock = clock
        self._first: float | None = None

    @classmethod
    def from_ms(cls, ms: int, clock: Callable[[], float], iterations: int | None = None) -> Budget:
        """A budget of ``ms`` milliseconds from now (clamped to 1..:data:`MAX_BUDGET_MS`) by ``clock``, which
        counts seconds (``time.perf_counter``, ``time.monotonic``); ``iterations`` caps it further."""
        ms = max(1, min(int(ms), MAX_BUDGET_MS))
        return cls(iterations=iterations, deadline=clock() + ms / 1000, clock=clock)

    def spent(self, done: int) -> bool:
        """True when ``done`` iterations use the budget up, or the deadline has passed, or one more iteration (at
        the mean pace of those ``done`` since the first call) would end past it: a search stops before its
        deadline rather than one iteration after it."""
        if self.iterations is not None and done >= self.iterations:
            return True
        if self.deadline is None:
            return False
        now = self.clock()
        if self._first is None:
            self._first = now
        pace = (now - self._first) / done if done > 0 else 0.0
        return now + pace >= self.deadline


def easy(game: Game, state: BaseState, decision: Decision, rng: random.Random) -> str:
    """The easy level: a random listed option, leaving out those that lose at once when another is left.
    "Lose at once" is the game's own ``KNOWLEDGE.loses_at_once(state, decision, option_id)`` (``games/<id>/ai.py``; e.g.
    a Tatari pick that busts for certain, TA-3/TA-4); a game without one plays random-legal."""
    loses = knowledge(game).loses_at_once
    options = decision.options
    if loses is not None and len(options) > 1:
        safe = [o for o in options if not loses(state, decision, o.id)]
        if safe:
            options = safe
    return rng.choice(options).id


def choose(game: Game, state: BaseState, decision: Decision, player: str, level: str, rng: random.Random,
           budget: Budget | None = None) -> str:
    """The option id an AI seat of ``level`` (one of :data:`LEVELS`) answers ``decision`` with, as ``player``:
    easy :func:`easy`, normal :func:`greedy`, strong the search of :mod:`games.search` within ``budget``
    (default: :data:`DEFAULT_ITERATIONS` iterations). A decision with one option is answered at once. A race
    (``player=None``) is answered with the option of :func:`race_answer` (greedy if the seat would let it pass).
    ``ValueError`` for an unknown level. Pure and deterministic for a given ``rng`` and an iteration budget."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    if not decision.options:
        raise ValueError(f"decision {decision.kind!r} lists no options to choose from")
    if len(decision.options) == 1:
        return decision.options[0].id
    if decision.player is None and decision.deadline_ms is not None:
        answer = race_answer(game, state, decision, player, level, rng)
        if answer is not None:
            return answer[0]
        return greedy(game, state, decision, rng)
    if level == "easy":
        return easy(game, state, decision, rng)
    if level == "normal":
        return greedy(game, state, decision, rng)
    return search(game, state, decision, player, rng, budget or Budget(iterations=DEFAULT_ITERATIONS))


def race_answer(game: Game, state: BaseState, decision: Decision, player: str, level: str,
                rng: random.Random) -> tuple[str, int] | None:
    """An AI seat's next input to an open race (``decision.player is None`` with a deadline, e.g. Tatamokatsu's
    shout, grab, Katana or salute): ``(option id, reaction ms after the window opened)``, or None: the seat lets
    this race pass (nothing right to send, a missed input, or all its inputs already in). Call again after the
    input is applied for the seat's next input of the same window (a triple that is also a Tatamokatsu wants a
    shout and a Katana). The reaction is drawn from ``rng`` by the game's per-level model (``KNOWLEDGE.race_answer``
    in ``games/<id>/ai.py``; Tatamokatsu: :func:`games.tatamokatsu.ai.race_answer`, RULINGS TK-3..TK-8) and is never
    below :data:`MIN_REACTION_MS`. A game without a race model answers its greedy option at a normal human pace.
    ``ValueError`` for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    model = knowledge(game).race_answer
    if model is not None:
        return model(state, decision, player, level, rng)
    if not decision.options:
        return None
    option = greedy(game, state, decision, rng)
    return option, max(MIN_REACTION_MS, int(rng.lognormvariate(math.log(700), 0.25)))


def play_race(game: Game, state: BaseState, decision: Decision, levels: dict[str, str],
              rng: random.Random) -> BaseState:
    """Play an open race out as a table of AI seats would: every seat in ``levels`` (player ->
    level) sends the inputs :func:`race_answer` draws for it, at ``window open + reaction`` ms, applied in time
    order (ties by seat order); then the session's timeout closes the window, unless the inputs closed it already
    (Tatamokatsu's salute window closes once everyone has saluted). Inputs the rules refuse, and inputs later than
    the deadline, are dropped. The window opens at the game's ``KNOWLEDGE.window_opened(state)`` (ms, ``games/<id>/ai.py``);
    a game without it has its races closed by the timeout alone. Returns the new state."""
    opened = knowledge(game).window_opened
    start = opened(state) if opened is not None else None
    timed: list[tuple[int, int, str, str]] = []
    for seat, player in enumerate(state.players):
        level = levels.get(player)
        if level is None:
            continue
        s = state
        for _ in range(len(decision.options) or 1):
            answer = race_answer(game, s, decision, player, level, rng)
            if answer is None:
                break
            option, ms = answer
            timed.append((ms, seat, player, option))
            s = _with_input(game, s, player, option, ms, start, decision)
            if s is None:
                break
    timed.sort()
    key = game.race_key(state, decision)
    for ms, _seat, player, option in timed if start is not None else []:
        at = start + ms
        if decision.deadline_ms is not None and at > decision.deadline_ms:
            continue  # too slow for this window
        try:
            state = game.apply(state, Move(player=player, option=option, at_ms=at)).state
        except IllegalMove:
            continue
        now = game.pending(state)
        if not now or game.race_key(state, now[0]) != key:
            return state  # the inputs closed the window
    return game.apply(state, Move(player=None, option=TIMEOUT, at_ms=decision.deadline_ms)).state


def _with_input(game: Game, state: BaseState, player: str, option: str, ms: int, start: int | None,
                decision: Decision) -> BaseState | None:
    """``state`` with ``player``'s input recorded (so :func:`race_answer` offers the next one), or None."""
    if start is None or decision.deadline_ms is None or start + ms > decision.deadline_ms:
        return None
    try:
        after = game.apply(state, Move(player=player, option=option, at_ms=start + ms)).state
    except IllegalMove:
        return None
    now = game.pending(after)
    if not now or game.race_key(after, now[0]) != game.race_key(state, decision):
        return None
    return after


def level_strategy(level: str, budget: Callable[[], Budget] | None = None) -> Strategy:
    """A :data:`Strategy` (for :func:`play`, :func:`next_move`, the demo) that answers as an AI seat of ``level``
    through :func:`choose`, as the decision's player; ``budget()`` makes a fresh budget per move (e.g.
    ``lambda: Budget.from_ms(300, time.perf_counter)``; default :data:`DEFAULT_ITERATIONS` iterations).
    ``ValueError`` for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")

    def strategy(game: Game, state: BaseState, decision: Decision, rng: random.Random) -> str:
        player = decision.player if decision.player is not None else state.players[0]
        return choose(game, state, decision, player, level, rng, budget() if budget is not None else None)

    return strategy
