"""Tatsumi's small pictures: element colours and symbols, rings, the pips of a well's stack, sand dollars, player
marks, and the cached text helper every Tatsumi module writes with.

Every element has a colour (Okabe-Ito), a symbol (fire flame, water drop, wind waves, lightning bolt) and a name;
the symbol is drawn on every ring and every pip, so no element is told by colour alone.
Player marks (:func:`player_mark`) are the seat's shape, never a disc in an element's colour, so a dragon is never
mistaken for a ring.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .. import common
from ..common import BLUE, GREEN, INK, ORANGE, PURPLE, VERMILION, WHITE, Sprite, font, paste_sprite, sprite

SEA = (214, 232, 240)
SEA_DEEP = (170, 205, 222)
SAND = (236, 220, 180)
GOLD = (200, 160, 40)
YELLOW_D = (205, 190, 20)
NAME_INK = (70, 64, 58)
"""Grey ink for names and captions: 8.6:1 on the paper colour (aim 4.5:1)."""
ELEMENT_COLOUR = {"F": VERMILION, "W": BLUE, "N": GREEN, "L": YELLOW_D}
ELEMENT_TINT = {"F": (246, 214, 190), "W": (196, 222, 240), "N": (196, 235, 220), "L": (248, 242, 180)}
SYMBOL_INK = {"F": WHITE, "W": WHITE, "N": WHITE, "L": INK}
"""The symbol's colour on a pip filled with the element's colour (dark enough for white, lightning takes ink)."""

PLAYER_COLOURS = (BLUE, VERMILION, GREEN, PURPLE, ORANGE)
PLAYER_SHAPES = ("diamond", "square", "triangle", "circle", "star")
"""Tatsumi's seat styles: the colours of :data:`renderers.common.PLAYER_COLOURS`, with shapes reordered so that no
seat whose colour is an element's colour is a disc (rings are discs): blue diamond, vermilion square, green
triangle, purple circle, orange star."""


def player_style(seat_mark: int) -> tuple[tuple[int, int, int], str]:
    """(colour, shape) of the player whose ``Seat.mark`` is ``seat_mark`` (0-4)."""
    return PLAYER_COLOURS[seat_mark % 5], PLAYER_SHAPES[seat_mark % 5]


def label(img: Image.Image, xy: tuple[float, float], s: str, size: int, bold: bool = False, fill=INK,
          anchor: str = "la") -> None:
    """Write ``s`` (``size`` px) at ``xy`` with a Pillow anchor through :func:`renderers.common.text` (cached
    glyph masks; the shared font machinery, so every script's names land here too)."""
    if s:
        common.text(img, xy, s, size, fill=tuple(fill), bold=bold, anchor=anchor)


def text_width(s: str, size: int, bold: bool = False) -> float:
    """Advance width of ``s`` (in the image's language, :func:`renderers.common.words`) at ``size`` px."""
    return _text_width(str(common.words(s)), size, bold)


@lru_cache(maxsize=1024)
def _text_width(s: str, size: int, bold: bool = False) -> float:
    """Advance width of ``s`` at ``size`` px, cached (by the words drawn: a Text equals its English wording)."""
    return font(size, bold).getlength(s)


def paste(img: Image.Image, icon: Image.Image | Sprite, cx: float, cy: float) -> None:
    """Paste ``icon`` (an RGBA image, or a :class:`~renderers.common.Sprite`: faster, for what every board
    draws) centred on (cx, cy)."""
    x, y = int(cx - icon.width / 2), int(cy - icon.height / 2)
    if isinstance(icon, Sprite):
        paste_sprite(img, icon, x, y)
    else:
        img.paste(icon, (x, y), icon)


def symbol(d: ImageDraw.ImageDraw, e: str, cx: float, cy: float, s: float, fill) -> None:
    """The element's symbol in a box of half-size ``s`` px: flame, drop, waves, bolt."""
    if e == "F":  # three tongues of flame on a round base: unlike the drop's single point
        pts = [(-0.62, 0.55), (-0.75, -0.1), (-0.4, -0.55), (-0.25, -0.05), (0.0, -1.0), (0.25, -0.05), (0.4, -0.55),
               (0.75, -0.1), (0.62, 0.55), (0.3, 0.85), (-0.3, 0.85)]
        d.polygon([(cx + x * s, cy + y * s) for x, y in pts], fill=fill)
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
    symbol(d, e, c, c, (r - width) * 0.75, INK if e == "L" else ELEMENT_COLOUR[e])
    return img


@lru_cache(maxsize=64)
def ring_sprite(e: str, r: int) -> Sprite:
    """:func:`ring_icon` as a cached :class:`~renderers.common.Sprite`, for the rings a board pastes each time."""
    return sprite(ring_icon(e, r))


@lru_cache(maxsize=16)
def pip_icon(e: str, size: int) -> Image.Image:
    """A ring under a well's top ring: a ``size`` px square in the element's colour with its symbol in white (ink
    on lightning), so fire, water and wind differ in greyscale too."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, size - 1, size - 1), fill=ELEMENT_COLOUR[e], outline=INK)
    symbol(d, e, size / 2, size / 2, size * 0.36, SYMBOL_INK[e])
    return img


@lru_cache(maxsize=8)
def sand_dollar(r: int) -> Image.Image:
    """A sand dollar of radius ``r`` px (RGBA): five petals and a "$"."""
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


@lru_cache(maxsize=64)
def mark_icon(seat_mark: int, r: float, halo: bool) -> Sprite:
    """The player mark of :func:`player_mark` as a cached :class:`~renderers.common.Sprite`."""
    colour, kind = player_style(seat_mark)
    size = int(2 * r + 8)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    if halo:
        common.shape(d, kind, c, c, r, colour, outline=WHITE, width=4)
    common.shape(d, kind, c, c, r, colour, outline=INK, width=1 if halo else 2)
    return sprite(img)


def player_mark(img: Image.Image, seat_mark: int, cx: float, cy: float, r: float, halo: bool = False) -> None:
    """The mark of the player with ``Seat.mark`` ``seat_mark``: their shape in their colour, ``r`` px, centred on
    (cx, cy); ``halo`` adds a white outline (a dragon on the sea)."""
    paste(img, mark_icon(seat_mark, r, halo), cx, cy)
