"""Tatsumi's decision image: every option that points at a place has a locus; the decision image marks
each offered place with its key, inside the image and on that place; it shows the area the decision is about
(the seaboard for a turn, the decider's island for placing and swaps, the cards for a scale, the weather cards for
a sand dollar), and every text a choice depends on is at least 9 px at 400 px wide."""

from __future__ import annotations

import importlib
import io
import math
import random
from functools import lru_cache

from PIL import Image

import games
from games.ai import next_move
from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi.island import layout
from games.tatsumi.loci import locus
from renderers.common import MARKER_INK
from renderers.tatsumi import render
from renderers.tatsumi.cards import SLOT, TILE_H, TILE_W
from renderers.tatsumi.decision import (
    HEADER_H,
    ISLAND_MARKER_R,
    ISLAND_R,
    ISLAND_X,
    READABLE,
    SEA_MARKER_R,
    marker_positions,
    sea_view_xy,
    view_of,
)
from renderers.tatsumi.island import hex_centre
from renderers.tatsumi.seaboard import CELL, tile_xy, well_box

PLACE_KINDS = ("fly:", "gather:", "dash:", "dive:", "breath:", "offer:", "card:", "sand:", "swap:")
"""Option id prefixes that name a place on the board (and ring placements, ``<element>@<space>``)."""
GAMES = [
    (["p0", "p1", "p2", "p3"], None),
    (["p0", "p1"], {"island": "asymmetric", "dragons": "asymmetric", "weather": True}),
    (["p0", "p1", "p2", "p3"], {"island": "asymmetric", "dragons": "asymmetric", "weather": True}),
    (["p0"], {"solo": True}),
]


@lru_cache(maxsize=1)
def sample_decisions() -> dict[str, list]:
    """Decision kind -> up to 3 states met in seeded random-legal games (base, modules, solo), plus a state per
    special gathering (breath, dash, dive)."""
    out: dict[str, list] = {}
    for players, opts in GAMES:
        for seed in range(3):
            s = GAME.setup(players, opts, seed)
            rng = random.Random(seed)
            while pending := GAME.pending(s):
                d = pending[0]
                key = d.kind
                for pre in ("breath:", "dash:", "dive:", "offer:"):
                    if any(o.id.startswith(pre) for o in d.options):
                        key = pre[:-1]
                if len(out.setdefault(key, [])) < 3:
                    out[key].append(s)
                s = GAME.apply(s, next_move(GAME, s, {}, rng)).state
    return out


def _image(state) -> Image.Image:
    return Image.open(io.BytesIO(render(state, {"p0": "Ann"}))).convert("RGB")


def test_loci_of_a_fresh_two_player_turn_exactly():
    """The first turn of a 2-player base game: every fly and gather option points at its well;
    a fly and a gather on the same well share the key."""
    s = GAME.setup(["a", "b"], None, 1)
    d = GAME.pending(s)[0]
    assert [(o.id, o.locus) for o in d.options] == [
        ("fly:b1", "well:b1"), ("fly:c1", "well:c1"), ("fly:d1", "well:d1"), ("fly:a2", "well:a2"),
        ("fly:b2", "well:b2"), ("fly:a3", "well:a3"), ("fly:c3", "well:c3"), ("fly:a4", "well:a4"),
        ("fly:d4", "well:d4"), ("fly:a5", "well:a5"), ("fly:e5", "well:e5"), ("gather:b1", "well:b1"),
        ("gather:a2", "well:a2"),
    ]
    keys = games.marker_keys(d.options)
    assert keys["gather:b1"] == keys["fly:b1"] == "1" and keys["gather:a2"] == keys["fly:a2"] == "4"


def test_locus_vocabulary():
    """games.tatsumi.loci: each option kind's locus, exactly; options with no place have none."""
    assert locus("ann", "dash:c4") == "well:c4"
    assert locus("ann", "dive:e2") == "well:e2"
    assert locus("ann", "breath:ne") == "breath:ne"
    assert locus("ann", "offer:lightning") == "shrine:lightning"
    assert locus("ann", "card:koi") == "card:koi"
    assert locus("ann", "sand:major:beside") == "weather:major:beside"
    assert locus("ann", "swap:C4-C5") == "pair:ann:C4-C5"
    assert locus("ann", "water@D4") == "island:ann:D4"
    for oid in ("end", "blackbird", "stop", "skip", "next", "overflow:fire", "island:asymmetric", "dragon:symmetric",
                "element:fire"):
        assert locus("ann", oid) is None


