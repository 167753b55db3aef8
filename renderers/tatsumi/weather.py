"""Tatsumi's weather cards (RULINGS TM-13) on the full board, in the free corners under the west and east
shrines: the event name, its side (minor ●○ / major ●●), the element (colour, symbol and name), what it does, and
its sand dollars on the card, beside it and in the sea (counts ``DOLLAR_PX`` px: a sand-dollar choice depends on
them); a neutralised card is crossed out and says so. Below the minor card, what a pending weather decision waits
for.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import N, T
from games.tatsumi import data as D
from games.tatsumi.solo_data import WEATHER_SWAPS, weather_name
from games.tatsumi.state import TatsumiState, WeatherCard

from ..common import INK, MUTED, WHITE, display_name, font, words
from .icons import ELEMENT_TINT, label, ring_icon, sand_dollar

WCARD_W, WCARD_H = 134, 182
WEATHER_XY = {"minor": (8, 516), "major": (598, 516)}
ROWS = ("card", "beside", "sea")
"""The sand dollar rows of a weather card, top to bottom."""
ROW_Y = 108
ROW_STEP = 22
DOLLAR_PX = 17
"""Size of the sand dollar counts on a weather card, px."""
GREY = (170, 165, 160)


def row_y(row: str) -> int:
    """The y (px from a weather card's top) of sand dollar row ``row`` (one of :data:`ROWS`)."""
    return ROW_Y + ROWS.index(row) * ROW_STEP


def weather_face(element: str, side: str) -> Image.Image:
    """A weather card's static face: side dots, event name, element, effect, and the three sand dollar rows, in the
    image's language."""
    return _weather_face(element, side, language_key())


def language_key() -> str:
    """A word of the cards in the image's language: the caches of drawn cards are keyed by it."""
    return str(words(T("WEATHER")))


@lru_cache(maxsize=16)
def _weather_face(element: str, side: str, language: str) -> Image.Image:
    img = Image.new("RGB", (WCARD_W, WCARD_H), ELEMENT_TINT[element])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WCARD_W - 1, WCARD_H - 1), outline=INK, width=2)
    d.text((6, 4), language, font=font(11, bold=True), fill=INK)
    for k in range(2):  # ●○ minor / ●● major
        cx = WCARD_W - 30 + k * 14
        filled = k == 0 or side == "major"
        d.ellipse((cx - 5, 6, cx + 5, 16), fill=INK if filled else WHITE, outline=INK, width=2)
    d.text((6, 20), words(weather_name(element, side)), font=font(14, bold=True), fill=INK)
    icon = ring_icon(element, 11)
    img.paste(icon, (6, 40), icon)
    side_text = (T("minor {element}", element=D.ELEMENT_TEXT[element]) if side == "minor"
                 else T("major {element}", element=D.ELEMENT_TEXT[element]))
    d.text((32, 51), words(side_text), font=font(11), fill=INK, anchor="lm")
    n = WEATHER_SWAPS[side]
    swap = str(words(N("swap {n} {element} ring", "swap {n} {element} rings", n=n, element=D.ELEMENT_TEXT[element])))
    d.text((6, 65), swap, font=font(11 if font(11).getlength(swap) <= WCARD_W - 12 else 10), fill=INK)
    d.text((6, 78), words(T("with a neighbour (all)")), font=font(11), fill=INK)
    d.line((4, 94, WCARD_W - 4, 94), fill=MUTED)
    for row, text in zip(ROWS, (T("on card"), T("beside"), T("in sea")), strict=True):
        d.text((6, row_y(row)), words(text), font=font(12), fill=INK, anchor="lm")
    return img


def _dollar_row(img: Image.Image, x: int, y: int, n: int) -> None:
    """``n`` small sand dollars in a row (overlapping) with the count."""
    icon = sand_dollar(7)
    for k in range(min(n, 6)):
        img.paste(icon, (x + k * 7, y - 8), icon)
    label(img, (x + 58, y), str(n), DOLLAR_PX, True, INK, "lm")


@lru_cache(maxsize=1)
def _veil() -> Image.Image:
    """A translucent grey wash over a neutralised card."""
    return Image.new("RGBA", (WCARD_W, WCARD_H), GREY + (150,))


def draw_card(img: Image.Image, c: WeatherCard, x: int | None = None, y: int | None = None) -> None:
    """Weather card ``c`` with its sand dollars, strikes and neutralisation, its top-left at (x, y) px (default:
    its corner of the full board, :data:`WEATHER_XY`)."""
    if x is None or y is None:
        x, y = WEATHER_XY[c.side]
    d = ImageDraw.Draw(img)
    img.paste(weather_face(c.element, c.side), (x, y))
    for row, n in zip(ROWS, (c.on_card, c.beside, c.in_wells), strict=True):
        _dollar_row(img, x + 54, y + row_y(row), n)
    if c.triggered:
        label(img, (x + 6, y + 170), N("struck {n} time", "struck {n} times", n=c.triggered), 11, True, INK, "lm")
    if c.neutralized:
        img.paste(_veil(), (x, y), _veil())
        d.rectangle((x + 8, y + 84, x + WCARD_W - 8, y + 104), fill=WHITE, outline=INK, width=2)
        label(img, (x + WCARD_W // 2, y + 94), T("NEUTRALISED"), 12, True, INK, "mm")


@lru_cache(maxsize=32)
def _card_image(element: str, side: str, on_card: int, beside: int, in_wells: int, triggered: int,
                neutralized: bool, language: str = "") -> Image.Image:
    img = Image.new("RGB", (WCARD_W, WCARD_H))
    draw_card(img, WeatherCard(element=element, side=side, total=on_card + beside + in_wells, on_card=on_card,
                               in_wells=in_wells, triggered=triggered, neutralized=neutralized), 0, 0)
    return img


def card_image(c: WeatherCard) -> Image.Image:
    """Weather card ``c`` as :func:`draw_card` draws it, on its own (``WCARD_W x WCARD_H`` px, what would run
    past its edge left out), for the close-ups. Cached by its content (32 images): a card changes only when a
    sand dollar moves, it strikes or it is neutralised."""
    return _card_image(c.element, c.side, c.on_card, c.beside, c.in_wells, c.triggered, c.neutralized,
                       language_key())


def draw_weather(img: Image.Image, s: TatsumiState, names: dict[str, str] | None = None) -> None:
    """The weather cards of ``s`` and what a pending weather decision waits for (nothing without the module)."""
    for c in s.weather:
        draw_card(img, c)
    if s.interrupts and not s.interrupts[0].startswith("solo:"):
        head = s.interrupts[0].split(":")
        if head[0] == "sand":
            who, what = s.seats[s.current].id, T("sand dollar for {well}", well=head[1])
        elif head[0] == "swap":
            who, what = s.seats[int(head[1])].id, T("{element} swap ({n} to go)", element=D.ELEMENT_TEXT[head[2]],
                                                    n=int(head[3]))
        else:
            who, what = s.seats[int(head[1])].id, T("blessing scale")
        x, y = WEATHER_XY["minor"]
        label(img, (x, y + WCARD_H + 14), T("▶ weather:"), 13, True, INK, "lm")
        label(img, (x, y + WCARD_H + 32), display_name(who, names, 16), 13, True, INK, "lm")
        label(img, (x, y + WCARD_H + 50), what, 12, False, INK, "lm")
