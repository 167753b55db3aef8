"""The Tatari board on a phone: numbered markers on offered places, every number 9 px tall at 400 px wide,
the busting roll shown, a decision line instead of a stop hint where Stop is impossible, the final ranking, words
rather than a bold 0 or a star for resigned players and winners, and no colour-only signs."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from test_tatari_cases import act, begin, decision, position, rulebook_example_to_total_8

from games import marker_keys
from games.ai import next_move
from games.core import Rng
from games.tatari import GAME, TatariState
from renderers.common import (
    INK,
    PAPER,
    WHITE,
    contrast_ratio,
    min_text_px,
    player_style,
    simulate_image,
)
from renderers.common import VISIONS as COMMON_VISIONS
from renderers.tatari import (
    CROSSED,
    CURRENT_FILL,
    DICE_Y,
    DIE,
    GREY,
    MARKER_R,
    RED,
    ROLLED_X,
    SHRINE_Y,
    TEXT_PX,
    H,
    W,
    _shrine_xs,
    decision_line,
    die_sprite,
    draw,
    marker_positions,
    ranking_lines,
    render,
    row_suffix,
    stash_rows,
)

PHONE_PX = 400
"""Discord shows an image about 400 px wide on a phone."""

def seen_as(img: Image.Image, vision: str) -> Image.Image:
    """``img`` as seen in greyscale or with a dichromacy (``renderers.common.simulate_image``, Machado 2009)."""
    return simulate_image(img, vision)


def contrast(a, b) -> float:
    """WCAG contrast ratio (``renderers.common.contrast_ratio``)."""
    return contrast_ratio(a, b)


def bust_tie() -> TatariState:
    """TA-A: the rulebook's bust; shrines 7 and 9 tie with 4 dolls each (TA-8: the player picks)."""
    return act(rulebook_example_to_total_8(), "continue").state


def gift() -> TatariState:
    """TA-A's stop at 8 with a 1 set aside (TA-7): alice gives a doll to bob or carol."""
    return act(rulebook_example_to_total_8(), "stop").state


def finished(seed: int = 5) -> TatariState:
    """A random-legal five-player game played to its end, carol resigned at the start."""
    s = GAME.resign(GAME.setup(["alice", "bob", "carol", "dave", "eve"], None, seed), "carol").state
    rng = random.Random(2)
    while (m := next_move(GAME, s, {}, rng)) is not None:
        s = GAME.apply(s, m).state
    return s


# -- item 1: numbered markers ---------------------------------------------------------------------------------


def test_TA_8_bust_tie_marks_each_tied_shrine_with_its_key():
    s = bust_tie()
    d = decision(s)
    assert d.kind == "bust" and [o.locus for o in d.options] == ["shrine:7", "shrine:9"]
    assert marker_keys(d.options) == {"shrine:7": "1", "shrine:9": "2"}
    pos = marker_positions(s)
    assert set(pos) == {"1", "2"}
    img = draw(s)
    for key, shrine_index in (("1", 0), ("2", 2)):
        cx, cy, r = pos[key]
        x = _shrine_xs()[shrine_index]
        assert x <= cx - r and cx + r <= x + 170 and SHRINE_Y <= cy - r and cy + r <= SHRINE_Y + 200  # on its shrine
        assert img.getpixel((round(cx), round(cy - r + 1))) == (0, 0, 0)  # the marker's black ring is drawn there
        assert img.getpixel((round(cx - r * 0.7), round(cy))) == WHITE  # and its white disc


def test_TA_7_gift_marks_each_recipients_stash_row():
    s = gift()
    d = decision(s)
    assert d.kind == "give" and [o.locus for o in d.options] == ["stash:bob", "stash:carol"]
    pos = marker_positions(s)
    top, row_h = stash_rows(3)
    img = draw(s)
    for key, seat in (("1", 1), ("2", 2)):
        cx, cy, r = pos[key]
        assert top + seat * row_h <= cy - r and cy + r <= top + (seat + 1) * row_h  # inside that player's row
        assert 0 <= cx - r and cx + r <= W
        assert img.getpixel((round(cx), round(cy - r + 1))) == (0, 0, 0)


