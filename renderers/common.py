"""Pieces every renderer shares: fonts, a colour-blind-safe palette, player marks, PNG encoding.

Colours come from the Okabe-Ito palette (distinguishable with every common colour-vision deficiency); every
player also gets a shape and their name is written beside it, so colour never carries meaning alone.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache, partial, wraps
from importlib.resources import files
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.core import Text

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
MUTED = (112, 104, 96)
"""Grey for secondary labels: 4.8:1 on PAPER (WCAG AA text)."""

PLAYER_COLOURS = [BLUE, VERMILION, GREEN, PURPLE, ORANGE]
PLAYER_SHAPES = ["circle", "square", "triangle", "diamond", "star"]


FONTS_DIR = files("renderers") / "fonts"
"""The bundled fonts (package data; see ``fonts/README.md`` for sources, licences and coverage)."""

PRIMARY_FONTS = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
"""Latin, Greek, Cyrillic, Arabic, Hebrew and the boards' symbols: DejaVu Sans 2.37, unchanged (layouts measure
as before)."""

THAI = "NotoSansThai[wdth,wght].ttf"
DEVANAGARI = "NotoSansDevanagari[wdth,wght].ttf"
PACKAGED_FONTS = {THAI: "fontpkg_noto_sans_thai", DEVANAGARI: "fontpkg_noto_sans_devanagari"}
"""Fonts that come from a PyPI package (a dependency, unchanged) rather than ``FONTS_DIR``: file -> package,
the file in the package's ``files/``. Both are variable fonts: bold text uses their weight 700."""

FALLBACK_FONTS = {
    False: ("NotoSansCJKjp-Regular-subset.otf", "NotoSansCJKjp-Regular-extra.otf", THAI, DEVANAGARI,
            "NotoSansMath-Regular-subset.ttf", "NotoEmoji-Regular.ttf"),
    True: ("NotoSansCJKjp-Bold-subset.otf", "NotoSansCJKjp-Regular-extra.otf", THAI, DEVANAGARI,
           "NotoSansMath-Regular-subset.ttf", "NotoEmoji-Regular.ttf"),
}
"""Tried in order for a character the primary font lacks: Noto Sans CJK (kana, Hangul, common kanji and
hanzi), its extra file of rarer ideographs (JIS X 0213, HKSCS, GBK, Big5 level 2, variants such as 髙 﨑 𠮷;
regular weight for bold text too), Noto Sans Thai, Noto Sans Devanagari, Noto Sans Math (the mathematical
alphanumerics of "fancy" names), then Noto Emoji (monochrome; the last, so U+FE0F can put it first)."""

EMBOLDEN = {"NotoSansCJKjp-Regular-extra.otf": 1 / 60, "NotoSansMath-Regular-subset.ttf": 1 / 60}
"""Fonts of the bold chain that have one weight only, drawn bold by a stroke of this many px per px of size (the
rarer ideographs of names such as 髙 and 﨑 in a bold name: with it 髙 has as much ink as Noto Sans CJK Bold's 高,
at every size), so a bold name stays bold glyph by glyph."""

STAND_IN = "\ufffd"
"""What a grapheme no font has draws as (DejaVu's replacement character, a diamond with a question mark):
visibly a stand-in, never a blank or a .notdef box."""

MISSING = -1
"""The font index :func:`script_runs` gives a run of graphemes no font has (drawn as :data:`STAND_IN`)."""

_JOINERS = {0x200C, 0x200D, 0x20E3} | set(range(0xFE00, 0xFE10)) | set(range(0x1F3FB, 0x1F400)) \
    | set(range(0xE0020, 0xE0080)) | set(range(0xE0100, 0xE01F0))
"""Characters that belong to the cluster before them (ZWJ, variation selectors including the ideographic ones,
keycap, skin tones, tags)."""


def _font_file(name: str):
    pkg = PACKAGED_FONTS.get(name)
    return files(pkg) / "files" / name if pkg else FONTS_DIR / name


def font_path(name: str) -> str:
    """The file of font ``name`` (one of :data:`PRIMARY_FONTS` / :data:`FALLBACK_FONTS`): bundled in
    :data:`FONTS_DIR`, or in the PyPI package :data:`PACKAGED_FONTS` names."""
    return str(_font_file(name))


