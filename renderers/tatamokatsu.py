"""Tatamokatsu board image: the three dice, every hand, the roller and the last race with its times.

``render(state, names=None) -> bytes`` (PNG, 1000 px wide). The 1/10 face (two numbers split by a diagonal, the
chosen one ringed) and the Tatamokatsu face (a dark die with a star and a big T) are drawn unlike the plain 1-6 pip
faces, and each is labelled, so colour never carries meaning alone. Static parts (background, die faces, hands) are
cached and pasted.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import format_text
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
    centred_text,
    display_name,
    encode_png,
    font,
    game_palette,
    player_style,
    shape,
)

W, H = 1000, 780
DIE = 150
DICE_Y = 92
CARDS_Y = 318
CARD_H = 196
RACE_Y = 530
LIGHT = (226, 218, 204)
FOLDED = (196, 188, 176)
PANEL = (255, 251, 243)

INPUT_NAMES = {"shout": "shout", "grab": "grab", "katana": "Katana", "salute": "salute"}
NOTE_TEXT = {"first": "FIRST", "mistake": "mistake: -1", "last": "last: -1", "missed": "missed: -1"}

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


@lru_cache(maxsize=8)
def _background(n_players: int) -> Image.Image:
    """The static picture for ``n_players``: title, panels, empty hand cards."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 70), fill=INK)
    d.text((24, 35), "TATAMOKATSU", font=font(28, bold=True), fill=WHITE, anchor="lm")
    d.rounded_rectangle((16, 80, W - 16, 300), radius=14, fill=PANEL, outline=LIGHT, width=2)
    for i in range(n_players):
        x0, x1 = _card_x(i, n_players)
        d.rounded_rectangle((x0, CARDS_Y, x1, CARDS_Y + CARD_H), radius=12, fill=PANEL, outline=LIGHT, width=2)
    d.rounded_rectangle((16, RACE_Y, W - 16, H - 14), radius=14, fill=PANEL, outline=LIGHT, width=2)
    return img


