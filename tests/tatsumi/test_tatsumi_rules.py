"""Tatsumi rules, one test per clause and ruling (RULINGS TM-1..TM-12, C-1..C-3)."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tatsumi_helpers import (
    P2,
    P3,
    P4,
    W,
    at,
    check_invariants,
    full_wells,
    hold,
    ids,
    island,
    new,
    offer_state,
    play,
    refresh,
    set_island,
)

from games import Move, force
from games.core import player_ref
from games.tatsumi import GAME, rules
from games.tatsumi import data as D
from games.tatsumi.island import EMPTY

# ---------------------------------------------------------------------------------------------- setup (TM-1, TM-2)


@pytest.mark.parametrize("players, per_well", [(P4, (4, 5)), (P3, (3, 4)), (P2, (2, 3))])
def test_tm2_seaboard_depths_and_layers(players, per_well):
    """TM-2: wells with column+row even hold 4 (13 wells), others 5; 3 players remove one layer, 2 players two."""
    s = GAME.setup(players, None, 7)
    even = [w for w in range(25) if sum(D.well_xy(w)) % 2 == 0]
    assert len(even) == 13 and {W["a1"], W["e1"], W["e5"], W["a5"], W["c3"]} <= set(even)
    for w in range(25):
        assert len(s.wells[w]) == (per_well[0] if w in even else per_well[1])
    removed = {4: 0, 3: 25, 2: 50}[len(players)]
    assert len(s.removed) == removed
    allr = "".join(s.wells) + s.removed
    assert len(allr) == 112 and all(allr.count(e) == 28 for e in D.ELEMENTS)
    check_invariants(s)


def test_c1_setup_is_deterministic_from_the_seed():
    """C-1: the same seed gives the same game; another seed another."""
    assert GAME.setup(P4, None, 3) == GAME.setup(P4, None, 3)
    assert GAME.setup(P4, None, 3).wells != GAME.setup(P4, None, 4).wells


def test_tm1_tm2_dragons_and_start_wells():
    """TM-1: dragons and elements in seat order; TM-2: start wells a1, e1, e5, a5."""
    s = GAME.setup(P4, None, 1)
    assert [p.dragon for p in s.seats] == ["karyu", "raijin", "fujin", "mizuchi"]
    assert [p.element for p in s.seats] == ["F", "L", "N", "W"]
    assert [D.WELL_NAMES[p.well] for p in s.seats] == ["a1", "e1", "e5", "a5"]
    assert GAME.pending(s)[0].player == "ann"


def test_player_counts():
    with pytest.raises(ValueError):
        GAME.setup(["a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c", "d", "e"], None, 1)


def test_tm6_tm10_tm11_setup_shrines_cards_scales():
    """TM-6: one shrine per element, front up; TM-11: 4 different cards; TM-10: 2 scales on the island, 5 beside."""
    s = GAME.setup(P3, None, 5)
    assert sorted(s.shrines) == sorted(D.ELEMENTS) and s.sides == ["front"] * 4
    assert len(set(s.cards)) == 4 and set(s.cards) <= set(D.CARDS)
    assert len(D.CARDS) == 16
    for p in s.seats:
        assert p.scales_beside == 5 and p.blessings == [False, False] and p.cards == [0, 0, 0, 0]
        assert p.island == EMPTY * 37 and p.fortune == 0


# ---------------------------------------------------------------------------------------------- fly (TM-3)


def test_tm3_fly_queen_moves_and_claim_from_exited_well():
    """TM-3: orthogonal or diagonal, any distance; the ring is claimed from the well exited."""
    s = new(wells=full_wells("F"))
    s.wells[W["c3"]] = "WWN"
    at(s, 0, "c3")
    at(s, 1, "e5")
    s = refresh(s)
    flies = {o[4:] for o in ids(s) if o.startswith("fly:")}
    assert flies == {"c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3", "b2", "a1", "d4", "d2", "e1", "b4", "a5"}
    s, ev = play(s, "fly:a1")
    assert s.seats[0].well == W["a1"]
    assert s.wells[W["c3"]] == "WW" and s.seats[0].holding["N"] == 1
    assert [e.kind for e in ev][:2] == ["fly", "claim"]


def test_tm3_guarded_well_blocks_flight_but_depleted_does_not():
    """TM-3: never enter or pass a guarded well; depleted wells may be passed and entered."""
    s = new(wells=full_wells("F"))
    at(s, 0, "c3")
    at(s, 1, "c2")
    s.wells[W["c4"]] = ""
    s = refresh(s)
    flies = {o[4:] for o in ids(s) if o.startswith("fly:")}
    assert "c2" not in flies and "c1" not in flies
    assert "c4" in flies and "c5" in flies


def test_tm3_lift_when_no_flight_possible():
    """TM-3: boxed in by dragons, the dragon is lifted to any unguarded well, with no claim."""
    s = new(players=P4, wells=full_wells("F"))
    at(s, 1, "b1")
    at(s, 2, "a2")
    at(s, 3, "b2")
    s = refresh(s)
    flies = [o for o in ids(s) if o.startswith("fly:")]
    assert len(flies) == 21 and "fly:b1" not in flies and "fly:a1" not in flies
    s, ev = play(s, "fly:e5")
    assert s.wells[W["a1"]] == "FFF" and sum(s.seats[0].holding.values()) == 0
    assert ev[0].kind == "lift"


def test_tm4_fly_and_action_in_either_order():
    """TM-4: gather (or offer) may come before the fly; then the fly is still owed."""
    s = new(wells=full_wells("N"))
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:c2", "gather:c4")
    assert s.current == 0 and s.turn.acted and not s.turn.flown
    assert all(o.startswith("fly:") for o in ids(s))
    s, _ = play(s, "fly:a1")
    assert s.current == 1  # the turn ended by itself (C-3: "end" was the only choice)
    assert s.seats[0].holding["N"] == 3


# ---------------------------------------------------------------------------------------------- gather (TM-4)


def test_tm4_symmetric_gather_two_orthogonal_unguarded_wells():
    """TM-4: the top rings of two different unguarded wells orthogonally adjacent."""
    s = new(wells=full_wells("W"))
    s.wells[W["c2"]] = "WF"
    at(s, 0, "c3")
    at(s, 1, "c4")
    s.wells[W["b3"]] = ""
    s = refresh(s)
    gathers = sorted(o for o in ids(s) if o.startswith("gather:"))
    assert gathers == ["gather:c2", "gather:d3"]  # b3 depleted, c4 guarded, diagonals never
    s, _ = play(s, "gather:c2")
    # one well left: taken without asking (C-3)
    assert s.seats[0].holding == {"F": 1, "W": 1, "N": 0, "L": 0}
    assert s.turn.stage == "main" and s.turn.acted


def test_tm4_second_gather_is_a_choice_and_not_the_same_well():
    s = new(wells=full_wells("W"))
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:c2")
    assert s.turn.stage == "gather2"
    assert sorted(ids(s)) == ["gather:b3", "gather:c4", "gather:d3"]
    assert_illegal(GAME, s, Move(player="ann", option="gather:c2"))


def test_depleted_well_gets_a_sand_dollar():
    """Rulebook "Depleted Seawell": a sand dollar goes in as soon as the last ring is claimed."""
    s = new(wells=full_wells("W"))
    s.wells[W["a1"]] = "F"
    s = refresh(s)
    s, ev = play(s, "fly:a3")
    assert s.wells[W["a1"]] == "" and s.sand_dollars == [W["a1"]]
    assert any(e.kind == "sand_dollar" for e in ev)


# ---------------------------------------------------------------------------------------------- holding (TM-5)


def test_tm5_overflow_choice_places_all_rings_of_one_element_unscored():
    """TM-5: at the end of the turn, with 4 elements held, the player picks one; all of it goes to the island
    unscored."""
    s = new(wells=full_wells("L"))
    hold(s, 0, F=2, W=1, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3")
    s, _ = play(s, "gather:b4") if s.turn.stage == "gather2" else (s, [])
    assert s.turn.stage == "overflow"
    assert sorted(ids(s)) == ["overflow:fire", "overflow:lightning", "overflow:water", "overflow:wind"]
    s, ev = play(s, "overflow:fire")
    assert s.turn.stage == "place" and s.turn.to_place == "FF"
    s, ev = play(s, "fire@A2", "fire@B2")
    p = s.seats[0]
    assert p.island == island(F="A2 B2") and p.fortune == 0 and p.holding["F"] == 0
    assert s.current == 1


def test_tm5_no_overflow_with_three_elements():
    s = new(wells=full_wells("W"))
    hold(s, 0, F=2, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3", "gather:b4")
    assert s.current == 1 and s.seats[0].holding == {"F": 2, "W": 3, "N": 1, "L": 0}


def test_tm12_overflow_that_cannot_be_placed_stays_and_ends_the_game():
    """TM-12: a ring that must be placed but cannot stays in holding and triggers the end."""
    s = new(wells=full_wells("L"))
    isl = "".join(LAYR or "W" for LAYR in (rules.layout("tatsumi").rift))
    isl = "".join(c if c in "WL" else "N" for c in isl)  # full island
    set_island(s, 0, isl)
    s.seats[0].blessings = [True, True]
    s.seats[0].cards = [1, 1, 0, 0]
    hold(s, 0, F=2, W=1, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3", "gather:b4")
    s, ev = play(s, "overflow:fire")
    assert s.end_triggered and s.seats[0].holding["F"] == 2
    assert any(e.kind == "stuck" for e in ev)
    assert s.current == 1  # bob plays the rest of the round
    s, _ = play(s, ids(s)[0])
    while not s.over:
        s, _ = play(s, ids(s)[0])
    assert GAME.result(s) is not None


# ---------------------------------------------------------------------------------------------- shrines (TM-6, TM-7)


@pytest.mark.parametrize("element", D.ELEMENTS)
def test_tm6_requirements_front_and_back(element):
    """TM-6: front 2+2 (no scale icon), back 2+1 (scale icon)."""
    s = new(
        shrines=[element, "W" if element != "W" else "F"] + [e for e in D.ELEMENTS if e not in (element,)][:2]
    )
    s.shrines = [element] + [e for e in D.ELEMENTS if e != element]
    assert rules.requirement(s, 0) == D.SHRINE_FRONT[element]
    s.sides[0] = "back"
    assert rules.requirement(s, 0) == D.SHRINE_BACK[element]
    assert D.SHRINE_FRONT == {"F": "FFNN", "N": "NNWW", "W": "WWLL", "L": "LLFF"}
    assert D.SHRINE_BACK == {"F": "FFW", "W": "WWN", "N": "NNL", "L": "LLF"}


@pytest.mark.parametrize(
    "edge, near, far",
    [
        (0, ["b1", "c1", "d1"], ["a1", "c2", "e1"]),
        (1, ["e2", "e3", "e4"], ["e1", "d3"]),
        (2, ["b5", "c5", "d5"], ["a5", "c4"]),
        (3, ["a2", "a3", "a4"], ["a1", "b3"]),
    ],
)
def test_tm6_range_chebyshev_one(edge, near, far):
    """TM-6: a shrine is in range from the three wells touching its virtual well."""
    for w in near:
        assert rules.shrine_distance(edge, W[w]) == 1
    for w in far:
        assert rules.shrine_distance(edge, W[w]) > 1


_offer_state = offer_state


def test_tm6_offer_needs_range_and_rings():
    s = _offer_state(F=2, N=2)
    assert "offer:fire" in ids(s)
    s2 = _offer_state(F=2, N=1)
    assert "offer:fire" not in ids(s2)
    s3 = _offer_state(F=2, N=2)
    at(s3, 0, "c2")
    s3 = refresh(s3)
    assert "offer:fire" not in ids(s3)


def test_tm7_offering_only_if_every_ring_fits():
    """TM-7: with no room for the offered rings the offering is not listed."""
    lay = rules.layout("tatsumi")
    isl = "".join(lay.rift[i] or "L" for i in range(37))
    isl = isl[: lay.index("D2")] + "." + isl[lay.index("D2") + 1 :]
    s = _offer_state(F=2, N=2)
    set_island(s, 0, isl)
    s = refresh(s)
    assert "offer:fire" not in ids(s)


def test_tm7_placement_options_keep_the_rest_placeable():
    """TM-7: every listed placement leaves the remaining offered rings placeable."""
    s = _offer_state(W=2, F=1, shrine="W", side="back")
    # water back: 2 water + 1 wind -> use a fire shrine back instead: 2 fire + 1 water
    s = _offer_state(F=2, W=1, side="back")
    s, _ = play(s, "offer:fire")
    # the island is empty: only rifts of fire or water can start
    assert set(ids(s)) == {
        "fire@A2",
        "fire@C5",
        "fire@E2",
        "fire@G3",
        "water@A3",
        "water@C1",
        "water@E6",
        "water@G2",
    }


def test_offer_counts_as_the_action_and_fly_still_follows():
    """Rulebook "Offering": an offering before the fly still allows the fly; no gather after."""
    s = _offer_state(F=2, N=2)
    s, _ = play(s, "offer:fire", "fire@A2", "fire@B2", "wind@B3", "wind@B4")
    assert s.turn.acted and not s.turn.flown
    assert all(o.startswith("fly:") for o in ids(s))


# ---------------------------------------------------------------------------------------------- blessings, scales


def test_tm9_tm10_blessing_unlock_puts_scale_on_any_card_but_flying_fish():
    """TM-9/TM-10: an unlocked blessing's scale goes on any card in play (Flying Fish redirects, TM-11)."""
    s = _offer_state(F=2, N=2, card="flying_fish")
    s.cards = ["flying_fish", "turtle", "toad", "jellyfish"]
    set_island(s, 0, island(W="C1 C2", F="C5 C4"))
    s = refresh(s)
    s, ev = play(s, "offer:fire", "fire@C3")
    s, ev = play(s, "fire@B2", "wind@B3", "wind@B4")
    # C3 holds a ring but C2 (water) and C4 (fire) differ: no blessing yet
    assert s.seats[0].blessings == [False, False]
    s2 = _offer_state(F=2, N=2)
    s2.cards = ["flying_fish", "turtle", "toad", "jellyfish"]
    set_island(s2, 0, island(W="C1 C2 C4"))
    s2 = refresh(s2)
    s2, ev = play(s2, "offer:fire", "fire@C3", "fire@B2", "wind@B3", "wind@B4")
    assert s2.seats[0].blessings == [True, False]
    assert s2.turn.stage == "scale"
    assert sorted(ids(s2)) == ["card:jellyfish", "card:toad", "card:turtle"]
    s2, ev = play(s2, "card:turtle")
    p = s2.seats[0]
    assert p.cards == [0, 1, 0, 0] and p.scales_beside == 5
    # turtle: perimeter rings = C1 only? C1 is the first of row C (perimeter); B3, B4 inland...
    lay = rules.layout("tatsumi")
    per = sum(1 for i, c in enumerate(p.island) if c != "." and lay.perimeter[i])
    assert p.scored["card"] == per


