"""Asymmetric islands (rulebook "Asymmetric Islands", "Setup" step 1; RULINGS TM-8, TM-15): the six designed
layouts, their placement / adjacency rules, fixed-element blessings and the lobby option that deals them."""

from __future__ import annotations

import random

import pytest
from support import assert_illegal
from tatsumi_helpers import P2, P3, at, full_wells, hold, ids, new, play, refresh

from games import Move
from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi import islands_data as ID
from games.tatsumi.island import (
    EMPTY,
    blessing_met,
    can_place_all,
    groups,
    layout,
    legal_spaces,
    mastery,
    put,
)


def isl(key: str, **rings: str) -> str:
    """An island of board ``key`` from ``F="A2 C5"`` style arguments."""
    lay = layout(key)
    out = list(lay.empty)
    for e, names in rings.items():
        for n in names.split():
            out[lay.index(n)] = e
    return "".join(out)


def names(key: str, spaces) -> set[str]:
    return {layout(key).names[i] for i in spaces}


# ---------------------------------------------------------------------------------------------- TM-15 layouts


@pytest.mark.parametrize("key", ID.BOARDS)
def test_tm15_layout_shape_rifts_and_blessings(key):
    """TM-15: a 37-space hexagon like TM-9 (same rows, adjacency except Kogasu's centre), 16 rifts (4 per element),
    2 blessings whose two supports touch the blessing space and can take the blessing's element."""
    lay, base = layout(key), layout("tatsumi")
    assert lay.rows == base.rows and lay.names == base.names and lay.perimeter == base.perimeter
    assert sum(1 for r in lay.rift if r) == 16
    assert all(len(lay.rifts_of[e]) == 4 for e in D.ELEMENTS)
    assert len(lay.blessings) == 2 and len(lay.bless_el) == 2
    for (b, x, y), e in zip(lay.blessings, lay.bless_el, strict=True):
        assert not lay.rift[b] and x in lay.adj[b] and y in lay.adj[b]
        assert lay.rift[x] in ("", e) and lay.rift[y] in ("", e)
    assert lay.title == ID.TITLES[key] and lay.rule == key


@pytest.mark.parametrize("key", ID.BOARDS)
def test_tm15_every_island_can_be_filled_and_no_first_ring_is_a_dead_end(key):
    """Design check: random legal placement fills all 37 spaces in some order, and after any legal first ring a
    second ring has somewhere to go."""
    lay = layout(key)
    rng = random.Random(1)
    best = 0
    for _ in range(300):
        s = lay.empty
        while cands := [(i, e) for e in D.ELEMENTS for i in legal_spaces(lay, s, e)]:
            i, e = rng.choice(cands)
            s = put(s, i, e)
        best = max(best, 37 - s.count(EMPTY))
        if best == 37:
            break
    assert best == 37
    for e in D.ELEMENTS:
        for i in legal_spaces(lay, lay.empty, e):
            one = put(lay.empty, i, e)
            assert any(legal_spaces(lay, one, x) for x in D.ELEMENTS)


def test_tm15_marks():
    """TM-15 marks: Inyo halves 18/19 with one eye each way, Isuragi obelisks (none adjacent to another), Kogasu
    one volcano centre (D4), Mizukame 4 spaces of each droplet count on plain spaces, Raikou 7 bolts."""
    inyo = layout("inyo").marks
    assert sum(m in "lL" for m in inyo) == 18 and sum(m in "dD" for m in inyo) == 19
    assert inyo.count("L") == 1 and inyo.count("D") == 1
    lay = layout("inyo")
    eye_l, eye_d = inyo.index("L"), inyo.index("D")
    assert all(inyo[j] == "d" for j in lay.adj[eye_l]) and all(inyo[j] == "l" for j in lay.adj[eye_d])
    lay = layout("isuragi")
    ob = [i for i, m in enumerate(lay.marks) if m == "o"]
    assert names("isuragi", ob) == {"B4", "C3", "E4"}
    assert not any(j in ob for i in ob for j in lay.adj[i])
    assert layout("kogasu").marks.index("v") == layout("kogasu").index("D4")
    lay = layout("mizukame")
    for k in "123":
        spaces = [i for i, m in enumerate(lay.marks) if m == k]
        assert len(spaces) == 4 and not any(lay.rift[i] for i in spaces)
    assert layout("raikou").marks.count("b") == 7


# ---------------------------------------------------------------------------------------------- the six rules


