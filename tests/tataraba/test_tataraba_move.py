"""Movement (rulebook "1. Moving", RULINGS FT-4, case FT-B). Default 2-player layout: boards 1-2-3 in a row."""

from __future__ import annotations

from support import assert_illegal
from tataraba_support import GAME, T, act, options, scene

from games import Move
from games.tataraba import rules


def test_ft4_base_move_one_or_two_steps_free_and_never_the_start():
    """1 or 2 steps for free; the start tile is never a destination."""
    s = scene(at=("1-1", "3-9"), foot=(0, 1))
    assert options(s) == {
        "tile:1-2": "1-2 (free)",
        "tile:1-3": "1-3 (free)",
        "tile:1-4": "1-4 (free)",
        "tile:1-5": "1-5 (free)",
        "tile:1-7": "1-7 (free)",
    }
    assert GAME.pending(s)[0].kind == "move" and GAME.pending(s)[0].player == "red"


def test_ft4_foot_markers_add_steps_and_are_spent():
    """+1 step per Foot marker; each option names the markers it costs; moving spends exactly that many."""
    s = scene(at=("1-1", "3-9"), foot=(2, 1))
    opts = options(s)
    assert opts["tile:1-6"] == "1-6 (1 Foot marker)"
    assert opts["tile:2-1"] == "2-1 (1 Foot marker)"
    assert opts["tile:2-2"] == "2-2 (2 Foot markers)"
    assert "tile:2-3" not in opts  # 5 steps
    s2, events = act(s, "red", "tile:2-2")
    assert s2.seats[0].pos == T("2-2") and s2.seats[0].foot == 0
    assert events[0].kind == "move" and events[0].data["foot"] == 2
    s3, _ = act(s, "red", "tile:1-2")
    assert s3.seats[0].foot == 2


def test_ft4_at_most_four_foot_markers():
    """Up to 4 Foot markers a turn (and a player never holds more): 6 steps at most."""
    s = scene(at=("1-1", "3-9"), foot=(4, 1))
    opts = options(s)
    assert opts["tile:2-4"] == "2-4 (2 Foot markers)"
    assert opts["tile:2-6"] == "2-6 (4 Foot markers)"
    assert opts["tile:3-1"] == "3-1 (4 Foot markers)"
    assert "tile:2-9" not in opts and "tile:3-2" not in opts  # 7 steps


def test_ft_b_adult_tree_costs_two_and_cannot_be_the_end():
    """Case FT-B: the only way east from 1-1 along the top row is 1-2 with an adult tree, beyond it the empty 1-3.
    With the base 2 steps 1-3 cannot be reached (entering 1-2 costs 2, the move cannot end there); with one Foot
    marker (3 steps) it can."""
    s = scene({"1-2": "Ra1"}, at=("1-1", "3-9"), foot=(0, 1))
    opts = options(s)
    assert "tile:1-2" not in opts and "tile:1-3" not in opts
    s = scene({"1-2": "Ra1"}, at=("1-1", "3-9"), foot=(1, 1))
    opts = options(s)
    assert opts["tile:1-3"] == "1-3 (1 Foot marker)"
    assert "tile:1-2" not in opts
    s, _ = act(s, "red", "tile:1-3")
    assert s.seats[0].pos == T("1-3") and s.seats[0].foot == 0


def test_ft4_every_adult_tree_kind_costs_two():
    """Evergreens and adult Beeches stand too; a Cedar on its "2" side is still young."""
    for code in ("Ea-", "Ba-", "Oa0", "Ca1"):
        assert "tile:1-3" not in options(scene({"1-2": code}, at=("1-1", "3-9"), foot=(0, 1)))
    opts = options(scene({"1-2": "C21"}, at=("1-1", "3-9"), foot=(0, 1)))
    assert opts["tile:1-2"] == "1-2 (free)" and opts["tile:1-3"] == "1-3 (free)"


def test_ft4_young_tree_costs_one_and_may_be_the_end():
    opts = options(scene({"1-2": "Ry1", "1-4": "By-"}, at=("1-1", "3-9"), foot=(0, 1)))
    assert (
        opts["tile:1-2"] == "1-2 (free)"
        and opts["tile:1-3"] == "1-3 (free)"
        and opts["tile:1-7"] == "1-7 (free)"
    )


def test_ft4_other_player_pieces_can_be_passed_not_ended_on():
    opts = options(scene(at=("1-1", "1-2"), foot=(0, 1)))
    assert "tile:1-2" not in opts and opts["tile:1-3"] == "1-3 (free)"


