"""A simple greedy Tatari player, one that beats the random player.

It values a stop by the dolls it sheds (TA-5, TA-6), pushes on while the total is under 7 or a stop would cost it
dolls, and gives away its doll to the player closest to winning (TA-7).

The strong level's knowledge is here too (:data:`KNOWLEDGE`): with two players it answers every select and continue-or-stop
exactly (:class:`TurnSolver`: expectimax over the dice left in the turn, valued at the turn's end by
:func:`end_value`, a chance of winning fitted on greedy games); the easy level's :func:`loses_at_once`.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from games.core import Decision
from games.search import Knowledge
from games.tatari.data import DICE, FACE_DOLLS, FACE_VALUE, FACES, STASH_CAP
from games.tatari.hints import explain, option_values
from games.tatari.state import TatariState


def stop_gain(state: TatariState, total: int, dolls: int) -> int:
    """Dolls leaving the current player's stash if they stopped at ``total`` with ``dolls`` (negative: taken)."""
    stash = state.stashes[state.current]
    if total >= 11:
        return min(dolls, stash)
    if total < 7:
        return -max(state.shrines.values())  # a bust, roughly
    held = state.shrines[str(total)]
    return min(dolls - held, stash) if held < dolls else dolls - held


def greedy_choice(state: TatariState, decision: Decision) -> str | None:
    if decision.kind == "select":
        best, best_score = None, float("-inf")
        for opt in decision.options:
            face = opt.id.split(":", 1)[1]
            n = state.rolled.count(face)
            total = state.total + FACE_VALUE[face] * n
            dolls = state.dolls + FACE_DOLLS[face] * n
            left = DICE - len(state.set_aside) - n
            if total >= 7:
                score = stop_gain(state, total, dolls) + 0.1 * left
            else:
                score = 0.5 * dolls - 0.4 * (7 - total) + 0.3 * left - 2
            if score > best_score:
                best, best_score = opt.id, score
        return best
    if decision.kind == "fate":
        gain = stop_gain(state, state.total, state.dolls)
        left = DICE - len(state.set_aside)
        return "stop" if gain > 0 or (gain == 0 and left <= 2) or left == 1 else "continue"
    if decision.kind == "give":
        return min(decision.options, key=lambda o: state.stashes[o.id.split(":", 1)[1]]).id
    return None


# -- AI seats: the strong search's knowledge and the easy level ---------------------------------------------


def evaluate(state: TatariState) -> dict[str, float]:
    """Heuristic score per player at the strong search's horizon: dolls gone from the stash (TA-10: the first
    to start a turn with none wins; the others rank by dolls left, fewer first)."""
    return {p: -float(state.stashes.get(p, 0)) for p in state.players}



def loses_at_once(state: TatariState, decision: Decision, option_id: str) -> bool:
    """For the easy level: setting aside a face after which the turn busts for certain (TA-3, TA-4): all six dice
    aside with a total under 7, or too few dice left to reach 7 even if each showed the highest number face not
    yet set aside."""
    if decision.kind != "select" or not option_id.startswith("set:"):
        return False
    face = option_id.split(":", 1)[1]
    n = state.rolled.count(face)
    total = state.total + FACE_VALUE[face] * n
    left = DICE - len(state.set_aside) - n
    if total >= 7:
        return False
    taken = set(state.set_aside) | {face}
    best = max((FACE_VALUE[f] for f in FACE_VALUE if f not in taken), default=0)
    return total + left * best < 7


# -- the strong level's exact turn (2 players): expectimax over the dice, fitted value at the turn's end ---------

END_WEIGHTS: dict[str, float] = {
    "bias": 0.007,
    "me_0": 2.751, "me_1": 0.826, "me_2": 0.446, "me_3": 0.146, "me_4": -0.052, "me_5": -0.234,
    "me_6": -0.436, "me_7": -0.644, "me_8": -0.785, "me_9": -0.937, "me_10": -1.074,
    "opp_1": -1.218, "opp_2": -0.800, "opp_3": -0.477, "opp_4": -0.224, "opp_5": -0.013,
    "opp_6": 0.186, "opp_7": 0.376, "opp_8": 0.572, "opp_9": 0.720, "opp_10": 0.884,
    "most": -0.015, "sum": 0.027,
}
"""Weights of :func:`end_features`: log-odds that the player who just ended a turn wins a 2-player game. A logistic
regression of the winner of 5,000 greedy-against-greedy games on the position at the start of each turn (about
100,000 positions; test log-loss 0.600 against 0.693 for a coin). ``opp_0`` is absent: that position is over (TA-10)."""


