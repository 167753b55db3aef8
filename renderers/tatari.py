"""Tatari board image: shrines 7-10 and the Shrine box with their dolls, the dice (set aside vs still in the box),
running total and doll count, what the decision is, every stash, whose turn; at the end the final ranking.
1000 x 770 px PNG (8-bit palette).

One image serves both ``full=False`` (the decision's view) and ``full=True``: the whole board is the area every Tatari
decision is about, and it is drawn so that every number and marker key is at least 9 px tall when Discord shows it
400 px wide (:data:`TEXT_PX` and :data:`MARKER_R` against :data:`W`).

Offered places carry the numbered markers of :func:`games.marker_keys`. Locus vocabulary:

- ``shrine:<7..10>`` — a shrine board (bust on a tie for most, TA-8): the marker sits beside its number;
- ``stash:<player id>`` — a player's stash row (the gift of a set-aside 1, TA-7): the marker sits before the count.

Colour-blind safe: dice faces are drawn as numerals and doll figures, a face already set aside is crossed out, the
current player is marked by an arrow and a thick frame, every player by a shape and their name as well as a colour
(``renderers.common``); a resigned player's row says so in words, a winner's says "(winner)" (the star is a seat's
shape), markers are black on white.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from games import marker_keys
from games.core import N, T, Text
from games.tatari import GAME, SHRINES, TatariState
from games.tatari.rules import FACE_DOLLS

from .common import (
    INK,
    PAPER,
    WHITE,
    Sprite,
    cached_in_language,
    display_name,
    encode_png,
    font,
    make_palette,
    marker,
    paste_sprite,
    player_style,
    shape,
    sprite,
    text,
    words,
)

W, H = 1000, 770
SHRINE_Y, SHRINE_H = 70, 200
DICE_Y = 300
STASH_Y = 500
RED = (150, 30, 30)
WOOD = (200, 170, 120)
BOX_FILL = (90, 70, 60)
VERMILION_DARK = (200, 60, 40)
GREY = (100, 92, 84)
"""Section labels and secondary texts: 5.8:1 on the paper (WCAG AA asks 4.5:1)."""
CROSSED = (235, 235, 235)
CURRENT_FILL = (255, 252, 235)
DIE = 64
ROLLED_X = 545
"""Left edge of the first die in the Cursed box (the just-rolled dice)."""

TEXT_PX = {
    "title": 26,
    "shrine number": 40,
    "box number": 36,
    "box label": 24,
    "shrine dolls": 24,
    "shrine overflow": 24,
    "section label": 24,
    "die face": 40,
    "total": 34,
    "decision": 24,
    "stash name": 24,
    "stash count": 28,
    "ranking": 26,
}
"""Every text size drawn, px (font size). The smallest, 24 px on a 1000 px board, is 9.6 px at 400 px wide."""
MARKER_R = {"shrine": 26, "stash": 20}
"""Marker radius by locus kind, px: the key is ``1.3 * r`` px tall (``renderers.common.marker``), 10.4 px at 400 px."""
STASH_MARKER_X = 860
"""Centre x of a stash row's marker: between the doll slots (which end at 812) and the count."""


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


