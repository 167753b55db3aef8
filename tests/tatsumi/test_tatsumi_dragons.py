"""Asymmetric dragons (rulebook "Asymmetric Dragons", "Setup" step 2; RULINGS TM-1, TM-3, TM-4), who plays which
dragon (TM-16: picked in seat order, dealt in seat order or at random) and the lobby options / setup choices that
switch them on."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tatsumi_helpers import P2, P3, P4, W, at, full_wells, hold, ids, new, play, refresh

from games import Move
from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi.dragons import ASYMMETRIC, gather_title


def board(**tops: str) -> list[str]:
    """Wells of 3 lightning rings each, with the given wells replaced (``c2="WF"``: c2 holds W under F)."""
    wells = full_wells("L", 3)
    for name, stack in tops.items():
        wells[W[name]] = stack
    return wells


def dragon_state(gather: str, well: str, players=P2, bob: str = "e5", **tops: str):
    """Ann (seat 0) on ``well`` with gathering ``gather``, not flown yet; Bob on ``bob``."""
    s = new(players, wells=board(**tops))
    s.seats[0].gather = gather
    at(s, 0, well)
    at(s, 1, bob)
    return refresh(s)


def gathers(s) -> list[str]:
    return sorted(i for i in ids(s) if not i.startswith("fly:") and i != "end")


# ---------------------------------------------------------------------------------------------- options and setup


def test_default_options_keep_the_base_game():
    """Options default to the base game: same setup from the same seed, no setup choices, symmetric gathering."""
    s = GAME.setup(P4, {"dragons": "symmetric", "island": "symmetric", "void": False}, 3)
    assert s == GAME.setup(P4, None, 3)
    assert s.setup_queue == [] and s.turn.stage == "main"
    assert all(p.gather == "symmetric" and p.island_key == "tatsumi" and p.board == "" for p in s.seats)


def test_options_are_simple_lobby_types():
    """Game.Options: simple types with defaults; bad values refused."""
    o = GAME.options({"dragons": "choose", "island": "asymmetric", "void": True})
    assert (o.dragons, o.island, o.void) == ("choose", "asymmetric", True)
    with pytest.raises(ValueError):
        GAME.options({"dragons": "sideways"})


def test_all_asymmetric_dragons_option():
    """dragons=asymmetric: every dragon card shows its asymmetric side, no question asked."""
    s = GAME.setup(P4, {"dragons": "asymmetric"}, 1)
    assert [p.gather for p in s.seats] == ["karyusama", "raijinsama", "fujinsama", "mizuchisama"]
    assert s.turn.stage == "main" and GAME.pending(s)[0].player == "ann"


def test_setup_each_player_chooses_the_side_of_their_dragon_card():
    """Rulebook "Setup" 2 (C-3): each player in seat order chooses the side of their dragon card; then round 1
    starts with the first seat."""
    s = GAME.setup(P3, {"dragons": "choose"}, 1)
    d = GAME.pending(s)[0]
    assert d.player == "ann" and d.kind == "setup" and s.turn.stage == "setup"
    assert [o.id for o in d.options] == ["dragon:symmetric", "dragon:asymmetric"]
    assert "Karyusama" in d.options[1].label
    assert_illegal(GAME, s, Move(player="bob", option="dragon:asymmetric"), match="not your turn")
    assert_illegal(GAME, s, Move(player="ann", option="fly:b2"))
    s, ev = play(s, "dragon:asymmetric")
    assert GAME.pending(s)[0].player == "bob" and any(e.kind == "setup" for e in ev)
    s, _ = play(s, "dragon:symmetric", "dragon:asymmetric")
    assert [p.gather for p in s.seats] == ["karyusama", "symmetric", "fujinsama"]
    assert s.turn.stage == "main" and s.current == 0 and s.round == 1
    assert GAME.pending(s)[0].kind == "turn"


# ---------------------------------------------------------------------------------------------- TM-16: who plays which


def test_tm16_colours_seat_deals_dragons_in_seat_order_by_default():
    """RULINGS TM-16: the default (``colours=seat``) deals Karyu, Raijin, Fujin, Mizuchi in seat order, no question
    asked; each colour (``mark``) is its dragon's."""
    s = GAME.setup(P4, None, 3)
    assert GAME.options(None).colours == "seat"
    assert [(p.dragon, p.element, p.mark) for p in s.seats] == [
        ("karyu", "F", 0), ("raijin", "L", 1), ("fujin", "N", 2), ("mizuchi", "W", 3)
    ]
    assert s == GAME.setup(P4, {"colours": "seat"}, 3)
    assert s.turn.stage == "main"


