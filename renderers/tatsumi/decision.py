"""The image for Tatsumi's current decision (``render(state, full=False)``): a close-up of what the decision is
about, readable on a phone (about 400 px wide), each offered place marked with its key from
:func:`games.marker_keys`.

Views (:func:`view_of`), each with the sizes of the texts a choice depends on in :data:`READABLE` (px) — every one
is at least 9 px when the image is scaled to 400 px wide (``size * 400 / width >= 9``):

- ``seaboard`` (a turn: fly, gather, Karyusama's breath, dash, dive, offer; a second gathering): the seaboard with
  its shrines, cards and weather cards, ``SEA_VIEW_W`` px wide so that every text on it (card rule text 11 px) is
  at least 9 px at 400 px wide: the board's middle column (the wells, the north and south shrines and their cards)
  as on the board, the west and east shrines with their cards in the column's top corners (west left, east
  right), the weather cards in its bottom corners (:func:`sea_regions`), under a header with the prompt and over
  a strip with the player's holding and fortune. Markers: a well's top-left corner (over its name), a breath's
  side of the dragon's well, a shrine tile's marker slot (left of its requirement).
- ``island`` (placing rings, overflow, a weather swap): the deciding player's island drawn large (hex radius
  ``ISLAND_R``) with the rings to place and the holding. Markers: a space's lower half (over its name), a swap on
  the edge the two spaces share.
- ``cards`` (a scale: back side, blessing, Flying Fish): the summoning cards at scale ``CARDS_K`` in a 2 x 2 grid
  with everyone's scales. Markers: a card's top-right corner.
- ``weather`` (a depleted well's sand dollar): both weather cards enlarged ``WEATHER_K`` times. Markers: right of
  the card, level with its sand dollar row (on card / beside).
- ``full`` otherwise (setup choices, the solo step, the game's end): the whole board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

import games
from games.core import Decision, T, format_text
from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi.island import layout
from games.tatsumi.state import Seat, TatsumiState

from ..common import INK, PAPER, WHITE, break_lines, cached_in_language, display_name, font, marker, words
from .cards import (
    CARD_H,
    CARD_RULE,
    CARD_TEXT_PX,
    CARD_W,
    SLOT,
    TILE_COUNT_PX,
    TILE_H,
    card_face,
    scale_marks,
    scales_on,
)
from .icons import NAME_INK, label, paste, player_mark, ring_sprite, text_width
from .island import hex_centre, island_size, name_px, paste_island
from .seaboard import BX, BY, CELL, DEPTH_PX, background, card_xy, draw_shrine, draw_wells, tile_xy, well_box
from .solo import draw_tokens
from .weather import DOLLAR_PX, WCARD_H, WCARD_W, WEATHER_XY, row_y
from .weather import card_image as weather_card_image

SEA_HEADER_H = 50
"""Height of the seaboard view's header (the prompt), px: the board's title band is left out."""
SEA_COLUMN = (BX - 6, SEA_HEADER_H, BX + 5 * CELL + 6, 860)
"""The board's middle column in the seaboard view (left, top, right, bottom px of the board): the wells with the
north and south shrines and cards; it lands at (0, ``SEA_HEADER_H``)."""
SEA_VIEW_W = SEA_COLUMN[2] - SEA_COLUMN[0]
"""Width of the seaboard view, px (452)."""
SEA_CORNER = 12
"""Margin of a corner block (a west or east shrine with its card, a weather card) from the view's side, px."""
HEADER_H = 64
HEADER_PX = 20
HEADER_MIN_PX = 17
"""Sizes of the prompt in a view's header, px (the smaller for a prompt of 3 lines)."""
STRIP_H = 48
"""Height of a view's bottom strip row, px."""
STRIP_PX = 22
"""Size of the holding counts and the fortune in a view's strip, px."""
SEA_MARKER_R = 16
ISLAND_R = 30
"""Hex radius of the island close-up, px."""
ISLAND_MARKER_R = round(0.42 * ISLAND_R)
CARDS_K = 1.5
"""Scale of the summoning cards in the cards view."""
CARDS_GAP = 12
WEATHER_K = 1.6
"""Enlargement of the weather cards in the weather view."""
WEATHER_MARKER_R = 15
VIEW_KINDS = {
    "turn": "seaboard",
    "gather": "seaboard",
    "place": "island",
    "overflow": "island",
    "swap": "island",
    "scale": "cards",
    "sand": "weather",
}