@cached_in_language(maxsize=4)
def background() -> Image.Image:
    """The static part: title band, shrine frames with their numbers, the stash section label."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 56), fill=INK)
    d.text((20, 28), T("TATARI"), font=font(30, bold=True), fill=WHITE, anchor="lm")
    for i, x in enumerate(_shrine_xs()):
        if i < 4:
            # torii: two posts and two beams
            d.rectangle((x, SHRINE_Y + 30, x + 170, SHRINE_Y + SHRINE_H), fill=(252, 248, 240), outline=INK, width=2)
            d.rectangle((x - 6, SHRINE_Y, x + 176, SHRINE_Y + 14), fill=VERMILION_DARK, outline=INK, width=2)
            d.rectangle((x + 8, SHRINE_Y + 18, x + 162, SHRINE_Y + 28), fill=VERMILION_DARK, outline=INK, width=1)
            d.text((x + 85, SHRINE_Y + 58), f"{SHRINES[i]}", font=font(TEXT_PX["shrine number"], bold=True), fill=INK,
                   anchor="mm")
        else:
            d.rectangle((x, SHRINE_Y + 10, x + 170, SHRINE_Y + SHRINE_H), fill=BOX_FILL, outline=INK, width=3)
            d.text((x + 85, SHRINE_Y + 40), "11", font=font(TEXT_PX["box number"], bold=True), fill=WHITE, anchor="mm")
            d.text((x + 85, SHRINE_Y + 72), T("Shrine box"), font=font(TEXT_PX["box label"]), fill=WHITE, anchor="mm")
    d.text((30, STASH_Y - 8), T("STASHES (10 at most)"), font=font(TEXT_PX["section label"], bold=True), fill=GREY,
           anchor="ls")
    return img


def _rgba(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=16)
def die_sprite(face: str, crossed: bool = False) -> Image.Image:
    """A die showing ``face`` (numeral, one doll, two dolls), greyed and crossed out when that face is already set
    aside (TA-3). RGBA, (DIE+1) px square; cached, pasted by :func:`draw`."""
    img, d = _rgba(DIE + 1, DIE + 1)
    d.rounded_rectangle((0, 0, DIE, DIE), radius=10, fill=CROSSED if crossed else WHITE, outline=INK, width=3)
    c = DIE / 2
    if face == "doll":
        _doll(d, c, c, 44)
    elif face == "double":
        _doll(d, c - 13, c, 38)
        _doll(d, c + 13, c, 38)
    else:
        d.text((c, c), face, font=font(TEXT_PX["die face"], bold=True), fill=INK, anchor="mm")
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
            d.ellipse((cx - 4, 16, cx + 4, 24), outline=GREY, width=1)
    return img


@lru_cache(maxsize=64)
def _sprite_of(factory: Callable[..., Image.Image], *args) -> Sprite:
    """``factory(*args)`` (one of the RGBA sprite functions above) as a cached :class:`~renderers.common.Sprite`."""
    return sprite(factory(*args))


def _paste(img: Image.Image, factory: Callable[..., Image.Image], args: tuple, xy: tuple[int, int]) -> None:
    """Paste the picture ``factory(*args)`` with its top-left corner at ``xy`` (through :func:`_sprite_of`)."""
    paste_sprite(img, _sprite_of(factory, *args), *xy)


LABEL_W = 446 - 76
"""Room for a stash row's label: from its left edge to just before the first doll slot."""


RANK_W = 470
"""Width of a column of the final ranking, px (two columns of three lines)."""


def stash_label(d: ImageDraw.ImageDraw, name: str, suffix: str, fnt, width: int = LABEL_W) -> str:
    """``name + suffix`` shortened (the name, with "…") to fit ``width`` px (default :data:`LABEL_W`), so
    "(resigned)" or "(winner)" never runs into the dolls."""
    suffix = str(words(suffix))
    label = name + suffix
    while d.textlength(label, font=fnt) > width and len(name) > 1:
        name = name.rstrip("…")[:-1] + "…"
        label = name + suffix
    return label


@lru_cache(maxsize=256)
def _row_label(name: str, suffix: str, bold: bool) -> str:
    """:func:`stash_label` of a stash row (``TEXT_PX["stash name"]``, bold for the player to act), cached: the
    same names are measured on every board."""
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    return stash_label(probe, name, suffix, font(TEXT_PX["stash name"], bold=bold))


def row_suffix(state: TatariState, player: str) -> Text | str:
    """What follows a name on its stash row: " (resigned)", " (winner)" or "". In words: the star is the fifth
    seat's shape, so a "★" would read as that seat."""
    if player in state.out:
        return T(" (resigned)")
    return T(" (winner)") if player == state.winner else ""


def decision_line(state: TatariState) -> Text | str:
    """What the board asks now, in words (rulebook "How to Play"; the stop hint only where Stop is
    possible, and a gift that is due said so): select → set aside a face; fate → continue or stop (TA-4); bust →
    which tied shrine (TA-8); give → a set-aside 1 gives a doll (TA-7); over → "" (the ranking is drawn instead)."""
    if state.phase == "select":
        return T("Set aside one face")
    if state.phase == "fate":
        return T("Stop allowed (7+): continue or stop?")
    if state.phase == "bust":
        return T("BUST: take a fullest shrine (tie)")
    if state.phase == "give":
        return T("A 1 is set aside: give a doll")
    return ""


