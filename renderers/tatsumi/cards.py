"""Tatsumi's summoning cards and shrine tiles: faces (cached, at any scale) and the players' scales on a card.

A card is ``CARD_W x CARD_H`` px times its scale ``k``: title, kind (scoring or lasting), a short text (our words),
and under a rule the scales — each player's shape and count, in up to three columns and two rows so that four or
five players stay on the card (the west card's "×3" once ran over "a3").
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import T
from games.tatsumi import data as D
from games.tatsumi.state import TatsumiState

from ..common import INK, MUTED, break_lines, font, shape, words
from .icons import ELEMENT_TINT, GOLD, NAME_INK, label, player_style, ring_icon

CARD_W, CARD_H = 134, 104
CARD_RULE = 64
"""The rule between a card's text and its scales, px from its top (times the scale)."""
TILE_W, TILE_H = 134, 70
SLOT = (19, 42)
"""A shrine tile's marker slot (centre, px from its top-left)."""
TILE_COUNT_PX = 17
"""Size of the ring counts on a shrine tile ("2×"), px: an offering depends on them."""
SCALE_COUNT_PX = 12
"""Size of a scale count on a card on the full board, px."""


CARD_TEXT_PX = 11
"""Size of a card's kind, rule text and "no scales", px: with the card titles (11-13 px) at least 9 px when the
seaboard close-up (``decision.SEA_VIEW_W`` px wide) is shown 400 px wide."""


def wrap(text: str, width: float, size: int = CARD_TEXT_PX) -> list[str]:
    """``text`` (in the image's language, :func:`renderers.common.words`) in lines at most ``width`` px wide at
    ``size`` px (:func:`break_lines`)."""
    return break_lines(str(words(text)), width, font(size))


def card_face(card: str, k: float = 1.0) -> Image.Image:
    """A summoning card at scale ``k`` (``CARD_W*k x CARD_H*k`` px): title (13 px, smaller for a long title so it
    never runs into the kind), kind, short text, in the image's language; scales are drawn over it per render
    (:func:`scale_marks`)."""
    return _card_face(card, k, str(words(D.CARD_TITLES[card])), str(words(D.CARD_TEXT[card])))


@lru_cache(maxsize=64)
def _card_face(card: str, k: float, title: str, rule: str) -> Image.Image:
    """:func:`card_face` cached by its words (so each language has its own)."""
    lasting = card in D.LASTING_CARDS
    w, h = round(CARD_W * k), round(CARD_H * k)
    img = Image.new("RGB", (w, h), (238, 230, 250) if lasting else (252, 246, 226))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), outline=INK, width=2)
    kind = str(words(T("lasting") if lasting else T("score")))
    room = CARD_W - 16 - font(CARD_TEXT_PX).getlength(kind)
    size = next((z for z in (13, 12) if font(z, True).getlength(title) <= room), CARD_TEXT_PX)
    d.text((6 * k, (4 + (13 - size) / 2) * k), title, font=font(round(size * k), bold=True), fill=INK)
    d.text((w - 6 * k, 6 * k), kind, font=font(round(CARD_TEXT_PX * k)), fill=NAME_INK, anchor="ra")
    for i, line in enumerate(wrap(rule, CARD_W - 10)[:3]):
        d.text((5 * k, (21 + i * 13) * k), line, font=font(round(CARD_TEXT_PX * k)), fill=INK)
    d.line((4 * k, CARD_RULE * k, w - 4 * k, CARD_RULE * k), fill=MUTED)
    return img


def scale_slots(n: int, k: float = 1.0) -> list[tuple[float, float]]:
    """Centres (px from a card's top-left, at scale ``k``) of the shapes of ``n`` players' scales under the rule:
    up to 3 per row, 2 rows; each slot is ``(CARD_W - 8) / columns`` wide, so a shape and "×9" stay on the card."""
    cols = min(max(n, 1), 3)
    rows = 1 if n <= 3 else 2
    step = (CARD_W - 8) / cols
    band = CARD_H - CARD_RULE
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        y = CARD_RULE + band * (r + 1) / (rows + 1)
        out.append(((4 + step * c + 10) * k, y * k))
    return out


