"""Tatsumi data: everything the rulebook text lost and RULINGS designed, in one place (RULINGS TM-2, TM-6, TM-9, TM-11).

Element codes (one letter, used in the state and in option ids' labels): ``F`` fire, ``W`` water, ``N`` wind
(as in the TM-9 map), ``L`` lightning. Seawells are numbered ``0..24`` row by row (``a1`` is 0, ``e1`` is 4,
``a5`` is 20); island spaces ``0..36`` row by row (``A1`` is 0, ``G4`` is 36).

Replace these tables with the printed game's data without touching the logic: the logic reads only this module's
names (and :mod:`games.tatsumi.island` builds its geometry from :data:`ISLANDS`).
"""

from __future__ import annotations

from games.core import T

COMMA = T(", ")
"""The separator of listed texts (scores, rings, wells), translated like any text (ja 「、」)."""

ELEMENTS = ("F", "W", "N", "L")
"""The four elements, in the order used everywhere (holding slots, renderer legend)."""

ELEMENT_NAMES = {"F": "fire", "W": "water", "N": "wind", "L": "lightning"}
ELEMENT_CODES = {v: k for k, v in ELEMENT_NAMES.items()}
ELEMENT_TEXT = {"F": T("fire"), "W": T("water"), "N": T("wind"), "L": T("lightning")}
"""The elements' names for people (texts in any language); :data:`ELEMENT_NAMES` is the same in option ids."""
RINGS_PER_ELEMENT = 28
TOTAL_RINGS = 112
SAND_DOLLARS = 13
SCALES_BESIDE = 5
"""Scales beside the island, spent at shrines showing the scale icon (TM-10). The other 2 sit on the blessings."""

# --------------------------------------------------------------------------------------------------------------
# Dragons (TM-1). Seat order takes them in this order; ``gather`` names the gathering action (TM-4; the
# asymmetric ones live in :mod:`games.tatsumi.dragons` and plug into ``seaboard.GATHERS``). Which player plays
# which dragon: the option ``colours`` (TM-16, :func:`games.tatsumi.dragons.setup_modules`).

DRAGONS = ("karyu", "raijin", "fujin", "mizuchi", "kihaku")
DRAGON_ELEMENT = {"karyu": "F", "raijin": "L", "fujin": "N", "mizuchi": "W", "kihaku": ""}
"""Kihaku (the Void, 5th seat only) has no element until its player names one at setup (TM-1)."""
DRAGON_TITLES = {"karyu": T("Karyu"), "raijin": T("Raijin"), "fujin": T("Fujin"), "mizuchi": T("Mizuchi"),
                 "kihaku": T("Kihaku")}
"""The dragons' names (texts: a Japanese table writes them in kana)."""

# --------------------------------------------------------------------------------------------------------------
# Seaboard (TM-2): 5x5 wells, columns a-e, rows 1-5 (row 1 north).

COLUMNS = "abcde"
WELL_NAMES = tuple(f"{c}{r}" for r in range(1, 6) for c in COLUMNS)
WELL_INDEX = {name: i for i, name in enumerate(WELL_NAMES)}


def well_xy(well: int) -> tuple[int, int]:
    """(column 1..5, row 1..5) of ``well``."""
    return well % 5 + 1, well // 5 + 1


WELL_DEPTH = tuple(4 if sum(well_xy(w)) % 2 == 0 else 5 for w in range(25))
"""Rings per well when full (TM-2, designed): 4 where column + row is even (13 wells), else 5 (12 wells)."""

START_WELLS = (WELL_INDEX["a1"], WELL_INDEX["e1"], WELL_INDEX["e5"], WELL_INDEX["a5"], WELL_INDEX["c3"])
"""Dragon start wells in seat order (TM-2; the Void's 5th dragon on c3)."""

LAYERS_REMOVED = {1: 0, 2: 2, 3: 1, 4: 0}
"""Top rings removed from every well at setup, by player count (TM-2)."""
LAYERS_REMOVED[5] = 0  # the Void's 5 players (TM-1)

# --------------------------------------------------------------------------------------------------------------
# Shrines (TM-6): one Wavering Shrine per element on the middle of an edge; a virtual well just outside it.