def test_tm10_no_scale_when_none_left_beside():
    s = _offer_state(F=2, W=1, side="back", card="jellyfish")
    s.seats[0].scales_beside = 0
    s.seats[0].blessings = [True, True]
    s.seats[0].cards = [3, 2, 1, 1]
    s = refresh(s)
    s, ev = play(s, "offer:fire", "fire@A2", "fire@B2", "water@A3")
    assert s.seats[0].cards == [3, 2, 1, 1]
    assert not any(e.kind == "scale" for e in ev)


def test_tm11_flying_fish_redirects_the_shrine_scale():
    """TM-11: a shrine scale that would go on Flying Fish goes on another card of the player's choice."""
    s = _offer_state(F=2, W=1, side="back", card="flying_fish")
    s.cards = ["flying_fish", "jellyfish", "toad", "monkey"]
    s, ev = play(s, "offer:fire", "fire@A2", "fire@B2", "water@A3")
    assert s.turn.stage == "scale" and s.sides[0] == "front"
    assert sorted(ids(s)) == ["card:jellyfish", "card:monkey", "card:toad"]
    s, ev = play(s, "card:jellyfish")
    assert s.seats[0].cards == [0, 1, 0, 0] and s.seats[0].scales_beside == 4
    assert s.seats[0].scored["card"] == 2