def test_tm16_colours_choose_each_player_picks_a_dragon_not_yet_taken():
    """RULINGS TM-16: with ``colours=choose`` each player in seat order picks a dragon not yet taken (Kihaku only
    with the Void); the colour follows the dragon, the start well stays by seat (TM-2); the last lone choice is
    made by the engine (C-3)."""
    s = GAME.setup(P3, {"colours": "choose"}, 3)
    d = GAME.pending(s)[0]
    assert (d.player, d.kind) == ("ann", "setup")
    assert d.prompt == "{@ann}: choose your dragon (and colour) from those not yet taken."
    assert [(o.id, o.label) for o in d.options] == [
        ("dragon:karyu", "Karyu (fire)"),
        ("dragon:raijin", "Raijin (lightning)"),
        ("dragon:fujin", "Fujin (wind)"),
        ("dragon:mizuchi", "Mizuchi (water)"),
    ]
    assert_illegal(GAME, s, Move(player="ann", option="dragon:kihaku"), match="not a choice")
    assert_illegal(GAME, s, Move(player="bob", option="dragon:karyu"), match="not your turn")
    s, ev = play(s, "dragon:mizuchi")
    assert [e.text for e in ev] == ["{@ann} takes Mizuchi (water)."]
    assert [o.id for o in GAME.pending(s)[0].options] == ["dragon:karyu", "dragon:raijin", "dragon:fujin"]
    s, _ = play(s, "dragon:karyu", "dragon:fujin")
    assert [(p.dragon, p.element, p.mark) for p in s.seats] == [("mizuchi", "W", 3), ("karyu", "F", 0), ("fujin", "N", 2)]
    assert [D.WELL_NAMES[p.well] for p in s.seats] == ["a1", "e1", "e5"]
    assert s.turn.stage == "main" and s.current == 0 and s.setup_queue == []


def test_tm16_no_two_players_share_a_colour_while_the_picks_go_on():
    """RULINGS TM-16: a colour is a dragon; players still to pick wear the free dragons' colours in seat order, so
    two players never show the same mark; the board reads "choosing" for a dragon not yet picked."""
    s = GAME.setup(P3, {"colours": "choose"}, 3)
    assert [p.mark for p in s.seats] == [0, 1, 2]
    assert gather_title(s.seats[0]) == "choosing"
    s, _ = play(s, "dragon:fujin")
    assert [p.mark for p in s.seats] == [2, 0, 1]
    s, _ = play(s, "dragon:raijin")
    assert [p.mark for p in s.seats] == [2, 1, 0]


def test_tm16_the_last_dragon_left_is_given_without_asking():
    """RULINGS TM-16 with C-3: four players, the fourth has one dragon left and gets it without a decision."""
    s = GAME.setup(P4, {"colours": "choose"}, 3)
    s, ev = play(s, "dragon:raijin", "dragon:fujin", "dragon:karyu")
    assert ev[-1].text == "{@dan} takes Mizuchi (water)."
    assert [p.dragon for p in s.seats] == ["raijin", "fujin", "karyu", "mizuchi"]
    assert s.turn.stage == "main"


