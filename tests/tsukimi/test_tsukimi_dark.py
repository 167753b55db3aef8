"""The dark side of the Moon (RULINGS TS-1, TS-7): recruit spaces and the box."""

from __future__ import annotations

import pytest
from tsukimi_helpers import GAME, PLAYERS, act, check, play_tile, position, tid

from games.tsukimi.data import RECRUIT

# -- TS-7: the dark side ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("space,n", [("A1", 2), ("E3", 2), ("B2", 1), ("D3", 1), ("C3", 0), ("B1", 0)])
def test_ts7_dark_recruit(space, n):
    """TS-7: dark side: outer corners recruit 2, the inner ring 1, others none, from the box to the reserve."""
    assert RECRUIT.get(space, 0) == n
    s = GAME.setup(PLAYERS, {"side": "dark"}, 2)
    s, ev = play_tile(s, tid("matcha", 3), space)
    assert s.reserve[0] == 3 + n - (1 if s.rabbits else 0) and s.box[0] == 12 - n
    assert [e.data["recruited"] for e in ev if e.kind == "recruit"] == ([n] if n else [])


def test_ts7_recruit_limited_by_box():
    """TS-7: as many as remain in the box."""
    s = position({"A2": tid("matcha", 0)}, side="dark", reserve=(14, 3), box=(1, 12))
    s, ev = play_tile(s, tid("matcha", 3), "A1")
    assert s.box[0] == 0 and [e.data["recruited"] for e in ev if e.kind == "recruit"] == [1]


def test_ts7_light_side_never_recruits():
    s = GAME.setup(PLAYERS, None, 2)
    s, ev = play_tile(s, tid("matcha", 3), "A1")
    assert not [e for e in ev if e.kind == "recruit"] and s.reserve[0] == 15 - len(s.rabbits)


def test_ts7_dark_paid_rabbits_can_be_recruited_again():
    """Dark side: rabbits go into the box when paid or discarded, and come out of it when recruited."""
    s = position({"A2": tid("matcha", 0)}, side="dark", reserve=(0, 3), box=(15, 12))
    s, _ = play_tile(s, tid("matcha", 3), "A1")
    assert s.reserve == [2, 3] and s.box == [13, 12]
    check(s)


def test_ts7_discarded_rabbits_can_be_recruited_by_their_clan():
    """Dark side: a discarded rabbit goes to its clan's box and that clan can recruit it again."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1)}
    s = position(board, side="dark", purple=("E3-s",), reserve=(3, 2), box=(12, 12))
    s, _ = play_tile(s, tid("matcha", 3), "C4")  # recruit 1 (C4), a matcha group of 3
    s, _ = act(s, "discard:E3-s")
    assert s.rabbits == {} and s.box == [11, 13] and s.reserve == [4, 2]
    s, _ = act(s, "end")
    s, _ = play_tile(s, tid("carrot", 3), "C5")  # purple recruits 2 of its 13
    assert s.box[1] == 11 and s.reserve[1] == 4
    check(s)
