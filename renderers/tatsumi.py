"""Tatsumi board image (1240 x 860 px PNG): the seaboard (each well's stack of rings with its top ring, depth,
sand dollars, dragons), the four shrines with their side and requirement and the summoning card above each with
its scales, and every player's island (hex spaces, rifts, blessings, rings) with holding, fortune and scales.

Colour-blind safe: every element has a colour (Okabe-Ito), a symbol (fire flame, water drop, wind waves,
lightning bolt) and a letter; players have a shape as well as a colour and their name is written (renderers.common).
Static parts (frames, island grids with space names) are drawn once per player count and pasted; ring icons,
shrine tiles and card faces are cached images.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi.island import EMPTY, layout
from games.tatsumi.state import TatsumiState

from .common import (
    BLUE,
    GREEN,
    INK,
    MUTED,
    PAPER,
    VERMILION,
    WHITE,
    display_name,
    encode_png,
    font,
    game_palette,
    player_style,
    shape,
)

W, H = 1240, 860
CELL = 88
BX, BY = 150, 235  # seaboard top-left
SEA = (214, 232, 240)
SEA_DEEP = (170, 205, 222)
SAND = (236, 220, 180)
GOLD = (200, 160, 40)
YELLOW_D = (205, 190, 20)
ELEMENT_COLOUR = {"F": VERMILION, "W": BLUE, "N": GREEN, "L": YELLOW_D}
ELEMENT_TINT = {"F": (246, 214, 190), "W": (196, 222, 240), "N": (196, 235, 220), "L": (248, 242, 180)}
CARD_W, CARD_H = 134, 104
TILE_W, TILE_H = 134, 58
PANEL_X, PANEL_W, PANEL_H = 748, 484, 196
HEX_R = 15


# ---------------------------------------------------------------------------------------------- cached text


@lru_cache(maxsize=4096)
def _label(text: str, size: int, bold: bool, fill: tuple) -> tuple[Image.Image, int, int]:
    """``text`` rendered once on a transparent image: (image, ascent, height)."""
    fnt = font(size, bold)
    ascent, descent = fnt.getmetrics()
    width = max(1, int(fnt.getlength(text)) + 2)
    img = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((0, 0), text, font=fnt, fill=fill, anchor="la")
    return img, ascent, ascent + descent


def text(
    img: Image.Image,
    xy: tuple[float, float],
    s: str,
    size: int,
    bold: bool = False,
    fill=INK,
    anchor: str = "la",
) -> None:
    """Paste cached ``s`` at ``xy`` with a Pillow-style anchor (h: l/m/r, v: a/m/s/d) — much cheaper than drawing
    glyphs on every render."""
    if not s:
        return
    lab, ascent, height = _label(s, size, bold, tuple(fill))
    x, y = xy
    h, v = anchor[0], anchor[1]
    if h == "m":
        x -= lab.width / 2
    elif h == "r":
        x -= lab.width
    if v == "m":
        y -= height / 2
    elif v == "s":
        y -= ascent
    elif v == "d":
        y -= height
    img.paste(lab, (int(round(x)), int(round(y))), lab)


# ---------------------------------------------------------------------------------------------- icons


def _symbol(d: ImageDraw.ImageDraw, e: str, cx: float, cy: float, s: float, fill) -> None:
    """The element's symbol in a box of half-size ``s``: flame, drop, waves, bolt."""
    if e == "F":
        d.polygon(
            [
                (cx, cy - s),
                (cx + s * 0.55, cy + s * 0.1),
                (cx + s * 0.35, cy + s * 0.8),
                (cx, cy + s * 0.45),
                (cx - s * 0.35, cy + s * 0.8),
                (cx - s * 0.55, cy + s * 0.1),
            ],
            fill=fill,
        )
    elif e == "W":
        r = s * 0.55
        d.ellipse((cx - r, cy + s * 0.2 - r, cx + r, cy + s * 0.2 + r), fill=fill)
        d.polygon([(cx, cy - s), (cx + r * 0.95, cy + s * 0.05), (cx - r * 0.95, cy + s * 0.05)], fill=fill)
    elif e == "N":
        w = max(1, int(s * 0.28))
        for k, dy in enumerate((-0.55, 0.0, 0.55)):
            y = cy + dy * s
            x0 = cx - s * (0.9 if k != 1 else 0.6)
            pts = [(x0 + i * s * 0.3, y + (s * 0.18 if i % 2 else -s * 0.18)) for i in range(6)]
            d.line(pts, fill=fill, width=w)
    else:
        bolt(d, cx, cy, s, fill)


