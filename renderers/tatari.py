"""Tatari board image: shrines 7-10 and the Shrine box with their dolls, the dice (set aside vs still in the box),
running total and doll count, every stash, whose turn. 1000 x 770 px PNG.

Colour-blind safe: dice faces are drawn as numerals and doll figures, the current player is marked by an arrow and a
thick frame, every player by a shape and their name as well as a colour (``renderers.common``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.tatari import SHRINES, TatariState
from games.tatari.rules import FACE_DOLLS

from .common import (
    INK,
    MUTED,
    PAPER,
    WHITE,
    display_name,
    encode_png,
    font,
    make_palette,
    player_style,
    shape,
    text,
)

W, H = 1000, 770
SHRINE_Y, SHRINE_H = 70, 200
DICE_Y = 300
STASH_Y = 500
RED = (150, 30, 30)
WOOD = (200, 170, 120)
BOX_FILL = (90, 70, 60)
DIE = 64


def _doll(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill=RED) -> None:
    """A cursed doll figure: round head, kimono body (trapezoid), centred on (cx, cy), ``size`` px tall."""
    r = size * 0.22
    draw.ellipse((cx - r, cy - size / 2, cx + r, cy - size / 2 + 2 * r), fill=(250, 230, 210), outline=INK, width=1)
    top = cy - size / 2 + 2 * r
    draw.polygon(
        [(cx - r * 0.9, top), (cx + r * 0.9, top), (cx + size * 0.35, cy + size / 2), (cx - size * 0.35, cy + size / 2)],
        fill=fill, outline=INK,
    )


def _shrine_xs() -> list[int]:
    return [30 + i * 190 for i in range(5)]


@lru_cache(maxsize=1)
def background() -> Image.Image:
    """The static part: title band, shrine frames with their numbers, section labels."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 56), fill=INK)
    d.text((20, 28), "TATARI", font=font(30, bold=True), fill=WHITE, anchor="lm")
    for i, x in enumerate(_shrine_xs()):
        if i < 4:
            # torii: two posts and two beams
            d.rectangle((x, SHRINE_Y + 30, x + 170, SHRINE_Y + SHRINE_H), fill=(252, 248, 240), outline=INK, width=2)
            d.rectangle((x - 6, SHRINE_Y, x + 176, SHRINE_Y + 14), fill=VERMILION_DARK, outline=INK, width=2)
            d.rectangle((x + 8, SHRINE_Y + 18, x + 162, SHRINE_Y + 28), fill=VERMILION_DARK, outline=INK, width=1)
            d.text((x + 85, SHRINE_Y + 58), f"{SHRINES[i]}", font=font(40, bold=True), fill=INK, anchor="mm")
        else:
            d.rectangle((x, SHRINE_Y + 10, x + 170, SHRINE_Y + SHRINE_H), fill=BOX_FILL, outline=INK, width=3)
            d.text((x + 85, SHRINE_Y + 40), "11", font=font(36, bold=True), fill=WHITE, anchor="mm")
            d.text((x + 85, SHRINE_Y + 72), "Shrine box", font=font(18), fill=WHITE, anchor="mm")
    d.text((30, DICE_Y - 8), "SET ASIDE", font=font(20, bold=True), fill=MUTED, anchor="ls")
    d.text((540, DICE_Y - 8), "JUST ROLLED (in the box)", font=font(20, bold=True), fill=MUTED, anchor="ls")
    d.rectangle((530, DICE_Y, 970, DICE_Y + DIE + 24), outline=MUTED, width=2)
    d.text((30, STASH_Y - 8), "STASHES (10 at most)", font=font(20, bold=True), fill=MUTED, anchor="ls")
    return img


VERMILION_DARK = (200, 60, 40)


def _rgba(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=16)
def die_sprite(face: str, crossed: bool = False) -> Image.Image:
    """A die showing ``face`` (numeral, one doll, two dolls), greyed and crossed out when that face is already set
    aside (TA-3). RGBA, (DIE+1) px square; cached, pasted by :func:`draw`."""
    img, d = _rgba(DIE + 1, DIE + 1)
    d.rounded_rectangle((0, 0, DIE, DIE), radius=10, fill=(235, 235, 235) if crossed else WHITE, outline=INK, width=3)
    c = DIE / 2
    if face == "doll":
        _doll(d, c, c, 44)
    elif face == "double":
        _doll(d, c - 13, c, 38)
        _doll(d, c + 13, c, 38)
    else:
        d.text((c, c), face, font=font(40, bold=True), fill=INK, anchor="mm")
    if crossed:
        d.line((4, 4, DIE - 4, DIE - 4), fill=INK, width=3)
    return img


@lru_cache(maxsize=16)
def shrine_sprite(n: int) -> Image.Image:
    """Up to 10 dolls in a 5 x 2 grid of 32 px cells (9 and a "+N" label are drawn beyond 10). RGBA 160 x 64."""
    img, d = _rgba(160, 64)
    for k in range(min(n, 10 if n <= 10 else 9)):
        r, c = divmod(k, 5)
        _doll(d, c * 32 + 16, r * 32 + 16, 27)
    return img


@lru_cache(maxsize=16)
def stash_sprite(n: int) -> Image.Image:
    """A stash row: ``n`` dolls then empty slots up to 10 (TA-9), 36 px apart. RGBA 360 x 40."""
    img, d = _rgba(360, 40)
    for k in range(10):
        cx = 18 + k * 36
        if k < n:
            _doll(d, cx, 20, 32)
        else:
            d.ellipse((cx - 4, 16, cx + 4, 24), outline=MUTED, width=1)
    return img


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


