"""Numbers of Forest of Tataraba: the rulebook's contents and charts, and the data the rulebook lost.

Everything marked *designed* comes from RULINGS FT-1/FT-2 (the printed boards are not in our rulebook text).
"""

from __future__ import annotations

from games.core import T

# -- boards (rulebook "Game Preparations (1)", RULINGS FT-1) ----------------------------------------------------
BOARDS_FOR = {2: 3, 3: 5, 4: 6}
"""Number of boards by player count: boards 1..n are used."""

DEFAULT_LAYOUTS = {2: "123", 3: "123/45", 4: "123/456"}
"""Designed default layouts (FT-1): rows of board numbers separated by ``/``; ``.`` would be a gap."""

BOARD_SIDE = 3
"""Each board is a 3x3 grid of square tiles (FT-1, designed). Cells are numbered 1..9 in reading order."""

EVERGREEN_CELLS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0), (1, 2), (2, 1)),
    2: ((0, 2), (1, 0), (2, 2)),
    3: ((0, 1), (2, 0), (2, 2)),
    4: ((0, 0), (0, 2), (2, 1)),
    5: ((1, 1), (0, 2), (2, 0)),
    6: ((0, 1), (1, 2), (2, 0)),
}
"""Evergreen cells (row, col) on each board (FT-2, designed)."""

# -- shift cards (rulebook "(6) Shift cards", FT-6, FT-7) ----------------------------------------------------------


def shift_cards(n_players: int) -> list[int]:
    """The shift deck for ``n_players``: two each of 1..boards and one zero card (7 / 11 / 13 cards)."""
    boards = BOARDS_FOR[n_players]
    return [0] + [k for k in range(1, boards + 1) for _ in range(2)]


# -- pieces (rulebook "Game Contents") -------------------------------------------------------------------------------
PINES = 4
OAKS = 4
CEDARS = 4
TATARAS = 2
EIDAIS = 1
BEECHES = 18
FOOT_START = 1
FOOT_MAX = 4
"""Foot markers a player may hold, and may spend in one turn (rulebook "(3) Tokens", "Movement rules")."""
BASE_STEPS = 2
"""Steps of a move before Foot markers (FT-4)."""

# -- costs (FT-3) ---------------------------------------------------------------------------------------------------
TATARA_COST = (2, 2)
"""(Sen, building material) for the second Tatara."""
EIDAI_COST = (10, 10)
"""(Sen, building material) for the Eidai Tatara (the quick reference, FT-3)."""
LOG_FEE = 1
"""Sen paid to the owner before logging another player's tree."""

# -- tree codes --------------------------------------------------------------------------------------------------
# A tile holds "" (nothing) or a three-character code: kind, stage, owner seat ("-" for none).
#   kind:  E Evergreen, R Red Pine, O Oak, C Cedar, B Beech, T Tatara, X Eidai Tatara
#   stage: y young (Cedar on its "1" side), 2 Cedar on its "2" side, a adult, - for buildings
PINE, OAK, CEDAR, BEECH, EVERGREEN, TATARA, EIDAI = "R", "O", "C", "B", "E", "T", "X"
YOUNG, CEDAR2, ADULT = "y", "2", "a"

TREE_NAMES = {PINE: "Red Pine", OAK: "Oak", CEDAR: "Cedar", BEECH: "Beech", EVERGREEN: "Evergreen"}
TREE_TEXT = {PINE: T("Red Pine"), OAK: T("Oak"), CEDAR: T("Cedar"), BEECH: T("Beech"), EVERGREEN: T("Evergreen")}
"""The trees' names for people (texts in any language; :data:`TREE_NAMES` is the same in event data)."""

YIELDS: dict[str, tuple[tuple[str, int], ...]] = {
    EVERGREEN: (("sen", 1), ("mat", 1)),
    PINE: (("sen", 2),),
    OAK: (("sen", 1),),
    CEDAR: (("sen", 1), ("mat", 3)),
}
"""The lumber process chart: kind -> the yields the logger may choose from (Sen or building material)."""

DEFAULT_ROUND_LIMIT = 60
"""The round limit's default (RULINGS FT-9: a lobby option, default 60): a safety stop, not in the rulebook."""
