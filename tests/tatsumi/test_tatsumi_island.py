"""Tatsumi Island (RULINGS TM-8, TM-9), Elemental Mastery (TM-12) and the acceptance cases TM-A, TM-B."""

from __future__ import annotations

import pytest
from tatsumi_helpers import LAY, island, new, set_island

from games.tatsumi import data as D
from games.tatsumi.island import (
    blessing_met,
    can_place_all,
    encircled,
    inland_rings,
    legal_spaces,
    mastery,
    perimeter_rings,
    put,
)


def test_tm9_shape_rows_and_names():
    """TM-9: radius-3 hexagon, rows A-G of 4,5,6,7,6,5,4 = 37 spaces numbered from the left."""
    assert LAY.rows == (4, 5, 6, 7, 6, 5, 4)
    assert LAY.size == 37
    assert LAY.names[0] == "A1" and LAY.names[3] == "A4" and LAY.names[15] == "D1" and LAY.names[36] == "G4"


def test_tm9_perimeter_18_inland_19():
    """TM-9: perimeter = rows A and G and the first and last space of every other row."""
    per = {LAY.names[i] for i in range(37) if LAY.perimeter[i]}
    assert len(per) == 18
    assert {"A1", "A4", "G1", "G4", "B1", "B5", "D1", "D7", "F5"} <= per
    assert "D4" not in per and "B2" not in per


def test_tm9_rifts_and_blessings():
    """TM-9: 16 rifts, 4 per element, at the printed places; blessings on C3 and E4 between their neighbours."""
    where = {e: sorted(LAY.names[i] for i in LAY.rifts_of[e]) for e in D.ELEMENTS}
    assert where == {
        "F": ["A2", "C5", "E2", "G3"],
        "W": ["A3", "C1", "E6", "G2"],
        "N": ["B5", "D1", "D5", "F1"],
        "L": ["B1", "D3", "D7", "F5"],
    }
    assert [tuple(LAY.names[i] for i in b) for b in LAY.blessings] == [("C3", "C2", "C4"), ("E4", "E3", "E5")]


@pytest.mark.parametrize(
    "space, neighbours",
    [
        ("A1", {"A2", "B1", "B2"}),
        ("D1", {"D2", "C1", "E1"}),
        ("D4", {"D3", "D5", "C3", "C4", "E3", "E4"}),
        ("C1", {"C2", "B1", "D1", "D2"}),
        ("G4", {"G3", "F4", "F5"}),
        ("E6", {"E5", "D6", "D7", "F5"}),
    ],
)
def test_tm9_hex_adjacency(space, neighbours):
    """TM-9: same row left/right and the touching spaces of the rows above and below."""
    assert {LAY.names[j] for j in LAY.adj[LAY.index(space)]} == neighbours


def test_tm8_first_ring_on_a_rift_of_its_element():
    """TM-8 / rulebook placement rules 1-2: the first ring goes on a rift of its element."""
    assert sorted(LAY.names[i] for i in legal_spaces(LAY, LAY.empty, "F")) == ["A2", "C5", "E2", "G3"]


def test_tm8_later_rings_adjacent_and_rifts_only_their_element():
    """TM-8 / placement rules 1 and 3."""
    isl = island(F="A2")
    fire = {LAY.names[i] for i in legal_spaces(LAY, isl, "F")}
    water = {LAY.names[i] for i in legal_spaces(LAY, isl, "W")}
    assert fire == {"A1", "B2", "B3"}  # A3 is a water rift
    assert water == {"A1", "B2", "B3", "A3"}


def test_tm7_can_place_all():
    """TM-7: an offering's rings must all fit in some order."""
    assert can_place_all(LAY, LAY.empty, "FFNN")
    assert can_place_all(LAY, LAY.empty, "FW")  # fire on A2 then water on the A3 rift
    full = "F" * 37
    assert not can_place_all(LAY, full, "F")
    # one empty space left, a wind rift: only wind fits
    isl = "".join("." if n == "D1" else (LAY.rift[i] or "F") for i, n in enumerate(LAY.names))
    assert can_place_all(LAY, isl, "N")
    assert not can_place_all(LAY, isl, "F")
    assert not can_place_all(LAY, isl, "NN")


def test_tm8_immediate_score_counts_own_rift():
    """TM-8: a ring scores the rifts of its element now encircled, its own included."""
    isl = put(LAY.empty, LAY.index("A2"), "F")
    assert encircled(LAY, isl, "F") == 1
    assert encircled(LAY, isl, "W") == 0


def test_blessing_any_ring_between_two_of_one_element():
    """TM-9: the blessing space holds a ring and its left and right neighbours one element."""
    assert blessing_met(LAY, island(W="C2 C4", L="C3"), 0)
    assert not blessing_met(LAY, island(W="C2", F="C4", L="C3"), 0)
    assert not blessing_met(LAY, island(W="C2 C4"), 0)
    assert blessing_met(LAY, island(N="E3 E5 E4"), 1)


def test_mastery_wind_counts_other_elements_only_and_fire_sets():
    """TM-12: wind scores 0-3 for the other elements it touches; fire 5 per 3 rings anywhere."""
    isl = island(N="D4 D5", F="C3 C4", W="E3", L="E4")
    assert mastery(LAY, isl)["N"] == 3 + 2  # D4: F, W, L (not its wind neighbour); D5: F (C4), L (E4)
    assert mastery(LAY, island(F="A2 G3 C5 E2 B2 B3"))["F"] == 10


def test_turtle_toad_counts():
    isl = island(F="A2 B2 B3", N="B5")
    assert perimeter_rings(LAY, isl) == 2
    assert inland_rings(LAY, isl) == 2


def test_set_island_helper_keeps_rings():
    s = new()
    set_island(s, 0, island(F="A2"))
    assert s.seats[0].island.count("F") == 1


def _brute(isl: str, rings: str) -> bool:
    if not rings:
        return True
    for e in set(rings):
        for i in legal_spaces(LAY, isl, e):
            if _brute(put(isl, i, e), rings.replace(e, "", 1)):
                return True
    return False


def test_tm7_can_place_all_matches_brute_force():
    """TM-7's feasibility check (with its fast path) agrees with exhaustive search on random legal islands."""
    import random

    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        isl = LAY.empty
        for _ in range(rng.randrange(0, 37)):
            e = rng.choice(D.ELEMENTS)
            spaces = legal_spaces(LAY, isl, e)
            if spaces:
                isl = put(isl, rng.choice(spaces), e)
        rings = "".join(rng.choice(D.ELEMENTS) for _ in range(rng.randrange(1, 4)))
        if isl.count(".") > 12:
            continue  # brute force gets slow; the fast path covers roomy islands
        assert can_place_all(LAY, isl, rings) == _brute(isl, rings), (isl, rings)
        checked += 1
    assert checked > 50