def bolt(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill) -> None:
    """A lightning bolt centred on (cx, cy), ``s`` px half-height: the lightning symbol and Raikou's bolt marks."""
    d.polygon(
        [
            (cx + s * 0.25, cy - s),
            (cx - s * 0.55, cy + s * 0.1),
            (cx - s * 0.02, cy + s * 0.1),
            (cx - s * 0.3, cy + s),
            (cx + s * 0.55, cy - s * 0.15),
            (cx + s * 0.02, cy - s * 0.15),
        ],
        fill=fill,
    )


@lru_cache(maxsize=64)
def ring_icon(e: str, r: int) -> Image.Image:
    """An elemental ring of radius ``r`` px: a thick coloured annulus with the element's symbol inside (RGBA)."""
    size = 2 * r + 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = r + 1
    width = max(3, int(r * 0.34))
    d.ellipse((c - r, c - r, c + r, c + r), fill=WHITE + (235,), outline=INK, width=1)
    d.ellipse((c - r + 1, c - r + 1, c + r - 1, c + r - 1), outline=ELEMENT_COLOUR[e], width=width)
    d.ellipse((c - r + width, c - r + width, c + r - width, c + r - width), outline=INK, width=1)
    _symbol(d, e, c, c, (r - width) * 0.75, INK if e == "L" else ELEMENT_COLOUR[e])
    return img


def _paste(img: Image.Image, icon: Image.Image, cx: float, cy: float) -> None:
    img.paste(icon, (int(cx - icon.width / 2), int(cy - icon.height / 2)), icon)


@lru_cache(maxsize=8)
def sand_dollar(r: int) -> Image.Image:
    size = 2 * r + 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = r + 1
    d.ellipse((c - r, c - r, c + r, c + r), fill=SAND, outline=(150, 120, 80), width=2)
    for k in range(5):
        a = -math.pi / 2 + k * 2 * math.pi / 5
        x, y = c + math.cos(a) * r * 0.45, c + math.sin(a) * r * 0.45
        d.ellipse((x - r * 0.14, y - r * 0.28, x + r * 0.14, y + r * 0.28), fill=(200, 175, 130))
    d.text((c, c), "$", font=font(int(r * 0.7), bold=True), fill=(120, 90, 50), anchor="mm")
    return img


@lru_cache(maxsize=16)
def shrine_tile(e: str, side: str) -> Image.Image:
    """A shrine tile: element, side, the rings it asks for; the back shows the scale icon (TM-6)."""
    img = Image.new("RGB", (TILE_W, TILE_H), ELEMENT_TINT[e])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, TILE_W - 1, TILE_H - 1), outline=INK, width=2)
    d.text((6, 4), D.ELEMENT_NAMES[e].upper(), font=font(12, bold=True), fill=INK)
    d.text((TILE_W - 6, 5), side, font=font(11), fill=INK, anchor="ra")
    req = (D.SHRINE_FRONT if side == "front" else D.SHRINE_BACK)[e]
    x = 16
    for el in dict.fromkeys(req):  # the shrine's own element first
        n = req.count(el)
        d.text((x - 6, 38), f"{n}×", font=font(14, bold=True), fill=INK, anchor="lm")
        img.paste(ring_icon(el, 11), (x + 14, 26), ring_icon(el, 11))
        x += 52
    if side == "back":
        # the scale icon: this side puts a scale on the card above
        d.polygon(
            [(TILE_W - 24, 24), (TILE_W - 8, 24), (TILE_W - 8, 40), (TILE_W - 16, 52), (TILE_W - 24, 40)],
            fill=GOLD,
            outline=INK,
        )
    return img


