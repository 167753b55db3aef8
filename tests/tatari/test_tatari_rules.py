"""One test per rule clause of shared/rules/tatari.md and RULINGS TA-1..TA-10 / C-1, C-3."""

from __future__ import annotations

import pytest
from support import assert_illegal
from test_tatari_cases import act, begin, conserved, decision, ids, position

from games import IllegalMove, Move, force
from games.tatari import GAME, TatariState


@pytest.mark.parametrize(("n", "stash", "box"), [(2, 10, 20), (3, 10, 10), (4, 10, 0), (5, 8, 0)])
def test_TA_1_setup(n, stash, box):
    players = [f"p{i}" for i in range(n)]
    s = GAME.setup(players, None, 5)
    assert s.stashes == {p: stash for p in players}
    assert s.shrines == {"7": 1, "8": 1, "9": 1, "10": 1}
    assert s.box == box and s.current == "p0" and len(s.rolled) == 6
    conserved(s)


@pytest.mark.parametrize("n", [1, 6])
def test_TA_1_player_count(n):
    with pytest.raises(ValueError, match="2-5 players"):
        GAME.setup([f"p{i}" for i in range(n)], None, 1)


def test_first_player_option_random_is_seeded():
    firsts = {GAME.setup(["a", "b", "c"], {"first": "random"}, seed).current for seed in range(30)}
    assert firsts == {"a", "b", "c"}
    assert GAME.setup(["a", "b", "c"], {"first": "random"}, 9).current == GAME.setup(
        ["a", "b", "c"], {"first": "random"}, 9).current


def test_TA_2_faces_add_value_or_count_dolls():
    s = begin(position(), ["1", "2", "3", "4", "doll", "double"], ["1", "2", "3", "4", "doll"])
    assert ids(s) == ["set:1", "set:2", "set:3", "set:4", "set:doll", "set:double"]
    s = act(s, "set:double").state
    assert (s.total, s.dolls) == (0, 2)
    s = act(s, "set:doll").state
    assert (s.total, s.dolls) == (0, 3)


def test_TA_3_all_dice_of_the_face_are_set_aside_and_set_faces_are_not_offered():
    s = begin(position(), ["2", "2", "2", "1", "doll", "3"], ["2", "1", "3"])
    s = act(s, "set:2").state
    assert s.set_aside == ["2", "2", "2"] and s.total == 6
    assert ids(s) == ["set:1", "set:3"]  # the 2 showing again is not offered
    assert_illegal(GAME, s, Move(player="alice", option="set:2"),
                   match=r"^You already set aside 2 this turn: each face is set aside once \(TA-3\)\. Set aside 1 or 3\.$")


def test_TA_3_bust_when_no_new_face_shows():
    s = begin(position((3, 1, 1, 1)), ["4", "1", "2", "2", "3", "3"], ["4", "4", "4", "4", "4"])
    out = act(s, "set:4")
    assert [e.kind for e in out.events][:4] == ["set_aside", "roll", "bust", "take"]
    assert out.state.stashes["alice"] == 10 and out.state.box == (44 - 30 - 6) + 3
    conserved(out.state)


def test_C_3_a_single_new_face_is_set_aside_without_asking():
    s = begin(position(), ["4", "1", "2", "2", "3", "3"], ["4", "1", "4", "4", "4"], ["2", "2", "3", "3"])
    s = act(s, "set:4").state
    assert s.set_aside == ["4", "1"] and s.total == 5 and s.rolled == ["2", "2", "3", "3"]


def test_TA_4_stop_only_from_7():
    s = begin(position(), ["3", "2", "1", "doll", "doll", "4"], ["3", "2", "1", "doll", "doll"])
    s = act(s, "set:4").state
    assert decision(s).kind == "select"  # total 4: rolled again, no Stop
    assert_illegal(GAME, s, Move(player="alice", option="stop"), match="not a choice")
    s = act(s, "set:3").state
    assert ids(s) == ["continue", "stop"]


