"""Tatsumi board additions for the weather module and solo mode (RULINGS TM-13, TM-14), drawn over the base image
by :func:`draw_b` (called from :func:`renderers.tatsumi.render`).

- Weather cards: in the free corners under the west and east shrines — the event name, its side (minor ●○ /
  major ●●), the element (colour, symbol and name), what it does, and its sand dollars on the card, beside it and in
  the sea; a neutralised card is crossed out and says so.
- Solo: the two Tekitatsu (a black spiked disc with "T") and the maelstrom (a spiral with "M") on their wells; the
  face-up solo card (its wells, its upkeep, which tokens sit out), the cards left, and the rank table with the
  current fortune's line marked.

Colour-blind safe: tokens differ by shape and letter, weather cards name their element and show its symbol.
Card frames are cached images; only counts and marks are drawn per render.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tatsumi import data as D
from games.tatsumi.solo_data import SOLO_CARDS, SOLO_RANKS, WEATHER_SWAPS, rank_line, weather_name
from games.tatsumi.state import TatsumiState, WeatherCard

from . import tatsumi as base
from .common import INK, MUTED, WHITE, display_name, font

WCARD_W, WCARD_H = 134, 182
WEATHER_XY = {"minor": (8, 516), "major": (598, 516)}
SOLO_X, SOLO_Y, SOLO_W, SOLO_H = 748, 262, 484, 350
STORM = (60, 40, 70)
GREY = (170, 165, 160)


# ---------------------------------------------------------------------------------------------- weather cards


@lru_cache(maxsize=16)
def weather_face(element: str, side: str) -> Image.Image:
    """A weather card's static face: side dots, event name, element, effect, and the three sand dollar rows."""
    img = Image.new("RGB", (WCARD_W, WCARD_H), base.ELEMENT_TINT[element])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WCARD_W - 1, WCARD_H - 1), outline=INK, width=2)
    d.text((6, 4), "WEATHER", font=font(11, bold=True), fill=INK)
    # ●○ minor / ●● major
    for k in range(2):
        cx = WCARD_W - 30 + k * 14
        filled = k == 0 or side == "major"
        d.ellipse((cx - 5, 6, cx + 5, 16), fill=INK if filled else WHITE, outline=INK, width=2)
    d.text((6, 20), weather_name(element, side), font=font(14, bold=True), fill=INK)
    icon = base.ring_icon(element, 11)
    img.paste(icon, (6, 40), icon)
    d.text((32, 51), f"{side} {D.ELEMENT_NAMES[element]}", font=font(11), fill=INK, anchor="lm")
    n = WEATHER_SWAPS[side]
    d.text(
        (6, 66), f"swap {n} {D.ELEMENT_NAMES[element]} ring{'s' if n > 1 else ''}", font=font(10), fill=INK
    )
    d.text((6, 78), "with a neighbour (all)", font=font(10), fill=INK)
    d.line((4, 94, WCARD_W - 4, 94), fill=MUTED)
    for k, label in enumerate(("on card", "beside", "in sea")):
        d.text((6, 108 + k * 22), label, font=font(12), fill=INK, anchor="lm")
    return img


def _dollar_row(img: Image.Image, x: int, y: int, n: int) -> None:
    """``n`` small sand dollars in a row (overlapping) with the count."""
    icon = base.sand_dollar(7)
    for k in range(min(n, 8)):
        img.paste(icon, (x + k * 7, y - 8), icon)
    base.text(img, (x + 66, y), str(n), 13, True, INK, "lm")


