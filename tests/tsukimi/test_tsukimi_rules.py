"""One test (or a few) per rule clause of tsukimi.md and per ruling TS-1..TS-8, C-1..C-4."""

from __future__ import annotations

import random

import pytest
from support import assert_illegal
from tsukimi_helpers import GAME, PLAYERS, P, W, act, check, free_tile, option_ids, play_tile, position, tid

from games.core import Move, force
from games.tsukimi import normalise, rules
from games.tsukimi.board import (
    NEIGHBOURS,
    SPACE_VERTICES,
    SPACES,
    VERTEX_NAMES,
    VERTICES,
    canonical,
    corner_name,
    vertex_label,
)
from games.tsukimi.data import EFFECTS, RECRUIT, TEMPLE, TILES

# -- TS-2: the board -------------------------------------------------------------------------------------------


def test_ts2_board_rows_spaces_vertices():
    """TS-2: rows A-E of 3, 4, 5, 4, 3 spaces, C3 the centre with six neighbours, 54 vertices."""
    assert [sum(1 for s in SPACES if s[0] == r) for r in "ABCDE"] == [3, 4, 5, 4, 3]
    assert len(SPACES) == 19 and len(VERTICES) == 54
    assert NEIGHBOURS["C3"] == ("B2", "B3", "C2", "C4", "D2", "D3")
    assert NEIGHBOURS["A1"] == ("A2", "B1", "B2")
    assert NEIGHBOURS["E3"] == ("D3", "D4", "E2")
    assert sorted(len(NEIGHBOURS[s]) for s in SPACES) == [3] * 6 + [4] * 6 + [6] * 7


def test_ts2_vertex_names_up_to_three():
    """TS-2: C3-n = B2-se = B3-sw; every vertex has 1-3 names; each space has 6 distinct vertices."""
    assert VERTEX_NAMES["C3-n"] == ("C3-n", "B2-se", "B3-sw")
    assert canonical("B2-se") == canonical("b3-SW") == canonical(" C3-n ") == "C3-n"
    assert canonical("C3-x") is None and canonical("Z9-n") is None and canonical("C3") is None
    assert vertex_label("C3-n") == "C3-n (= B2-se = B3-sw)"
    assert corner_name("C3", "D3-n") == "C3-se"
    counts = sorted(len(n) for n in VERTEX_NAMES.values())
    assert counts.count(3) == 24 and counts.count(2) == 12 and counts.count(1) == 18  # 72+24+18 = 114 = 19*6
    for s in SPACES:
        assert len(set(SPACE_VERTICES[s])) == 6


def test_ts2_one_rabbit_per_vertex_aliases_refused():
    """TS-2: a vertex holds at most one rabbit; naming an occupied vertex by another name is refused."""
    s = position({"C3": tid("matcha", 2)}, white=("B2-se",))  # = C3-n
    s, _ = play_tile(s, tid("strawberry", 1), "B3")
    assert "place:C3-n" not in option_ids(s)
    assert_illegal(GAME, s, Move(player=W, option="place:B3-sw"))
    assert_illegal(GAME, s, Move(player=W, option="place:C3-n"))


# -- TS-1 / Setup --------------------------------------------------------------------------------------------------


def test_ts1_light_setup_white_first():
    """TS-1 and Setup: 15 rabbits each in reserve on the light side, none in the box, white (seat 0) first;
    the circle holds the Temple and the 18 mochi tiles."""
    s = GAME.setup(PLAYERS, None, 7)
    assert s.side == "light" and s.reserve == [15, 15] and s.box == [0, 0]
    assert s.turn == 0 and GAME.pending(s)[0].player == W
    assert sorted(s.circle) == list(range(19)) and s.board == {} and s.rabbits == {}
    check(s)


def test_ts1_dark_setup_and_purple_first():
    """TS-1: dark side 3 in reserve, 12 of each colour in the box; the lobby may let purple start."""
    s = GAME.setup(PLAYERS, {"side": "dark", "first": "purple"}, 7)
    assert s.reserve == [3, 3] and s.box == [12, 12]
    assert s.turn == 1 and GAME.pending(s)[0].player == P
    check(s)