def test_select_and_fate_are_not_place_decisions_and_draw_no_marker():
    s = rulebook_example_to_total_8()
    assert decision(s).kind == "fate" and marker_positions(s) == {}
    s = begin(position(), ["4", "1", "2", "doll", "3", "double"])
    assert decision(s).kind == "select" and marker_positions(s) == {}


# -- item 2: readable at 400 px wide ---------------------------------------------------------------------------


def test_every_text_and_marker_key_is_at_least_9px_at_phone_width():
    """Every text is 9 px tall on a phone: size_px * 400 / image width >= 9 for every number, name and key drawn."""
    assert min(TEXT_PX.values()) >= min_text_px(W)
    assert min(MARKER_R.values()) * 1.3 * PHONE_PX / W >= 9  # common.marker draws the key 1.3 * r px tall
    for s in (bust_tie(), gift(), finished()):
        for full in (False, True):
            img = Image.open(io.BytesIO(render(s, full=full)))
            assert img.size == (W, H)


def test_grey_labels_reach_4_5_to_1():
    assert contrast(GREY, PAPER) >= 4.5 and contrast(GREY, CURRENT_FILL) >= 4.5


# -- item 5: what the board says -------------------------------------------------------------------------------


def test_TA_3_bust_keeps_the_busting_roll_on_the_board():
    """TA-A throw 5: the last die shows a double-doll, already set aside: that roll stays in ``rolled`` during the
    bust decision and is drawn crossed out in the box (not "empty")."""
    s = bust_tie()
    assert s.phase == "bust" and s.rolled == ["double"] and len(s.set_aside) == 5
    img = draw(s)
    sprite = die_sprite("double", crossed=True).convert("RGB")
    box = img.crop((ROLLED_X, DICE_Y + 12, ROLLED_X + DIE + 1, DICE_Y + 13 + DIE))
    mask = die_sprite("double", crossed=True).getchannel("A")
    assert Image.composite(box, sprite, mask).tobytes() == sprite.tobytes()


def test_TA_3_next_turn_clears_the_busting_roll():
    s = act(bust_tie(), "shrine:7").state
    assert s.current == "bob" and len(s.rolled) == 6 and s.set_aside == []


def test_decision_line_names_the_decision_and_offers_stop_only_when_allowed():
    """TA-4: Stop only from 7, at the fate step; TA-8 a bust on a tie; TA-7 a gift due."""
    select = begin(position(), ["4", "1", "2", "doll", "3", "double"])
    assert decision_line(select) == "Set aside one face"
    assert decision_line(rulebook_example_to_total_8()) == "Stop allowed (7+): continue or stop?"
    assert decision_line(bust_tie()) == "BUST: take a fullest shrine (tie)"
    assert decision_line(gift()) == "A 1 is set aside: give a doll"
    assert decision_line(finished()) == ""
    for s in (select, bust_tie(), gift()):
        assert "stop" not in decision_line(s).lower()


def test_TA_10_game_over_shows_the_final_ranking_not_the_dice():
    s = TatariState(
        players=["alice", "bob", "carol", "dave"], rng=Rng(seed=1),
        stashes={"alice": 3, "bob": 0, "carol": 0, "dave": 3}, shrines={"7": 5, "8": 5, "9": 5, "10": 5},
        box=8, current="bob", phase="over", winner="bob", out=["carol"],
    )
    assert ranking_lines(s, {"bob": "Bob"}) == [
        ("1.  Bob (winner)", True),
        ("2.  alice: 3 dolls left", False),
        ("2.  dave: 3 dolls left", False),
        ("–  carol: resigned", False),
    ]
    assert ranking_lines(bust_tie()) == []


def test_TA_10_game_over_draws_no_dice_band(monkeypatch):
    """The game-over board draws the ranking where the dice were: no "Total 0", no "nothing yet"."""
    import renderers.tatari as board

    def dice(*args):
        raise AssertionError("the dice band was drawn on a finished game")

    monkeypatch.setattr(board, "_dice", dice)
    draw(finished())
    with pytest.raises(AssertionError):
        draw(bust_tie())