# ---------------------------------------------------------------------------------------------- summoning cards


def _with_cards(card, isl="", holding=None, cards_held=(0, 0, 0, 0)):
    s = new(
        cards=[card, "flying_fish", "heron", "duck"]
        if card not in ("flying_fish", "heron", "duck")
        else [card, "koi", "toad", "turtle"]
    )
    p = s.seats[0]
    if isl:
        set_island(s, 0, isl)
    if holding:
        hold(s, 0, **holding)
    p.cards = list(cards_held)
    return s, p


@pytest.mark.parametrize(
    "card, isl, holding, held, expected",
    [
        ("jellyfish", "", None, (1, 0, 0, 0), 2),  # 2 x 1 placed
        ("jellyfish", "", None, (2, 1, 0, 0), 6),  # 2 x 3 placed
        ("koi", island(N="D1 D5 D4"), None, (1, 1, 0, 0), 2 + 2),
        ("otter", island(W="C1 A3", F="A2"), None, (1, 0, 0, 0), 1 + 2),
        ("salamander", island(F="A2 B2"), None, (1, 0, 0, 0), 1 + 1),
        ("water_strider", island(L="B1 B2"), None, (1, 0, 0, 1), 2 + 1),
        ("lizard_claw", "", None, (1, 0, 0, 0), 3),
        ("lizard_claw", "", {"F": 2, "W": 1}, (1, 0, 0, 0), 5),
        ("lizard_claw", "", {"F": 1, "W": 1, "N": 3, "L": 1}, (1, 0, 0, 0), 7),
        ("turtle", island(F="A2 B2 B3", N="B5"), None, (1, 0, 0, 0), 2),
        ("toad", island(F="A2 B2 B3", N="B5"), None, (1, 0, 0, 0), 2),
        ("monkey", island(F="A2", W="A3"), None, (1, 0, 0, 0), 3),
        ("monkey", island(F="A2 B2", W="A3 B3", N="B4 B5", L="B1 A1"), None, (1, 0, 0, 0), 7),
        ("dragonfly", island(F="A2 B2", W="A3"), None, (1, 0, 0, 0), 2),  # ann is Karyu: fire
        ("butterfly", "", None, (1, 0, 0, 0), 0),
    ],
)
def test_tm11_scoring_cards(card, isl, holding, held, expected):
    """TM-11 / rulebook "Scoring Summoning Cards": the value when a scale lands (the new one counted)."""
    s, p = _with_cards(card, isl, holding, held)
    assert rules.card_value(s, p, card) == expected


