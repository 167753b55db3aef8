"""Tile effects as a whole (RULINGS TS-3, TS-9): placing and moving, in either order, never place - move - place."""

from __future__ import annotations

from support import assert_illegal
from tsukimi_helpers import GAME, W, act, check, option_ids, play_tile, position, tid

from games.core import Move


def _carrot0_on_c4():
    """White to use carrot 0 on C4 (place up to 2, move 1), a white rabbit on A1-n, reserve 14."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert s.phase == "effects" and (s.places_left, s.moves_left, s.reserve[0]) == (2, 1, 14)
    return s


def test_ts9_place_then_move_ends_the_placing_effect():
    """TS-9: once the player has moved a rabbit, the placing effect of that tile is over: place - move - place is
    over, and with nothing left the turn ends by itself (C-3) with one rabbit placed and one moved."""
    s, _ = act(_carrot0_on_c4(), "place:C4-n", "move:A1-n")
    assert s.phase == "move_to" and s.placed == 1
    s2, events = act(s, "to:E1-s")
    assert s2.turn == 1 and s2.phase == "choose"
    assert s2.rabbits == {"C4-n": 0, "E1-s": 0} and s2.reserve == [13, 15]
    assert [e.kind for e in events] == ["move", "end_turn"]


def test_ts9_the_placing_refusal_names_the_ruling():
    """TS-9 with TS-6: carrot 0 on C4 makes a carrot group of three (a discard owed keeps the turn open); after
    place - move, a further placement is refused with the TS-9 reason, and only the discard is left."""
    board = {"C2": tid("carrot", 1), "C3": tid("carrot", 3)}
    s = position(board, white=("A1-n",), purple=("E3-s", "A3-n"))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert s.discards_left == 1
    s, _ = act(s, "place:C4-n", "move:A1-n", "to:E1-s")
    assert s.placing_done and s.phase == "effects" and option_ids(s) == ["discard:A3-n", "discard:E3-s"]
    err = assert_illegal(GAME, s, Move(player=W, option="place:C4-s"))
    assert str(err) == (
        "'place:C4-s' is refused: your placing is over: you moved a rabbit after placing (TS-9: an effect is done "
        "as a whole). Choose one of: discard:A3-n, discard:E3-s."
    )


def test_ts9_move_first_then_the_whole_placing_effect():
    """TS-9: the placing effect may come after the move, as a whole: move, then place both rabbits."""
    s, _ = act(_carrot0_on_c4(), "move:A1-n", "to:E1-s")
    assert s.phase == "effects" and not s.placing_done and s.moves_left == 0
    assert [o for o in option_ids(s) if o.startswith("place:")] == [
        "place:C4-n", "place:B4-s", "place:D4-n", "place:C4-s", "place:D3-n", "place:B3-s"]
    s, _ = act(s, "place:C4-n", "place:C4-s")
    assert s.turn == 1 and s.rabbits == {"E1-s": 0, "C4-n": 0, "C4-s": 0} and s.reserve == [12, 15]
    check(s)


def test_ts9_move_then_place_one_then_the_other():
    """TS-9: after the move, the placing effect may be split over two answers (it is still one effect)."""
    s, _ = act(_carrot0_on_c4(), "move:A1-n", "to:E1-s", "place:C4-n")
    assert s.phase == "effects" and s.places_left == 1
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 0 on C4: place 1 rabbit (any order)."
    s, _ = act(s, "place:C4-s")
    assert s.turn == 1 and s.reserve == [12, 15]


def test_ts9_value_two_place_and_move_in_either_order():
    """TS-3, TS-9: carrot 2 (place up to 1, move 1): place then move, or move then place, both end the turn with
    one rabbit placed and one moved."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 2), "C4")
    a, _ = act(s, "place:C4-n", "move:A1-n", "to:E1-s")
    b, _ = act(s, "move:A1-n", "to:E1-s", "place:C4-n")
    assert a.rabbits == b.rabbits == {"C4-n": 0, "E1-s": 0}
    assert a.turn == b.turn == 1 and a.reserve == b.reserve == [13, 15]
