"""Forest of Tataraba board image: ``render(state, names=None) -> bytes`` (PNG).

The boards (numbered, tiles named ``k-n``), trees as shapes with letters (standing = adult, lying = young; Cedar
shows its "1"/"2" side), Evergreens and Beeches, Tataras (house) and Eidai Tataras (tall house with a flag), Player
pieces (each player's colour *and* shape), and a panel: every player's Sen, material, Foot markers and pieces left,
the shift cards revealed (this round's and earlier ones), the deck size and the Beeches left. The static part (boards,
tile names, legend, panel frames) is drawn once per layout and names and cached.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from games.core import N, T, Text, marker_keys
from games.tataraba import GAME, rules
from games.tataraba.board import BOARD_SIDE, CELLS, geometry, tile_index, tile_name
from games.tataraba.data import BEECHES, CEDARS, EIDAI_COST, OAKS, PINES, TATARA_COST, TREE_TEXT
from games.tataraba.state import TatarabaState
from renderers.common import (
    INK,
    PAPER,
    WHITE,
    Sprite,
    cached_in_language,
    centred_text,
    display_name,
    encode_png,
    font,
    game_palette,
    marker_sprite,
    paste_sprite,
    player_style,
    shape,
    sprite,
    text,
    text_mask,
    text_on,
    words,
)

WIDTH = 1000
MARGIN = 20
HEADER = 50
ROW_H = 58
CARDS_H = 92
LEGEND_H = 44
FLOOR = (226, 222, 190)
FLOOR_ALT = (214, 216, 182)
EVERGREEN_C = (38, 84, 66)
BEECH_C = (176, 146, 104)
TRUNK = (110, 80, 50)
TILE_NAME_INK = (62, 56, 46)
"""Tile names: 13 px bold at 8.9:1 on the lighter floor (8.3:1 on the darker), text needs >= 4.5:1."""
TILE_NAME_PX = 13
TAB_H = 20
"""Height (px) of the "Board k" tab inside each board's top-left corner (boards that touch are drawn touching)."""
GREW_FILL = (240, 228, 66)
ROW_FILL = (238, 232, 218)
"""A player's row in the panel."""
MARKER_R_FULL = 22
"""Marker radius (px) on the full board (1000 px wide): a two-digit key is 23 px, 9.2 px at 400 px wide."""
CLOSE_W = 600
"""Width (px) of the close-up that goes with a decision."""
MARKER_R_CLOSE = 16
"""Marker radius (px) in the close-up: a two-digit key is 17 px, 11.3 px at 400 px wide."""
CLOSE_TEXT_PX = 16
"""Smallest text (px) in the close-up (player's Sen / material / Foot, Foot costs): 10.7 px at 400 px wide."""