def test_tm11_place_scale_scores_the_card():
    s, p = _with_cards("jellyfish")
    ev = []
    rules.place_scale(s, p, 0, "test", ev)
    assert p.cards[0] == 1 and p.fortune == 2 and p.scored == {"card": 2}


def test_tm11_butterfly_extends_offer_range():
    """TM-6/TM-11: range is 1 + the player's scales on Butterfly."""
    s = _offer_state(F=2, N=2, card="butterfly")
    at(s, 0, "c3")
    s = refresh(s)
    assert "offer:fire" not in ids(s)  # distance 3
    s.seats[0].cards[0] = 2
    s = refresh(s)
    assert "offer:fire" in ids(s)


def test_tm11_swallows_fly_through_dragons_and_score():
    """TM-11: Swallows lets a dragon fly through (never into) guarded wells, 2 fortune per scale per well."""
    s = new(wells=full_wells("F"), cards=["swallows", "koi", "toad", "turtle"])
    at(s, 0, "c3")
    at(s, 1, "c2")
    s.seats[0].cards = [2, 0, 0, 0]
    s = refresh(s)
    flies = ids(s)
    assert "fly:c1" in flies and "fly:c2" not in flies
    s, ev = play(s, "fly:c1")
    assert s.seats[0].scored == {"swallows": 4}


