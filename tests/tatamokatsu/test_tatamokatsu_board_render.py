"""The Tatamokatsu board on a phone: numbered markers on the hands a roller may pick, every number and
name 9 px tall at 400 px wide, long names kept inside their card and before their race tag, roll-offs clear of the
race title, and no colour-only signs."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from tatamokatsu_helpers import T0, apply, close, decision, inp, new, roll

from games import marker_keys
from renderers.common import (
    BLUE,
    INK,
    PAPER,
    VERMILION,
    contrast_ratio,
    min_text_px,
    player_style,
    simulate,
    simulate_image,
)
from renderers.common import VISIONS as COMMON_VISIONS
from renderers.tatamokatsu import (
    FOLDED,
    MARKER_R,
    PANEL,
    RACE_Y,
    TEXT_PX,
    H,
    W,
    _die,
    _hand,
    draw,
    fit,
    hand_boxes,
    marker_positions,
    race_layout,
    render,
)

PHONE_PX = 400
"""Discord shows an image about 400 px wide on a phone."""
P5 = ["alice", "bob", "carol", "dave", "eve"]
LONG = {p: p.upper() + "W" * 30 for p in P5}
"""Display names far too long for any card or race row."""

VISIONS = list(COMMON_VISIONS)


def seen_as(img: Image.Image, vision: str) -> Image.Image:
    """``img`` as seen in greyscale or with a dichromacy (``renderers.common.simulate_image``, Machado 2009)."""
    return simulate_image(img, vision)


def seen_colour(rgb, vision: str):
    """One colour as seen with ``vision`` (``renderers.common.simulate``)."""
    return simulate(rgb, vision)


def contrast(a, b) -> float:
    """WCAG contrast ratio (``renderers.common.contrast_ratio``)."""
    return contrast_ratio(a, b)


def victim_choice(players=None):
    """TK-E: 1/10, 3, 5; nobody shouts; alice counts the 1/10 as 10 (sum 18) and picks a victim (TK-6)."""
    s, _ = roll(new(players=players), "1/10", "3", "5")
    s, _ = close(s)
    s, _ = apply(s, "alice", "fix:10", T0 + 9000)
    return s


def three_way_rolloff():
    """bob, carol and eve shout in the same ms (TK-4: a roll-off among the three), alice's Katana is a mistake."""
    s, _ = roll(new(players=P5), "1/10", "1/10", "6")
    for p in ("bob", "carol", "eve"):
        s = inp(s, p, "shout", 1200)
    s = inp(s, "alice", "katana", 500)
    return close(s)[0]


# -- item 1: numbered markers ---------------------------------------------------------------------------------


def test_TK_6_victim_choice_marks_every_offered_hand():
    s = victim_choice()
    d = decision(s, "victim")
    assert [o.locus for o in d.options] == ["hand:bob", "hand:carol", "hand:dave"]
    assert marker_keys(d.options) == {"victim:bob": "1", "victim:carol": "2", "victim:dave": "3"}
    pos = marker_positions(s)
    img = draw(s)
    boxes = hand_boxes(len(s.players))
    for key, p in (("1", "bob"), ("2", "carol"), ("3", "dave")):
        cx, cy, r = pos[key]
        x0, y0, x1, y1 = boxes[s.players.index(p)]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1  # on that player's card
        assert img.getpixel((round(cx), round(cy - r + 1))) == (0, 0, 0)  # the marker's black ring
        assert img.getpixel((round(cx - r * 0.7), round(cy))) == (255, 255, 255)  # its white disc
    assert len(pos) == 3


def test_roll_race_and_fix_decisions_draw_no_marker():
    s = new()
    assert marker_positions(s) == {}
    r, _ = roll(s, "1/10", "3", "5")
    assert marker_positions(r) == {}
    f, _ = close(r)
    assert decision(f, "fix") and marker_positions(f) == {}


# -- item 2: readable at 400 px wide ---------------------------------------------------------------------------


