"""Tsukimi board images: the whole board (``full=True``) and the close-up that goes with a decision (the default).

Whole board (W x H px): a header with both clans (shape, colour, name, reserve, box, board, points now; claimed
tiles at the end), the Moon in the middle with the 19 tiles of the circle around it (the Temple always at the top,
each tile's cost in a badge, gaps as dashed rings), the tile in hand while it is being placed, and a footer with
whose turn it is (or the result and the TS-8 tie-break that decided it) and a legend.

Close-up (CLOSE_W px wide, for a phone): both clans on two lines, the Moon at the same scale as the whole board
(space names, tile values, recruit numbers and marker keys all >= 9 px once scaled to 400 px wide), for
``choose_tile`` a panel of the tiles on offer (token, cost, effects in words), and what to do.

Markers: each offered place carries the key :func:`games.marker_keys` gives its option, the same key
the buttons start with. Locus vocabulary (``Option.locus``, set in ``games.tsukimi.rules``):

- ``vertex:<canonical vertex>`` (``vertex:C3-n``): a corner of the Moon; options ``place:``, ``to:`` (the marker
  sits on the empty corner), ``move:`` and ``discard:`` (the marker sits beside the rabbit, up and right; a rabbit
  to discard is also crossed out).
- ``space:<name>`` (``space:B2``): a space of the Moon (``place_tile``); the marker sits on its centre.
- ``tile:<id>`` (``tile:7``): a mochi tile in the circle (``choose_tile``); the marker sits inside the circle next to
  the token on the whole board, and on the tile's card in the close-up.

Colour never carries meaning alone: white rabbits are circles, purple rabbits squares, each with
its initial; each flavour has its own symbol (strawberry ▼, blueberry ●, carrot ▲, matcha ◆, sakura ✿) and its own
lightness (distinct in greyscale and under deuteranopia, protanopia, tritanopia), and tiles carry their name and
value; markers are white discs with black keys and black rings (no piece is white-and-black); a rabbit being moved
or a space being played gets a black-and-white double outline. Static layers (night sky, empty Moon, space labels,
recruit marks, legend) and the tile and rabbit sprites are cached; texts go through ``renderers.common.text``
(cached glyph masks, the shared font fallback).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from games.core import T, Text, marker_keys
from games.tsukimi import rules
from games.tsukimi.board import SPACE_XY, SPACES, VERTEX_XY, VERTICES
from games.tsukimi.data import (
    COLOUR_TEXT,
    EFFECTS,
    RECRUIT,
    SIDE_TEXT,
    TEMPLE,
    TILES,
    tile_text,
)
from games.tsukimi.data import FLAVOUR_TEXT as FLAVOUR_NAME
from games.tsukimi.state import TsukimiState
from renderers.common import (
    BLACK,
    INK,
    WHITE,
    YELLOW,
    Sprite,
    cached_in_language,
    display_name,
    encode_png,
    font,
    game_palette,
    marker_sprite,
    paste_sprite,
    sprite,
    text,
    words,
)

W, H = 1000, 1140
CX, CY = 500, 580
S = 58  # hex size (centre to corner), px
RING_R = 372
SLOT_R = 38
NIGHT = (22, 30, 56)
NIGHT_DISC = (30, 40, 72)
NIGHT_LINE = (70, 84, 120)
MOON = {"light": (226, 224, 212), "dark": (104, 104, 122)}
MOON_EDGE = {"light": (160, 156, 140), "dark": (60, 60, 76)}
MOON_TEXT = {"light": (92, 88, 78), "dark": (226, 226, 236)}
PURPLE_CLAN = (118, 64, 170)
CLAN_FILL = (WHITE, PURPLE_CLAN)
CLAN_SHAPE = ("circle", "square")
LIGHT_TEXT = (236, 236, 244)
DIM_TEXT = (176, 184, 210)
FLAVOUR_FILL = {
    "strawberry": (213, 48, 58),
    "blueberry": (39, 70, 182),
    "carrot": (241, 171, 1),
    "matcha": (74, 162, 104),
    "sakura": (241, 215, 220),
}
"""Flavour colours chosen for the largest least difference under every vision checked (``common.VISIONS``): about
12 ΔE*ab between any two flavours in greyscale and 22.8 under deuteranopia (strawberry and
carrot were once one olive under deuteranopia); each flavour also has its own symbol, so colour is never the only sign.
Text on each: white on strawberry (4.9:1) and blueberry, ink on carrot, matcha (5.2:1) and sakura."""
FLAVOUR_TEXT = {"strawberry": WHITE, "blueberry": WHITE, "carrot": INK, "matcha": INK, "sakura": INK}
FLAVOUR_SYMBOL = {"strawberry": "down", "blueberry": "dot", "carrot": "up", "matcha": "diamond", "sakura": "flower"}
"""Each flavour's symbol on its tiles: ▼ strawberry, ● blueberry, ▲ carrot, ◆ matcha, ✿ sakura."""
SYMBOL_CHAR = {"down": "▼", "dot": "●", "up": "▲", "diamond": "◆", "flower": "✿"}
RABBIT_R = 12
MARK_R_FULL = 15
"""Marker radius (px) on the whole board."""
MARK_R_CLOSE = 16
"""Marker radius (px) in the close-up: a two-digit key is 17 px, 10.6 px at 400 px wide."""
RABBIT_MARK_OFFSET = 14
"""A marker for a rabbit (move, discard) sits this many px up and right of it, so the rabbit stays visible."""

