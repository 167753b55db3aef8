"""Tatsumi weather module: one test per clause of the rulebook's "Weather Module" and of RULINGS TM-13 and TM-18
(with C-3)."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tatsumi_helpers import P2, P3, W, at, full_wells, hold, ids, island, play, refresh, set_island

from games import Move
from games.tatsumi import GAME, weather
from games.tatsumi import data as D
from games.tatsumi.state import WeatherCard


def wgame(players=P2, minor="W", major="F", seed=1, wells=None, **cards) -> object:
    """A weather game with the minor card of ``minor`` and the major card of ``major`` (counts via ``cards``:
    ``minor_on``, ``minor_in``, ``major_on``, ``major_in``); ``wells`` replaces the seaboard (rings balanced through
    the box)."""
    s = GAME.setup(list(players), {"weather": True}, seed)
    s.weather = [
        WeatherCard(
            element=minor,
            side="minor",
            total=5,
            on_card=cards.get("minor_on", 0),
            in_wells=cards.get("minor_in", 0),
        ),
        WeatherCard(
            element=major,
            side="major",
            total=8,
            on_card=cards.get("major_on", 0),
            in_wells=cards.get("major_in", 0),
        ),
    ]
    if wells is not None:
        pool = list("".join(s.wells) + s.removed)
        for c in "".join(wells):
            if c in pool:
                pool.remove(c)
        s.wells = list(wells)
        s.removed = "".join(pool)
    return s


def minor(s):
    return s.weather[0]


def major(s):
    return s.weather[1]


# ---------------------------------------------------------------------------------------------- setup


def test_weather_setup_two_different_cards_minor_5_major_8():
    """Rulebook "Weather Setup": one card minor with 5 sand dollars beside it, another major with 8 (5 + 8 = 13)."""
    for seed in range(30):
        s = GAME.setup(P3, {"weather": True}, seed)
        a, b = s.weather
        assert (a.side, a.total, a.beside, a.on_card) == ("minor", 5, 5, 0)
        assert (b.side, b.total, b.beside, b.on_card) == ("major", 8, 8, 0)
        assert a.element != b.element and {a.element, b.element} <= set(D.ELEMENTS)
    elements = {
        tuple(c.element for c in GAME.setup(P2, {"weather": True}, seed).weather) for seed in range(60)
    }
    assert len(elements) > 6  # the cards come from the seed (C-1)
    assert GAME.setup(P2, {"weather": True}, 4) == GAME.setup(P2, {"weather": True}, 4)


def test_weather_is_an_option_off_by_default_and_leaves_the_base_deal_alone():
    """Without the option there is no weather; with it the base deal (wells, shrines, cards) is unchanged."""
    base = GAME.setup(P3, None, 9)
    on = GAME.setup(P3, {"weather": True}, 9)
    assert base.weather == [] and GAME.options(None).weather is False
    assert (base.wells, base.shrines, base.cards) == (on.wells, on.shrines, on.cards)
    assert GAME.status(wgame()).endswith("weather Flash Flood 0 on/5 beside, Eruption 0 on/8 beside.")


# ---------------------------------------------------------------------------------------------- adding sand dollars


def test_tm13_claims_add_one_sand_dollar_per_turn_per_element():
    """TM-13 / "Adding a Sand Dollar": claiming water (fly and gather, 3 rings) adds one sand dollar to the water
    card, once in the turn; lightning (no card) adds none."""
    wells = full_wells("L")
    wells[W["c3"]] = "LW"
    wells[W["b3"]] = "LW"
    wells[W["d3"]] = "LW"
    s = wgame(wells=wells)
    at(s, 0, "c3")
    s = refresh(s)
    s, ev = play(s, "gather:b3", "gather:d3")
    assert s.seats[0].holding["W"] == 2
    assert (minor(s).on_card, minor(s).beside) == (1, 4)
    assert [e.kind for e in ev].count("weather_add") == 1
    s, ev = play(s, "fly:a1")  # claims the third water from c3: same turn, no second sand dollar
    assert s.seats[0].holding["W"] == 3 and minor(s).on_card == 1
    assert "weather_add" not in [e.kind for e in ev]
    # bob's turn: a new turn adds again
    at(s, 1, "c2")
    s = refresh(s)
    s, _ = play(s, "fly:c1")
    assert s.seats[1].holding["L"] == 1 and minor(s).on_card == 1  # lightning: no card
    s2 = wgame(wells=wells)
    at(s2, 0, "b3")
    s2 = refresh(s2)
    s2, _ = play(s2, "fly:b4")
    s2 = refresh(s2)  # (a new turn of the same player)
    at(s2, 0, "d3")
    s2 = refresh(s2)
    s2, _ = play(s2, "fly:d4")
    assert minor(s2).on_card == 2


def test_tm13_major_card_gets_its_own_sand_dollar():
    wells = full_wells("L")
    wells[W["b3"]] = "LF"
    wells[W["d3"]] = "LW"
    s = wgame(wells=wells)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3", "gather:d3")
    assert (minor(s).on_card, major(s).on_card) == (1, 1)
    assert (minor(s).beside, major(s).beside) == (4, 7)


# ---------------------------------------------------------------------------------------------- removing sand dollars


def _offer_water(s):
    s.shrines = ["W", "F", "N", "L"]
    s.sides[0] = "front"
    at(s, 0, "c1")
    hold(s, 0, W=2, L=2)
    return refresh(s)


def test_tm13_placing_the_element_removes_one_sand_dollar_per_turn():
    """TM-13 / "Removing Sand Dollars": an offering placing 2 water rings takes one sand dollar off the water card
    (back beside it), once in the turn."""
    s = _offer_water(wgame(wells=full_wells("L"), minor_on=3))
    s, ev = play(s, "offer:water", "water@A3", "water@B3")
    assert (minor(s).on_card, minor(s).beside) == (2, 3)
    assert [e.kind for e in ev].count("weather_remove") == 1


def test_tm13_placing_with_no_sand_dollar_on_the_card_removes_nothing():
    s = _offer_water(wgame(wells=full_wells("L")))
    s, ev = play(s, "offer:water", "water@A3", "water@B3")
    assert (minor(s).on_card, minor(s).beside) == (0, 5)
    assert "weather_remove" not in [e.kind for e in ev]


def test_tm13_overflow_placement_also_removes():
    """Overflow rings are placed on the island too, so they take a sand dollar off their card."""
    s = wgame(wells=full_wells("L"), major_on=2)
    hold(s, 0, F=2, W=1, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3")
    if s.turn.stage == "gather2":
        s, _ = play(s, ids(s)[0])
    s, ev = play(s, "overflow:fire", "fire@A2", "fire@B2")
    assert major(s).on_card == 1


# ---------------------------------------------------------------------------------------------- triggering


def _swap_ready(s):
    """Ann: W on A3 (rift) and B3 (plain) between wind on B2 and fire on B4: two legal water swaps."""
    set_island(s, 0, island(W="A3 B3", F="B4", N="B2"))
    return s


def test_tm13_trigger_when_no_sand_dollar_is_left_beside():
    """Rulebook "Triggering": the last sand dollar beside the card goes on it -> every player swaps (seat order from the
    current one), then the card's sand dollars go back beside it."""
    wells = full_wells("L")
    wells[W["b3"]] = "LW"
    s = _swap_ready(wgame(wells=wells, minor_on=4))
    at(s, 0, "c3")
    s = refresh(s)
    s, ev = play(s, "gather:b3")
    kinds = [e.kind for e in ev]
    assert kinds.index("weather_add") < kinds.index("weather")
    c = minor(s)
    assert (c.on_card, c.beside, c.triggered) == (0, 5, 1)
    assert s.interrupts == ["swap:0:W:1", "swap:1:W:1"]
    d = GAME.pending(s)[0]
    assert (d.player, d.kind) == ("ann", "swap")
    assert sorted(o.id for o in d.options) == ["swap:B3-B2", "swap:B3-B4"]
    s, ev = play(s, "swap:B3-B4")
    assert s.seats[0].island == island(W="A3 B4", F="B3", N="B2")
    # bob has no water ring: he skips without being asked (C-3), and ann's turn goes on (second gather)
    assert "weather_skip" in [e.kind for e in ev]
    assert s.interrupts == [] and s.turn.stage == "gather2" and GAME.pending(s)[0].player == "ann"


