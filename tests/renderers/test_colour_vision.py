"""No colour-only signs, shared machinery: colour-vision simulation, ΔE and WCAG contrast,
applied to the common palette (player colours with shapes, the offered-place marker)."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from renderers import common
from renderers.common import (
    BLACK,
    BLUE,
    INK,
    MUTED,
    ORANGE,
    PAPER,
    PLAYER_COLOURS,
    PLAYER_SHAPES,
    WHITE,
    colour_clashes,
    contrast_ratio,
    delta_e,
    simulate,
    simulate_image,
)

RED, LEAF = (200, 40, 40), (60, 160, 40)


def test_contrast_ratio_is_wcag():
    """WCAG 2: black on white 21:1, a colour on itself 1:1, symmetric; #767676 on white is the AA edge (4.54)."""
    assert contrast_ratio(BLACK, WHITE) == pytest.approx(21.0)
    assert contrast_ratio(BLUE, BLUE) == pytest.approx(1.0)
    assert contrast_ratio(WHITE, BLUE) == contrast_ratio(BLUE, WHITE)
    assert contrast_ratio((118, 118, 118), WHITE) == pytest.approx(4.54, abs=0.01)


def test_greys_look_the_same_to_every_vision():
    """Simulating a deficiency keeps white, black and greys (Machado 2009 rows sum to 1)."""
    for vision in common.VISIONS:
        for grey in (BLACK, WHITE, (128, 128, 128)):
            assert all(abs(a - b) <= 1 for a, b in zip(simulate(grey, vision), grey, strict=True)), vision
    with pytest.raises(ValueError, match="unknown vision"):
        simulate(RED, "achromatopsia")


def test_red_and_green_clash_for_red_green_deficiencies_but_not_tritanopia():
    """The check catches the classic clash: red vs green, distinct in normal vision (ΔE > 60), collapses under
    deuteranopia (and loses more than half its difference under protanopia), not under tritanopia."""
    assert delta_e(RED, LEAF) > 60
    clashes = colour_clashes([("red", RED, "green", LEAF)], visions=("protanopia", "deuteranopia", "tritanopia"))
    assert [line.split(": ")[1].split()[0] for line in clashes] == ["deuteranopia"]
    assert delta_e(simulate(RED, "protanopia"), simulate(LEAF, "protanopia")) < delta_e(RED, LEAF) / 2
    assert "red (200, 40, 40) vs green (60, 160, 40)" in clashes[0]


def test_same_luminance_colours_clash_in_greyscale():
    """Okabe-Ito orange and sky blue differ in hue only: greyscale loses them (contrast 1.02)."""
    assert colour_clashes([("orange", ORANGE, "sky", common.SKY)], visions=("greyscale",))
    assert not colour_clashes([("ink", INK, "paper", PAPER)])


def test_player_colours_stay_distinct_under_every_colour_vision_deficiency():
    """PLAYER_COLOURS (Okabe-Ito) keep ΔE ≥ MIN_DELTA_E pairwise under protanopia, deuteranopia and
    tritanopia; in greyscale some pairs merge (vermilion/green 1.13), so every seat also has its own shape."""
    pairs = [(f"seat {i}", a, f"seat {j}", b) for (i, a), (j, b) in itertools.combinations(enumerate(PLAYER_COLOURS), 2)]
    assert not colour_clashes(pairs, visions=("protanopia", "deuteranopia", "tritanopia"))
    assert colour_clashes(pairs, visions=("greyscale",))  # why shapes are needed
    assert len(set(PLAYER_SHAPES)) == len(PLAYER_SHAPES) == len(PLAYER_COLOURS)
    assert [common.player_style(i) for i in range(5)] == list(zip(PLAYER_COLOURS, PLAYER_SHAPES, strict=True))


def test_offered_place_marker_never_shares_a_colour_with_a_piece():
    """The marker (white disc, black ring, black key) stands out on every player colour and on paper in every
    vision: its disc or its ring has ≥ 3:1 (WCAG non-text) against the colour under it, and the key on the disc
    has 21:1 (marks never share a colour with a piece they sit on)."""
    assert contrast_ratio(common.MARKER_INK, common.MARKER_FILL) == pytest.approx(21.0)
    for colour in (*PLAYER_COLOURS, PAPER):
        for vision in ("normal", *common.VISIONS):
            seen = simulate(colour, vision)
            best = max(contrast_ratio(seen, simulate(common.MARKER_FILL, vision)),
                       contrast_ratio(seen, simulate(common.MARKER_INK, vision)))
            assert best >= 3, (colour, vision, best)
    pieces = [("marker", common.MARKER_FILL, f"seat {i}", c) for i, c in enumerate(PLAYER_COLOURS)]
    assert not colour_clashes(pieces, visions=("normal", "protanopia", "deuteranopia", "tritanopia"))


def test_common_text_colours_have_wcag_aa_contrast_on_paper():
    """INK and MUTED on PAPER reach 4.5:1 (grey labels were 4.3:1)."""
    assert contrast_ratio(INK, PAPER) >= common.TEXT_CONTRAST
    assert contrast_ratio(MUTED, PAPER) >= common.TEXT_CONTRAST
    assert common.legible_ink(BLUE) == WHITE
    assert common.legible_ink(ORANGE) == INK


def test_simulate_image_maps_each_colour_as_simulate_does():
    """A board image under a simulated vision: each pixel is simulate() of its colour (few-colour path), and a
    many-colour image goes through the matrix path to within a few levels."""
    img = Image.new("RGB", (4, 1))
    img.putdata([RED, LEAF, BLUE, WHITE])
    for vision in ("normal", *common.VISIONS):
        out = simulate_image(img, vision)
        assert out.size == img.size and out.mode == "RGB"
        for got, want in zip(out.get_flattened_data(), (simulate(c, vision) for c in (RED, LEAF, BLUE, WHITE)), strict=True):
            assert all(abs(a - b) <= 2 for a, b in zip(got, want, strict=True)), (vision, got, want)
    big = Image.new("RGB", (300, 300))
    big.putdata([(x % 256, (x // 256) % 256, (x * 7) % 256) for x in range(90_000)])
    sim = simulate_image(big, "deuteranopia")
    for xy in ((0, 0), (120, 40), (299, 299)):
        want = simulate(big.getpixel(xy), "deuteranopia")
        assert all(abs(a - b) <= 12 for a, b in zip(sim.getpixel(xy), want, strict=True)), (xy, want)


def test_a_palette_cut_from_sampled_pixels_keeps_every_frequent_colour_exact():
    """:func:`renderers.common.make_palette` cuts the anti-aliasing slots from one pixel in PALETTE_SAMPLE²
    (seconds less per render worker at start) yet keeps the 128 most frequent colours of every pixel exact, and a
    Tatari board mapped to it stays within a mean of 1 level per channel of what was drawn."""
    from PIL import Image, ImageChops, ImageStat

    import games
    from renderers import common, tatari

    state = games.get("tatari").setup(["a", "b", "c"], None, 3)
    drawn = [tatari.draw(state).convert("RGB")]
    palette = common.make_palette(drawn)
    colours = sorted(drawn[0].getcolors(maxcolors=1 << 24), reverse=True)[:128]
    flat = palette.getpalette()
    kept = {tuple(flat[i:i + 3]) for i in range(0, 768, 3)}
    assert common.PALETTE_SAMPLE > 1 and all(c in kept for _, c in colours)
    mapped = drawn[0].quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(drawn[0], mapped)).mean) <= 1.0
