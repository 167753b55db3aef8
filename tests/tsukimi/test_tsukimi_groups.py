"""Groups of exactly three (RULINGS TS-6): flavour and value groups discard rival rabbits."""

from __future__ import annotations

from support import assert_illegal
from tsukimi_helpers import GAME, W, act, check, option_ids, play_tile, position, tid

from games.core import Move

# -- TS-6: groups of exactly three --------------------------------------------------------------------------------


def test_ts6_flavour_and_value_both_fire():
    """TS-6 / rulebook: a tile making both a flavour group and a value group discards two rival rabbits."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1), "B2": tid("carrot", 2), "B1": tid("blueberry", 2)}
    s = position(board, purple=("E1-s", "E3-s", "A1-n"))
    s, ev = play_tile(s, tid("matcha", 2), "B3")  # matcha C2-C3-B3 and value 2 B1-B2-B3
    assert [e.data["by"] for e in ev if e.kind == "group"] == ["flavour", "value"]
    assert s.discards_left == 2
    assert "end" not in option_ids(s)  # owed discards come before the turn can end
    s, _ = act(s, "discard:E1-s", "discard:A1-n")
    assert s.rabbits == {"E3-s": 1} and s.box == [0, 2] and "end" in option_ids(s)


def test_ts6_value_five_never_groups():
    """TS-6: two sakura 5 and a third 5 cannot exist; a sakura next to another sakura and a 5 never groups."""
    board = {"C3": tid("sakura", 5, 0), "C4": tid("matcha", 3)}
    s = position(board, purple=("E1-s",))
    s, ev = play_tile(s, tid("sakura", 5, 1), "C2")
    assert not [e for e in ev if e.kind == "group"] and s.discards_left == 0


def test_ts6_connected_set_larger_than_three_no_discard():
    """TS-6: the connected set containing the tile must have exactly 3; joining two pairs makes 5: nothing."""
    board = {"C1": tid("carrot", 0), "C2": tid("carrot", 1), "C4": tid("carrot", 2), "C5": tid("carrot", 3)}
    s = position(board, purple=("E1-s",))
    s, ev = play_tile(s, tid("strawberry", 1), "C3")  # value 1: C2-C3 only -> 2 tiles
    assert not [e for e in ev if e.kind == "group"]
    board = {"C1": tid("carrot", 0), "C2": tid("carrot", 1), "C4": tid("carrot", 2), "C5": tid("matcha", 3)}
    s = position(board, purple=("E1-s",))
    s, ev = play_tile(s, tid("carrot", 3), "C3")  # carrot C1-C2-C3-C4: four
    assert not [e for e in ev if e.kind == "group"]


def test_ts6_group_need_not_be_straight():
    """Rulebook: the three tiles need not be in a line."""
    board = {"C3": tid("blueberry", 0), "C4": tid("blueberry", 1)}
    s = position(board, purple=("E1-s",))
    s, ev = play_tile(s, tid("blueberry", 2), "B3")  # a triangle
    assert [e.data["name"] for e in ev if e.kind == "group"] == ["blueberry"]


def test_ts6_discard_before_or_after_effects():
    """TS-6: the discard may come before or after the tile's effects; discarding first can free a vertex."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1)}
    s = position(board, purple=("C4-n",))
    s, _ = play_tile(s, tid("matcha", 3), "C4")
    assert "place:C4-n" not in option_ids(s)
    first, _ = act(s, "place:C4-s")  # effect first (only one rival rabbit: its discard then follows by itself)
    assert first.rabbits == {"C4-s": 0} and first.box == [0, 1]
    later, _ = act(s, "discard:C4-n", "place:C4-n")
    assert later.rabbits == {"C4-n": 0} and later.turn == 1


def test_ts6_rival_may_discard_any_rabbit_to_box():
    """Discarding a Rival Rabbit: any rival rabbit on the board goes back to the box (light side too)."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1)}
    s = position(board, white=("A1-n",), purple=("E3-s", "A3-n"))
    s, _ = play_tile(s, tid("matcha", 3), "C4")
    assert sorted(o for o in option_ids(s) if o.startswith("discard:")) == ["discard:A3-n", "discard:E3-s"]
    assert_illegal(GAME, s, Move(player=W, option="discard:A1-n"))
    s, ev = act(s, "discard:E3-s")
    assert s.rabbits == {"A1-n": 0, "A3-n": 1} and s.box == [0, 1] and s.reserve == [14, 13]
    assert ev[0].kind == "discard"
    check(s)