def test_tm16_colours_choose_then_card_side_and_asymmetric_gathering():
    """RULINGS TM-16: the card side follows the picked dragon (``dragons=choose`` asks after the pick,
    ``dragons=asymmetric`` gives the picked dragon's gathering)."""
    s = GAME.setup(P2, {"colours": "choose", "dragons": "choose"}, 3)
    assert s.setup_queue == ["colour:ann", "dragon:ann", "colour:bob", "dragon:bob"]
    s, _ = play(s, "dragon:fujin")
    d = GAME.pending(s)[0]
    assert d.player == "ann" and d.options[1].label.startswith("Fujinsama (asymmetric side)")
    s, _ = play(s, "dragon:asymmetric", "dragon:raijin", "dragon:symmetric")
    assert [(p.dragon, p.gather) for p in s.seats] == [("fujin", "fujinsama"), ("raijin", "symmetric")]
    s = GAME.setup(P2, {"colours": "choose", "dragons": "asymmetric"}, 3)
    s, _ = play(s, "dragon:mizuchi", "dragon:karyu")
    assert [p.gather for p in s.seats] == ["mizuchisama", "karyusama"]


def test_tm16_with_the_void_kihaku_may_be_picked_and_names_its_element_next():
    """RULINGS TM-16, TM-1: with the Void, Kihaku is among the picks; its player names its element right after."""
    players = ["ann", "bob", "cat", "dan", "eve"]
    s = GAME.setup(players, {"void": True, "colours": "choose"}, 3)
    assert s.setup_queue == [f"colour:{p}" for p in players]  # nobody plays Kihaku yet
    labels = [o.label for o in GAME.pending(s)[0].options]
    assert labels[-1] == "Kihaku (the Void; you name its element next)"
    s, ev = play(s, "dragon:kihaku")
    assert ev[0].text == "{@ann} takes Kihaku (the Void)."
    d = GAME.pending(s)[0]
    assert d.player == "ann" and d.options[0].id == "element:fire"
    s, _ = play(s, "element:water", "dragon:karyu", "dragon:raijin", "dragon:fujin")
    assert [(p.dragon, p.element) for p in s.seats] == [
        ("kihaku", "W"), ("karyu", "F"), ("raijin", "L"), ("fujin", "N"), ("mizuchi", "W")
    ]
    assert D.WELL_NAMES[s.seats[4].well] == "c3" and s.turn.stage == "main"


def test_tm16_colours_random_deals_from_the_seed():
    """RULINGS TM-16: ``colours=random`` deals different dragons at random from the seed (the same seed, the same
    deal), start wells by seat; no question asked."""
    deals = set()
    for seed in range(20):
        s = GAME.setup(P3, {"colours": "random"}, seed)
        dragons = tuple(p.dragon for p in s.seats)
        assert len(set(dragons)) == 3 and set(dragons) <= set(D.DRAGONS[:4])
        assert [p.mark for p in s.seats] == [D.DRAGONS.index(d) for d in dragons]
        assert [p.element for p in s.seats] == [D.DRAGON_ELEMENT[d] for d in dragons]
        assert [D.WELL_NAMES[p.well] for p in s.seats] == ["a1", "e1", "e5"]
        assert s.turn.stage == "main"
        assert GAME.setup(P3, {"colours": "random"}, seed) == s
        deals.add(dragons)
    assert len(deals) > 5
    five = GAME.setup(["a", "b", "c", "d", "e"], {"colours": "random", "void": True}, 4)
    assert sorted(p.dragon for p in five.seats) == sorted(D.DRAGONS)
    kihaku = next(p for p in five.seats if p.dragon == "kihaku")
    assert five.setup_queue == [f"element:{kihaku.id}"]


def test_tm16_resign_during_the_picks_frees_the_dragon():
    """A player resigning during the picks leaves; play goes on with the others' picks."""
    s = GAME.setup(P4, {"colours": "choose"}, 3)
    s, _ = play(s, "dragon:karyu")
    s = GAME.resign(s, "ann").state
    assert s.setup_queue == ["colour:bob", "colour:cat", "colour:dan"]
    assert [o.id for o in GAME.pending(s)[0].options] == [f"dragon:{d}" for d in D.DRAGONS[:4]]