def load_face(name: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Font ``name`` at ``size`` px as Pillow loads it; a variable font at weight 700 when ``bold``."""
    face = ImageFont.truetype(font_path(name), size)
    if bold and name in PACKAGED_FONTS:
        face.set_variation_by_axes([axis["default"] if axis["name"] != b"Weight" else 700
                                    for axis in face.get_variation_axes()])
    return face


def _ignorable(ch: str) -> bool:
    """A format character (ZWJ, ZWNJ, direction marks, a variation selector): HarfBuzz draws nothing for it."""
    return ord(ch) in _JOINERS or unicodedata.category(ch) == "Cf"


def _u(data: bytes, at: int, n: int = 2) -> int:
    return int.from_bytes(data[at:at + n], "big")


@cache
def covered(name: str) -> frozenset[int]:
    """The code points the bundled font file ``name`` maps to a glyph (its ``cmap``, formats 4 and 12)."""
    data = _font_file(name).read_bytes()
    tables = {data[12 + 16 * i: 16 + 16 * i]: _u(data, 20 + 16 * i, 4) for i in range(_u(data, 4))}
    cmap = tables[b"cmap"]
    subtables = {(_u(data, cmap + 4 + 8 * i), _u(data, cmap + 6 + 8 * i)): cmap + _u(data, cmap + 8 + 8 * i, 4)
                 for i in range(_u(data, cmap + 2))}
    points: set[int] = set()
    at = subtables.get((3, 10)) or subtables.get((0, 4)) or subtables.get((0, 6))
    if at is not None and _u(data, at) == 12:
        for g in range(_u(data, at + 12, 4)):
            start, end, glyph = (_u(data, at + 16 + 12 * g + 4 * j, 4) for j in range(3))
            points.update(range(start + (glyph == 0), end + 1))
        return frozenset(points)
    at = subtables.get((3, 1)) or subtables.get((0, 3))
    segs = _u(data, at + 6) // 2
    range_at = at + 16 + 6 * segs
    for k in range(segs):
        end, start = _u(data, at + 14 + 2 * k), _u(data, at + 16 + 2 * segs + 2 * k)
        delta, range_offset = _u(data, at + 16 + 4 * segs + 2 * k), _u(data, range_at + 2 * k)
        for c in range(start, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                glyph = _u(data, range_at + 2 * k + range_offset + 2 * (c - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(c)
    return frozenset(points)


@lru_cache(maxsize=4096)
def script_runs(text: str, bold: bool = False) -> tuple[tuple[int, str], ...]:
    """``text`` split into runs of one font each: ``((font index, run), …)``, index 0 the primary font (DejaVu),
    1.. the :data:`FALLBACK_FONTS` in order, :data:`MISSING` for graphemes no font has. Each character goes to
    the first font that has it; joiners (ZWJ, variation selectors, skin tones) and combining marks stay with the
    character before them, a character followed by U+FE0F (emoji presentation) prefers the emoji font, and a
    format character no font has (a direction mark) stays with the primary font (it draws as nothing)."""
    names = (PRIMARY_FONTS[bold], *FALLBACK_FONTS[bold])
    runs: list[list] = []
    prev_zwj = False
    for i, ch in enumerate(text):
        c = ord(ch)
        if runs and (c in _JOINERS or unicodedata.category(ch) in ("Mn", "Mc", "Me")
                     or (prev_zwj and runs[-1][0] != MISSING and c in covered(names[runs[-1][0]]))):
            runs[-1][1] += ch
            prev_zwj = c == 0x200D
            continue
        prev_zwj = False
        order = range(len(names))
        if i + 1 < len(text) and text[i + 1] == "\ufe0f":
            order = [len(names) - 1, *range(len(names) - 1)]
        k = next((k for k in order if c in covered(names[k])), 0 if _ignorable(ch) else MISSING)
        if runs and runs[-1][0] == k:
            runs[-1][1] += ch
        else:
            runs.append([k, ch])
    return tuple((k, run) for k, run in runs)


def missing_glyphs(text: str, bold: bool = False) -> int:
    """How many graphemes of ``text`` no font of the chain (:data:`PRIMARY_FONTS`, :data:`FALLBACK_FONTS`) has:
    those that draw as :data:`STAND_IN`. 0 for names in Latin, Greek, Cyrillic, Arabic, Hebrew, Hangul, Chinese,
    Japanese (with JIS X 0213 kanji and ideographic variation selectors), Thai, Devanagari, mathematical
    alphanumerics and emoji (ZWJ sequences, flags)."""
    return sum(len(graphemes(run)) for k, run in script_runs(text, bold) if k == MISSING)


TRANSLATE: ContextVar[Callable[[str], str] | None] = ContextVar("renderers_translate", default=None)
"""How the image being drawn says a :class:`games.core.Text` (the ``translate`` given to :func:`renderers.render`;
None: in English, the text itself)."""


@contextmanager
def translating(translate: Callable[[str], str] | None) -> Iterator[None]:
    """Within the block, every text drawn with this module's fonts and helpers goes through ``translate``."""
    token = TRANSLATE.set(translate)
    try:
        yield
    finally:
        TRANSLATE.reset(token)


def words(text):
    """``text`` in the image's language: a :class:`games.core.Text` through the current translator (it renders the
    message id and arguments in the table's language), anything else as it is."""
    translate = TRANSLATE.get()
    if not isinstance(text, Text):
        return text
    return translate(text) if translate is not None else str(text)  # said: a plain string either way


def language_key() -> object:
    """The image's language as a cache key: None in English, else the translator of :data:`TRANSLATE` — a
    ``functools.partial`` (what ``bot.i18n.translator`` gives) by its function and arguments, so equal translators
    made apart (one per render, or unpickled in a worker) share their cached pictures."""
    translate = TRANSLATE.get()
    if isinstance(translate, partial):
        return (translate.func, translate.args, tuple(sorted(translate.keywords.items())))
    return translate


def cached_in_language(maxsize: int = 128):
    """Like ``functools.lru_cache(maxsize)``, with the image's language (:func:`language_key`) in the key: for a
    cached picture (a sprite, a static layer) that draws words, so a Japanese board never gets an English sprite
    drawn earlier. The wrapped function keeps ``cache_clear`` and ``cache_info``."""

    def decorate(fn):
        @lru_cache(maxsize=maxsize)
        def keyed(_language, *args, **kwargs):
            return fn(*args, **kwargs)

        @wraps(fn)
        def call(*args, **kwargs):
            return keyed(language_key(), *args, **kwargs)

        call.cache_clear = keyed.cache_clear
        call.cache_info = keyed.cache_info
        return call

    return decorate


class ScriptFont(ImageFont.FreeTypeFont):
    """DejaVu Sans with per-glyph fallback to the Noto fonts of :data:`FALLBACK_FONTS`.

    A drop-in ``FreeTypeFont``: ``ImageDraw.text``, ``textbbox``, ``textlength`` and ``getmask`` work as with
    one font. Text the primary font covers entirely goes straight to it (Latin looks and measures exactly as
    before); otherwise the text is laid out run by run (:func:`script_runs`) on a shared baseline, vertical
    anchors ("a", "m", "d") taken from the primary font's metrics."""

    def __init__(self, size: int, bold: bool = False) -> None:
        super().__init__(str(FONTS_DIR / PRIMARY_FONTS[bold]), size)
        self.bold = bold
        self._faces: dict[int, ImageFont.FreeTypeFont] = {}
        self._layouts: dict[tuple, tuple] = {}
        self._masks: dict[tuple, tuple[Image.Image, tuple[int, int]]] = {}
        """Masks of mixed-script texts (names repeat on every board), at most 512."""

    def face(self, k: int) -> ImageFont.FreeTypeFont:
        """Font ``k`` of the chain (0 the primary, 1.. :data:`FALLBACK_FONTS`) at this size, loaded when first
        needed (most boards never need Thai or the rare ideographs)."""
        hit = self._faces.get(k)
        if hit is None:
            hit = self._faces[k] = load_face((PRIMARY_FONTS[self.bold], *FALLBACK_FONTS[self.bold])[k], self.size,
                                             self.bold)
        return hit

    def _layout(self, text: str, stroke_width: float, anchor: str | None):
        """[(font index, run, x)], union bbox of the inked runs from the baseline origin, the anchor point and
        the advance (px), cached per text."""
        key = (text, stroke_width, anchor)
        hit = self._layouts.get(key)
        if hit is None:
            if len(self._layouts) >= 512:
                self._layouts.clear()
            hit = self._layouts[key] = self._lay_out(text, stroke_width, anchor)
        return hit

    def stroke(self, k: int) -> float:
        """The extra stroke (px) that draws font ``k`` of the chain bold: :data:`EMBOLDEN` for a one-weight font in
        bold text, else 0."""
        if not self.bold or k == 0:
            return 0.0
        return self.size * EMBOLDEN.get(FALLBACK_FONTS[True][k - 1], 0.0)

    def _lay_out(self, text: str, stroke_width: float, anchor: str | None):
        runs = script_runs(text, self.bold)
        placed, x, box = [], 0.0, None
        for k, run in runs:
            if k == MISSING:
                k, run = 0, STAND_IN * len(graphemes(run))
            f = self.face(k)
            x0, y0, x1, y1 = f.getbbox(run, stroke_width=stroke_width + self.stroke(k), anchor="ls")
            placed.append((k, run, x))
            box = (x0 + x, y0, x1 + x, y1) if box is None else (min(box[0], x0 + x), min(box[1], y0),
                                                                max(box[2], x1 + x), max(box[3], y1))
            x += f.getlength(run)
        anchor = anchor or "la"
        ascent, descent = self.getmetrics()
        ax = {"l": 0.0, "m": x / 2, "r": x, "s": 0.0}[anchor[0]]
        ay = {"a": -ascent, "t": box[1], "m": (descent - ascent) / 2, "s": 0, "b": box[3], "d": descent}[anchor[1]]
        return placed, box, (ax, ay), x

    def _single(self, text) -> bool:
        """True when the primary font draws all of ``text`` (the fast path, exactly DejaVu)."""
        if not isinstance(text, str):
            return True
        runs = script_runs(text, self.bold)
        return not runs or (len(runs) == 1 and runs[0][0] == 0)

    def getlength(self, text, mode="", direction=None, features=None, language=None) -> float:
        text = words(text)
        if self._single(text):
            return super().getlength(text, mode, direction, features, language)
        return self._layout(text, 0, None)[3]

    def getbbox(self, text, mode="", direction=None, features=None, language=None, stroke_width=0, anchor=None):
        text = words(text)
        if self._single(text):
            return super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
        _, box, (ax, ay), _ = self._layout(text, stroke_width, anchor)
        return (math.floor(box[0] - ax), math.floor(box[1] - ay), math.ceil(box[2] - ax), math.ceil(box[3] - ay))

    def getmask2(self, text, mode="", direction=None, features=None, language=None, stroke_width=0, anchor=None,
                 ink=0, start=None, *args, **kwargs):
        text = words(text)
        if self._single(text):
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, stroke_width, anchor)
        hit = self._masks.get(key)
        if hit is None:
            placed, box, (ax, ay), _ = self._layout(text, stroke_width, anchor)
            left, top = math.floor(box[0]), math.floor(box[1])
            mask = Image.new("L", (max(1, math.ceil(box[2]) - left), max(1, math.ceil(box[3]) - top)), 0)
            draw = ImageDraw.Draw(mask)
            for k, run, x in placed:
                draw.text((x - left, -top), run, font=self.face(k), fill=255, anchor="ls",
                          stroke_width=stroke_width + self.stroke(k))
            if len(self._masks) >= 512:
                self._masks.clear()
            hit = self._masks[key] = (mask, (left - round(ax), top - round(ay)))
        return hit[0].im, hit[1]


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ScriptFont:
    """A :class:`ScriptFont` of ``size`` px: the bundled DejaVu Sans (Bold), falling back glyph by glyph to the
    bundled Noto fonts (:data:`FALLBACK_FONTS`), so any display name draws as its characters; a grapheme no font
    has draws as :data:`STAND_IN`."""
    return ScriptFont(size, bold)


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill=INK) -> None:
    """Write ``text`` centred on ``xy``."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


def text_mask(text: str, size: int, bold: bool = False, anchor: str = "la") -> tuple[Image.Image, int, int]:
    """The coverage mask ("L") of ``text`` (in the image's language: :func:`words`) in :func:`font`
    ``(size, bold)`` and the offset (left, top) px of its top-left corner from the anchor point, as
    ``(mask, left, top)``: :func:`text` pastes it at ``xy + (left, top)``, and a layout can read the drawn width
    (``mask.width``) and height from it. Cached (2,048 texts)."""
    return _text_mask(str(words(text)), size, bold, anchor)


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
    mask, left, top = text_mask(text, size, bold, anchor)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


def text_tile(text: str, size: int, bold: bool, anchor: str, fill: tuple, bg: tuple) -> tuple[Image.Image, int, int]:
    """``text`` (in the image's language: :func:`words`) in ``fill`` already laid on a plain ``bg`` (RGB tuples):
    an RGB image the size of its :func:`text_mask`, and the same (left, top) offset from the anchor point. Cached
    (256 texts)."""
    return _text_tile(str(words(text)), size, bold, anchor, fill, bg)


@lru_cache(maxsize=256)
def _text_tile(text: str, size: int, bold: bool, anchor: str, fill: tuple, bg: tuple) -> tuple[Image.Image, int, int]:
    mask, left, top = text_mask(text, size, bold, anchor)
    tile = Image.new("RGB", mask.size, bg)
    tile.paste(fill, (0, 0), mask)
    return tile, left, top


def text_on(img: Image.Image, xy: tuple[float, float], text: str, size: int, bg: tuple, fill=INK,
            bold: bool = False, anchor: str = "la") -> None:
    """Write ``text`` like :func:`text` onto an area that is plain ``bg`` (an RGB tuple) under the text's box
    (``text_mask``'s size at its offset): the same pixels, pasted without a mask from a cached
    :func:`text_tile` — several times faster for a long line. Only where nothing but ``bg`` lies under it."""
    tile, left, top = text_tile(str(words(text)), size, bold, anchor, tuple(fill), tuple(bg))
    img.paste(tile, (round(xy[0]) + left, round(xy[1]) + top))


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


class Sprite(NamedTuple):
    """A picture prepared for fast pasting (see :func:`sprite`): ``image`` is the inked part of the picture (RGB),
    ``mask`` its coverage — mode "1" when every pixel is fully opaque or fully clear (Pillow draws shapes without
    anti-aliasing, so most pieces are), "L" when some are partly clear, None when the inked part is opaque —,
    ``left`` and ``top`` the inked part's offset (px) in the picture, ``size`` the picture's (width, height) px."""

    image: Image.Image
    mask: Image.Image | None
    left: int
    top: int
    size: tuple[int, int]

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]


def sprite(picture: Image.Image) -> Sprite:
    """``picture`` (RGBA, or any mode without alpha: opaque) as a :class:`Sprite`: cropped to its inked part, the
    colour split from the alpha. :func:`paste_sprite` then draws exactly what ``img.paste(picture, xy, picture)``
    draws (the same pixels), about three times faster for a "1" mask and without the clear margin's cost."""
    if picture.mode != "RGBA":
        return Sprite(picture.convert("RGB"), None, 0, 0, picture.size)
    alpha = picture.getchannel("A")
    box = alpha.getbbox()
    if box is None:  # nothing inked: a 1 px clear sprite
        return Sprite(Image.new("RGB", (1, 1)), Image.new("1", (1, 1), 0), 0, 0, picture.size)
    alpha = alpha.crop(box)
    image = picture.crop(box).convert("RGB")
    histogram = alpha.histogram()
    if histogram[255] == alpha.width * alpha.height:
        mask = None
    elif histogram[0] + histogram[255] == alpha.width * alpha.height:
        mask = alpha.convert("1", dither=Image.Dither.NONE)
    else:
        mask = alpha
    return Sprite(image, mask, box[0], box[1], picture.size)


def paste_sprite(img: Image.Image, spr: Sprite, x: int, y: int) -> None:
    """Paste ``spr`` with its picture's top-left corner at (x, y) px (integers)."""
    img.paste(spr.image, (x + spr.left, y + spr.top), spr.mask)


MARKER_FILL = WHITE
MARKER_INK = BLACK


def marker(img: Image.Image, cx: float, cy: float, key: str, r: float = 14) -> None:
    """Draw the marker of an offered place: a white disc with a black ring and ``key`` ("1", "12", …) in bold
    black, centred on (cx, cy), radius ``r`` px (the key's text is ``1.3 * r`` px tall). White and black are no
    piece's colour, so a marker never shares a colour with what it sits on.
    The key is the one :func:`games.marker_keys` gives the option, which the buttons and menus start with."""
    draw = ImageDraw.Draw(img)
    w = max(2, round(r / 6))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MARKER_FILL, outline=MARKER_INK, width=w)
    size = round(r * (1.3 if len(key) == 1 else 1.05))
    text(img, (cx, cy), key, size, fill=MARKER_INK, bold=True, anchor="mm")


@lru_cache(maxsize=256)
def marker_sprite(key: str, r: int) -> Sprite:
    """The marker :func:`marker` draws for ``key`` at radius ``r`` px, as a cached :class:`Sprite` of a picture
    ``2r + 4`` px square (boards paste it centred on the place: :func:`paste_sprite` at
    ``round(x - width / 2), round(y - height / 2)``)."""
    size = 2 * r + 4
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    marker(img, size / 2, size / 2, key, r)
    return sprite(img)


def player_style(index: int) -> tuple[tuple[int, int, int], str]:
    """(colour, shape) of the player in seat ``index``."""
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)], PLAYER_SHAPES[index % len(PLAYER_SHAPES)]


def graphemes(text: str) -> list[str]:
    """``text`` split into user-perceived characters: a base character with its combining marks, variation
    selectors, skin tones and ZWJ-joined emoji, or a pair of regional indicators (a flag)."""
    out: list[str] = []
    for ch in text:
        c = ord(ch)
        if out and (c in _JOINERS or unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc")
                    or out[-1].endswith("\u200d")
                    or (0x1F1E6 <= c <= 0x1F1FF and len(out[-1]) == 1 and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF)):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def columns(cluster: str) -> int:
    """How many columns a grapheme takes: 2 for wide CJK characters and emoji (about twice a Latin letter's
    width in the bundled fonts), else 1."""
    c = ord(cluster[0])
    if unicodedata.east_asian_width(cluster[0]) in ("W", "F") or c >= 0x1F000 or "\ufe0f" in cluster:
        return 2
    return 1


def display_name(player: str, names: dict[str, str] | None, limit: int = 16) -> str:
    """The display name of ``player`` (``names[player]``, else the id), at most ``limit`` columns: a wide CJK
    character or an emoji counts 2 (see :func:`columns`). A longer name is cut between graphemes (never inside
    an emoji or before a combining mark) and ends with "…"."""
    name = (names or {}).get(player, player)
    clusters = graphemes(name)
    if sum(columns(g) for g in clusters) <= limit:
        return name
    kept, used = [], 0
    for g in clusters:
        if used + columns(g) > limit - 1:
            break
        kept.append(g)
        used += columns(g)
    return "".join(kept) + "…"


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


PALETTE_SAMPLE = 3
""":func:`make_palette` cuts the remaining slots from one pixel in PALETTE_SAMPLE x PALETTE_SAMPLE of the sample
boards."""


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
    # the median cut (the slow part: seconds a renderer, in every render worker at its start) over every
    # PALETTE_SAMPLE-th pixel of every PALETTE_SAMPLE-th row: colours as they are (nearest, never blended), in
    # about their proportions; the exact colours above come from every pixel
    cut = sheet.resize((max(1, sheet.width // PALETTE_SAMPLE), max(1, sheet.height // PALETTE_SAMPLE)),
                       Image.Resampling.NEAREST).quantize(256 - len(keep), method=Image.Quantize.MEDIANCUT,
                                                          dither=Image.Dither.NONE)
    rest = cut.getpalette()[: 3 * (256 - len(keep))]
    flat = [v for c in keep for v in c] + rest
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


# --- Legibility on a phone --------------------------------------------------------------------------------

PHONE_WIDTH = 400
"""Width (px) at which Discord shows a board on a phone."""

MIN_PHONE_TEXT = 9
"""Smallest text size (px) readable at :data:`PHONE_WIDTH`: every marker key and every number a choice depends
on must be at least this tall there."""


def min_text_px(width: int, at: int = PHONE_WIDTH, px: int = MIN_PHONE_TEXT) -> int:
    """The smallest font size (px, as passed to :func:`font` / :func:`text`) that is still ``px`` px tall when an
    image ``width`` px wide is scaled to ``at`` px wide: ``ceil(px * width / at)``. E.g. a 1240 px board needs
    28 px text for its marker keys and the numbers a choice depends on; a 400 px image needs 9 px.
    ``ValueError`` for a width or target below 1."""
    if width < 1 or at < 1:
        raise ValueError(f"width and at must be positive px, not {width} and {at}")
    return math.ceil(px * width / at - 1e-9)


def marker_radius(width: int, at: int = PHONE_WIDTH, px: int = MIN_PHONE_TEXT) -> int:
    """The least radius (px) for :func:`marker` on an image ``width`` px wide so that its key, one or two
    characters, is at least ``px`` px tall at ``at`` px wide (the key is ``round(1.05 * r)`` px for two
    characters, ``round(1.3 * r)`` for one), and never below the default 14."""
    return max(14, math.ceil(min_text_px(width, at, px) / 1.05 - 1e-9))


def phone_px(size: float, width: int, at: int = PHONE_WIDTH) -> float:
    """How tall (px) text of font size ``size`` px drawn on an image ``width`` px wide is at ``at`` px wide."""
    return size * at / width


def _linear(v: float) -> float:
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(v: float) -> int:
    v = min(1.0, max(0.0, v))
    v = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(v * 255)


def luminance(colour: tuple[int, ...]) -> float:
    """WCAG 2 relative luminance (0 black .. 1 white) of an sRGB ``colour`` (0..255 channels; alpha ignored)."""
    r, g, b = (_linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: tuple[int, ...], bg: tuple[int, ...]) -> float:
    """WCAG 2 contrast ratio (1..21) of two sRGB colours. Text should have at least :data:`TEXT_CONTRAST`."""
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


TEXT_CONTRAST = 4.5
"""WCAG AA: the least contrast ratio between a text colour and the colour behind it."""


def legible_ink(bg: tuple[int, ...], candidates=(INK, WHITE, BLACK)) -> tuple[int, int, int]:
    """The first of ``candidates`` with at least :data:`TEXT_CONTRAST` against ``bg`` (else the best of them)."""
    for c in candidates:
        if contrast_ratio(c, bg) >= TEXT_CONTRAST:
            return c
    return max(candidates, key=lambda c: contrast_ratio(c, bg))


CVD_MATRICES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
"""Machado, Oliveira & Fernandes (2009) simulation matrices at severity 1.0, applied to linear RGB."""

VISIONS = ("protanopia", "deuteranopia", "tritanopia", "greyscale")
"""The ways of seeing a board is checked under."""


def simulate(colour: tuple[int, ...], vision: str) -> tuple[int, int, int]:
    """``colour`` (sRGB 0..255) as seen with ``vision``: one of :data:`CVD_MATRICES`, "greyscale" (relative
    luminance as grey) or "normal". ``ValueError`` for another vision."""
    if vision == "normal":
        return tuple(colour[:3])
    if vision == "greyscale":
        g = _encode(luminance(colour))
        return (g, g, g)
    if vision not in CVD_MATRICES:
        raise ValueError(f"unknown vision {vision!r}; one of normal, {', '.join(VISIONS)}")
    lin = [_linear(c) for c in colour[:3]]
    return tuple(_encode(sum(m * v for m, v in zip(row, lin, strict=True))) for row in CVD_MATRICES[vision])


def simulate_image(img: Image.Image, vision: str) -> Image.Image:
    """``img`` as seen with ``vision`` (see :func:`simulate`), an RGB image of the same size. For looking at a
    board (save it and open it) and for checks on its pixels. ``ValueError`` for an unknown vision."""
    simulate((0, 0, 0), vision)  # validates the name
    rgb = img.convert("RGB")
    if vision == "normal":
        return rgb
    colours = rgb.getcolors(maxcolors=256)
    if colours is not None:  # a board's palette image: map each colour exactly
        keep = [c for _, c in colours]
        pal = Image.new("P", (1, 1))
        pal.putpalette([v for c in keep for v in c] + [0] * (768 - 3 * len(keep)))
        out = rgb.quantize(palette=pal, dither=Image.Dither.NONE)
        out.putpalette([v for c in keep for v in simulate(c, vision)] + [0] * (768 - 3 * len(keep)))
        return out.convert("RGB")
    lin = rgb.point([round(_linear(v % 256) * 255) for v in range(768)])
    if vision == "greyscale":
        lin = lin.convert("L", (0.2126, 0.7152, 0.0722, 0)).convert("RGB")
    else:
        lin = lin.convert("RGB", tuple(x for row in CVD_MATRICES[vision] for x in (*row, 0)))
    return lin.point([_encode((v % 256) / 255) for v in range(768)])


def lab(colour: tuple[int, ...]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour[:3])
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           0.0193 * r + 0.1192 * g + 0.9505 * b)
    white = (0.95047, 1.0, 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, white, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """CIE76 colour difference ΔE*ab of two sRGB colours (about 2.3 is just noticeable; see :data:`MIN_DELTA_E`)."""
    return math.dist(lab(a), lab(b))


MIN_DELTA_E = 15.0
"""Least ΔE*ab (:func:`delta_e`) between two colours that tell things apart, under every vision checked: the
closest Okabe-Ito player colours under any simulated deficiency are 17.6 apart; red and green under
deuteranopia are 7.8."""

MIN_GREY_CONTRAST = 1.25
"""Least contrast ratio (:func:`contrast_ratio`) between two colours in greyscale, where hue is gone: about a
quarter of a step between Okabe-Ito's blue and orange."""


def colour_clashes(pairs, visions=VISIONS, min_delta_e: float = MIN_DELTA_E,
                   min_grey: float = MIN_GREY_CONTRAST) -> list[str]:
    """Which of ``pairs`` (``[(label_a, colour_a, label_b, colour_b), …]``) cannot be told apart by colour:
    under each of ``visions``, ΔE*ab of the simulated colours below ``min_delta_e`` (and, in "greyscale", their
    contrast ratio below ``min_grey``). Returns readable lines, empty when every pair stays distinct.

    How a renderer's tests use it (no colour-only signs)::

        from renderers.common import colour_clashes
        pairs = [("fire", FIRE, "water", WATER), ("discard ring", RING, "strawberry", STRAWBERRY)]
        assert not colour_clashes(pairs)                                # colour alone tells them apart, or:
        assert not colour_clashes(pairs, visions=("deuteranopia",))     # name the visions colour must survive

    Pairs told apart by something else as well (a shape, a symbol, a label) need not pass in greyscale: leave
    "greyscale" out of ``visions`` for them, and test the shape or symbol instead."""
    out = []
    for la, ca, lb, cb in pairs:
        for vision in visions:
            sa, sb = simulate(ca, vision), simulate(cb, vision)
            if vision == "greyscale":
                ratio = contrast_ratio(sa, sb)
                if ratio < min_grey:
                    out.append(f"{la} {tuple(ca[:3])} vs {lb} {tuple(cb[:3])}: greyscale contrast {ratio:.2f}")
                continue
            d = delta_e(sa, sb)
            if d < min_delta_e:
                out.append(f"{la} {tuple(ca[:3])} vs {lb} {tuple(cb[:3])}: {vision} ΔE {d:.1f}")
    return out


# --------------------------------------------------------------------------------------------------------------
# Breaking text into lines

NO_LINE_START = ("、。，．・：；？！‼⁇⁈⁉゠–〜～ー…‥)）]］}｝〕〉》」』】〙〗〟’”｠»"
                 "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻ゝゞヽヾ")
"""Characters a line never starts with (JIS X 4051 §5 "line start prohibition": closing brackets, 、。 and other
punctuation, the prolonged sound mark ー, small kana, iteration marks)."""
NO_LINE_END = "(（[［{｛〔〈《「『【〘〖〝‘“｟«"
"""Characters a line never ends with (JIS X 4051: opening brackets stay with what they open)."""


PHRASE_LOOKBACK = 5
"""How many characters a Japanese line may give up to end at a phrase boundary (:func:`_phrase_break`)."""


def _hiragana(ch: str) -> bool:
    return "\u3041" <= ch <= "\u309f"


def _phrase_break(line: str, at: int) -> bool:
    """Whether a Japanese line may break before ``line[at]`` at a phrase boundary: after 、 or 。, or after
    hiragana (a particle or an ending: リングを|鱗の) before a kanji, katakana, digit or sign — never inside a word
    (終え|る, に|つき) — and as JIS X 4051 allows."""
    before, after = line[at - 1], line[at]
    if after in NO_LINE_START or before in NO_LINE_END or after.isspace():
        return False
    return before in "、。，" or (_hiragana(before) and not _hiragana(after))


def wide(word: str) -> bool:
    """Whether ``word`` holds a wide (CJK) character: such text has no spaces to break at."""
    return any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in word)


def break_lines(text: str, width: float, fnt, long_word: Callable[[str], str] | None = None) -> list[str]:
    """``text`` in lines at most ``width`` px wide in ``fnt`` (anything with ``getlength``): the one line-breaking
    rule of every renderer. ``"\\n"`` starts a line; lines break at spaces; Japanese (a word with CJK characters,
    which has no spaces) runs on and breaks between characters, never before a :data:`NO_LINE_START` character nor
    after a :data:`NO_LINE_END` one (JIS X 4051), at a phrase boundary when there is one among the last
    :data:`PHRASE_LOOKBACK` characters that fit (:func:`_phrase_break`: 手番を|終える, not 手番を終え|る). A Latin word wider than a line is broken between its characters
    too, or given to ``long_word`` (e.g. cut with "…") when one is given. Empty lines are dropped; ``[]`` for a
    text without words."""
    lines: list[str] = []

    def split_chars(line: str) -> str:
        while fnt.getlength(line) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and fnt.getlength(line[:cut]) > width:
                cut -= 1
            keep = cut
            while 1 < cut < len(line) and (line[cut] in NO_LINE_START or line[cut - 1] in NO_LINE_END):
                cut -= 1
            if cut <= 1:  # nowhere allowed within the line: break where it fits after all
                cut = keep
            cut = next((c for c in range(cut, max(1, cut - PHRASE_LOOKBACK), -1) if _phrase_break(line, c)), cut)
            lines.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        return line

    for para in str(text).split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if fnt.getlength(trial) <= width:
                line = trial
            elif wide(word):
                line = split_chars(trial)
            else:
                if line:
                    lines.append(line)
                line = long_word(word) if long_word is not None and fnt.getlength(word) > width else split_chars(word)
        if line:
            lines.append(line)
    return lines