def test_tm11_heron_scores_depleted_wells_passed_not_the_end_well():
    s = new(wells=full_wells("F"), cards=["heron", "koi", "toad", "turtle"])
    s.wells[W["b1"]] = ""
    s.wells[W["c1"]] = ""
    s.wells[W["e1"]] = ""
    at(s, 1, "e5")
    s.seats[0].cards = [3, 0, 0, 0]
    s = refresh(s)
    s, ev = play(s, "fly:e1")
    assert s.seats[0].scored == {"heron": 2 * 3}


def test_tm11_duck_scores_ending_on_a_depleted_well():
    s = new(wells=full_wells("F"), cards=["duck", "koi", "toad", "turtle"])
    s.wells[W["c3"]] = ""
    s.seats[0].cards = [2, 0, 0, 0]
    s = refresh(s)
    s, ev = play(s, "fly:c3")
    # at c3 (depleted): gather c2/c4/b3/d3 then the turn ends there
    s, ev = play(s, "gather:c2", "gather:c4")
    assert s.current == 1
    assert s.seats[0].scored == {"duck": 4}


def test_tm11_blackbird_once_a_turn_up_to_n_rings_scored():
    """TM-11: Blackbird moves up to N rings from holding to the island, scoring them, once a turn, any time."""
    s = new(wells=full_wells("W"), cards=["blackbird", "koi", "toad", "turtle"])
    s.seats[0].cards = [2, 0, 0, 0]
    hold(s, 0, F=3)
    s = refresh(s)
    assert "blackbird" in ids(s)
    s, ev = play(s, "blackbird")
    assert "stop" in ids(s) and "fire@A2" in ids(s)
    s, ev = play(s, "fire@A2", "fire@B2")
    assert s.turn.stage == "main" and "blackbird" not in ids(s)
    p = s.seats[0]
    assert p.island == island(F="A2 B2") and p.holding["F"] == 1 and p.scored == {"rift": 2}


