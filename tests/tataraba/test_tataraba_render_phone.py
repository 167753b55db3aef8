"""Forest of Tataraba boards read on a phone: numbered markers on every offered tile, close-ups readable
at 400 px wide, tile names at >= 4.5:1, boards that touch drawn touching, "grew" (not a forecast) on the boards
whose card already ran (FT-6, FT-7), both FT-9 safety stops named on the end board."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from tataraba_support import GAME, T, new, scene

from games import marker_keys
from games.ai import next_move
from games.tataraba import rules
from games.tataraba.board import geometry, tile_index
from renderers import tataraba as r
from renderers.common import TEXT_CONTRAST, contrast_ratio

PLACE_KINDS = {"place", "move", "plant", "log", "build"}


def _decision_states(n: int, seed: int, limit: int = 400):
    """(state, decision) for every place-type decision met in a seeded random-legal game of ``n`` players."""
    s = GAME.setup([f"p{i}" for i in range(n)], None, seed)
    rng = random.Random(seed)
    out = []
    for _ in range(limit):
        d = GAME.pending(s)
        if not d:
            break
        if d[0].kind in PLACE_KINDS:
            out.append((s, d[0]))
        s = GAME.apply(s, next_move(GAME, s, {}, rng)).state
    return out


def _tile_rect(state, t, v: r.View):
    """The tile's rectangle in the image of ``v``."""
    x, y, px = r._tile_box(state.layout, t)
    ox, oy = v.origin
    x0, y0 = v.box[0], v.box[1]
    s = v.scale
    return ox + (x - x0) * s, oy + (y - y0) * s, ox + (x + px - x0) * s, oy + (y + px - y0) * s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_offered_tile_has_a_marker_on_it_in_both_views(n):
    """Numbered markers on offered tiles: for place, move, plant, log and build, every option names its tile (locus tile:k-n), and
    both the close-up and the full board draw one marker per distinct tile, with the key marker_keys gives, inside
    the image and on the tile; the marker's white disc is really drawn there."""
    seen = set()
    for state, decision in _decision_states(n, seed=n):
        seen.add(decision.kind)
        keys = marker_keys(decision.options)
        for opt in decision.options:
            assert opt.locus is not None and opt.locus.startswith("tile:"), (decision.kind, opt)
            assert opt.locus[5:] == opt.id.partition(":")[2], opt
        want = {keys[o.id]: tile_index(o.locus[5:]) for o in decision.options}
        for full in (False, True):
            v = r.view(state, full)
            assert {m.key: m.tile for m in v.marks} == want
            img = r.draw(state, full=full)
            assert img.size == v.size
            for m in v.marks:
                x0, y0, x1, y1 = _tile_rect(state, m.tile, v)
                assert x0 <= m.x <= x1 and y0 <= m.y <= y1, (m, (x0, y0, x1, y1))
                assert 0 <= m.x - m.r and m.x + m.r <= v.size[0] and 0 <= m.y - m.r and m.y + m.r <= v.size[1]
                assert img.getpixel((round(m.x - m.r * 0.7), round(m.y))) == (255, 255, 255)
    assert {"place", "move", "plant", "log"} <= seen


@pytest.mark.parametrize("n", [2, 4])
def test_keys_and_numbers_are_9px_at_400px_wide(n):
    """Text readable on a phone: every marker key and every number the choice depends on (Sen, material, Foot, Foot
    costs) is at least 9 px tall when the decision's image is scaled to 400 px wide; the full board's keys too."""
    for state, _ in _decision_states(n, seed=7)[::5]:
        for full in (False, True):
            v = r.view(state, full)
            assert v.min_text_px * 400 / v.size[0] >= 9, (full, v.min_text_px, v.size)
            for m in v.marks:
                key_px = m.r * (1.05 if len(m.key) > 1 else 1.3)
                assert key_px * 400 / v.size[0] >= 9
    assert r.CLOSE_TEXT_PX * 400 / r.CLOSE_W >= 9
    assert r.MARKER_R_FULL * 1.05 * 400 / r.WIDTH >= 9


def test_move_close_up_shows_foot_costs_under_the_keys():
    """The close-up of a move writes each destination's Foot markers under its key (FT-4 costs in the label)."""
    s = scene(at=("2-5", "3-9"), foot=(3, 1))
    d = GAME.pending(s)[0]
    assert d.kind == "move"
    costs = rules.destinations(s, 0)
    assert any(costs.values()) and any(c == 0 for c in costs.values())
    v = r.view(s)
    img = r.draw(s, full=False)
    for m in v.marks:
        below = [img.getpixel((round(m.x + dx), round(m.y + m.r + 11))) for dx in range(-12, 13)]
        has_label = any(p == (0x22, 0x1E, 0x1C) or sum(p) < 200 for p in below)
        assert has_label == bool(costs[m.tile]), (m, costs[m.tile])


