"""Why a Tatamokatsu option is good or bad, in the game's terms, for hints (:mod:`games.hints`): the roller's count
of the 1/10 dice by the sum it makes (TK-6: under 10 the roller loses a finger, 11-16 everyone salutes, over 17 the
roller picks a victim); a Tatamokatsu winner's or a victim's choice by the fingers it leaves (TK-4, TK-9)."""

from __future__ import annotations

from games.core import Decision, N, T, Text, player_ref
from games.tatamokatsu.data import ATTACK, RECOVER, VICTIM_PREFIX
from games.tatamokatsu.dice import offered_choices, sum_range
from games.tatamokatsu.state import TatamokatsuState


def explain(state: TatamokatsuState, decision: Decision, option: str) -> Text | None:
    """One short reason for ``option`` (module doc), or None where the rules say nothing more than its label."""
    if decision.kind == "fix":
        choice = next((c for c in offered_choices(state.dice) if c.option_id == option), None)
        if choice is None:
            return None
        total = choice.total
        return {"low": T("sum {total}, under 10: you lose a finger", total=total),
                "salute": T("sum {total}, 11-16: everyone must salute in time or lose a finger", total=total),
                "high": T("sum {total}, over 17: you choose who loses a finger", total=total)}.get(sum_range(total))
    if option.startswith(VICTIM_PREFIX):
        who = option[len(VICTIM_PREFIX):]
        if who in state.fingers:
            return N("{player} has {n} finger left: the fewer, the closer to losing",
                     "{player} has {n} fingers left: the fewer, the closer to losing", n=state.fingers[who],
                     player=player_ref(who))
    if option in (ATTACK, RECOVER) and decision.player is not None:
        rivals = [p for p in state.players if p != decision.player and state.fingers.get(p, 0) > 0]
        if option == ATTACK:
            return N("{n} rival loses a finger", "{n} rivals lose a finger each", n=len(rivals))
        return T("you have {mine} of 5 fingers", mine=state.fingers.get(decision.player, 0))
    return None