def test_tm11_blackbird_stop():
    s = new(wells=full_wells("W"), cards=["blackbird", "koi", "toad", "turtle"])
    s.seats[0].cards = [2, 0, 0, 0]
    hold(s, 0, F=3)
    s = refresh(s)
    s, _ = play(s, "blackbird", "fire@A2")
    assert s.turn.stage == "place"
    s, _ = play(s, "stop")
    assert s.turn.stage == "main" and s.seats[0].holding["F"] == 2


# ---------------------------------------------------------------------------------------------- end (TM-12)


def _near_end(players=P2, sand=12):
    s = new(players=players, wells=full_wells("W", 2))
    for w in range(sand):
        s.wells[w + 5] = ""
        s.sand_dollars.append(w + 5)
    s.removed += "W" * 2 * sand
    s.wells[W["a1"]] = "F"
    return refresh(s)


def test_tm12_thirteenth_sand_dollar_finishes_the_round():
    """TM-12: the 13th sand dollar triggers the end; the round is finished (seat order from the first player)."""
    s = _near_end(P3, 12)
    s, ev = play(s, "fly:a2" if "fly:a2" in ids(s) else ids(s)[0])
    assert s.end_triggered and len(s.sand_dollars) == 13 and not s.over
    while s.current == 0:
        s, _ = play(s, ids(s)[0])
    assert s.current == 1 and not s.over
    while not s.over:
        assert s.current in (1, 2)
        s, _ = play(s, ids(s)[0])
    assert GAME.pending(s) == [] and len(s.sand_dollars) == 13
    r = GAME.result(s)
    top = max(p.fortune for p in s.seats)
    assert str(r.reason).endswith("the 13th sand dollar was placed.")
    # the reason names who won and with what fortune, not only the rule
    rounds = "1 round" if s.round == 1 else f"{s.round} rounds"
    winners = ", ".join(player_ref(p) for p in r.winners)
    assert str(r.reason) == f"Most fortune after {rounds}: {winners} with {top}; the 13th sand dollar was placed."


def test_tm12_trigger_by_last_seat_ends_at_once():
    s = _near_end(P2, 12)
    s.current = 1
    at(s, 1, "a1")
    at(s, 0, "e5")
    s = refresh(s)
    s, ev = play(s, ids(s)[0])
    while not s.over:
        assert s.current == 1
        s, ev = play(s, ids(s)[0])
    assert any(e.kind == "game_over" for e in ev)