def test_tm13_swaps_never_break_a_rift():
    """TM-13: both swapped rings must stand on plain spaces (a rift holds only its element, TM-8)."""
    lay = weather.layout("tatsumi")
    isl = island(W="A3", F="A2")  # both on rifts, adjacent
    assert weather.swap_pairs(lay, isl, "W") == []
    isl = island(W="A3 B3", F="A2 B2")
    # B3 water may swap with B2 fire (plain), never with A2 (fire rift) nor be A3 (water rift)
    assert [(lay.names[i], lay.names[j]) for i, j in weather.swap_pairs(lay, isl, "W")] == [("B3", "B2")]


def test_tm13_major_card_two_swaps_for_every_player_and_other_players_answer():
    """Major: two swaps each; a swap by another seat is that seat's decision (the current player is refused)."""
    wells = full_wells("L")
    wells[W["b3"]] = "LF"
    s = wgame(wells=wells, minor="W", major="F", major_on=7)
    set_island(s, 0, island(W="A3"))  # ann: no fire ring -> skips
    set_island(s, 1, island(F="A2 B2 B3", W="A3 B4", N="C3"))
    at(s, 0, "c3")
    s = refresh(s)
    s, ev = play(s, "gather:b3")
    assert s.interrupts[0] == "swap:1:F:2"
    d = GAME.pending(s)[0]
    assert d.player == "bob" and d.kind == "swap"
    assert_illegal(GAME, s, Move(player="ann", option=d.options[0].id), match="not your turn")
    before = s.seats[1].island
    s, _ = play(s, "swap:B3-B4")
    assert s.interrupts[0] == "swap:1:F:1:B3-B4" and GAME.pending(s)[0].player == "bob"  # TM-18: B3-B4 kept
    s, _ = play(s, GAME.pending(s)[0].options[0].id)
    assert s.interrupts == [] and GAME.pending(s)[0].player == "ann"
    after = s.seats[1].island
    assert sorted(before) == sorted(after) and before != after  # the same rings, moved


