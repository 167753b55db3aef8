"""Tsukimi board image: the Moon (19 labelled spaces, vertex markers), rabbits, the tile circle, reserves.

Layout (1000 x 1100 px): a header with both clans (shape, colour, name, reserve, box, board, points now), the Moon
in the middle with the 19 tiles of the circle around it (the Temple always at the top, each tile's cost in a
badge, gaps as dashed rings), and a footer with whose turn it is (or the result) and a legend.

Colour never carries meaning alone (STYLE / HELPER brief): white rabbits are circles, purple rabbits squares, each
with its initial; tiles carry their flavour's name and value; claims at the end show the claimer's shape and the
counts. The static background (night sky, empty Moon, space labels, vertex dots, recruit marks) and the tile and
rabbit sprites are cached; a render pastes them and draws only the few texts that change.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tsukimi import rules
from games.tsukimi.board import SPACE_XY, SPACES, VERTEX_XY, VERTICES, corner_name
from games.tsukimi.data import COLOURS, EFFECTS, RECRUIT, TEMPLE, TILES
from games.tsukimi.state import TsukimiState
from renderers.common import (
    BLUE,
    GREEN,
    INK,
    ORANGE,
    VERMILION,
    WHITE,
    YELLOW,
    display_name,
    encode_png,
    font,
    game_palette,
)

W, H = 1000, 1100
CX, CY = 500, 580
S = 58  # hex size (centre to corner), px
RING_R = 372
SLOT_R = 38
NIGHT = (22, 30, 56)
NIGHT_LINE = (70, 84, 120)
MOON = {"light": (226, 224, 212), "dark": (104, 104, 122)}
MOON_EDGE = {"light": (160, 156, 140), "dark": (60, 60, 76)}
MOON_TEXT = {"light": (120, 116, 104), "dark": (200, 200, 214)}
PURPLE_CLAN = (118, 64, 170)
CLAN_FILL = (WHITE, PURPLE_CLAN)
CLAN_SHAPE = ("circle", "square")
LIGHT_TEXT = (236, 236, 244)
DIM_TEXT = (160, 168, 196)
FLAVOUR_FILL = {
    "strawberry": VERMILION,
    "blueberry": BLUE,
    "carrot": ORANGE,
    "matcha": GREEN,
    "sakura": (246, 186, 212),
}
FLAVOUR_TEXT = {"strawberry": WHITE, "blueberry": WHITE, "carrot": INK, "matcha": WHITE, "sakura": INK}
RABBIT_R = 12


def _px(x: float, y: float) -> tuple[float, float]:
    return CX + x * S, CY + y * S


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


@lru_cache(maxsize=2)
def _background(side: str) -> Image.Image:
    """Night sky, the empty Moon with space labels, vertex dots and (dark side) recruit marks, the legend."""
    img = Image.new("RGB", (W, H), NIGHT)
    d = ImageDraw.Draw(img)
    d.ellipse((CX - RING_R + SLOT_R + 14, CY - RING_R + SLOT_R + 14, CX + RING_R - SLOT_R - 14,
               CY + RING_R - SLOT_R - 14), fill=(30, 40, 72))
    d.ellipse((CX - RING_R, CY - RING_R, CX + RING_R, CY + RING_R), outline=NIGHT_LINE, width=2)
    for sp in SPACES:
        cx, cy = _px(*SPACE_XY[sp])
        d.polygon(_hex(cx, cy, S - 1), fill=MOON[side], outline=MOON_EDGE[side], width=2)
        d.text((cx, cy - S * 0.52), sp, font=font(15, True), fill=MOON_TEXT[side], anchor="mm")
        if side == "dark" and RECRUIT.get(sp):
            d.text((cx, cy + S * 0.45), f"recruit {RECRUIT[sp]}", font=font(12), fill=MOON_TEXT[side], anchor="mm")
    for v in VERTICES:
        x, y = _px(*VERTEX_XY[v])
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=MOON_EDGE[side])
    # legend
    y = H - 28
    x = 24
    for seat in (0, 1):
        _shape(d, CLAN_SHAPE[seat], x + 9, y, 9, CLAN_FILL[seat])
        label = f"{COLOURS[seat]} rabbit"
        d.text((x + 24, y), label, font=font(15), fill=LIGHT_TEXT, anchor="lm")
        x += 24 + d.textlength(label, font=font(15)) + 24
    legend = "+n: place up to n rabbits  ·  ⇄: move 1 rabbit  ·  badge: cost in rabbits"
    d.text((x, y), legend, font=font(15), fill=DIM_TEXT, anchor="lm")
    return img


def _shape(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill) -> None:
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    else:
        d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=WHITE if fill != WHITE else INK, width=2)


@lru_cache(maxsize=4)
def _rabbit(seat: int, r: int = RABBIT_R) -> Image.Image:
    """A rabbit mark: white clan a white circle with 'W', purple clan a purple square with 'P'."""
    size = 2 * r + 6
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    _shape(d, CLAN_SHAPE[seat], c, c, r, CLAN_FILL[seat])
    d.text((c, c + 1), "WP"[seat], font=font(int(r * 1.2), True), fill=INK if seat == 0 else WHITE, anchor="mm")
    return img


@lru_cache(maxsize=32)
def _board_tile(tile: int) -> Image.Image:
    """A mochi tile as it lies on a space: a flavour-coloured hex with the flavour, value and effects."""
    t = TILES[tile]
    size = 2 * S
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    d.polygon(_hex(c, c, S * 0.80), fill=FLAVOUR_FILL[t.flavour], outline=INK, width=2)
    fg = FLAVOUR_TEXT[t.flavour]
    d.text((c, c - 19), t.flavour, font=font(11 if len(t.flavour) > 7 else 12, True), fill=fg, anchor="mm")
    d.text((c, c + 2), str(t.value), font=font(26, True), fill=fg, anchor="mm")
    d.text((c, c + 24), _effects_text(t.value), font=font(14, True), fill=fg, anchor="mm")
    return img


@lru_cache(maxsize=1)
def _gap() -> Image.Image:
    """The dashed ring left by a taken tile (TS-4: gaps stay)."""
    size = 2 * SLOT_R + 4
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    for k in range(12):
        d.arc((c - SLOT_R, c - SLOT_R, c + SLOT_R, c + SLOT_R), k * 30, k * 30 + 15, fill=NIGHT_LINE, width=2)
    return img


@lru_cache(maxsize=64)
def _badge(cost: int, takeable: bool) -> Image.Image:
    """A tile's cost badge: yellow when the player to act may take it now."""
    img = Image.new("RGBA", (36, 26), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, 35, 25), radius=8, fill=YELLOW if takeable else (60, 70, 100), outline=INK)
    d.text((18, 13), str(cost), font=font(16, True), fill=INK if takeable else LIGHT_TEXT, anchor="mm")
    return img


