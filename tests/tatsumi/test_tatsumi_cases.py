"""Acceptance cases of shared/cases/tatsumi.md (TM-A, TM-B, TM-C) on Tatsumi Island (RULINGS TM-9), every number
asserted."""

from __future__ import annotations

from tatsumi_helpers import LAY, at, hold, ids, island, new, offer_state, play, refresh

from games.tatsumi import data as D
from games.tatsumi import rules
from games.tatsumi.island import encircled, groups, mastery


def test_case_tm_a_elemental_mastery():
    """Case TM-A: mastery 23 (water 6, lightning 6, wind 6, fire 5); rifts fire 3, water 2, wind 3, lightning 3."""
    isl = island(W="C1 C2 D2 E6 D6", L="B1 B2 D3 D7", F="A2 C5 E2 E3 C4", N="D5 D1 B5 D4")
    assert sorted(groups(LAY, isl, "W")) == [2, 3]
    assert len(groups(LAY, isl, "L")) == 3
    m = mastery(LAY, isl)
    assert m == {"W": 6, "L": 6, "N": 6, "F": 5}
    assert sum(m.values()) == 23
    assert {e: encircled(LAY, isl, e) for e in D.ELEMENTS} == {"F": 3, "W": 2, "N": 3, "L": 3}


def test_case_tm_b_immediate_scoring_through_offerings():
    """Case TM-B: fire A2 (1), fire B2 (1), C5 not offered; wind B3 (0), wind B4 (0), fire C5 (2): score 4."""
    s = new(shrines=["F", "W", "N", "L"])  # fire shrine north (c0): in range from b1, c1, d1
    at(s, 0, "c1")
    hold(s, 0, F=2, N=2)
    s = refresh(s)
    s, _ = play(s, "offer:fire", "fire@A2")
    opts = ids(s)
    assert "fire@B2" in opts and "fire@C5" not in opts
    s, _ = play(s, "fire@B2", "wind@B3")
    assert s.seats[0].fortune == 2
    assert ids(s) == ["wind@B4"] or "wind@B4" in ids(s)
    s, _ = play(s, "wind@B4")
    assert s.seats[0].fortune == 2
    # a later offering: the fire ring on C5 (next to B4) scores 2
    p = s.seats[0]
    assert p.island == island(F="A2 B2", N="B3 B4")
    s2 = s.model_copy(deep=True)
    s2.turn.stage = "place"
    s2.turn.mode = "blackbird"
    s2.turn.bb_left = 1
    hold(s2, 0, F=1)
    assert "fire@C5" in ids(s2)
    s2, _ = play(s2, "fire@C5")
    assert s2.seats[0].fortune == 4
    assert s2.seats[0].scored == {"rift": 4}


def test_case_tm_c_shrine_front_then_back():
    """Case TM-C: front offering places 4 rings, flips to back (2 fire + 1 water, scale icon), no scale; the next
    offering there puts a scale on the card above and applies it."""
    s = offer_state(card="jellyfish", F=4, N=2, W=1)
    s, ev = play(s, "offer:fire")
    assert s.seats[0].holding == {"F": 2, "W": 1, "N": 0, "L": 0}
    assert s.turn.to_place == "FFNN"
    s, ev = play(s, "fire@A2", "fire@B2", "wind@B3", "wind@B4")
    p = s.seats[0]
    assert p.island == island(F="A2 B2", N="B3 B4")
    assert s.sides[0] == "back" and rules.requirement(s, 0) == "FFW"
    assert p.cards == [0, 0, 0, 0] and p.scales_beside == 5
    assert not any(e.kind == "scale" for e in ev)
    # next turn of ann (bob passes through quickly)
    s, _ = play(s, "fly:c2")
    assert s.current == 1
    while s.current == 1:
        s, _ = play(s, ids(s)[0])
    at(s, 0, "c1")
    s = refresh(s)
    s, ev = play(s, "offer:fire", "fire@C5", "fire@C4", "water@A3")
    p = s.seats[0]
    assert p.cards == [1, 0, 0, 0] and p.scales_beside == 4
    assert s.sides[0] == "front"
    # rifts: 1 + 2(C5: A2,C5) ... fire C5 -> 2, fire C4 -> 2, water A3 -> 1 ; Jellyfish 2 x 1 scale = 2
    assert p.scored == {"rift": 2 + 2 + 2 + 1, "card": 2}
    assert [e.data.get("card") for e in ev if e.kind == "scale"] == ["jellyfish"]