def marker_key_px(r: float, key: str = "1") -> int:
    """Size of a marker's key of radius ``r``, px (as :func:`renderers.common.marker` draws it)."""
    return round(r * (1.3 if len(key) == 1 else 1.05))


def _readable() -> dict[str, dict[str, int]]:
    return {
        "seaboard": {
            "prompt": HEADER_MIN_PX,
            "marker key (2 digits)": marker_key_px(SEA_MARKER_R, "10"),
            "well depth": DEPTH_PX,
            "card rule text": CARD_TEXT_PX,
            "shrine ring counts": TILE_COUNT_PX,
            "sand dollars": DOLLAR_PX,
            "holding counts": STRIP_PX,
        },
        "island": {
            "prompt": HEADER_MIN_PX,
            "marker key (2 digits)": marker_key_px(ISLAND_MARKER_R, "10"),
            "space names": name_px(ISLAND_R),
            "rings to place": STRIP_PX,
        },
        "cards": {
            "prompt": HEADER_MIN_PX,
            "marker key": marker_key_px(SEA_MARKER_R),
            "card text": round(10 * CARDS_K),
            "scale counts": round(12 * CARDS_K),
        },
        "weather": {
            "prompt": HEADER_MIN_PX,
            "marker key": marker_key_px(WEATHER_MARKER_R),
            "sand dollars": round(DOLLAR_PX * WEATHER_K),
        },
    }


READABLE = _readable()
"""View -> {what: size px} of every text a choice depends on (the 9 px rule)."""


def decision(state: TatsumiState) -> Decision | None:
    """The pending decision of ``state``, or None when the game is over."""
    pending = GAME.pending(state)
    return pending[0] if pending else None


def view_of(state: TatsumiState, dec: Decision | None = None) -> str:
    """The view of the decision image: ``seaboard``, ``island``, ``cards``, ``weather`` or ``full``."""
    dec = dec if dec is not None else decision(state)
    if dec is None:
        return "full"
    return VIEW_KINDS.get(dec.kind, "full")


def decider(state: TatsumiState, dec: Decision) -> Seat:
    return next(p for p in state.seats if p.id == dec.player)


# ---------------------------------------------------------------------------------------------- header and strip


@lru_cache(maxsize=1024)
def _lines(text: str, size: int, width: int) -> list[str]:
    """The header's prompt in bold lines (:func:`renderers.common.break_lines`); one empty line for an empty prompt."""
    return break_lines(text, width, font(size, True)) or [""]


def _header(img: Image.Image, state: TatsumiState, dec: Decision, names, height: int = HEADER_H) -> None:
    """The prompt with names, in a dark band ``height`` px tall: 2 lines of ``HEADER_PX``, or (``HEADER_H`` only)
    3 of ``HEADER_MIN_PX`` for a long prompt."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, img.width, height), fill=INK)
    p = decider(state, dec)
    player_mark(img, p.mark, 22, height // 2, 12)
    prompt = format_text(str(words(dec.prompt)), lambda pid: display_name(pid, names, 14))
    size = HEADER_PX
    lines = _lines(prompt, size, img.width - 52)
    if len(lines) > 2 and height >= HEADER_H:
        size = HEADER_MIN_PX
        lines = _lines(prompt, size, img.width - 52)[:3]
    lines = lines[: 3 if size == HEADER_MIN_PX else 2]
    step = size + 2
    y0 = height / 2 - (len(lines) - 1) * step / 2
    for k, line in enumerate(lines):
        label(img, (42, y0 + k * step), line, size, True, WHITE, "lm")


def strip_height(to_place: str) -> int:
    """Height of a view's bottom strip, px: one row, two when there are rings to place."""
    return STRIP_H * (2 if to_place else 1)


