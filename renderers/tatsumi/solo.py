"""Tatsumi's solo mode (RULINGS TM-14) on the full board: the two Tekitatsu (a dark spiked disc with "T") and the
maelstrom (a spiral with "M") on their wells; the solo panel with the face-up solo card (its wells, its upkeep,
which tokens sit out), the cards left, and the rank table with the current fortune's line marked.

Tokens differ by shape and letter, never by colour alone.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.core import T, Text
from games.tatsumi import data as D
from games.tatsumi.solo_data import SOLO_CARDS, SOLO_RANKS, rank_line
from games.tatsumi.state import TatsumiState

from ..common import INK, MUTED, WHITE, cached_in_language, font, words
from .icons import label, paste
from .seaboard import well_box

SOLO_X, SOLO_Y, SOLO_W, SOLO_H = 748, 262, 484, 350
STORM = (60, 40, 70)
TOKEN_AT = (54, 70)
"""Centre of a solo token on its well, px from the well's top-left: where a dragon would stand (a token guards its
well), clear of the pips."""




TEKITATSU = T("Tekitatsu")
"""The Tekitatsu's name: its initial is the letter on its token ("T"; テ in Japanese)."""
MAELSTROM_MARK = T("M")
"""The letter on the maelstrom: the initial of its name (渦 in Japanese)."""


@cached_in_language(maxsize=4)
def tekitatsu_icon(r: int = 17) -> Image.Image:
    """A Tekitatsu: a black disc with eight spikes and a white "T" (the initial of :data:`TEKITATSU`)."""
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
    d.text((c, c + 1), str(words(TEKITATSU))[:1], font=font(15, bold=True), fill=WHITE, anchor="mm")
    return img


@cached_in_language(maxsize=4)
def maelstrom_icon(r: int = 19) -> Image.Image:
    """The maelstrom: a spiral around an "M" (:data:`MAELSTROM_MARK`) on a white disc."""
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
    d.text((c, c + 1), MAELSTROM_MARK, font=font(12, bold=True), fill=INK, anchor="mm")
    return img


def draw_tokens(img: Image.Image, s: TatsumiState, dx: int = 0, dy: int = 0) -> None:
    """The Tekitatsu and the maelstrom on their wells (those off the board left out), each board point (x, y)
    drawn at (x + dx, y + dy) px."""
    sb = s.solo
    for w in sb.tekitatsu:
        if w >= 0:
            x0, y0 = well_box(w)
            paste(img, tekitatsu_icon(), x0 + TOKEN_AT[0] + dx, y0 + TOKEN_AT[1] + dy)
    if sb.maelstrom >= 0:
        x0, y0 = well_box(sb.maelstrom)
        paste(img, maelstrom_icon(), x0 + TOKEN_AT[0] + dx, y0 + TOKEN_AT[1] + dy)


def solo_frame() -> Image.Image:
    """The solo panel's static part: frame, title, legend of the tokens, rank table, in the image's language."""
    return _solo_frame(str(words(T("SOLO — the maelstrom season"))))


@cached_in_language(maxsize=4)
def _solo_frame(title: str) -> Image.Image:
    img = Image.new("RGB", (SOLO_W, SOLO_H), (244, 240, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, SOLO_W - 1, SOLO_H - 1), outline=INK, width=2)
    d.text((12, 10), title, font=font(16, bold=True), fill=INK)
    t, m = tekitatsu_icon(), maelstrom_icon()
    img.paste(t, (12, 124), t)
    d.text(
        (56, 143), words(T("Tekitatsu: guards its well; after your turn washes")), font=font(11), fill=INK,
        anchor="lm"
    )
    d.text((56, 157), words(T("away the top ring of its 4 neighbours")), font=font(11), fill=INK, anchor="lm")
    img.paste(m, (12, 170), m)
    d.text((56, 190), words(T("Maelstrom: guards its well")), font=font(11), fill=INK, anchor="lm")
    d.text((12, 222), words(T("Rank")), font=font(12, bold=True), fill=MUTED)
    for k, (least, line) in enumerate(SOLO_RANKS):
        y = 242 + k * 14
        d.text((30, y), f"{least}+" if least else "<70", font=font(11, bold=True), fill=INK, anchor="lm")
        d.text((70, y), words(line), font=font(11), fill=INK, anchor="lm")
    return img


def draw_solo_panel(img: Image.Image, s: TatsumiState) -> None:
    """The solo panel: solo card, cards left, upkeep or final rank, tokens off the board, rank table."""
    d = ImageDraw.Draw(img)
    sb = s.solo
    img.paste(solo_frame(), (SOLO_X, SOLO_Y))
    x, y = SOLO_X, SOLO_Y
    card = SOLO_CARDS[sb.card]
    n = 16 - len(sb.deck)
    label(img, (x + SOLO_W - 12, y + 20), T("card {n} of 16 · {left} left", n=n, left=len(sb.deck)), 13, True, INK,
          "rm")
    label(
        img,
        (x + 12, y + 48),
        T("Tekitatsu on {a} and {b} · maelstrom on {m}", a=card.tekitatsu[0], b=card.tekitatsu[1], m=card.maelstrom),
        14,
        True,
        INK,
        "lm",
    )
    up = (
        T("upkeep: the {edge} shrine flips after your turn", edge=D.EDGE_NAMES[card.upkeep])
        if card.upkeep
        else T("no upkeep")
    )
    if s.over:
        up = T("Final: {n} fortune — {line}", n=s.seats[0].fortune, line=rank_line(s.seats[0].fortune))
    label(img, (x + 12, y + 72), up, 12, s.over, INK, "lm")
    off = [w for w, cur in zip(card.tekitatsu, sb.tekitatsu, strict=True) if cur < 0]
    if sb.maelstrom < 0:
        off.append(card.maelstrom)
    if off:
        label(img, (x + 12, y + 94), T("off the board this round: {wells}", wells=Text.join(T(", "), off)), 12, True, INK, "lm")
    label(img, (x + 12, y + 112), T("turns played: {n}", n=sb.turns), 11, False, MUTED, "lm")
    fortune = s.seats[0].fortune
    for k, (least, _) in enumerate(SOLO_RANKS):
        if fortune >= least:
            yy = y + 242 + k * 14
            d.polygon([(x + 14, yy - 5), (x + 24, yy), (x + 14, yy + 5)], fill=INK)
            break


def draw_solo(img: Image.Image, s: TatsumiState) -> None:
    """The solo tokens on their wells and the solo panel (nothing outside solo mode)."""
    if s.solo is not None:
        draw_tokens(img, s)
        draw_solo_panel(img, s)
