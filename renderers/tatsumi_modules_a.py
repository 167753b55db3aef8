"""Tatsumi renderer additions for the asymmetric islands and dragons and the Void (RULINGS TM-1, TM-15), called from
:mod:`renderers.tatsumi` by one-line hooks.

- :func:`draw_islands` pastes, over each player's panel, the grid of their asymmetric island (cached per board):
  rifts, blessings with their two supports (a gold link and a small ring of the required element on each support)
  and the rule's marks — Arashima perimeter spaces outlined ("edge first"), Inyo light and dark halves with their
  eyes, Isuragi obelisks, the Kogasu volcano centre, Mizukame droplets (1-3 drops and the number), Raikou bolts
  (a white bolt on a black disc). The board's name sits in the top-left corner, a two-word reminder of its rule in
  the bottom-left one.
- :func:`dragon_line` writes the dragon line of a panel: the card side's title (``Raijinsama`` or ``Raijin``),
  the dragon's element (Kihaku's once named) and, for an asymmetric card, its gathering action in a few words.
- With the Void's 5 players the base image grows by a fifth panel row (hook in ``background``).

Colour-blind safe like the base renderer: every mark is a shape with a label or a symbol, never a colour alone.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tatsumi import data as D
from games.tatsumi.dragons import gather_title
from games.tatsumi.island import layout
from games.tatsumi.state import Seat, TatsumiState

from .common import INK, MUTED, WHITE, font

GRID_W = 232
HINTS = {
    "arashima": ("edge", "first"),
    "inyo": ("balance", "±1"),
    "isuragi": ("obelisk", "last"),
    "kogasu": ("centre", "apart"),
    "mizukame": ("drops", "1→2→3"),
    "raikou": ("1 bolt", "/ offer"),
}
SHORT = {
    "karyusama": "breath: 2 nearest rings in a line",
    "raijinsama": "zap: 2 matching rings around",
    "fujinsama": "dash 1-2 wells, claim each left",
    "mizuchisama": "dive, reemerge at a match, +1",
    "kihakusama": "edge rings of row and column",
}
"""The asymmetric gathering actions in a panel's width (the full texts are in the setup options and help)."""
LIGHT = (250, 248, 240)
DARK = (96, 96, 108)
LAVA = (150, 62, 40)
DROP = (0, 114, 178)


def _bolt(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill) -> None:
    from . import tatsumi as base  # noqa: PLC0415 - that module imports this one

    base.bolt(d, cx, cy, s, fill)


def _drop(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r * 0.2, cx + r, cy + r * 1.8), fill=DROP)
    d.polygon([(cx, cy - r * 1.4), (cx + r * 0.95, cy + r * 0.5), (cx - r * 0.95, cy + r * 0.5)], fill=DROP)