def scales_on(s: TatsumiState, edge: int) -> tuple[tuple[int, int], ...]:
    """The scales on the card of ``edge`` (0-3, :data:`games.tatsumi.data.EDGES` order): ((``Seat.mark``,
    scales), ...) of each player holding some, in seat order; empty when none do."""
    return tuple((p.mark, p.cards[edge]) for p in s.seats if p.cards[edge])


def scale_marks(img: Image.Image, scales: tuple[tuple[int, int], ...], x: int, y: int, k: float = 1.0) -> None:
    """The ``scales`` (:func:`scales_on`) on a card at scale ``k`` whose top-left is (x, y) px: each player's
    shape and count ("×2"), in the slots of :func:`scale_slots`; "no scales" when there are none."""
    if not scales:
        label(img, (x + 8 * k, y + (CARD_RULE + 20) * k), T("no scales"), round(CARD_TEXT_PX * k), False, NAME_INK, "lm")
        return
    d = ImageDraw.Draw(img)
    size = round(SCALE_COUNT_PX * k)
    for (mark, n), (sx, sy) in zip(scales, scale_slots(len(scales), k), strict=True):
        colour, kind = player_style(mark)
        shape(d, kind, x + sx, y + sy, 6 * k, colour, width=1)
        label(img, (x + sx + 9 * k, y + sy), f"×{n}", size, True, INK, "lm")


def card_image(card: str, scales: tuple[tuple[int, int], ...]) -> Image.Image:
    """The summoning card ``card`` (:func:`card_face`, ``CARD_W x CARD_H`` px) with the ``scales``
    (:func:`scales_on`) on it, as on the board. Cached by that content and language (64 images): a card's scales
    change only when a player takes one."""
    return _card_image(card, scales, str(words(D.CARD_TITLES[card])), str(words(T("no scales"))))


@lru_cache(maxsize=64)
def _card_image(card: str, scales: tuple[tuple[int, int], ...], title: str, no_scales: str) -> Image.Image:
    img = card_face(card).copy()
    scale_marks(img, scales, 0, 0)
    return img


def shrine_tile(e: str, side: str) -> Image.Image:
    """A shrine tile (``TILE_W x TILE_H`` px): element and side on top (the back with the scale icon, TM-6), the
    shrine's ring in the marker slot on the left (a marker covers it when the shrine is offered), and the rings it
    asks for with their counts (``TILE_COUNT_PX``); its words in the image's language."""
    return _shrine_tile(e, side, str(words(D.ELEMENT_TEXT[e])).upper(),
                        str(words(T("front") if side == "front" else T("back"))))


@lru_cache(maxsize=16)
def _shrine_tile(e: str, side: str, element: str, side_name: str) -> Image.Image:
    img = Image.new("RGB", (TILE_W, TILE_H), ELEMENT_TINT[e])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, TILE_W - 1, TILE_H - 1), outline=INK, width=2)
    d.text((6, 4), element, font=font(12, bold=True), fill=INK)
    right = TILE_W - 6
    if side == "back":  # the scale icon: this side puts a scale on the card above
        d.polygon([(right - 12, 4), (right, 4), (right, 13), (right - 6, 19), (right - 12, 13)], fill=GOLD,
                  outline=INK)
        right -= 16
    d.text((right, 5), side_name, font=font(11), fill=INK, anchor="ra")
    slot = ring_icon(e, 13)
    img.paste(slot, (SLOT[0] - slot.width // 2, SLOT[1] - slot.height // 2), slot)
    req = (D.SHRINE_FRONT if side == "front" else D.SHRINE_BACK)[e]
    x = 40
    for el in dict.fromkeys(req):  # the shrine's own element first
        d.text((x, SLOT[1]), f"{req.count(el)}×", font=font(TILE_COUNT_PX, bold=True), fill=INK, anchor="lm")
        icon = ring_icon(el, 10)
        img.paste(icon, (x + 22, SLOT[1] - icon.height // 2), icon)
        x += 46
    return img


