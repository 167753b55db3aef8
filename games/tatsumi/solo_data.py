"""Designed data of the weather module and solo mode (RULINGS TM-13, TM-14), in one place.

The rulebook text lost the printed weather and solo cards; these tables are this project's design. Replace them
with the printed game's data without touching the logic: :mod:`games.tatsumi.weather` and
:mod:`games.tatsumi.solo` read only the names below. Wells are named as in :mod:`games.tatsumi.data` (``a1`` is the
north-west corner), edges ``N E S W``.
"""

from __future__ import annotations

from typing import NamedTuple

from games.core import T

# --------------------------------------------------------------------------------------------------------------
# Weather (TM-13): one card per element, a minor and a major side.

WEATHER_NAMES = {
    "W": (T("Flash Flood"), T("Tsunami")),
    "F": (T("Wildfire"), T("Eruption")),
    "N": (T("Gale"), T("Typhoon")),
    "L": (T("Thunderclap"), T("Thunderstorm")),
}
"""(minor, major) event names by element code."""

WEATHER_SAND = {"minor": 5, "major": 8}
"""Sand dollars stacked beside each side's card at setup (rulebook "Weather Setup"); 5 + 8 = the 13."""

WEATHER_SWAPS = {"minor": 1, "major": 2}
"""Swaps each player makes when the card triggers (TM-13)."""


def weather_name(element: str, side: str) -> str:
    """The event name of ``element``'s card on ``side`` (``minor``/``major``)."""
    return WEATHER_NAMES[element][0 if side == "minor" else 1]


# --------------------------------------------------------------------------------------------------------------
# Solo cards (TM-14): two Tekitatsu wells, the maelstrom well (three different wells) and an upkeep edge or "".


class SoloCard(NamedTuple):
    tekitatsu: tuple[str, str]
    maelstrom: str
    upkeep: str


SOLO_CARDS: tuple[SoloCard, ...] = (
    SoloCard(("b2", "d4"), "c3", "N"),
    SoloCard(("b4", "d2"), "c1", ""),
    SoloCard(("c2", "c4"), "a3", "E"),
    SoloCard(("b3", "d3"), "c5", ""),
    SoloCard(("a2", "e4"), "c3", "S"),
    SoloCard(("a4", "e2"), "b1", ""),
    SoloCard(("c1", "c5"), "e3", "W"),
    SoloCard(("a3", "e3"), "c2", ""),
    SoloCard(("b1", "d5"), "d2", "N"),
    SoloCard(("d1", "b5"), "b4", ""),
    SoloCard(("b2", "c4"), "e5", "E"),
    SoloCard(("d2", "b4"), "a1", ""),
    SoloCard(("c3", "a5"), "e1", "S"),
    SoloCard(("e3", "a1"), "c4", ""),
    SoloCard(("c2", "e5"), "a4", "W"),
    SoloCard(("d4", "a2"), "d1", ""),
)
"""The 16 solo-mode cards (designed; no triple of wells repeats)."""

SOLO_RANKS: tuple[tuple[int, str], ...] = (
    (120, T("The islanders tell legends of you for generations.")),
    (110, T("The sea itself bows to you, Tatsu.")),
    (100, T("The island radiates with elemental harmony.")),
    (90, T("The islanders rejoice with a harvest feast.")),
    (80, T("The island is peaceful and bellies are full.")),
    (70, T("The island is safe but the islanders remain fearful.")),
    (0, T("The islanders go exploring, searching for a new home.")),
)
"""The rulebook's "Solo-mode Scoring Rank": (least fortune, line), best first."""


def rank_line(fortune: int) -> str:
    """The rank line for a final ``fortune`` (rulebook "Solo-mode Scoring Rank")."""
    for least, line in SOLO_RANKS:
        if fortune >= least:
            return line
    return SOLO_RANKS[-1][1]


def rank_name(fortune: int) -> str:
    """The rank a final ``fortune`` reaches, by its threshold: ``"80+"``, or ``"under 70"`` (rulebook "Solo-mode
    Scoring Rank"). Solo mode has a rank, not a winner."""
    for least, _ in SOLO_RANKS:
        if fortune >= least and least:
            return T("{n}+", n=least)
    return T("under {n}", n=SOLO_RANKS[-2][0])
