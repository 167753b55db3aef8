"""Tatsumi layout defects fixed: scale marks stay on their card with 4 and 5 players; the score
breakdown is whole and adds up; island marks keep to their slot inside their hex (Raikou bolts and blessing
supports no longer straddle borders nor hide Mizukame's droplets)."""

from __future__ import annotations

import io
import math

from PIL import Image

from games.tatsumi import GAME
from games.tatsumi.island import layout
from renderers.common import font
from renderers.tatsumi import render
from renderers.tatsumi.cards import CARD_H, CARD_RULE, CARD_W, SCALE_COUNT_PX, scale_slots
from renderers.tatsumi.island import DROP, DROP_STEP, SLOTS, breakdown_lines, hex_centre, island_image
from renderers.tatsumi.seaboard import card_xy


def test_scale_slots_fit_on_the_card_for_every_player_count():
    """Each player's shape (radius 6) and count (a player has 7 scales, rulebook setup: "×7" at most) fit between
    the card's edges, under its rule, for 1-5 players (the 4th player's "×3" once ran off the west card over a3)."""
    wide = max(font(SCALE_COUNT_PX, True).getlength(f"×{n}") for n in range(1, 8))
    for n in range(1, 6):
        slots = scale_slots(n)
        assert len(set(slots)) == n
        for x, y in slots:
            assert x - 6 >= 2 and x + 9 + wide <= CARD_W - 2, (n, x)
            assert CARD_RULE + 6 <= y - 6 and y + 8 <= CARD_H - 2, (n, y)


def test_four_players_scales_on_the_west_card_leave_the_board_beside_it_untouched():
    """On the full board, 4 players' scales on the west card change nothing right of the card."""
    s = GAME.setup(["p0", "p1", "p2", "p3"], None, 1)
    t = s.model_copy(deep=True)
    for p in t.seats:
        p.cards[3] = 3  # edge W
    x, y = card_xy("W")
    beside = (x + CARD_W, y, x + CARD_W + 40, y + CARD_H)
    card = (x, y, x + CARD_W, y + CARD_H)

    def crop(state, box):
        return Image.open(io.BytesIO(render(state, full=True))).convert("RGB").crop(box).tobytes()

    assert crop(s, beside) == crop(t, beside)
    assert crop(s, card) != crop(t, card)


def test_score_breakdown_is_whole_and_adds_up():
    """Every source of fortune is written whole (once cut at 44 characters) and the parts add up to the total."""
    s = GAME.setup(["p0", "p1"], None, 1)
    p = s.seats[0]
    p.scored = {"card": 31, "duck": 12, "heron": 9, "mastery": 44, "rift": 57, "swallows": 18, "blackbird": 3}
    p.fortune = sum(p.scored.values())
    lines = breakdown_lines(p)
    assert 1 <= len(lines) <= 2
    parts = [part for line in lines for part in line.split(" · ")]
    assert sorted(parts) == sorted(f"{k} {v}" for k, v in p.scored.items())
    assert sum(int(part.rsplit(" ", 1)[1]) for part in parts) == p.fortune
    for line in lines:
        assert font(11).getlength(line) <= 248, line  # the panel's text column


def test_island_marks_stay_inside_their_hex_and_apart():
    """Every slot (centre and radius, in hex radii) lies inside the hex's inscribed circle (0.866), and the
    support and bolt discs touch neither each other nor the droplets."""
    inscribed = math.sqrt(3) / 2
    for name in ("mark", "support", "bolt"):
        x, y, r = SLOTS[name]
        assert math.hypot(x, y) + r <= inscribed, name
    _, dy, dr = SLOTS["drops"]
    drops = [(k * DROP_STEP, dy + 0.8 * dr) for k in (-1, 0, 1)]  # the round body of each drop
    for x, y in drops:
        assert math.hypot(x, y) + 1.6 * dr <= inscribed
        for name in ("support", "bolt"):
            sx, sy, sr = SLOTS[name]
            assert math.hypot(sx - x, sy - y) > sr + dr, name
    sx, sy, sr = SLOTS["support"]
    bx, by, br = SLOTS["bolt"]
    assert math.hypot(sx - bx, sy - by) > sr + br


def test_mizukame_droplets_are_visible_on_every_marked_space():
    """Every Mizukame space with droplets shows each drop (its colour at the drop's body), blessing supports
    included, on the full board's islands and on the close-up."""
    lay = layout("mizukame")
    for r in (15, 30):
        img = island_image("mizukame", r)
        _, dy, dr = SLOTS["drops"]
        for i, m in enumerate(lay.marks):
            if m in "123":
                n = int(m)
                cx, cy = hex_centre("mizukame", r, i)
                for j in range(n):
                    x = cx + (j - (n - 1) / 2) * DROP_STEP * r
                    y = cy + dy * r + 0.8 * dr * r
                    assert img.getpixel((round(x), round(y))) == DROP, (r, lay.names[i], j)


def test_card_titles_never_run_into_the_kind():
    """Every summoning card's title ends before its kind ("score"/"lasting") starts ("Water Strider" once ran
    into "score")."""
    from games.tatsumi import data as D
    from renderers.tatsumi.cards import card_face

    for card, title in D.CARD_TITLES.items():
        kind = "lasting" if card in D.LASTING_CARDS else "score"
        img = card_face(card).convert("L")
        kind_left = CARD_W - 6 - font(10).getlength(kind)
        sizes = [z for z in (13, 12, 11, 10) if font(z, True).getlength(title) <= CARD_W - 18 - font(10).getlength(kind)]
        assert sizes, title
        assert 6 + font(sizes[0], True).getlength(title) + 4 <= kind_left, title
        assert img.getpixel((round(kind_left) - 3, 10)) > 200, title  # paper between title and kind
