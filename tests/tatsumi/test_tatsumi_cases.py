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


def _placement_scores(events) -> list[tuple[str, int]]:
    """(space, fortune) of each placement in ``events`` (0 when no score event follows it)."""
    out = []
    for e in events:
        if e.kind == "place":
            out.append((e.data["space"], 0))
        elif e.kind == "score" and e.data["source"] == "rift":
            out[-1] = (out[-1][0], e.data["amount"])
    return out


def test_case_tm_b_immediate_scoring_through_offerings():
    """Case TM-B: empty island; fire A2 (1), fire B2 (1) — C5 not offered then —, wind B3 (0), wind B4 (0), then
    fire C5 (2: two fire rifts now encircled). Score 4. Placed by an offering (2 fire + 2 wind) and Blackbird."""
    s = new(shrines=["F", "W", "N", "L"], cards=["koi", "blackbird", "toad", "turtle"])
    at(s, 0, "c1")  # the fire shrine is north (c0): in range from b1, c1, d1
    hold(s, 0, F=3, N=2)
    s = refresh(s)
    s, ev = play(s, "offer:fire", "fire@A2")
    opts = ids(s)
    assert "fire@B2" in opts and "fire@C5" not in opts  # nothing next to C5 yet
    s, ev2 = play(s, "fire@B2", "wind@B3", "wind@B4")
    assert _placement_scores(ev + ev2) == [("A2", 1), ("B2", 1), ("B3", 0), ("B4", 0)]
    assert s.seats[0].island == island(F="A2 B2", N="B3 B4") and s.seats[0].fortune == 2
    # later in the turn: Blackbird (one scale on it) moves the third fire ring onto C5, next to B4
    s.seats[0].cards[1] = 1
    s = s.model_copy(deep=True)
    assert "blackbird" in ids(s)
    s, ev3 = play(s, "blackbird", "fire@C5")
    assert _placement_scores(ev3) == [("C5", 2)]
    assert s.seats[0].fortune == 4 and s.seats[0].scored == {"rift": 4}


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
    # rifts: first offering 1+1+0+0; now fire C5 2 (A2, C5), fire C4 2, water A3 1; Jellyfish 2 x 1 scale = 2
    assert p.scored == {"rift": 2 + 2 + 2 + 1, "card": 2} and p.fortune == 9
    assert [e.data.get("card") for e in ev if e.kind == "scale"] == ["jellyfish"]