def test_every_number_name_and_key_is_at_least_9px_at_phone_width():
    """Every text is 9 px tall on a phone: size_px * 400 / image width >= 9 for every number, name and marker key (the card tags are
    words under a hand that shows the same thing, documented at 8 px)."""
    sizes = {k: v for k, v in TEXT_PX.items() if k != "card tag"}
    assert min(sizes.values()) >= min_text_px(W)
    assert TEXT_PX["card tag"] * PHONE_PX / W >= 8
    assert MARKER_R * 1.3 * PHONE_PX / W >= 9  # common.marker draws the key 1.3 * r px tall
    for s in (victim_choice(), three_way_rolloff()):
        for full in (False, True):
            assert Image.open(io.BytesIO(render(s, full=full))).size == (W, H)


def test_dice_pips_and_fingers_are_big_enough_at_phone_width():
    """A pip and a raised finger are at least 9 px across on a phone, with five players."""
    die = _die("5", None).convert("RGB")
    c = die.width // 2
    pip = [x for x in range(die.width) if die.getpixel((x, c)) == INK and abs(x - c) < 20]
    assert len(pip) * PHONE_PX / W >= 9
    x0, _, x1, _ = hand_boxes(5)[0]
    widths = _finger_columns(_hand(5, 0, x1 - x0 - 8))
    assert len(widths) == 5 and min(w for w, _ in widths) * PHONE_PX / W >= 9


def _finger_columns(hand: Image.Image) -> list[tuple[int, int]]:
    """(width, top y) of each finger of a hand sprite, from its alpha channel, scanning a row above the palm."""
    alpha = hand.getchannel("A")
    y = hand.height - 34 - 4  # just above the palm
    runs, start = [], None
    for x in range(hand.width):
        on = alpha.getpixel((x, y)) > 0
        if on and start is None:
            start = x
        if not on and start is not None:
            runs.append((start, x))
            start = None
    out = []
    for a, b in runs:
        mid = (a + b) // 2
        top = next(yy for yy in range(hand.height) if alpha.getpixel((mid, yy)) > 0)
        out.append((b - a, top))
    return out


# -- item 5: names and the race panel ---------------------------------------------------------------------------


def test_long_names_stay_inside_their_card():
    """Long names stay inside their card (names of 11+ characters ran into the next card). With 30-character names, the gap between cards
    stays paper and the strip inside each card's right edge stays the card's colour."""
    s = new(players=P5)
    img = draw(s, LONG)
    boxes = hand_boxes(5)
    for (_, y0, x1, _), (nx0, *_) in zip(boxes, boxes[1:], strict=False):
        gap = img.crop((x1 + 2, y0 + 12, nx0 - 1, y0 + 40))
        assert {c for _, c in gap.getcolors(1 << 16)} == {PAPER}
    for i, (_, y0, x1, _) in enumerate(boxes):
        if s.players[i] == s.roller:
            continue  # the roller's card is framed
        strip = img.crop((x1 - 9, y0 + 12, x1 - 5, y0 + 40))
        assert {c for _, c in strip.getcolors(1 << 16)} == {PANEL}, i


def test_race_rows_keep_names_before_their_tag_and_inside_their_column():
    """Long names stop before their race tag (a long name ran over the FIRST tag). Every row's words end before its tag, the tag inside the
    column, with 30-character names and a mistake and a FIRST in the race (TK-4, TK-8)."""
    lay = race_layout(three_way_rolloff(), LONG)
    tags = {row.tag for row in lay.rows}
    assert {"FIRST", "mistake: -1"} <= tags
    for row in lay.rows:
        assert row.words_end <= row.col_end
        if row.tag:
            assert row.words_end + 12 <= row.tag_x < row.tag_end <= row.col_end
    assert len({row.y for row in lay.rows}) == len(lay.rows)


def test_TK_4_three_way_rolloff_has_its_own_line_under_the_title():
    """A roll-off line stays clear of the race title (a 3-way roll-off overlapped it). The roll-off line sits under the title, the rows
    under it, and it fits the panel's width even with long names."""
    s = three_way_rolloff()
    assert len(s.rolloffs[0]) == 3
    lay = race_layout(s, LONG)
    title_y = RACE_Y + 24
    assert lay.rolloff.startswith("Roll-off: ")
    assert lay.rolloff_y - title_y >= TEXT_PX["race title"] + 4
    assert min(row.y for row in lay.rows) - lay.rolloff_y >= TEXT_PX["rolloff"] + 4
    from renderers.common import font

    assert 36 + font(TEXT_PX["rolloff"]).getlength(lay.rolloff) <= W - 36
    assert race_layout(victim_choice()).rolloff == ""


