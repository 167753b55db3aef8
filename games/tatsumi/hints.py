"""Why a Tatsumi option is good, in the game's terms, for hints (:mod:`games.hints`): what the option changes for
its player, read off the position before and after it — fortune now (rifts healed, offerings, TM-6, TM-9),
Elemental Mastery by element (counted at the end, TM-12, what :func:`games.tatsumi.ai.evaluate` adds), blessings
unlocked (TM-9) and rings in hand (what shrines ask for, TM-6)."""

from __future__ import annotations

import random

from games.core import Decision, Move, N, T, Text
from games.tatsumi import data as D
from games.tatsumi.island import blessing_met, layout, mastery
from games.tatsumi.state import Seat, TatsumiState


def _seat(state: TatsumiState, player: str) -> Seat:
    return next(p for p in state.seats if p.id == player)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def explain(state: TatsumiState, decision: Decision, option: str) -> Text | None:
    """One short reason for ``option``: ``"heals your water rift: +3 fortune now, water mastery +2"``; what it
    changes for the decision's player (module doc), or what the island gains from a flight's next gathering.
    The position is played on a copy (the solo deck re-dealt: a reason never tells a card to come)."""
    from games.tatsumi.ai import determinise
    from games.tatsumi.game import TatsumiGame

    player = decision.player or state.seats[state.current].id
    before = _seat(state, player)
    copy = determinise(state, random.Random(0))
    try:
        after_state = TatsumiGame().apply(copy, Move(player=decision.player, option=option,
                                                 at_ms=decision.deadline_ms)).state
    except ValueError:
        return None
    after = _seat(after_state, player)
    lay = layout(before.island_key)
    parts: list[Text] = []
    fortune = after.fortune - before.fortune
    if fortune:
        parts.append(T("{n} fortune now", n=_signed(fortune)))
    m0, m1 = mastery(lay, before.island), mastery(lay, after.island)
    for e in D.ELEMENTS:
        if m1.get(e, 0) != m0.get(e, 0):
            parts.append(T("{element} mastery {n} at the end", element=D.ELEMENT_TEXT[e], n=_signed(m1.get(e, 0) - m0.get(e, 0))))
    unlocked = sum(1 for b in range(len(lay.blessings))
                   if not blessing_met(lay, before.island, b) and blessing_met(lay, after.island, b))
    if unlocked:
        parts.append(T("unlocks a blessing"))
    for e in D.ELEMENTS:
        gained = after.holding.get(e, 0) - before.holding.get(e, 0)
        if gained > 0 and after.island == before.island:
            parts.append(T("{n} {element} in hand", n=_signed(gained), element=D.ELEMENT_TEXT[e]))
    offered = sum(before.holding.values()) - sum(after.holding.values())
    if option.startswith("offer:") and offered > 0:  # the rings score as they are placed, in the next decisions
        parts.append(N("{n} ring to place on your island, scoring fortune as you place it",
                       "{n} rings to place on your island, each scoring fortune as you place it", n=offered))
    healed = [i for i, (a, b) in enumerate(zip(before.island, after.island, strict=True))
              if a != b and lay.rift[i]]
    effects = Text.join(T(", "), parts) if parts else None
    if healed:
        rift = T("heals your {element} rift", element=D.ELEMENT_TEXT[lay.rift[healed[0]]])
        return T("{what}: {effects}", what=rift, effects=effects) if effects is not None else rift
    if effects is not None:
        return effects
    return None