@lru_cache(maxsize=64)
def _tile_px(layout: str) -> int:
    geo = geometry(layout)
    return min(100, (WIDTH - 2 * MARGIN) // geo.cols)


def _map_h(layout: str) -> int:
    return geometry(layout).rows * _tile_px(layout)


def _xy(layout: str, x: int, y: int) -> tuple[int, int]:
    """Pixel corner of the tile at grid (x, y): boards that touch in the layout touch on the image."""
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    return ox + x * px, oy + y * px


@lru_cache(maxsize=64)
def _map_origin(layout: str) -> tuple[int, int]:
    geo = geometry(layout)
    px = _tile_px(layout)
    return (WIDTH - geo.cols * px) // 2, HEADER


@lru_cache(maxsize=64)
def _corners(layout: str) -> tuple[tuple[int, int], ...]:
    """Top-left corner (px, whole board) of every tile of ``layout``, by tile index."""
    geo = geometry(layout)
    return tuple(_xy(layout, *geo.xy[t]) for t in range(geo.n_tiles))


def _size(layout: str, n: int) -> tuple[int, int]:
    h = HEADER + _map_h(layout) + 14 + n * ROW_H + CARDS_H + LEGEND_H
    return WIDTH, h


# -- sprites -------------------------------------------------------------------------------------------------------


def _mix(c: tuple[int, int, int], w: float) -> tuple[int, int, int]:
    """``c`` lightened toward white by ``w`` (0..1)."""
    return tuple(int(v + (255 - v) * w) for v in c)  # type: ignore[return-value]


def _crisp(img: Image.Image, px: int) -> Image.Image:
    """Downsample a 2x sprite to ``px`` with hard edges (binary alpha, few colours): PNG encodes it fast."""
    img = img.resize((px, px), Image.Resampling.NEAREST)
    alpha = img.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    img.putalpha(alpha)
    return img


MARKS = {"R": T("R"), "O": T("O"), "C": T("C"), "B": T("B"), "E": T("E"), "T": T("T"), "ET": T("ET")}
"""The mark a tree or building carries (kind letter of :mod:`games.tataraba.data` -> its mark: the initial of
Red Pine, Oak, Cedar, Beech, Evergreen, Tatara, Eidai Tatara), as the legend names it; in Japanese the kanji or
kana of the name (松 楢 杉 橅 常, た 永)."""


def mark_of(kind: str) -> str:
    """The mark of tree or building ``kind`` (a key of :data:`MARKS`) in the image's language."""
    return str(words(MARKS[kind]))


@cached_in_language(maxsize=256)
def _tree_sprite(kind: str, stage: str, colour: tuple[int, int, int], mark: str, px: int) -> Image.Image:
    """An RGBA sprite of one tree, ``px`` square. Adults stand; young trees lie on their side (rotated), drawn
    lighter; the letter (and a Cedar's side number) stays upright. ``mark`` is the owner's shape ("" for none)."""
    big = px * 2  # draw at 2x, then downsample for smooth edges
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx = big // 2
    young = stage != "a"
    fill = _mix(colour, 0.35) if young else colour
    top, bottom = int(big * 0.12), int(big * 0.86)
    d.rectangle((cx - big * 0.05, bottom - big * 0.2, cx + big * 0.05, bottom), fill=TRUNK)
    canopy_bottom = bottom - int(big * 0.16)
    w = int(big * 0.36)
    if kind == "R":  # Red Pine: a broad triangle
        d.polygon(
            [(cx, top), (cx + w, canopy_bottom), (cx - w, canopy_bottom)], fill=fill, outline=INK, width=4
        )
    elif kind == "C":  # Cedar: a narrow, tall spire
        n = int(w * 0.6)
        d.polygon(
            [(cx, top - 4), (cx + n, canopy_bottom), (cx - n, canopy_bottom)], fill=fill, outline=INK, width=4
        )
    elif kind == "O":  # Oak: a round crown
        d.ellipse((cx - w, top + 6, cx + w, canopy_bottom + 4), fill=fill, outline=INK, width=4)
    elif kind == "B":  # Beech: a tall oval crown
        d.ellipse(
            (cx - int(w * 0.75), top - 4, cx + int(w * 0.75), canopy_bottom + 4),
            fill=fill,
            outline=INK,
            width=4,
        )
    else:  # Evergreen: three stacked tiers
        for i in range(3):
            y0 = top + i * int((canopy_bottom - top) / 3.2)
            ww = int(w * (0.55 + 0.22 * i))
            d.polygon(
                [(cx, y0), (cx + ww, y0 + int(big * 0.3)), (cx - ww, y0 + int(big * 0.3))],
                fill=fill,
                outline=INK,
                width=4,
            )
    if young:
        img = img.rotate(90, resample=Image.Resampling.NEAREST, center=(cx, cx))
    img = _crisp(img, px)
    d = ImageDraw.Draw(img)
    c = px // 2
    label = mark_of(kind)
    text_fill = WHITE if not young and sum(colour) < 420 else INK
    if young:
        ty = c
        tx = c - px * 0.02
        if kind == "C":
            label += "1" if stage == "y" else "2"
        centred_text(d, (tx, ty), label, font(max(11, px // 6), bold=True), fill=INK)
    else:
        centred_text(d, (c, int(px * 0.5)), label, font(max(11, px // 6), bold=True), fill=text_fill)
    if mark:
        shape(d, mark, px * 0.18, px * 0.82, px * 0.08, fill=colour, outline=INK, width=1)
    return img


@cached_in_language(maxsize=64)
def _building_sprite(eidai: bool, colour: tuple[int, int, int], mark: str, px: int) -> Image.Image:
    """A Tatara (a forge house with "T") or an Eidai Tatara (a taller house with a flag, "ET")."""
    big = px * 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    x0, x1 = int(big * 0.16), int(big * 0.84)
    base = int(big * 0.84)
    wall = int(big * (0.40 if eidai else 0.52))
    roof = int(big * (0.14 if eidai else 0.26))
    d.polygon(
        [(x0, base), (x1, base), (x1, wall), (big // 2, roof), (x0, wall)], fill=colour, outline=INK, width=5
    )
    if eidai:
        d.line((big // 2, roof, big // 2, int(big * 0.02)), fill=INK, width=5)
        d.polygon(
            [
                (big // 2, int(big * 0.02)),
                (big // 2 + int(big * 0.18), int(big * 0.06)),
                (big // 2, int(big * 0.11)),
            ],
            fill=(240, 228, 66),
            outline=INK,
            width=3,
        )
    img = _crisp(img, px)
    d = ImageDraw.Draw(img)
    text_fill = WHITE if sum(colour) < 420 else INK
    centred_text(
        d,
        (px // 2, int(px * 0.66)),
        mark_of("ET" if eidai else "T"),
        font(max(11, px // 5), bold=True),
        fill=text_fill,
    )
    shape(d, mark, px * 0.82, px * 0.18, px * 0.08, fill=colour, outline=INK, width=1)
    return img


# -- the static background ------------------------------------------------------------------------------------------


@cached_in_language(maxsize=32)
def _background(layout: str, players: tuple[str, ...], names: tuple[tuple[str, str], ...]) -> Image.Image:
    """Boards with tile names and board numbers, the panel frames with player marks and names, the legend."""
    n = len(players)
    w, h = _size(layout, n)
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    geo = geometry(layout)
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    for t in range(geo.n_tiles):
        x0, y0 = _xy(layout, *geo.xy[t])
        board = t // CELLS + 1
        fill = FLOOR if board % 2 else FLOOR_ALT
        box = (x0, y0, x0 + px - 1, y0 + px - 1)
        d.rectangle(box, fill=fill, outline=(170, 164, 130))
        # cell 1 holds the board's tab: its name goes right of the tab
        nx = box[0] + (_tab_w(board) + 3 if t % CELLS == 0 else 3)
        d.text((nx, box[1] + 3), tile_name(t), font=font(TILE_NAME_PX, bold=True), fill=TILE_NAME_INK)
    for k, (r, c) in geo.slots.items():
        bx, by = _xy(layout, c * BOARD_SIDE, r * BOARD_SIDE)
        d.rectangle((bx, by, bx + BOARD_SIDE * px - 1, by + BOARD_SIDE * px - 1), outline=INK, width=3)
        _tab(img, k, bx, by)
    names_d = dict(names)
    y = HEADER + _map_h(layout) + 14
    for i, p in enumerate(players):
        colour, mark = player_style(i)
        d.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + ROW_H - 6),
            radius=8,
            fill=ROW_FILL,
            outline=(200, 192, 176),
        )
        shape(d, mark, MARGIN + 24, y + (ROW_H - 6) // 2, 13, fill=colour, outline=INK, width=2)
        text(img, (MARGIN + 46, y + 6), display_name(p, names_d, 15), 17, bold=True)
        y += ROW_H
    for i in range(n):
        x, yy = MARGIN + 240, HEADER + _map_h(layout) + 14 + i * ROW_H
        d.text((x + 225, yy + 6), T("Foot"), font=font(16, bold=True), fill=INK)
        for k in range(4):
            cx, cy = x + 280 + k * 18, yy + 16
            d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=None, outline=INK, width=2)
    cy = _cards_y(layout, n)
    d.text((MARGIN, cy), T("Shift cards"), font=font(16, bold=True), fill=INK)
    d.text((MARGIN, cy + 22), T("revealed:"), font=font(16, bold=True), fill=INK)
    d.text((MARGIN + 110 + 48 * n + 200, cy), T("Revealed earlier:"), font=font(14), fill=TILE_NAME_INK)
    d.text((MARGIN, 12), T("Forest of Tataraba"), font=font(22, bold=True), fill=INK)
    ly = h - LEGEND_H + 4
    trees = Text.join("  ", [T("{mark} {tree}", mark=MARKS[k], tree=TREE_TEXT[k]) for k in "ROCBE"])
    legend = T("Standing = adult, lying = young (Cedar shows side 1/2).  {trees}.", trees=trees)
    legend2 = T(
        "{tatara} Tatara, {eidai} Eidai Tatara (flag).  Player pieces: the big shapes.  Tiles: board-cell "
        "(2-5 = centre of 2).  Keys: offered tiles.", tatara=MARKS["T"], eidai=MARKS["ET"]
    )
    d.text((MARGIN, ly), legend, font=font(13), fill=TILE_NAME_INK)
    d.text((MARGIN, ly + 18), legend2, font=font(13), fill=TILE_NAME_INK)
    return img


# -- render ------------------------------------------------------------------------------------------------------------


def _tile_box(layout: str, t: int) -> tuple[int, int, int]:
    geo = geometry(layout)
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    x, y = _xy(layout, *geo.xy[t])
    return x, y, px


def _tab_w(board: int) -> int:
    """Width (px) of the "Board k" tab."""
    return text_mask(T("Board {board}", board=board), 13, True, "lm")[0].width + 10


def _grew(state: TatarabaState) -> bool:
    """True when the revealed shift cards already ran their growth and shift (FT-6, at the end of the previous
    round, or of the last round when the game ended on the growth); False for the setup reveal, which only
    informs (FT-7)."""
    if state.phase == "over" and state.end not in ("", "eidai"):
        return True
    return state.round >= 2


def _growth_round(state: TatarabaState) -> int:
    """The round at whose end the shown cards were revealed (0: at setup)."""
    if not _grew(state):
        return 0
    return state.round if state.phase == "over" and state.end not in ("", "eidai") else state.round - 1


def _draw_pieces(img: Image.Image, state: TatarabaState, dx: int = 0, dy: int = 0) -> None:
    """Trees, buildings, Player pieces, the board tabs and "grew" pills, shifted by (dx, dy) px (a close-up draws
    onto a crop of the background)."""
    d = ImageDraw.Draw(img)
    layout = state.layout
    px = _tile_px(layout)
    geo = geometry(layout)
    corners = _corners(layout)
    w, h = img.size
    for t, code in enumerate(state.tiles):
        if not code:
            continue
        x, y = corners[t]
        x, y = x + dx, y + dy
        if x + px < 0 or y + px < 0 or x > w or y > h:
            continue
        img.paste(_tile_with_piece(layout, t, code), (x, y))
    for i, s in enumerate(state.seats):
        if s.pos < 0:
            continue
        x, y = corners[s.pos]
        paste_sprite(img, _player_piece(i, px), x + dx, y + dy)
    # board tabs (top-left) and "grew" pills (top-right): the boards whose card was revealed at the end of the
    # last round already grew and shifted (FT-6); the setup reveal only informs (FT-7) and gets no pill
    counts: dict[int, int] = {}
    if _grew(state):
        for c in state.shown:
            if c:
                counts[c] = counts.get(c, 0) + 1
    for k, (r, c) in geo.slots.items():
        hot = counts.get(k, 0)
        if hot:
            bx, by = _xy(layout, c * BOARD_SIDE, r * BOARD_SIDE)
            bx, by = bx + dx, by + dy
            label = T("grew ×{n}", n=hot) if hot > 1 else T("grew")
            tw = text_mask(label, 13, True, "rm")[0].width
            right = bx + BOARD_SIDE * px - 4
            d.rounded_rectangle((right - tw - 10, by + 3, right, by + TAB_H + 1), radius=5, fill=GREW_FILL,
                                outline=INK)
            _txt(img, (right - 5, by + TAB_H // 2 + 2), label, 13, bold=True, anchor="rm", bg=GREW_FILL)


def _tab(img: Image.Image, board: int, x: int, y: int) -> None:
    """The "Board k" tab with its top-left corner at (x, y)."""
    ImageDraw.Draw(img).rectangle((x, y, x + _tab_w(board), y + TAB_H), fill=INK)
    _txt(img, (x + 5, y + TAB_H // 2 + 1), T("Board {board}", board=board), 13, bold=True, fill=WHITE, anchor="lm")


@lru_cache(maxsize=32)
def _player_piece(seat: int, px: int) -> Sprite:
    """Seat ``seat``'s Player piece in the bottom-right corner of a tile ``px`` px square (a sprite of the tile's
    size): the seat's shape and colour, a white edge and a thin ink ring around it."""
    img = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour, mark = player_style(seat)
    r = px * 0.15
    shape(d, mark, px - r - 5, px - r - 5, r, fill=colour, outline=WHITE, width=3)
    shape(d, mark, px - r - 5, px - r - 5, r + 2, fill=None, outline=INK, width=1)
    return sprite(img)


@cached_in_language(maxsize=1024)
def _tile_with_piece(layout: str, t: int, code: str) -> Image.Image:
    """Tile ``t`` (its floor, outline and name) with the tree or building ``code`` on it, composed once (RGB): a
    render pastes it without a mask."""
    px = _tile_px(layout)
    x, y = _xy(layout, *geometry(layout).xy[t])
    img = _background(layout, (), ()).crop((x, y, x + px, y + px))
    owner = int(code[2]) if code[2] != "-" else None
    if code[0] in "TX":
        colour, mark = player_style(owner)
        sprite = _building_sprite(code[0] == "X", colour, mark, px)
    else:
        if owner is None:
            colour, mark = (EVERGREEN_C if code[0] == "E" else BEECH_C), ""
        else:
            colour, mark = player_style(owner)
        sprite = _tree_sprite(code[0], code[1], colour, mark, px)
    img.paste(sprite, (0, 0), sprite)
    if t % CELLS == 0:  # the board's tab lies over its first cell
        _tab(img, t // CELLS + 1, 0, 0)
    return img



def _marker(img: Image.Image, m: Mark) -> None:
    spr = marker_sprite(m.key, m.r)
    paste_sprite(img, spr, round(m.x - spr.width / 2), round(m.y - spr.height / 2))


def _decision(state: TatarabaState):
    pending = GAME.pending(state)
    return pending[0] if pending else None


def _offered(state: TatarabaState, decision) -> list[tuple[str, int]]:
    """(marker key, tile) for each distinct offered tile of ``decision``, in key order."""
    if decision is None:
        return []
    keys = marker_keys(decision.options)
    out: dict[str, int] = {}
    for opt in decision.options:
        if opt.locus and opt.locus.startswith("tile:") and opt.id in keys:
            out.setdefault(keys[opt.id], tile_index(opt.locus[5:]))
    return list(out.items())


def _occupied(state: TatarabaState, t: int) -> bool:
    return bool(state.tiles[t]) or any(s.pos == t for s in state.seats)


def _marker_xy(state: TatarabaState, t: int, r: float) -> tuple[float, float]:
    """Where the marker of tile ``t`` goes on the full board: the centre of an open tile; on a tree or building,
    the middle of the tile's right edge (the tree's letter and the owner's mark stay visible)."""
    x, y, px = _tile_box(state.layout, t)
    if _occupied(state, t):
        return x + px - r - 3, y + px / 2
    return x + px / 2, y + px / 2


class Mark(NamedTuple):
    """An offered tile's marker in an image: ``key`` (as on the buttons), ``tile`` index, centre (x, y) px and
    radius ``r`` px."""

    key: str
    tile: int
    x: float
    y: float
    r: float


class View(NamedTuple):
    """Where things go in the image :func:`render` draws: ``size`` (w, h) px, ``marks`` of the offered tiles,
    ``box``: the area of the full board shown (x0, y0, x1, y1, px of the full board), ``scale`` from full-board px
    to image px, ``origin`` (x, y) of that area in the image, ``min_text_px``: the smallest marker key or number
    a choice depends on (px in this image)."""

    size: tuple[int, int]
    marks: list[Mark]
    box: tuple[int, int, int, int]
    scale: float
    origin: tuple[int, int]
    min_text_px: int


CLOSE_TOP = 44
CLOSE_INFO = 96


def _close_box(state: TatarabaState, offered: list[tuple[str, int]]) -> tuple[int, int, int, int]:
    """The area of the full board a close-up shows (px): the offered tiles, else the acting player's neighbours,
    with one tile around, clipped to the forest."""
    geo = geometry(state.layout)
    tiles = [t for _, t in offered]
    if not tiles:
        pos = state.seats[state.turn].pos if state.phase != "over" else -1
        tiles = [pos] if pos >= 0 else list(range(geo.n_tiles))
    xs = [geo.xy[t][0] for t in tiles]
    ys = [geo.xy[t][1] for t in tiles]
    gx0, gx1 = max(0, min(xs) - 1), min(geo.cols - 1, max(xs) + 1)
    gy0, gy1 = max(0, min(ys) - 1), min(geo.rows - 1, max(ys) + 1)
    px = _tile_px(state.layout)
    x0, y0 = _xy(state.layout, gx0, gy0)
    x1, y1 = _xy(state.layout, gx1, gy1)
    return x0, y0, x1 + px, y1 + px


def view(state: TatarabaState, full: bool = False) -> View:
    """The :class:`View` of ``render(state, full=full)`` (pure; tests check markers and text sizes with it).

    The close-up shows the forest at the whole board's scale (no resampling): CLOSE_W px wide, or as wide as the
    area needs (up to WIDTH) with its markers and texts grown in proportion, so they stay >= 9 px at 400 px."""
    decision = _decision(state)
    offered = _offered(state, decision)
    if full or decision is None:
        w, h = _size(state.layout, len(state.players))
        r = MARKER_R_FULL
        marks = [Mark(k, t, *_marker_xy(state, t, r), r) for k, t in offered]
        two = any(len(k) > 1 for k, _ in offered)
        key_px = round(r * (1.05 if two else 1.3))
        return View((w, h), marks, (0, 0, w, h), 1.0, (0, 0), key_px)
    box = _close_box(state, offered)
    bw, bh = box[2] - box[0], box[3] - box[1]
    cw = max(CLOSE_W, bw + 16)
    grow = cw / CLOSE_W
    ox, oy = (cw - bw) // 2, round(CLOSE_TOP * grow)
    r = math.ceil(MARKER_R_CLOSE * grow)
    marks = []
    for k, t in offered:
        x, y = _marker_xy(state, t, r)
        marks.append(Mark(k, t, ox + x - box[0], oy + y - box[1], r))
    two = any(len(k) > 1 for k, _ in offered)
    text_px = math.ceil(CLOSE_TEXT_PX * grow)
    key_px = round(r * (1.05 if two else 1.3)) if offered else text_px
    return View((cw, oy + bh + math.ceil(CLOSE_INFO * grow)), marks, box, 1.0, (ox, oy), min(key_px, text_px))


def draw(state: TatarabaState, names: dict[str, str] | None = None, full: bool = True) -> Image.Image:
    """The board image (RGB) behind :func:`render`: the whole board (``full``, WIDTH px wide) or the close-up of
    the current decision (CLOSE_W px wide); offered tiles carry their marker keys."""
    names = names or {}
    decision = _decision(state)
    if not full and decision is not None:
        return _draw_close(state, names, decision)
    key = tuple(sorted((p, names[p]) for p in state.players if p in names))
    img = _background(state.layout, tuple(state.players), key).copy()
    d = ImageDraw.Draw(img)
    _draw_pieces(img, state)
    for m in view(state, True).marks:
        _marker(img, m)
    _header(img, state, names)
    _panel(img, d, state)
    if state.phase == "over":
        _end_panel(img, d, state, names)
    else:
        _cards(img, d, state)
    return img


def _draw_close(state: TatarabaState, names: dict[str, str], decision) -> Image.Image:
    """The close-up: a title line, the forest around the offered tiles (or the acting player's piece) with large
    markers (and each move's Foot markers), and the acting player's Sen, material, Foot markers and supply."""
    v = view(state, False)
    grow = v.size[0] / CLOSE_W
    tp = math.ceil(CLOSE_TEXT_PX * grow)
    img = Image.new("RGB", v.size, PAPER)
    d = ImageDraw.Draw(img)
    x0, y0 = v.box[0], v.box[1]
    area = _background(state.layout, tuple(state.players), ()).crop(v.box)
    _draw_pieces(area, state, -x0, -y0)
    img.paste(area, v.origin)
    d.rectangle((v.origin[0] - 1, v.origin[1] - 1, v.origin[0] + area.width, v.origin[1] + area.height),
                outline=INK, width=2)
    costs = rules.destinations(state, state.turn) if decision.kind == "move" else {}
    for m in v.marks:
        _marker(img, m)
        c = costs.get(m.tile, 0)
        if c:
            label = T("{n} Foot", n=c)
            tw = text_mask(label, tp, True, "mm")[0].width
            ty = m.y + m.r + tp * 0.7
            d.rounded_rectangle((m.x - tw / 2 - 4, ty - tp * 0.62, m.x + tw / 2 + 4, ty + tp * 0.62), radius=5,
                                fill=WHITE, outline=INK)
            _txt(img, (m.x, ty), label, tp, bold=True, anchor="mm", bg=WHITE)
    _txt(img, (12, v.origin[1] // 2), _headline(state, names), math.ceil(18 * grow), bold=True, anchor="lm",
         bg=PAPER)
    seat = state.turn
    me = state.seats[seat]
    colour, mark = player_style(seat)
    y = v.origin[1] + area.height + round(10 * grow)
    line = round(24 * grow)
    shape(d, mark, 24, y + line // 2, 11 * grow, fill=colour, outline=INK, width=2)
    who = display_name(state.players[seat], names, 14)
    _txt(img, (24 + 18 * grow, y + line // 2), T("{player}: Sen {sen} · material {mat} · Foot {foot}/4", player=who, sen=me.sen,
                                                      mat=me.mat, foot=me.foot),
         tp + 1, bold=True, anchor="lm", bg=PAPER)
    _txt(img, (12, y + line * 3 // 2 + 4), _close_hint(state, decision), tp, anchor="lm", bg=PAPER)
    left = T("Left: Red Pine {pine}/{pines} · Oak {oak}/{oaks} · Cedar {cedar}/{cedars} · Tatara {tatara}",
             pine=me.pine, pines=PINES, oak=me.oak, oaks=OAKS, cedar=me.cedar, cedars=CEDARS, tatara=me.tatara)
    _txt(img, (12, y + line * 5 // 2 + 6), left, tp, fill=TILE_NAME_INK, anchor="lm", bg=PAPER)
    return img


def _close_hint(state: TatarabaState, decision) -> str:
    """One line saying what the close-up asks for."""
    kind = decision.kind
    if kind == "place":
        return T("Pick the marked tile for your first Tatara (same key on the buttons).")
    if kind == "move":
        return T("Move your piece to a marked tile (Foot markers it costs under the key).")
    if kind == "plant":
        return T("Plant a Red Pine or Cedar on a marked tile.")
    if kind == "log":
        return T("Log a marked tree: the buttons say Sen or material.")
    if kind == "build":
        if state.phase == "tatara":
            return T("Build your Tatara on a marked tile.")
        return T("Build your Eidai Tatara on a marked tile.")
    if kind == "action":
        return T("Choose an action: plant, log, or take a Foot marker.")
    if kind == "special":
        return T("Tatara {sen} Sen + {mat} material; Eidai {esen} Sen + {emat} material; or end.", sen=TATARA_COST[0],
                 mat=TATARA_COST[1], esen=EIDAI_COST[0], emat=EIDAI_COST[1])
    return decision.prompt[:70]


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of these boards (full boards and close-ups), from seeded sample games."""
    from games.tataraba import GAME

    drawn = [0]

    def both(state):
        """Whole boards and close-ups in turn (the same colours; one image per sample keeps the sheet small)."""
        drawn[0] += 1
        return draw(state, full=drawn[0] % 2 == 0)

    return game_palette(GAME, both, (2, 3, 4))


def shows_whole(state: TatarabaState) -> bool:
    """Whether the decision's view of ``state`` is the whole board: once the game is over (no decision)."""
    return _decision(state) is None


def render(state: TatarabaState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of ``state``: with ``full`` the whole board (WIDTH px wide), else the close-up
    of the current decision (CLOSE_W px wide; the whole board once the game is over). ``names`` maps player ids
    to display names."""
    return encode_png(draw(state, names, full), palette())


def _headline(state: TatarabaState, names: dict[str, str]) -> str:
    who = display_name(state.players[state.turn], names, 14)
    if state.phase == "over":
        return T("Game over")
    if state.phase == "place":
        return T("Setup: {player} places a first Tatara", player=who)
    if state.phase == "action":
        step = T("action {n} of {total}", n=state.actions_per_turn - state.actions + 1, total=state.actions_per_turn)
    else:
        step = {
            "move": T("moves"),
            "plant": T("plants"),
            "log": T("logs"),
            "special": T("special action or end"),
            "tatara": T("builds a Tatara"),
            "eidai": T("builds the Eidai Tatara"),
        }[state.phase]
    return T("Round {round}: {player} to play ({step})", round=state.round, player=who, step=step)


HEADER_ROOM = WIDTH - MARGIN - (MARGIN + 250)
"""Width (px) of the header line right of the title."""


def header_line(state: TatarabaState, names: dict[str, str] | None) -> Text:
    """The header's line: whose turn and what they do, or at the end who won ("Game over: alice won.": short
    enough for :data:`HEADER_ROOM` at 18 px whatever the language; the end panel below tells the reason and every
    score whole)."""
    if state.phase == "over":
        res = GAME.result(state)
        winners = [display_name(p, names, 18) for p in res.winners] if res else []
        return T("Game over: {players} won.", players=Text.join(rules.COMMA, winners)) if winners else T("Game over")
    return _headline(state, {p: display_name(p, names, 18) for p in state.players})


def _header(img: Image.Image, state: TatarabaState, names: dict[str, str]) -> None:
    _txt(img, (MARGIN + 250, 15), fit_line(header_line(state, names), 18, HEADER_ROOM), 18, bg=PAPER)


def fit_line(line: str, size: int, room: float, bold: bool = False) -> str:
    """``line`` in the image's language, cut with "…" to at most ``room`` px at ``size`` px (the end header's
    reason with every score would run off the board; the end panel below tells it whole)."""
    said, fnt = str(words(line)), font(size, bold)
    if fnt.getlength(said) <= room:
        return said
    while said and fnt.getlength(said + "…") > room:
        said = said[:-1]
    return said.rstrip() + "…"


def end_lines(end: str, round_: int | str, limit: int | str) -> tuple[Text, Text]:
    """The two lines the end board shows for end reason ``end`` (``state.end``) after round ``round_`` with the
    round limit ``limit`` (rulebook "End of the Game", FT-8, FT-9)."""
    if end == "eidai":
        return (T("Game over: an Eidai Tatara stands at the end of round {round}.", round=round_),
                T("Eidai builders first, then most Sen, then most material."))
    if end == "beech":
        return (T("Game over: the Beeches ran out in the growth after round {round}.", round=round_),
                T("Most Sen wins, then most building material."))
    if end == "exhausted":
        return (T("Game over: safety stop (FT-9): the forest is exhausted in round {round}.", round=round_),
                T("No one could ever build an Eidai Tatara or take a Beech: scored like the Beech ending."))
    if end == "limit":
        return (T("Game over: safety stop (FT-9): the round limit ({limit} rounds) is reached.", limit=limit),
                T("Scored like the Beech ending: most Sen wins, then most building material."))
    return T("Game over."), Text.join("", [])


END_TEXT = {end: end_lines(end, "{round}", "{limit}") for end in ("eidai", "beech", "exhausted", "limit")}
"""End reason (``state.end``) -> the two lines the end board shows, as templates (:func:`end_lines`)."""


def _end_panel(img: Image.Image, d: ImageDraw.ImageDraw, state: TatarabaState, names: dict[str, str]) -> None:
    """The end board: why the game ended (both FT-9 safety stops named) and the final ranking, in place of the
    shift cards."""
    y = _cards_y(state.layout, len(state.players)) - 4
    d.rectangle((MARGIN - 2, y - 2, WIDTH - MARGIN + 2, y + CARDS_H - 4), fill=PAPER)
    head, how = end_lines(state.end, state.round, state.round_limit)
    _txt(img, (MARGIN, y), head, 17, bold=True, bg=PAPER)
    _txt(img, (MARGIN, y + 23), how, 15, bg=PAPER)
    parts = []
    for place, group in enumerate(rules.ranking(state), start=1):
        for i in group:
            s = state.seats[i]
            who = display_name(state.players[i], names, 14)
            if s.eidai == 0:
                parts.append(T("{rank}. {player} {sen} Sen {mat} mat, Eidai", rank=place, player=who, sen=s.sen,
                               mat=s.mat))
            else:
                parts.append(T("{rank}. {player} {sen} Sen {mat} mat", rank=place, player=who, sen=s.sen, mat=s.mat))
    _txt(img, (MARGIN, y + 48), Text.join("   ", parts), 16, bold=True, bg=PAPER)


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, state: TatarabaState) -> None:
    y = HEADER + _map_h(state.layout) + 14
    for i, s in enumerate(state.seats):
        tags = []
        if i == state.start and state.phase != "over":
            tags.append(T("start"))
        if i == state.turn and state.phase != "over":
            tags.append(T("to play"))
        if s.eidai == 0:
            tags.append(T("Eidai built"))
        if tags:
            _txt(img, (MARGIN + 46, y + 30), Text.join(rules.COMMA, tags), 13, bold=True, fill=TILE_NAME_INK, bg=ROW_FILL)
        x = MARGIN + 240
        _txt(img, (x, y + 6), T("Sen {n}", n=s.sen), 16, bold=True, bg=ROW_FILL)
        _txt(img, (x + 90, y + 6), T("Material {n}", n=s.mat), 16, bold=True, bg=ROW_FILL)
        for k in range(s.foot):
            cx, cy = x + 280 + k * 18, y + 16
            d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=INK)
        _txt(img, (x + 360, y + 6), f"({s.foot}/4)", 16, fill=TILE_NAME_INK, bg=ROW_FILL)
        left = T("Left: Red Pine {pine}/{pines}  Oak {oak}/{oaks}  Cedar {cedar}/{cedars}  Tatara {tatara}  Eidai {eidai}",
                 pine=s.pine, pines=PINES, oak=s.oak, oaks=OAKS, cedar=s.cedar, cedars=CEDARS, tatara=s.tatara,
                 eidai=s.eidai)
        _txt(img, (x, y + 30), left, 14, bg=ROW_FILL)
        y += ROW_H


def _cards_y(layout: str, n: int) -> int:
    return HEADER + _map_h(layout) + 14 + n * ROW_H + 4


def _cards(img: Image.Image, d: ImageDraw.ImageDraw, state: TatarabaState) -> None:
    y = _cards_y(state.layout, len(state.players))
    x = MARGIN + 110
    for c in state.shown:
        d.rounded_rectangle((x, y - 4, x + 40, y + 50), radius=6, fill=WHITE, outline=INK, width=3)
        _txt(img, (x + 20, y + 23), str(c), 26, bold=True, anchor="mm", bg=WHITE)
        x += 48
    _txt(img, (x + 14, y), T("Deck: {cards}", cards=N("{n} card", "{n} cards", n=len(state.deck))), 16, bold=True,
         bg=PAPER)
    _txt(img, (x + 14, y + 24), T("Beech left: {left}/{all}", left=state.beech, all=BEECHES), 16, bg=PAPER)
    earlier = " ".join(str(c) for c in state.used) or T("none")
    _txt(img, (x + 200, y + 22), earlier, 16, bold=True, fill=TILE_NAME_INK, bg=PAPER)
    when = _growth_round(state)
    note = (
        T("Revealed at the end of round {round}: those boards already grew and shifted (FT-6).", round=when)
        if when
        else T("Revealed at setup: they only inform, nothing grew (FT-7).")
    )
    _txt(img, (MARGIN, y + 56), note, 14, fill=TILE_NAME_INK, bg=PAPER)


def _txt(
    img: Image.Image, xy, line: str, size: int, bold: bool = False, fill=INK, anchor: str = "la", bg=None
) -> None:
    """Write ``line`` at ``xy`` (Pillow anchor) through :func:`renderers.common.text` (cached glyph masks, the
    shared font fallback); with ``bg``, the plain colour under the whole line, through the faster
    :func:`renderers.common.text_on`."""
    if bg is None:
        text(img, xy, line, size, fill=fill, bold=bold, anchor=anchor)
    else:
        text_on(img, xy, line, size, bg, fill=fill, bold=bold, anchor=anchor)
