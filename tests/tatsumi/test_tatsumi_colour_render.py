"""Tatsumi boards carry no colour-only sign, checked in greyscale and in deuteranopia,
protanopia and tritanopia simulations (Machado, Oliveira & Fernandes 2009, severity 1.0, applied to sRGB values):
the rings under a well's top ring and the rings themselves differ by their symbols; players whose colour is an
element's are not discs (rings are); Inyo's light and dark spaces differ in lightness; offered-place markers share
no colour with a piece."""

from __future__ import annotations

import itertools

from PIL import Image, ImageChops

from games.tatsumi import data as D
from games.tatsumi.island import layout
from renderers.common import MARKER_FILL, MARKER_INK
from renderers.tatsumi.icons import (
    ELEMENT_COLOUR,
    GOLD,
    PLAYER_COLOURS,
    SAND,
    SEA,
    pip_icon,
    player_style,
    ring_icon,
)
from renderers.tatsumi.island import DARK, HEX_R, INYO_TINT, LIGHT, hex_centre, island_image

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def simulate(img: Image.Image, vision: str) -> Image.Image:
    """``img`` as seen with ``vision`` ("grey" or a key of MACHADO), as a greyscale (lightness) image: what is
    left to tell things apart when hue is not."""
    rgb = img.convert("RGB")
    if vision != "grey":
        m = MACHADO[vision]
        rgb = rgb.convert("RGB", tuple(v for row in m for v in (*row, 0)))
    return rgb.convert("L")


def simulate_colour(c: tuple[int, int, int], vision: str) -> tuple[float, ...]:
    if vision == "grey":
        y = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
        return (y, y, y)
    return tuple(max(0.0, min(255.0, sum(a * b for a, b in zip(row, c, strict=True)))) for row in MACHADO[vision])


VISIONS = ("grey", *MACHADO)


def _on(icon: Image.Image, bg) -> Image.Image:
    back = Image.new("RGB", icon.size, bg)
    back.paste(icon, (0, 0), icon)
    return back


def _differ(a: Image.Image, b: Image.Image, vision: str) -> float:
    """Share of pixels whose lightness differs by more than 48 between ``a`` and ``b`` seen with ``vision``."""
    diff = ImageChops.difference(simulate(a, vision), simulate(b, vision))
    hist = diff.histogram()
    return sum(hist[49:]) / (a.width * a.height)


def test_pips_under_the_top_ring_differ_by_symbol_in_every_vision():
    """Fire, water and wind pips once were colour-only squares of one grey; now each carries its symbol: every
    pair of pips differs in at least 5 % of its pixels in greyscale and each simulation."""
    for vision in VISIONS:
        for a, b in itertools.combinations(D.ELEMENTS, 2):
            share = _differ(_on(pip_icon(a, 13), SEA), _on(pip_icon(b, 13), SEA), vision)
            assert share >= 0.05, (vision, a, b, share)


def test_rings_differ_by_symbol_in_every_vision():
    """Every pair of ring icons differs in at least 3 % of its pixels in greyscale and each simulation (fire and
    water once differed in 1.4 %: two teardrops; the flame now has three tongues)."""
    for vision in VISIONS:
        for a, b in itertools.combinations(D.ELEMENTS, 2):
            share = _differ(_on(ring_icon(a, 22), SEA), _on(ring_icon(b, 22), SEA), vision)
            assert share >= 0.03, (vision, a, b, share)


def test_a_player_in_an_elements_colour_is_not_a_disc():
    """Tatsumi player colours reuse element colours only with a shape that is not a ring's disc."""
    reused = 0
    for seat in range(5):
        colour, kind = player_style(seat)
        near = any(
            max(abs(x - y) for x, y in zip(simulate_colour(colour, v), simulate_colour(e, v), strict=True)) < 40
            for v in ("deuteranopia", "protanopia", "tritanopia") for e in ELEMENT_COLOUR.values()
        ) or colour in ELEMENT_COLOUR.values()
        if near:
            reused += 1
            assert kind != "circle", (seat, colour)
    assert reused >= 3 and len(set(PLAYER_COLOURS)) == 5


def test_inyo_light_and_dark_differ_in_lightness_and_show_as_a_band():
    """Inyo's light and dark spaces differ by lightness (not hue), and on a rift the shade is a band at least 5 px
    wide on the full board (it was a 3 px rim)."""
    for vision in VISIONS:
        light, dark = simulate_colour(LIGHT, vision)[0], simulate_colour(DARK, vision)[0]
        assert abs(light - dark) > 100, vision
    lay = layout("inyo")
    img = island_image("inyo", HEX_R)
    checked = 0
    for i in range(lay.size):
        if lay.rift[i] and lay.marks[i] == "d":
            cx, cy = hex_centre("inyo", HEX_R, i)
            band = sum(img.getpixel((round(cx) + dx, round(cy))) == DARK for dx in range(0, HEX_R))
            assert band >= 5, (lay.names[i], band)
            checked += 1
    assert checked and INYO_TINT <= 0.5


def test_markers_share_no_colour_with_a_piece():
    """The offered-place marker (white disc, black ring and key) differs from every piece and board colour it
    can sit on, in every vision (marks never share a colour with a piece)."""
    pieces = [*ELEMENT_COLOUR.values(), *PLAYER_COLOURS, GOLD, SAND]
    for vision in VISIONS:
        for mark in (MARKER_FILL, MARKER_INK):
            for piece in pieces:
                a, b = simulate_colour(mark, vision), simulate_colour(piece, vision)
                assert max(abs(x - y) for x, y in zip(a, b, strict=True)) > 20, (vision, mark, piece)
