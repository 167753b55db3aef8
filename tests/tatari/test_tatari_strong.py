"""The strong Tatari AI's exact turn: expectimax over the dice (TA-3..TA-9) valued by a fitted
chance of winning at the turn's end. Deterministic, never timed."""

from __future__ import annotations

import math
import random

import games
from games import Move, Rng
from games.ai import Budget, choose
from games.tatari.ai import END_WEIGHTS, TurnSolver, candidates, end_value, greedy_choice, rolls
from games.tatari.state import TatariState


def _state(stashes, shrines, set_aside, rolled, phase):
    players = list(stashes)
    return TatariState(players=players, rng=Rng(seed=3), stashes=dict(stashes),
                       shrines={str(k): v for k, v in zip((7, 8, 9, 10), shrines, strict=True)},
                       box=44 - sum(stashes.values()) - sum(shrines),
                       current=players[0], phase=phase, set_aside=list(set_aside), rolled=list(rolled))


def test_rolls_list_every_outcome_of_k_dice_with_its_chance():
    """TA-2: six equally likely faces; k dice give C(k+5, 5) outcomes whose chances sum to 1."""
    assert rolls(1) == tuple((1 / 6, tuple(1 if i == f else 0 for i in range(6))) for f in range(6))
    two = dict((counts, p) for p, counts in rolls(2))
    assert len(two) == 21
    assert two[(2, 0, 0, 0, 0, 0)] == 1 / 36
    assert two[(1, 1, 0, 0, 0, 0)] == 2 / 36
    for k in range(1, 7):
        assert len(rolls(k)) == math.comb(k + 5, 5)
        assert math.isclose(sum(p for p, _ in rolls(k)), 1.0)


def test_end_value_is_the_fitted_chance_and_zero_once_the_mover_has_won():
    """TA-10: the player to start a turn with an empty stash wins, so the one who just ended theirs has no chance;
    otherwise the logistic value of the stashes and shrines."""
    shrines = {"7": 2, "8": 0, "9": 1, "10": 1}
    assert end_value({"a": 3, "b": 0}, shrines, mover="b", other="a") == 0.0
    x = END_WEIGHTS["bias"] + END_WEIGHTS["me_3"] + END_WEIGHTS["opp_5"] + 2 * END_WEIGHTS["most"] + 4 * END_WEIGHTS["sum"]
    assert end_value({"a": 3, "b": 5}, shrines, mover="b", other="a") == 1 / (1 + math.exp(-x))
    assert round(end_value({"a": 3, "b": 5}, shrines, mover="b", other="a"), 4) == 0.5543
    # fewer dolls is better for the player who just moved, more is better for the opponent
    assert end_value({"a": 1, "b": 5}, shrines, "b", "a") > end_value({"a": 3, "b": 5}, shrines, "b", "a")
    assert end_value({"a": 3, "b": 8}, shrines, "b", "a") > end_value({"a": 3, "b": 5}, shrines, "b", "a")


def test_stop_values_match_the_engine_stop():
    """TA-5, TA-6, TA-7, TA-9: the solver's stop leaves the position the engine's stop leaves (put dolls on the
    shrine, take the surplus back capped at 10, 11+ to the box, a set-aside 1 gives the opponent a doll)."""
    game = games.get("tatari")
    cases = [
        ({"a": 4, "b": 6}, (1, 0, 1, 1), ["4", "3", "double"]),      # 7, 2 dolls on a shrine of 1: put 1
        ({"a": 9, "b": 6}, (5, 0, 1, 1), ["4", "3", "doll"]),        # 7, 1 doll on a shrine of 5: take 4, cap 10
        ({"a": 4, "b": 6}, (1, 3, 1, 1), ["4", "3", "1", "double"]),  # 8, 2 dolls on a shrine of 3: take 1, give 1
        ({"a": 2, "b": 10}, (1, 1, 1, 1), ["4", "3", "2", "1", "double"]),  # 10 with a 1: put 1, gift capped at 10
        ({"a": 3, "b": 6}, (1, 1, 1, 1), ["4", "3", "2", "doll", "double"]),  # 9, 3 dolls on a shrine of 1: put 2
        ({"a": 2, "b": 6}, (1, 1, 1, 1), ["4", "3", "2", "1", "double", "doll"]),  # all six, 10: stop at once
    ]
    for stashes, shrines, aside in cases:
        state = _state(stashes, shrines, aside[:-1], [aside[-1]], "select")
        after = game.apply(state, Move(player="a", option=f"set:{aside[-1]}")).state
        if after.phase == "fate":
            after = game.apply(after, Move(player="a", option="stop")).state
        solver = TurnSolver(state)
        total = sum({"1": 1, "2": 2, "3": 3, "4": 4}.get(f, 0) for f in aside)
        dolls = sum({"doll": 1, "double": 2}.get(f, 0) for f in aside)
        assert after.current == "b"
        expected = end_value(after.stashes, after.shrines, "b", "a")
        assert solver.stop_value(total, dolls, "1" in aside) == expected, (stashes, shrines, aside)