def test_tm12_mastery_scored_at_the_end_and_ties():
    """TM-12: Elemental Mastery at the end; ties broken by rings of the dragon's element, then shared."""
    s = _near_end(P2, 12)
    set_island(s, 0, island(F="A2 B2 B3"))  # karyu: 3 fire -> mastery 5
    set_island(s, 1, island(L="B1 A1 B2"))  # raijin: 1 group -> 2
    s.seats[1].fortune = 3
    s.seats[1].scored = {"rift": 3}
    s = refresh(s)
    while not s.over:
        s, ev = play(s, ids(s)[0])
    a, b = s.seats
    assert a.scored.get("mastery") == 5 and b.scored.get("mastery") == 2
    r = GAME.result(s)
    assert r.scores == {"ann": a.fortune, "bob": b.fortune}
    # 5 each, and 3 rings of their dragon's element each: shared victory
    assert a.fortune == 5 and b.fortune == 5
    assert r.winners == ["ann", "bob"] and r.ranking == [["ann", "bob"]]
    # tie-break directly on a finished state
    t = s.model_copy(deep=True)
    t.seats[0].fortune = t.seats[1].fortune = 20
    t.seats[0].island = island(F="A2 B2 B3")
    t.seats[1].island = island(L="B1 A1")
    r = GAME.result(t)
    assert r.winners == ["ann"] and r.ranking == [["ann"], ["bob"]]
    t.seats[1].island = island(L="B1 A1 B2")
    r = GAME.result(t)
    assert r.winners == ["ann", "bob"] and r.ranking == [["ann", "bob"]]


def test_c3_lone_choice_applied_without_asking():
    """C-3: a stage with one option is applied by itself (here the only remaining gather well)."""
    s = new(wells=full_wells("W"))
    at(s, 0, "a1")
    s = refresh(s)
    s, _ = play(s, "gather:b1")
    assert s.seats[0].holding["W"] == 2 and s.turn.stage == "main"


def test_force_does_not_break_state():
    s = force(new(), 1)
    assert s.rng.forced == [1]
    assert GAME.load_state(s.model_dump_json()) == s


def test_status_and_help():
    s = new()
    assert "Round 1" in GAME.status(s) and "{@ann}" in GAME.status(s)
    assert "" in GAME.rules_help and len(GAME.rules_help) >= 5
    assert GAME.summary


# ---------------------------------------------------------------------------------------------- resign


def test_resign_in_a_three_player_game_continues():
    """A resigning player's rings go back to the box; with 2 left the game goes on; with 2 players it cannot."""
    s = GAME.setup(P3, None, 9)
    s, _ = play(s, ids(s)[0])
    while s.current == 0:
        s, _ = play(s, ids(s)[0])
    out = GAME.resign(s, "bob")  # bob's turn: cat plays next
    t = out.state
    assert t.players == ["ann", "cat"] and [p.id for p in t.seats] == ["ann", "cat"]
    assert GAME.pending(t)[0].player == "cat"
    check_invariants(t)
    out2 = GAME.resign(t, "ann")
    assert out2 is None
    assert GAME.resign(GAME.setup(P2, None, 1), "ann") is None


def test_resign_of_a_waiting_player_keeps_the_turn():
    s = GAME.setup(P4, None, 9)
    out = GAME.resign(s, "cat")
    t = out.state
    assert GAME.pending(t)[0].player == "ann" and len(t.seats) == 3
    check_invariants(t)


# ---------------------------------------------------------------------------------------------- more clauses