def test_TA_4_six_dice_set_aside_ends_the_turn_as_a_stop():
    s = begin(position((1, 1, 1, 1), (10, 10, 10)), ["4", "4", "3", "3", "doll", "doll"],
              ["3", "3", "doll", "doll"], ["doll", "doll"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(s, "set:3").state
    assert s.total == 14
    out = act(s, "continue")  # the last two dice show doll, doll: set aside at once (C-3), six dice: a stop
    assert [e.kind for e in out.events][:4] == ["continue", "roll", "set_aside", "stop"]
    assert out.state.stashes["alice"] == 8 and out.state.box == (44 - 30 - 4) + 2


def test_TA_5_put_dolls_limited_by_the_stash():
    s = begin(position((1, 0, 1, 1), (1, 10, 10)), ["4", "4", "double", "double", "doll", "2"])
    s = act(s, "set:4").state
    # total 8 with 0 dolls: continue to pick dolls (the next roll forced here)
    s = force(s, "double", "double", "doll", "2")
    s = act(s, "continue").state
    s = act(s, "set:double").state
    assert (s.total, s.dolls) == (8, 4)
    s = act(s, "stop").state
    assert s.shrines["8"] == 1 and s.stashes["alice"] == 0


def test_TA_5_equal_moves_nothing():
    s = begin(position((1, 2, 1, 1)), ["4", "4", "double", "3", "3", "1"], ["double", "3", "3", "1"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(s, "set:double").state
    assert (s.total, s.dolls) == (8, 2)
    out = act(s, "stop")
    assert out.state.shrines["8"] == 2 and out.state.stashes["alice"] == 10
    assert "nothing moves" in out.events[0].text


def test_TA_6_total_11_plus_limited_by_the_stash():
    s = begin(position((1, 1, 1, 1), (1, 10, 10)), ["4", "4", "3", "double", "2", "2"], ["3", "double", "2", "2"],
              ["double", "2", "2"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(act(s, "set:3").state, "continue").state
    s = act(s, "set:double").state
    box = s.box
    s = act(s, "stop").state
    assert s.stashes["alice"] == 0 and s.box == box + 1


def test_TA_7_gift_once_however_many_ones_and_auto_with_one_recipient():
    s = begin(position((1, 1, 1, 1), (10, 5), ["alice", "bob"]), ["1", "1", "1", "4", "doll", "2"],
              ["4", "doll", "2"])
    s = act(s, "set:1").state
    s = act(s, "set:4").state
    assert s.total == 7
    out = act(s, "stop")
    # shrine 7 holds 1, dolls 0: alice takes 1 (stash 10 -> overflow), then gives one doll to bob (the only other)
    assert [e.kind for e in out.events][:4] == ["stop", "overflow", "give", "roll"]
    assert out.state.stashes == {"alice": 9, "bob": 6}
    conserved(out.state)


def test_TA_7_no_gift_with_an_empty_stash():
    s = begin(position((1, 1, 1, 1), (1, 10, 10)), ["1", "4", "double", "2", "3", "3"], ["4", "double", "2", "3", "3"],
              ["double", "2", "3", "3"], ["2", "3", "3"])
    s = act(s, "set:1").state
    s = act(s, "set:4").state
    s = act(s, "set:double").state
    s = act(s, "set:2").state
    assert (s.total, s.dolls) == (7, 2)
    s = act(s, "stop").state
    assert s.stashes["alice"] == 0 and s.current == "bob"


def test_TA_8_bust_takes_the_single_fullest_without_asking():
    s = begin(position((1, 5, 2, 1)), ["double"] * 6)
    assert s.stashes["alice"] == 10 and s.shrines["8"] == 0 and s.current == "bob"


def test_TA_8_all_shrines_empty_takes_nothing():
    s = begin(position((0, 0, 0, 0), (6, 10, 10)), ["double"] * 6)
    assert s.stashes["alice"] == 6 and s.current == "bob"


def test_TA_9_stash_never_over_10():
    s = begin(position((7, 1, 1, 1), (9, 10, 10)), ["double"] * 6)
    assert s.stashes["alice"] == 10 and s.box == 44 - 29 - 10 + 6
    conserved(s)


def test_TA_10_game_ends_when_a_turn_starts_with_an_empty_stash():
    s = position((1, 1, 1, 1), (1, 0, 10))
    s = begin(s, ["4", "4", "3", "double", "2", "1"], ["3", "double", "2", "1"], ["double", "2", "1"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(act(s, "set:3").state, "continue").state
    s = act(s, "set:double").state
    out = act(s, "stop")
    s = out.state
    assert out.events[-1].kind == "win"
    assert GAME.pending(s) == []
    r = GAME.result(s)
    assert r.winners == ["bob"]
    assert r.ranking == [["bob"], ["alice"], ["carol"]]
    assert r.scores == {"alice": 0, "bob": 0, "carol": 10}


def test_TA_10_a_player_emptied_mid_round_has_not_won_yet():
    s = position((1, 1, 1, 1), (1, 5, 10))
    s = begin(s, ["4", "4", "3", "double", "2", "1"], ["3", "double", "2", "1"], ["double", "2", "1"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(act(s, "set:3").state, "continue").state
    s = act(s, "set:double").state
    s = act(s, "stop").state
    assert s.stashes["alice"] == 0 and GAME.result(s) is None and s.current == "bob"


def test_TA_10_equal_counts_share_a_rank():
    s = position((1, 1, 1, 1), (0, 4, 4)).model_copy(update={"current": "carol"})
    s = GAME.begin_turn(force(s, *["double"] * 6), "carol").state
    s = s.model_copy(update={"stashes": {"alice": 0, "bob": 4, "carol": 4}})
    end = GAME.begin_turn(s, "alice").state
    assert GAME.result(end).ranking == [["alice"], ["bob", "carol"]]


def test_C_1_same_seed_same_game_and_moves_from_the_seed():
    a, b = GAME.setup(["x", "y"], None, 42), GAME.setup(["x", "y"], None, 42)
    assert a == b
    assert GAME.setup(["x", "y"], None, 43).rolled != a.rolled or GAME.setup(["x", "y"], None, 44).rolled != a.rolled


def test_only_the_named_player_may_answer():
    s = begin(position(), ["1", "2", "3", "4", "doll", "double"])
    assert_illegal(GAME, s, Move(player="bob", option="set:4"), match="not your turn")
    assert_illegal(GAME, s, Move(player=None, option="timeout"), match="deadline")


def test_resign_moves_dolls_to_the_box_and_skips_the_player():
    s = begin(position((1, 1, 1, 1), (6, 7, 10)), ["1", "2", "3", "4", "doll", "double"])
    out = GAME.resign(s, "bob")
    assert out.state.out == ["bob"] and out.state.stashes["bob"] == 0
    conserved(out.state)
    s2 = GAME.resign(out.state, "alice").state  # alice resigns in her own turn: carol is left and wins
    assert GAME.result(s2).winners == ["carol"] and GAME.result(s2).ranking == [["carol"], ["bob", "alice"]]
    with pytest.raises(IllegalMove):
        GAME.resign(out.state, "bob")


def test_state_round_trips_exactly():
    s = GAME.setup(["a", "b", "c"], None, 3)
    assert GAME.load_state(s.model_dump_json()) == s
    assert isinstance(GAME.load_state(s.model_dump_json()), TatariState)
