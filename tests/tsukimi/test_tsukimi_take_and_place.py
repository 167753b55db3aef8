"""Taking a tile from the circle (RULINGS TS-4) and placing it on the Moon (TS-5)."""

from __future__ import annotations

from support import assert_illegal
from tsukimi_helpers import GAME, PLAYERS, P, W, act, check, free_tile, option_ids, position, tid

from games.core import Move
from games.tsukimi import rules
from games.tsukimi.board import SPACES
from games.tsukimi.data import TEMPLE

# -- TS-4: the circle ----------------------------------------------------------------------------------------------


def test_ts4_cost_is_cheaper_way_round_and_gaps_stay():
    """TS-4: costs count mochi still in the circle between the Temple and the tile the cheaper way; taken tiles
    leave gaps (nothing moves); the cost goes from the reserve to the box."""
    s = GAME.setup(PLAYERS, None, 3)
    s.circle = [TEMPLE, *range(1, 19)]
    cs = rules.costs(s.circle)
    assert [cs[t] for t in range(1, 19)] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    s, ev = act(s, "tile:5")
    assert s.circle[5] is None and s.circle[6] == 6 and s.reserve == [11, 15] and s.box == [4, 0]
    assert ev[0].kind == "take" and ev[0].data == {"tile": 5, "cost": 4}
    check(s)


def test_ts4_cannot_take_tile_costing_more_than_reserve():
    """TS-4: a tile costing more than the reserve is not offered and refused."""
    s = position(reserve=(2, 15))
    s.circle = [TEMPLE, *range(1, 19)]
    ids = option_ids(s)
    assert ids == ["tile:1", "tile:18", "tile:2", "tile:17", "tile:3", "tile:16"]
    assert_illegal(GAME, s, Move(player=W, option="tile:4"))


def test_ts4_two_nearest_tiles_free_with_empty_reserve():
    """Rulebook: the two tiles closest to the Temple cost nothing, so a player can always take a tile."""
    s = position(reserve=(0, 15))
    s.circle = [None, 4, TEMPLE, None, None, 9, *range(10, 19), None, None, None]
    assert option_ids(s) == ["tile:4", "tile:9"]


# -- TS-5: placing a tile --------------------------------------------------------------------------------------


def test_ts5_first_tile_anywhere_then_adjacent():
    """TS-5: the first tile may go on any of the 19 spaces; later ones on an empty space next to a tile."""
    s = GAME.setup(PLAYERS, None, 5)
    first = s.circle[(s.circle.index(TEMPLE) + 1) % 19]
    s, _ = act(s, f"tile:{first}")
    assert option_ids(s) == [f"space:{x}" for x in SPACES]
    s, _ = act(s, "space:A1", "end")
    nxt = GAME.pending(s)[0].options[0].id
    s, _ = act(s, nxt)
    assert sorted(option_ids(s)) == ["space:A2", "space:B1", "space:B2"]
    assert_illegal(GAME, s, Move(player=P, option="space:A1"))
    assert_illegal(GAME, s, Move(player=P, option="space:C3"))


def test_free_tile_helper_keeps_circle():
    s = GAME.setup(PLAYERS, None, 1)
    t = tid("matcha", 2)
    s2 = free_tile(s, t)
    assert rules.costs(s2.circle)[t] == 0 and sorted(s2.circle) == sorted(s.circle)


def test_option_labels_show_costs():
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    labels = {o.id: o.label for o in GAME.pending(s)[0].options}
    assert labels["tile:1"] == "strawberry 0 (cost 0)" and labels["tile:9"] == "carrot 0 (cost 8)"


def test_tiles_may_be_named_by_flavour_and_value():
    """Chat: ``tile:matcha 2`` means the matcha 2 in the circle; for the two sakura, the cheaper one."""
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    a, _ = act(s, "tile:Matcha-2")
    assert a.tile == tid("matcha", 2) and a.reserve[0] == 15 - rules.costs(s.circle)[tid("matcha", 2)]
    b, _ = act(s, "tile:sakura 5")
    assert b.tile == 18 and b.reserve[0] == 15  # tile 18 is next to the Temple: cost 0, tile 17 costs 1
    assert_illegal(GAME, a, Move(player=P, option="tile:matcha 2"))  # not the time to take a tile
    assert_illegal(GAME, s, Move(player=W, option="tile:matcha 7"))