def test_arashima_inland_only_after_a_perimeter_ring_in_the_row():
    """Arashima: an inland space takes a ring only once its row has a ring on a perimeter space; so the first
    water ring may only go on the perimeter rifts D7 and G1 (not the inland rifts B2, D3)."""
    lay = layout("arashima")
    assert names("arashima", legal_spaces(lay, lay.empty, "W")) == {"D7", "G1"}
    s = isl("arashima", N="A1")
    assert names("arashima", legal_spaces(lay, s, "W")) == {"A2", "B1"}
    s = isl("arashima", N="A1", F="B1")
    assert "B2" in names("arashima", legal_spaces(lay, s, "W"))
    assert "C2" not in names("arashima", legal_spaces(lay, s, "W"))  # row C has no perimeter ring yet


def test_inyo_light_and_dark_stay_within_one():
    """Inyo: after every ring placed the rings on light and dark spaces differ by at most one: after a light
    ring only dark spaces are offered, after a balanced island both."""
    lay = layout("inyo")
    s = isl("inyo", F="A2")  # A2 light
    assert names("inyo", legal_spaces(lay, s, "N")) == {"B2", "B3"}  # B2 wind rift, B3 dark; A1 light refused
    assert names("inyo", legal_spaces(lay, s, "W")) == {"A3", "B3"}
    s = isl("inyo", F="A2", N="B3")
    got = names("inyo", legal_spaces(lay, s, "N"))
    assert "A1" in got and "B2" in got  # balanced: light A1 and dark B2 both open


def test_inyo_the_light_eye_gives_light_in_the_dark():
    """Inyo: the light eye C4 lies in the dark half but counts as light; with one dark ring too many it is
    offered while its dark neighbours are not."""
    lay = layout("inyo")
    s = isl("inyo", F="A2", N="B3", W="C3")  # 1 light, 2 dark
    got = names("inyo", legal_spaces(lay, s, "L"))
    assert "C4" in got and "D4" not in got and "C2" not in got
    assert all(lay.marks[lay.index(n)] in "lL" for n in got)


def test_isuragi_obelisk_needs_all_its_neighbours():
    """Isuragi: an obelisk takes a ring only once every adjacent space holds one."""
    lay = layout("isuragi")
    c3 = lay.index("C3")
    five = isl("isuragi", W="C2 B2 B3", N="D3", L="D4")
    assert c3 not in legal_spaces(lay, five, "F")
    six = put(five, lay.index("C4"), "F")
    assert c3 in legal_spaces(lay, six, "F")


def test_kogasu_volcano_centre_has_no_adjacency_for_placement():
    """Kogasu: the centre D4 touches nothing — any ring may go there once the island has a ring, and a ring there
    opens no neighbour."""
    lay = layout("kogasu")
    d4 = lay.index("D4")
    assert lay.adj[d4] == () and all(d4 not in a for a in lay.adj)
    assert d4 not in legal_spaces(lay, lay.empty, "F")
    s = isl("kogasu", F="A1")
    assert all(d4 in legal_spaces(lay, s, e) for e in D.ELEMENTS)
    s = isl("kogasu", F="A1", W="D4")
    assert "D3" not in names("kogasu", legal_spaces(lay, s, "F")) and "C3" not in names(
        "kogasu", legal_spaces(lay, s, "N")
    )


def test_kogasu_volcano_centre_has_no_adjacency_for_scoring():
    """Kogasu: rings on either side of the centre are not adjacent for Elemental Mastery: two lightning groups,
    water groups split, a wind ring on the centre scores nothing."""
    lay = layout("kogasu")
    s = isl("kogasu", L="D4 D5", N="C3")
    assert sorted(groups(lay, s, "L")) == [1, 1]
    assert mastery(lay, s)["L"] == 4
    s = isl("kogasu", N="D4", F="D3", W="D5", L="C4")
    assert mastery(lay, s)["N"] == 0
    base = layout("tatsumi")
    assert mastery(base, s)["N"] == 3


def test_mizukame_droplets_in_order():
    """Mizukame: 2-droplet spaces only after all 1-droplet spaces hold rings, 3-droplet only after all 2s."""
    lay = layout("mizukame")
    s = isl("mizukame", W="A1", F="A2 A3 B3")  # three of the four 1-droplets
    got = names("mizukame", legal_spaces(lay, s, "F"))
    assert "C4" in got and "C2" not in got
    s = isl("mizukame", W="A1", F="A2 A3 B3 C4 B2", N="C1")
    assert "C2" in names("mizukame", legal_spaces(lay, s, "N"))
    s = isl("mizukame", W="A1 D4", F="A2 A3 B3 C4 C2 D3 D5", N="C1 C3", L="B2 E5")
    assert names("mizukame", legal_spaces(lay, s, "N")) & {"E3", "F2", "F4"}
    s2 = isl("mizukame", W="A1 D4", F="A2 A3 B3 C4 C2 D3", N="C1 C3", L="B2 E5")  # D5 (2) still empty
    assert not names("mizukame", legal_spaces(lay, s2, "N")) & {"E3", "F2", "F4"}


