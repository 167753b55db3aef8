"""Tsukimi data the rulebook text lost, designed by RULINGS (one place, easy to replace).

- TS-3: the 18 mochi tiles (four flavours x values 0-3, sakura 5 twice) and each value's effects.
- TS-7: the dark side's recruit spaces.
- TS-1: the rabbits each clan starts with in reserve and in the box, by side.
"""

from __future__ import annotations

from typing import NamedTuple

from games.core import T, Text

FLAVOURS = ("strawberry", "blueberry", "carrot", "matcha", "sakura")
COLOURS = ("white", "purple")
"""Clan colours by seat: seat 0 is white, seat 1 purple (TS-1)."""

TEMPLE = 0
"""Tile id of the Temple in the circle (TS-4)."""


class Tile(NamedTuple):
    id: int
    flavour: str
    value: int


def _tiles() -> dict[int, Tile]:
    tiles: dict[int, Tile] = {}
    n = 1
    for flavour in FLAVOURS[:4]:
        for value in range(4):
            tiles[n] = Tile(n, flavour, value)
            n += 1
    tiles[17] = Tile(17, "sakura", 5)
    tiles[18] = Tile(18, "sakura", 5)
    return tiles


TILES: dict[int, Tile] = _tiles()
"""Mochi tiles by id 1..18 (TS-3): 1-4 strawberry 0-3, 5-8 blueberry, 9-12 carrot, 13-16 matcha, 17-18 sakura 5."""

EFFECTS: dict[int, tuple[int, int]] = {0: (2, 1), 1: (2, 0), 2: (1, 1), 3: (1, 0), 5: (0, 1)}
"""Value -> (rabbits that may be placed, rabbits that may be moved) (TS-3). Every effect is optional."""

NO_GROUP_VALUE = 5
"""Value 5 never forms a value group (TS-6; only two sakura tiles exist)."""

RECRUIT: dict[str, int] = {
    **{s: 2 for s in ("A1", "A3", "C1", "C5", "E1", "E3")},
    **{s: 1 for s in ("B2", "B3", "C2", "C4", "D2", "D3")},
}
"""Dark side: space -> rabbits recruited from the box when a tile is placed there (TS-7); other spaces none."""

START: dict[str, tuple[int, int]] = {"light": (15, 0), "dark": (3, 12)}
"""Side -> (rabbits in each clan's reserve, rabbits of each colour in the box) at setup (TS-1)."""

RABBITS_PER_CLAN = 15

FLAVOUR_TEXT: dict[str, Text] = {"strawberry": T("strawberry"), "blueberry": T("blueberry"), "carrot": T("carrot"),
                                 "matcha": T("matcha"), "sakura": T("sakura")}
"""A flavour as people read it (:data:`FLAVOURS` -> a :class:`games.core.Text`)."""

COLOUR_TEXT: tuple[Text, Text] = (T("white"), T("purple"))
"""A clan's colour as people read it, by seat (:data:`COLOURS`)."""

SIDE_TEXT: dict[str, Text] = {"light": T("light"), "dark": T("dark")}
"""A side of the Moon as people read it (lobby option ``side``)."""


def tile_name(tile_id: int) -> str:
    """``"matcha 2"`` for a mochi tile, ``"Temple"`` for the Temple."""
    if tile_id == TEMPLE:
        return "Temple"
    t = TILES[tile_id]
    return f"{t.flavour} {t.value}"


def tile_text(tile_id: int) -> Text:
    """:func:`tile_name` as a text for people: ``"matcha 2"``, ``"Temple"`` (translated when shown)."""
    if tile_id == TEMPLE:
        return T("Temple")
    t = TILES[tile_id]
    return T("{flavour} {value}", flavour=FLAVOUR_TEXT[t.flavour], value=t.value)