def test_every_place_option_has_a_locus_in_every_place_decision():
    """In every place-type decision met (turn, second gathering, breath, dash, dive, offer, place, swap, scale,
    sand), every option naming a place has a locus naming that place."""
    seen = set()
    for kind, states in sample_decisions().items():
        for s in states:
            d = GAME.pending(s)[0]
            for o in d.options:
                if o.id.startswith(PLACE_KINDS) or "@" in o.id:
                    seen.add(o.id.split(":")[0] if ":" in o.id else "place")
                    assert o.locus is not None, (kind, o.id)
                    tail = o.id.split("@")[-1] if "@" in o.id else o.id.split(":", 1)[1]
                    assert o.locus.endswith(tail), (o.id, o.locus)
    assert {"fly", "gather", "offer", "card", "place", "sand", "swap", "breath", "dash", "dive"} <= seen


def _on_place(s, locus_id: str, xy: tuple[float, float]) -> bool:
    """Whether the marker centre ``xy`` (decision image px) lies on the place ``locus_id`` names."""
    x, y = xy
    kind, _, arg = locus_id.partition(":")
    if kind == "well":
        x0, y0 = sea_view_xy(s, *well_box(D.WELL_INDEX[arg]))
        return x0 <= x <= x0 + CELL and y0 <= y <= y0 + CELL
    if kind == "breath":
        x0, y0 = sea_view_xy(s, *well_box(s.seats[s.current].well))
        return math.hypot(x - x0 - CELL / 2, y - y0 - CELL / 2) <= CELL / 2 + 1
    if kind == "shrine":
        tx, ty = sea_view_xy(s, *tile_xy(D.EDGES[s.shrines.index(D.ELEMENT_CODES[arg])]))
        return (x, y) == (tx + SLOT[0], ty + SLOT[1]) and 0 < SLOT[0] < TILE_W and 0 < SLOT[1] < TILE_H
    if kind in ("island", "pair"):
        pid, _, spaces = arg.rpartition(":")
        p = next(q for q in s.seats if q.id == pid)
        assert p.id == GAME.pending(s)[0].player  # the decider's own island
        lay = layout(p.island_key)
        centres = [hex_centre(p.island_key, ISLAND_R, lay.index(n)) for n in spaces.split("-")]
        ix, iy = x - ISLAND_X, y - HEADER_H
        if kind == "island":
            (cx, cy), = centres
            return math.hypot(ix - cx, iy - cy) <= 0.866 * ISLAND_R
        (ax, ay), (bx2, by2) = centres
        return math.hypot(ix - (ax + bx2) / 2, iy - (ay + by2) / 2) < 1 and math.hypot(ax - bx2, ay - by2) < 2 * ISLAND_R
    return kind in ("card", "weather")  # checked by the view's own slots below


def test_markers_on_every_offered_place_inside_the_image():
    """For every place-type decision met: one marker per distinct locus, keyed as games.marker_keys keys the
    options, centred inside the image and on its place, and drawn (the marker's black ring is in the image)."""
    for kind, states in sample_decisions().items():
        for s in states:
            d = GAME.pending(s)[0]
            keys = games.marker_keys(d.options)
            pos = marker_positions(s)
            assert set(pos) == set(keys.values()), kind
            if not pos:
                continue
            img = _image(s)
            by_key = {keys[o.id]: o.locus for o in d.options if o.id in keys}
            r = ISLAND_MARKER_R if view_of(s) == "island" else SEA_MARKER_R
            for key, (x, y) in pos.items():
                assert 0 <= x < img.width and 0 <= y < img.height, (kind, key)
                assert _on_place(s, by_key[key], (x, y)), (kind, by_key[key], (x, y))
            last = str(len(pos))  # drawn last, so on top of any marker it touches: its black ring is there
            x, y = pos[last]
            ring = [img.getpixel((round(x), round(y - r + dy))) for dy in (0, 1, 2)]
            assert min(max(abs(a - b) for a, b in zip(c, MARKER_INK, strict=True)) for c in ring) < 40, (kind, ring)


