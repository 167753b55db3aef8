"""Setup as the table sees it: ``Game.begin`` returns setup's events (the contract on main; rulebook "Setup" and
"How to Play" step 1; RULINGS TA-1, TA-3, TA-4, TA-6, C-1, C-3)."""

from __future__ import annotations

import pytest

from games import get
from games.tatari import GAME

P = ["alice", "bob", "carol"]


def texts(outcome):
    return [e.text for e in outcome.events]


def test_seed_5497_the_first_turn_resolved_during_setup_is_told():
    """Seed 5497: alice rolls six 3s; one face shows, so it is set aside without asking (C-3); all six dice are
    set aside with total 18 (TA-4), a stop at 11+ with 0 dolls moves nothing (TA-6); bob's first roll follows.
    Every step is an event, in order, and the state is setup's."""
    out = GAME.begin(P, None, 5497)
    assert out.state == GAME.setup(P, None, 5497)
    assert texts(out) == [
        "{@alice} holds the Cursed box first (first seat).",
        "{@alice} rolls 3 · 3 · 3 · 3 · 3 · 3.",
        "{@alice} sets aside 3 ×6: total 18, 0 dolls.",
        "{@alice} stops at 18: 0 dolls to the Shrine box.",
        "{@bob} rolls doll · doll · 3 · 1 · 1 · 1.",
    ]
    assert [e.kind for e in out.events] == ["first", "roll", "set_aside", "stop", "roll"]
    assert out.events[0].data == {"player": "alice", "how": "host"}
    s = out.state
    assert (s.current, s.phase, s.turn_number, s.rolled) == ("bob", "select", 2, ["doll", "doll", "3", "1", "1", "1"])
    assert s.stashes == {"alice": 10, "bob": 10, "carol": 10} and s.box == 10


def test_a_random_first_player_is_announced():
    """``first=random`` (rulebook "Setup": the players decide who holds the box): the draw is told, then the roll."""
    out = GAME.begin(P, {"first": "random"}, 5497)
    assert out.state == GAME.setup(P, {"first": "random"}, 5497)
    assert texts(out) == [
        "{@carol} holds the Cursed box first (drawn at random).",
        "{@carol} rolls 3 · 3 · 3 · 3 · 3 · doll.",
    ]
    assert out.events[0].data == {"player": "carol", "how": "random"}
    assert (out.state.current, out.state.phase) == ("carol", "select")


@pytest.mark.parametrize("seed", [1, 2, 7, 5497, 99999])
@pytest.mark.parametrize("first", ["host", "random"])
def test_begin_state_is_setup_and_its_events_are_exactly_what_happened(seed, first):
    """For any seed: begin().state == setup(); the events are one "first" then the first turn, whose rolls are the
    dice the state's generator drew (C-1): replaying the same draws gives the same faces."""
    players = ["a", "b", "c", "d"]
    out = get("tatari").begin(players, {"first": first}, seed)
    assert out.state == GAME.setup(players, {"first": first}, seed)
    assert out.events[0].kind == "first" and out.events[0].data["player"] == (
        "a" if first == "host" else out.events[1].data["player"])
    rolls = [e for e in out.events if e.kind == "roll"]
    assert rolls and rolls[-1].data["player"] == out.state.current
    assert rolls[-1].data["faces"] == out.state.rolled or out.state.phase != "select"