CLOSE_W = 640
CLOSE_TOP = 80
MOON_W, MOON_H = CLOSE_W, 540
CARD_W, CARD_H, CARDS_PER_ROW = 210, 100, 3
CARD_TOKEN_X = 8 + 2 * MARK_R_CLOSE + 6 + SLOT_R
"""Centre x of the token on a tile's card (px from the card's left): right of the marker's place (the marker sits
on the card's left edge, level with the token's middle), so the marker never covers the flavour's name."""
CARD_TEXT_X = CARD_TOKEN_X + SLOT_R + 10
"""Left of a card's cost and effects, px from the card's left."""
TOKEN_NAME_W = 56
"""Widest flavour name (px) drawn at 11 px on a round token (the chord 19 px above its centre is about 59 px)."""
CLOSE_FOOT = 92
CLOSE_TEXT_PX = 15
"""Smallest text (px) in the close-up that a choice depends on (clan lines, recruit numbers, space names, card
effects): 9.4 px at 400 px wide."""
SPACE_NAME_PX = 15
RECRUIT_PX = 15
TILE_VALUE_PX = 26


def _px(x: float, y: float, ox: float = CX, oy: float = CY) -> tuple[float, float]:
    return ox + x * S, oy + y * S


def _hex(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(-90 + 60 * k)), cy + r * math.sin(math.radians(-90 + 60 * k)))
            for k in range(6)]


def _slot_xy(slot: int, temple: int, n: int = 19) -> tuple[float, float]:
    a = math.radians(-90 + (slot - temple) * 360 / n)
    return CX + RING_R * math.cos(a), CY + RING_R * math.sin(a)


def _effects_text(value: int) -> str:
    places, moves = EFFECTS[value]
    parts = []
    if places:
        parts.append(f"+{places}")
    if moves:
        parts.append("⇄")
    return " ".join(parts)


def _effects_words(value: int) -> list[str]:
    places, moves = EFFECTS[value]
    out = []
    if places:
        out.append(T("place {n}", n=places))
    if moves:
        out.append(T("move {n}", n=moves))
    return out


def _symbol(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill, outline) -> None:
    """A flavour symbol (see FLAVOUR_SYMBOL) of radius ``r`` px centred on (cx, cy)."""
    if kind == "down":
        d.polygon([(cx - r, cy - r * 0.8), (cx + r, cy - r * 0.8), (cx, cy + r)], fill=fill, outline=outline)
    elif kind == "up":
        d.polygon([(cx - r, cy + r * 0.8), (cx + r, cy + r * 0.8), (cx, cy - r)], fill=fill, outline=outline)
    elif kind == "dot":
        d.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill, outline=outline)
    elif kind == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill, outline=outline)
    else:  # flower: five petals
        for k in range(5):
            a = math.radians(-90 + 72 * k)
            px, py = cx + r * 0.5 * math.cos(a), cy + r * 0.5 * math.sin(a)
            d.ellipse((px - r * 0.45, py - r * 0.45, px + r * 0.45, py + r * 0.45), fill=fill, outline=outline)


# -- static layers ---------------------------------------------------------------------------------------------------