def test_resign_during_setup_drops_the_choices():
    """A player resigning during the setup choices loses their queued choices; play goes on."""
    s = GAME.setup(P4, {"dragons": "choose"}, 1)
    out = GAME.resign(s, "ann")
    s = out.state
    assert GAME.pending(s)[0].player == "bob" and s.setup_queue == ["dragon:bob", "dragon:cat", "dragon:dan"]
    s, _ = play(s, "dragon:asymmetric", "dragon:symmetric")
    s = GAME.resign(s, "dan").state
    assert s.turn.stage == "main" and s.round == 1 and s.current == 0 and s.players == ["bob", "cat"]
    assert [p.gather for p in s.seats] == ["raijinsama", "symmetric"]


def test_asymmetric_names_per_dragon():
    assert ASYMMETRIC == {
        "karyu": "karyusama",
        "raijin": "raijinsama",
        "fujin": "fujinsama",
        "mizuchi": "mizuchisama",
        "kihaku": "kihakusama",
    }


# ---------------------------------------------------------------------------------------------- Raijinsama


def test_raijinsama_first_ring_from_any_of_the_8_around():
    """Raijinsama: the 8 surrounding wells (orthogonal and diagonal), never a guarded or depleted one."""
    s = dragon_state("raijinsama", "c3", bob="d4", c4="")
    assert gathers(s) == ["gather:b2", "gather:b3", "gather:b4", "gather:c2", "gather:d2", "gather:d3"]


def test_raijinsama_second_ring_matches_the_first():
    """Raijinsama: the second ring must match the first (another well); c2 keeps fire on top but is not offered."""
    s = dragon_state("raijinsama", "c3", c2="FF", d2="WF", b4="F", d3="W")
    s, _ = play(s, "gather:c2")
    assert s.turn.stage == "gather2"
    assert ids(s) == ["gather:d2", "gather:b4"]
    s, _ = play(s, "gather:b4")
    assert s.seats[0].holding["F"] == 2 and s.turn.stage == "main" and s.turn.gathered == "FF"


def test_raijinsama_no_match_claims_one_ring():
    """Raijinsama: "up to two" — with no matching ring around, the gathering claims one ring."""
    s = dragon_state("raijinsama", "c3", d3="N")
    s, _ = play(s, "gather:d3")
    assert s.turn.stage == "main" and s.turn.acted and s.seats[0].holding["N"] == 1
    assert sum(s.seats[0].holding.values()) == 1


# ---------------------------------------------------------------------------------------------- Karyusama


def test_karyusama_breath_skips_depleted_wells():
    """Karyusama: the two nearest rings in a straight line, skipping depleted wells."""
    s = dragon_state("karyusama", "a1", b1="", c1="F", d1="", e1="W")
    assert "breath:e" in ids(s) and not any(i.startswith("gather:") for i in ids(s))
    s, ev = play(s, "breath:e")
    p = s.seats[0]
    assert p.holding["F"] == 1 and p.holding["W"] == 1 and s.wells[W["c1"]] == "" and s.wells[W["e1"]] == ""
    assert s.turn.acted and p.well == W["a1"]
    assert [e.data["well"] for e in ev if e.kind == "claim"] == ["c1", "e1"]


def test_karyusama_breath_blocked_by_a_guarded_well():
    """Karyusama: a guarded well stops the breath (fewer than two rings); a blocked first well gives nothing."""
    s = dragon_state("karyusama", "a1", bob="d1", b1="", c1="F", e1="W")
    s, ev = play(s, "breath:e")
    assert [e.data["well"] for e in ev if e.kind == "claim"] == ["c1"]
    s = dragon_state("karyusama", "a1", bob="b1")
    assert "breath:e" not in ids(s)
    assert sorted(i for i in ids(s) if i.startswith("breath:")) == ["breath:s", "breath:se"]


def test_karyusama_diagonal_breath():
    """Karyusama breathes along diagonals too (straight lines are the queen lines, like the fly)."""
    s = dragon_state("karyusama", "a1", b2="N", c3="W")
    s, ev = play(s, "breath:se")
    assert [e.data["well"] for e in ev if e.kind == "claim"] == ["b2", "c3"]