def _draw_weather(img: Image.Image, d: ImageDraw.ImageDraw, c: WeatherCard) -> None:
    x, y = WEATHER_XY[c.side]
    img.paste(weather_face(c.element, c.side), (x, y))
    for k, n in enumerate((c.on_card, c.beside, c.in_wells)):
        _dollar_row(img, x + 54, y + 108 + k * 22, n)
    if c.triggered:
        base.text(
            img,
            (x + 6, y + 170),
            f"struck {c.triggered} time{'s' if c.triggered > 1 else ''}",
            11,
            True,
            INK,
            "lm",
        )
    if c.neutralized:
        img.paste(_veil(), (x, y), _veil())
        d.rectangle((x + 8, y + 84, x + WCARD_W - 8, y + 104), fill=WHITE, outline=INK, width=2)
        base.text(img, (x + WCARD_W // 2, y + 94), "NEUTRALISED", 12, True, INK, "mm")


@lru_cache(maxsize=1)
def _veil() -> Image.Image:
    """A translucent grey wash over a neutralised card."""
    return Image.new("RGBA", (WCARD_W, WCARD_H), GREY + (150,))


# ---------------------------------------------------------------------------------------------- solo tokens


@lru_cache(maxsize=2)
def tekitatsu_icon(r: int = 17) -> Image.Image:
    """A Tekitatsu: a black disc with eight spikes and a white "T"."""
    size = 2 * r + 6
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    pts = []
    for k in range(16):
        a = -math.pi / 2 + k * math.pi / 8
        rr = r + 2 if k % 2 == 0 else r - 4
        pts.append((c + rr * math.cos(a), c + rr * math.sin(a)))
    d.polygon(pts, fill=STORM, outline=WHITE)
    d.text((c, c + 1), "T", font=font(15, bold=True), fill=WHITE, anchor="mm")
    return img


@lru_cache(maxsize=2)
def maelstrom_icon(r: int = 19) -> Image.Image:
    """The maelstrom: a spiral around an "M" on a white disc."""
    size = 2 * r + 4
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    d.ellipse((c - r, c - r, c + r, c + r), fill=WHITE, outline=STORM, width=3)
    pts = []
    for k in range(90):
        a = k * 0.2
        rr = 7 + k * (r - 9) / 90
        pts.append((c + rr * math.cos(a), c + rr * math.sin(a)))
    d.line(pts, fill=STORM, width=2)
    d.text((c, c + 1), "M", font=font(12, bold=True), fill=INK, anchor="mm")
    return img


def _draw_tokens(img: Image.Image, s: TatsumiState) -> None:
    sb = s.solo
    for w in sb.tekitatsu:
        if w >= 0:
            x0, y0 = base._well_box(w)
            base._paste(img, tekitatsu_icon(), x0 + 66, y0 + 66)
    if sb.maelstrom >= 0:
        x0, y0 = base._well_box(sb.maelstrom)
        base._paste(img, maelstrom_icon(), x0 + 66, y0 + 66)


@lru_cache(maxsize=2)
def solo_frame() -> Image.Image:
    """The solo panel's static part: frame, title, legend of the tokens, rank table."""
    img = Image.new("RGB", (SOLO_W, SOLO_H), (244, 240, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, SOLO_W - 1, SOLO_H - 1), outline=INK, width=2)
    d.text((12, 10), "SOLO — the maelstrom season", font=font(16, bold=True), fill=INK)
    t, m = tekitatsu_icon(), maelstrom_icon()
    img.paste(t, (12, 124), t)
    d.text(
        (56, 143), "Tekitatsu: guards its well; after your turn washes", font=font(11), fill=INK, anchor="lm"
    )
    d.text((56, 157), "away the top ring of its 4 neighbours", font=font(11), fill=INK, anchor="lm")
    img.paste(m, (12, 170), m)
    d.text((56, 190), "Maelstrom: guards its well", font=font(11), fill=INK, anchor="lm")
    d.text((12, 222), "Rank", font=font(12, bold=True), fill=MUTED)
    for k, (least, line) in enumerate(SOLO_RANKS):
        y = 242 + k * 14
        d.text((30, y), f"{least}+" if least else "<70", font=font(11, bold=True), fill=INK, anchor="lm")
        d.text((70, y), line, font=font(11), fill=INK, anchor="lm")
    return img


def _draw_solo_panel(img: Image.Image, d: ImageDraw.ImageDraw, s: TatsumiState) -> None:
    sb = s.solo
    img.paste(solo_frame(), (SOLO_X, SOLO_Y))
    x, y = SOLO_X, SOLO_Y
    card = SOLO_CARDS[sb.card]
    n = 16 - len(sb.deck)
    base.text(img, (x + SOLO_W - 12, y + 20), f"card {n} of 16 · {len(sb.deck)} left", 13, True, INK, "rm")
    base.text(
        img,
        (x + 12, y + 48),
        f"Tekitatsu on {card.tekitatsu[0]} and {card.tekitatsu[1]} · maelstrom on {card.maelstrom}",
        14,
        True,
        INK,
        "lm",
    )
    up = (
        f"upkeep: the {D.EDGE_NAMES[card.upkeep]} shrine flips after your turn"
        if card.upkeep
        else "no upkeep"
    )
    if s.over:
        up = f"Final: {s.seats[0].fortune} fortune — {rank_line(s.seats[0].fortune)}"
    base.text(img, (x + 12, y + 72), up, 12, s.over, INK, "lm")
    off = [w for w, cur in zip(card.tekitatsu, sb.tekitatsu, strict=True) if cur < 0]
    if sb.maelstrom < 0:
        off.append(card.maelstrom)
    if off:
        base.text(img, (x + 12, y + 94), f"off the board this round: {', '.join(off)}", 12, True, INK, "lm")
    base.text(img, (x + 12, y + 112), f"turns played: {sb.turns}", 11, False, MUTED, "lm")
    fortune = s.seats[0].fortune
    for k, (least, _) in enumerate(SOLO_RANKS):
        if fortune >= least:
            yy = y + 242 + k * 14
            d.polygon([(x + 14, yy - 5), (x + 24, yy), (x + 14, yy + 5)], fill=INK)
            break


# ---------------------------------------------------------------------------------------------- entry point


def draw_b(
    img: Image.Image, d: ImageDraw.ImageDraw, s: TatsumiState, names: dict[str, str] | None = None
) -> None:
    """Draw the weather cards and the solo tokens and panel of ``s`` onto ``img`` (nothing without them), and what a
    pending weather decision waits for."""
    for c in s.weather:
        _draw_weather(img, d, c)
    if s.interrupts and not s.interrupts[0].startswith("solo:"):
        head = s.interrupts[0].split(":")
        if head[0] == "sand":
            who, what = s.seats[s.current].id, f"sand dollar for {head[1]}"
        elif head[0] == "swap":
            who, what = s.seats[int(head[1])].id, f"{D.ELEMENT_NAMES[head[2]]} swap ({head[3]} to go)"
        else:
            who, what = s.seats[int(head[1])].id, "blessing scale"
        x, y = WEATHER_XY["minor"]
        base.text(img, (x, y + WCARD_H + 14), "▶ weather:", 13, True, INK, "lm")
        base.text(img, (x, y + WCARD_H + 32), display_name(who, names, 16), 13, True, INK, "lm")
        base.text(img, (x, y + WCARD_H + 50), what, 12, False, INK, "lm")
    if s.solo is not None:
        _draw_tokens(img, s)
        _draw_solo_panel(img, d, s)