def test_a_resigned_player_shows_no_count_and_a_winner_no_star():
    """A resigner's dolls went to the Shrine box (our ruling): their row says "out", with no bold 0 that would read
    as a winning stash; the winner's row says "(winner)" in words, since the star is the fifth seat's shape."""
    s = finished()
    assert s.phase == "over" and "carol" in s.out and s.winner
    img = draw(s)
    top, row_h = stash_rows(5)
    seat = s.players.index("carol")
    y0 = top + seat * row_h
    count_area = img.crop((W - 80, y0 + 2, W - 30, y0 + row_h - 10))
    assert INK not in {c for _, c in count_area.getcolors(1 << 16)}  # no count drawn
    assert row_suffix(s, s.winner) == " (winner)" and row_suffix(s, "carol") == " (resigned)"
    assert player_style(4)[1] == "star" and "★" not in row_suffix(s, s.winner)


# -- item 4: no colour-only signs ------------------------------------------------------------------------------


@pytest.mark.parametrize("vision", COMMON_VISIONS)
def test_marks_survive_greyscale_and_colour_blindness(vision):
    """Markers (black on white) stand out from the shrine they sit on, dolls from the paper, crossed-out dice from
    plain ones (a diagonal line), a resigned row's grey from the paper, in greyscale and every simulation."""
    s = bust_tie()
    img = seen_as(draw(s), vision)
    cx, cy, r = marker_positions(s)["1"]
    ring = img.getpixel((round(cx), round(cy - r + 1)))
    disc = img.getpixel((round(cx - r * 0.7), round(cy)))
    shrine = img.getpixel((_shrine_xs()[0] + 100, SHRINE_Y + 140))
    assert contrast(ring, disc) >= 7 and contrast(ring, shrine) >= 7
    swatch = Image.new("RGB", (4, 1))
    for k, c in enumerate((RED, PAPER, GREY, CROSSED)):
        swatch.putpixel((k, 0), c)
    red, paper, grey, crossed = (seen_as(swatch, vision).getpixel((k, 0)) for k in range(4))
    assert contrast(red, paper) >= 4.5 and contrast(grey, paper) >= 4.5
    plain, cross = (seen_as(die_sprite("3", c).convert("RGB"), vision) for c in (False, True))
    diagonal = [(k, k) for k in range(8, DIE - 8, 6)]
    assert all(contrast(cross.getpixel(p), crossed) >= 7 for p in diagonal)  # the cross line, not a tint
    assert sum(plain.getpixel(p) != cross.getpixel(p) for p in diagonal) >= len(diagonal) - 2


def test_markers_keep_their_black_and_white_in_the_palette_png():
    """The 8-bit PNG maps every pixel to the renderer's palette: the marker's ring stays black and its disc white
    (Pillow's palette lookup may land a few units off)."""
    for s in (bust_tie(), gift()):
        img = Image.open(io.BytesIO(render(s))).convert("RGB")
        for cx, cy, r in marker_positions(s).values():
            assert max(img.getpixel((round(cx), round(cy - r + 1)))) <= 4
            assert min(img.getpixel((round(cx - r * 0.7), round(cy)))) >= 250


def test_names_are_written_through_the_shared_text_machinery(monkeypatch):
    """Display names in any script: they go through ``renderers.common.text``, where the per-glyph fallback for
    Japanese, Chinese, Korean and emoji lives."""
    import renderers.tatari as board

    written: list[str] = []
    real = board.text

    def spy(img, xy, words, *args, **kwargs):
        written.append(words)
        return real(img, xy, words, *args, **kwargs)

    monkeypatch.setattr(board, "text", spy)
    names = {"alice": "祟り人形", "bob": "Боб 🎎", "carol": "캐럴"}
    draw(bust_tie(), names)
    assert any("祟り人形" in w for w in written)  # the title ("Turn 1: 祟り人形") and the stash row
    assert any(w.startswith("Боб 🎎") for w in written) and any(w.startswith("캐럴") for w in written)
