"""Tatamokatsu board image: the three dice, every hand, the roller and the last race with its times.

``render(state, names=None, full=False) -> bytes`` (PNG, 1000 x 850 px, 8-bit palette). The 1/10 face (two numbers
split by a diagonal, the chosen one ringed) and the Tatamokatsu face (a dark die with a star and a big T) are drawn
unlike the plain 1-6 pip faces, and each is labelled, so colour never carries meaning alone. Static parts
(background, die faces, hands) are cached and pasted.

One image serves both ``full=False`` (the decision's view) and ``full=True``: every decision is about the dice, the
hands or the race, and the whole board is drawn so that every number, name and marker key is at least 9 px tall when
Discord shows it 400 px wide (:data:`TEXT_PX`, :data:`MARKER_R` against :data:`W`).

Offered places carry the numbered markers of :func:`games.marker_keys`. Locus vocabulary:

- ``hand:<player id>`` — a player's hand card (the roller picks a victim, TK-6): the card is framed and the marker
  sits in its bottom-right corner, where a victim never has a tag.

Names are drawn through ``renderers.common.text`` (the shared fonts and their per-glyph fallback) and shortened with
"…" to the room they have: a card, a race row before its FIRST/mistake tag, the roll-off line.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageChops, ImageDraw

from games import marker_keys
from games.core import T, Text, format_text
from games.tatamokatsu.data import DIE_NAMES, FINGERS, ONE_OR_TEN, TATAMOKATSU_FACE
from games.tatamokatsu.dice import is_tatamokatsu, is_triple, offered_choices, shows_t
from games.tatamokatsu.state import TatamokatsuState
from renderers.common import (
    BLUE,
    INK,
    MUTED,
    PAPER,
    SKY,
    VERMILION,
    WHITE,
    YELLOW,
    Sprite,
    cached_in_language,
    centred_text,
    display_name,
    encode_png,
    font,
    game_palette,
    make_palette,
    marker,
    paste_sprite,
    player_style,
    shape,
    sprite,
    text,
)
from renderers.common import words as common_words

W, H = 1000, 850
DIE = 150
DICE_Y = 92
CARDS_Y = 318
CARD_H = 196
RACE_Y = 530
LIGHT = (226, 218, 204)
FOLDED = (196, 188, 176)
PANEL = (255, 251, 243)

TEXT_PX = {
    "title": 28,
    "roll count": 26,
    "phase": 24,
    "die label": 24,
    "dice note": 26,
    "dice note head": 30,
    "card name": 24,
    "fingers": 26,
    "card tag": 20,
    "race title": 24,
    "rolloff": 24,
    "race row": 24,
    "race tag": 24,
    "race more": 24,
}
"""Every text size drawn, px (font size). Numbers, names and keys are 24 px or more: 9.6 px at 400 px wide. The card
tags (ROLLER, OUT, …) are words under a hand that already shows them, 20 px (8 px at 400 px wide)."""
MARKER_R = 20
"""Radius of a victim's marker, px: its key is 26 px tall (``renderers.common.marker``), 10.4 px at 400 px wide."""
RACE_COLS, RACE_PITCH = 2, 36
"""Race list: columns, row pitch (px); 6 or 7 rows a column, as the roll-off line leaves room."""

TITLE = T("Tatamokatsu")
TAGS = {"samurai": T("SAMURAI"), "left": T("LEFT"), "roller": T("ROLLER"), "out": T("OUT")}
"""A hand card's badge: the winner, a player who left, the roller, a player with no fingers left."""
INPUT_NAMES = {"shout": T("shout"), "grab": T("grab"), "katana": T("Katana"), "salute": T("salute")}
NOTE_TEXT = {"first": T("FIRST"), "mistake": T("mistake: -1"), "last": T("last: -1"), "missed": T("missed: -1")}
OR = T(" or ")
"""Between alternatives drawn on the board ("Sum 7 or 16")."""
AND = T(" and ")
"""Between the names of players sharing the win."""
COMMA = T(", ")
THEN = T(" · then ")
"""Between the rounds of a roll-off."""

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