def test_the_view_shows_what_the_decision_is_about():
    """A turn shows the seaboard; placing and a weather swap the decider's island; a scale the cards; a sand
    dollar the weather cards; setup choices and the solo step the whole board."""
    expect = {"turn": "seaboard", "gather": "seaboard", "breath": "seaboard", "dash": "seaboard",
              "dive": "seaboard", "offer": "seaboard", "place": "island", "swap": "island", "overflow": "island",
              "scale": "cards", "sand": "weather", "solo": "full"}
    for kind, states in sample_decisions().items():
        if kind in expect:
            assert {view_of(s) for s in states} == {expect[kind]}, kind


def test_nine_px_at_phone_width_in_every_view():
    """Every marker key and every number a choice depends on is at least 9 px tall when the decision image is
    scaled to 400 px wide: size * 400 / width >= 9, sizes from the renderer's READABLE table."""
    widths: dict[str, int] = {}
    for states in sample_decisions().values():
        for s in states:
            view = view_of(s)
            if view != "full":
                widths[view] = max(widths.get(view, 0), _image(s).width)
    assert set(widths) == set(READABLE)
    for view, sizes in READABLE.items():
        for what, px in sizes.items():
            assert px * 400 / widths[view] >= 9, (view, what, px, widths[view])


def test_full_board_is_still_there():
    """full=True is the whole board (1240 px wide) whatever the decision."""
    for states in sample_decisions().values():
        img = Image.open(io.BytesIO(render(states[0], full=True)))
        assert img.width == 1240 and img.height >= 860


def _drawn_text_sizes(state) -> tuple[int, list[tuple[int, str]]]:
    """The decision image's width and (size px, text) of every text drawn while rendering it, from a cold start
    (every renderer cache cleared, so cached card faces, tiles and wells are drawn again and counted)."""
    import renderers.tatsumi as pkg
    from renderers import common

    mods = [common, *(m for m in vars(pkg).values() if getattr(m, "__name__", "").startswith("renderers.tatsumi."))]
    for mod in (*mods, *(importlib.import_module(f"renderers.tatsumi.{n}") for n in TATSUMI_MODULES)):
        for obj in list(vars(mod).values()):
            if (callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "").startswith("renderers")
                    and obj.__name__ not in ("palette", "game_palette")):  # the palette is drawn once per process
                obj.cache_clear()
    seen: list[tuple[int, str]] = []
    original = common.ScriptFont.getmask2

    def recording(self, text, *args, **kwargs):
        seen.append((self.size, text))
        return original(self, text, *args, **kwargs)

    pkg.palette()
    common.ScriptFont.getmask2 = recording
    try:
        width = _image(state).width
    finally:
        common.ScriptFont.getmask2 = original
    return width, seen


TATSUMI_MODULES = ("cards", "decision", "icons", "island", "seaboard", "solo", "weather")


MEASURED_VIEWS = ("seaboard", "island", "cards")
"""The views drawn at their own scale: every text drawn is on the image at the size drawn. (The weather view
enlarges the board's weather cards WEATHER_K times after drawing; its sizes are in READABLE.)"""


def test_every_text_drawn_on_a_decision_image_is_9px_at_400px_wide():
    """Not only the sizes the READABLE table names: every text drawn for a decision image (summoning cards'
    titles, kinds and rule text, "no scales", shrine tiles, weather cards, well names, the header and strip) is at
    least 9 px when the image is shown 400 px wide — measured while drawing. The seaboard view was 746 px wide
    with 10 px card text (5.4 px at 400 px); the sand dollar icon's "$" is a picture, not text."""
    checked = set()
    for states in sample_decisions().values():
        for s in states:
            if view_of(s) not in MEASURED_VIEWS:
                continue
            width, seen = _drawn_text_sizes(s)
            small = sorted({(size, t) for size, t in seen if size * 400 / width < 9 and t != "$"})
            assert not small, (view_of(s), width, small[:8])
            checked.add(view_of(s))
    assert checked == set(MEASURED_VIEWS)