def _strip(img: Image.Image, p: Seat, y: int, to_place: str = "") -> None:
    """At ``y``: the rings still to place (a row of their own), then the player's holding (rings and counts) and
    fortune."""
    cy = y + STRIP_H // 2
    if to_place:
        label(img, (12, cy), T("to place"), STRIP_PX - 4, True, INK, "lm")
        x = 104
        for e in dict.fromkeys(to_place):
            paste(img, ring_sprite(e, 15), x + 15, cy)
            label(img, (x + 34, cy), f"{to_place.count(e)}", STRIP_PX, True, INK, "lm")
            x += 64
        cy += STRIP_H
    label(img, (12, cy), T("hold"), STRIP_PX - 4, True, NAME_INK, "lm")
    x = 62
    for e in D.ELEMENTS:
        n = p.holding[e]
        if n:
            paste(img, ring_sprite(e, 15), x + 15, cy)
            label(img, (x + 34, cy), f"{n}", STRIP_PX, True, INK, "lm")
            x += 56
    if not any(p.holding.values()):
        label(img, (x, cy), T("nothing"), STRIP_PX - 4, False, NAME_INK, "lm")
    label(img, (img.width - 12, cy), f"{p.fortune}", STRIP_PX + 4, True, INK, "rm")
    label(img, (img.width - 12 - text_width(f"{p.fortune}", STRIP_PX + 4, True) - 8, cy), T("fortune"),
          STRIP_PX - 6, False, NAME_INK, "rm")


# ---------------------------------------------------------------------------------------------- marker places


def sea_regions(state: TatsumiState) -> list[tuple[tuple[int, int, int, int], tuple[int, int]]]:
    """The parts of the board the seaboard view shows: [(box on the board (left, top, right, bottom px), top-left in
    the view px)] — the west and east shrines with their cards in the middle column's top corners, the weather
    cards (when in play) in its bottom corners, then the column itself."""
    out = []
    right = SEA_VIEW_W - SEA_CORNER - CARD_W
    for edge, x in (("W", SEA_CORNER), ("E", right)):
        cx, cy = card_xy(edge)
        out.append(((cx, cy, cx + CARD_W, tile_xy(edge)[1] + TILE_H), (x, SEA_HEADER_H + 1)))
    for c in state.weather:
        wx, wy = WEATHER_XY[c.side]
        out.append(((wx, wy, wx + WCARD_W, wy + WCARD_H),
                    (SEA_CORNER if c.side == "minor" else right, BY + 5 * CELL + 10)))
    out.append((SEA_COLUMN, (0, SEA_HEADER_H)))
    return out


def sea_view_xy(state: TatsumiState, x: float, y: float) -> tuple[float, float]:
    """Where the board's point (x, y) px lands in the seaboard view (the first of :func:`sea_regions` holding
    it); ValueError for a point the view leaves out."""
    for (x0, y0, x1, y1), (vx, vy) in sea_regions(state):
        if x0 <= x <= x1 and y0 <= y <= y1:
            return x - x0 + vx, y - y0 + vy
    raise ValueError(f"({x}, {y}) is not in the seaboard view")


def sea_view_height(state: TatsumiState) -> int:
    """Height of the seaboard view, px: header, column, the weather cards below the column's foot when in play,
    the strip."""
    bottom = max(vy + (y1 - y0) for (_, y0, _, y1), (_, vy) in sea_regions(state))
    return bottom + 6 + STRIP_H


def sea_place(state: TatsumiState, locus: str) -> tuple[float, float] | None:
    """Where the marker of ``locus`` goes on the full board (px), for the seaboard view's loci (the view moves it
    with :func:`sea_view_xy`)."""
    kind, _, arg = locus.partition(":")
    if kind == "well":
        x0, y0 = well_box(D.WELL_INDEX[arg])
        return x0 + 18, y0 + 18
    if kind == "breath":  # on a circle round the dragon's well, towards the breath (8 fit without touching)
        x0, y0 = well_box(state.seats[state.current].well)
        dx = ("e" in arg) - ("w" in arg)
        dy = ("s" in arg) - ("n" in arg)
        f = CELL / 2 / math.hypot(dx, dy)
        return x0 + CELL / 2 + dx * f, y0 + CELL / 2 + dy * f
    if kind == "shrine":
        e = D.ELEMENT_CODES[arg]
        tx, ty = tile_xy(D.EDGES[state.shrines.index(e)])
        return tx + SLOT[0], ty + SLOT[1]
    return None


