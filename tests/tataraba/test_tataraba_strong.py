"""The strong Forest of Tataraba AI's knowledge: the fitted evaluation at the search's horizon.
Deterministic, never timed."""

from __future__ import annotations

import math
import random

from tataraba_support import T, placed

from games.ai import Budget, choose
from games.tataraba import GAME
from games.tataraba.ai import EVAL_WEIGHTS, evaluate, features


def _position():
    """Red (seat 0, to play, at 1-5) has built the second Tatara (at 1-7), holds 10 Sen, 7 material, 2 Foot
    markers, an adult Cedar at 1-2, a young Red Pine at 1-4 and a Cedar on "2" at 2-1; Blue (at 3-5) holds 4 Sen,
    6 material and an adult Oak at 3-1 (a Red Pine that shifted)."""
    state = placed()
    tiles = list(state.tiles)
    tiles[T("1-2")], tiles[T("1-4")], tiles[T("2-1")], tiles[T("1-7")] = "Ca0", "Ry0", "C20", "T-0"
    tiles[T("3-1")] = "Oa1"
    red = state.seats[0].model_copy(update={"sen": 10, "mat": 7, "foot": 2, "tatara": 0, "pine": 3, "cedar": 2})
    blue = state.seats[1].model_copy(update={"sen": 4, "mat": 6, "pine": 3, "oak": 3, "pine_gone": 1})
    return state.model_copy(update={"tiles": tiles, "seats": [red, blue]})


def test_features_count_what_is_missing_the_trees_and_the_turn():
    """FT-3 (10 and 10; 12 and 12 before the second Tatara), FT-6 (tree stages), FT-8."""
    state = _position()
    assert features(state, 0) == {
        "Ry": 1, "Ra": 0, "Oy": 0, "Oa": 0, "Cy": 0, "C2": 1, "Ca": 1,
        "sen_short": 0, "mat_short": 3, "short": 3, "sen_extra": 0, "mat_extra": 0,
        "tatara": 1.0, "eidai": 0.0, "foot": 2, "pine": 3, "cedar": 2, "near": 3, "next": 1.0,
    }
    assert features(state, 1) == {
        "Ry": 0, "Ra": 0, "Oy": 0, "Oa": 1, "Cy": 0, "C2": 0, "Ca": 0,
        "sen_short": 8, "mat_short": 6, "short": 8, "sen_extra": 0, "mat_extra": 0,
        "tatara": 0.0, "eidai": 0.0, "foot": 1, "pine": 3, "cedar": 4, "near": 1, "next": 0.0,
    }


def test_evaluate_is_the_weighted_sum_in_log_odds():
    """The chance Red beats Blue from here is sigmoid(h[red] - h[blue]) (EVAL_SCALE 1)."""
    state = _position()
    h = evaluate(state)
    for seat, p in enumerate(state.players):
        assert h[p] == sum(w * features(state, seat)[k] for k, w in EVAL_WEIGHTS.items())
    assert round(h["red"], 3) == 2.241
    assert round(h["blue"], 3) == -2.216
    assert round(1 / (1 + math.exp(-(h["red"] - h["blue"]))), 3) == 0.989


def test_strong_logs_the_cedar_for_the_material_that_completes_the_eidai_tatara():
    """FT-3, FT-8, rulebook "Lumber process chart": with 10 Sen and 7 material, the adult Cedar next to Red taken
    as 3 material lets the Eidai Tatara be built this turn (and win); strong takes it."""
    state = _position().model_copy(update={"phase": "log", "actions": 1, "actions_per_turn": 3})
    d = GAME.pending(state)[0]
    assert {o.id for o in d.options} == {"sen:1-2", "mat:1-2", "sen:1-6", "mat:1-6", "sen:1-8", "mat:1-8"}
    assert choose(GAME, state, d, "red", "strong", random.Random(0), Budget(iterations=24)) == "mat:1-2"