@cached_in_language(maxsize=8)
def _background(n_players: int) -> Image.Image:
    """The static picture for ``n_players``: title (the game's name in capitals, タタモカツ in Japanese), panels,
    empty hand cards."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 70), fill=INK)
    d.text((24, 35), said(TITLE).upper(), font=font(28, bold=True), fill=WHITE, anchor="lm")
    d.rounded_rectangle((16, 80, W - 16, 300), radius=14, fill=PANEL, outline=LIGHT, width=2)
    for i in range(n_players):
        x0, x1 = _card_x(i, n_players)
        d.rounded_rectangle((x0, CARDS_Y, x1, CARDS_Y + CARD_H), radius=12, fill=PANEL, outline=LIGHT, width=2)
    d.rounded_rectangle((16, RACE_Y, W - 16, H - 14), radius=14, fill=PANEL, outline=LIGHT, width=2)
    return img


@lru_cache(maxsize=1024)
def _sprite(words: str, size: int, bold: bool, fill: tuple, bg: tuple, anchor: str) -> tuple[Image.Image, int, int]:
    """``words`` written by ``renderers.common.text`` (the shared fonts and their fallbacks) once on an opaque ``bg``
    patch (all our texts sit on flat colours), cropped to the ink, with the offset of its top-left corner from the
    anchor point: pasting it is much cheaper than drawing the glyphs again or pasting through a mask."""
    left, top, right, bottom = font(size, bold=bold).getbbox(words, anchor=anchor)
    pad_x, pad_y = size + len(words) * size // 2, size  # room for wider fallback glyphs
    w, h = right - left + 2 * pad_x, bottom - top + 2 * pad_y
    patch = Image.new("RGB", (w, h), bg)
    text(patch, (pad_x - left, pad_y - top), words, size, fill, bold=bold, anchor=anchor)
    box = ImageChops.difference(patch, Image.new("RGB", (w, h), bg)).getbbox() or (0, 0, 1, 1)
    return patch.crop(box), left - pad_x + box[0], top - pad_y + box[1]


def _text(img: Image.Image, xy: tuple[float, float], words: str, size: int, bold: bool = False, fill=INK,
          bg=PANEL, anchor: str = "lm") -> None:
    """Paste ``words`` anchored at ``xy`` (Pillow anchors: "lm", "rm", "mm" …) on a flat ``bg``, from the sprite
    cache (:func:`_sprite`)."""
    sprite, left, top = _sprite(said(words), size, bold, fill, bg, anchor)
    img.paste(sprite, (int(round(xy[0])) + left, int(round(xy[1])) + top))


def said(words: str) -> str:
    """``words`` in the image's language as a plain ``str`` (:func:`renderers.common.words`): the caches below
    are keyed by it, and a :class:`games.core.Text` equals its English wording."""
    return str(common_words(words))


def width(words: str, size: int, bold: bool = False) -> float:
    """Advance width of ``words`` (in the image's language) at ``size`` px, in px."""
    return _width(said(words), size, bold)


@lru_cache(maxsize=4096)
def _width(words: str, size: int, bold: bool = False) -> float:
    """Advance width of ``words`` at ``size`` px, in px (cached: layouts measure the same texts every board)."""
    return font(size, bold=bold).getlength(words)


def fit(words: str, size: int, bold: bool, room: float) -> str:
    """``words`` (in the image's language) shortened with "…" until it is at most ``room`` px wide at ``size`` px
    (bold or not)."""
    return _fit(said(words), size, bold, room)


@lru_cache(maxsize=1024)
def _fit(words: str, size: int, bold: bool, room: float) -> str:
    while width(words, size, bold) > room and len(words) > 1:
        words = words.rstrip("…")[:-1] + "…"
    return words


def _card_x(i: int, n: int) -> tuple[int, int]:
    gap = 12
    width = (W - 32 - gap * (n - 1)) // n
    x0 = 16 + i * (width + gap)
    return x0, x0 + width


def _die(face: str, value: int | None) -> Image.Image:
    """One die face, ``DIE`` px square (RGBA); ``value`` is the chosen count of a 1/10 face (None: not chosen
    yet). Boards paste it from :func:`_die_sprite`."""
    img = Image.new("RGBA", (DIE, DIE), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (4, 4, DIE - 4, DIE - 4)
    if face == TATAMOKATSU_FACE:
        d.rounded_rectangle(box, radius=22, fill=INK, outline=VERMILION, width=8)
        shape(d, "star", DIE / 2, DIE / 2, 56, fill=VERMILION, outline=VERMILION)
        centred_text(d, (DIE / 2, DIE / 2 + 4), "T", font(64, bold=True), fill=WHITE)
    elif face == ONE_OR_TEN:
        d.rounded_rectangle(box, radius=22, fill=SKY, outline=BLUE, width=6)
        d.line((18, DIE - 18, DIE - 18, 18), fill=BLUE, width=5)
        for text, (cx, cy), v in (("1", (46, 48), 1), ("10", (DIE - 48, DIE - 46), 10)):
            chosen = value == v
            faded = value is not None and not chosen
            if chosen:
                d.ellipse((cx - 32, cy - 32, cx + 32, cy + 32), fill=WHITE, outline=INK, width=4)
            centred_text(d, (cx, cy), text, font(44 if len(text) == 1 else 40, bold=True),
                         fill=MUTED if faded else INK)
    else:
        d.rounded_rectangle(box, radius=22, fill=WHITE, outline=INK, width=5)
        n = int(face)
        r = 12
        for fx, fy in PIPS[n]:
            cx, cy = 4 + fx * (DIE - 8), 4 + fy * (DIE - 8)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    return img


@lru_cache(maxsize=32)
def _die_sprite(face: str, value: int | None) -> Sprite:
    """:func:`_die` as a cached :class:`~renderers.common.Sprite`."""
    return sprite(_die(face, value))


def _hand(fingers: int, seat: int, width: int) -> Image.Image:
    """A hand with ``fingers`` raised (the rest folded, drawn as grey stubs), in the seat's colour (RGBA, ``width``
    x 104 px). Boards paste it from :func:`_hand_sprite`."""
    colour, _ = player_style(seat)
    h = 104
    img = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fw = min(26, (width - 44) // 5)  # 26 px with five players: 10 px a finger on a phone
    heights = [44, 70, 80, 72, 56]  # little finger .. index, then the thumb on the side
    total = 5 * fw + 4 * 6
    x = (width - total) // 2
    palm_top = h - 34
    for k in range(5):
        raised = k < fingers
        fh = heights[k] if raised else 16
        top = palm_top - fh + 8
        d.rounded_rectangle((x, top, x + fw, palm_top + 10), radius=fw // 2,
                            fill=colour if raised else FOLDED, outline=INK, width=2)
        x += fw + 6
    d.rounded_rectangle(((width - total) // 2 - 6, palm_top, (width + total) // 2 + 6, h - 2), radius=10,
                        fill=LIGHT, outline=INK, width=2)
    return img


@lru_cache(maxsize=128)
def _hand_sprite(fingers: int, seat: int, width: int) -> Sprite:
    """:func:`_hand` as a cached :class:`~renderers.common.Sprite`."""
    return sprite(_hand(fingers, seat, width))


def _phase_text(s: TatamokatsuState, name) -> Text:
    roller = name(s.roller)
    if s.phase == "over":
        if len(s.winners) == 1:
            return T("{player} is the Samurai!", player=name(s.winners[0]))
        return T("{players} share the win!", players=Text.join(AND, [name(p) for p in s.winners]))
    if s.phase == "roll":
        return T("{player} rolls next", player=roller)
    if s.phase == "race":
        return T("React now: shout, grab, Katana, salute!")
    if s.phase == "fix":
        return T("{player} counts the 1/10 dice", player=roller)
    if s.phase == "salute":
        return T("Sum {total}: salute (Hai!) now", total=s.total)
    if s.phase == "choice":
        return T("{player} won: strike or recover", player=name(s.winner or ""))
    return T("Sum {total}: {player} picks a victim", total=s.total, player=roller)


def _dice_note(s: TatamokatsuState) -> list[Text]:
    dice = s.dice
    if not dice:
        return [T("No roll yet.")]
    if s.phase == "race":  # no hints while the race is on: working the dice out is the game
        return [T("Quick!"), T("Shout, grab, Katana"), T("or salute.")]
    if shows_t(dice):
        return [T("T shows: grab race!"), T("First grab wins"), T("(no sum effect)")]
    lines = []
    if s.values is not None:
        lines.append(T("Sum {total}", total=sum(s.values)))
    else:
        sums = sorted({c.total for c in offered_choices(dice)})
        lines.append(T("Sum {total}", total=Text.join(OR, [str(n) for n in sums])) if sums else T("Sum 10 or 17 only"))
    if is_tatamokatsu(dice):
        lines.append(T("10 or 17 possible:"))
        lines.append(T("Tatamokatsu!"))
    if is_triple(dice):
        lines.append(T("Triples: Katana!"))
    return lines


def hand_boxes(n: int) -> list[tuple[int, int, int, int]]:
    """The hand cards of ``n`` players, in seat order: (x0, y0, x1, y1) px."""
    return [(*_card_x(i, n)[:1], CARDS_Y, _card_x(i, n)[1], CARDS_Y + CARD_H) for i in range(n)]


def tag_size(tag: str, room: float) -> int:
    """The size (px) of a card's tag badge (ROLLER, SAMURAI, …): :data:`TEXT_PX` ["card tag"], smaller (down to
    14) when the badge, 14 px of padding included, would not fit ``room`` px beside the finger count."""
    size = TEXT_PX["card tag"]
    while size > 14 and width(tag, size, True) + 14 > room:
        size -= 1
    return size


def marked_hands(state: TatamokatsuState) -> dict[str, tuple[str, float, float, float]]:
    """Player id -> (marker key, centre x, centre y, radius px) for the hands the pending decisions offer (loci
    ``hand:<player id>``, keys from :func:`games.marker_keys`); empty when nothing offered is a place."""
    from games.tatamokatsu import GAME

    out: dict[str, tuple[str, float, float, float]] = {}
    boxes = hand_boxes(len(state.players))
    for decision in GAME.pending(state):
        keys = marker_keys(decision.options)
        for opt in decision.options:
            if opt.id not in keys or opt.locus is None:
                continue
            kind, _, where = opt.locus.partition(":")
            if kind == "hand" and where in state.players:
                x1 = boxes[state.players.index(where)][2]
                out[where] = (keys[opt.id], x1 - 8 - MARKER_R, CARDS_Y + 167, MARKER_R)
    return out


def marker_positions(state: TatamokatsuState) -> dict[str, tuple[float, float, float]]:
    """Marker key -> (centre x, centre y, radius) in px for the pending decisions' offered places (empty when
    nothing offered has a locus). Keys from :func:`games.marker_keys`; loci as in the module docstring."""
    return {key: (cx, cy, r) for key, cx, cy, r in marked_hands(state).values()}


def draw(state: TatamokatsuState, names: dict[str, str] | None = None) -> Image.Image:
    """The board of ``state`` as a Pillow image (W x H px): dice (A, B, C), hands with fingers left, the roller,
    the last race's order with times in ms after the roll, offered hands marked. ``names`` maps player ids to
    display names (ids otherwise)."""
    s = state
    n = len(s.players)
    img = _background(n).copy()
    d = ImageDraw.Draw(img)

    def name(p: str, limit: int = 14) -> str:
        return display_name(p, names, limit)

    # header
    _text(img, (W - 24, 35), T("Roll {n}", n=s.rolls), TEXT_PX["roll count"], True, YELLOW, INK, "rm")
    phase = fit(_phase_text(s, name), TEXT_PX["phase"], False, W - 24 - 130 - 262)
    _text(img, (262, 35), phase, TEXT_PX["phase"], False, WHITE, INK, "lm")

    # dice
    x = 40
    for k, face in enumerate(s.dice or ["", "", ""]):
        if face:
            value = s.values[k] if (s.values is not None and face == ONE_OR_TEN) else None
            paste_sprite(img, _die_sprite(face, value), x, DICE_Y)
            label = {ONE_OR_TEN: T("1 or 10"), TATAMOKATSU_FACE: T("Tatamokatsu")}.get(face, face)
        else:
            d.rounded_rectangle((x + 4, DICE_Y + 4, x + DIE - 4, DICE_Y + DIE - 4), radius=22, outline=LIGHT, width=4)
            label = ""
        _text(img, (x + DIE / 2, DICE_Y + DIE + 24), f"{DIE_NAMES[k]}  {said(label)}".strip(), TEXT_PX["die label"], True,
              anchor="mm")
        x += DIE + 30
    ty = 104
    for i, line in enumerate(_dice_note(s)):
        _text(img, (580, ty), line, TEXT_PX["dice note head" if i == 0 else "dice note"], i == 0, anchor="la")
        ty += 44 if i == 0 else 36

    # hands
    offered = marked_hands(s)
    for i, p in enumerate(s.players):
        x0, x1 = _card_x(i, n)
        colour, mark = player_style(i)
        cw = x1 - x0
        f = s.fingers[p]
        is_roller = p == s.roller and s.phase != "over"
        if is_roller or p in offered:
            d.rounded_rectangle((x0, CARDS_Y, x1, CARDS_Y + CARD_H), radius=12, outline=INK, width=5)
        shape(d, mark, x0 + 24, CARDS_Y + 26, 12, fill=colour)
        label = fit(name(p, 24), TEXT_PX["card name"], True, cw - 44 - 10)
        _text(img, (x0 + 44, CARDS_Y + 26), label, TEXT_PX["card name"], True)
        paste_sprite(img, _hand_sprite(f, i, cw - 8), x0 + 4, CARDS_Y + 48)
        _text(img, (x0 + 14, CARDS_Y + 168), f"{f}/{FINGERS}", TEXT_PX["fingers"], True)
        tag = ""
        if p in s.winners:
            tag = TAGS["samurai"]
        elif p in s.left:
            tag = TAGS["left"]
        elif is_roller:
            tag = TAGS["roller"]
        elif f == 0:
            tag = TAGS["out"]
        if tag:
            size = tag_size(tag, cw - 14 - width(f"{f}/{FINGERS}", TEXT_PX["fingers"], True) - 16)
            tw = width(tag, size, True) + 14
            badge = INK if tag != "OUT" else MUTED
            d.rounded_rectangle((x1 - tw - 8, CARDS_Y + 150, x1 - 8, CARDS_Y + 184), radius=8, fill=badge)
            _text(img, (x1 - 8 - tw / 2, CARDS_Y + 167), tag, size, True, WHITE, badge, "mm")

    # race
    _race(img, d, s, names)
    for key, cx, cy, r in offered.values():
        marker(img, cx, cy, key, r)
    return img


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of these boards, from seeded sample games and a victim choice (its markers' black and
    white)."""
    from games import TIMEOUT, Move, force
    from games.tatamokatsu import GAME

    samples: list[Image.Image] = []

    def keep(state: TatamokatsuState) -> Image.Image:
        samples.append(draw(state))
        return samples[-1]

    game_palette(GAME, keep, (2, 5))
    s = force(GAME.setup(["p0", "p1", "p2", "p3", "p4"], None, 1), "1/10", "3", "5")
    s = GAME.apply(s, Move(player=s.roller, option="roll", at_ms=0)).state
    s = GAME.apply(s, Move(player=None, option=TIMEOUT, at_ms=s.deadline_ms)).state
    s = GAME.apply(s, Move(player=s.roller, option="fix:10", at_ms=s.now_ms + 1)).state
    samples.append(draw(s))
    return make_palette(samples)


def shows_whole(state: TatamokatsuState) -> bool:
    """Always: every Tatamokatsu decision is shown on the whole board (module docstring)."""
    return True


def render(state: TatamokatsuState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette, W x H px) of the board of ``state``; ``names`` maps player ids to display names.
    ``full`` is accepted for the common contract: the whole board is also the decision's view (module docstring)."""
    return encode_png(draw(state, names), palette())


def rolloff_line(s: TatamokatsuState, name, room: float) -> str:
    """The roll-off rounds of the last race (TK-4: ties roll 1-6, ties reroll) on one line of at most ``room`` px:
    "Roll-off: alice 5, bob 5, carol 2 · then alice 6, bob 1"; names shortened as far as needed."""
    for limit in (12, 9, 7, 5, 3):
        rounds = [Text.join(COMMA, [f"{name(p, limit)} {v}" for p, v in r.items()]) for r in s.rolloffs]
        line = T("Roll-off: {rounds}", rounds=Text.join(THEN, rounds))
        if width(line, TEXT_PX["rolloff"]) <= room:
            return line
    return fit(line, TEXT_PX["rolloff"], False, room)


class RaceRow(NamedTuple):
    """One drawn line of the race list, px: the time right-aligned at ``time_x``, the seat's shape at ``shape_x``,
    ``words`` (name and input) from ``words_x``, then ``tag`` (FIRST, mistake: -1, …) from ``tag_x`` to
    ``tag_end`` (``tag_x == tag_end`` when there is no tag), all centred on ``y``; ``col_end`` is the column's
    right edge."""

    y: float
    time_x: float
    time: str
    seat: int
    shape_x: float
    words_x: float
    words: str
    words_end: float
    tag: str
    tag_x: float
    tag_end: float
    col_end: float


class RaceLayout(NamedTuple):
    """The race panel: ``title``; ``rolloff`` (the roll-off line, "" without one) at ``rolloff_y``; ``rows``;
    ``more`` ("+N more" or "") at ``more_xy``; ``empty`` (what to say when nobody reacted, or "")."""

    title: str
    rolloff: str
    rolloff_y: float
    rows: list[RaceRow]
    more: str
    more_xy: tuple[float, float]
    empty: str


def race_layout(s: TatamokatsuState, names: dict[str, str] | None = None) -> RaceLayout:
    """Where every text of the race panel goes (pure; :func:`draw` paints it). The last (or open) race: inputs in
    time order, ms after the roll, with their result (TK-4..TK-8); the roll-offs that broke its ties (TK-4) on
    their own line under the title; one column while the rows fit, else two and "+N more"."""

    def name(p: str, limit: int = 14) -> str:
        return display_name(p, names, limit)

    seat = {p: i for i, p in enumerate(s.players)}
    if s.phase == "race":
        title = T("This race so far (in time order)")
        rows = sorted(
            ((t - s.roll_ms, seat[p], inp, p, "") for p, dd in s.inputs.items() for inp, t in dd.items()),
        )
    else:
        title = T("Last race (ms after the roll)")
        rows = [(e.ms, seat[e.player], e.input, e.player, e.note) for e in s.last_race]
        if s.phase == "salute":  # the salutes of the open salute window, live
            title = T("Race and salutes so far (ms after the roll)")
            rows += sorted(
                (t - s.roll_ms, seat[p], "salute", p, "")
                for p, dd in s.inputs.items()
                if (t := dd.get("salute")) is not None and t >= s.window_open_ms
            )
        rows += [(None, seat[m.player], m.input, m.player, "missed") for m in s.missed]
    top, rolloff, rolloff_y = RACE_Y + 64, "", RACE_Y + 58
    if s.rolloffs:
        rolloff = rolloff_line(s, name, W - 72)
        top = RACE_Y + 98
    if not rows:
        empty = T("No input yet.") if s.phase == "race" else T("Nobody reacted.")
        return RaceLayout(title, rolloff, rolloff_y, [], "", (0, 0), empty)
    per_col = (H - 36 - top) // RACE_PITCH + 1  # rows whose centre stays above the panel's bottom edge
    cols = 1 if len(rows) <= per_col else RACE_COLS
    col_w = (W - 60) // cols
    shown = rows[: per_col * cols]
    if len(rows) > len(shown):
        shown = rows[: per_col * cols - 1]  # the last slot says how many more
    out = []
    for k, (ms, i, inp, p, note) in enumerate(shown):
        cx = 30 + (k // per_col) * col_w
        cy = top + (k % per_col) * RACE_PITCH
        tag = NOTE_TEXT.get(note, note)
        tag_w = width(tag, TEXT_PX["race tag"], True) if tag else 0
        word = " " + said(INPUT_NAMES[inp])
        col_end = cx + col_w - 16
        room = col_end - (tag_w + 14 if tag else 0) - (cx + 130) - width(word, TEXT_PX["race row"])
        words = fit(name(p, 24), TEXT_PX["race row"], False, room) + word
        words_end = cx + 130 + width(words, TEXT_PX["race row"])
        tag_x = words_end + 14 if tag else words_end
        out.append(RaceRow(cy, cx + 96, T("never") if ms is None else f"+{ms}", i, cx + 114, cx + 130, words, words_end,
                           tag, tag_x, tag_x + tag_w, col_end))
    more, more_xy = "", (0.0, 0.0)
    if len(rows) > len(shown):
        k = len(shown)
        more, more_xy = T("+{n} more", n=len(rows) - len(shown)), (30 + (k // per_col) * col_w + 130, top + (k % per_col) * RACE_PITCH)
    return RaceLayout(title, rolloff, rolloff_y, out, more, more_xy, "")


def _race(img: Image.Image, d: ImageDraw.ImageDraw, s: TatamokatsuState, names: dict[str, str] | None) -> None:
    """Paint :func:`race_layout`."""
    lay = race_layout(s, names)
    _text(img, (36, RACE_Y + 24), lay.title, TEXT_PX["race title"], True)
    if lay.rolloff:
        _text(img, (36, lay.rolloff_y), lay.rolloff, TEXT_PX["rolloff"])
    if lay.empty:
        _text(img, (36, RACE_Y + 68 if not lay.rolloff else RACE_Y + 102), lay.empty, TEXT_PX["race row"], fill=MUTED)
    for row in lay.rows:
        colour, mark = player_style(row.seat)
        _text(img, (row.time_x, row.y), row.time, TEXT_PX["race row"], True,
              fill=MUTED if row.time == "never" else INK, anchor="rm")
        shape(d, mark, row.shape_x, row.y, 10, fill=colour, width=1)
        _text(img, (row.words_x, row.y), row.words, TEXT_PX["race row"])
        if row.tag:  # right after the row's words, never under them
            fill = BLUE if row.tag == NOTE_TEXT["first"] else VERMILION
            _text(img, (row.tag_x, row.y), row.tag, TEXT_PX["race tag"], True, fill)
    if lay.more:
        _text(img, lay.more_xy, lay.more, TEXT_PX["race more"], fill=MUTED)


def caption(state: TatamokatsuState, names: dict[str, str] | None = None) -> str:
    """A one-line text version of the picture's header (for alt text)."""
    return format_text(_phase_text(state, lambda p: display_name(p, names)), names or {})