def end_features(stashes: dict[str, int], shrines: dict[str, int], mover: str, other: str) -> dict[str, float]:
    """Features of a 2-player position at the start of ``mover``'s turn, seen by ``other`` (who just ended theirs;
    TA-5..TA-10): ``me_<k>`` / ``opp_<k>`` one-hot stash sizes of ``other`` / ``mover`` (k = 0..10), ``most`` the
    fullest shrine (what a bust takes, TA-8), ``sum`` the dolls on shrines 7-10."""
    out = {f"me_{k}": 0.0 for k in range(11)} | {f"opp_{k}": 0.0 for k in range(11)}
    out[f"me_{min(10, stashes[other])}"] = 1.0
    out[f"opp_{min(10, stashes[mover])}"] = 1.0
    values = list(shrines.values())
    out["most"] = float(max(values))
    out["sum"] = float(sum(values))
    return out


def end_value(stashes: dict[str, int], shrines: dict[str, int], mover: str, other: str) -> float:
    """The chance (0..1) that ``other``, who just ended a turn, wins a 2-player game now passed to ``mover``: 0 if
    ``mover`` starts with an empty stash (TA-10), else ``sigmoid`` of :data:`END_WEIGHTS` over
    :func:`end_features`."""
    if stashes[mover] == 0:
        return 0.0
    f = end_features(stashes, shrines, mover, other)
    x = END_WEIGHTS.get("bias", 0.0) + sum(END_WEIGHTS.get(k, 0.0) * v for k, v in f.items())
    x = max(-30.0, min(30.0, x))
    return 1.0 / (1.0 + math.exp(-x))


@cache
def rolls(k: int) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """Every outcome of rolling ``k`` dice (TA-2: six equally likely faces), as (probability, how many dice show
    each face of :data:`FACES`, in that order); the probabilities sum to 1."""
    out = []
    for combo in combinations_with_replacement(range(len(FACES)), k):
        counts = [0] * len(FACES)
        for f in combo:
            counts[f] += 1
        ways = math.factorial(k)
        for c in counts:
            ways //= math.factorial(c)
        out.append((ways / len(FACES) ** k, tuple(counts)))
    return tuple(out)


