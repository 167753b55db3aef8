"""Why a Tsukimi option is good, in the game's terms, for hints (:mod:`games.hints`): the change it makes to your
lead in mochi points as the strong AI counts it (:func:`games.tsukimi.ai.evaluate`: who leads around each space,
"End of the Game", TS-8) and to your rabbits (spent from the reserve, recruited, a rival's discarded; TS-6, TS-9)."""

from __future__ import annotations

from games.core import Decision, Move, N, T, Text
from games.tsukimi.state import TsukimiState


def explain(state: TsukimiState, decision: Decision, option: str) -> Text | None:
    """One short reason for ``option`` (module doc), from the position after it (Tsukimi hides nothing and draws
    nothing by chance)."""
    from games.tsukimi.ai import evaluate
    from games.tsukimi.game import Tsukimi

    me = decision.player or state.players[state.turn]
    seat = list(state.players).index(me)
    try:
        after = Tsukimi().apply(state, Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state
    except ValueError:
        return None
    lead0, lead1 = 2 * evaluate(state)[me], 2 * evaluate(after)[me]
    parts: list[Text] = [T("your mochi lead by the AI's count: {before} -> {after}", before=format(lead0, "+.1f"),
                           after=format(lead1, "+.1f"))]
    spent = state.reserve[seat] - after.reserve[seat]
    if spent > 0:
        parts.append(N("{n} rabbit from your reserve", "{n} rabbits from your reserve", n=spent))
    elif spent < 0:
        parts.append(N("{n} rabbit recruited", "{n} rabbits recruited", n=-spent))
    rival = sum(1 for s in state.rabbits.values() if s != seat) - sum(1 for s in after.rabbits.values() if s != seat)
    if rival > 0:
        parts.append(N("{n} rival rabbit gone", "{n} rival rabbits gone", n=rival))
    return Text.join(T(", "), parts)