@lru_cache(maxsize=8)
def island_grid(key: str, panel_h: int) -> Image.Image:
    """The static grid of asymmetric island ``key`` for a panel's left part (``GRID_W`` x ``panel_h - 2`` px)."""
    from . import tatsumi as base  # noqa: PLC0415 - that module imports this one

    lay = layout(key)
    img = Image.new("RGB", (GRID_W, panel_h - 2), (252, 250, 244))
    d = ImageDraw.Draw(img)
    r = base.HEX_R
    centre = [base._hex_centre(-1, -1, r, i) for i in range(lay.size)]
    marks = lay.marks
    for i in range(lay.size):
        cx, cy = centre[i]
        rift = lay.rift[i]
        m = marks[i]
        plain = (236, 226, 200)
        if lay.rule == "inyo":
            plain = LIGHT if m in "lD" else DARK
        if m == "v":
            plain = LAVA
        outline, width = (150, 140, 120), 1
        if lay.rule == "arashima" and lay.perimeter[i]:
            outline, width = INK, 2
        d.polygon(base._hexagon(cx, cy, r - 0.5), fill=plain, outline=outline, width=width)
        if rift:
            if lay.rule == "inyo":
                d.polygon(base._hexagon(cx, cy, r - 4), fill=base.ELEMENT_TINT[rift])
            else:
                d.polygon(base._hexagon(cx, cy, r - 1.5), fill=base.ELEMENT_TINT[rift])
            base._symbol(d, rift, cx, cy - 3, 5, base.ELEMENT_COLOUR[rift] if rift != "L" else INK)
        if m in "LD":  # Inyo's eyes
            fill = LIGHT if m == "L" else DARK
            d.ellipse((cx - 6, cy - 9, cx + 6, cy + 3), fill=fill, outline=INK if m == "L" else WHITE, width=2)
        elif m == "o":  # Isuragi obelisk
            d.polygon([(cx - 2, cy - 11), (cx + 2, cy - 11), (cx + 4, cy + 2), (cx - 4, cy + 2)], fill=(110, 110, 120))
            d.polygon([(cx - 2, cy - 11), (cx + 2, cy - 11), (cx, cy - 14)], fill=INK)
        elif m == "v":  # Kogasu volcano centre
            d.polygon([(cx - 9, cy + 2), (cx - 3, cy - 9), (cx + 3, cy - 9), (cx + 9, cy + 2)], fill=(60, 40, 30))
            d.ellipse((cx - 3, cy - 12, cx + 3, cy - 8), fill=(230, 159, 0))
        elif m in "123":  # Mizukame droplets
            n = int(m)
            for k in range(n):
                _drop(d, cx + (k - (n - 1) / 2) * 7, cy - 8, 2.4)
        elif m == "b":  # Raikou bolt
            d.ellipse((cx + 2, cy - 13, cx + 14, cy - 1), fill=INK)
            _bolt(d, cx + 8, cy - 7, 4.5, WHITE)
        ink = WHITE if (lay.rule == "inyo" and plain == DARK and not rift) or m == "v" else (90, 84, 78)
        d.text((cx, cy + 8), lay.names[i], font=font(8), fill=ink, anchor="mm")
    for (b, x, y), e in zip(lay.blessings, lay.bless_el, strict=True):
        bx, by = centre[b]
        for sp in (x, y):
            sx, sy = centre[sp]
            d.line((bx, by - 3, sx, sy - 3), fill=base.GOLD, width=2)
        for sp in (x, y):
            sx, sy = centre[sp]
            icon = base.ring_icon(e, 6)
            img.paste(icon, (int(sx - 7 - icon.width / 2), int(sy - 6 - icon.height / 2)), icon)
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = 8 if k % 2 == 0 else 3.5
            pts.append((bx + rr * math.cos(a), by - 3 + rr * math.sin(a)))
        d.polygon(pts, fill=base.GOLD, outline=INK)
    d.text((4, 3), lay.title, font=font(11, bold=True), fill=INK)
    h1, h2 = HINTS[key]
    d.text((4, panel_h - 30), h1, font=font(9, bold=True), fill=MUTED)
    d.text((4, panel_h - 18), h2, font=font(9, bold=True), fill=MUTED)
    return img


def draw_islands(img: Image.Image, s: TatsumiState) -> None:
    """Paste each asymmetric island's grid over its panel (before the rings are drawn)."""
    from . import tatsumi as base  # noqa: PLC0415

    for seat, p in enumerate(s.seats):
        if p.island_key != "tatsumi":
            px, py = base._panel_xy(seat)
            img.paste(island_grid(p.island_key, base.PANEL_H), (px + 1, py + 1))


def dragon_line(img: Image.Image, p: Seat, tx: int, y: int) -> None:
    """The panel's dragon line at ``(tx, y)``: title by card side, element (``?`` until Kihaku's is named), and
    for an asymmetric card its gathering action on a small second line."""
    from . import tatsumi as base  # noqa: PLC0415

    element = D.ELEMENT_NAMES.get(p.element, "element to name")
    title = f"{gather_title(p)} ({element})"
    base.text(img, (tx, y), title, 13, p.gather != "symmetric", INK, "lm")
    if p.element:
        w = font(13, p.gather != "symmetric").getlength(title)
        base._paste(img, base.ring_icon(p.element, 9), tx + w + 14, y)
    if p.gather != "symmetric":
        base.text(img, (tx, y + 15), SHORT[p.gather], 10, False, MUTED, "lm")
