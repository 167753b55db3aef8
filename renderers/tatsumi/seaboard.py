"""Tatsumi's seaboard on the full board: the 5 x 5 wells (top ring large, depth, the rings beneath as pips with
their element's symbol, a depleted well's sand dollar and its number), the dragons, the four shrine tiles and the
summoning card above each with its scales, and the static background (title band, element legend, wells' names,
empty islands in the players' panels).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.core import T, Tc
from games.tatsumi import data as D
from games.tatsumi.state import TatsumiState

from ..common import INK, PAPER, WHITE, cached_in_language, font, words
from .cards import CARD_H, TILE_H, TILE_W, card_image, scales_on, shrine_tile
from .icons import NAME_INK, SEA, SEA_DEEP, label, paste, pip_icon, player_mark, ring_icon, sand_dollar
from .island import HEX_R, PANEL_FILL, PANEL_H, PANEL_W, island_image, panel_xy

TITLE = T("Tatsumi")
"""The game's name in the board's title band, in capitals (辰巳 in Japanese)."""
W, H = 1240, 860
CELL = 88
BX, BY = 150, 235  # seaboard top-left
DEPTH_PX = 17
"""Size of a well's depth ("×4"), px: a flight or a gathering depends on it."""
PIP = 13
"""Side of a pip (a ring under the top ring), px."""
TOP_RING = (38, 42, 20)
"""A well's top ring: centre (px from the well's top-left) and radius."""
DRAGON = (57, 72, 13)
"""A dragon on its well: centre (px from the well's top-left) and radius."""