EDGES = ("N", "E", "S", "W")
EDGE_NAMES = {"N": T("north"), "E": T("east"), "S": T("south"), "W": T("west")}
SHRINE_XY = {"N": (3, 0), "E": (6, 3), "S": (3, 6), "W": (0, 3)}
"""The virtual well of each edge's shrine, in (column, row) with the board on 1..5 (north is c0)."""

SHRINE_FRONT = {"F": "FFNN", "N": "NNWW", "W": "WWLL", "L": "LLFF"}
"""Front (no scale icon) ring requirements (TM-6)."""
SHRINE_BACK = {"F": "FFW", "W": "WWN", "N": "NNL", "L": "LLF"}
"""Back (scale icon) ring requirements (TM-6)."""

# --------------------------------------------------------------------------------------------------------------
# Islands (TM-9). Each row of the map lists its spaces left to right: ``.`` plain, ``*`` blessing, or an element
# letter for a rift. A blessing's supporting spaces are its left and right neighbours, any one element
# (``None``); the asymmetric islands (TM-15) live in :mod:`games.tatsumi.islands_data` with fixed elements and
# positions.

ISLANDS = {
    "tatsumi": {
        "title": T("Tatsumi Island"),
        "rows": (
            ". F W .",
            "L . . . N",
            "W . * . F .",
            "N . L . N . L",
            ". F . * . W",
            "N . . . L",
            ". W F .",
        ),
    },
}

# --------------------------------------------------------------------------------------------------------------
# Summoning cards (TM-11): the rulebook's 16. ``scoring`` cards score once when a scale lands on them; ``lasting``
# cards grant an ability scaled by the player's scales on that card.

SCORING_CARDS = (
    "jellyfish",
    "koi",
    "otter",
    "salamander",
    "water_strider",
    "lizard_claw",
    "turtle",
    "toad",
    "monkey",
    "dragonfly",
)
LASTING_CARDS = ("butterfly", "swallows", "heron", "blackbird", "duck", "flying_fish")
CARDS = SCORING_CARDS + LASTING_CARDS

CARD_TITLES = {
    "jellyfish": T("Jellyfish"),
    "koi": T("Koi"),
    "otter": T("Otter"),
    "salamander": T("Salamander"),
    "water_strider": T("Water Strider"),
    "lizard_claw": T("Lizard Claw"),
    "turtle": T("Turtle"),
    "toad": T("Toad"),
    "monkey": T("Monkey"),
    "dragonfly": T("Dragonfly"),
    "butterfly": T("Butterfly"),
    "swallows": T("Swallows"),
    "heron": T("Heron"),
    "blackbird": T("Blackbird"),
    "duck": T("Duck"),
    "flying_fish": T("Flying Fish"),
}
"""The cards' names (texts), in English the card id in title case."""

CARD_TEXT = {
    "jellyfish": T("+2 per scale you placed anywhere"),
    "koi": T("+1 per scale placed, +1 per wind rift"),
    "otter": T("+1 per scale placed, +1 per water rift"),
    "salamander": T("+1 per scale placed, +1 per fire rift"),
    "water_strider": T("+1 per scale placed, +1 per lightning rift"),
    "lizard_claw": T("+3, +1 per element in holding"),
    "turtle": T("+1 per perimeter ring"),
    "toad": T("+1 per inland ring"),
    "monkey": T("3/5/7/9/11 for 0-4 sets of 4 elements"),
    "dragonfly": T("+1 per ring of your element"),
    "butterfly": T("offer from 1 + scales away"),
    "swallows": T("fly through dragons, +2/scale each"),
    "heron": T("+1/scale per depleted well flown over"),
    "blackbird": T("each turn place up to scales rings"),
    "duck": T("+2/scale ending on a depleted well"),
    "flying_fish": T("its scale goes on any other card"),
}
"""Short card texts for the renderer and help (our own words)."""

RIFT_CARDS = {"koi": "N", "otter": "W", "salamander": "F", "water_strider": "L"}
LIZARD_CLAW = (3, 4, 5, 6, 7)
"""Lizard Claw fortune by the number of different elements in holding (0..4)."""
MONKEY = (3, 5, 7, 9, 11)
"""Monkey fortune by sets of four elements (one of each) on the island (0..4+)."""
