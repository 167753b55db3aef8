"""AI for Tatamokatsu: the greedy choice, a race-aware driver, and what the AI levels know (:data:`KNOWLEDGE`).

``games.ai.play`` answers a race with one random input or closes it at its deadline. :class:`TableDriver` and
:func:`play` here drive whole games the way a table would: on a race, each player sends the inputs their strategy
picks, timed at random inside the window and delivered in random order, then the session's timeout closes it.
Pure: the caller owns the ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.core import TIMEOUT, Decision, Game, Move
from games.search import Knowledge
from games.tatamokatsu.data import (
    ATTACK,
    GRAB,
    KATANA,
    RACE_INPUTS,
    RECOVER,
    ROLL,
    SALUTE,
    SHOUT,
    VICTIM_PREFIX,
)
from games.tatamokatsu.dice import is_tatamokatsu, is_triple, offered_choices, shows_t, sum_range
from games.tatamokatsu.hints import explain
from games.tatamokatsu.state import TatamokatsuState

RANGE_RANK = {"high": 0, "salute": 1, "tatamokatsu": 2, "low": 3}


def right_inputs(dice: list[str], has_fingers: bool = True) -> list[str]:
    """The race inputs that are right for ``dice`` (no mistake, TK-8): grab on T; shout on a Tatamokatsu; Katana
    on triples; salute always (it costs nothing and covers an 11-16 sum). A player without fingers only grabs."""
    if shows_t(dice):
        return [GRAB]
    if not has_fingers:
        return []
    out = []
    if is_tatamokatsu(dice):
        out.append(SHOUT)
    if is_triple(dice):
        out.append(KATANA)
    out.append(SALUTE)
    return out


def greedy_choice(state: TatamokatsuState, decision: Decision, rng: random.Random) -> str | None:
    """:meth:`Game.greedy` for Tatamokatsu: an option id of ``decision`` (None never happens for its kinds)."""
    kind = decision.kind
    if kind == "roll":
        return ROLL
    if kind == "race":
        return right_inputs(state.dice)[0]
    if kind == "salute":
        return SALUTE
    if kind == "fix":
        listed = {o.id for o in decision.options}
        best = min(
            (c for c in offered_choices(state.dice) if c.option_id in listed),
            key=lambda c: (RANGE_RANK[sum_range(c.total)], -c.total),
        )
        return best.option_id
    if kind == "tatamokatsu":
        me = decision.player or ""
        others = [p for p in state.alive() if p != me]
        if state.fingers[me] == 0 or not others:
            return RECOVER  # back in the game (or the sole Samurai) rather than a shared fall
        if state.fingers[me] >= 5 or any(state.fingers[p] == 1 for p in others) or len(others) >= 2:
            return ATTACK
        return RECOVER if state.fingers[me] <= state.fingers[others[0]] else ATTACK
    if kind == "victim":
        ids = [o.id.removeprefix(VICTIM_PREFIX) for o in decision.options]
        return VICTIM_PREFIX + min(ids, key=lambda p: (state.fingers[p], ids.index(p)))
    return None


def random_inputs(state: TatamokatsuState, player: str, rng: random.Random) -> list[str]:
    """A careless player: each race input with probability 0.3 (mistakes included; a player without fingers
    sends them too, and the engine ignores all but the grab)."""
    return [i for i in RACE_INPUTS if rng.random() < 0.3]


def greedy_inputs(state: TatamokatsuState, player: str, rng: random.Random) -> list[str]:
    """A careful player: exactly the right inputs (:func:`right_inputs`)."""
    return right_inputs(state.dice, state.fingers[player] > 0)


InputStrategy = Callable[[TatamokatsuState, str, random.Random], list[str]]
INPUT_STRATEGIES: dict[str, InputStrategy] = {"random": random_inputs, "greedy": greedy_inputs}


def race_moves(
    state: TatamokatsuState, decision: Decision, kinds: dict[str, str], rng: random.Random
) -> list[Move]:
    """The inputs of one open window (race or salute) for every seated player, timed uniformly inside
    ``[window_open_ms, deadline_ms]`` (a few exactly equal, to exercise ties), shuffled into arrival order,
    followed by the timeout. ``kinds``: player -> "random" or "greedy" (default random)."""
    lo, hi = state.window_open_ms, decision.deadline_ms or state.window_open_ms
    listed = {o.id for o in decision.options}
    moves: list[Move] = []
    shared = rng.randint(lo, hi)
    for p in state.players:
        if p in state.left:
            continue
        strategy = INPUT_STRATEGIES[kinds.get(p, "random")]
        for inp in strategy(state, p, rng):
            if inp not in listed:
                continue
            at = shared if rng.random() < 0.1 else rng.randint(lo, hi)
            moves.append(Move(player=p, option=inp, at_ms=at))
    rng.shuffle(moves)
    moves.append(Move(player=None, option=TIMEOUT, at_ms=hi))
    return moves


def decision_move(
    game: Game, state: TatamokatsuState, decision: Decision, kinds: dict[str, str], rng: random.Random
) -> Move:
    """The answer to a decision that names a player (greedy or random by ``kinds``); a late fix sometimes times
    out (the session's timeout), to exercise TK-6's default."""
    p = decision.player or ""
    if decision.kind == "fix" and decision.deadline_ms is not None and rng.random() < 0.2:
        return Move(player=None, option=TIMEOUT, at_ms=decision.deadline_ms)
    if kinds.get(p, "random") == "greedy":
        choice = greedy_choice(state, decision, rng) or rng.choice(decision.options).id
    else:
        choice = rng.choice(decision.options).id
    at = decision.deadline_ms if decision.deadline_ms is not None else state.now_ms + rng.randint(0, 3000)
    return Move(player=p, option=choice, at_ms=at)


class TableDriver:
    """The moves of a table of careless and careful players (``kinds``: player -> "random" or "greedy"), one at a
    time: ``driver(state, decisions) -> Move`` for the first pending decision. A decision that names a player is
    answered by :func:`decision_move`; an open window by the inputs :func:`race_moves` drew when it opened, in
    arrival order (those of players who have left skipped), then its timeout; a window that closed early drops
    the inputs still queued. :meth:`reset` drops them too (after a resignation). Pure: the caller owns the rng."""

    def __init__(self, game: Game, kinds: dict[str, str], rng: random.Random) -> None:
        self.game = game
        self.kinds = kinds
        self.rng = rng
        self._queue: list[Move] = []
        self._window: tuple | None = None

    def reset(self) -> None:
        """Forget the open window's queued inputs: the next call draws the window's inputs afresh."""
        self._queue = []
        self._window = None

    def __call__(self, state: TatamokatsuState, decisions: list[Decision]) -> Move:
        d = decisions[0]
        if d.player is not None:
            self.reset()
            return decision_move(self.game, state, d, self.kinds, self.rng)
        window = (state.phase, state.deadline_ms)
        if window != self._window or not self._queue:
            self._window = window
            self._queue = race_moves(state, d, self.kinds, self.rng)
            self._queue.reverse()
        while True:
            move = self._queue.pop()
            if move.player not in state.left:
                return move


def play(
    game: Game,
    state: TatamokatsuState,
    kinds: dict[str, str],
    rng: random.Random,
    max_moves: int = 200_000,
    on_step: Callable[[TatamokatsuState, Move, TatamokatsuState, list], None] | None = None,
    resign_rate: float = 0.0,
) -> TatamokatsuState:
    """Play ``state`` to the end (see the module doc) with a :class:`TableDriver`. ``on_step(before, move, after,
    events)`` sees every move (a resignation shows as ``Move(player, "resign")``). The roller counts the 1/10
    dice after the race's close (TK-11), sometimes too late (the timeout); before each move a random player
    resigns with probability ``resign_rate``.
    ``RuntimeError`` past ``max_moves``."""
    driver = TableDriver(game, kinds, rng)
    count = 0
    while count < max_moves:
        decisions = game.pending(state)
        if not decisions:
            return state
        move = driver(state, decisions)
        if resign_rate and rng.random() < resign_rate:
            quitter = rng.choice([p for p in state.players if p not in state.left])
            res = game.resign(state, quitter)
            if res is not None:
                if on_step is not None:
                    on_step(state, Move(player=quitter, option="resign"), res.state, res.events)
                state = res.state
                driver.reset()
                continue
        out = game.apply(state, move)
        if on_step is not None:
            on_step(state, move, out.state, out.events)
        state = out.state
        count += 1
    raise RuntimeError(f"tatamokatsu: no end after {max_moves} moves")


# -- AI seats: the race model, the strong search's knowledge, the easy level ---------------------------------

REACTION_MODEL: dict[str, tuple[float, float, float, float]] = {
    "strong": (600.0, 0.22, 0.01, 0.01),
    "normal": (900.0, 0.28, 0.04, 0.04),
    "easy": (1400.0, 0.35, 0.10, 0.12),
}
"""Per AI level: (median first reaction ms, log-normal sigma, chance of a wrong input, chance of missing the window).
Designed figures: adding three dice and reacting takes people most of a second (fast players
~0.6 s, slow ones ~1.4 s, the spread of choice reaction times is log-normal); no input is ever sooner than
``games.ai.MIN_REACTION_MS``. A wrong input is a mistake of TK-8 (a shout without a Tatamokatsu, a grab without T, a
Katana without triples), which costs a finger; a missed window sends nothing."""

NEXT_INPUT_MS = 250.0
"""Median extra time (ms, log-normal, sigma 0.3) between one seat's inputs in the same window (a shout, then a
Katana, then a salute: TK-3, TK-7)."""


def window_opened(state: TatamokatsuState) -> int:
    """When the open window (race or salute) opened (ms, TK-3, TK-10): what AI reaction times count from."""
    return state.window_open_ms


def wanted_inputs(state: TatamokatsuState, decision: Decision, player: str) -> list[str]:
    """The inputs ``player`` should still send in the open window, most urgent first: in the race
    :func:`right_inputs` (shout, Katana, salute, or the grab; TK-3..TK-7), in the salute window the salute
    (TK-6); less those already in (``state.inputs``)."""
    fingers = state.fingers.get(player, 0)
    if player in state.left:
        return []
    if decision.kind == "salute":
        wanted = [SALUTE] if fingers > 0 else []
    else:
        wanted = right_inputs(state.dice, fingers > 0)
    sent = state.inputs.get(player, {})
    return [i for i in wanted if i not in sent]


def wrong_inputs(state: TatamokatsuState, decision: Decision) -> list[str]:
    """The race inputs that are mistakes now (TK-8): a shout without a Tatamokatsu, a grab without T, a Katana
    without triples. None in the salute window (a wrong salute costs nothing)."""
    if decision.kind != "race":
        return []
    out = []
    if shows_t(state.dice) or not is_tatamokatsu(state.dice):
        out.append(SHOUT)
    if not shows_t(state.dice):
        out.append(GRAB)
    if not is_triple(state.dice):
        out.append(KATANA)
    return out


def race_answer(state: TatamokatsuState, decision: Decision, player: str, level: str,
                rng: random.Random) -> tuple[str, int] | None:
    """``games.ai.race_answer`` for Tatamokatsu: the seat's next input and its reaction ms after the window opened
    (:data:`REACTION_MODEL`; never below ``games.ai.MIN_REACTION_MS``, never past the window), or None.

    First input of a window: with the level's miss chance nothing; with its mistake chance a wrong input
    (:func:`wrong_inputs`, TK-8) instead of the right one; else the most urgent of :func:`wanted_inputs` after a
    log-normal reaction. Later inputs (the seat's inputs already in ``state.inputs``) follow the seat's latest
    input by a log-normal :data:`NEXT_INPUT_MS`; a seat that sent a wrong input sends nothing more."""
    from games.ai import MIN_REACTION_MS

    median, sigma, wrong, miss = REACTION_MODEL[level]
    opened = state.window_open_ms
    window = (decision.deadline_ms or opened + state.window_ms) - opened
    sent = {i: t for i, t in state.inputs.get(player, {}).items() if t >= opened}
    wanted = wanted_inputs(state, decision, player)
    if sent:
        if not wanted or any(i in wrong_inputs(state, decision) for i in sent):
            return None
        ms = max(sent.values()) - opened + int(rng.lognormvariate(math.log(NEXT_INPUT_MS), 0.3))
        option = wanted[0]
    else:
        if player in state.left or rng.random() < miss:
            return None
        mistakes = wrong_inputs(state, decision) if state.fingers.get(player, 0) > 0 else []
        if mistakes and rng.random() < wrong:
            option = rng.choice(mistakes)
        elif wanted:
            option = wanted[0]
        else:
            return None
        ms = int(rng.lognormvariate(math.log(median), sigma))
    ms = max(MIN_REACTION_MS, ms)
    return (option, ms) if ms <= window else None


def resolve_race(game: Game, state: TatamokatsuState, decision: Decision, me: str,
                 rng: random.Random) -> TatamokatsuState:
    """Inside the strong search: the race played out with the strong model for ``me`` and the normal one for
    every other seat (``games.ai.play_race``)."""
    from games.ai import play_race

    levels = {p: ("strong" if p == me else "normal") for p in state.players}
    return play_race(game, state, decision, levels, rng)


def evaluate(state: TatamokatsuState) -> dict[str, float]:
    """Heuristic score per player for the strong search's horizon: fingers left (TK-1, TK-9)."""
    return {p: float(state.fingers[p]) for p in state.players}



def loses_at_once(state: TatamokatsuState, decision: Decision, option_id: str) -> bool:
    """For the easy level: a count of the 1/10 dice to a sum under 10 that costs the roller their last finger
    (TK-6) when another count is offered. Nothing else in Tatamokatsu loses at once by a listed choice."""
    if decision.kind != "fix" or state.fingers.get(state.roller, 0) != 1:
        return False
    choice = next((c for c in offered_choices(state.dice) if c.option_id == option_id), None)
    return choice is not None and choice.total < 10


KNOWLEDGE: Knowledge[TatamokatsuState] = Knowledge(
    evaluate=evaluate, eval_scale=1.5, rollout_turns=3, rollout_decisions=40, resolve_race=resolve_race,
    loses_at_once=loses_at_once, race_answer=race_answer, window_opened=window_opened, explain=explain,
)
"""What the AI levels know of Tatamokatsu (``games.search.Knowledge``): fingers at a horizon of three turns, races
played by :data:`REACTION_MODEL`, the easy level's :func:`loses_at_once`."""
