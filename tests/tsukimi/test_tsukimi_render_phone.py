"""Tsukimi boards read on a phone: numbered markers on every offered place, a close-up readable at
400 px wide, space names never hidden by tiles, the tile in hand drawn, claimed tiles and the TS-8 tie-break on
the end board, flavours told apart without colour (greyscale and colour-blind simulations)."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image
from tsukimi_helpers import GAME, PLAYERS, position, tid

from games import marker_keys
from games.core import Move
from games.tsukimi.board import SPACE_XY, VERTEX_XY
from games.tsukimi.data import TILES
from renderers import common
from renderers import tsukimi as r

VISIONS = common.VISIONS
"""Greyscale and the Machado 2009 dichromacies (the shared helper in renderers.common)."""


def simulate(img: Image.Image, vision: str) -> Image.Image:
    return common.simulate_image(img, vision)


def _dist(a, b) -> float:
    return math.dist(a, b)


def _decisions(seed: int, side: str, limit: int = 200):
    s = GAME.setup(PLAYERS, {"side": side}, seed)
    rng = random.Random(seed)
    out = []
    for _ in range(limit):
        d = GAME.pending(s)
        if not d:
            break
        out.append((s, d[0]))
        s = GAME.apply(s, Move(player=d[0].player, option=rng.choice(d[0].options).id)).state
    return out, s


def _place_of(locus: str, state, full: bool):
    kind, _, arg = locus.partition(":")
    ox, oy = (r.CX, r.CY) if full else (r.CLOSE_W / 2, r.CLOSE_TOP + r.MOON_H / 2)
    if kind == "vertex":
        return r._px(*VERTEX_XY[arg], ox, oy)
    if kind == "space":
        return r._px(*SPACE_XY[arg], ox, oy)
    return None


@pytest.mark.parametrize("side,seed", [("light", 1), ("dark", 2)])
def test_every_offered_place_has_a_numbered_marker_on_it(side, seed):
    """In choose_tile, place_tile, effects and move_to every option but end/back names its place
    (locus vertex:/space:/tile:), and both images draw one marker per distinct place with the key marker_keys
    gives, inside the image and on (or, beside a rabbit, right next to) the place; the marker is really drawn."""
    seen = set()
    for state, decision in _decisions(seed, side)[0]:
        keys = marker_keys(decision.options)
        for opt in decision.options:
            if opt.id in ("end", "back"):
                assert opt.locus is None
                continue
            kind, _, arg = opt.id.partition(":")
            want = {"tile": f"tile:{arg}", "space": f"space:{arg}"}.get(kind, f"vertex:{arg}")
            assert opt.locus == want, opt
        loci = {keys[o.id]: o.locus for o in decision.options if o.id in keys}
        if not loci:
            continue
        seen.add(decision.kind)
        for full in (False, True):
            ms = r.marks(state, full)
            assert {m.key: m.locus for m in ms} == loci
            img = r.draw(state, full=full)
            for m in ms:
                assert m.r <= m.x <= img.width - m.r and m.r <= m.y <= img.height - m.r
                place = _place_of(m.locus, state, full)
                if place is not None:
                    assert place == pytest.approx(m.target)
                    assert _dist((m.x, m.y), place) <= r.RABBIT_MARK_OFFSET * 1.5
                assert img.getpixel((round(m.x), round(m.y - m.r * 0.8))) == common.MARKER_FILL
    assert {"choose_tile", "place_tile", "effects", "move_to"} <= seen


@pytest.mark.parametrize("side,seed", [("light", 1), ("dark", 2)])
def test_tile_card_markers_sit_beside_the_flavour_name_not_over_it(side, seed):
    """On every choose_tile close-up, each tile card's marker box (centre ± r) and the box of the flavour's name
    on the card's token do not overlap, and the marker stays on its card, left of the token."""
    checked = 0
    for state, decision in _decisions(seed, side)[0]:
        if decision.kind != "choose_tile":
            continue
        for i, m in enumerate(r.marks(state)):
            tile = int(m.locus.partition(":")[2])
            cx0, cy0 = r._card_xy(i)
            assert m.target == (cx0 + r.CARD_TOKEN_X, cy0 + r.CARD_H / 2)
            left, top, right, bottom = r.token_name_box(tile, *m.target)
            mark = (m.x - m.r, m.y - m.r, m.x + m.r, m.y + m.r)
            assert mark[2] < left or right < mark[0] or mark[3] < top or bottom < mark[1], (TILES[tile], mark)
            assert cx0 <= mark[0] and mark[2] < cx0 + r.CARD_TOKEN_X - r.SLOT_R
            assert right - left >= 4 * len(TILES[tile].flavour)  # the whole name is measured
            checked += 1
    assert checked >= 6