def test_fit_shortens_with_an_ellipsis():
    from renderers.common import font

    assert fit("Carol", 24, True, 400) == "Carol"
    short = fit("W" * 30, 24, True, 120)
    assert short.endswith("…") and font(24, bold=True).getlength(short) <= 120


# -- item 4: no colour-only signs ------------------------------------------------------------------------------


@pytest.mark.parametrize("vision", VISIONS)
def test_marks_survive_greyscale_and_colour_blindness(vision):
    """Victim markers (black on white) stand out from the card; the FIRST and mistake tags (different words) stay
    readable on the panel (3:1, large bold text); raised and folded fingers differ by height, not colour; the
    chosen count of a 1/10 die is ringed in white."""
    s = victim_choice()
    img = seen_as(draw(s), vision)
    cx, cy, r = marker_positions(s)["1"]
    ring, disc = img.getpixel((round(cx), round(cy - r + 1))), img.getpixel((round(cx - r * 0.7), round(cy)))
    card = seen_colour(PANEL, vision)
    assert contrast(ring, disc) >= 7 and contrast(ring, card) >= 7
    for tag_colour in (BLUE, VERMILION):
        assert contrast(seen_colour(tag_colour, vision), card) >= 3
    for seat in range(5):
        fingers = _finger_columns(_hand(2, seat, 180))
        raised, folded = [top for _, top in fingers[:2]], [top for _, top in fingers[2:]]
        assert max(raised) + 20 <= min(folded)  # shape, whatever the seat's colour
        assert player_style(seat)[0] != FOLDED
    chosen = seen_as(_die("1/10", 10).convert("RGB"), vision)
    plain = seen_as(_die("1/10", None).convert("RGB"), vision)
    ring_px = (150 - 48 - 30, 150 - 46)  # inside the white ring drawn round the chosen "10"
    assert contrast(chosen.getpixel(ring_px), plain.getpixel(ring_px)) >= 1.5


def test_card_tags_never_cover_the_finger_count():
    """With five players the SAMURAI badge ran over "2/5": every tag's badge starts right of the count."""
    from renderers.tatamokatsu import tag_size, width

    x0, _, x1, _ = hand_boxes(5)[0]
    for tag in ("SAMURAI", "ROLLER", "LEFT", "OUT"):
        for f in range(6):
            count_end = x0 + 14 + width(f"{f}/5", TEXT_PX["fingers"], True)
            room = (x1 - x0) - 14 - width(f"{f}/5", TEXT_PX["fingers"], True) - 16
            size = tag_size(tag, room)
            assert x1 - 8 - (width(tag, size, True) + 14) >= count_end + 8, (tag, f, size)
            assert size >= 14


def test_markers_keep_their_black_and_white_in_the_palette_png():
    """The 8-bit PNG maps every pixel to the renderer's palette: the marker's ring stays black and its disc white
    (Pillow's palette lookup may land a few units off)."""
    s = victim_choice()
    img = Image.open(io.BytesIO(render(s))).convert("RGB")
    for cx, cy, r in marker_positions(s).values():
        assert max(img.getpixel((round(cx), round(cy - r + 1)))) <= 4
        assert min(img.getpixel((round(cx - r * 0.7), round(cy)))) >= 250


def test_names_are_written_through_the_shared_text_machinery(monkeypatch):
    """Display names in any script: they go through ``renderers.common.text``, where the per-glyph fallback for
    Japanese, Chinese, Korean and emoji lives (the sprite cache is bypassed so every text is written afresh)."""
    import renderers.tatamokatsu as board

    written: list[str] = []
    real = board.text

    def spy(img, xy, words, *args, **kwargs):
        written.append(words)
        return real(img, xy, words, *args, **kwargs)

    monkeypatch.setattr(board, "text", spy)
    monkeypatch.setattr(board, "_sprite", board._sprite.__wrapped__)
    names = {"alice": "侍", "bob": "Боб 🎲", "carol": "캐럴", "dave": "Δάφνη"}
    draw(victim_choice(), names)
    for name in names.values():
        assert any(name in w for w in written), name
