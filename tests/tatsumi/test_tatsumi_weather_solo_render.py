"""Tatsumi renderer with the weather module and solo mode: valid PNGs at least 800 px wide, deterministic, and the
weather cards, their sand dollars, the Tekitatsu, the maelstrom and the solo card change the image."""

from __future__ import annotations

import io
import random

from PIL import Image

from games.ai import next_move
from games.tatsumi import GAME
from renderers.tatsumi import render
from renderers.tatsumi.solo import SOLO_X, SOLO_Y
from renderers.tatsumi.weather import WEATHER_XY


def _played(players, options, seed, moves):
    s = GAME.setup(players, options, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        m = next_move(GAME, s, {}, rng)
        if m is None:
            break
        s = GAME.apply(s, m).state
    return s


def _states():
    return [
        GAME.setup(["al"], {"solo": True}, 1),
        _played(["al"], {"solo": True}, 2, 40),
        _played(["al"], {"solo": True}, 3, 5000),
        _played(["a", "b"], {"weather": True}, 4, 80),
        _played(["a", "b", "c", "d"], {"weather": True}, 5, 5000),
    ]


def test_render_png_size_and_determinism_with_modules():
    for s in _states():
        png = render(s, {"al": "Alice"}, full=True)
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width >= 800 and img.height >= 600
        assert render(s, {"al": "Alice"}, full=True) == png


def _crop(png: bytes, box) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").crop(box).tobytes()


def test_weather_cards_and_sand_dollars_are_drawn():
    s = GAME.setup(["a", "b"], {"weather": True}, 4)
    plain = GAME.setup(["a", "b"], None, 4)
    x, y = WEATHER_XY["minor"]
    box = (x, y, x + 134, y + 182)
    assert _crop(render(s, full=True), box) != _crop(render(plain, full=True), box)
    t = s.model_copy(deep=True)
    t.weather[0].on_card = 3
    assert _crop(render(s, full=True), box) != _crop(render(t, full=True), box)
    u = s.model_copy(deep=True)
    u.weather[0].in_wells, u.weather[0].neutralized = 5, True
    assert _crop(render(u, full=True), box) != _crop(render(s, full=True), box)


def test_solo_tokens_and_card_are_drawn():
    s = GAME.setup(["al"], {"solo": True}, 1)
    t = s.model_copy(deep=True)
    t.solo.tekitatsu = [-1, -1]
    t.solo.maelstrom = -1
    assert render(s, full=True) != render(t, full=True)
    u = s.model_copy(deep=True)
    u.solo.card = (s.solo.card + 1) % 16
    panel = (SOLO_X, SOLO_Y, SOLO_X + 484, SOLO_Y + 350)
    assert _crop(render(s, full=True), panel) != _crop(render(u, full=True), panel)


def test_pending_weather_decision_is_shown():
    s = GAME.setup(["a", "b"], {"weather": True}, 4)
    t = s.model_copy(deep=True)
    t.interrupts = ["swap:1:" + t.weather[0].element + ":1"]
    x, y = WEATHER_XY["minor"]
    box = (x, y + 182, x + 140, y + 250)
    assert _crop(render(s, full=True), box) != _crop(render(t, {"b": "Bea"}, full=True), box)