def test_move_to_numbers_every_empty_corner():
    """The 44-53 empty corners are numbered, not identical yellow rings: a move_to decision's markers are keys 1..n,
    one per empty vertex, all distinct positions."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s.phase, s.tile, s.space, s.moves_left, s.moving_from = "move_to", tid("matcha", 1), "C3", 1, "A1-n"
    s = GAME.load_state(s.model_dump_json())
    ms = r.marks(s)
    assert [m.key for m in ms] == [str(i) for i in range(1, 54)]
    assert len({(round(m.x), round(m.y)) for m in ms}) == 53


def test_close_up_keys_and_numbers_are_9px_at_400px_wide():
    """Text readable on a phone: in the close-up (CLOSE_W px wide) marker keys (two digits: 1.05 r), space names, recruit
    numbers, tile values, the clan lines and card costs/effects are all >= 9 px once scaled to 400 px wide."""
    scale = 400 / r.CLOSE_W
    assert r.MARK_R_CLOSE * 1.05 * scale >= 9
    for px in (r.CLOSE_TEXT_PX, r.SPACE_NAME_PX, r.RECRUIT_PX, r.TILE_VALUE_PX):
        assert px * scale >= 9
    states, _ = _decisions(3, "dark")
    for state, _ in states[:40]:
        img = r.draw(state, full=False)
        assert img.size == r.close_size(state)
        assert img.width == r.CLOSE_W
        assert all(m.r == r.MARK_R_CLOSE for m in r.marks(state))


def test_render_default_is_the_close_up_full_the_whole_board():
    s = GAME.setup(PLAYERS, None, 3)
    close = Image.open(io.BytesIO(r.render(s)))
    whole = Image.open(io.BytesIO(r.render(s, full=True)))
    assert close.width == r.CLOSE_W and whole.size == (r.W, r.H)


def test_placed_tile_keeps_its_space_name():
    """Tiles used to cover the names of their spaces: the tile sprite now carries the space's name."""
    t = tid("carrot", 2)
    a, b = r._board_tile(t, "C3"), r._board_tile(t, "C4")
    assert a.tobytes() != b.tobytes()
    fg = r.FLAVOUR_TEXT["carrot"]
    c = a.width // 2
    band = a.crop((c - 15, c - 27 - 7, c + 15, c - 27 + 7)).convert("RGB")
    assert any(col == fg for _, col in band.getcolors(4096))


def test_the_tile_being_placed_is_drawn():
    """During place_tile the tile in hand is drawn (whole board: top left; close-up: top left of the Moon)."""
    s = position({"C3": tid("matcha", 1)})
    s = GAME.apply(s, Move(player=s.players[0], option=f"tile:{tid('strawberry', 2)}")).state
    assert s.phase == "place"
    fill = r.FLAVOUR_FILL["strawberry"]
    for full, (x, y) in ((True, (92, 200)), (False, (62, r.CLOSE_TOP + 70))):
        img = r.draw(s, full=full)
        assert img.getpixel((x + 22, y - 8)) == fill, full
    before = position({"C3": tid("matcha", 1)})
    assert r.draw(before, full=True).getpixel((92 + 22, 200 - 8)) != fill


@pytest.mark.parametrize(
    "white,purple,reserve,expect",
    [
        (("C3-n", "C3-ne", "C4-ne", "C4-se"), ("C3-s",), (3, 3), "wins on points"),
        (("C3-n", "C3-ne"), ("C4-ne", "C4-se"), (3, 3), "share the win"),
        (("C3-n", "C3-ne"), ("C4-ne", "C4-se"), (4, 3), "by more rabbits in reserve (TS-8)"),
    ],
)
def test_end_board_states_claims_and_the_tie_break_that_decided(white, purple, reserve, expect):
    """TS-8: the end names each clan's points, claimed tiles and reserve, and the rule that decided."""
    s = position({"C3": tid("matcha", 3), "C4": tid("carrot", 3)}, white=white, purple=purple, reserve=reserve)
    s.phase = "over"
    line1, line2 = r.end_lines(s, None)
    assert expect in line2
    assert "tiles" in line1 and f"{reserve[0]} in reserve" in line1
    assert r.render(s) == r.render(s, full=True)


