"""Actions (rulebook "2. Carry out 2 actions", FT-3, FT-5, FT-8, case FT-C). Red (seat 0) stands on 2-5."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tataraba_support import GAME, T, act, ids, options, scene

from games import Move


def test_two_actions_then_the_special_step():
    """Two normal actions, any mix (the same twice is fine), then special actions or the end of the turn."""
    s = scene(at=("2-5", "3-9"), phase="action", foot=(0, 1))
    assert GAME.pending(s)[0].prompt.endswith("action 1 of 2.")
    s, events = act(s, "red", "foot")
    assert [e.text for e in events] == ["{@red} takes a Foot marker and now holds 1 Foot marker."]
    assert s.phase == "action" and GAME.pending(s)[0].prompt.endswith("action 2 of 2.")
    s, events = act(s, "red", "foot")
    assert s.seats[0].foot == 2 and events[0].text == "{@red} takes a Foot marker and now holds 2 Foot markers."
    # nothing special is affordable: "end" is the only option and is applied (C-3); blue's turn begins
    assert s.turn == 1 and s.phase == "move"
    assert [e.kind for e in events] == ["foot"]


def test_foot_marker_action_caps_at_four():
    """Rulebook III: with 4 Foot markers the action gives nothing (a skip)."""
    s = scene(at=("2-5", "3-9"), phase="action", foot=(4, 1))
    assert options(s)["foot"] == "Skip (you hold 4 Foot markers)"
    s, events = act(s, "red", "foot")
    assert s.seats[0].foot == 4 and "skips" in events[0].text


def test_planting_on_open_adjacent_tiles_only():
    """Rulebook I, FT-5: a Red Pine or Cedar from your supply, young, on an orthogonally adjacent tile with nothing
    on it: no tree, no Tatara, no Player piece."""
    s = scene({"2-4": "Ea-", "2-6": "T-1", "2-1": ""}, at=("2-5", "2-2"), phase="action")
    s, _ = act(s, "red", "plant")
    assert options(s) == {"pine:2-8": "Red Pine at 2-8", "cedar:2-8": "Cedar at 2-8"}
    s2, events = act(s, "red", "pine:2-8")
    assert s2.tiles[T("2-8")] == "Ry0" and s2.seats[0].pine == 3
    assert events[0].kind == "plant"
    s3, _ = act(s, "red", "cedar:2-8")
    assert s3.tiles[T("2-8")] == "Cy0" and s3.seats[0].cedar == 3  # young, on its "1" side
    for bad in ("pine:2-1", "pine:2-4", "cedar:2-2", "pine:2-6", "oak:2-8", "pine:2-5"):
        assert_illegal(GAME, s, Move(player="red", option=bad))


def test_planting_needs_pieces_in_the_supply():
    s = scene(at=("2-5", "3-9"), phase="action")
    s.seats[0].pine = 0
    s, _ = act(s, "red", "plant")
    assert sorted(ids(s)) == ["cedar:2-2", "cedar:2-4", "cedar:2-6", "cedar:2-8"]
    s = scene(at=("2-5", "3-9"), phase="action")
    s.seats[0].pine = s.seats[0].cedar = 0
    assert "plant" not in ids(s)


@pytest.mark.parametrize(
    ("code", "take", "sen", "mat", "after"),
    [
        ("Ea-", "sen", 1, 0, ""),
        ("Ea-", "mat", 0, 1, ""),
        ("Ra0", "sen", 2, 0, "Ry0"),
        ("Oa0", "sen", 1, 0, "Oy0"),
        ("Ca0", "sen", 1, 0, "Cy0"),
        ("Ca0", "mat", 0, 3, "Cy0"),
    ],
)
def test_logging_yields_and_what_is_left(code, take, sen, mat, after):
    """Lumber chart: Evergreen 1 Sen or 1 material (removed from the game), Red Pine 2 Sen, Oak 1 Sen (both lie
    down young), Cedar 1 Sen or 3 material (young, "1" side). Own trees and Evergreens are free."""
    s = scene({"2-2": code}, at=("2-5", "3-9"), phase="action")
    s, events = act(s, "red", "log")
    if s.phase == "log":
        s, events = act(s, "red", f"{take}:2-2")
    else:  # C-3: a Red Pine or Oak has one yield, applied without asking
        assert code[0] in "RO"
    assert (s.seats[0].sen, s.seats[0].mat) == (sen, mat)
    assert s.tiles[T("2-2")] == after
    assert events[0].kind == "log" and events[0].data["amount"] == sen + mat


def test_logging_choices_listed_per_tree():
    s = scene({"2-2": "Ea-", "2-4": "Ra0", "2-6": "Ca0", "2-8": "Oa0"}, at=("2-5", "3-9"), phase="action")
    s, _ = act(s, "red", "log")
    assert options(s) == {
        "sen:2-2": "an adult Evergreen at 2-2: 1 Sen",
        "mat:2-2": "an adult Evergreen at 2-2: 1 material",
        "sen:2-4": "{@red}'s adult Red Pine at 2-4: 2 Sen",
        "sen:2-6": "{@red}'s adult Cedar at 2-6: 1 Sen",
        "mat:2-6": "{@red}'s adult Cedar at 2-6: 3 material",
        "sen:2-8": "{@red}'s adult Oak at 2-8: 1 Sen",
    }


def test_beeches_young_trees_and_distant_trees_cannot_be_logged():
    s = scene(
        {"2-2": "Ba-", "2-4": "Ry0", "2-6": "C20", "2-8": "By-", "2-1": "Ea-"},
        at=("2-5", "3-9"),
        phase="action",
    )
    assert "log" not in ids(s)
    assert_illegal(GAME, s, Move(player="red", option="log"))


def test_ft_c_logging_another_players_cedar():
    """Case FT-C: red logs blue's adult Cedar next to it: red pays blue 1 Sen first, then takes 1 Sen or 3 material;
    the Cedar lies young on its "1" side (still blue's). With 0 Sen red is not offered that log."""
    s = scene({"2-2": "Ca1"}, at=("2-5", "3-9"), phase="action", sen=(1, 0))
    s, _ = act(s, "red", "log")
    assert options(s) == {
        "sen:2-2": "{@blue}'s adult Cedar at 2-2: 1 Sen, pay {@blue} 1 Sen",
        "mat:2-2": "{@blue}'s adult Cedar at 2-2: 3 material, pay {@blue} 1 Sen",
    }
    s_mat, events = act(s, "red", "mat:2-2")
    assert (s_mat.seats[0].sen, s_mat.seats[0].mat, s_mat.seats[1].sen) == (0, 3, 1)
    assert s_mat.tiles[T("2-2")] == "Cy1"
    assert "pays {@blue} 1 Sen" in events[0].text
    s_sen, _ = act(s, "red", "sen:2-2")
    assert (s_sen.seats[0].sen, s_sen.seats[0].mat, s_sen.seats[1].sen) == (1, 0, 1)
    broke = scene({"2-2": "Ca1"}, at=("2-5", "3-9"), phase="action", sen=(0, 0))
    assert "log" not in ids(broke)


def test_logging_another_players_red_pine_and_oak_pays_the_fee():
    s = scene({"2-2": "Ra1", "2-8": "Oa1"}, at=("2-5", "3-9"), phase="action", sen=(1, 0))
    s, _ = act(s, "red", "log", "sen:2-2")
    assert (s.seats[0].sen, s.seats[1].sen) == (2, 1) and s.tiles[T("2-2")] == "Ry1"
    s, _ = act(s, "red", "log")  # the only log left (C-3), then the turn ends
    assert (s.seats[0].sen, s.seats[1].sen) == (2, 2) and s.tiles[T("2-8")] == "Oy1"
    assert s.turn == 1


def test_ft3_tatara_costs_two_and_two_on_any_open_tile():
    """FT-3, FT-5, FT-8: after the normal actions, a Tatara for 2 Sen and 2 material on any open tile (not only
    adjacent ones; not a tile with a tree, Tatara or Player piece)."""
    s = scene({"1-1": "Ea-"}, at=("2-5", "3-9"), phase="special", sen=(2, 0), mat=(2, 0))
    s.seats[0].tatara = 1  # the first one was placed at setup
    assert options(s) == {"tatara": "Build a Tatara (2 Sen, 2 material)", "end": "End your turn"}
    s, _ = act(s, "red", "tatara")
    b = ids(s)
    assert "tile:1-9" in b and "tile:1-1" not in b and "tile:2-5" not in b and "tile:3-9" not in b
    s, events = act(s, "red", "tile:1-9")
    assert s.tiles[T("1-9")] == "T-0" and (s.seats[0].sen, s.seats[0].mat, s.seats[0].tatara) == (0, 0, 0)
    assert events[0].kind == "tatara"
    # then the turn ends by itself (only "end" is left) and blue plays
    assert s.turn == 1


def test_ft8_second_tatara_gives_three_actions_from_the_next_turn():
    s = scene(at=("2-5", "3-9"), phase="special", sen=(2, 0), mat=(2, 0))
    s.seats[0].tatara = 1
    s, _ = act(s, "red", "tatara", "tile:1-9")
    assert s.turn == 1 and s.actions_per_turn == 2  # blue
    s, _ = act(s, "blue", "tile:3-8", "foot", "foot")
    assert s.round == 2
    # the round ended (seat 0 started): blue starts round 2; then red's turn has 3 actions
    assert s.start == 1 and s.turn == 1
    s, _ = act(s, "blue", "tile:3-9", "foot", "foot")
    assert s.turn == 0 and s.actions_per_turn == 3
    s, _ = act(s, "red", ids(s)[0], "foot", "foot")
    assert s.phase == "action" and GAME.pending(s)[0].prompt.endswith("action 3 of 3.")


def test_ft3_eidai_costs_ten_and_ten():
    """FT-3: the Eidai Tatara costs 10 Sen and 10 material (9/10 or 10/9 is not enough)."""
    for sen, mat, offered in ((10, 10, True), (9, 10, False), (10, 9, False)):
        s = scene(at=("2-5", "3-9"), phase="special", sen=(sen, 0), mat=(mat, 0))
        s.seats[0].tatara = 0
        assert ("eidai" in ids(s)) is offered
    s = scene(at=("2-5", "3-9"), phase="special", sen=(10, 0), mat=(11, 0))
    s.seats[0].tatara = 0
    s, events = act(s, "red", "eidai", "tile:1-1")
    assert s.tiles[T("1-1")] == "X-0" and (s.seats[0].sen, s.seats[0].mat, s.seats[0].eidai) == (0, 1, 0)
    assert events[0].kind == "eidai"


def test_ft8_both_special_actions_in_one_turn_each_once_per_game():
    s = scene(at=("2-5", "3-9"), phase="special", sen=(14, 0), mat=(14, 0))
    s.seats[0].tatara = 1
    assert ids(s) == ["tatara", "eidai", "end"]
    s, _ = act(s, "red", "tatara", "tile:1-1")
    assert ids(s) == ["eidai", "end"]
    s, _ = act(s, "red", "eidai", "tile:1-2")
    assert (s.seats[0].sen, s.seats[0].mat) == (2, 2) and s.turn == 1
    # never again: red's supply is empty
    assert s.seats[0].tatara == 0 and s.seats[0].eidai == 0


def test_ft8_special_actions_only_after_the_normal_actions():
    s = scene(at=("2-5", "3-9"), phase="action", sen=(12, 0), mat=(12, 0))
    assert "tatara" not in ids(s) and "eidai" not in ids(s)
    assert_illegal(GAME, s, Move(player="red", option="tatara"))


def test_c3_only_foot_left_is_applied():
    """C-3: nothing to plant or log -> the Foot marker action is the only one and is taken without asking."""
    s = scene(
        {k: "Ba-" for k in ("2-2", "2-4", "2-6", "2-8")}, at=("3-9", "1-1"), phase="special", foot=(1, 1)
    )
    s.seats[1].pos = T("2-5")
    s.seats[1].foot = 0
    # blue is stuck among adult Beeches with no Foot marker: stays, takes a marker (only option), then has to choose
    s, events = act(s, "red", "end")
    assert [e.kind for e in events][:3] == ["stuck", "foot", "foot"]
    assert s.seats[1].foot == 2


def test_logged_evergreen_tile_is_like_any_other():
    """Rulebook (2): once its Evergreen is logged, a tile is treated like any other — here planted at once."""
    s = scene({"2-2": "Ea-", "2-4": "Ba-", "2-6": "Ba-", "2-8": "Ba-"}, at=("2-5", "3-9"), phase="action")
    s, _ = act(s, "red", "log", "mat:2-2", "plant", "pine:2-2")
    assert s.tiles[T("2-2")] == "Ry0" and s.seats[0].mat == 1


def test_logging_your_own_tree_says_their_own():
    """Rulebook "II. Logging": logging your own tree pays nothing; the event says "their own adult
    Cedar", never the logger's name twice."""
    s = scene({"2-2": "Ca0"}, at=("2-5", "3-9"), phase="action")
    s, _ = act(s, "red", "log")
    s, events = act(s, "red", "mat:2-2")
    assert events[0].text == "{@red} logs their own adult Cedar at 2-2 and takes 3 building material."
    assert (s.seats[0].sen, s.seats[0].mat) == (0, 3)