def _major_fire_for_bob(bob_island: str):
    """Ann gathers the 8th fire sand dollar onto the major card (fire): ann (no fire ring) skips, bob swaps twice."""
    wells = full_wells("L")
    wells[W["b3"]] = "LF"
    s = wgame(wells=wells, minor="W", major="F", major_on=7)
    set_island(s, 0, island(W="A3"))
    set_island(s, 1, bob_island)
    at(s, 0, "c3")
    return play(refresh(s), "gather:b3")


def test_tm18_the_second_swap_may_not_undo_the_first():
    """RULINGS TM-18 (was: both lone swaps applied, cancelling out): bob's only swap is fire B2 with water B3;
    it is made (C-3); the second swap could only exchange B3 and B2 back, which is not allowed, so bob skips and
    his island keeps the first swap."""
    s, ev = _major_fire_for_bob(island(F="A2 B2", W="B3"))
    assert s.seats[1].island == island(F="A2 B3", W="B2")
    swaps = [e.text for e in ev if e.kind in ("weather_swap", "weather_skip")]
    assert swaps == [
        "{@ann} has no legal fire swap.",
        "{@bob} swaps fire on B2 with water on B3.",
        "{@bob} has no legal fire swap.",
    ]
    assert s.interrupts == [] and GAME.pending(s)[0].player == "ann"


def test_tm18_the_undoing_pair_is_not_offered_the_others_are():
    """RULINGS TM-18: after bob swaps fire B3 with water B4, the second swap offers every legal pair except B4
    with B3 (the same two spaces); the prompt says which exchange is barred."""
    s, _ = _major_fire_for_bob(island(F="A2 B2 B3", W="A3 B4", N="C3"))
    s, _ = play(s, "swap:B3-B4")
    assert s.seats[1].island == island(F="A2 B2 B4", W="A3 B3", N="C3")
    d = GAME.pending(s)[0]
    assert d.player == "bob" and d.prompt == "{@bob}: weather — the second fire swap (not B3 with B4 back)."
    assert [o.id for o in d.options] == ["swap:B2-B3", "swap:B2-C3"]  # not B4-B3 (B4 does not touch C3)
    assert_illegal(GAME, s, Move(player="bob", option="swap:B4-B3"), match="not a choice")
    s, _ = play(s, "swap:B2-C3")
    assert s.seats[1].island == island(F="A2 C3 B4", W="A3 B3", N="B2")
    assert s.interrupts == []