@cached_in_language(maxsize=4)
def _moon_layer(side: str) -> Image.Image:
    """The empty Moon (RGBA, MOON_W x MOON_H, centre in the middle): spaces with their names, recruit numbers on
    the dark side (TS-7), vertex dots."""
    img = Image.new("RGBA", (MOON_W, MOON_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ox, oy = MOON_W / 2, MOON_H / 2
    for sp in SPACES:
        cx, cy = _px(*SPACE_XY[sp], ox, oy)
        d.polygon(_hex(cx, cy, S - 1), fill=MOON[side], outline=MOON_EDGE[side], width=2)
        d.text((cx, cy - S * 0.52), sp, font=font(SPACE_NAME_PX, True), fill=MOON_TEXT[side], anchor="mm")
        if side == "dark" and RECRUIT.get(sp):
            d.text((cx, cy + S * 0.42), T("recruit {n}", n=RECRUIT[sp]), font=font(RECRUIT_PX),
                   fill=MOON_TEXT[side], anchor="mm")
    for v in VERTICES:
        x, y = _px(*VERTEX_XY[v], ox, oy)
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=MOON_EDGE[side])
    return img


@cached_in_language(maxsize=12)
def _background(side: str, active: int | None = None) -> Image.Image:
    """The whole board's static layer: night sky, the circle's line, the empty Moon, the legend, the clans' header
    frames (``active``: the seat to play, framed in yellow; None once the game is over)."""
    img = Image.new("RGB", (W, H), NIGHT)
    d = ImageDraw.Draw(img)
    d.ellipse((CX - RING_R + SLOT_R + 14, CY - RING_R + SLOT_R + 14, CX + RING_R - SLOT_R - 14,
               CY + RING_R - SLOT_R - 14), fill=NIGHT_DISC)
    d.ellipse((CX - RING_R, CY - RING_R, CX + RING_R, CY + RING_R), outline=NIGHT_LINE, width=2)
    moon = _moon_layer(side)
    img.paste(moon, (CX - MOON_W // 2, CY - MOON_H // 2), moon)
    _legend(img, d, 24, H - 42, W - 48)
    for seat in (0, 1):
        x0, y0 = (24 if seat == 0 else W // 2 + 12), 48
        on = active == seat
        d.rounded_rectangle((x0, y0, x0 + W // 2 - 36, y0 + 72), radius=10, fill=(40, 52, 92) if on else NIGHT_DISC,
                            outline=YELLOW if on else NIGHT_LINE, width=3 if on else 1)
        _shape(d, CLAN_SHAPE[seat], x0 + 24, y0 + 22, 11, CLAN_FILL[seat])
    return img


@cached_in_language(maxsize=1024)
def _slot_sprite(k: int, tile: int | None, highlight: bool) -> Image.Image:
    """The ``k``-th slot of the circle (clockwise from the Temple) holding ``tile`` (None: a gap), composed onto
    the night sky behind it (RGB, so a render pastes it without a mask)."""
    x, y = _slot_xy(k, 0)
    half = SLOT_R + 6
    box = (round(x) - half, round(y) - half, round(x) + half, round(y) + half)
    img = _background("light").crop(box)
    _paste(img, _gap_sprite() if tile is None else _ring_tile_sprite(tile, highlight), x - box[0], y - box[1])
    return img


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x0: int, y: int, width: int) -> None:
    """Two legend lines from (x0, y): rabbits and effects; flavour symbols."""
    x = x0
    for seat in (0, 1):
        _shape(d, CLAN_SHAPE[seat], x + 8, y, 8, CLAN_FILL[seat])
        label = T("{colour} rabbit", colour=COLOUR_TEXT[seat])
        d.text((x + 22, y), label, font=font(15), fill=LIGHT_TEXT, anchor="lm")
        x += 22 + d.textlength(label, font=font(15)) + 20
    legend = T("+n: place up to n · ⇄: move 1 · badge: cost · (1): a choice, as on the buttons")
    d.text((x, y), legend, font=font(15), fill=DIM_TEXT, anchor="lm")
    x = x0
    y += 24
    for flavour, kind in FLAVOUR_SYMBOL.items():
        _symbol(d, kind, x + 8, y, 8, FLAVOUR_FILL[flavour], LIGHT_TEXT)
        d.text((x + 20, y), FLAVOUR_NAME[flavour], font=font(15), fill=LIGHT_TEXT, anchor="lm")
        x += 20 + d.textlength(FLAVOUR_NAME[flavour], font=font(15)) + 22


@cached_in_language(maxsize=32)
def _close_background(side: str, choose_rows: int, active: int = 0) -> Image.Image:
    """The close-up's static layer: night, the clan lines' frame (``active``: the seat to play) and shapes, the
    empty Moon, the cards area for ``choose_rows`` rows of tiles."""
    h = CLOSE_TOP + MOON_H + choose_rows * CARD_H + (8 if choose_rows else 0) + CLOSE_FOOT
    img = Image.new("RGB", (CLOSE_W, h), NIGHT)
    d = ImageDraw.Draw(img)
    d.ellipse((CLOSE_W / 2 - 300, CLOSE_TOP + MOON_H / 2 - 268, CLOSE_W / 2 + 300, CLOSE_TOP + MOON_H / 2 + 268),
              fill=NIGHT_DISC)
    moon = _moon_layer(side)
    img.paste(moon, (0, CLOSE_TOP), moon)
    for seat in (0, 1):
        y = 20 + 34 * seat
        if seat == active:
            d.rounded_rectangle((4, y - 15, CLOSE_W - 4, y + 15), radius=8, fill=(40, 52, 92), outline=YELLOW,
                                width=2)
        _shape(d, CLAN_SHAPE[seat], 20, y, 9, CLAN_FILL[seat])
    return img


@cached_in_language(maxsize=256)
def _card(tile: int, cost: int) -> Image.Image:
    """A tile's card in the close-up's choose panel (RGB, CARD_W x CARD_H, on the night sky): the token, its cost
    and its effects in words."""
    img = Image.new("RGB", (CARD_W, CARD_H), NIGHT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((3, 3, CARD_W - 3, CARD_H - 3), radius=10, fill=NIGHT_DISC, outline=NIGHT_LINE)
    _paste(img, _ring_tile_sprite(tile), CARD_TOKEN_X, CARD_H / 2)
    text(img, (CARD_TEXT_X, 24), T("cost {n}", n=cost), 17, fill=YELLOW, bold=True, anchor="lm")
    for k, effect in enumerate(_effects_words(TILES[tile].value)):
        text(img, (CARD_TEXT_X, 50 + 22 * k), effect, CLOSE_TEXT_PX, fill=LIGHT_TEXT, anchor="lm")
    return img


def _shape(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill) -> None:
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    else:
        d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=WHITE if fill != WHITE else INK, width=2)


@cached_in_language(maxsize=8)
def _rabbit(seat: int, r: int = RABBIT_R) -> Sprite:
    """A rabbit mark: white clan a white circle, purple clan a purple square, each with the initial of its colour
    in the image's language (:func:`rabbit_letter`: 'W' and 'P'; 白 and 紫 in Japanese)."""
    size = 2 * r + 6
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    _shape(d, CLAN_SHAPE[seat], c, c, r, CLAN_FILL[seat])
    d.text((c, c + 1), rabbit_letter(seat), font=font(int(r * 1.2), True), fill=INK if seat == 0 else WHITE, anchor="mm")
    return sprite(img)


def rabbit_letter(seat: int) -> str:
    """The letter on a rabbit of ``seat``: the first letter of its colour's name in the image's language, upper
    case (:data:`games.tsukimi.data.COLOUR_TEXT`: "W" white, "P" purple; 白, 紫 in Japanese), as the legend names it."""
    return str(words(COLOUR_TEXT[seat]))[:1].upper()


def _flavour_name(flavour: str) -> str:
    """A flavour's name as its tiles print it, in the image's language ("matcha"; 抹茶 in Japanese)."""
    return str(words(FLAVOUR_NAME[flavour]))


def _board_tile(tile: int, space: str) -> Image.Image:
    """A mochi tile as it lies on ``space`` (RGBA, cropped to the hex): a flavour-coloured hex with the space's
    name (so a placed tile never hides it), the flavour symbol and value, and the flavour's name."""
    t = TILES[tile]
    size = 2 * S
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    d.polygon(_hex(c, c, S * 0.80), fill=FLAVOUR_FILL[t.flavour], outline=INK, width=2)
    fg = FLAVOUR_TEXT[t.flavour]
    d.text((c, c - 27), space, font=font(SPACE_NAME_PX, True), fill=fg, anchor="mm")
    d.text((c + 6, c - 3), str(t.value), font=font(TILE_VALUE_PX, True), fill=fg, anchor="mm")
    _symbol(d, FLAVOUR_SYMBOL[t.flavour], c - 16, c - 3, 7, fg, None)
    d.text((c, c + 20), _flavour_name(t.flavour), font=font(11, True), fill=fg, anchor="mm")
    return img.crop(img.getbbox())


@cached_in_language(maxsize=512)
def _board_tile_sprite(tile: int, space: str) -> Sprite:
    """:func:`_board_tile` as a cached :class:`~renderers.common.Sprite` (18 tiles x 37 spaces at most)."""
    return sprite(_board_tile(tile, space))


def _gap() -> Image.Image:
    """The dashed ring left by a taken tile (TS-4: gaps stay)."""
    size = 2 * SLOT_R + 4
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    for k in range(12):
        d.arc((c - SLOT_R, c - SLOT_R, c + SLOT_R, c + SLOT_R), k * 30, k * 30 + 15, fill=NIGHT_LINE, width=2)
    return img


@lru_cache(maxsize=1)
def _gap_sprite() -> Sprite:
    return sprite(_gap())


@lru_cache(maxsize=64)
def _badge(cost: int, takeable: bool) -> Sprite:
    """A tile's cost badge: yellow when the player to act may take it now."""
    img = Image.new("RGBA", (36, 26), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, 35, 25), radius=8, fill=YELLOW if takeable else (60, 70, 100), outline=INK)
    d.text((18, 13), str(cost), font=font(16, True), fill=INK if takeable else LIGHT_TEXT, anchor="mm")
    return sprite(img)


def _token_name(tile: int) -> tuple[str, int, int]:
    """The flavour's name on a tile's token, in the image's language: (text, size px, centre's offset px below the
    token's centre); 11 px, 10 px for a name wider than :data:`TOKEN_NAME_W` at 11 px ("strawberry", ブルーベリー)."""
    name = _flavour_name(TILES[tile].flavour)
    return name, 11 if font(11, True).getlength(name) <= TOKEN_NAME_W else 10, -19


def token_name_box(tile: int, cx: float, cy: float) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom px) of the flavour's name on the token of ``tile`` centred on (cx, cy):
    what a marker beside the token must not cover."""
    name, size, dy = _token_name(tile)
    left, top, right, bottom = font(size, True).getbbox(name, anchor="mm")
    return round(cx + left), round(cy + dy + top), round(cx + right), round(cy + dy + bottom)


@cached_in_language(maxsize=64)
def _ring_tile(tile: int, highlight: bool = False) -> Image.Image:
    """A tile in the circle: a round token (the Temple dark red with its name); ``highlight``: a yellow ring
    around a tile the player may take now."""
    size = 2 * SLOT_R + 12
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    r = SLOT_R
    if highlight:
        d.ellipse((c - r - 5, c - r - 5, c + r + 5, c + r + 5), outline=YELLOW, width=3)
    if tile == TEMPLE:
        d.ellipse((c - r, c - r, c + r, c + r), fill=(150, 30, 30), outline=YELLOW, width=3)
        d.text((c, c), T("TEMPLE"), font=font(12, True), fill=WHITE, anchor="mm")
        return img
    t = TILES[tile]
    fg = FLAVOUR_TEXT[t.flavour]
    d.ellipse((c - r, c - r, c + r, c + r), fill=FLAVOUR_FILL[t.flavour], outline=INK, width=2)
    name, size, dy = _token_name(tile)
    d.text((c, c + dy), name, font=font(size, True), fill=fg, anchor="mm")
    d.text((c + 6, c + 1), str(t.value), font=font(22, True), fill=fg, anchor="mm")
    _symbol(d, FLAVOUR_SYMBOL[t.flavour], c - 12, c + 1, 6, fg, None)
    d.text((c, c + 22), _effects_text(t.value), font=font(12, True), fill=fg, anchor="mm")
    return img


@cached_in_language(maxsize=64)
def _ring_tile_sprite(tile: int, highlight: bool = False) -> Sprite:
    return sprite(_ring_tile(tile, highlight))


def _paste(img: Image.Image, spr: Sprite, cx: float, cy: float) -> None:
    """Paste ``spr`` centred on (cx, cy) px."""
    w, h = spr.size
    paste_sprite(img, spr, round(cx - w / 2), round(cy - h / 2))


def _double_ring(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A black-and-white double ring (no piece's colour): the rabbit being moved."""
    d.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), outline=BLACK, width=3)
    d.ellipse((x - r, y - r, x + r, y + r), outline=WHITE, width=3)