@lru_cache(maxsize=64)
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
        d.text((c, c), "TEMPLE", font=font(12, True), fill=WHITE, anchor="mm")
        return img
    t = TILES[tile]
    fg = FLAVOUR_TEXT[t.flavour]
    d.ellipse((c - r, c - r, c + r, c + r), fill=FLAVOUR_FILL[t.flavour], outline=INK, width=2)
    d.text((c, c - 17), t.flavour, font=font(10 if len(t.flavour) > 7 else 11, True), fill=fg, anchor="mm")
    d.text((c, c + 1), str(t.value), font=font(22, True), fill=fg, anchor="mm")
    d.text((c, c + 21), _effects_text(t.value), font=font(11, True), fill=fg, anchor="mm")
    return img


def _paste(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    w, h = sprite.size
    img.paste(sprite, (round(cx - w / 2), round(cy - h / 2)), sprite)


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of Tsukimi boards (both sides of the Moon), from seeded sample games."""
    from games.tsukimi import GAME

    return game_palette(GAME, draw, (2,), options=({"side": "light"}, {"side": "dark"}))


def render(state: TsukimiState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes of ``state``: Moon, rabbits, tile circle with costs, reserves; claims once the game is over.
    ``names`` maps player ids to display names (ids are shown otherwise)."""
    return encode_png(draw(state, names), palette())


def draw(state: TsukimiState, names: dict[str, str] | None = None) -> Image.Image:
    """The board image (RGB, W x H) behind :func:`render`."""
    img = _background(state.side).copy()
    d = ImageDraw.Draw(img)
    over = state.phase == "over"
    decisions = rules.pending(state)
    decision = decisions[0] if decisions else None
    option_ids = {o.id for o in decision.options} if decision else set()

    # -- the tile circle --------------------------------------------------------------------------------------
    temple = state.circle.index(TEMPLE)
    costs = rules.costs(state.circle)
    for slot, tile in enumerate(state.circle):
        x, y = _slot_xy(slot, temple)
        if tile is None:
            _paste(img, _gap(), x, y)
            continue
        takeable = f"tile:{tile}" in option_ids
        _paste(img, _ring_tile(tile, takeable), x, y)
        if tile == TEMPLE:
            continue
        a = math.atan2(y - CY, x - CX)
        bx, by = CX + (RING_R + SLOT_R + 17) * math.cos(a), CY + (RING_R + SLOT_R + 17) * math.sin(a)
        _paste(img, _badge(costs[tile], takeable), bx, by)

    # -- the Moon -------------------------------------------------------------------------------------------------
    if state.phase == "place":
        for oid in option_ids:
            if oid.startswith("space:"):
                cx, cy = _px(*SPACE_XY[oid[6:]])
                d.polygon(_hex(cx, cy, S - 4), outline=YELLOW, width=4)
    for sp, tile in state.board.items():
        cx, cy = _px(*SPACE_XY[sp])
        _paste(img, _board_tile(tile), cx, cy)
    if state.space is not None and not over:
        cx, cy = _px(*SPACE_XY[state.space])
        d.polygon(_hex(cx, cy, S - 3), outline=YELLOW, width=4)
    if over:
        _draw_claims(state, d)
    for v, seat in state.rabbits.items():
        x, y = _px(*VERTEX_XY[v])
        _paste(img, _rabbit(seat), x, y)
    # where a rabbit may go now
    for oid in option_ids:
        kind, _, v = oid.partition(":")
        if kind in ("place", "to"):
            x, y = _px(*VERTEX_XY[v])
            d.ellipse((x - 8, y - 8, x + 8, y + 8), outline=YELLOW, width=3)
            if kind == "place":
                corner = corner_name(state.space, v).split("-")[1]
                ox, oy = _px(*SPACE_XY[state.space])
                lx, ly = ox + (x - ox) * 1.36, oy + (y - oy) * 1.36
                d.text((lx, ly), corner, font=font(13, True), fill=INK, anchor="mm", stroke_width=3,
                       stroke_fill=YELLOW)
        elif kind in ("move", "discard"):
            x, y = _px(*VERTEX_XY[v])
            d.ellipse((x - RABBIT_R - 5, y - RABBIT_R - 5, x + RABBIT_R + 5, y + RABBIT_R + 5),
                      outline=YELLOW if kind == "move" else VERMILION, width=3)
    if state.phase == "move_to" and state.moving_from:
        x, y = _px(*VERTEX_XY[state.moving_from])
        d.ellipse((x - RABBIT_R - 5, y - RABBIT_R - 5, x + RABBIT_R + 5, y + RABBIT_R + 5), outline=YELLOW, width=4)

    _draw_header(state, d, names)
    _draw_footer(state, d, names, decision)
    return img


def _draw_claims(state: TsukimiState, d: ImageDraw.ImageDraw) -> None:
    """Game end: each tile's claim: the claimer's shape and the counts (white-purple), or 'tie' when discarded."""
    for sp, claim in rules.claims(state).items():
        cx, cy = _px(*SPACE_XY[sp])
        w, p = claim.counts
        if claim.winner is None:
            d.polygon(_hex(cx, cy, S * 0.80), outline=(40, 40, 40), width=5)
            text, fill, fg = f"tie {w}-{p}", (70, 70, 70), WHITE
        else:
            d.polygon(_hex(cx, cy, S * 0.84), outline=CLAN_FILL[claim.winner], width=6)
            text, fill, fg = f"{w}-{p}", CLAN_FILL[claim.winner], INK if claim.winner == 0 else WHITE
        bx, by = cx, cy + 25
        d.rounded_rectangle((bx - 30, by - 11, bx + 30, by + 11), radius=6, fill=fill, outline=INK)
        if claim.winner is not None:
            _shape(d, CLAN_SHAPE[claim.winner], bx - 19, by, 6, CLAN_FILL[claim.winner])
            d.text((bx + 7, by), text, font=font(14, True), fill=fg, anchor="mm")
        else:
            d.text((bx, by), text, font=font(13, True), fill=fg, anchor="mm")


def _draw_header(state: TsukimiState, d: ImageDraw.ImageDraw, names) -> None:
    st = rules.standings(state)
    d.text((CX, 22), f"Tsukimi · {state.side} side · {len(state.board)}/18 mochi placed", font=font(22, True), fill=LIGHT_TEXT, anchor="mm")
    on_board = [sum(1 for s in state.rabbits.values() if s == seat) for seat in (0, 1)]
    for seat in (0, 1):
        x0 = 24 if seat == 0 else W // 2 + 12
        y0 = 48
        active = state.phase != "over" and state.turn == seat
        d.rounded_rectangle((x0, y0, x0 + W // 2 - 36, y0 + 72), radius=10,
                            fill=(40, 52, 92) if active else (30, 40, 72), outline=YELLOW if active else NIGHT_LINE,
                            width=3 if active else 1)
        _shape(d, CLAN_SHAPE[seat], x0 + 24, y0 + 22, 11, CLAN_FILL[seat])
        name = display_name(state.players[seat], names, 18)
        d.text((x0 + 44, y0 + 22), f"{name} ({COLOURS[seat]})", font=font(18, True), fill=LIGHT_TEXT, anchor="lm")
        pts = "points" if state.phase == "over" else "points now"
        d.text((x0 + 14, y0 + 52), f"reserve {state.reserve[seat]} · board {on_board[seat]} · box "
                                   f"{state.box[seat]} · {st.points[seat]} {pts}", font=font(15), fill=LIGHT_TEXT, anchor="lm")


def _draw_footer(state: TsukimiState, d: ImageDraw.ImageDraw, names, decision) -> None:
    y = H - 64
    if state.phase == "over":
        st = rules.standings(state)
        a, b = (display_name(p, names, 18) for p in state.players)
        if st.points[0] != st.points[1] or st.tiles[0] != st.tiles[1] or st.reserve[0] != st.reserve[1]:
            key = [(st.points[i], st.tiles[i], st.reserve[i]) for i in (0, 1)]
            win = (a, b)[0 if key[0] > key[1] else 1]
            text = f"Game over: {a} {st.points[0]} - {b} {st.points[1]} points · {win} wins"
        else:
            text = f"Game over: {a} {st.points[0]} - {b} {st.points[1]} points · shared win"
        d.text((CX, y), text, font=font(19, True), fill=YELLOW, anchor="mm")
        return
    who = display_name(state.players[state.turn], names, 18)
    if decision is not None and any(o.id.startswith("discard:") for o in decision.options):
        d.text((CX, y), f"To play: {who} ({COLOURS[state.turn]}) discards a rival rabbit (red rings)", font=font(18, True), fill=YELLOW, anchor="mm")
        return
    what = {"choose_tile": "takes a tile (yellow badges: affordable)", "place_tile": "places "
            + (f"{TILES[state.tile].flavour} {TILES[state.tile].value}" if state.tile else "a tile")
            + " on a yellow space", "effects": "places / moves rabbits (yellow rings)",
            "move_to": "moves the ringed rabbit to a yellow ring"}.get(decision.kind if decision else "", "")
    d.text((CX, y), f"To play: {who} ({COLOURS[state.turn]}) {what}", font=font(18, True), fill=YELLOW, anchor="mm")