def test_raikou_exactly_one_bolt_per_offering_if_possible():
    """Raikou: ``offer_bolts`` requires a bolt when placing the rings can encircle exactly one; ``bolt_ok`` keeps
    every step compatible with that; with no way to encircle exactly one, no requirement."""
    lay = layout("raikou")
    assert ID.offer_bolts(lay, lay.empty, "FFNN") == 0
    after = put(lay.empty, lay.index("C4"), "F")  # C4: fire rift with a bolt
    assert ID.bolt_ok(lay, after, "FNN", 0)
    twice = put(after, lay.index("B3"), "F")  # a second bolt
    assert not ID.bolt_ok(lay, twice, "NN", 0)
    none = put(lay.empty, lay.index("E3"), "F")  # E3: no bolt, one can still be reached
    assert ID.bolt_ok(lay, none, "FNN", 0)
    full = list(lay.empty)
    for n, e in (("A1", "N"), ("B3", "F"), ("C4", "F"), ("D3", "L"), ("D7", "W"), ("F3", "F"), ("G4", "W")):
        full[lay.index(n)] = e
    assert ID.offer_bolts(lay, "".join(full), "FFW") == -1
    assert ID.offer_bolts(layout("tatsumi"), layout("tatsumi").empty, "FFNN") == -1


def _raikou_offer():
    """Ann on Raikou next to the north fire shrine (front: 2 fire + 2 wind) holding exactly that."""
    s = new(wells=full_wells("L"), shrines=["F", "W", "N", "L"], cards=["koi", "turtle", "toad", "monkey"])
    p = s.seats[0]
    p.island_key, p.board, p.island = "raikou", "raikou", layout("raikou").empty
    at(s, 0, "c1")
    hold(s, 0, F=2, N=2)
    return refresh(s)


def test_raikou_offering_options_respect_the_bolt():
    """Raikou in play: after a fire ring on the bolt C4, no other bolt (B3) is offered in that offering; the
    offering ends with exactly one bolt encircled."""
    s = _raikou_offer()
    s, _ = play(s, "offer:fire")
    assert s.turn.bolts == 0
    s, _ = play(s, "fire@C4")
    assert "fire@B3" not in ids(s) and "wind@B3" not in ids(s) and "fire@C5" in ids(s)
    assert_illegal(GAME, s, Move(player="ann", option="fire@B3"))
    rng = random.Random(2)
    while s.turn.stage == "place":
        s, _ = play(s, rng.choice(ids(s)))
    assert ID.bolts_on(layout("raikou"), s.seats[0].island) == 1


def test_raikou_offering_without_a_bolt_first_must_reach_one():
    """Raikou: starting on a rift without a bolt, the options keep one bolt reachable and the offering ends with
    exactly one."""
    for seed in range(5):
        s = _raikou_offer()
        s, _ = play(s, "offer:fire")
        rng = random.Random(seed)
        while s.turn.stage == "place":
            s, _ = play(s, rng.choice(ids(s)))
        assert ID.bolts_on(layout("raikou"), s.seats[0].island) == 1


# ---------------------------------------------------------------------------------------------- blessings, TM-7


def test_tm15_blessing_needs_its_fixed_element():
    """TM-15: Arashima's C3 blessing needs lightning on B3 and D4 (two wind rings do not do)."""
    lay = layout("arashima")
    assert blessing_met(lay, isl("arashima", L="B3 D4", F="C3"), 0)
    assert not blessing_met(lay, isl("arashima", N="B3 D4", F="C3"), 0)
    assert not blessing_met(lay, isl("arashima", L="B3 D4"), 0)
    base = layout("tatsumi")
    assert blessing_met(base, put(put(put(base.empty, base.index("C2"), "N"), base.index("C4"), "N"), base.index("C3"), "F"), 0)


def test_tm7_offering_checks_the_island_rule():
    """TM-7 with an island rule: rings that would fit under TM-8 alone but not under the island's rule make the
    offering impossible. Arashima with lightning on D1: one more lightning fits (D2), a second does not (C2 and E2
    are inland in rows without a perimeter ring). Mizukame with wind on F5: lightning on G4, then fire has only
    droplet spaces out of order."""
    import dataclasses

    for key, island, rings in (("arashima", isl("arashima", L="D1"), "LL"), ("mizukame", isl("mizukame", N="F5"), "LF")):
        lay = layout(key)
        plain = dataclasses.replace(lay, legal=None)
        assert can_place_all(plain, island, rings)
        assert not can_place_all(lay, island, rings)
        assert can_place_all(lay, island, rings[0])


# ---------------------------------------------------------------------------------------------- lobby option


