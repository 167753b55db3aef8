"""A simple greedy Tatari player (issue: "a simple greedy Tatari player that beats the random one").

It values a stop by the dolls it sheds (TA-5, TA-6), pushes on while the total is under 7 or a stop would cost it
dolls, and gives away its doll to the player closest to winning (TA-7).
"""

from __future__ import annotations

from games.core import Decision
from games.tatari.data import DICE, FACE_DOLLS, FACE_VALUE
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


# -- AI seats (issue 14): the strong search's knowledge and the easy level --------------------------------------


def evaluate(state: TatariState) -> dict[str, float]:
    """Heuristic score per player at the strong search's horizon: dolls gone from the stash (TA-10: the first
    to start a turn with none wins; the others rank by dolls left, fewer first)."""
    return {p: -float(state.stashes.get(p, 0)) for p in state.players}


EVAL_SCALE = 1.5
ROLLOUT_TURNS = 2
ROLLOUT_DECISIONS = 30


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