# ---------------------------------------------------------------------------------------------- Fujinsama


def test_fujinsama_dash_two_wells_claims_each_well_left():
    """Fujinsama: move up to two wells in one direction; each well exited gives its top ring (rulebook
    "Movement")."""
    s = dragon_state("fujinsama", "c3", c3="WF", c2="N", c1="L")
    assert {"dash:c1", "dash:c2", "dash:a1", "dash:a5", "dash:b3"} <= set(ids(s))
    assert "dash:e5" not in ids(s)  # Bob guards e5
    s, ev = play(s, "dash:c1")
    p = s.seats[0]
    assert p.well == W["c1"] and p.holding["F"] == 1 and p.holding["N"] == 1 and sum(p.holding.values()) == 2
    assert s.wells[W["c3"]] == "W" and s.wells[W["c1"]] == "L" and s.turn.acted


def test_fujinsama_one_step_claims_one_ring():
    s = dragon_state("fujinsama", "c3", c3="F")
    s, _ = play(s, "dash:c2")
    p = s.seats[0]
    assert p.well == W["c2"] and sum(p.holding.values()) == 1 and s.wells[W["c3"]] == ""
    assert s.sand_dollars == [W["c3"]]


def test_fujinsama_depleted_wells_are_not_skipped_and_guarded_block():
    """Fujinsama: a depleted well counts as a step and gives nothing; a guarded well can be neither entered nor
    passed."""
    s = dragon_state("fujinsama", "c3", c2="")
    s, _ = play(s, "dash:c1")
    assert sum(s.seats[0].holding.values()) == 1
    s = dragon_state("fujinsama", "c3", bob="c2")
    assert "dash:c2" not in ids(s) and "dash:c1" not in ids(s)
    s = dragon_state("fujinsama", "a1")
    assert sorted(i for i in ids(s) if i.startswith("dash:")) == [
        "dash:a2",
        "dash:a3",
        "dash:b1",
        "dash:b2",
        "dash:c1",
        "dash:c3",
    ]


# ---------------------------------------------------------------------------------------------- Mizuchisama


def test_mizuchisama_dive_and_reemerge_then_claim_an_adjacent_ring():
    """Mizuchisama: claim the ring beneath, reemerge at a (topmost) matching ring, claim any adjacent ring."""
    s = dragon_state("mizuchisama", "c3", c3="LF", a5="WF", e1="F", e2="FW")
    dives = sorted(i for i in ids(s) if i.startswith("dive:"))
    assert dives == ["dive:a5", "dive:e1"]
    s, _ = play(s, "dive:a5")
    p = s.seats[0]
    assert p.well == W["a5"] and p.holding["F"] == 1 and s.wells[W["c3"]] == "L" and s.wells[W["a5"]] == "WF"
    assert s.turn.stage == "gather2" and ids(s) == ["gather:a4", "gather:b4", "gather:b5"]
    s, _ = play(s, "gather:b4")
    assert sum(s.seats[0].holding.values()) == 2 and s.turn.stage == "main"


def test_mizuchisama_needs_a_ring_beneath_and_a_free_match():
    """Mizuchisama: no gathering without a ring beneath or without an unguarded matching well."""
    s = dragon_state("mizuchisama", "c3", c3="")
    assert not any(i.startswith(("dive:", "gather:")) for i in ids(s))
    s = dragon_state("mizuchisama", "c3", bob="a5", c3="F", a5="F")
    assert not any(i.startswith("dive:") for i in ids(s))


def test_mizuchisama_the_dived_well_may_be_gathered():
    """After reemerging next to the well it dived at, Mizuchisama may claim that well's new top ring."""
    s = dragon_state("mizuchisama", "c3", c3="NF", c2="F")
    s, _ = play(s, "dive:c2")
    assert "gather:c3" in ids(s)


# ---------------------------------------------------------------------------------------------- Kihakusama


