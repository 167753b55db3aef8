"""The Tatamokatsu board image: a valid PNG, at least 800 px wide, the same bytes for the same state."""

from __future__ import annotations

import io
import random

from PIL import Image
from tatamokatsu_helpers import GAME, T0, apply, close, inp, new, roll

import renderers
from games.tatamokatsu.ai import play
from renderers.tatamokatsu import _die, caption, render


def _states():
    s = new(players=["alice", "bob", "carol", "dave", "eve"], fingers={"dave": 0})
    yield s
    r, _ = roll(s, "1/10", "1/10", "6")
    r = inp(r, "bob", "shout", 1200)
    r = inp(r, "dave", "grab", 500)
    yield r
    yield close(r)[0]
    t, _ = roll(new(fingers={"carol": 0}), "1/10", "4", "T")
    yield close(inp(t, "carol", "grab", 700))[0]
    f, _ = roll(new(players=["alice", "bob"]), "1/10", "3", "5")
    f, _ = apply(close(f)[0], "alice", "fix:10", T0 + 9000)  # TK-11: the count comes after the race's close
    yield f
    rng = random.Random(3)
    yield play(GAME, GAME.setup(["a", "b", "c"], None, 3), {}, rng)


def test_render_png_width_and_determinism():
    for s in _states():
        png = render(s, {"alice": "Alice", "bob": "Bobby Tables the Great"})
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width >= 800 and img.height >= 600
        assert render(s, {"alice": "Alice", "bob": "Bobby Tables the Great"}) == png
        assert renderers.render(s) == render(s)


def test_special_faces_look_different():
    plain = _die("1", None).tobytes()
    assert _die("1/10", None).tobytes() != plain
    assert _die("T", None).tobytes() not in (plain, _die("1/10", None).tobytes())
    assert _die("1/10", 10).tobytes() != _die("1/10", 1).tobytes() != _die("1/10", None).tobytes()


def test_caption():
    assert caption(new(), {"alice": "Alice"}) == "Alice rolls next"
