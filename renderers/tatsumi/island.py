"""Tatsumi's islands, at any hex size: the grid of a board (Tatsumi Island or an asymmetric board, TM-9, TM-15),
its rings, and a player's panel on the full board (island, name, dragon, fortune, holding, scales, blessings,
score breakdown).

Inside a hex of radius ``r`` every mark has its own slot, so none crosses into a neighbour or hides another:
the rift's tint and symbol, an Inyo eye, an Isuragi obelisk or the Kogasu volcano in the
middle (``y - 0.2r``); Mizukame droplets on top (``y - 0.55r``); a blessing support (a small ring of the element
the blessing asks for) on the left and a Raikou bolt (a white bolt on a black disc) on the right (``y - 0.1r``);
the space name at the bottom (``y + 0.55r``, ``0.55r`` px). Inyo's light and dark spaces are filled with their
shade, a rift's tint only in the inner 60 %, so the shade reads as a wide band. Blessings are gold stars linked
to their supports by gold lines drawn under the marks.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.core import N, T, Text
from games.tatsumi import data as D
from games.tatsumi.dragons import gather_title
from games.tatsumi.island import EMPTY, layout
from games.tatsumi.state import Seat, TatsumiState

from ..common import INK, MUTED, WHITE, cached_in_language, display_name, font, words
from .icons import (
    ELEMENT_COLOUR,
    ELEMENT_TINT,
    GOLD,
    NAME_INK,
    bolt,
    label,
    paste,
    player_mark,
    ring_icon,
    ring_sprite,
    symbol,
    text_width,
)

HEX_R = 15
"""Hex radius on the full board, px."""
PANEL_X, PANEL_W, PANEL_H = 748, 484, 196
GRID_W = 232
PLAIN = (236, 226, 200)
PANEL_FILL = (252, 250, 244)
LIGHT = (250, 248, 240)
DARK = (96, 96, 108)
LAVA = (150, 62, 40)
DROP = (0, 114, 178)
HINTS = {
    "arashima": (T("edge"), T("first")),
    "inyo": (T("balance"), "±1"),
    "isuragi": (T("obelisk"), T("last")),
    "kogasu": (T("centre"), T("apart")),
    "mizukame": (T("drops"), "1→2→3"),
    "raikou": (T("1 bolt"), T("/ offer")),
}
"""An asymmetric island's two-word reminder of its rule, bottom-left of its picture (in the image's language)."""
SOURCES = {"card": T("card"), "mastery": T("mastery"), "rift": T("rift"), "heron": T("heron"), "duck": T("duck"),
           "swallows": T("swallows")}
"""A fortune source of ``Seat.scored`` as the score breakdown names it (another source by its id)."""
SHORT = {
    "karyusama": T("breath: 2 nearest rings in a line"),
    "raijinsama": T("zap: 2 matching rings around"),
    "fujinsama": T("dash 1-2 wells, claim each left"),
    "mizuchisama": T("dive, reemerge at a match, +1"),
    "kihakusama": T("edge rings of row and column"),
}
"""The asymmetric gathering actions in a panel's width (the full texts are in the setup options and help)."""
SLOTS = {
    "mark": (0.0, -0.2, 0.4),
    "drops": (0.0, -0.6, 0.12),
    "support": (-0.45, -0.1, 0.28),
    "bolt": (0.45, -0.1, 0.28),
    "name": (0.0, 0.55, 0.0),
}
"""Where a hex's marks go: (x, y, radius) in units of the hex radius from its centre — the rift symbol, an eye,
an obelisk or the volcano ("mark"), Mizukame's droplets (each of that radius, 0.34 apart), a blessing support, a
Raikou bolt, the space name. Every mark lies inside the hex's inscribed circle (0.866) and off the others."""
DROP_STEP = 0.34
INYO_TINT = 0.5
"""An Inyo rift's tint covers this fraction of the hex radius; the light or dark shade the rest."""


# ---------------------------------------------------------------------------------------------- geometry


def pads(r: float) -> tuple[float, float]:
    """(left, top) margin of an island image with hex radius ``r`` px, px."""
    return 12 * r / HEX_R - 1, 14 * r / HEX_R - 1


