"""Renderer: a valid PNG, the full board at least 800 px wide (``full=True``; the default is the decision's
close-up since the render(full=) contract), deterministic, for every phase and layout."""

from __future__ import annotations

import io
import random

from PIL import Image
from tataraba_support import GAME, new, scene

from games.ai import next_move, play
from renderers import render as render_any
from renderers.tataraba import render


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_png_width_and_determinism():
    s = scene(
        {
            "2-2": "Ca1",
            "2-4": "Ea-",
            "2-6": "C20",
            "1-1": "By-",
            "1-2": "Ba-",
            "1-3": "X-1",
            "1-4": "Oy0",
            "1-5": "Ra0",
            "1-6": "T-0",
        },
        at=("2-5", "3-9"),
        phase="action",
        sen=(3, 1),
        mat=(2, 0),
    )
    a = render(s, {"red": "Red", "blue": "Blue"}, full=True)
    b = render(s, {"red": "Red", "blue": "Blue"}, full=True)
    assert a == b
    img = _png(a)
    assert img.format == "PNG" and img.width >= 800 and img.height > 400
    assert render_any(s) == render(s)


def test_every_player_count_layout_and_the_end():
    for n, layout in ((2, "1/2/3"), (3, ""), (4, "12/34/56"), (4, "")):
        s = GAME.setup([f"p{i}" for i in range(n)], {"layout": layout}, 1)
        rng = random.Random(1)
        for _ in range(60):
            m = next_move(GAME, s, {}, rng)
            s = GAME.apply(s, m).state
        assert _png(render(s, full=True)).width >= 800
        assert _png(render(s)).width >= 400
    over = play(GAME, new(), {}, random.Random(1))
    assert _png(render(over, {"red": "A very long display name indeed"}, full=True)).width >= 800


def test_state_differences_show():
    s = scene(at=("2-5", "3-9"), phase="action")
    t = scene({"2-2": "Ra0"}, at=("2-5", "3-9"), phase="action")
    assert render(s) != render(t)