def test_kihakusama_edges_of_row_and_column():
    """Kihakusama: the edge rings of the dragon's row and column (a3, e3, c1, c5 from c3)."""
    s = dragon_state("kihakusama", "c3")
    assert gathers(s) == ["gather:a3", "gather:c1", "gather:c5", "gather:e3"]


def test_kihakusama_skips_depleted_edges_and_bypasses_inner_guards():
    """Depleted edge wells are skipped (b3 instead of a3); a guarded well off the edge is bypassed (c1 with Bob
    on c2); a guarded edge closes that end (Bob on e3)."""
    s = dragon_state("kihakusama", "c3", bob="c2", a3="")
    assert gathers(s) == ["gather:b3", "gather:c1", "gather:c5", "gather:e3"]
    s = dragon_state("kihakusama", "c3", bob="e3")
    assert gathers(s) == ["gather:a3", "gather:c1", "gather:c5"]


def test_kihakusama_second_ring_from_another_end():
    """The two rings come from two different ends: a3 emptied, b3 (the same end) is not offered."""
    s = dragon_state("kihakusama", "c3", a3="F", b3="W")
    s, _ = play(s, "gather:a3")
    assert s.turn.stage == "gather2" and ids(s) == ["gather:c1", "gather:e3", "gather:c5"]
    s, _ = play(s, "gather:c5")
    assert sum(s.seats[0].holding.values()) == 2


def test_kihakusama_on_an_edge_has_fewer_ends():
    s = dragon_state("kihakusama", "a1", bob="e5")
    assert gathers(s) == ["gather:a5", "gather:e1"]


# ---------------------------------------------------------------------------------------------- turn structure


@pytest.mark.parametrize("gather, oid", [("karyusama", "breath:s"), ("fujinsama", "dash:a3")])
def test_special_gathering_is_the_turns_action_fly_unchanged(gather, oid):
    """The asymmetric gathering replaces gather/offer for the turn; the fly is unchanged (rulebook: "no difference
    in the fly or offering actions")."""
    s = dragon_state(gather, "a1")
    base = dragon_state("symmetric", "a1")
    assert [i for i in ids(s) if i.startswith("fly:")] == [i for i in ids(base) if i.startswith("fly:")]
    s, _ = play(s, oid)
    assert not any(i.startswith(("breath:", "dash:", "gather:", "offer:")) for i in ids(s))
    assert all(i.startswith("fly:") for i in ids(s))
    s, _ = play(s, ids(s)[0])
    assert s.current == 1  # the lone "end" was applied by itself (C-3)


def test_offering_unchanged_for_asymmetric_dragons():
    """Asymmetric dragons offer like the others."""
    s = dragon_state("raijinsama", "c1")
    s.shrines = ["F", "W", "N", "L"]
    hold(s, 0, F=2, N=2)
    s = refresh(s)
    assert "offer:fire" in ids(s)


def test_kihaku_element_needs_the_void():
    """Kihaku is the Void's 5th dragon (TM-1): 5 players only with the void option."""
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c", "d", "e"], None, 1)
    s = GAME.setup(["a", "b", "c", "d", "e"], {"void": True, "dragons": "asymmetric"}, 1)
    assert s.seats[4].dragon == "kihaku" and s.seats[4].gather == "kihakusama"
    assert D.WELL_NAMES[s.seats[4].well] == "c3"


def test_status_and_help_name_the_modules():
    """Status during the setup choices; help topics for dragons, islands and the Void."""
    s = GAME.setup(P2, {"dragons": "choose"}, 1)
    assert GAME.status(s) == "Setup: {@ann} to choose the side of the dragon card (2 setup choices left)."
    s = GAME.setup(P2, {"colours": "choose", "island": "choose"}, 1)
    assert GAME.status(s) == "Setup: {@ann} to choose a dragon (4 setup choices left)."
    for topic, word in (("dragons", "Karyusama"), ("islands", "Mizukame"), ("void", "Kihaku")):
        assert word in GAME.rules_help[topic]