def test_tm18_a_minor_event_has_one_swap_and_no_memory():
    """RULINGS TM-13/TM-18: a minor event's single swap leaves no remembered pair behind."""
    wells = full_wells("L")
    wells[W["b3"]] = "LW"
    s = wgame(wells=wells, minor="W", major="F", minor_on=4)
    set_island(s, 0, island(F="A2"))
    set_island(s, 1, island(W="A3 B3", F="B4"))
    at(s, 0, "c3")
    s, ev = play(refresh(s), "gather:b3")
    assert s.seats[1].island == island(W="A3 B4", F="B3")
    assert s.interrupts == [] and [e.kind for e in ev].count("weather_swap") == 1


def test_tm13_swap_unlocking_a_blessing_places_its_scale():
    """Rulebook "Island Blessings": rings moved by weather may unlock a blessing; its scale goes on a card at once
    (by the island's owner, even out of turn), scoring it."""
    wells = full_wells("L")
    wells[W["b3"]] = "LW"
    s = wgame(wells=wells, minor_on=4)
    s.cards = ["jellyfish", "turtle", "toad", "monkey"]
    set_island(s, 1, island(W="C1 C4", F="C2 D4", N="C3"))
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3")  # ann has no water on her island: skips; bob swaps
    assert GAME.pending(s)[0].player == "bob"
    assert sorted(ids(s)) == ["swap:C4-C3", "swap:C4-D4"]
    s, ev = play(s, "swap:C4-D4")
    assert "blessing" in [e.kind for e in ev]
    d = GAME.pending(s)[0]
    assert (d.player, d.kind) == ("bob", "scale")
    assert d.prompt == (
        "{@bob}: place the scale of the island blessing on C3 (unlocked by the weather) on a summoning card."
    )
    assert {o.id for o in d.options} == {"card:jellyfish", "card:turtle", "card:toad", "card:monkey"}
    s, ev = play(s, "card:jellyfish")
    bob = s.seats[1]
    assert bob.blessings == [True, False] and bob.cards[0] == 1 and bob.fortune == 2
    assert GAME.pending(s)[0].player == "ann" and s.interrupts == []


# ---------------------------------------------------------------------------------------------- depleted wells


def _b3_depleted_by_a_gather():
    """Ann on c3 gathers b3's only ring (wind), with 2 sand dollars on the minor card: (state, events)."""
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    s = wgame(wells=wells, minor_on=2)
    at(s, 0, "c3")
    s = refresh(s)
    return play(s, "gather:b3")


def test_tm13_depleted_well_choice_of_sand_dollar():
    """Rulebook "Placing Sand Dollars into Depleted Seawells": the player chooses which sand dollar goes in, from on or
    beside either card."""
    s, ev = _b3_depleted_by_a_gather()
    assert s.sand_dollars == [W["b3"]]
    d = GAME.pending(s)[0]
    assert (d.player, d.kind) == ("ann", "sand")
    assert [o.id for o in d.options] == ["sand:minor:card", "sand:minor:beside", "sand:major:beside"]
    s, ev = play(s, "sand:minor:card")
    assert (minor(s).on_card, minor(s).beside, minor(s).in_wells) == (1, 3, 1)
    assert s.interrupts == [] and s.turn.stage == "gather2"  # the turn goes on


def test_tm13_sand_dollar_from_beside_can_trigger_the_card():
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    s = wgame(wells=wells, minor_on=2, minor_in=2)  # 1 beside
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3")
    s, ev = play(s, "sand:minor:beside")
    assert "weather" in [e.kind for e in ev]
    assert (minor(s).on_card, minor(s).beside, minor(s).in_wells, minor(s).triggered) == (0, 2, 3, 1)


