"""Forest of Tataraba board image: ``render(state, names=None) -> bytes`` (PNG).

The boards (numbered, tiles named ``k-n``), trees as shapes with letters (standing = adult, lying = young; Cedar
shows its "1"/"2" side), Evergreens and Beeches, Tataras (house) and Eidai Tataras (tall house with a flag), Player
pieces (each player's colour *and* shape), and a panel: every player's Sen, material, Foot markers and pieces left,
the shift cards revealed (this round's and earlier ones), the deck size and the Beeches left. The static part (boards,
tile names, legend, panel frames) is drawn once per layout and names and cached.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import format_text
from games.tataraba import GAME
from games.tataraba.board import BOARD_SIDE, CELLS, geometry, tile_name
from games.tataraba.data import BEECHES, CEDARS, OAKS, PINES
from games.tataraba.state import TatarabaState
from renderers.common import (
    INK,
    MUTED,
    PAPER,
    WHITE,
    centred_text,
    display_name,
    encode_png,
    font,
    game_palette,
    player_style,
    shape,
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


BAR = 24
"""Height (px) of each board's title bar (board number, shift badge)."""


def _tile_px(layout: str) -> int:
    geo = geometry(layout)
    return min(100, (WIDTH - 2 * MARGIN) // geo.cols)


def _map_h(layout: str) -> int:
    geo = geometry(layout)
    return geo.rows * _tile_px(layout) + (geo.rows // BOARD_SIDE) * BAR


def _xy(layout: str, x: int, y: int) -> tuple[int, int]:
    """Pixel corner of the tile at grid (x, y): boards carry a title bar above their tiles."""
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    return ox + x * px, oy + y * px + (y // BOARD_SIDE + 1) * BAR


def _map_origin(layout: str) -> tuple[int, int]:
    geo = geometry(layout)
    px = _tile_px(layout)
    return (WIDTH - geo.cols * px) // 2, HEADER


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


@lru_cache(maxsize=256)
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
    label = {"R": "R", "O": "O", "C": "C", "B": "B", "E": "E"}[kind]
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


@lru_cache(maxsize=64)
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
        "ET" if eidai else "T",
        font(max(11, px // 5), bold=True),
        fill=text_fill,
    )
    shape(d, mark, px * 0.82, px * 0.18, px * 0.08, fill=colour, outline=INK, width=1)
    return img


# -- the static background ------------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _background(layout: str, players: tuple[str, ...], names: tuple[tuple[str, str], ...]) -> Image.Image:
    """Boards with tile names and board numbers, the panel frames with player marks and names, the legend."""
    n = len(players)
    w, h = _size(layout, n)
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    geo = geometry(layout)
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    small = font(max(9, px // 9))
    for t in range(geo.n_tiles):
        x0, y0 = _xy(layout, *geo.xy[t])
        board = t // CELLS + 1
        fill = FLOOR if board % 2 else FLOOR_ALT
        box = (x0, y0, x0 + px - 1, y0 + px - 1)
        d.rectangle(box, fill=fill, outline=(170, 164, 130))
        d.text((box[0] + 3, box[1] + 2), tile_name(t), font=small, fill=MUTED)
    for k, (r, c) in geo.slots.items():
        bx, by = _xy(layout, c * BOARD_SIDE, r * BOARD_SIDE)
        d.rectangle((bx, by - BAR, bx + BOARD_SIDE * px - 1, by - 1), fill=INK)
        d.text((bx + 8, by - BAR // 2), f"Board {k}", font=font(15, bold=True), fill=WHITE, anchor="lm")
        d.rectangle((bx, by - BAR, bx + BOARD_SIDE * px - 1, by + BOARD_SIDE * px - 1), outline=INK, width=3)
    names_d = dict(names)
    y = HEADER + _map_h(layout) + 14
    for i, p in enumerate(players):
        colour, mark = player_style(i)
        d.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + ROW_H - 6),
            radius=8,
            fill=(238, 232, 218),
            outline=(200, 192, 176),
        )
        shape(d, mark, MARGIN + 24, y + (ROW_H - 6) // 2, 13, fill=colour, outline=INK, width=2)
        d.text((MARGIN + 46, y + 6), display_name(p, names_d, 15), font=font(17, bold=True), fill=INK)
        y += ROW_H
    for i in range(n):
        x, yy = MARGIN + 240, HEADER + _map_h(layout) + 14 + i * ROW_H
        d.text((x + 225, yy + 6), "Foot", font=font(16, bold=True), fill=INK)
        for k in range(4):
            cx, cy = x + 280 + k * 18, yy + 16
            d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=None, outline=INK, width=2)
    cy = _cards_y(layout, n)
    d.text((MARGIN, cy), "Shift cards", font=font(16, bold=True), fill=INK)
    d.text((MARGIN, cy + 22), "revealed:", font=font(16, bold=True), fill=INK)
    d.text((MARGIN + 110 + 48 * n + 200, cy), "Revealed earlier:", font=font(14), fill=MUTED)
    d.text((MARGIN, 12), "Forest of Tataraba", font=font(22, bold=True), fill=INK)
    ly = h - LEGEND_H + 4
    legend = (
        "Standing = adult, lying = young (Cedar shows side 1/2).  R Red Pine  O Oak  C Cedar  B Beech  "
        "E Evergreen."
    )
    legend2 = "T Tatara, ET Eidai Tatara (flag).  Player pieces: the big shapes.  Tiles: board-cell (2-5 = centre of 2)."
    d.text((MARGIN, ly), legend, font=font(13), fill=MUTED)
    d.text((MARGIN, ly + 18), legend2, font=font(13), fill=MUTED)
    return img


# -- render ------------------------------------------------------------------------------------------------------------


def _tile_box(layout: str, t: int) -> tuple[int, int, int]:
    geo = geometry(layout)
    px = _tile_px(layout)
    ox, oy = _map_origin(layout)
    x, y = _xy(layout, *geo.xy[t])
    return x, y, px


def draw(state: TatarabaState, names: dict[str, str] | None = None) -> Image.Image:
    """PNG bytes of ``state``; ``names`` maps player ids to display names (ids are shown otherwise)."""
    names = names or {}
    key = tuple(sorted((p, names[p]) for p in state.players if p in names))
    img = _background(state.layout, tuple(state.players), key).copy()
    d = ImageDraw.Draw(img)
    px = _tile_px(state.layout)
    styles = [player_style(i) for i in range(len(state.players))]
    geo = geometry(state.layout)
    ox, oy = _map_origin(state.layout)
    # boards shifting this round: a badge with the card count
    counts: dict[int, int] = {}
    for c in state.shown:
        if c:
            counts[c] = counts.get(c, 0) + 1
    for k, (r, c) in geo.slots.items():
        hot = counts.get(k, 0)
        if not hot:
            continue
        bx, by = _xy(state.layout, c * BOARD_SIDE, r * BOARD_SIDE)
        label = f"shift x{hot}" if hot > 1 else "shift"
        tw = _mask(label, 13, True, "rm")[0].width
        right = bx + BOARD_SIDE * px - 6
        d.rounded_rectangle((right - tw - 12, by - BAR + 3, right, by - 4), radius=5, fill=(240, 228, 66))
        _txt(img, (right - 6, by - BAR // 2), label, 13, bold=True, anchor="rm")
    # pieces on tiles
    for t, code in enumerate(state.tiles):
        if not code:
            continue
        x, y, _ = _tile_box(state.layout, t)
        owner = int(code[2]) if code[2] != "-" else None
        if code[0] in "TX":
            colour, mark = styles[owner]
            sprite = _building_sprite(code[0] == "X", colour, mark, px)
        else:
            if owner is None:
                colour, mark = (EVERGREEN_C if code[0] == "E" else BEECH_C), ""
            else:
                colour, mark = styles[owner]
            sprite = _tree_sprite(code[0], code[1], colour, mark, px)
        img.paste(sprite, (x, y), sprite)
    for i, s in enumerate(state.seats):
        if s.pos < 0:
            continue
        x, y, _ = _tile_box(state.layout, s.pos)
        colour, mark = styles[i]
        r = px * 0.15
        shape(d, mark, x + px - r - 5, y + px - r - 5, r, fill=colour, outline=WHITE, width=3)
        shape(d, mark, x + px - r - 5, y + px - r - 5, r + 2, fill=None, outline=INK, width=1)
    _header(img, state, names)
    _panel(img, d, state)
    _cards(img, d, state)
    return img


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of these boards, from seeded sample games."""
    from games.tataraba import GAME

    return game_palette(GAME, draw, (2, 3, 4))


def render(state: TatarabaState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of the board of ``state``; ``names`` maps player ids to display names."""
    return encode_png(draw(state, names), palette())


def _header(img: Image.Image, state: TatarabaState, names: dict[str, str]) -> None:
    who = display_name(state.players[state.turn], names, 18)
    if state.phase == "over":
        res = GAME.result(state)
        text = (
            "Game over: " + format_text(res.reason, lambda p: display_name(p, names, 18))
            if res
            else "Game over"
        )
    elif state.phase == "place":
        text = f"Setup: {who} places a first Tatara"
    else:
        step = {
            "move": "moves",
            "action": f"action {state.actions_per_turn - state.actions + 1} of {state.actions_per_turn}",
            "plant": "plants",
            "log": "logs",
            "special": "special action or end",
            "tatara": "builds a Tatara",
            "eidai": "builds the Eidai Tatara",
        }[state.phase]
        text = f"Round {state.round}: {who} to play ({step})"
    _txt(img, (MARGIN + 250, 15), text, 18)


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, state: TatarabaState) -> None:
    y = HEADER + _map_h(state.layout) + 14
    for i, s in enumerate(state.seats):
        tags = []
        if i == state.start and state.phase != "over":
            tags.append("start")
        if i == state.turn and state.phase != "over":
            tags.append("to play")
        if s.eidai == 0:
            tags.append("Eidai built")
        if tags:
            _txt(img, (MARGIN + 46, y + 30), ", ".join(tags), 13, bold=True, fill=MUTED)
        x = MARGIN + 240
        _txt(img, (x, y + 6), f"Sen {s.sen}", 16, bold=True)
        _txt(img, (x + 90, y + 6), f"Material {s.mat}", 16, bold=True)
        for k in range(s.foot):
            cx, cy = x + 280 + k * 18, y + 16
            d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=INK)
        _txt(img, (x + 360, y + 6), f"({s.foot}/4)", 16, fill=MUTED)
        left = (
            f"Left: Red Pine {s.pine}/{PINES}  Oak {s.oak}/{OAKS}  Cedar {s.cedar}/{CEDARS}  "
            f"Tatara {s.tatara}  Eidai {s.eidai}"
        )
        _txt(img, (x, y + 30), left, 14)
        y += ROW_H


def _cards_y(layout: str, n: int) -> int:
    return HEADER + _map_h(layout) + 14 + n * ROW_H + 4


def _cards(img: Image.Image, d: ImageDraw.ImageDraw, state: TatarabaState) -> None:
    y = _cards_y(state.layout, len(state.players))
    x = MARGIN + 110
    for c in state.shown:
        d.rounded_rectangle((x, y - 4, x + 40, y + 50), radius=6, fill=WHITE, outline=INK, width=3)
        _txt(img, (x + 20, y + 23), str(c), 26, bold=True, anchor="mm")
        x += 48
    _txt(
        img, (x + 14, y), f"Deck: {len(state.deck)} card{'s' if len(state.deck) != 1 else ''}", 16, bold=True
    )
    _txt(img, (x + 14, y + 24), f"Beech left: {state.beech}/{BEECHES}", 16)
    earlier = " ".join(str(c) for c in state.used) or "none"
    _txt(img, (x + 200, y + 22), earlier, 16, bold=True, fill=MUTED)


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The anti-aliased coverage mask of ``text`` and its offset from the anchor point (cached: labels repeat)."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _txt(
    img: Image.Image, xy, text: str, size: int, bold: bool = False, fill=INK, anchor: str = "la"
) -> None:
    """Write ``text`` at ``xy`` (Pillow anchor) by pasting its cached mask in ``fill``."""
    mask, left, top = _mask(text, size, bold, anchor)
    x, y = int(xy[0]) + left, int(xy[1]) + top
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