@lru_cache(maxsize=1024)
def _sprite(text: str, size: int, bold: bool, fill: tuple, bg: tuple, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` drawn once on an opaque ``bg`` patch (all our texts sit on flat colours), with the offset of its
    top-left corner from the anchor point: pasting it is much cheaper than drawing the glyphs again."""
    fnt = font(size, bold=bold)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    left, top, right, bottom = probe.textbbox((0, 0), text, font=fnt, anchor=anchor)
    img = Image.new("RGB", (max(1, right - left), max(1, bottom - top)), bg)
    ImageDraw.Draw(img).text((-left, -top), text, font=fnt, fill=fill, anchor=anchor)
    return img, left, top


def _text(img: Image.Image, xy: tuple[float, float], text: str, size: int, bold: bool = False, fill=INK,
          bg=PANEL, anchor: str = "lm") -> None:
    """Paste ``text`` anchored at ``xy`` (Pillow anchors: "lm", "rm", "mm" …) from the sprite cache."""
    sprite, left, top = _sprite(text, size, bold, fill, bg, anchor)
    img.paste(sprite, (int(round(xy[0])) + left, int(round(xy[1])) + top))


def _card_x(i: int, n: int) -> tuple[int, int]:
    gap = 12
    width = (W - 32 - gap * (n - 1)) // n
    x0 = 16 + i * (width + gap)
    return x0, x0 + width


@lru_cache(maxsize=32)
def _die(face: str, value: int | None) -> Image.Image:
    """One die face, ``DIE`` px square; ``value`` is the chosen count of a 1/10 face (None: not chosen yet)."""
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


@lru_cache(maxsize=128)
def _hand(fingers: int, seat: int, width: int) -> Image.Image:
    """A hand with ``fingers`` raised (the rest folded, drawn as grey stubs), in the seat's colour."""
    colour, _ = player_style(seat)
    h = 104
    img = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fw = min(24, (width - 40) // 6)
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


def _phase_text(s: TatamokatsuState, name) -> str:
    roller = name(s.roller)
    if s.phase == "over":
        who = " and ".join(name(p) for p in s.winners)
        return f"{who} {'is the Samurai' if len(s.winners) == 1 else 'share the win'}!"
    return {
        "roll": f"{roller} rolls next",
        "race": "React now: shout, grab, Katana, salute!",
        "fix": f"{roller} counts the 1/10 dice",
        "salute": f"Sum {s.total}: salute (Hai!) now",
        "choice": f"{name(s.winner or '')} won: strike or recover",
        "victim": f"Sum {s.total}: {roller} picks a victim",
    }[s.phase]


def _dice_note(s: TatamokatsuState) -> list[str]:
    dice = s.dice
    if not dice:
        return ["No roll yet."]
    if s.phase == "race":  # no hints while the race is on: working the dice out is the game
        return ["Quick!", "Shout, grab, Katana", "or salute."]
    if shows_t(dice):
        return ["T shows: grab race!", "First grab wins", "(no sum effect)"]
    lines = []
    if s.values is not None:
        lines.append(f"Sum {sum(s.values)}")
    else:
        sums = sorted({c.total for c in offered_choices(dice)})
        lines.append("Sum " + " or ".join(map(str, sums)) if sums else "Sum 10 or 17 only")
    if is_tatamokatsu(dice):
        lines.append("10 or 17 possible:")
        lines.append("Tatamokatsu!")
    if is_triple(dice):
        lines.append("Triples: Katana!")
    return lines


def draw(state: TatamokatsuState, names: dict[str, str] | None = None) -> Image.Image:
    """PNG bytes of ``state``: dice (A, B, C), hands with fingers left, the roller, the last race's order with
    times in ms after the roll. ``names`` maps player ids to display names (ids otherwise)."""
    s = state
    n = len(s.players)
    img = _background(n).copy()
    d = ImageDraw.Draw(img)

    def name(p: str, limit: int = 14) -> str:
        return display_name(p, names, limit)

    # header
    _text(img, (W - 24, 35), f"Roll {s.rolls}", 26, True, YELLOW, INK, "rm")
    _text(img, (262, 35), _phase_text(s, name), 24, False, WHITE, INK, "lm")

    # dice
    x = 40
    for k, face in enumerate(s.dice or ["", "", ""]):
        if face:
            value = s.values[k] if (s.values is not None and face == ONE_OR_TEN) else None
            die = _die(face, value)
            img.paste(die, (x, DICE_Y), die)
            label = {ONE_OR_TEN: "1 or 10", TATAMOKATSU_FACE: "Tatamokatsu"}.get(face, face)
        else:
            d.rounded_rectangle((x + 4, DICE_Y + 4, x + DIE - 4, DICE_Y + DIE - 4), radius=22, outline=LIGHT, width=4)
            label = ""
        _text(img, (x + DIE / 2, DICE_Y + DIE + 24), f"{DIE_NAMES[k]}  {label}".strip(), 22, True, anchor="mm")
        x += DIE + 30
    ty = 104
    for i, line in enumerate(_dice_note(s)):
        _text(img, (580, ty), line, 30 if i == 0 else 26, i == 0, anchor="la")
        ty += 44 if i == 0 else 36

    # hands
    for i, p in enumerate(s.players):
        x0, x1 = _card_x(i, n)
        colour, mark = player_style(i)
        cw = x1 - x0
        f = s.fingers[p]
        is_roller = p == s.roller and s.phase != "over"
        if is_roller:
            d.rounded_rectangle((x0, CARDS_Y, x1, CARDS_Y + CARD_H), radius=12, outline=INK, width=5)
        shape(d, mark, x0 + 24, CARDS_Y + 26, 12, fill=colour)
        _text(img, (x0 + 44, CARDS_Y + 26), name(p, 11 if n >= 5 else 14), 22, True)
        hand = _hand(f, i, cw - 8)
        img.paste(hand, (x0 + 4, CARDS_Y + 48), hand)
        _text(img, (x0 + 14, CARDS_Y + 168), f"{f}/{FINGERS}", 26, True)
        tag = ""
        if p in s.winners:
            tag = "SAMURAI"
        elif p in s.left:
            tag = "LEFT"
        elif is_roller:
            tag = "ROLLER"
        elif f == 0:
            tag = "OUT"
        if tag:
            tw = d.textlength(tag, font=font(16, bold=True)) + 14
            d.rounded_rectangle((x1 - tw - 8, CARDS_Y + 150, x1 - 8, CARDS_Y + 184), radius=8,
                                fill=INK if tag != "OUT" else MUTED)
            badge = INK if tag != "OUT" else MUTED
            _text(img, (x1 - 8 - tw / 2, CARDS_Y + 167), tag, 16, True, WHITE, badge, "mm")

    # race
    _race(img, d, s, name)
    return img


@lru_cache(maxsize=1)
def palette():
    """The 256-colour palette of these boards, from seeded sample games."""
    from games.tatamokatsu import GAME

    return game_palette(GAME, draw, (2, 5))


def render(state: TatamokatsuState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of the board of ``state``; ``names`` maps player ids to display names."""
    return encode_png(draw(state, names), palette())


def _race(img: Image.Image, d: ImageDraw.ImageDraw, s: TatamokatsuState, name) -> None:
    """The last (or open) race: inputs in time order, ms after the roll, with their result."""
    seat = {p: i for i, p in enumerate(s.players)}
    if s.phase == "race":
        title = "This race so far (in time order)"
        rows = sorted(
            ((t - s.roll_ms, seat[p], inp, p, "") for p, dd in s.inputs.items() for inp, t in dd.items()),
        )
    else:
        title = "Last race (ms after the roll)"
        rows = [(e.ms, seat[e.player], e.input, e.player, e.note) for e in s.last_race]
        if s.phase == "salute":  # the salutes of the open salute window, live
            title = "Race and salutes so far (ms after the roll)"
            rows += sorted(
                (t - s.roll_ms, seat[p], "salute", p, "")
                for p, dd in s.inputs.items()
                if (t := dd.get("salute")) is not None and t >= s.window_open_ms
            )
    _text(img, (36, RACE_Y + 22), title, 24, True)
    if s.rolloffs:
        ro = "  ".join(
            "roll-off " + ", ".join(f"{name(p, 8)} {v}" for p, v in r.items()) for r in s.rolloffs[:2]
        )
        _text(img, (W - 36, RACE_Y + 22), ro, 18, anchor="rm")
    if s.phase != "race":
        rows += [(None, seat[m.player], m.input, m.player, "missed") for m in s.missed]
    if not rows:
        _text(img, (36, RACE_Y + 66), "No input yet." if s.phase == "race" else "Nobody reacted.", 22, fill=MUTED)
        return
    per_col, cols = 6, 2
    col_w = (W - 60) // cols
    shown = rows[: per_col * cols]
    for k, (ms, i, inp, p, note) in enumerate(shown):
        cx = 30 + (k // per_col) * col_w
        cy = RACE_Y + 60 + (k % per_col) * 31
        colour, mark = player_style(i)
        _text(img, (cx + 92, cy), "never" if ms is None else f"+{ms}", 20, True, fill=MUTED if ms is None else INK,
              anchor="rm")
        shape(d, mark, cx + 108, cy, 9, fill=colour, width=1)
        text = f"{name(p, 12)} {INPUT_NAMES[inp]}"
        _text(img, (cx + 122, cy), text, 20)
        if note:
            tag = NOTE_TEXT.get(note, note)
            fill = BLUE if note == "first" else VERMILION
            _text(img, (cx + col_w - 24, cy), tag, 18, True, fill, anchor="rm")
    if len(rows) > len(shown):
        _text(img, (W - 36, H - 30), f"+{len(rows) - len(shown)} more", 18, fill=MUTED, anchor="rm")


def caption(state: TatamokatsuState, names: dict[str, str] | None = None) -> str:
    """A one-line text version of the picture's header (for alt text)."""
    return format_text(_phase_text(state, lambda p: display_name(p, names)), names or {})