def _double_hex(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A black-and-white double outline around a space: the space being played."""
    d.polygon(_hex(cx, cy, S - 2), outline=BLACK, width=3)
    d.polygon(_hex(cx, cy, S - 5), outline=WHITE, width=3)


def _cross(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A white-edged black X over a rabbit that may be discarded."""
    for w, c in ((7, WHITE), (3, BLACK)):
        d.line((x - r, y - r, x + r, y + r), fill=c, width=w)
        d.line((x - r, y + r, x + r, y - r), fill=c, width=w)


# -- markers ---------------------------------------------------------------------------------------------------------


class Mark(NamedTuple):
    """An offered place's marker in an image: ``key`` (as on the buttons), ``locus``, centre (x, y) and radius
    ``r`` px; ``target`` (x, y) is the centre of the place itself (vertex, space, token or card)."""

    key: str
    locus: str
    x: float
    y: float
    r: float
    target: tuple[float, float]


def _offered(decision) -> list[tuple[str, str]]:
    """(key, locus) per distinct offered place of ``decision``, in key order."""
    if decision is None:
        return []
    keys = marker_keys(decision.options)
    out: dict[str, str] = {}
    for opt in decision.options:
        if opt.id in keys:
            out.setdefault(keys[opt.id], opt.locus)
    return list(out.items())


def _card_xy(index: int) -> tuple[int, int]:
    """Top-left of the ``index``-th tile card in the close-up's choose panel."""
    x = (CLOSE_W - CARDS_PER_ROW * CARD_W) // 2 + (index % CARDS_PER_ROW) * CARD_W
    return x, CLOSE_TOP + MOON_H + (index // CARDS_PER_ROW) * CARD_H


def marks(state: TsukimiState, full: bool = False) -> list[Mark]:
    """The markers :func:`draw` puts on the image of ``state`` (``full``: the whole board, else the close-up), one
    per distinct offered place, keyed as :func:`games.marker_keys` keys the options (pure; tests use it)."""
    decisions = rules.pending(state)
    decision = decisions[0] if decisions else None
    offered = _offered(decision)
    r = MARK_R_FULL if full else MARK_R_CLOSE
    ox, oy = (CX, CY) if full else (CLOSE_W / 2, CLOSE_TOP + MOON_H / 2)
    temple = state.circle.index(TEMPLE)
    out = []
    for i, (key, locus) in enumerate(offered):
        kind, _, arg = locus.partition(":")
        if kind == "vertex":
            tx, ty = _px(*VERTEX_XY[arg], ox, oy)
            if arg in state.rabbits:
                x, y = tx + RABBIT_MARK_OFFSET, ty - RABBIT_MARK_OFFSET
            else:
                x, y = tx, ty
        elif kind == "space":
            tx, ty = _px(*SPACE_XY[arg], ox, oy)
            x, y = tx, ty
        else:  # tile:<id>
            tile = int(arg)
            if full:
                tx, ty = _slot_xy(state.circle.index(tile), temple)
                a = math.atan2(ty - CY, tx - CX)
                x, y = CX + (RING_R - SLOT_R - r - 4) * math.cos(a), CY + (RING_R - SLOT_R - r - 4) * math.sin(a)
            else:
                cx0, cy0 = _card_xy(i)
                tx, ty = cx0 + CARD_TOKEN_X, cy0 + CARD_H / 2
                x, y = cx0 + 8 + r, cy0 + CARD_H / 2
        out.append(Mark(key, locus, x, y, r, (tx, ty)))
    return out


# -- drawing ---------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of Tsukimi boards (both sides of the Moon, whole boards and close-ups), from seeded
    sample games."""
    from games.tsukimi import GAME

    drawn = [0]

    def both(state):
        """Whole boards and close-ups in turn (the same colours; one image per sample keeps the sheet small)."""
        drawn[0] += 1
        return draw(state, full=drawn[0] % 2 == 0)

    return game_palette(GAME, both, (2,), options=({"side": "light"}, {"side": "dark"}))


def shows_whole(state: TsukimiState) -> bool:
    """Whether the decision's view of ``state`` is the whole board: once the game is over (no decision)."""
    return not rules.pending(state)


def render(state: TsukimiState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes of ``state``: the close-up of the current decision (CLOSE_W px wide), or with ``full`` (and once
    the game is over) the whole board (W x H). ``names`` maps player ids to display names (ids otherwise)."""
    return encode_png(draw(state, names, full), palette())


def draw(state: TsukimiState, names: dict[str, str] | None = None, full: bool = True) -> Image.Image:
    """The image (RGB) behind :func:`render`: the whole board (``full``, W x H) or the close-up."""
    decisions = rules.pending(state)
    decision = decisions[0] if decisions else None
    if not full and decision is not None:
        return _draw_close(state, names, decision)
    img = _background(state.side, None if state.phase == "over" else state.turn).copy()
    d = ImageDraw.Draw(img)
    option_ids = {o.id for o in decision.options} if decision else set()

    # -- the tile circle --------------------------------------------------------------------------------------
    temple = state.circle.index(TEMPLE)
    costs = rules.costs(state.circle)
    n = len(state.circle)
    for slot, tile in enumerate(state.circle):
        x, y = _slot_xy(slot, temple)
        takeable = f"tile:{tile}" in option_ids
        sprite = _slot_sprite((slot - temple) % n, tile, takeable)
        img.paste(sprite, (round(x) - SLOT_R - 6, round(y) - SLOT_R - 6))
        if tile is None or tile == TEMPLE:
            continue
        a = math.atan2(y - CY, x - CX)
        bx, by = CX + (RING_R + SLOT_R + 17) * math.cos(a), CY + (RING_R + SLOT_R + 17) * math.sin(a)
        _paste(img, _badge(costs[tile], takeable), bx, by)
    if state.phase == "place" and state.tile is not None:
        _in_hand(img, d, state.tile, 92, 200)

    _draw_moon(img, d, state, CX, CY, decision)
    for m in marks(state, full=True):
        _marker(img, m)
    _draw_header(state, img, d, names)
    _draw_footer(state, img, names, decision)
    return img


def _in_hand(img: Image.Image, d: ImageDraw.ImageDraw, tile: int, x: float, y: float) -> None:
    """The tile being placed, with its effects in words, centred on (x, y)."""
    text(img, (x, y - SLOT_R - 16), T("to place:"), 15, fill=LIGHT_TEXT, bold=True, anchor="mm")
    _paste(img, _ring_tile_sprite(tile), x, y)


def _draw_moon(img: Image.Image, d: ImageDraw.ImageDraw, state: TsukimiState, ox: float, oy: float,
               decision) -> None:
    """Tiles, the space being played, claims at the end, rabbits and the marks of the current decision (a
    double ring on the rabbit being moved, crosses on rabbits that may be discarded), Moon centred on (ox, oy)."""
    over = state.phase == "over"
    for sp, tile in state.board.items():
        cx, cy = _px(*SPACE_XY[sp], ox, oy)
        _paste(img, _board_tile_sprite(tile, sp), cx, cy)
    if state.space is not None and not over:
        _double_hex(d, *_px(*SPACE_XY[state.space], ox, oy))
    if over:
        _draw_claims(state, img, d, ox, oy)
    for v, seat in state.rabbits.items():
        x, y = _px(*VERTEX_XY[v], ox, oy)
        _paste(img, _rabbit(seat), x, y)
    if decision is not None:
        for opt in decision.options:
            if opt.id.startswith("discard:"):
                _cross(d, *_px(*VERTEX_XY[opt.id[8:]], ox, oy), RABBIT_R - 2)
    if state.phase == "move_to" and state.moving_from:
        _double_ring(d, *_px(*VERTEX_XY[state.moving_from], ox, oy), RABBIT_R + 4)


def _draw_claims(state: TsukimiState, img: Image.Image, d: ImageDraw.ImageDraw, ox: float, oy: float) -> None:
    """Game end: each tile's claim: the claimer's shape and the counts (white-purple), or 'tie' when discarded."""
    for sp, claim in rules.claims(state).items():
        cx, cy = _px(*SPACE_XY[sp], ox, oy)
        _paste(img, _claim_sprite(claim.winner, *claim.counts), cx, cy)


@cached_in_language(maxsize=256)
def _claim_sprite(winner: int | None, w: int, p: int) -> Sprite:
    """A claim as drawn over its tile (2S px square, centred): the claimer's outline and a badge with the shape
    and the counts (white-purple), or a dark outline and 'tie w-p' when the tile is discarded."""
    size = 2 * S
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx = cy = size / 2
    if winner is None:
        d.polygon(_hex(cx, cy, S * 0.80), outline=(40, 40, 40), width=5)
        label, fill, fg = T("tie {w}-{p}", w=str(w), p=str(p)), (70, 70, 70), WHITE
    else:
        d.polygon(_hex(cx, cy, S * 0.84), outline=CLAN_FILL[winner], width=6)
        label, fill, fg = f"{w}-{p}", CLAN_FILL[winner], INK if winner == 0 else WHITE
    bx, by = cx, cy + 25
    d.rounded_rectangle((bx - 30, by - 11, bx + 30, by + 11), radius=6, fill=fill, outline=INK)
    if winner is not None:
        _shape(d, CLAN_SHAPE[winner], bx - 19, by, 6, CLAN_FILL[winner])
        text(img, (bx + 7, by), label, 14, fill=fg, bold=True, anchor="mm")
    else:
        text(img, (bx, by), label, 13, fill=fg, bold=True, anchor="mm")
    return sprite(img)



def _marker(img: Image.Image, m) -> None:
    _paste(img, marker_sprite(m.key, m.r), m.x, m.y)


def _clan_line(state: TsukimiState, seat: int, names, limit: int) -> Text:
    st = rules.standings(state)
    on_board = sum(1 for s in state.rabbits.values() if s == seat)
    name = display_name(state.players[seat], names, limit)
    if state.phase == "over":
        return T("{player} ({colour}): {points} points · {tiles} tiles claimed · reserve {reserve}", player=name,
                 colour=COLOUR_TEXT[seat], points=st.points[seat], tiles=st.tiles[seat], reserve=state.reserve[seat])
    return T("{player} ({colour}): reserve {reserve} · board {board} · box {box} · {points} pts now", player=name,
             colour=COLOUR_TEXT[seat], reserve=state.reserve[seat], board=on_board, box=state.box[seat],
             points=st.points[seat])


def _draw_header(state: TsukimiState, img: Image.Image, d: ImageDraw.ImageDraw, names) -> None:
    st = rules.standings(state)
    header = T("Tsukimi · {side} side · {n}/18 mochi placed", side=SIDE_TEXT[state.side], n=len(state.board))
    text(img, (CX, 22), header, 22, fill=LIGHT_TEXT,
         bold=True, anchor="mm")
    on_board = [sum(1 for s in state.rabbits.values() if s == seat) for seat in (0, 1)]
    for seat in (0, 1):
        x0 = 24 if seat == 0 else W // 2 + 12
        y0 = 48
        active = state.phase != "over" and state.turn == seat
        name = display_name(state.players[seat], names, 18)
        title = (T("{player} ({colour})  ▶ to play", player=name, colour=COLOUR_TEXT[seat]) if active
                 else T("{player} ({colour})", player=name, colour=COLOUR_TEXT[seat]))
        text(img, (x0 + 44, y0 + 22), title, 18,
             fill=LIGHT_TEXT, bold=True, anchor="lm")
        if state.phase == "over":
            line = T("{points} points · {tiles} tiles claimed · reserve {reserve} · box {box}", points=st.points[seat],
                     tiles=st.tiles[seat], reserve=state.reserve[seat], box=state.box[seat])
        else:
            line = T("reserve {reserve} · board {board} · box {box} · {points} points now", reserve=state.reserve[seat],
                     board=on_board[seat], box=state.box[seat], points=st.points[seat])
        text(img, (x0 + 14, y0 + 52), line, 15, fill=LIGHT_TEXT, anchor="lm")


def end_lines(state: TsukimiState, names) -> tuple[Text, Text]:
    """The two lines of the end: each clan's points, claimed tiles and reserve, and the TS-8 rule that decided
    (points, then most tiles claimed, then most rabbits in reserve, else a shared win)."""
    st = rules.standings(state)
    a, b = (display_name(p, names, 14) for p in state.players)
    clans = [T("{player} {points} pts, {tiles} tiles, {reserve} in reserve", player=who, points=st.points[i],
               tiles=st.tiles[i], reserve=st.reserve[i]) for i, who in enumerate((a, b))]
    line1 = Text.join(" · ", clans)
    keys = [(st.points[i], st.tiles[i], st.reserve[i]) for i in (0, 1)]
    if keys[0] == keys[1]:
        return line1, T("A full tie on points, tiles and reserve: both clans share the win (TS-8).")
    win = (a, b)[0 if keys[0] > keys[1] else 1]
    if st.points[0] != st.points[1]:
        return line1, T("{player} wins on points.", player=win)
    if st.tiles[0] != st.tiles[1]:
        return line1, T("{player} wins on equal points, by more tiles claimed (TS-8).", player=win)
    return line1, T("{player} wins on equal points and tiles, by more rabbits in reserve (TS-8).", player=win)


def _draw_footer(state: TsukimiState, img: Image.Image, names, decision) -> None:
    y = H - 92
    if state.phase == "over":
        line1, line2 = end_lines(state, names)
        text(img, (CX, y - 8), T("Game over: {line}", line=line1), 17, fill=YELLOW, bold=True, anchor="mm")
        text(img, (CX, y + 18), line2, 19, fill=YELLOW, bold=True, anchor="mm")
        return
    text(img, (CX, y), _to_play(state, names, decision), 18, fill=YELLOW, bold=True, anchor="mm")


def _to_play(state: TsukimiState, names, decision) -> Text:
    who = display_name(state.players[state.turn], names, 14)
    colour = COLOUR_TEXT[state.turn]
    kind = decision.kind if decision else ""
    if decision is not None and any(o.id.startswith("discard:") for o in decision.options):
        return T("{player} ({colour}): discard a crossed rival rabbit (pick its key)", player=who, colour=colour)
    if kind == "choose_tile":
        what = T("takes a tile: pick its key (badge: cost)")
    elif kind == "place_tile":
        tile = tile_text(state.tile) if state.tile else T("the tile")
        what = T("places {tile}: pick a space's key", tile=tile)
    elif kind == "effects":
        what = T("places / moves rabbits: pick a key")
    elif kind == "move_to":
        what = T("moves the ringed rabbit: pick a key")
    else:
        what = ""
    return T("{player} ({colour}) {what}", player=who, colour=colour, what=what)


def _draw_close(state: TsukimiState, names, decision) -> Image.Image:
    """The close-up of ``decision``: clans, the Moon with markers, the tiles on offer, what to do."""
    offered = _offered(decision)
    choose = decision.kind == "choose_tile"
    rows = -(-len(offered) // CARDS_PER_ROW) if choose else 0
    img = _close_background(state.side, rows, state.turn).copy()
    d = ImageDraw.Draw(img)
    for seat in (0, 1):
        y = 20 + 34 * seat
        active = state.turn == seat
        text(img, (36, y), _clan_line(state, seat, names, 12), CLOSE_TEXT_PX + 1, fill=LIGHT_TEXT, bold=active,
             anchor="lm")
    oy = CLOSE_TOP + MOON_H / 2
    _draw_moon(img, d, state, CLOSE_W / 2, oy, decision)
    if state.phase == "place" and state.tile is not None:
        _in_hand(img, d, state.tile, 62, CLOSE_TOP + 70)
    mks = marks(state, full=False)
    if choose:
        costs = rules.costs(state.circle)
        for i, m in enumerate(mks):
            tile = int(m.locus[5:])
            img.paste(_card(tile, costs[tile]), _card_xy(i))
    for m in mks:
        _marker(img, m)
    y = img.height - CLOSE_FOOT + 22
    text(img, (CLOSE_W / 2, y), _to_play(state, names, decision), 17, fill=YELLOW, bold=True, anchor="mm")
    kinds = {o.id.partition(":")[0] for o in decision.options}
    parts = [w for k, w in (("place", T("empty corners: place")), ("move", T("your rabbits: move")),
                            ("discard", T("crossed rabbits: discard"))) if k in kinds]
    if decision.kind == "effects":
        hint = T("Keys on {parts}", parts=Text.join(" · ", parts)) if parts else ""
    elif decision.kind == "move_to":
        hint = T("Keys: empty corners the ringed rabbit may move to")
    elif decision.kind == "place_tile":
        hint = (T("Keys: spaces next to a placed tile (recruit n: rabbits from the box)") if state.side == "dark"
                else T("Keys: spaces next to a placed tile"))
    elif decision.kind == "choose_tile":
        hint = T("Cost: rabbits from reserve to box · place n: up to n rabbits")
    else:
        hint = ""
    text(img, (CLOSE_W / 2, y + 28), hint, CLOSE_TEXT_PX, fill=LIGHT_TEXT, anchor="mm")
    return img


def close_size(state: TsukimiState) -> tuple[int, int]:
    """(width, height) px of the close-up of ``state``'s decision."""
    decisions = rules.pending(state)
    if not decisions:
        return W, H
    rows = -(-len(_offered(decisions[0])) // CARDS_PER_ROW) if decisions[0].kind == "choose_tile" else 0
    return CLOSE_W, CLOSE_TOP + MOON_H + rows * CARD_H + (8 if rows else 0) + CLOSE_FOOT