class TurnSolver:
    """The exact value of the rest of a turn for its player in a 2-player game (TA-3..TA-9), by expectimax over
    every roll of the dice left: a roll's value is the best face to set aside; after it, all six aside ends the
    turn (a stop from 7, else a bust), from 7 the better of stopping and rolling on, under 7 rolling on. A finished
    turn is worth :func:`end_value` of the position it leaves (stop: TA-5/TA-6 and a set-aside 1's gift, TA-7; bust:
    the fullest shrine, TA-8; stashes capped at 10, TA-9). A turn is (faces set aside as a bit mask over
    :data:`FACES`, dice left, total, dolls)."""

    def __init__(self, state: TatariState) -> None:
        self.state = state
        self.me = state.current
        self.opp = next(p for p in state.in_play() if p != self.me)
        self._ends: dict[tuple[int, int, bool], float] = {}
        self._bust: float | None = None
        self._rolls: dict[tuple[int, int, int, int], float] = {}

    def _leaf(self, stashes: dict[str, int], shrines: dict[str, int]) -> float:
        return end_value(stashes, shrines, self.opp, self.me)

    def stop_value(self, total: int, dolls: int, one: bool) -> float:
        """The value of stopping at ``total`` (7 or more) with ``dolls`` counted, ``one``: a 1 is set aside."""
        key = (min(total, 11), dolls, one)
        found = self._ends.get(key)
        if found is not None:
            return found
        s = self.state
        stashes, shrines = dict(s.stashes), dict(s.shrines)
        me, opp = self.me, self.opp
        if total >= 11:
            stashes[me] -= min(dolls, stashes[me])
        else:
            held = shrines[str(total)]
            if held < dolls:
                moved = min(dolls - held, stashes[me])
                stashes[me] -= moved
                shrines[str(total)] += moved
            elif held > dolls:
                shrines[str(total)] = dolls
                stashes[me] = min(STASH_CAP, stashes[me] + held - dolls)
        if one and stashes[me] > 0:
            stashes[me] -= 1
            stashes[opp] = min(STASH_CAP, stashes[opp] + 1)
        value = self._ends[key] = self._leaf(stashes, shrines)
        return value

    def bust_value(self) -> float:
        """The value of a bust: the fullest shrine's dolls taken (which of tied ones does not change a stash)."""
        if self._bust is None:
            s = self.state
            stashes, shrines = dict(s.stashes), dict(s.shrines)
            key = max(shrines, key=lambda k: shrines[k])
            stashes[self.me] = min(STASH_CAP, stashes[self.me] + shrines[key])
            shrines[key] = 0
            self._bust = self._leaf(stashes, shrines)
        return self._bust

    def after(self, mask: int, left: int, total: int, dolls: int) -> float:
        """The value once a face is set aside (the fate step, TA-4)."""
        if left == 0:
            return self.stop_value(total, dolls, bool(mask & 1)) if total >= 7 else self.bust_value()
        if total >= 7:
            return max(self.stop_value(total, dolls, bool(mask & 1)), self.roll_value(mask, left, total, dolls))
        return self.roll_value(mask, left, total, dolls)

    def roll_value(self, mask: int, left: int, total: int, dolls: int) -> float:
        """The expected value of rolling the ``left`` dice and setting aside the best new face (TA-3)."""
        key = (mask, left, total, dolls)
        found = self._rolls.get(key)
        if found is not None:
            return found
        value = 0.0
        for p, counts in rolls(left):
            value += p * self.pick(mask, left, total, dolls, counts)[1]
        self._rolls[key] = value
        return value

    def pick(self, mask: int, left: int, total: int, dolls: int, counts: tuple[int, ...]) -> tuple[int, float]:
        """The best face (index into :data:`FACES`, -1 for a bust) for the dice ``counts`` just rolled, and its
        value."""
        best, best_value = -1, -1.0
        for f, c in enumerate(counts):
            if c and not mask >> f & 1:
                v = self.after(mask | 1 << f, left - c, total + _VALUES[f] * c, dolls + _DOLLS[f] * c)
                if v > best_value:
                    best, best_value = f, v
        return (best, best_value) if best >= 0 else (-1, self.bust_value())

    def now(self) -> tuple[int, int, int, int]:
        """The turn so far: (faces set aside as a bit mask over :data:`FACES`, dice left, total, dolls)."""
        s = self.state
        mask = 0
        for face in s.set_aside:
            mask |= 1 << FACES.index(face)
        return mask, DICE - len(s.set_aside), s.total, s.dolls

    def choose(self, decision: Decision) -> str | None:
        """The best option id of a ``select`` or ``fate`` decision of this turn, or None for another kind."""
        mask, left, total, dolls = self.now()
        if decision.kind == "select":
            counts = tuple(self.state.rolled.count(f) for f in FACES)
            f, _ = self.pick(mask, left, total, dolls, counts)
            return f"set:{FACES[f]}" if f >= 0 else None
        if decision.kind == "fate":
            stop = self.stop_value(total, dolls, bool(mask & 1))
            return "stop" if stop >= self.roll_value(mask, left, total, dolls) else "continue"
        return None


_VALUES = tuple(FACE_VALUE[f] for f in FACES)
_DOLLS = tuple(FACE_DOLLS[f] for f in FACES)


def candidates(state: TatariState, decision: Decision, rng: Any) -> list[str]:
    """The options the strong search weighs, best first. With two players in play, a ``select`` or ``fate``
    decision is answered exactly by :class:`TurnSolver` (one candidate: the search plays it without sampling);
    otherwise the greedy option, then the others in the decision's order."""
    ids = [o.id for o in decision.options]
    if len(state.in_play()) == 2 and decision.kind in ("select", "fate"):
        best = TurnSolver(state).choose(decision)
        if best in ids:
            return [best]
    first = greedy_choice(state, decision)
    return ([first] if first in ids else []) + [o for o in ids if o != first]


KNOWLEDGE: Knowledge[TatariState] = Knowledge(
    evaluate=evaluate, eval_scale=1.5, rollout_turns=2, rollout_decisions=30, candidates=candidates,
    loses_at_once=loses_at_once, explain=explain, option_values=option_values,
)
"""What the AI levels know of Tatari (``games.search.Knowledge``): dolls gone at a horizon of two turns, the exact
turn of :class:`TurnSolver` with two players, the easy level's :func:`loses_at_once`, the hints' reasons and exact
values (:mod:`games.tatari.hints`)."""
