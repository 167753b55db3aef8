"""The board image: a long name never runs into the stash dolls, whatever follows it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.tatari import GAME
from renderers.common import font
from renderers.tatari import LABEL_W, STASH_Y, draw, stash_label


def test_a_resigned_long_name_stops_before_the_dolls():
    names = ["a" * 60, "W" * 18, "bob"]
    s = GAME.resign(GAME.setup(names, None, 3), names[0]).state
    img = draw(s)  # before palette mapping (PNG colours may shift by a unit or two)
    row_h = 48
    for i in range(len(names)):  # the gap between the label and the first doll slot stays paper in every row
        y0 = STASH_Y + 6 + i * row_h
        gap = {img.getpixel((x, y)) for x in range(447, 452) for y in range(y0 + 4, y0 + row_h - 12)}
        assert min(min(px) for px in gap) >= 200, (i, gap)  # paper (give or take the palette), no ink


def test_stash_label_keeps_the_suffix_and_shortens_the_name():
    d = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    fnt = font(24, bold=True)
    label = stash_label(d, "W" * 18, " ★ WINNER", fnt)
    assert label.endswith("… ★ WINNER") and label.startswith("WWW")
    assert d.textlength(label, font=fnt) <= LABEL_W
    assert stash_label(d, "bob", " (resigned)", fnt) == "bob (resigned)"
