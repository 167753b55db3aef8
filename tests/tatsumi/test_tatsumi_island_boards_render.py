"""Tatsumi renderer with the asymmetric islands and dragons and the Void (renderers.tatsumi.island): valid,
deterministic PNGs at least 800 px wide, every board drawn differently, a fifth panel row for 5 players."""

from __future__ import annotations

import io
import random

from PIL import Image

from games.ai import play
from games.tatsumi import GAME
from games.tatsumi import islands_data as ID
from games.tatsumi.dragons import set_island_side
from renderers.tatsumi import render
from renderers.tatsumi.island import island_image

OPTS = {"dragons": "asymmetric", "island": "asymmetric"}


def _png(state) -> Image.Image:
    png = render(state, {"p0": "Ann"}, full=True)
    assert render(state, {"p0": "Ann"}, full=True) == png
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width >= 800
    return img


def test_render_module_games_fresh_mid_and_finished():
    for n in (2, 3, 4, 5):
        opts = {**OPTS, "void": n == 5}
        s = GAME.setup([f"p{i}" for i in range(n)], opts, n)
        img = _png(s)
        assert img.height >= (1060 if n == 5 else 860)
        _png(play(GAME, s, {}, random.Random(n)))


def test_render_setup_stage_before_kihaku_names_its_element():
    """The image renders while choices are pending (Kihaku without an element, boards still to choose)."""
    s = GAME.setup([f"p{i}" for i in range(5)], {"void": True, "island": "choose", "dragons": "choose"}, 1)
    assert s.turn.stage == "setup"
    _png(s)


def test_every_board_has_its_own_grid_and_changes_the_image():
    """Each asymmetric board is drawn (rifts, blessings, marks) and differs from the others and from Tatsumi."""
    grids = {key: island_image(key).tobytes() for key in ID.BOARDS}
    assert len(set(grids.values())) == len(ID.BOARDS)
    s = GAME.setup(["p0", "p1"], None, 1)
    images = {render(s, full=True)}
    for key in ID.BOARDS:
        t = s.model_copy(deep=True)
        set_island_side(t.seats[0], key)
        images.add(render(t, full=True))
    assert len(images) == len(ID.BOARDS) + 1


def test_dragon_card_side_changes_the_image():
    s = GAME.setup(["p0", "p1"], None, 1)
    t = s.model_copy(deep=True)
    t.seats[0].gather = "karyusama"
    assert render(s, full=True) != render(t, full=True)