def test_tile_names_contrast_at_least_4_5():
    """Tile names were 11 px grey at 3.3:1: now 13 px bold at >= 4.5:1 on both floor shades."""
    for floor in (r.FLOOR, r.FLOOR_ALT):
        assert contrast_ratio(r.TILE_NAME_INK, floor) >= TEXT_CONTRAST
    s = new()
    img = r.draw(s, full=True)
    x, y, _ = r._tile_box(s.layout, T("2-5"))
    box = img.crop((x + 3, y + 3, x + 30, y + 3 + r.TILE_NAME_PX))
    assert r.TILE_NAME_INK in [c for _, c in box.getcolors(4096)]


def test_boards_that_touch_are_drawn_touching():
    """No title bar between boards: board 4's first row starts right under board 1's last row (FT-1 adjacency
    crosses board edges, so the picture must not split them)."""
    layout = "123/456"
    px = r._tile_px(layout)
    assert r._xy(layout, 0, 3)[1] == r._xy(layout, 0, 2)[1] + px
    assert r._xy(layout, 3, 0)[0] == r._xy(layout, 2, 0)[0] + px
    geo = geometry(layout)
    assert r._map_h(layout) == geo.rows * px


def _pill_drawn(img, layout, board) -> bool:
    r_, c = geometry(layout).slots[board]
    bx, by = r._xy(layout, c * 3, r_ * 3)
    right = bx + 3 * r._tile_px(layout) - 4
    strip = img.crop((right - 40, by + 5, right - 2, by + r.TAB_H - 2))
    return any(col == r.GREW_FILL for _, col in strip.getcolors(4096))


def test_setup_reveal_shows_no_growth_and_a_revealed_card_shows_grew():
    """FT-7: the cards revealed at setup only inform, so no board says it grew; FT-6: after a round ends, the
    boards of the revealed cards already grew and shifted and carry a "grew" pill (not a forecast)."""
    s = new()
    assert s.round == 0 and any(s.shown)
    img = r.draw(s, full=True)
    for k in geometry(s.layout).slots:
        assert not _pill_drawn(img, s.layout, k)
    s2 = s.model_copy(deep=True)
    s2.round, s2.phase = 2, "action"
    s2.shown = [2, 0]
    img2 = r.draw(s2, full=True)
    assert _pill_drawn(img2, s2.layout, 2)
    assert not _pill_drawn(img2, s2.layout, 1) and not _pill_drawn(img2, s2.layout, 3)
    assert r._growth_round(s2) == 1 and r._growth_round(s) == 0


@pytest.mark.parametrize("end", ["limit", "exhausted"])
def test_both_safety_stops_are_named_on_the_end_board(end):
    """FT-9: the round limit and the exhausted forest are both announced on the board (a line naming the stop and
    FT-9, the Beech-ending scoring and the ranking), and the two end boards differ."""
    s = scene(at=("2-5", "3-9"), sen=(4, 2), phase="action")
    s.phase, s.end = "over", end
    head, how = r.END_TEXT[end]
    assert "FT-9" in head and "Beech" in how
    img = r.draw(s)
    other = s.model_copy(update={"end": "exhausted" if end == "limit" else "limit"})
    y = r._cards_y(s.layout, 2) - 4
    band = (0, y, r.WIDTH, y + 22)
    assert img.crop(band).tobytes() != r.draw(other).crop(band).tobytes()
    assert img.size == r._size(s.layout, 2)


def test_render_defaults_to_the_close_up_and_full_gives_the_whole_board():
    """The close-up is CLOSE_W wide around the player's piece (an action), wider (never past WIDTH) when the offered
    tiles spread (a move across two boards), without resampling; ``full`` is the whole board."""
    s = scene(at=("2-5", "3-9"), phase="action")
    close = Image.open(io.BytesIO(r.render(s)))
    whole = Image.open(io.BytesIO(r.render(s, full=True)))
    assert close.size == r.view(s).size and close.width == r.CLOSE_W
    assert whole.size == r._size(s.layout, 2)
    moving = scene(at=("2-5", "3-9"), foot=(3, 1))
    v = r.view(moving)
    assert r.CLOSE_W < v.size[0] <= r.WIDTH and v.scale == 1.0
