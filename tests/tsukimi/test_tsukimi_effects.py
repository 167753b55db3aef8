"""Tiles and their effects (RULINGS TS-3, TS-9): placing and moving, optional, in either order, never
place - move - place."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tsukimi_helpers import GAME, W, act, check, option_ids, play_tile, position, tid

from games.core import Move
from games.tsukimi.board import SPACE_VERTICES, canonical
from games.tsukimi.data import EFFECTS, TILES

# -- TS-3: tiles and effects ---------------------------------------------------------------------------------------


def test_ts3_tile_set():
    """TS-3: four flavours with values 0-3 each, sakura 5 twice; 18 mochi."""
    assert len(TILES) == 18
    for flavour in ("strawberry", "blueberry", "carrot", "matcha"):
        assert sorted(t.value for t in TILES.values() if t.flavour == flavour) == [0, 1, 2, 3]
    assert [t.value for t in TILES.values() if t.flavour == "sakura"] == [5, 5]
    assert EFFECTS == {0: (2, 1), 1: (2, 0), 2: (1, 1), 3: (1, 0), 5: (0, 1)}


@pytest.mark.parametrize("value,places,moves", [(0, 2, 1), (1, 2, 0), (2, 1, 1), (3, 1, 0)])
def test_ts3_effects_by_value(value, places, moves):
    """TS-3: value 0 places up to 2 and moves 1; 1 places up to 2; 2 places 1 and moves 1; 3 places 1."""
    s = position({"C3": tid("sakura", 5)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", value), "C4")
    placed = 0
    while any(o.startswith("place:") for o in option_ids(s)):
        s, _ = act(s, next(o for o in option_ids(s) if o.startswith("place:")))
        placed += 1
    assert placed == places
    if moves:
        assert "move:A1-n" in option_ids(s)
        s, _ = act(s, "move:A1-n", "to:E3-s")
        assert s.rabbits.get("E3-s") == 0 and "A1-n" not in s.rabbits
    # nothing left: the turn ended by itself (C-3)
    assert s.phase == "choose" and s.turn == 1
    check(s)


def test_ts3_sakura_moves_only():
    """TS-3: sakura 5 only moves one rabbit (no placing)."""
    s = position({"C3": tid("matcha", 1)}, white=("C3-n",))
    s, _ = play_tile(s, tid("sakura", 5), "C4")
    assert option_ids(s) == ["move:C3-n", "end"]


def test_effects_optional_and_any_order():
    """Rulebook "Applying a Mochi Tile Effect" / TS-3: effects are optional (end at once) and may come in any
    order: moving first keeps both placements."""
    base = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(base, tid("carrot", 0), "C4")
    ended, _ = act(s, "end")
    assert ended.rabbits == s.rabbits and ended.reserve == s.reserve and ended.turn == 1
    s2, _ = act(s, "move:A1-n", "to:E1-s", "place:C4-n", "place:C4-s")
    assert s2.rabbits == {"E1-s": 0, "C4-n": 0, "C4-s": 0} and s2.reserve[0] == 14 - 2
    assert s2.turn == 1


def test_move_closes_placing():
    """RULINGS TS-9 (documented in rules_help "effects"): placing 1 or 2 rabbits is one effect, so once a move
    follows a placement the placing is over."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    s, _ = act(s, "place:C4-n", "move:A1-n", "to:E1-s")
    assert s.turn == 1 and s.reserve[0] == 13  # 14 - 1 placed; the second placement lapsed
    check(s)


def test_move_to_any_empty_vertex_and_back():
    """Moving: any own rabbit already on the board, to any empty vertex; 'back' cancels the choice."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",), purple=("E3-s",))
    s, _ = play_tile(s, tid("sakura", 5), "C4")
    assert option_ids(s) == ["move:A1-n", "end"]
    s1, _ = act(s, "move:A1-n")
    ids = option_ids(s1)
    assert "to:E3-s" not in ids and "to:A1-n" not in ids and len(ids) == 54 - 2 + 1 and ids[-1] == "back"
    assert_illegal(GAME, s1, Move(player=W, option="to:E3-s"))
    back, _ = act(s1, "back")
    assert back.phase == "effects" and back.moves_left == 1 and option_ids(back) == ["move:A1-n", "end"]


def test_move_the_rabbit_placed_this_turn():
    """Moving: "You may use this effect to move the Rabbit you placed this turn"."""
    s = position({"C3": tid("matcha", 1)})
    s, _ = play_tile(s, tid("carrot", 2), "C4")
    s, _ = act(s, "place:C4-n")
    assert option_ids(s) == ["move:C4-n", "end"]
    s, _ = act(s, "move:C4-n", "to:A1-n")
    assert s.rabbits == {"A1-n": 0}


def test_place_only_around_new_tile_and_needs_reserve():
    """Placing Rabbits: only on empty vertices of the space just filled, from the reserve; an empty reserve
    cannot place."""
    s = position({"C3": tid("matcha", 1)}, white=("C3-ne",))
    s2, _ = play_tile(s, tid("carrot", 1), "C4")
    ids = [o for o in option_ids(s2) if o.startswith("place:")]
    assert sorted(ids) == sorted(f"place:{v}" for v in SPACE_VERTICES["C4"] if v != "C3-ne" and v != canonical("C3-ne"))
    assert len(ids) == 5
    assert_illegal(GAME, s2, Move(player=W, option="place:A1-n"))
    empty = position({"C3": tid("matcha", 1)}, white=("C3-ne",), reserve=(0, 15))
    s3, _ = play_tile(empty, tid("carrot", 1), "C4")
    assert s3.turn == 1  # nothing to do: the turn ended by itself


def test_no_vertex_available_cannot_place():
    """Placing Rabbits: "If ... no vertices are available, you cannot perform this action"."""
    s = position({"C3": tid("matcha", 1)}, white=("C4-n", "C4-ne"), purple=("C4-se", "C4-s", "C4-sw", "C4-nw"))
    s, _ = play_tile(s, tid("carrot", 1), "C4")
    assert s.turn == 1  # nothing to place, no move on a value-1 tile: the turn ended by itself (C-3)


# -- TS-9: an effect is done as a whole ------------------------------------------------------------------------


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
        "as a whole). Choose one of: discard {@purple}'s rabbit on A3-n; discard {@purple}'s rabbit on E3-s."
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
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 0 on C4: place 1 rabbit."
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