def test_blessing_from_overflow_rings_then_the_turn_ends():
    """Rulebook "Island Blessings": overflow rings unlock blessings too; the scale is placed, then the turn ends."""
    s = new(wells=full_wells("L"), cards=["jellyfish", "koi", "toad", "turtle"])
    set_island(s, 0, island(W="C1 C2", F="C5"))
    hold(s, 0, F=1, W=1, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3", "gather:b4")
    assert s.turn.stage == "overflow"
    s, _ = play(s, "overflow:fire", "fire@C4")  # C4 fire next to C5: C3 still empty, no blessing
    assert s.current == 1 and s.seats[0].blessings == [False, False]
    t = new(wells=full_wells("L"), cards=["jellyfish", "koi", "toad", "turtle"])
    set_island(t, 0, island(W="C2 C4", F="C5"))
    hold(t, 0, F=1, W=1, N=1)
    at(t, 0, "c3")
    t = refresh(t)
    t, _ = play(t, "fly:c4", "gather:c3", "gather:b4", "overflow:fire", "fire@C3")
    assert t.seats[0].blessings == [True, False] and t.turn.stage == "scale" and t.current == 0
    t, ev = play(t, "card:jellyfish")
    assert t.seats[0].scored == {"card": 2} and t.current == 1
    assert t.seats[0].fortune == 2  # the overflow ring itself scored nothing


def test_sand_dollars_stop_at_13():
    """Rulebook components: 13 sand dollars; a well depleted after the 13th gets none (and is still depleted)."""
    s = new(wells=full_wells("W", 2))
    for w in range(5, 18):
        s.wells[w] = ""
        s.sand_dollars.append(w)
    s.end_triggered = True
    s.wells[W["a1"]] = "F"
    s = refresh(s)
    s, ev = play(s, "fly:b1")
    assert s.wells[W["a1"]] == "" and len(s.sand_dollars) == 13
    assert not any(e.kind == "sand_dollar" for e in ev)


def test_prompts_name_the_player():
    s = new()
    d = GAME.pending(s)[0]
    assert d.player == "ann" and d.kind == "turn" and "{@ann}" in d.prompt and "either order" in d.prompt
    assert all(o.label for o in d.options)


def test_no_end_option_while_an_action_is_possible():
    """TM-4: the turn is the fly and one of gather / offer: after the fly, gathering is owed when possible."""
    s = new(wells=full_wells("W"))
    s = refresh(s)
    s, _ = play(s, "fly:c3")
    assert "end" not in ids(s) and all(o.startswith("gather:") for o in ids(s))


def test_tm7_placement_that_would_strand_a_ring_is_not_listed():
    """TM-7: with 2 plain spaces and a water rift left, offering 2 fire + 1 water must put the water on the rift:
    water on a plain space would leave a fire ring only the water rift. Those placements are not listed."""
    lay = rules.layout("tatsumi")
    free = {"B2", "D2", "C1"}
    isl = "".join("." if lay.names[i] in free else (lay.rift[i] or "L") for i in range(37))
    s = offer_state(F=2, W=1, side="back")
    set_island(s, 0, isl)
    s.seats[0].blessings = [True, True]
    s.seats[0].cards = [1, 1, 0, 0]
    s.seats[0].scales_beside = 3
    s = refresh(s)
    assert "offer:fire" in ids(s)
    s, _ = play(s, "offer:fire")
    assert sorted(ids(s)) == ["fire@B2", "fire@D2", "water@C1"]
    s, _ = play(s, "fire@B2")
    assert sorted(ids(s)) == ["fire@D2", "water@C1"]
    s, _ = play(s, "fire@D2")  # the water ring's one place is taken without asking (C-3)
    assert s.seats[0].island.count(".") == 0 and s.seats[0].island[lay.index("C1")] == "W"


def test_c2_seat_order_is_turn_order():
    """C-2: seats play in list order, round after round."""
    s = GAME.setup(P3, None, 4)
    order = []
    while len(order) < 6:
        who = GAME.pending(s)[0].player
        if not order or order[-1] != who:
            order.append(who)
        s, _ = play(s, ids(s)[0])
    assert order == ["ann", "bob", "cat", "ann", "bob", "cat"]
    assert s.round == 2


def test_c4_time_is_only_an_input():
    """C-4: the engine reads no clock; a move's time stamp does not change its outcome."""
    s = GAME.setup(P2, None, 4)
    a = GAME.apply(s, Move(player="ann", option=ids(s)[0], at_ms=1)).state
    b = GAME.apply(s, Move(player="ann", option=ids(s)[0], at_ms=10**12)).state
    assert a == b
