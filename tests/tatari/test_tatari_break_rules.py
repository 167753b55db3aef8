"""Defects found by attacking the Tatari engine: C-3 after a resignation, the end reason, and the texts."""

from __future__ import annotations

import pytest
from test_tatari_cases import act, begin, conserved, decision, ids, position

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


def test_texts_count_one_doll_in_the_singular():
    # total 11 with one doll, stash 10: "1 doll to the Shrine box", in the label and in the event
    s = begin(position(), ["4", "4", "3", "doll", "2", "2"], ["3", "doll", "2", "2"], ["doll", "2", "2"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(act(s, "set:3").state, "continue").state
    s = act(s, "set:doll").state
    assert (s.total, s.dolls) == (11, 1)
    assert decision(s).options[1].label == "Stop: 1 doll to the Shrine box"
    out = act(s, "stop")
    assert out.events[0].text == "{@alice} stops at 11: 1 doll to the Shrine box."
    # a bust with a tie over shrines of one doll each: labels and the take event
    s = begin(position((1, 1, 1, 1)), ["double"] * 6)
    # alice holds 10: the label warns that the doll goes on to the Shrine box (TA-9)
    assert [o.label for o in decision(s).options] == [
        f"Shrine {t} (1 doll; 1 to the Shrine box: you can hold only 10)" for t in (7, 8, 9, 10)
    ]
    out = act(s, "shrine:9")
    assert out.events[0].text == "{@alice} takes 1 doll from shrine 9."


def test_gift_labels_count_dolls():
    s = to_give_phase()
    s = s.model_copy(update={"stashes": {**s.stashes, "bob": 1}})
    assert [o.label for o in decision(s).options] == ["{@bob} (1 doll)", "{@carol} (7 dolls)"]


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


def test_continue_with_one_die_left_says_die():
    s = begin(position(), ["4", "4", "3", "double", "2", "1"], ["3", "double", "2", "1"], ["double", "2", "1"],
              ["2", "1"])
    s = act(s, "set:4").state
    assert decision(s).options[0].label == "Continue (roll 4 dice)"
    s = act(act(s, "continue").state, "set:3").state
    s = act(act(s, "continue").state, "set:double").state
    assert decision(s).options[0].label == "Continue (roll 2 dice)"
    s = act(act(s, "continue").state, "set:2").state
    assert s.set_aside == ["4", "4", "3", "double", "2"]
    assert decision(s).options[0].label == "Continue (roll 1 die)"


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