def _wrap(text: str, width: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if len(cur) + len(w) + 1 > width and cur:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines


@lru_cache(maxsize=32)
def card_face(card: str) -> Image.Image:
    """A summoning card: title, kind, short text (our words); scales are drawn over it per render."""
    lasting = card in D.LASTING_CARDS
    img = Image.new("RGB", (CARD_W, CARD_H), (238, 230, 250) if lasting else (252, 246, 226))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=INK, width=2)
    d.text((6, 4), D.CARD_TITLES[card], font=font(13, bold=True), fill=INK)
    d.text((CARD_W - 6, 6), "lasting" if lasting else "score", font=font(10), fill=MUTED, anchor="ra")
    for i, line in enumerate(_wrap(D.CARD_TEXT[card], 22)[:3]):
        d.text((6, 22 + i * 13), line, font=font(10), fill=INK)
    d.line((4, 64, CARD_W - 4, 64), fill=MUTED)
    return img


# ---------------------------------------------------------------------------------------------- geometry


def _well_box(w: int) -> tuple[int, int]:
    return BX + (w % 5) * CELL, BY + (w // 5) * CELL


def _tile_xy(edge: str) -> tuple[int, int]:
    """Top-left of the shrine tile of ``edge``."""
    mid_x = BX + 5 * CELL // 2
    mid_y = BY + 5 * CELL // 2
    if edge == "N":
        return mid_x - TILE_W // 2, BY - TILE_H - 6
    if edge == "S":
        return mid_x - TILE_W // 2, BY + 5 * CELL + 6
    if edge == "W":
        return BX - TILE_W - 8, mid_y - TILE_H // 2 + 20
    return BX + 5 * CELL + 8, mid_y - TILE_H // 2 + 20


def _card_xy(edge: str) -> tuple[int, int]:
    """Top-left of the card above ``edge``'s shrine."""
    x, y = _tile_xy(edge)
    if edge == "S":
        return x, y + TILE_H + 4
    return x, y - CARD_H - 4


def _panel_xy(seat: int) -> tuple[int, int]:
    return PANEL_X, 60 + seat * (PANEL_H + 4)


def _hex_centre(px: int, py: int, r: int, i: int) -> tuple[float, float]:
    row, col = layout("tatsumi").coords[i]
    n = layout("tatsumi").rows[row]
    hw = math.sqrt(3) * r
    cx = px + 12 + hw * (7 - n) / 2 + hw * col + hw / 2
    cy = py + 14 + r + row * 1.5 * r
    return cx, cy


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


# ---------------------------------------------------------------------------------------------- background


@lru_cache(maxsize=4)
def background(n_players: int) -> Image.Image:
    """The static image for ``n_players``: title band, legend, seaboard cells with their names, empty islands with
    rifts (tinted, with their symbol), blessings (gold star) and space names."""
    img = Image.new("RGB", (W, max(H, 64 + n_players * (PANEL_H + 4))), PAPER)  # 5 players: the Void (TM-1)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 50), fill=INK)
    d.text((16, 25), "TATSUMI", font=font(28, bold=True), fill=WHITE, anchor="lm")
    # legend: element colour, symbol and name
    d.text((12, 66), "Elements", font=font(13, bold=True), fill=MUTED, anchor="lm")
    for k, e in enumerate(D.ELEMENTS):
        y = 92 + k * 32
        img.paste(ring_icon(e, 13), (12, y - 14), ring_icon(e, 13))
        d.text((44, y), D.ELEMENT_NAMES[e], font=font(14), fill=INK, anchor="lm")
    # seaboard
    d.rectangle((BX - 4, BY - 4, BX + 5 * CELL + 4, BY + 5 * CELL + 4), fill=SEA_DEEP, outline=INK, width=2)
    for w in range(25):
        x0, y0 = _well_box(w)
        d.rectangle((x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=SEA, outline=(120, 160, 180))
        d.text((x0 + 5, y0 + 4), D.WELL_NAMES[w], font=font(11, bold=True), fill=(70, 100, 120))
    lay = layout("tatsumi")
    for seat in range(n_players):
        px, py = _panel_xy(seat)
        d.rectangle((px, py, px + PANEL_W, py + PANEL_H), fill=(252, 250, 244), outline=MUTED, width=1)
        for i in range(lay.size):
            cx, cy = _hex_centre(px, py, HEX_R, i)
            rift = lay.rift[i]
            fill = ELEMENT_TINT[rift] if rift else (236, 226, 200)
            d.polygon(_hexagon(cx, cy, HEX_R - 0.5), fill=fill, outline=(150, 140, 120))
            if rift:
                _symbol(d, rift, cx, cy - 3, 5, ELEMENT_COLOUR[rift] if rift != "L" else INK)
            if any(b[0] == i for b in lay.blessings):
                pts = []
                for k in range(10):
                    a = -math.pi / 2 + k * math.pi / 5
                    rr = 8 if k % 2 == 0 else 3.5
                    pts.append((cx + rr * math.cos(a), cy - 3 + rr * math.sin(a)))
                d.polygon(pts, fill=GOLD)
            d.text((cx, cy + 8), lay.names[i], font=font(8), fill=(90, 84, 78), anchor="mm")
    return img


# ---------------------------------------------------------------------------------------------- dynamic parts


def _draw_well(
    img: Image.Image, d: ImageDraw.ImageDraw, s: TatsumiState, w: int, sd_order: dict[int, int]
) -> None:
    """A well: its top ring large, its depth, and the whole stack as pips (top first); a depleted well shows its
    sand dollar and its number in placing order."""
    x0, y0 = _well_box(w)
    stack = s.wells[w]
    if stack:
        _paste(img, ring_icon(stack[-1], 22), x0 + 38, y0 + 44)
        text(img, (x0 + 6, y0 + CELL - 4), f"×{len(stack)}", 14, True, INK, "ld")
        for k, e in enumerate(reversed(stack)):
            py = y0 + 6 + k * 11
            d.rectangle((x0 + CELL - 17, py, x0 + CELL - 7, py + 9), fill=ELEMENT_COLOUR[e], outline=INK)
    elif w in sd_order:
        _paste(img, sand_dollar(24), x0 + 40, y0 + 44)
        text(img, (x0 + 6, y0 + CELL - 4), f"#{sd_order[w]}", 12, True, INK, "ld")
    else:
        text(img, (x0 + CELL // 2, y0 + 44), "empty", 11, False, MUTED, "mm")


def _scale_marks(
    img: Image.Image, d: ImageDraw.ImageDraw, s: TatsumiState, edge: int, x: int, y: int
) -> None:
    """Each player's scales on a card: their shape and the count."""
    cx = x + 12
    placed = False
    for p in s.seats:
        n = p.cards[edge]
        if not n:
            continue
        colour, kind = player_style(p.mark)
        shape(d, kind, cx, y + 20, 7, colour, width=1)
        text(img, (cx + 10, y + 20), f"×{n}", 12, True, INK, "lm")
        cx += 40
        placed = True
    if not placed:
        text(img, (x + 8, y + 20), "no scales", 10, False, MUTED, "lm")


@lru_cache(maxsize=256)
def island_rings(island: str) -> Image.Image:
    """The rings of an island string as one transparent layer (236 x PANEL_H px, panel coordinates): a board
    pastes it once per panel instead of one ring icon per space; islands change only when rings are placed."""
    layer = Image.new("RGBA", (236, PANEL_H), (0, 0, 0, 0))
    for i, c in enumerate(island):
        if c != EMPTY:
            icon = ring_icon(c, 12)
            cx, cy = _hex_centre(0, 0, HEX_R, i)
            layer.alpha_composite(icon, (int(cx - icon.width / 2), int(cy - icon.height / 2)))
    return layer


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, s: TatsumiState, seat: int, names) -> None:
    """A player's island with its rings, and beside it name, dragon, fortune, holding, scales and blessings."""
    p = s.seats[seat]
    lay = layout(p.island_key)
    px, py = _panel_xy(seat)
    colour, kind = player_style(p.mark)
    current = seat == s.current and not s.over
    if current:
        d.rectangle((px, py, px + PANEL_W, py + PANEL_H), outline=INK, width=4)
    rings = island_rings(p.island)
    img.paste(rings, (px, py), rings)
    tx = px + 236
    shape(d, kind, tx + 10, py + 18, 9, colour)
    text(img, (tx + 26, py + 18), display_name(p.id, names, 18), 16, True, INK, "lm")
    from .tatsumi_modules_a import dragon_line  # noqa: PLC0415 - card side, Kihaku's element (TM-1)

    dragon_line(img, p, tx, py + 40)
    text(img, (PANEL_X + PANEL_W - 10, py + 36), f"{p.fortune}", 26, True, INK, "rm")
    text(img, (PANEL_X + PANEL_W - 10, py + 58), "fortune", 11, False, MUTED, "rm")
    text(img, (tx, py + 70), "Holding", 12, True, MUTED, "lm")
    hx = tx
    for e in D.ELEMENTS:
        n = p.holding[e]
        if n:
            _paste(img, ring_icon(e, 12), hx + 13, py + 94)
            text(img, (hx + 28, py + 94), f"{n}", 15, True, INK, "lm")
        else:
            d.ellipse((hx + 3, py + 84, hx + 23, py + 104), outline=(200, 190, 175), width=1)
        hx += 58
    text(img, (tx, py + 122), f"Scales beside: {p.scales_beside}", 12, False, INK, "lm")
    bl = ", ".join(
        f"{lay.names[b[0]]} {'used' if p.blessings[k] else 'waiting'}" for k, b in enumerate(lay.blessings)
    )
    text(img, (tx, py + 140), f"Blessings: {bl}", 11, False, INK, "lm")
    detail = ", ".join(f"{k} {v}" for k, v in sorted(p.scored.items()))
    text(img, (tx, py + 158), detail[:44], 11, False, MUTED, "lm")
    if current:
        y = py + PANEL_H - 16
        if s.turn.to_place:
            text(img, (tx, y), "▶ placing", 13, True, INK, "lm")
            x = tx + 78
            for e in dict.fromkeys(s.turn.to_place):
                _paste(img, ring_icon(e, 9), x + 9, y)
                text(img, (x + 21, y), f"{s.turn.to_place.count(e)}", 13, True, INK, "lm")
                x += 40
        else:
            doing = {"scale": " — a scale", "overflow": " — overflow"}.get(s.turn.stage, "")
            text(img, (tx, y), f"▶ to play{doing}", 13, True, INK, "lm")


def draw(state: TatsumiState, names: dict[str, str] | None = None) -> Image.Image:
    """The board of ``state`` as an image (1240 x 860 px, taller with 5 players); ``names`` maps player ids to display names."""
    s = state
    img = background(len(s.seats)).copy()
    if any(p.island_key != "tatsumi" for p in s.seats):  # asymmetric islands (TM-15)
        from .tatsumi_modules_a import draw_islands  # noqa: PLC0415 - that module imports this one

        draw_islands(img, s)
    d = ImageDraw.Draw(img)
    sd = len(s.sand_dollars)
    if s.over:
        res = GAME.result(s)
        top = [display_name(w, names, 12) for w in res.winners]
        head = f"Game over after round {s.round} — winner: {' & '.join(top)} ({res.scores[res.winners[0]]})"
    else:
        who = display_name(s.seats[s.current].id, names, 16)
        head = f"Round {s.round}{' (last)' if s.end_triggered else ''} — {who} to play"
    text(img, (W - 14, 25), f"{head} · sand dollars {sd}/13", 16, True, WHITE, "rm")
    sd_order = {w: k + 1 for k, w in enumerate(s.sand_dollars)}
    for w in range(25):
        _draw_well(img, d, s, w, sd_order)
    for p in s.seats:
        x0, y0 = _well_box(p.well)
        colour, kind = player_style(p.mark)
        shape(d, kind, x0 + 68, y0 + 70, 13, colour, outline=WHITE, width=4)
        shape(d, kind, x0 + 68, y0 + 70, 13, colour, outline=INK, width=1)
    for k, edge in enumerate(D.EDGES):
        tx, ty = _tile_xy(edge)
        img.paste(shrine_tile(s.shrines[k], s.sides[k]), (tx, ty))
        cx, cy = _card_xy(edge)
        img.paste(card_face(s.cards[k]), (cx, cy))
        _scale_marks(img, d, s, k, cx, cy + 64)
    for seat in range(len(s.seats)):
        _draw_panel(img, d, s, seat, names)
    if s.weather or s.solo is not None:  # weather module and solo mode (TM-13, TM-14)
        from .tatsumi_modules_b import draw_b  # noqa: PLC0415 - that module imports this one

        draw_b(img, d, s, names)
    return img


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of Tatsumi boards (base, modules, solo, 5 players), from seeded sample games."""
    from games.tatsumi import GAME

    return game_palette(
        GAME, draw, (1, 2, 4, 5), seeds=(1,), every=12,
        options=(None, {"solo": True}, {"island": "asymmetric", "dragons": "asymmetric", "weather": True},
                 {"void": True, "island": "asymmetric"}),
    )


def render(state: TatsumiState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of ``state``; ``names`` maps player ids to display names."""
    return encode_png(draw(state, names), palette())