def test_bust_value_takes_the_fullest_shrine_capped_at_ten():
    """TA-8, TA-9: a bust takes every doll of the fullest shrine; past 10 they go to the Shrine box."""
    state = _state({"a": 8, "b": 6}, (1, 4, 2, 0), ["4", "3"], ["4"], "select")
    assert TurnSolver(state).bust_value() == end_value({"a": 10, "b": 6}, {"7": 1, "8": 0, "9": 2, "10": 0}, "b", "a")


def test_strong_sets_aside_the_dolls_that_empty_its_stash():
    """TA-3, TA-5: total 7 with two dolls in stash and shrine 7 empty: setting aside the double-doll lets the stop
    put both last dolls on shrine 7; a 2 would make 9 with no dolls (nothing to put)."""
    game = games.get("tatari")
    state = _state({"a": 2, "b": 9}, (0, 1, 1, 1), ["4", "3"], ["double", "2", "2", "1"], "select")
    d = game.pending(state)[0]
    assert {o.id for o in d.options} == {"set:double", "set:2", "set:1"}
    assert candidates(state, d, random.Random(0)) == ["set:double"]
    assert choose(game, state, d, "a", "strong", random.Random(0), Budget(iterations=30)) == "set:double"


def test_strong_rolls_on_rather_than_take_a_full_shrine_back():
    """TA-5: total 7 with no dolls and shrine 7 holding 5: stopping would take 5 dolls back (stash 10); strong
    rolls the four dice left on."""
    game = games.get("tatari")
    state = _state({"a": 5, "b": 5}, (5, 1, 1, 1), ["4", "3"], [], "fate")
    d = game.pending(state)[0]
    assert candidates(state, d, random.Random(0)) == ["continue"]


def test_strong_stops_where_the_greedy_player_pushes_on():
    """TA-4, TA-5, TA-7, TA-8: total 10 with no dolls, a 1 set aside, two dice left and shrine 7 holding 6: a stop
    takes shrine 10's doll back and gives one away (stash unchanged), while rolling on risks a bust that takes the
    6 dolls of shrine 7. The greedy player rolls on (a stop gains nothing and two dice are left); strong stops."""
    game = games.get("tatari")
    state = _state({"a": 4, "b": 4}, (6, 1, 1, 1), ["4", "3", "2", "1"], [], "fate")
    d = game.pending(state)[0]
    solver = TurnSolver(state)
    stop = solver.stop_value(10, 0, True)
    assert stop > solver.roll_value(0b1111, 2, 10, 0)
    assert greedy_choice(state, d) == "continue"
    assert candidates(state, d, random.Random(0)) == ["stop"]


def test_three_players_keep_the_sampled_search_with_the_greedy_option_first():
    """The exact turn is for two players; with three the search samples every option, greedy first."""
    state = _state({"a": 5, "b": 5, "c": 5}, (1, 1, 1, 1), ["4", "3"], [], "fate")
    game = games.get("tatari")
    d = game.pending(state)[0]
    first = greedy_choice(state, d)
    assert candidates(state, d, random.Random(0)) == [first] + [o.id for o in d.options if o.id != first]