def hex_centre(key: str, r: float, i: int) -> tuple[float, float]:
    """Centre of space ``i`` of island ``key`` in an island image of hex radius ``r`` (px from its top-left)."""
    lay = layout(key)
    row, col = lay.coords[i]
    n = lay.rows[row]
    hw = math.sqrt(3) * r
    pad_x, pad_y = pads(r)
    return pad_x + hw * (7 - n) / 2 + hw * col + hw / 2, pad_y + r + row * 1.5 * r


def hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The corners of a pointy-top hexagon of radius ``r`` centred on (cx, cy)."""
    return [
        (cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def island_size(r: float) -> tuple[int, int]:
    """(width, height) px of an island image of hex radius ``r``: ``GRID_W x PANEL_H - 2`` on the full board."""
    if r == HEX_R:
        return GRID_W, PANEL_H - 2
    pad_x, pad_y = pads(r)
    return math.ceil(2 * pad_x + 7 * math.sqrt(3) * r), math.ceil(2 * pad_y + 11 * r)


def name_px(r: float) -> int:
    """Size of the space names on an island of hex radius ``r``, px."""
    return max(8, round(0.55 * r))


def _star(cx: float, cy: float, outer: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = outer if k % 2 == 0 else outer * 0.44
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _drop(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r * 0.2, cx + r, cy + r * 1.8), fill=DROP)
    d.polygon([(cx, cy - r * 1.4), (cx + r * 0.95, cy + r * 0.5), (cx - r * 0.95, cy + r * 0.5)], fill=DROP)


# ---------------------------------------------------------------------------------------------- island images


@cached_in_language(maxsize=32)
def island_image(key: str, r: float = HEX_R) -> Image.Image:
    """The empty island ``key`` with hex radius ``r`` px (size :func:`island_size`): rifts, blessings with their
    supports and links, the board's marks and the space names; an asymmetric board's name top-left and a two-word
    reminder of its rule bottom-left."""
    lay = layout(key)
    w, h = island_size(r)
    img = Image.new("RGB", (w, h), PANEL_FILL)
    d = ImageDraw.Draw(img)
    k = r / HEX_R
    centre = [hex_centre(key, r, i) for i in range(lay.size)]
    marks = lay.marks or "." * lay.size
    inyo = lay.rule == "inyo"
    for i in range(lay.size):
        cx, cy = centre[i]
        m = marks[i]
        fill = PLAIN
        if inyo:
            fill = LIGHT if m in "lL" else DARK
        if m == "v":
            fill = LAVA
        outline, width = (150, 140, 120), max(1, round(k))
        if lay.rule == "arashima" and lay.perimeter[i]:
            outline, width = INK, max(2, round(2 * k))
        d.polygon(hexagon(cx, cy, r - 0.5), fill=fill, outline=outline, width=width)
        rift = lay.rift[i]
        if rift:
            d.polygon(hexagon(cx, cy, r * (INYO_TINT if inyo else 0.88)), fill=ELEMENT_TINT[rift])
    # blessing links under the marks
    supports: dict[int, str | None] = {}
    for n, (b, x, y) in enumerate(lay.blessings):
        bx, by = centre[b]
        for sp in (x, y):
            sx, sy = centre[sp]
            ux, uy, _ = SLOTS["support"]
            d.line((bx, by + SLOTS["mark"][1] * r, sx + ux * r, sy + uy * r), fill=GOLD, width=max(2, round(1.5 * k)))
            supports[sp] = lay.bless_el[n] if lay.bless_el else None
    for i in range(lay.size):
        cx, cy = centre[i]
        m = marks[i]
        my = cy + SLOTS["mark"][1] * r
        rift = lay.rift[i]
        if rift:
            symbol(d, rift, cx, my, 0.33 * r, ELEMENT_COLOUR[rift] if rift != "L" else INK)
        if m in "LD":  # Inyo's eyes
            er = SLOTS["mark"][2] * r
            d.ellipse((cx - er, my - er, cx + er, my + er), fill=LIGHT if m == "L" else DARK,
                      outline=INK if m == "L" else WHITE, width=max(2, round(2 * k)))
        elif m == "o":  # Isuragi obelisk
            d.polygon([(cx - 0.13 * r, cy - 0.6 * r), (cx + 0.13 * r, cy - 0.6 * r), (cx + 0.27 * r, cy + 0.15 * r),
                       (cx - 0.27 * r, cy + 0.15 * r)], fill=(110, 110, 120))
            d.polygon([(cx - 0.13 * r, cy - 0.6 * r), (cx + 0.13 * r, cy - 0.6 * r), (cx, cy - 0.78 * r)], fill=INK)
        elif m == "v":  # Kogasu volcano centre
            d.polygon([(cx - 0.6 * r, cy + 0.13 * r), (cx - 0.2 * r, cy - 0.6 * r), (cx + 0.2 * r, cy - 0.6 * r),
                       (cx + 0.6 * r, cy + 0.13 * r)], fill=(60, 40, 30))
            d.ellipse((cx - 0.2 * r, cy - 0.8 * r, cx + 0.2 * r, cy - 0.53 * r), fill=(230, 159, 0))
        elif m in "123":  # Mizukame droplets, top slot
            n = int(m)
            _, dy, dr = SLOTS["drops"]
            for j in range(n):
                _drop(d, cx + (j - (n - 1) / 2) * DROP_STEP * r, cy + dy * r, dr * r)
        elif m == "b":  # Raikou bolt, right slot
            sx, sy, sr = SLOTS["bolt"]
            bx, by, br = cx + sx * r, cy + sy * r, sr * r
            d.ellipse((bx - br, by - br, bx + br, by + br), fill=INK)
            bolt(d, bx, by, 0.7 * br, WHITE)
        if i in supports:  # blessing support, left slot
            ux, uy, ur = SLOTS["support"]
            sx, sy = cx + ux * r, cy + uy * r
            e = supports[i]
            if e:
                paste(img, ring_icon(e, max(4, round(ur * r))), sx, sy)
            else:
                sr = 0.2 * r
                d.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), outline=GOLD, width=max(2, round(1.5 * k)))
        if any(bl[0] == i for bl in lay.blessings):
            d.polygon(_star(cx, my, 0.53 * r), fill=GOLD, outline=INK)
        dark = (inyo and m in "dD") or m == "v"
        d.text((cx, cy + SLOTS["name"][1] * r), lay.names[i], font=font(name_px(r)), fill=WHITE if dark else NAME_INK,
               anchor="mm")
    if key != "tatsumi":
        d.text((4 * k, 3 * k), lay.title, font=font(round(11 * k), bold=True), fill=INK)
        h1, h2 = HINTS[key]
        d.text((4 * k, h - 30 * k), h1, font=font(round(9 * k), bold=True), fill=MUTED)
        d.text((4 * k, h - 18 * k), h2, font=font(round(9 * k), bold=True), fill=MUTED)
    return img


def ring_r(r: float) -> int:
    """Radius of a ring on a space of an island with hex radius ``r``, px."""
    return round(0.8 * r)


def island_rings(island: str, key: str, r: float = HEX_R) -> Image.Image:
    """The rings of an island string as one transparent layer (RGBA) the size of :func:`island_image`."""
    layer = Image.new("RGBA", island_size(r), (0, 0, 0, 0))
    for i, c in enumerate(island):
        if c != EMPTY:
            icon = ring_icon(c, ring_r(r))
            cx, cy = hex_centre(key, r, i)
            layer.alpha_composite(icon, (int(cx - icon.width / 2), int(cy - icon.height / 2)))
    return layer


@cached_in_language(maxsize=64)
def island_picture(island: str, key: str, r: float = HEX_R) -> Image.Image:
    """Island ``key`` (:func:`island_image`, hex radius ``r`` px) with the rings of the island string ``island``
    on it (:func:`island_rings`), RGB, the size of :func:`island_image`: a board pastes it without a mask. Cached
    (64 islands, under 12 MB at the full board's ``HEX_R``); an island changes only when rings are placed."""
    img = island_image(key, r).copy()
    rings = island_rings(island, key, r)
    img.paste(rings, (0, 0), rings)
    return img


def paste_island(img: Image.Image, p: Seat, x: int, y: int, r: float = HEX_R) -> None:
    """Paste ``p``'s island with its rings at (x, y) (the island image's top-left)."""
    img.paste(island_picture(p.island, p.island_key, r), (x, y))


# ---------------------------------------------------------------------------------------------- panels


def panel_xy(seat: int) -> tuple[int, int]:
    """Top-left of seat ``seat``'s panel on the full board."""
    return PANEL_X, 60 + seat * (PANEL_H + 4)


def dragon_line(img: Image.Image, p: Seat, tx: int, y: int) -> None:
    """The panel's dragon line at ``(tx, y)``: title by card side, element (named once Kihaku's is chosen), and
    for an asymmetric card its gathering action on a small second line (TM-1, TM-15)."""
    element = D.ELEMENT_TEXT.get(p.element, T("element to name"))
    title = T("{name} ({element})", name=gather_title(p), element=element)
    bold = p.gather != "symmetric"
    label(img, (tx, y), title, 13, bold, INK, "lm")
    if p.element:
        w = text_width(title, 13, bold)
        paste(img, ring_sprite(p.element, 9), tx + w + 14, y)
    if bold:
        label(img, (tx, y + 15), SHORT[p.gather], 10, False, NAME_INK, "lm")


def breakdown_lines(p: Seat, width: int = 40) -> list[str]:
    """``p``'s fortune by source, whole (never cut): ``"card 12 · mastery 22 · rift 40"`` wrapped at ``width``
    characters into at most 2 lines; the parts add up to the fortune."""
    parts = [f"{words(SOURCES.get(k, k))} {v}" for k, v in sorted(p.scored.items())]
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += f" · {part}"
        else:
            lines.append(part)
    if len(lines) > 2:  # 7+ sources: two lines, each whole part kept
        half = (len(parts) + 1) // 2
        lines = [" · ".join(parts[:half]), " · ".join(parts[half:])]
    return lines


def draw_panel(img: Image.Image, s: TatsumiState, seat: int, names: dict[str, str] | None) -> None:
    """Seat ``seat``'s panel: island with rings, and beside it name, dragon, fortune, holding, scales beside,
    blessings, the score breakdown, and on the current player's panel what they are doing."""
    p = s.seats[seat]
    lay = layout(p.island_key)
    px, py = panel_xy(seat)
    d = ImageDraw.Draw(img)
    current = seat == s.current and not s.over
    paste_island(img, p, px + 1, py + 1)
    if current:
        d.rectangle((px, py, px + PANEL_W, py + PANEL_H), outline=INK, width=4)
    tx = px + 236
    player_mark(img, p.mark, tx + 10, py + 18, 9)
    label(img, (tx + 26, py + 18), display_name(p.id, names, 18), 16, True, INK, "lm")
    dragon_line(img, p, tx, py + 40)
    label(img, (PANEL_X + PANEL_W - 10, py + 36), f"{p.fortune}", 26, True, INK, "rm")
    label(img, (PANEL_X + PANEL_W - 10, py + 58), T("fortune"), 11, False, NAME_INK, "rm")
    label(img, (tx, py + 70), N("Holding · {n} scale beside", "Holding · {n} scales beside", n=p.scales_beside),
          12, True, NAME_INK, "lm")
    hx = tx
    for e in D.ELEMENTS:
        n = p.holding[e]
        if n:
            paste(img, ring_sprite(e, 12), hx + 13, py + 92)
            label(img, (hx + 28, py + 92), f"{n}", 15, True, INK, "lm")
        else:
            d.ellipse((hx + 3, py + 82, hx + 23, py + 102), outline=(200, 190, 175), width=1)
        hx += 58
    bl = Text.join(D.COMMA, [
        T("{space} used", space=lay.names[b[0]]) if p.blessings[k] else T("{space} waiting", space=lay.names[b[0]])
        for k, b in enumerate(lay.blessings)
    ])
    label(img, (tx, py + 118), T("Blessings: {list}", list=bl), 11, False, INK, "lm")
    for k, line in enumerate(breakdown_lines(p)):
        label(img, (tx, py + 136 + 14 * k), line, 11, False, NAME_INK, "lm")
    if current:
        y = py + PANEL_H - 16
        if s.turn.to_place:
            label(img, (tx, y), T("▶ placing"), 13, True, INK, "lm")
            x = tx + 78
            for e in dict.fromkeys(s.turn.to_place):
                paste(img, ring_sprite(e, 9), x + 9, y)
                label(img, (x + 21, y), f"{s.turn.to_place.count(e)}", 13, True, INK, "lm")
                x += 40
        else:
            doing = {"scale": T("▶ to play — a scale"), "overflow": T("▶ to play — overflow")}
            label(img, (tx, y), doing.get(s.turn.stage, T("▶ to play")), 13, True, INK, "lm")