def test_tm13_neutralised_when_all_its_sand_dollars_are_in_the_sea():
    """Rulebook "Neutralizing": the card's last sand dollar goes into the seaboard -> neutralised, no longer in play (claims of
    its element add nothing)."""
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    wells[W["d3"]] = "LW"
    s = wgame(wells=wells, minor_in=4)  # 1 beside
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3")
    s, ev = play(s, "sand:minor:beside")
    assert minor(s).neutralized and "weather_neutralized" in [e.kind for e in ev]
    assert weather.card_for(s, "W") is None
    s, ev = play(s, "gather:d3")
    assert "weather_add" not in [e.kind for e in ev] and minor(s).on_card == 0


def test_c3_a_lone_sand_dollar_source_is_taken_without_asking():
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    s = wgame(wells=wells, minor_in=5, major_in=7)
    s.weather[0].neutralized = True
    s.sand_dollars = [W[w] for w in ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "a4", "b4")]
    for w in s.sand_dollars:
        s.removed += s.wells[w]
        s.wells[w] = ""
    at(s, 0, "c3")
    s = refresh(s)
    s, ev = play(s, "gather:b3")
    assert len(s.sand_dollars) == 13 and s.end_triggered
    assert major(s).neutralized and s.interrupts == []
    assert "weather_sand" in [e.kind for e in ev]


@pytest.mark.parametrize("oid", ["sand:major:card", "swap:B3-B4", "card:koi", "gather:b3", "sand:minor"])
def test_unlisted_weather_options_refused(oid):
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    s = wgame(wells=wells)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3")
    assert GAME.pending(s)[0].kind == "sand"
    assert_illegal(GAME, s, Move(player="ann", option=oid))
    assert_illegal(GAME, s, Move(player="bob", option="sand:minor:beside"), match="not your turn")


def test_resignation_drops_the_leavers_weather_decisions_and_renumbers_seats():
    """A player leaving during a weather event: their swap is dropped, later seats' swaps follow their seat; a
    leaver's pending sand dollar choice is made by the engine (the first source listed)."""
    wells = full_wells("L")
    wells[W["b3"]] = "LW"
    s = wgame(players=P3, wells=wells, minor_on=4)
    for seat in range(3):
        set_island(s, seat, island(W="A3 B3", F="B4", N="B2"))
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:b3")
    assert s.interrupts == ["swap:0:W:1", "swap:1:W:1", "swap:2:W:1"]
    out = GAME.resign(s, "bob")
    assert out.state.interrupts == ["swap:0:W:1", "swap:1:W:1"]
    assert [p.id for p in out.state.seats] == ["ann", "cat"]
    s2, _ = play(out.state, "swap:B3-B4")
    assert GAME.pending(s2)[0].player == "cat" and GAME.pending(s2)[0].kind == "swap"
    # the current player leaves with a sand dollar choice pending
    wells = full_wells("L")
    wells[W["b3"]] = "N"
    t = wgame(players=P3, wells=wells)
    at(t, 0, "c3")
    t = refresh(t)
    t, _ = play(t, "gather:b3")
    assert GAME.pending(t)[0].kind == "sand"
    out = GAME.resign(t, "ann")
    assert out.state.interrupts == [] and sum(c.in_wells for c in out.state.weather) == 1
    assert GAME.pending(out.state)[0].player == "bob" and out.state.turn.stage == "main"


def test_tm13_sand_dollar_choices_read_off_or_from_beside_the_card():
    """The depleted well's sand dollar: "off" the card or "from beside" it, each with how many lie there."""
    s, _ = _b3_depleted_by_a_gather()
    d = GAME.pending(s)[0]
    name = str(weather.title(minor(s)))
    assert [o.label for o in d.options][:2] == [
        f"sand dollar off {name} (2 on it) into b3",
        f"sand dollar from beside {name} (3 beside it) into b3",
    ]
    s, ev = play(s, "sand:minor:card")
    assert f"The sand dollar in b3 comes off {name} (1 on it, 3 beside, 1 in the sea)." in [e.text for e in ev]