def test_ft4_other_players_tataras_block_own_tataras_are_free():
    """Another player's Tatara can be neither entered nor passed (1-3 then needs the 4-step detour, 2 Foot
    markers); your own Tatara can be passed and ended on."""
    s = scene({"1-2": "T-1"}, at=("1-1", "3-9"), foot=(2, 1))
    opts = options(s)
    assert "tile:1-2" not in opts and opts["tile:1-3"] == "1-3 (2 Foot markers)"
    s = scene({"1-2": "X-1"}, at=("1-1", "3-9"), foot=(0, 1))
    assert "tile:1-2" not in options(s) and "tile:1-3" not in options(s)
    opts = options(scene({"1-2": "T-0"}, at=("1-1", "3-9"), foot=(0, 1)))
    assert opts["tile:1-2"] == "1-2 (free)" and opts["tile:1-3"] == "1-3 (free)"
    opts = options(scene({"1-2": "X-0"}, at=("1-1", "3-9"), foot=(0, 1)))
    assert opts["tile:1-2"] == "1-2 (free)"


def test_stuck_among_adult_trees_stays_when_foot_markers_cannot_help():
    """Rulebook: stuck among adult trees you do not have to move — the turn goes straight to the actions."""
    s = scene({"1-2": "Ea-", "1-4": "Ba-"}, at=("1-1", "3-9"), foot=(0, 1))
    assert s.phase == "action" and s.seats[0].pos == T("1-1")
    assert GAME.pending(s)[0].kind == "action"


def test_stuck_among_adult_trees_must_use_foot_markers_when_they_help():
    """... but if a Foot marker lets you move, you must: every option then costs one."""
    s = scene({"1-2": "Ea-", "1-4": "Ba-"}, at=("1-1", "3-9"), foot=(1, 1))
    opts = options(s)
    assert s.phase == "move"
    assert opts == {
        "tile:1-3": "1-3 (1 Foot marker)",
        "tile:1-5": "1-5 (1 Foot marker)",
        "tile:1-7": "1-7 (1 Foot marker)",
    }


def test_stuck_among_other_players_tataras_may_pass_through_them():
    """Rulebook exception, RULINGS FT-10: walled in by other players' Tataras you may pass through one of them onto
    an open tile beyond, and that pass counts as 1 step; the second step follows as usual (1-6, 1-8, 2-1), but no
    second Tatara may be passed and the Tatara itself is never an end."""
    s = scene({"1-2": "T-1", "1-4": "T-1"}, at=("1-1", "3-9"), foot=(0, 1))
    assert options(s) == {
        "tile:1-3": "1-3 (free)",
        "tile:1-5": "1-5 (free)",
        "tile:1-6": "1-6 (free)",
        "tile:1-7": "1-7 (free)",
        "tile:1-8": "1-8 (free)",
        "tile:2-1": "2-1 (free)",
    }
    s, _ = act(s, "red", "tile:2-1")
    assert s.seats[0].pos == T("2-1") and s.seats[0].foot == 0 and s.phase == "action"


def test_stuck_pass_through_a_tatara_then_foot_markers_as_usual():
    """RULINGS FT-10: after the 1-step pass the rest of the move may spend Foot markers as usual: 1 marker reaches
    1-9, 2-2 and 2-4 (3 steps), and the marker is spent."""
    s = scene({"1-2": "T-1", "1-4": "T-1"}, at=("1-1", "3-9"), foot=(1, 1))
    opts = options(s)
    assert opts["tile:1-9"] == "1-9 (1 Foot marker)"
    assert opts["tile:2-2"] == "2-2 (1 Foot marker)" and opts["tile:2-4"] == "2-4 (1 Foot marker)"
    assert len(opts) == 9
    s, events = act(s, "red", "tile:1-9")
    assert s.seats[0].pos == T("1-9") and s.seats[0].foot == 0
    assert events[0].text == "{@red} moves to 1-9, spending 1 Foot marker."


def test_stuck_pass_lands_only_on_an_open_tile_beyond():
    """RULINGS FT-10: the tile beyond the Tatara must be one a move could end on: not an adult tree, not another
    Player piece; from there the usual rules (an adult tree costs 2) apply. Here the only open tile beyond is 1-5."""
    s = scene({"1-2": "T-1", "1-4": "T-1", "1-3": "Ea-", "1-7": "Ea-"}, at=("1-1", "1-5"), foot=(0, 1))
    assert rules.destinations(s, 0) == {}  # 1-5 holds blue's piece: nothing to land on, red stays
    assert s.phase == "action" and s.seats[0].pos == T("1-1")
    s = scene({"1-2": "T-1", "1-4": "T-1", "1-3": "Ea-", "1-7": "Ea-"}, at=("1-1", "3-9"), foot=(0, 1))
    assert options(s) == {"tile:1-5": "1-5 (free)", "tile:1-6": "1-6 (free)", "tile:1-8": "1-8 (free)"}


