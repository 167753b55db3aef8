"""Tatsumi renderer: a valid PNG at least 800 px wide, deterministic, for fresh, mid-game and finished states."""

from __future__ import annotations

import io
import random

from PIL import Image

from games.ai import play
from games.tatsumi import GAME
from renderers.tatsumi import render


def _states():
    out = [GAME.setup(["ann", "bob"], None, 1)]
    for n in (2, 3, 4):
        s = GAME.setup([f"p{i}" for i in range(n)], None, n)
        out.append(play(GAME, s, {}, random.Random(n)))
    return out


def test_render_png_size_and_determinism():
    for s in _states():
        png = render(s, {"ann": "Ann"}, full=True)
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width >= 800 and img.height >= 600
        assert render(s, {"ann": "Ann"}, full=True) == png


def test_render_differs_when_the_state_does():
    s = GAME.setup(["ann", "bob"], None, 1)
    t = s.model_copy(deep=True)
    t.wells[0] = t.wells[0][:-1]
    assert render(s, full=True) != render(t, full=True)


def test_registry_finds_the_renderer():
    import renderers

    s = GAME.setup(["ann", "bob", "cat"], None, 2)
    assert renderers.render(s)[:8] == b"\x89PNG\r\n\x1a\n"
