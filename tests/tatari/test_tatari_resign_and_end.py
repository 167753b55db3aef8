"""Resignations and the end of a Tatari game: C-3 after a resignation, the end reason, the ranking of resigned
players, the state after the end (RULINGS TA-7, TA-10, C-3)."""

from __future__ import annotations

import pytest
from test_tatari_cases import act, begin, conserved, ids, position

from games import IllegalMove, Move, force
from games.tatari import GAME


def to_give_phase():
    """Alice (stash 10) sets aside 1, then 2 and 4 (total 7, 0 dolls) and stops: shrine 7 holds 1, she takes it
    (stash 10: the doll overflows), then must give one doll to bob or carol."""
    s = begin(position((1, 1, 1, 1), (10, 6, 7)), ["1", "2", "4", "doll", "double", "3"], ["2", "4", "3", "3", "doll"],
              ["4", "3", "3", "doll"])
    s = act(s, "set:1").state
    s = act(s, "set:2").state
    s = act(s, "set:4").state
    assert (s.total, s.dolls) == (7, 0)
    s = act(s, "stop").state
    assert s.phase == "give" and ids(s) == ["give:bob", "give:carol"]
    return s


def test_C_3_a_resignation_that_leaves_one_recipient_gives_without_asking():
    s = to_give_phase()
    out = GAME.resign(force(s, "double", "double", "1", "2", "3", "4"), "carol")
    kinds = [e.kind for e in out.events]
    assert kinds[:3] == ["resign", "give", "roll"], kinds
    s = out.state
    assert s.stashes == {"alice": 9, "bob": 7, "carol": 0} and s.out == ["carol"]
    assert s.current == "bob" and s.phase == "select" and s.turn_number == 2
    assert out.events[1].text == "{@alice} gives a doll to {@bob}."
    conserved(s)


def test_the_giver_resigning_in_the_give_step_passes_the_box_on():
    s = to_give_phase()
    out = GAME.resign(force(s, "double", "double", "1", "2", "3", "4"), "alice")
    assert [e.kind for e in out.events][:2] == ["resign", "roll"]
    assert out.state.current == "bob" and out.state.stashes == {"alice": 0, "bob": 6, "carol": 7}
    conserved(out.state)
    end = GAME.resign(out.state, "bob")
    assert [e.kind for e in end.events] == ["resign", "win"]
    assert GAME.result(end.state).winners == ["carol"]


def test_the_end_reason_of_a_game_won_by_resignations_says_so_even_with_an_empty_stash():
    s = position((1, 1, 1, 1), (0, 5, 10)).model_copy(update={"current": "bob"})
    s = GAME.begin_turn(force(s, "1", "2", "3", "4", "doll", "double"), "bob").state
    s = GAME.resign(s, "carol").state
    end = GAME.resign(s, "bob").state
    r = GAME.result(end)
    assert r.winners == ["alice"] and r.ranking == [["alice"], ["carol", "bob"]]
    assert r.reason == "{@alice} is the last player left."


def test_the_end_reason_of_a_broken_curse():
    s = position((1, 1, 1, 1), (0, 4, 4)).model_copy(update={"current": "carol"})
    end = GAME.begin_turn(s, "alice").state
    assert GAME.result(end).reason == "{@alice} starts a turn with an empty stash and breaks the curse."


def test_resign_after_the_end_says_the_game_is_over():
    s = position((1, 1, 1, 1), (0, 4, 4)).model_copy(update={"current": "carol"})
    end = GAME.begin_turn(s, "alice").state
    assert GAME.pending(end) == []
    with pytest.raises(IllegalMove) as info:
        GAME.resign(end, "bob")
    assert str(info.value) == "The game is over."
    with pytest.raises(IllegalMove) as info:
        GAME.apply(end, Move(player="bob", option="stop"))
    assert str(info.value) == "The game is over."


def test_status_after_the_end_names_the_winner_not_a_turn():
    s = to_give_phase()
    s = GAME.resign(s, "carol").state
    end = GAME.resign(s, "bob").state  # bob resigns in his own turn: alice is left
    assert end.current == "bob"
    assert GAME.status(end) == "{@alice} wins · shrines 7:0 8:1 9:1 10:1 · stashes {@alice} 9"


def test_a_resigned_player_ranks_last_without_a_score_of_zero():
    s = begin(position((1, 1, 1, 1), (6, 7, 10)), ["1", "2", "3", "4", "doll", "double"])
    s = GAME.resign(s, "carol").state
    s = s.model_copy(update={"stashes": {**s.stashes, "alice": 0}, "current": "bob"})
    end = GAME.begin_turn(s, "alice").state
    r = GAME.result(end)
    assert r.winners == ["alice"] and r.ranking == [["alice"], ["bob"], ["carol"]]
    assert r.scores == {"alice": 0, "bob": 7}


def test_a_resigned_player_is_told_so():
    s = GAME.resign(to_give_phase(), "carol").state
    with pytest.raises(IllegalMove) as info:
        GAME.resign(s, "carol")
    assert str(info.value) == "You have already resigned."
    with pytest.raises(IllegalMove) as info:
        GAME.apply(s, Move(player="carol", option="set:1"))
    assert str(info.value) == "You resigned from this game: wait for the next one."
    with pytest.raises(IllegalMove) as info:
        GAME.resign(s, "mallory")
    assert str(info.value) == "You are not playing in this game."