def test_ft11_walled_in_by_a_tatara_and_an_adult_tree_the_pass_is_offered_beside_foot_marker_moves():
    """RULINGS FT-11: red at 1-1 is walled in by blue's Tatara (1-2) and an adult Beech (1-4): no step is possible
    without Foot markers. Holding one, red may still pass through the Tatara (FT-10: 1-3 and 1-5 free, then one more
    step) beside the moves over the Beech that spend the marker; 1-5, reachable both ways, costs nothing."""
    walled = {"1-2": "T-1", "1-4": "Ba-"}
    s = scene(walled, at=("1-1", "3-9"), foot=(1, 1))
    assert options(s) == {
        "tile:1-3": "1-3 (free)", "tile:1-5": "1-5 (free)", "tile:1-6": "1-6 (free)", "tile:1-8": "1-8 (free)",
        "tile:2-1": "2-1 (free)",
        "tile:1-7": "1-7 (1 Foot marker)", "tile:1-9": "1-9 (1 Foot marker)", "tile:2-2": "2-2 (1 Foot marker)",
        "tile:2-4": "2-4 (1 Foot marker)",
    }
    moved, events = act(s, "red", "tile:1-5")
    assert moved.seats[0].pos == T("1-5") and moved.seats[0].foot == 1 and events[0].data["foot"] == 0
    moved, events = act(s, "red", "tile:1-7")
    assert moved.seats[0].pos == T("1-7") and moved.seats[0].foot == 0 and events[0].data["foot"] == 1
    # without Foot markers the same wall offers the pass alone (FT-10, FT-11)
    assert options(scene(walled, at=("1-1", "3-9"), foot=(0, 1))) == {
        "tile:1-3": "1-3 (free)", "tile:1-5": "1-5 (free)", "tile:1-6": "1-6 (free)", "tile:1-8": "1-8 (free)",
        "tile:2-1": "2-1 (free)"}


def test_ft11_the_player_stays_only_when_neither_the_pass_nor_foot_markers_move_the_piece():
    """RULINGS FT-11: the move is a must while either way exists; among adult trees alone with no marker that helps
    (and no Tatara to pass) the piece stays (the rulebook's "you don't have to move")."""
    s = scene({"1-2": "Ba-", "1-4": "Ba-", "1-5": "Ba-"}, at=("1-1", "3-9"), foot=(0, 1))
    assert rules.destinations(s, 0) == {}
    s = scene({"1-2": "T-1", "1-4": "Ba-", "1-3": "Ba-", "1-5": "Ba-"}, at=("1-1", "3-9"), foot=(0, 1))
    assert rules.destinations(s, 0) == {}  # the tiles beyond the Tatara are adult trees: nothing to land on
    s.seats[0].foot = 2
    assert rules.destinations(s, 0) != {}  # two markers carry the piece over the Beeches: it must move


def test_tatara_exception_only_when_stuck():
    """With any ordinary move available the Tataras still block."""
    s = scene({"1-2": "T-1"}, at=("1-1", "3-9"), foot=(0, 1))
    assert "tile:1-3" not in options(s)


def test_piece_on_a_tile_whose_tree_grew_moves_off_normally():
    """Rulebook: a piece on a young tree that became adult is not moved out; it moves off on its next turn."""
    s = scene({"1-1": "Ra0"}, at=("1-1", "3-9"), foot=(0, 1))
    opts = options(s)
    assert "tile:1-1" not in opts and opts["tile:1-2"] == "1-2 (free)"


def test_c3_single_destination_applied_without_asking():
    """C-3: one reachable tile -> the engine moves there itself (here as part of the previous player's move)."""
    s = scene({"1-2": "Ea-", "1-5": "Ea-", "1-7": "Ea-"}, at=("3-9", "1-1"), foot=(0, 0), phase="special")
    # blue at 1-1: only 1-4 is reachable (1-2 adult, 1-4 then 1-5 / 1-7 adult)
    s, events = act(s, "red", "end")
    assert s.seats[1].pos == T("1-4")
    assert [e.kind for e in events][:1] == ["move"] and s.phase == "action"


def test_illegal_moves_refused():
    s = scene({"1-2": "Ra1"}, at=("1-1", "3-9"), foot=(0, 1))
    for bad in ("tile:1-2", "tile:1-1", "tile:1-3", "tile:9-9", "tile:", "plant", "tile:3-9"):
        assert_illegal(GAME, s, Move(player="red", option=bad))
    assert_illegal(GAME, s, Move(player="blue", option="tile:1-4"))