def island_place(state: TatsumiState, locus: str, r: float = ISLAND_R) -> tuple[float, float] | None:
    """Where the marker of an ``island:``/``pair:`` locus goes in its island's image of hex radius ``r`` (px)."""
    kind, _, rest = locus.partition(":")
    pid, _, spaces = rest.rpartition(":")
    p = next((q for q in state.seats if q.id == pid), None)
    if p is None or kind not in ("island", "pair"):
        return None
    lay = layout(p.island_key)
    if kind == "island":
        cx, cy = hex_centre(p.island_key, r, lay.index(spaces))
        return cx, cy + 0.42 * r
    a, b = (hex_centre(p.island_key, r, lay.index(n)) for n in spaces.split("-"))
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def card_slots(state: TatsumiState) -> list[tuple[int, int, int]]:
    """(edge index, x, y) of each summoning card in the cards view (top-left, px), 2 x 2 below the header."""
    w, h = round(CARD_W * CARDS_K), round(CARD_H * CARDS_K)
    out = []
    for k in range(4):
        r, c = divmod(k, 2)
        out.append((k, CARDS_GAP + c * (w + CARDS_GAP), HEADER_H + CARDS_GAP + r * (h + CARDS_GAP)))
    return out


def marker_positions(state: TatsumiState, dec: Decision | None = None) -> dict[str, tuple[float, float]]:
    """Marker key -> centre (px) in the decision image of ``state`` (``render(state)``), one per distinct locus of
    the pending decision's options (``dec``, else the pending one); empty when nothing is offered by place."""
    dec = dec if dec is not None else decision(state)
    if dec is None:
        return {}
    view = view_of(state, dec)
    keys = games.marker_keys(dec.options)
    loci = {opt.locus: keys[opt.id] for opt in dec.options if opt.id in keys}
    out: dict[str, tuple[float, float]] = {}
    for locus, key in loci.items():
        xy = None
        if view == "seaboard":
            xy = sea_place(state, locus)
            xy = None if xy is None else sea_view_xy(state, *xy)
        elif view == "island":
            at = island_place(state, locus)
            if at is not None:
                xy = (ISLAND_X + at[0], HEADER_H + at[1])
        elif view == "cards" and locus.startswith("card:"):
            edge = state.cards.index(locus[5:])
            _, x, y = card_slots(state)[edge]
            xy = (x + round(CARD_W * CARDS_K) - 20, y + CARD_RULE * CARDS_K)
        elif view == "weather" and locus.startswith("weather:"):
            _, side, row = locus.split(":")
            x, y = _weather_slot(side)
            xy = (x + WCARD_W * WEATHER_K + WEATHER_MARKER_R + 3, y + row_y(row) * WEATHER_K)
        if xy is not None:
            out[key] = xy
    return out


ISLAND_X = 12
"""Left margin of the island in the island view, px."""


def _weather_slot(side: str) -> tuple[float, float]:
    k = 0 if side == "minor" else 1
    return CARDS_GAP + k * (WCARD_W * WEATHER_K + CARDS_GAP + 2 * WEATHER_MARKER_R + 6), HEADER_H + CARDS_GAP


# ---------------------------------------------------------------------------------------------- views


@cached_in_language(maxsize=4)
def _sea_paper(height: int) -> Image.Image:
    """The seaboard view's static part, ``SEA_VIEW_W x height`` px: paper, and the board's middle column as the
    empty board has it (the sea, the wells' cells and names) at (0, ``SEA_HEADER_H``)."""
    img = Image.new("RGB", (SEA_VIEW_W, height), PAPER)
    img.paste(background(1, panels=False).crop(SEA_COLUMN), (0, SEA_HEADER_H))
    return img


def _sea_offset(state: TatsumiState, x: int, y: int) -> tuple[int, int]:
    """(dx, dy) px that move the board's point (x, y) to its place in the seaboard view (:func:`sea_view_xy`)."""
    vx, vy = sea_view_xy(state, x, y)
    return int(vx - x), int(vy - y)