def stash_rows(n: int) -> tuple[int, int]:
    """(top y of the first stash row, row height) for ``n`` players, px."""
    return STASH_Y + 6, min(48, (H - STASH_Y - 10) // max(n, 1))


def marker_positions(state: TatariState) -> dict[str, tuple[float, float, float]]:
    """Marker key -> (centre x, centre y, radius) in px for the pending decision's offered places (empty when
    nothing offered has a locus). Keys from :func:`games.marker_keys`; loci as in the module docstring."""
    out: dict[str, tuple[float, float, float]] = {}
    top, row_h = stash_rows(len(state.players))
    for decision in GAME.pending(state):
        keys = marker_keys(decision.options)
        for opt in decision.options:
            if opt.id not in keys or opt.locus is None:
                continue
            kind, _, where = opt.locus.partition(":")
            if kind == "shrine":
                x = _shrine_xs()[SHRINES.index(int(where))]
                out[keys[opt.id]] = (x + 30, SHRINE_Y + 62, MARKER_R["shrine"])
            elif kind == "stash":
                i = state.players.index(where)
                out[keys[opt.id]] = (STASH_MARKER_X, top + i * row_h + row_h / 2 - 4, MARKER_R["stash"])
    return out


def ranking_lines(state: TatariState, names: dict[str, str] | None = None) -> list[tuple[str, bool]]:
    """The final ranking of a finished game as (line, bold) pairs, best first (TA-10: the winner, then fewer dolls
    left ranks higher, ties share a place; resigned players last, without a score): "1.  alice (winner)",
    "2.  bob: 3 dolls left", "–  carol: resigned". Names shortened to fit :data:`RANK_W`. [] before the end."""
    result = GAME.result(state)
    if result is None:
        return []
    size = TEXT_PX["ranking"]
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    lines = []
    place = 1
    for group in result.ranking:
        for p in group:
            if p in state.out:
                head, tail = "–  ", T(": resigned")
            elif p in result.winners:
                head, tail = f"{place}.  ", T(" (winner)")
            else:
                head, tail = f"{place}.  ", N(": {n} doll left", ": {n} dolls left", n=state.stashes[p])
            bold = p in result.winners
            label = stash_label(probe, display_name(p, names, 18), tail, font(size, bold), RANK_W - 60)
            lines.append((head + label, bold))
        place += len(group)
    return lines


def _ranking(img: Image.Image, state: TatariState, names: dict[str, str] | None) -> None:
    """The game-over middle band: "GAME OVER: FINAL RANKING" and :func:`ranking_lines` in two columns of three."""
    text(img, (30, DICE_Y - 8), T("GAME OVER: FINAL RANKING"), TEXT_PX["section label"], GREY, bold=True, anchor="ls")
    for k, (line, bold) in enumerate(ranking_lines(state, names)):
        col, row = divmod(k, 3)
        text(img, (30 + col * (RANK_W + 10), DICE_Y + 26 + row * 52), line, TEXT_PX["ranking"], INK, bold=bold,
             anchor="lm")


def draw(state: TatariState, names: dict[str, str] | None = None) -> Image.Image:
    """The board of ``state`` as a Pillow image (W x H px), offered places marked."""
    img = background().copy()
    d = ImageDraw.Draw(img)
    over = state.phase == "over"
    cur = state.current
    title = (
        T("{player} wins!", player=display_name(state.winner, names, 24)) if over and state.winner
        else T("Game over") if over
        else T("Turn {n}: {player}", n=state.turn_number, player=display_name(cur, names, 24))
    )
    text(img, (W - 20, 28), title, TEXT_PX["title"], WHITE, bold=True, anchor="rm")

    # shrines and the Shrine box
    for i, x in enumerate(_shrine_xs()):
        n = state.shrines[str(SHRINES[i])] if i < 4 else state.box
        colour = INK if i < 4 else WHITE
        text(img, (x + 85, SHRINE_Y + SHRINE_H - 22), N("{n} doll", "{n} dolls", n=n), TEXT_PX["shrine dolls"],
             colour, bold=True, anchor="mm")
        if i < 4:
            _paste(img, shrine_sprite, (min(n, 11),), (x + 5, SHRINE_Y + 80))
            if n > 10:
                text(img, (x + 150, SHRINE_Y + 128), f"+{n - 9}", TEXT_PX["shrine overflow"], INK, bold=True,
                     anchor="mm")

    if over:
        _ranking(img, state, names)
    else:
        _dice(img, d, state)

    # stashes
    top, row_h = stash_rows(len(state.players))
    for i, p in enumerate(state.players):
        y = top + i * row_h
        colour, kind = player_style(i)
        is_cur = p == cur and not over
        if is_cur:
            d.rectangle((22, y - 2, W - 22, y + row_h - 6), outline=INK, width=4, fill=CURRENT_FILL)
            d.polygon([(4, y + 8), (18, y + row_h / 2 - 4), (4, y + row_h - 16)], fill=INK)
        shape(d, kind, 50, y + row_h / 2 - 4, 14, colour)
        gone = p in state.out
        suffix = row_suffix(state, p)
        label = _row_label(display_name(p, names, 18), str(words(suffix)), is_cur)
        text(img, (76, y + row_h / 2 - 4), label, TEXT_PX["stash name"], GREY if gone else INK, bold=is_cur,
             anchor="lm")
        if gone:  # their dolls went to the Shrine box: no count, which would read as a winning empty stash
            text(img, (452, y + row_h / 2 - 4), T("out: dolls to the Shrine box"), TEXT_PX["stash name"], GREY,
                 anchor="lm")
            continue
        stash = state.stashes[p]
        _paste(img, stash_sprite, (stash,), (452, int(y + row_h / 2 - 24)))
        text(img, (W - 40, y + row_h / 2 - 4), f"{stash}", TEXT_PX["stash count"], INK, bold=True, anchor="rm")

    for key, (cx, cy, r) in marker_positions(state).items():
        if cy < DICE_Y:  # an offered shrine: framed as well as marked
            d.rectangle((cx - 28, SHRINE_Y + 30, cx + 142, SHRINE_Y + SHRINE_H), outline=INK, width=5)
        marker(img, cx, cy, key, r)
    return img


def _dice(img: Image.Image, d: ImageDraw.ImageDraw, state: TatariState) -> None:
    """The middle band of a turn: set-aside dice, the Cursed box with the roll (the busting roll on a bust), the
    total, the dolls counted and what the decision is."""
    aside = state.set_aside
    bust = state.phase == "bust"
    label = GREY
    text(img, (30, DICE_Y - 8), T("SET ASIDE"), TEXT_PX["section label"], label, bold=True, anchor="ls")
    if bust:
        box_label = T("BUST ROLL: no new face") if state.rolled else T("BUST: all six set aside")
        text(img, (540, DICE_Y - 8), box_label, TEXT_PX["section label"], RED, bold=True, anchor="ls")
    else:
        text(img, (540, DICE_Y - 8), T("JUST ROLLED (in the box)"), TEXT_PX["section label"], label, bold=True,
             anchor="ls")
    d.rectangle((530, DICE_Y, 970, DICE_Y + DIE + 24), outline=RED if bust else GREY, width=3 if bust else 2)
    for k, face in enumerate(aside):
        _paste(img, die_sprite, (face,), (30 + k * (DIE + 12), DICE_Y + 12))
    for k, face in enumerate(state.rolled):  # a face already set aside cannot be taken again (TA-3): crossed out
        _paste(img, die_sprite, (face, face in aside), (ROLLED_X + k * (DIE + 6), DICE_Y + 12))
    total = state.total
    dolls = sum(FACE_DOLLS[f] for f in aside)
    text(img, (30, DICE_Y + DIE + 80), T("Total {total}", total=total), TEXT_PX["total"], INK, bold=True, anchor="ls")
    text(img, (230, DICE_Y + DIE + 80), T("Dolls {n}", n=dolls), TEXT_PX["total"], RED, bold=True, anchor="ls")
    line = decision_line(state)
    text(img, (430, DICE_Y + DIE + 80), line, TEXT_PX["decision"], RED if bust else INK, bold=True, anchor="ls")
    if not aside:
        text(img, (30, DICE_Y + 44), T("nothing yet"), TEXT_PX["section label"], label, anchor="lm")
    if not state.rolled:
        text(img, (750, DICE_Y + 44), T("total under 7") if bust else T("empty"), TEXT_PX["section label"], label,
             anchor="mm")


@lru_cache(maxsize=1)
def palette():
    """The 256 colours of Tatari boards: median cut over sample boards showing every colour drawn (five players,
    every die face plain and crossed out, dolls on shrines and stashes, a bust with markers on tied shrines, a gift
    with markers on stashes, a resigned player, the final ranking)."""
    from games.core import Rng

    players = [f"p{i}" for i in range(5)]
    busy = TatariState(
        players=players, rng=Rng(seed=0), stashes=dict(zip(players, (8, 3, 0, 10, 5), strict=True)),
        shrines={"7": 4, "8": 12, "9": 0, "10": 2}, box=0, current="p1", phase="select",
        set_aside=["1", "doll", "double"], rolled=["1", "2", "3", "4", "doll", "double"], out=["p4"],
    )
    bust = busy.model_copy(update={"phase": "bust", "shrines": {"7": 4, "8": 4, "9": 0, "10": 2},
                                   "rolled": ["1", "doll"]})
    give = busy.model_copy(update={"phase": "give", "rolled": [], "out": []})
    over = busy.model_copy(update={"phase": "over", "winner": "p2", "rolled": [], "set_aside": []})
    return make_palette([draw(busy), draw(bust), draw(give), draw(over)])


def shows_whole(state: TatariState) -> bool:
    """Always: every Tatari decision is shown on the whole board (module docstring)."""
    return True


def render(state: TatariState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette, W x H px) of the board of ``state``; ``names`` maps player ids to display names.
    ``full`` is accepted for the common contract: the whole board is also the decision's view (module docstring)."""
    return encode_png(draw(state, names), palette())