def test_ts1_two_players_only():
    with pytest.raises(ValueError):
        GAME.setup(["a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b"], {"side": "grey"}, 1)


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
    """Interpretation (documented in rules_help "effects"): placing 1 or 2 rabbits is one effect, so once a move
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


# -- TS-8 and End of the Game -------------------------------------------------------------------------------------


def test_ts8_most_points_wins():
    """End of the Game: more rabbits around a tile claims it; the most points wins (5 against 3)."""
    board = {"C3": tid("sakura", 5), "C4": tid("matcha", 3)}
    s = position(board, white=("C3-n",), purple=("C4-ne", "C4-se"))
    s.phase = "over"
    r = GAME.result(s)
    assert r.scores == {W: 5, P: 3} and r.winners == [W] and r.ranking == [[W], [P]] and "on points" in r.reason


def _tie_state(reserve):
    board = {"A1": tid("strawberry", 0), "A2": tid("strawberry", 1), "B2": tid("blueberry", 1)}
    s = position(board, white=("A1-n", "A2-n"), purple=("B2-s",), reserve=reserve)
    s.phase = "over"
    return s


def test_ts8_tiles_then_reserve_then_shared():
    """TS-8: points, then most tiles claimed, then most rabbits in reserve; a full tie is a shared win."""
    s = _tie_state((10, 10))  # white: A1 0 + A2 1 = 1 point, 2 tiles; purple: B2 1 point, 1 tile
    st = rules.standings(s)
    assert st.points == (1, 1) and st.tiles == (2, 1)
    r = GAME.result(s)
    assert r.winners == [W] and r.ranking == [[W], [P]] and "most tiles" in r.reason
    s2 = position({"A2": tid("strawberry", 1), "B2": tid("blueberry", 1)}, white=("A2-n",), purple=("B2-s",),
                  reserve=(9, 12))
    s2.phase = "over"
    r2 = GAME.result(s2)
    assert rules.standings(s2).tiles == (1, 1) and r2.winners == [P] and "reserve" in r2.reason
    s3 = s2.model_copy(update={"reserve": [12, 12]})
    r3 = GAME.result(s3)
    assert sorted(r3.winners) == sorted(PLAYERS) and r3.ranking == [PLAYERS] and "share" in r3.reason


def test_end_when_all_eighteen_placed():
    """End of the Game: the game ends when all 18 mochi are placed (after the last turn's effects)."""
    s = GAME.setup(PLAYERS, None, 11)
    rng = random.Random(0)
    turns = 0
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        s = GAME.apply(s, Move(player=d.player, option=rng.choice(d.options).id)).state
        turns += d.kind == "choose_tile"
    assert len(s.board) == 18 and s.phase == "over" and all(t is None or t == TEMPLE for t in s.circle)
    assert GAME.result(s) is not None


# -- C-1 .. C-4 --------------------------------------------------------------------------------------------------


def test_c1_seeded_shuffle_replays_and_can_be_forced():
    """C-1: the circle comes from the seed; the same seed gives the same game; tests can force it."""
    a = GAME.setup(PLAYERS, None, 42)
    b = GAME.setup(PLAYERS, None, 42)
    c = GAME.setup(PLAYERS, None, 43)
    assert a == b and a.circle != c.circle
    order = list(range(19))
    forced = force(a, order)
    assert forced.rng.shuffled(range(19)) == order


def test_c2_player_ids_and_seats():
    """C-2: ids are opaque strings; seat order decides the colours (seat 0 white)."""
    s = GAME.setup(["123", "456"], None, 1)
    d = GAME.pending(s)[0]
    assert d.player == "123" and "{@123}" in d.prompt


def test_c3_single_option_applied_without_asking():
    """C-3: an effects step with nothing to do ends itself, and a lone tile left in the circle is taken without
    asking; the choice of two spaces is asked."""
    board = {sp: t for sp, t in zip(SPACES[:16], range(1, 17), strict=True)}
    s = position(board)
    s.circle = [TEMPLE, 17, 18, *[None] * 16]
    s, _ = act(s, "tile:17")
    out = GAME.apply(s, Move(player=W, option="space:E1"))
    assert [e.kind for e in out.events] == ["place_tile", "end_turn", "take"]
    t = out.state
    assert t.turn == 1 and t.phase == "place" and t.tile == 18 and option_ids(t) == ["space:E2", "space:E3"]
    last, ev = act(t, "space:E3")
    assert last.phase == "over" and [e.kind for e in ev] == ["place_tile", "end_turn", "game_over"]


def test_c4_time_is_an_input_only():
    """C-4: the engine reads no clock; at_ms never changes the outcome."""
    s = GAME.setup(PLAYERS, None, 9)
    o = GAME.pending(s)[0].options[0].id
    a = GAME.apply(s, Move(player=W, option=o, at_ms=0)).state
    b = GAME.apply(s, Move(player=W, option=o, at_ms=10**12)).state
    assert a == b


# -- names and aliases -------------------------------------------------------------------------------------------


def test_aliases_accepted_everywhere():
    """Option ids use the canonical vertex; any of its names (any case) is accepted, and space names any case."""
    assert normalise(" Place:c3-se ") == "place:D3-n"
    assert normalise("to:B2-se") == "to:C3-n" and normalise("space:c3") == "space:C3" and normalise("END") == "end"
    assert normalise("place:nowhere") == "place:nowhere"
    s = position({"C3": tid("matcha", 1)})
    s, _ = play_tile(s, tid("carrot", 1), "C4")
    s2, _ = act(s, "place:C4-sw")  # = C3-se = D3-n
    assert s2.rabbits == {"D3-n": 0}
    labels = [o.label for o in GAME.pending(s)[0].options]
    assert "place a rabbit on C4-sw (= D3-n)" in labels


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


def test_option_labels_show_costs():
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    labels = {o.id: o.label for o in GAME.pending(s)[0].options}
    assert labels["tile:1"] == "strawberry 0 (cost 0)" and labels["tile:9"] == "carrot 0 (cost 8)"


def test_status_and_help():
    s = GAME.setup(PLAYERS, None, 1)
    assert "to play: {@white}" in GAME.status(s)
    assert "" in GAME.rules_help and all(GAME.rules_help.values())
    assert {"tiles", "cost", "groups", "scoring", "dark"} <= set(GAME.rules_help)


def test_free_tile_helper_keeps_circle():
    s = GAME.setup(PLAYERS, None, 1)
    t = tid("matcha", 2)
    s2 = free_tile(s, t)
    assert rules.costs(s2.circle)[t] == 0 and sorted(s2.circle) == sorted(s.circle)


def test_registered_with_simple_options():
    """The registry finds the game; lobby options are simple defaulted choices (TS-1: side, who starts)."""
    import games

    assert games.get("tsukimi") is GAME and GAME.min_players == GAME.max_players == 2
    assert GAME.Options().model_dump() == {"side": "light", "first": "white"}