def test_island_option_asymmetric_deals_boards_from_the_seed():
    """island=asymmetric: each player is dealt a different board (from the seed, C-1) and plays its asymmetric
    side; the base deal (wells, shrines, cards) is the same as without the option."""
    s = GAME.setup(P3, {"island": "asymmetric"}, 4)
    base = GAME.setup(P3, None, 4)
    boards = [p.board for p in s.seats]
    assert len(set(boards)) == 3 and set(boards) <= set(ID.BOARDS)
    assert [p.island_key for p in s.seats] == boards
    assert s.wells == base.wells and s.shrines == base.shrines and s.cards == base.cards
    assert GAME.setup(P3, {"island": "asymmetric"}, 4) == s
    assert s.turn.stage == "main"


def test_tm16_island_choose_each_player_picks_a_board_not_yet_taken_and_its_side():
    """RULINGS TM-16 (rulebook "Setup" 1): with island=choose each player, in seat order, picks an island board not
    yet taken (its asymmetric side) or the symmetric side (Tatsumi Island, which takes no board from the others)."""
    s = GAME.setup(P2, {"island": "choose"}, 4)
    d = GAME.pending(s)[0]
    assert d.player == "ann" and d.kind == "setup"
    assert [o.id for o in d.options] == ["island:symmetric"] + [f"island:{b}" for b in ID.BOARDS]
    assert d.options[1].label.startswith("Arashima (asymmetric side): ")
    s, ev = play(s, "island:raikou")
    assert ev[0].text == "{@ann} plays Raikou (asymmetric)."
    d = GAME.pending(s)[0]
    assert d.player == "bob"
    assert [o.id for o in d.options] == ["island:symmetric"] + [f"island:{b}" for b in ID.BOARDS if b != "raikou"]
    s, ev = play(s, "island:symmetric")
    assert ev[0].text == "{@bob} plays Tatsumi Island."
    assert (s.seats[0].board, s.seats[0].island_key) == ("raikou", "raikou")
    assert (s.seats[1].board, s.seats[1].island_key) == ("", "tatsumi")
    assert s.turn.stage == "main" and s.current == 0


def test_tm16_island_taken_boards_are_not_offered_again():
    """RULINGS TM-16: a board taken by an earlier seat is not offered to the later ones."""
    s = GAME.setup(P3, {"island": "choose"}, 4)
    s, _ = play(s, "island:inyo", "island:kogasu")
    assert [o.id for o in GAME.pending(s)[0].options] == [
        "island:symmetric", "island:arashima", "island:isuragi", "island:mizukame", "island:raikou"
    ]
    assert_illegal(GAME, s, Move(player="cat", option="island:inyo"), match="not a choice")


# ---------------------------------------------------------------------------------------------- in play


def _on(key: str, island: str, **holding):
    """Ann on island ``key`` (holding ``holding``) on c1 next to the north shrine (water, front: 2 water + 2
    lightning)."""
    s = new(wells=full_wells("F"), shrines=["W", "F", "N", "L"], cards=["koi", "turtle", "toad", "monkey"])
    p = s.seats[0]
    p.island_key, p.board, p.island = key, key, island
    at(s, 0, "c1")
    hold(s, 0, **holding)
    return refresh(s)


def test_tm7_offering_refused_when_the_island_rule_forbids_it():
    """TM-7 in play: with lightning on D1, Arashima cannot take 2 water + 2 lightning (the rings reach only inland
    spaces of rows without a perimeter ring), so the water shrine is not offered; Tatsumi Island could."""
    s = _on("arashima", isl("arashima", L="D1"), W=2, L=2)
    assert "offer:water" not in ids(s)
    t = _on("tatsumi", isl("tatsumi", L="D3"), W=2, L=2)
    assert "offer:water" in ids(t)


def test_inyo_overflow_placements_keep_the_balance():
    """Inyo's balance holds for every ring placed, overflow included: each overflow option is on the lighter
    side."""
    s = _on("inyo", isl("inyo", F="A2"), W=3, F=1, N=1, L=1)
    s.turn.flown = True
    s.turn.acted = True
    s.turn.stage = "overflow"
    s, _ = play(s, "overflow:water")
    lay = layout("inyo")
    assert s.turn.mode == "overflow"
    for oid in ids(s):
        space = lay.index(oid.split("@")[1])
        assert lay.marks[space] in "dD"


def test_raikou_overflow_is_free_of_the_bolt_rule():
    """Raikou's rule binds offerings only: overflow rings may go on several bolts."""
    lay = layout("raikou")
    s = _on("raikou", isl("raikou", N="A3"), F=1, W=1, N=1, L=3)
    s.turn.flown = True
    s.turn.acted = True
    s.turn.stage = "overflow"
    s, _ = play(s, "overflow:lightning")
    assert s.turn.bolts == -1
    bolts = {lay.names[i] for i, m in enumerate(lay.marks) if m == "b"}
    assert {o.split("@")[1] for o in ids(s)} & bolts