def _sea_view(state: TatsumiState, dec: Decision, names) -> Image.Image:
    """The view of :func:`sea_regions`, each piece drawn straight at its place in the view (what the board would
    show there, cut to the region): the middle column's wells, dragons, north and south shrines and solo tokens,
    the west and east shrines and the weather cards in the corners."""
    img = _sea_paper(sea_view_height(state)).copy()
    dx, dy = -SEA_COLUMN[0], 0  # the column: wells, dragons, solo tokens
    draw_wells(img, state, dx, dy)
    for k, edge in enumerate(D.EDGES):
        draw_shrine(img, state, k, *_sea_offset(state, *card_xy(edge)))
    for c in state.weather:
        img.paste(weather_card_image(c), tuple(round(v) for v in sea_view_xy(state, *WEATHER_XY[c.side])))
    if state.solo is not None:
        draw_tokens(img, state, dx, dy)
    _header(img, state, dec, names, SEA_HEADER_H)
    _strip(img, decider(state, dec), img.height - STRIP_H)
    return img


def _island_view(state: TatsumiState, dec: Decision, names) -> Image.Image:
    p = decider(state, dec)
    iw, ih = island_size(ISLAND_R)
    to_place = state.turn.to_place if dec.kind == "place" and state.turn.mode != "blackbird" else ""
    img = Image.new("RGB", (iw + 2 * ISLAND_X, HEADER_H + ih + strip_height(to_place)), PAPER)
    paste_island(img, p, ISLAND_X, HEADER_H, ISLAND_R)
    _header(img, state, dec, names)
    _strip(img, p, HEADER_H + ih, to_place)
    return img


def _cards_view(state: TatsumiState, dec: Decision, names) -> Image.Image:
    w, h = round(CARD_W * CARDS_K), round(CARD_H * CARDS_K)
    img = Image.new("RGB", (2 * w + 3 * CARDS_GAP, HEADER_H + 2 * h + 3 * CARDS_GAP + STRIP_H), PAPER)
    for edge, x, y in card_slots(state):
        img.paste(card_face(state.cards[edge], CARDS_K), (x, y))
        scale_marks(img, scales_on(state, edge), x, y, CARDS_K)  # on the view: its labels round as drawn here
    _header(img, state, dec, names)
    _strip(img, decider(state, dec), HEADER_H + 2 * h + 3 * CARDS_GAP)
    return img


def _weather_view(state: TatsumiState, dec: Decision, names) -> Image.Image:
    cw, ch = round(WCARD_W * WEATHER_K), round(WCARD_H * WEATHER_K)
    x1, _ = _weather_slot("major")
    img = Image.new("RGB", (round(x1) + cw + 2 * WEATHER_MARKER_R + 8, HEADER_H + ch + 2 * CARDS_GAP), PAPER)
    for c in state.weather:
        big = weather_card_image(c).resize((cw, ch), Image.Resampling.BICUBIC)
        img.paste(big, tuple(round(v) for v in _weather_slot(c.side)))
    _header(img, state, dec, names)
    return img


def draw_decision(state: TatsumiState, names, board: Callable[[], Image.Image]) -> Image.Image:
    """The decision image of ``state``, with a marker on every offered place; ``board()`` draws the whole board
    (the ``full`` view). The other views draw their pieces straight at their places."""
    dec = decision(state)
    view = view_of(state, dec)
    if view == "full":
        return board()
    if view == "seaboard":
        img = _sea_view(state, dec, names)
        r = SEA_MARKER_R
    elif view == "island":
        img = _island_view(state, dec, names)
        r = ISLAND_MARKER_R
    elif view == "cards":
        img = _cards_view(state, dec, names)
        r = SEA_MARKER_R
    else:
        img = _weather_view(state, dec, names)
        r = WEATHER_MARKER_R
    for key, (x, y) in marker_positions(state, dec).items():
        marker(img, x, y, key, r)
    return img


__all__ = [
    "READABLE",
    "sea_regions",
    "sea_view_xy",
    "card_xy",
    "draw_decision",
    "marker_positions",
    "view_of",
]