LABEL_W = 446 - 76
"""Room for a stash row's label: from its left edge to just before the first doll slot."""


def stash_label(d: ImageDraw.ImageDraw, name: str, suffix: str, fnt) -> str:
    """``name + suffix`` shortened (the name, with "…") to fit :data:`LABEL_W` px, so "(resigned)" or "★ WINNER"
    never runs into the dolls."""
    label = name + suffix
    while d.textlength(label, font=fnt) > LABEL_W and len(name) > 1:
        name = name.rstrip("…")[:-1] + "…"
        label = name + suffix
    return label


def draw(state: TatariState, names: dict[str, str] | None = None) -> Image.Image:
    """The board of ``state`` as a Pillow image (W x H px)."""
    img = background().copy()
    d = ImageDraw.Draw(img)
    over = state.phase == "over"
    cur = state.current
    title = (
        f"{display_name(state.winner, names, 24)} wins!" if over and state.winner
        else f"Turn {state.turn_number}: {display_name(cur, names, 24)}"
    )
    text(img, (W - 20, 28), title, 26, WHITE, bold=True, anchor="rm")

    # shrines and the Shrine box
    for i, x in enumerate(_shrine_xs()):
        n = state.shrines[str(SHRINES[i])] if i < 4 else state.box
        colour = INK if i < 4 else WHITE
        text(img, (x + 85, SHRINE_Y + SHRINE_H - 22), f"{n} doll{'s' if n != 1 else ''}", 24, colour, bold=True, anchor="mm")
        if i < 4:
            _paste(img, shrine_sprite(min(n, 11)), (x + 5, SHRINE_Y + 80))
            if n > 10:
                text(img, (x + 150, SHRINE_Y + 128), f"+{n - 9}", 20, INK, bold=True, anchor="mm")

    # dice
    aside = state.set_aside
    for k, face in enumerate(aside):
        _paste(img, die_sprite(face), (30 + k * (DIE + 12), DICE_Y + 12))
    for k, face in enumerate(state.rolled):  # a face already set aside cannot be taken again (TA-3): crossed out
        _paste(img, die_sprite(face, face in aside), (545 + k * (DIE + 6), DICE_Y + 12))
    total = state.total
    dolls = sum(FACE_DOLLS[f] for f in aside)
    text(img, (30, DICE_Y + DIE + 80), f"Total {total}", 34, INK, bold=True, anchor="ls")
    text(img, (230, DICE_Y + DIE + 80), f"Dolls {dolls}", 34, RED, bold=True, anchor="ls")
    if not over:
        hint = "Stop allowed (7+)" if total >= 7 else f"{7 - total} more to stop"
        text(img, (430, DICE_Y + DIE + 80), hint, 22, MUTED, anchor="ls")
    if not aside:
        text(img, (30, DICE_Y + 40), "nothing yet", 22, MUTED, anchor="lm")
    if not state.rolled:
        text(img, (750, DICE_Y + 44), "empty", 22, MUTED, anchor="mm")

    # stashes
    n = len(state.players)
    row_h = min(48, (H - STASH_Y - 10) // max(n, 1))
    for i, p in enumerate(state.players):
        y = STASH_Y + 6 + i * row_h
        colour, kind = player_style(i)
        is_cur = p == cur and not over
        if is_cur:
            d.rectangle((22, y - 2, W - 22, y + row_h - 6), outline=INK, width=4, fill=(255, 252, 235))
            d.polygon([(4, y + 8), (18, y + row_h / 2 - 4), (4, y + row_h - 16)], fill=INK)
        shape(d, kind, 50, y + row_h / 2 - 4, 14, colour)
        gone = p in state.out
        suffix = (" (resigned)" if gone else "") + (" ★ WINNER" if p == state.winner else "")
        label = stash_label(d, display_name(p, names, 18), suffix, font(24, bold=is_cur))
        text(img, (76, y + row_h / 2 - 4), label, 24, MUTED if gone else INK, bold=is_cur, anchor="lm")
        stash = state.stashes[p]
        _paste(img, stash_sprite(stash), (452, int(y + row_h / 2 - 24)))
        text(img, (W - 40, y + row_h / 2 - 4), f"{stash}", 28, INK, bold=True, anchor="rm")
    return img


@lru_cache(maxsize=1)
def palette():
    """The 256 colours of Tatari boards: median cut over sample boards showing every colour drawn (five players,
    every die face plain and crossed out, dolls on shrines and stashes, a winner)."""
    from games.core import Rng

    players = [f"p{i}" for i in range(5)]
    busy = TatariState(
        players=players, rng=Rng(seed=0), stashes=dict(zip(players, (8, 3, 0, 10, 5), strict=True)),
        shrines={"7": 4, "8": 12, "9": 0, "10": 2}, box=0, current="p1", phase="select",
        set_aside=["1", "doll", "double"], rolled=["1", "2", "3", "4", "doll", "double"], out=["p4"],
    )
    over = busy.model_copy(update={"phase": "over", "winner": "p2", "rolled": [], "set_aside": []})
    return make_palette([draw(busy), draw(over)])


def render(state: TatariState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of the board of ``state``; ``names`` maps player ids to display names."""
    return encode_png(draw(state, names), palette())
