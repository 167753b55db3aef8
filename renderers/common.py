"""Pieces every renderer shares: fonts, a colour-blind-safe palette, player marks, PNG encoding.

Colours come from the Okabe-Ito palette (distinguishable with every common colour-vision deficiency); every
player also gets a shape and their name is written beside it, so colour never carries meaning alone.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# Okabe-Ito
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
INK = (34, 30, 28)
PAPER = (246, 240, 228)
MUTED = (120, 112, 104)

PLAYER_COLOURS = [BLUE, VERMILION, GREEN, PURPLE, ORANGE]
PLAYER_SHAPES = ["circle", "square", "triangle", "diamond", "star"]


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A scalable font of ``size`` px: DejaVu Sans when the system has it, else Pillow's bundled font."""
    names = ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"] if bold else ["DejaVuSans.ttf"]
    for name in names:
        for path in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
            try:
                return ImageFont.truetype(path, size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill=INK) -> None:
    """Write ``text`` centred on ``xy``."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    fnt = font(size, bold)
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=fnt, anchor=anchor)
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, left, top


def text(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill=INK, bold: bool = False,
         anchor: str = "la") -> None:
    """Write ``text`` like ``ImageDraw.text(xy, text, font=font(size, bold), anchor=anchor)``, from a cached
    glyph mask: rasterising text is most of a board's drawing time, and boards repeat their texts."""
    mask, left, top = _text_mask(text, size, bold, anchor)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


def shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill, outline=INK, width=2) -> None:
    """Draw a player mark of ``kind`` (one of PLAYER_SHAPES) centred on (cx, cy) with radius ``r`` px."""
    if kind == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    elif kind == "square":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    elif kind == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=fill, outline=outline, width=width)
    elif kind == "diamond":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=outline, width=width)
    elif kind == "star":
        pts = []
        for i in range(10):
            ang = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    else:
        raise ValueError(f"unknown shape {kind!r}")


MARKER_FILL = WHITE
MARKER_INK = BLACK


def marker(img: Image.Image, cx: float, cy: float, key: str, r: float = 14) -> None:
    """Draw the marker of an offered place: a white disc with a black ring and ``key`` ("1", "12", …) in bold
    black, centred on (cx, cy), radius ``r`` px (the key's text is ``1.3 * r`` px tall). White and black are no
    piece's colour, so a marker never shares a colour with what it sits on (issue 13: no colour-only signs).
    The key is the one :func:`games.marker_keys` gives the option, which the buttons and menus start with."""
    draw = ImageDraw.Draw(img)
    w = max(2, round(r / 6))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MARKER_FILL, outline=MARKER_INK, width=w)
    size = round(r * (1.3 if len(key) == 1 else 1.05))
    text(img, (cx, cy), key, size, fill=MARKER_INK, bold=True, anchor="mm")


def player_style(index: int) -> tuple[tuple[int, int, int], str]:
    """(colour, shape) of the player in seat ``index``."""
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)], PLAYER_SHAPES[index % len(PLAYER_SHAPES)]


def display_name(player: str, names: dict[str, str] | None, limit: int = 16) -> str:
    name = (names or {}).get(player, player)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def encode_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``img`` at a fast compression level (1).

    With ``palette`` (a "P" image from :func:`make_palette`), pixels are mapped to its colours without dithering
    first: an 8-bit PNG encodes about 4x faster and half as large as RGB. Use it only with a palette built from
    every colour the renderer draws (nearest-colour mapping would shift a colour the palette lacks)."""
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def game_palette(game, draw, player_counts: tuple[int, ...], seeds: tuple[int, ...] = (1, 2), every: int = 9,
                 options: tuple = (None,)) -> Image.Image:
    """A palette (see :func:`make_palette`) from boards met in seeded random-legal games of ``game``: every
    ``every``-th position and the last, for each player count, seed and options. ``draw(state)`` returns an image.
    Deterministic (seeded), computed once per renderer and cached by the caller."""
    import random

    from games.ai import next_move

    samples = []
    for n in player_counts:
        for opts in options:
            for seed in seeds:
                rng = random.Random(seed)
                try:
                    state = game.setup([f"p{i}" for i in range(n)], opts, seed)
                except ValueError:  # options that need another player count (e.g. solo)
                    continue
                k = 0
                while (move := next_move(game, state, {}, rng)) is not None:
                    state = game.apply(state, move).state
                    k += 1
                    if k % every == 0 and len(samples) < 40:
                        samples.append(draw(state))
                samples.append(draw(state))
    return make_palette(samples)


def make_palette(samples: list[Image.Image], exact: int = 128) -> Image.Image:
    """A 256-colour palette image (mode "P") covering ``samples``: the ``exact`` most frequent colours kept exactly
    (backgrounds, inks, piece colours stay true), the rest of the slots from a median cut (anti-aliased edges).
    Renderers build one from representative boards (every piece and colour they draw) and cache it."""
    width = max(im.width for im in samples)
    sheet = Image.new("RGB", (width, sum(im.height for im in samples)))
    y = 0
    for im in samples:
        sheet.paste(im.convert("RGB"), (0, y))
        y += im.height
    counts = sorted(sheet.getcolors(maxcolors=1 << 24), reverse=True)
    keep = [c for _, c in counts[:exact]]
    cut = sheet.quantize(256 - len(keep), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    rest = cut.getpalette()[: 3 * (256 - len(keep))]
    flat = [v for c in keep for v in c] + rest
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal
