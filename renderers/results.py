"""Result cards: ``/stats``, ``/leaderboard`` and the summary that goes with a game's result.

One small layout for all three: a title, a subtitle line, then sections of a table each (a heading, column headers,
rows). 800 px wide so that the smallest text (22 px) is 11 px on a phone showing it 400 px wide (the floor is
:data:`renderers.common.MIN_PHONE_TEXT`). Names draw in any script (CJK, emoji) through
:func:`renderers.common.font`; nothing is told by colour alone: rows that stand out are bold and carry a text mark
("★" for a win, "⚑" for a resignation, "AI" for an AI seat).

Pure: Pillow and :mod:`renderers.common` only (no ``bot`` imports).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from .common import (
    INK,
    MUTED,
    PAPER,
    WHITE,
    break_lines,
    display_name,
    encode_png,
    font,
    text,
    translating,
    words,
)

WIDTH = 800
"""Card width, px."""
PAD = 28
TITLE_PX, SUB_PX, HEAD_PX, CELL_PX, SMALL_PX = 40, 24, 22, 26, 22
ROW_H = 44
STRIPE = (236, 228, 212)
RULE = (196, 184, 164)
# The card is drawn in grey levels and shown through a palette that maps each level onto the warm ramp below
# (ink ... paper): an 8-bit PNG encodes several times faster than RGB (/stats answers in <= 50 ms).
INK_L, MUTED_L, RULE_L, STRIPE_L, PAPER_L, WHITE_L = 20, 100, 190, 225, 240, 255
RAMP = [(0, (0, 0, 0)), (INK_L, INK), (MUTED_L, MUTED), (RULE_L, RULE), (STRIPE_L, STRIPE), (PAPER_L, PAPER),
        (WHITE_L, WHITE)]
NAME_COLUMNS = 16
"""Longest name drawn, in columns (a CJK character or emoji counts 2), cut with "…"."""


@dataclass
class Section:
    """One table of a card: ``heading`` (may be empty), ``headers``, ``rows`` of cells, ``align`` per column
    (``l`` left, ``r`` right), ``weights`` (relative column widths), ``bold`` row indices (drawn bold)."""

    heading: str
    headers: list[str]
    rows: list[list[str]]
    align: str = ""
    weights: list[float] = field(default_factory=list)
    bold: set[int] = field(default_factory=set)


def card(title: str, subtitle: str, sections: list[Section], footer: str = "", max_footer_lines: int = 4,
         translate: Callable[[str], str] | None = None) -> bytes:
    """PNG bytes of a card: ``title`` (bold), ``subtitle`` (muted), the sections, an optional ``footer`` (wrapped
    at spaces, at most ``max_footer_lines`` lines, the last cut with "…"; "\n" starts a new line). ``translate``:
    how its :class:`games.core.Text` pieces are said (as in :func:`renderers.render`; None: English); they are
    translated before they are measured, cut and wrapped."""
    with translating(translate):
        return _card(words(title), words(subtitle), [
            Section(words(s.heading), [words(h) for h in s.headers], [[words(c) for c in r] for r in s.rows],
                    s.align, s.weights, s.bold) for s in sections], words(footer), max_footer_lines)


def _card(title: str, subtitle: str, sections: list[Section], footer: str, max_footer_lines: int) -> bytes:
    lines = wrap(footer, SMALL_PX, WIDTH - 2 * PAD)
    if len(lines) > max_footer_lines:
        lines = lines[:max_footer_lines - 1] + [fit(" ".join(lines[max_footer_lines - 1:]) + " …", SMALL_PX, False,
                                                    WIDTH - 2 * PAD)]
    height = PAD + TITLE_PX + 12 + (SUB_PX + 14 if subtitle else 0)
    for s in sections:
        height += (HEAD_PX + 16 if s.heading else 0) + ROW_H * (1 + max(len(s.rows), 1)) + 18
    height += len(lines) * (SMALL_PX + 10) + (6 if lines else 0) + PAD
    img = Image.new("L", (WIDTH, height), PAPER_L)
    draw = ImageDraw.Draw(img)
    y = PAD
    text(img, (PAD, y), fit(title, TITLE_PX, True, WIDTH - 2 * PAD), TITLE_PX, INK_L, bold=True)
    y += TITLE_PX + 12
    if subtitle:
        text(img, (PAD, y), fit(subtitle, SUB_PX, False, WIDTH - 2 * PAD), SUB_PX, MUTED_L)
        y += SUB_PX + 14
    for s in sections:
        if s.heading:
            text(img, (PAD, y), s.heading, HEAD_PX, INK_L, bold=True)
            y += HEAD_PX + 16
        y = _table(img, draw, y, s) + 18
    for line in lines:
        text(img, (PAD, y), line, SMALL_PX, MUTED_L)
        y += SMALL_PX + 10
    shown = Image.frombytes("P", img.size, img.tobytes())
    shown.putpalette(list(_palette()))
    return encode_png(shown)


@lru_cache(maxsize=1)
def _palette() -> tuple[int, ...]:
    """256 RGB entries: grey level -> the colour of :data:`RAMP` (linear between its anchors)."""
    out: list[int] = []
    for g in range(256):
        (g0, c0), (g1, c1) = next((a, b) for a, b in zip(RAMP, RAMP[1:], strict=False) if g <= b[0])
        t = (g - g0) / (g1 - g0)
        out += [round(c0[i] + (c1[i] - c0[i]) * t) for i in range(3)]
    return tuple(out)


def column_edges(weights: list[float]) -> list[float]:
    """The x of each column's left edge and of the last one's right edge (px): the card's inner width shared out in
    proportion to ``weights``. A cell's text may use its column's width less 12 px."""
    inner = WIDTH - 2 * PAD
    xs = [float(PAD)]
    for w in weights:
        xs.append(xs[-1] + inner * w / sum(weights))
    return xs


def _table(img: Image.Image, draw: ImageDraw.ImageDraw, y: int, s: Section) -> int:
    n = len(s.headers)
    xs = column_edges(s.weights or [1.0] * n)
    align = (s.align or "l" * n).ljust(n, "l")

    def row(cells: list[str], top: int, size: int, bold: bool, fill) -> None:
        for i, cell in enumerate(cells[:n]):
            width = xs[i + 1] - xs[i] - 12
            px = size  # a cell too wide is drawn smaller first (down to SMALL_PX), then cut with "…"
            while px > SMALL_PX and font(px, bold).getlength(cell) > width:
                px -= 1
            cell = fit(cell, px, bold, width)
            if align[i] == "r":
                text(img, (xs[i + 1] - 6, top + ROW_H / 2), cell, px, fill, bold=bold, anchor="rm")
            else:
                text(img, (xs[i] + 6, top + ROW_H / 2), cell, px, fill, bold=bold, anchor="lm")

    row(s.headers, y, HEAD_PX, True, MUTED_L)
    y += ROW_H
    draw.line([(PAD, y), (WIDTH - PAD, y)], fill=RULE_L, width=2)
    if not s.rows:
        text(img, (PAD + 6, y + ROW_H / 2), "—", CELL_PX, MUTED_L, anchor="lm")
        return y + ROW_H
    for i, cells in enumerate(s.rows):
        draw.rectangle([PAD, y, WIDTH - PAD, y + ROW_H - 1], fill=STRIPE_L if i % 2 else WHITE_L)
        row(cells, y, CELL_PX, i in s.bold, INK_L)
        y += ROW_H
    return y


def wrap(value: str, size: int, width: float) -> list[str]:
    """``value`` in lines of at most ``width`` px at ``size`` px (:func:`renderers.common.break_lines`, the one
    line-breaking rule: Japanese broken between characters as JIS X 4051 allows); a Latin word too long alone is
    cut with "…"."""
    return break_lines(value, width, font(size, False), lambda word: fit(word, size, False, width))


def fit(value: str, size: int, bold: bool, width: float) -> str:
    """``value`` cut (with "…") to fit ``width`` px at ``size`` px."""
    fnt = font(size, bold)
    if fnt.getlength(value) <= width:
        return value
    while value and fnt.getlength(value + "…") > width:
        value = value[:-1]
    return value + "…"


def name(value: str) -> str:
    """A display name cut to :data:`NAME_COLUMNS` columns."""
    return display_name(value, None, NAME_COLUMNS)


__all__ = ["Section", "WIDTH", "card", "column_edges", "fit", "name", "wrap"]
