"""The Void expansion (RULINGS TM-1, TM-2, TM-17): exactly 5 players (fewer are refused at setup,
:meth:`games.tatsumi.TatsumiGame.check_seats`), Kihaku the 5th dragon (the 5th seat's, or dealt or picked, TM-16;
the 5th seat starts on c3, TM-2), whose player names its element at setup (a ``setup`` choice,
:mod:`games.tatsumi.dragons`), and the Void's 4 extra rings (one per element, shuffled from the seed) put one each on
top of b2, d2, b4 and d4 — 116 rings, 29 per element.

Kihaku's gathering is the symmetric one or, on the asymmetric side of its card, Kihakusama
(:func:`games.tatsumi.dragons.kihaku_gather`). The Void Shrine cards of the box are not described by the rulebook
text and are not played (TM-17; ``/rules tatsumi void`` says so).
"""

from __future__ import annotations

from games.tatsumi import data as D
from games.tatsumi.state import TatsumiState

VOID_WELLS = ("b2", "d2", "b4", "d4")
"""Where the Void's extra rings go with 5 players (TM-1)."""


def setup_void(s: TatsumiState) -> None:
    """Add the Void's 4 rings (one of each element, in an order shuffled from the seed) on top of b2, d2, b4, d4.
    Called with the Void, so for 5 players (TM-17); no layer is removed with 5 players (TM-2)."""
    rings = s.rng.shuffled(list(D.ELEMENTS))
    for name, ring in zip(VOID_WELLS, rings, strict=True):
        w = D.WELL_INDEX[name]
        s.wells[w] = s.wells[w] + ring
