"""The strong Tatsumi AI's knowledge: the fast roll-out policy, Elemental Mastery gains, the
horizon and the evaluation (``games.tatsumi.ai``). Deterministic: fixed seeds, no clock."""

from __future__ import annotations

import random

import pytest
from tatsumi_helpers import P2, P3, at, full_wells, hold, ids, island, new, play, refresh

import games
from games import Move
from games.ai import Budget, choose
from games.tatsumi import ai
from games.tatsumi.island import layout, legal_spaces, mastery, put

LAY = layout("tatsumi")


def _total(isl: str, key: str = "tatsumi") -> int:
    return sum(mastery(layout(key), isl).values())


def test_mastery_gain_water_joining_two_groups_and_lightning_beside_wind():
    """TM-12: water scores 2 a ring of the largest group, so a water ring joining two single rings adds 4 (2 -> 6);
    a lightning ring alone is a new group (+2) and gives the wind ring beside it a new neighbour element (+1)."""
    isl = island(W="C1 C3", N="D1")
    assert ai.mastery_gain(LAY, isl, LAY.index("C2"), "W") == 4
    assert _total(put(isl, LAY.index("C2"), "W")) - _total(isl) == 4
    assert ai.mastery_gain(LAY, isl, LAY.index("D2"), "L") == 3
    assert _total(put(isl, LAY.index("D2"), "L")) - _total(isl) == 3


@pytest.mark.parametrize("key", ["tatsumi", "kogasu", "inyo", "arashima"])
def test_mastery_gain_is_the_mastery_difference_on_every_legal_space(key):
    """:func:`ai.mastery_gain` equals ``sum(mastery(after)) - sum(mastery(before))`` for every element on every
    legal space of islands filled at random (the asymmetric islands' adjacency included, TM-15)."""
    lay = layout(key)
    rng = random.Random(4)
    checked = 0
    for _ in range(40):
        isl = lay.empty
        for _ in range(rng.randrange(1, 25)):
            e = rng.choice("FWNL")
            spaces = legal_spaces(lay, isl, e)
            if spaces:
                isl = put(isl, rng.choice(spaces), e)
        for e in "FWNL":
            for i in legal_spaces(lay, isl, e):
                assert ai.mastery_gain(lay, isl, i, e) == _total(put(isl, i, e), key) - _total(isl, key)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize(("options", "players"), [(None, 3), ({"island": "asymmetric"}, 2)])
def test_rollout_choice_places_exactly_as_the_greedy_player(options, players):
    """The roll-out policy models every seat as the normal level plays: on every placing decision of greedy games
    it answers :func:`ai.choose`'s option for the same rng; elsewhere it defers to it (None)."""
    game = games.get("tatsumi")
    compared = deferred = 0
    for seed in range(4):
        state = game.begin([f"p{i}" for i in range(players)], options, seed).state
        rng = random.Random(seed)
        while game.pending(state):
            d = game.pending(state)[0]
            if len(d.options) > 1:
                mine = ai.rollout_choice(state, d, random.Random(compared + deferred))
                if state.turn.stage == "place" and not state.interrupts:
                    assert mine == ai.choose(state, d, random.Random(compared + deferred))
                    compared += 1
                else:
                    assert mine is None
                    deferred += 1
            state = game.apply(state, Move(player=d.player, option=game.greedy(state, d, rng))).state
    assert compared > 100 and deferred > 100


def test_rollout_turns_ends_after_every_opponent_and_the_searching_seats_next_turn():
    """The horizon: the rest of the searching seat's turn, each opponent's turn, then its own next turn
    (HORIZON_EXTRA 1): 3 players mid-turn 3 + 1 changes of the player to move, after a turn just ended 2 + 1;
    2 players 2 + 1 and 1 + 1; solo (TM-14) 2, with 12 decisions at most; at a table 15 decisions a seat."""
    assert ai.HORIZON_EXTRA == 1
    s = new(P3)
    assert not s.turn.flown and ai.rollout_turns(s) == 3
    s, _ = play(s, ids(s)[0])
    assert s.turn.flown and s.current == 0 and ai.rollout_turns(s) == 4
    assert ai.rollout_decisions(s) == 45
    two = new(P2)
    assert ai.rollout_turns(two) == 2
    two, _ = play(two, ids(two)[0])
    assert ai.rollout_turns(two) == 3
    solo = games.get("tatsumi").begin(["ann"], {"solo": True}, 1).state
    assert ai.rollout_turns(solo) == 2 and ai.rollout_decisions(solo) == 12


def test_candidates_are_the_greedy_ranking_cut_at_the_table_and_alone():
    """At a table the search compares the greedy player's 12 best options (TABLE_CANDIDATES), alone 6
    (SOLO_CANDIDATES), the greedy option first."""
    game = games.get("tatsumi")
    for players, options, most in ((P3, None, 12), (["ann"], {"solo": True}, 6)):
        s = game.begin(players, options, 2).state
        rng = random.Random(1)
        while len(game.pending(s)[0].options) <= most:
            d = game.pending(s)[0]
            s = game.apply(s, Move(player=d.player, option=game.greedy(s, d, rng))).state
        d = game.pending(s)[0]
        ranked = ai.candidates(s, d, random.Random(0))
        assert len(ranked) == most and len(set(ranked)) == most
        assert ranked[0] == ai.choose(s, d, random.Random(0))


def test_evaluate_counts_fortune_mastery_and_the_holding():
    """The horizon's worth: fortune, plus the Elemental Mastery the island would score now
    (TM-12: a water group of 2 scores 4), plus 0.4 a ring held (RING_HELD); at the
    end, fortune alone."""
    assert ai.RING_HELD == 0.4
    s = new(P3)
    s.seats[0].island = island(W="C1 C2")
    s.seats[0].fortune = 5
    hold(s, 0, F=2, N=1)
    assert ai.evaluate(s) == pytest.approx({"ann": 10.2, "bob": 0.0, "cat": 0.0})
    s.over = True
    assert ai.evaluate(s) == {"ann": 5.0, "bob": 0.0, "cat": 0.0}


def test_strong_offers_in_the_last_turn_of_the_game():
    """In the last turn of the game (the end triggered, the last seat to play, TM-12) strong (3 players, seed 3,
    30 iterations) answers the offering of 2 fire + 2 wind at the fire shrine in reach (rulebook "Offering"):
    every other answer ends the game with no fortune, the offering with the most."""
    game = games.get("tatsumi")
    s = new(P3, wells=full_wells("L"), shrines=["F", "W", "N", "L"], cards=["koi", "turtle", "toad", "monkey"])
    at(s, 0, "a5")
    at(s, 2, "c1")
    hold(s, 2, F=2, N=2)
    s.current = 2
    s.end_triggered = True
    s = refresh(s)
    d = game.pending(s)[0]
    assert d.player == "cat" and "offer:fire" in [o.id for o in d.options] and len(d.options) > 10
    assert choose(game, s, d, "cat", "strong", random.Random(3), Budget(iterations=30)) == "offer:fire"
