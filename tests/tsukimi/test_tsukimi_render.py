"""The Tsukimi renderer: valid PNG, the whole board wide enough (``full=True``; the default is the decision's
close-up since the render(full=) contract), deterministic, every phase drawable."""

from __future__ import annotations

import io
import random

from PIL import Image
from tsukimi_helpers import GAME, PLAYERS, act, play_tile, position, tid

from games.core import Move
from renderers import tsukimi as r


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_png_width_and_deterministic():
    s = GAME.setup(PLAYERS, None, 3)
    a = r.render(s, {"white": "Alice"}, full=True)
    img = _png(a)
    assert img.width >= 800 and img.height >= 800
    assert r.render(s, {"white": "Alice"}, full=True) == a
    assert r.render(GAME.load_state(s.model_dump_json()), {"white": "Alice"}, full=True) == a
    assert r.render(s) == r.render(GAME.load_state(s.model_dump_json()))


def test_every_phase_and_side_renders():
    for side in ("light", "dark"):
        rng = random.Random(1)
        s = GAME.setup(PLAYERS, {"side": side}, 1)
        seen = set()
        while True:
            seen.add(s.phase)
            _png(r.render(s))
            d = GAME.pending(s)
            if not d:
                break
            s = GAME.apply(s, Move(player=d[0].player, option=rng.choice(d[0].options).id)).state
        assert {"choose", "place", "effects", "over"} <= seen


def test_claims_drawn_at_the_end_differ_from_play():
    """At game end each tile's claim is drawn (the image changes when the phase becomes 'over')."""
    board = {"C3": tid("sakura", 5), "C4": tid("matcha", 3)}
    s = position(board, white=("C3-n",), purple=("C4-ne",))
    playing = r.draw(s)
    s.phase = "over"
    over = r.draw(s)
    assert playing.tobytes() != over.tobytes()
    # the white claim outline on C3: a pixel on its outline is white
    cx, cy = r._px(0, 0)
    assert over.getpixel((round(cx - r.S * 0.84 * 0.866 + 2), round(cy))) == (255, 255, 255)
    assert playing.getpixel((round(cx - r.S * 0.84 * 0.866 + 2), round(cy))) != (255, 255, 255)


def test_place_and_move_markers():
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    base = r.draw(s)
    moving, _ = act(s, "move:A1-n")
    assert r.draw(moving).tobytes() != base.tobytes()