def well_box(w: int) -> tuple[int, int]:
    """Top-left of well ``w`` (0-24, row-major from a1) on the full board."""
    return BX + (w % 5) * CELL, BY + (w // 5) * CELL


def tile_xy(edge: str) -> tuple[int, int]:
    """Top-left of the shrine tile of ``edge`` ("N", "E", "S", "W")."""
    mid_x = BX + 5 * CELL // 2
    mid_y = BY + 5 * CELL // 2
    if edge == "N":
        return mid_x - TILE_W // 2, BY - TILE_H - 6
    if edge == "S":
        return mid_x - TILE_W // 2, BY + 5 * CELL + 6
    if edge == "W":
        return BX - TILE_W - 8, mid_y - TILE_H // 2 + 20
    return BX + 5 * CELL + 8, mid_y - TILE_H // 2 + 20


def card_xy(edge: str) -> tuple[int, int]:
    """Top-left of the card above ``edge``'s shrine."""
    x, y = tile_xy(edge)
    if edge == "S":
        return x, y + TILE_H + 4
    return x, y - CARD_H - 4


SEA_W = 746
"""Width of the board left of the players' panels, px."""


def background(n_players: int, panels: bool = True) -> Image.Image:
    """The static image for ``n_players``: title band, legend, seaboard cells with their names, empty Tatsumi
    islands in the panels (5 players, the Void: a fifth panel row, TM-1); ``panels=False``: the left part only
    (``SEA_W`` px wide), for a seaboard close-up. The legend's names in the image's language."""
    return _background(n_players, panels, tuple(str(words(D.ELEMENT_TEXT[e])) for e in D.ELEMENTS))


@cached_in_language(maxsize=16)
def _background(n_players: int, panels: bool, element_names: tuple[str, ...]) -> Image.Image:
    names = dict(zip(D.ELEMENTS, element_names, strict=True))
    if not panels:  # the source of the seaboard close-up: the left part, no panels drawn
        img = Image.new("RGB", (SEA_W, H), PAPER)
    else:
        img = Image.new("RGB", (W, max(H, 64 + n_players * (PANEL_H + 4))), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 50), fill=INK)
    d.text((16, 25), str(words(TITLE)).upper(), font=font(28, bold=True), fill=WHITE, anchor="lm")
    x = 180  # the elements' legend: ring, symbol and name
    for e in D.ELEMENTS:
        icon = ring_icon(e, 13)
        img.paste(icon, (x, 25 - 14), icon)
        d.text((x + 32, 25), names[e], font=font(14), fill=WHITE, anchor="lm")
        x += 42 + int(font(14).getlength(names[e]))
    d.rectangle((BX - 4, BY - 4, BX + 5 * CELL + 4, BY + 5 * CELL + 4), fill=SEA_DEEP, outline=INK, width=2)
    for w in range(25):
        x0, y0 = well_box(w)
        d.rectangle((x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=SEA, outline=(120, 160, 180))
        d.text((x0 + 5, y0 + 4), D.WELL_NAMES[w], font=font(12, bold=True), fill=(50, 80, 100))
    for seat in range(n_players if panels else 0):
        px, py = panel_xy(seat)
        d.rectangle((px, py, px + PANEL_W, py + PANEL_H), fill=PANEL_FILL, outline=(150, 140, 130), width=1)
        img.paste(island_image("tatsumi", HEX_R), (px + 1, py + 1))
    return img


def pip_step(depth: int) -> int:
    """Vertical step between the pips of a stack of ``depth`` rings, px (closer for 7+ so they stay in the well)."""
    return PIP + 1 if depth <= 6 else (CELL - 12 - PIP) // max(depth - 1, 1)


@cached_in_language(maxsize=2048)
def well_image(w: int, stack: str, sand_dollar_no: int) -> Image.Image:
    """Well ``w``'s cell (``CELL - 4`` px square, its frame excluded): its name; its top ring large, its depth, and
    the whole stack as pips with symbols (top first); a depleted well its sand dollar and its number in placing
    order (``sand_dollar_no`` > 0), else ``empty`` (the word in the image's language). Cached: a well changes only
    when a ring leaves it."""
    img = Image.new("RGB", (CELL - 4, CELL - 4), SEA)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, CELL - 5, CELL - 5), outline=(120, 160, 180))
    d.text((3, 2), D.WELL_NAMES[w], font=font(12, bold=True), fill=(50, 80, 100))
    o = -2  # cell px = well px - 2
    if stack:
        tx, ty, tr = TOP_RING
        paste(img, ring_icon(stack[-1], tr), tx + o, ty + o)
        label(img, (5 + o, CELL - 4 + o), f"×{len(stack)}", DEPTH_PX, True, INK, "ld")
        step = pip_step(len(stack))
        for k, e in enumerate(reversed(stack)):
            icon = pip_icon(e, PIP)
            img.paste(icon, (CELL - PIP - 5 + o, 5 + k * step + o), icon)
    elif sand_dollar_no:
        paste(img, sand_dollar(24), 40 + o, 46 + o)
        label(img, (5 + o, CELL - 4 + o), f"#{sand_dollar_no}", 14, True, INK, "ld")
    else:
        label(img, (CELL // 2 + o, 46 + o), Tc("tatsumi seawell", "empty"), 12, False, NAME_INK, "mm")
    return img


def draw_wells(img: Image.Image, s: TatsumiState, dx: int = 0, dy: int = 0) -> None:
    """The 25 wells' cells (:func:`well_image`) and the dragons on them, each board point (x, y) drawn at
    (x + dx, y + dy) px: (0, 0) on the full board, a close-up's offset otherwise."""
    sd_order = {w: k + 1 for k, w in enumerate(s.sand_dollars)}
    for w in range(25):
        x0, y0 = well_box(w)
        img.paste(well_image(w, s.wells[w], sd_order.get(w, 0)), (x0 + 2 + dx, y0 + 2 + dy))
    cx, cy, r = DRAGON
    for p in s.seats:
        x0, y0 = well_box(p.well)
        player_mark(img, p.mark, x0 + cx + dx, y0 + cy + dy, r, halo=True)


def draw_shrine(img: Image.Image, s: TatsumiState, k: int, dx: int = 0, dy: int = 0) -> None:
    """The shrine tile of edge ``k`` (0-3, :data:`games.tatsumi.data.EDGES` order) and the summoning card above it
    with its scales (:func:`.cards.card_image`), shifted by (dx, dy) px like :func:`draw_wells`."""
    edge = D.EDGES[k]
    tx, ty = tile_xy(edge)
    img.paste(shrine_tile(s.shrines[k], s.sides[k]), (tx + dx, ty + dy))
    cx, cy = card_xy(edge)
    img.paste(card_image(s.cards[k], scales_on(s, k)), (cx + dx, cy + dy))


def draw_seaboard(img: Image.Image, s: TatsumiState) -> None:
    """Wells, dragons, shrine tiles and cards with their scales, over the background."""
    draw_wells(img, s)
    for k in range(len(D.EDGES)):
        draw_shrine(img, s, k)