def test_end_tie_break_on_tiles():
    """TS-8: on equal points, more tiles claimed wins, and the end says so."""
    s = position({"C3": tid("matcha", 0), "C4": tid("carrot", 0)}, white=("C3-n", "C4-ne"))
    s.phase = "over"
    line1, line2 = r.end_lines(s, None)
    assert line1.startswith("white 0 pts, 2 tiles") and "purple 0 pts, 0 tiles" in line1
    assert line2 == "white wins on equal points, by more tiles claimed (TS-8)."


def _token_fill(flavour: str, vision: str):
    """The simulated colour of a circle token's fill (a pixel right of the value, clear of text)."""
    tile = next(t.id for t in TILES.values() if t.flavour == flavour)
    sprite = r._ring_tile(tile)
    bg = Image.new("RGB", sprite.size, r.NIGHT)
    bg.paste(sprite, (0, 0), sprite)
    img = simulate(bg, vision)
    c = sprite.width // 2
    return img.getpixel((c + 28, c + 8))


FLAVOUR_DELTA_E = 11.5
"""Least ΔE*ab between two flavours' rendered tokens under every vision: below common.MIN_DELTA_E (15; five food
colours cannot all reach it in greyscale), which is why each flavour also carries its own symbol."""


@pytest.mark.parametrize("vision", VISIONS)
def test_flavours_differ_by_more_than_hue(vision):
    """Flavours told apart without colour vision: strawberry and carrot were one olive under deuteranopia. Rendered tokens, simulated in
    greyscale and each dichromacy, keep every pair of flavours >= FLAVOUR_DELTA_E apart (the old colours failed:
    strawberry and matcha were 3.5 apart in greyscale), greyscale contrast between
    any two at least common.MIN_GREY_CONTRAST, and each flavour has its own symbol."""
    fills = {f: _token_fill(f, vision) for f in r.FLAVOUR_FILL}
    names = list(fills)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert common.delta_e(fills[a], fills[b]) >= FLAVOUR_DELTA_E, (vision, a, b, fills[a], fills[b])
            if vision == "greyscale":
                assert common.contrast_ratio(fills[a], fills[b]) >= common.MIN_GREY_CONTRAST, (a, b)
    assert len(set(r.FLAVOUR_SYMBOL.values())) == len(r.FLAVOUR_FILL)


@pytest.mark.parametrize("vision", VISIONS)
def test_marks_never_share_a_colour_with_a_piece(vision):
    """Marks never share a colour with a token: discard rings shared the strawberry colour. Marks are now white discs with black keys
    (markers), black-and-white crosses (discard) and double rings (the rabbit moving): in every simulation the
    marker's white stays >= 10 ΔE*ab from every flavour and the purple clan (and its black ring and key set it
    apart from all of them), and no mark uses a flavour colour."""
    piece = [*r.FLAVOUR_FILL.values(), r.PURPLE_CLAN]
    sim = simulate(Image.new("RGB", (len(piece) + 2, 1)), vision)
    strip = Image.new("RGB", (len(piece) + 2, 1))
    for i, c in enumerate([*piece, common.MARKER_FILL, common.MARKER_INK]):
        strip.putpixel((i, 0), c)
    sim = simulate(strip, vision)
    white = sim.getpixel((len(piece), 0))
    for i in range(len(piece)):
        assert common.delta_e(sim.getpixel((i, 0)), white) >= 10, (vision, piece[i])
    for mark in (common.MARKER_FILL, common.MARKER_INK):
        assert mark not in piece


def test_discard_targets_are_crossed_not_coloured():
    """A rabbit that may be discarded gets a black X (and a numbered marker beside it), not a coloured ring."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",), purple=("E1-s",))
    s.phase, s.tile, s.space, s.discards_left = "effects", tid("matcha", 1), "C3", 1
    d = GAME.pending(s)[0]
    assert any(o.id.startswith("discard:") for o in d.options)
    img = r.draw(s, full=False)
    ms = [m for m in r.marks(s) if m.locus == "vertex:E1-s"]
    assert len(ms) == 1
    x, y = ms[0].target
    assert img.getpixel((round(x), round(y))) == common.BLACK


def test_whole_board_close_up_and_end_render_for_both_sides():
    for side in ("light", "dark"):
        states, end = _decisions(5, side)
        for s, _ in states[::7]:
            for full in (False, True):
                data = r.render(s, {"white": "Alice"}, full=full)
                assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert Image.open(io.BytesIO(r.render(end))).size == (r.W, r.H)
