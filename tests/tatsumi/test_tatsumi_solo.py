"""Tatsumi solo mode: one test per clause of the rulebook's "Solo-mode" and of RULINGS TM-14 and TM-19 (with TM-1,
TM-3, TM-13, TM-16 and C-3)."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tatsumi_helpers import W, at, check_invariants, full_wells, hold, ids, island, play, refresh, set_island

from games import Move
from games.tatsumi import GAME, solo
from games.tatsumi import data as D
from games.tatsumi.island import layout
from games.tatsumi.seaboard import guarded_wells
from games.tatsumi.solo_data import SOLO_CARDS, SOLO_RANKS, rank_line, rank_name
from games.tatsumi.state import WeatherCard

SOLO = {"solo": True}


def sgame(card: int = 3, deck=None, wells=None, seed: int = 1, minor="W", major="F"):
    """A solo game for ``al`` with face-up card ``card`` (tokens placed), ``deck`` the cards below it, the weather
    cards ``minor``/``major`` empty, and ``wells`` (rings balanced through the box)."""
    s = GAME.setup(["al"], SOLO, seed)
    s.weather = [
        WeatherCard(element=minor, side="minor", total=5),
        WeatherCard(element=major, side="major", total=8),
    ]
    if wells is not None:
        pool = list("".join(s.wells) + s.removed)
        for c in "".join(wells):
            if c in pool:
                pool.remove(c)
        s.wells = list(wells)
        s.removed = "".join(pool)
    s.solo.card = card
    rest = [k for k in range(16) if k != card]
    s.solo.deck = list(deck) if deck is not None else rest
    solo._position(s, [])
    return refresh(s)


def names(wells):
    return sorted(D.WELL_NAMES[w] for w in wells if w >= 0)


# ---------------------------------------------------------------------------------------------- lobby and setup


def test_tm1_tm14_one_player_only_in_solo_mode():
    """TM-1: 1-4 players, one only in solo mode; solo mode only for one player (clear ValueErrors)."""
    assert GAME.min_players == 1
    with pytest.raises(ValueError, match="solo=true"):
        GAME.setup(["al"], None, 1)
    with pytest.raises(ValueError, match="exactly one player"):
        GAME.setup(["al", "bo"], SOLO, 1)
    with pytest.raises(ValueError):
        GAME.setup([], SOLO, 1)
    assert GAME.setup(["al"], SOLO, 1).solo is not None
    assert GAME.options({"solo": "true"}).solo is True  # lobby text as typed


def test_tm14_setup_all_rings_weather_deck_and_tokens():
    """ "Solo-mode Setup": all 112 rings in the seaboard; the weather module; the 16 cards shuffled from the seed and
    the first turned up; two Tekitatsu and the maelstrom on its wells; the dragon on a1."""
    firsts = set()
    for seed in range(40):
        s = GAME.setup(["al"], SOLO, seed)
        check_invariants(s)
        assert s.removed == "" and sum(len(w) for w in s.wells) == 112
        assert [c.total for c in s.weather] == [5, 8]
        sb = s.solo
        assert sorted([sb.card, *sb.deck]) == list(range(16)) and sb.turns == 0 and s.round == 1
        card = SOLO_CARDS[sb.card]
        assert s.seats[0].well == W["a1"]
        expect = [W[w] if W[w] != W["a1"] else -1 for w in card.tekitatsu]
        assert sb.tekitatsu == expect
        assert sb.maelstrom == (W[card.maelstrom] if card.maelstrom != "a1" else -1)
        firsts.add(sb.card)
    assert len(firsts) > 8
    assert GAME.setup(["al"], SOLO, 5) == GAME.setup(["al"], SOLO, 5)


def test_tm14_solo_cards_data():
    """TM-14: 16 cards, each two Tekitatsu wells and a maelstrom well (three different wells), an upkeep of none or
    one edge; no card repeats a triple."""
    assert len(SOLO_CARDS) == 16
    triples = set()
    for c in SOLO_CARDS:
        wells = {*c.tekitatsu, c.maelstrom}
        assert len(wells) == 3 and wells <= set(D.WELL_NAMES)
        assert c.upkeep in ("", *D.EDGES)
        triples.add(frozenset(wells))
    assert len(triples) == 16


# ---------------------------------------------------------------------------------------------- guarding (TM-3)


def test_tm3_tm14_tekitatsu_and_maelstrom_guard_their_wells():
    """TM-3: the dragon may not enter or pass a Tekitatsu or the maelstrom, nor gather from beneath them."""
    s = sgame(card=3, wells=full_wells("L"))  # Tekitatsu b3 d3, maelstrom c5
    at(s, 0, "c3")
    s = refresh(s)
    flies = {o[4:] for o in ids(s) if o.startswith("fly:")}
    assert not flies & {"b3", "a3", "d3", "e3"}  # west and east rays blocked at once
    assert {"c4", "c1", "a1", "e5"} <= flies and "c5" not in flies  # c5: the maelstrom
    gathers = {o[7:] for o in ids(s) if o.startswith("gather:")}
    assert gathers == {"c2", "c4"}


def test_tm3_lift_when_the_storm_boxes_the_dragon_in():
    """TM-3: with no flight possible the dragon is lifted to any unguarded well."""
    s = sgame(card=5, wells=full_wells("L"))  # Tekitatsu a4 e2, maelstrom b1
    s.solo.tekitatsu = [W["a2"], W["b2"]]
    s = refresh(s)
    flies = [o for o in ids(s) if o.startswith("fly:")]
    assert len(flies) == 21 and not {"fly:a2", "fly:b2", "fly:b1", "fly:a1"} & set(flies)
    s, ev = play(s, "fly:e5")
    assert ev[0].kind == "lift" and s.wells[W["a1"]] == "LLL"


# ---------------------------------------------------------------------------------------------- the Tekitatsu (step 2)


def test_tm14_tekitatsu_remove_the_top_ring_of_their_orthogonal_neighbours():
    """Step 2: each Tekitatsu removes the top ring of every orthogonally adjacent well at once; a well next to both
    loses one ring; wells guarded by the dragon, the maelstrom or the other Tekitatsu lose none; the rings go back to
    the box. The player's own claims add 0 here (lightning has no weather card)."""
    s = sgame(
        card=3, deck=[0, 1, 2], wells=full_wells("L")
    )  # Tekitatsu b3 d3 (both next to c3), maelstrom c5
    box = len(s.removed)
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")  # the dragon ends on b2, next to b3
    removed = {w for w in range(25) if len(s.wells[w]) == 2} - {
        W["a1"],
        W["b1"],
        W["a2"],
    }  # the player's claims
    assert names(removed) == ["a3", "b4", "c3", "d2", "d4", "e3"]
    assert s.wells[W["c3"]] == "LL"  # once, though next to both
    assert s.wells[W["b2"]] == "LLL" and s.wells[W["b3"]] == "LLL" and s.wells[W["d3"]] == "LLL"
    assert len(s.removed) == box + 6
    assert "tekitatsu" in [e.kind for e in ev]


def test_tm13_tm14_each_tekitatsu_adds_its_own_sand_dollar():
    """Step 2 and TM-13: each separate Tekitatsu that removes a ring of a weather card's element adds one sand
    dollar to it (two Tekitatsu removing water: two); a Tekitatsu depleting a well puts a sand dollar in it, the
    player choosing which."""
    wells = full_wells("L")
    wells[W["a3"]] = "LLW"  # next to the Tekitatsu on b3
    wells[W["d2"]] = "LLW"  # next to the Tekitatsu on d3
    wells[W["e3"]] = "F"  # next to d3: depleted, and fire (the major card)
    s = sgame(card=3, deck=[0, 1, 2], wells=wells)
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")
    c_minor, c_major = s.weather
    assert (c_minor.on_card, c_major.on_card) == (2, 1)
    assert s.sand_dollars == [W["e3"]]
    d = GAME.pending(s)[0]
    assert (d.player, d.kind) == ("al", "sand")
    assert s.solo.card == 3  # the next card waits for the choice
    s, ev = play(s, "sand:minor:card")
    assert (s.weather[0].on_card, s.weather[0].in_wells) == (1, 1)
    assert s.solo.card == 0 and s.round == 2


def test_tm14_tekitatsu_phase_triggers_weather_before_the_next_card():
    wells = full_wells("L")
    wells[W["a3"]] = "LLW"
    s = sgame(card=3, deck=[0, 1, 2], wells=wells)
    s.weather[0].on_card = 4
    set_island(s, 0, island(W="A3 B3", F="B4", N="B2"))
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")
    assert "weather" in [e.kind for e in ev]
    assert GAME.pending(s)[0].kind == "swap" and s.interrupts[-1] == "solo:next"
    s, ev = play(s, "swap:B3-B4")
    assert s.seats[0].island == island(W="A3 B4", F="B3", N="B2")
    assert s.solo.card == 0 and s.interrupts == []


# ---------------------------------------------------------------------------------------------- steps 3 and 4


def test_tm14_tm19_upkeep_flips_the_shrine_of_the_cards_edge():
    """Step 3, RULINGS TM-19: the card's upkeep flips its edge's shrine, as an offering does (TM-6's flip); a card
    without upkeep flips none."""
    s = sgame(card=0, deck=[3, 1], wells=full_wells("L"))  # card 0: upkeep north
    at(s, 0, "e5")
    s = refresh(s)
    assert s.sides == ["front"] * 4
    s, ev = play(s, "fly:e4", "gather:e3")
    assert s.sides == ["back", "front", "front", "front"]
    assert any(e.kind == "flip" and e.data.get("upkeep") for e in ev)
    assert s.solo.card == 3  # (card 3 has no upkeep)


def test_tm14_next_card_moves_the_tokens_without_claiming():
    """Step 4: the next card turns up and the tokens move to its wells; no ring is claimed by the move."""
    s = sgame(card=3, deck=[12, 1], wells=full_wells("L"))  # card 12: Tekitatsu c3 a5, maelstrom e1
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")
    assert s.solo.card == 12 and s.solo.deck == [1]
    assert names(s.solo.tekitatsu) == ["a5", "c3"] and D.WELL_NAMES[s.solo.maelstrom] == "e1"
    assert len(s.wells[W["a5"]]) == 3 and len(s.wells[W["e1"]]) == 3
    assert [e for e in ev if e.kind == "solo_card"][0].text.startswith(
        "Solo card 15 of 16: Tekitatsu on c3 and a5"
    )


def test_tm14_token_on_the_dragons_well_sits_out_the_round():
    """ "Important": a token whose well holds the player's dragon stays off the board for the round (its well is
    not guarded once the dragon leaves, and it removes no rings); the next card puts the tokens back."""
    s = sgame(card=3, deck=[1, 12, 5], wells=full_wells("L"))  # card 1: Tekitatsu b4 d2, maelstrom c1
    at(s, 0, "c2")
    s = refresh(s)
    s, _ = play(s, "fly:d2", "gather:d1", "gather:e2")  # the dragon ends on d2, a well of card 1
    assert s.solo.card == 1 and s.round == 2
    assert s.solo.tekitatsu == [W["b4"], -1] and s.solo.maelstrom == W["c1"]
    s, _ = play(s, "fly:e3")
    assert W["d2"] not in guarded_wells(s, s.seats[0])
    s, ev = play(s, "gather:e2", "gather:e4")
    (storm,) = [e for e in ev if e.kind == "tekitatsu"]
    assert storm.data["wells"] == ["b3", "a4", "c4", "b5"]  # only the Tekitatsu on b4 washes rings away
    assert s.solo.card == 12 and names(s.solo.tekitatsu) == ["a5", "c3"]


# ---------------------------------------------------------------------------------------------- the end


def _near_full_sand(s, n: int = 12):
    """Put ``n`` sand dollars in far wells (their rings to the box), all taken from the weather cards."""
    far = [W[w] for w in ("a5", "b5", "d5", "e5", "e4", "e1", "e2", "d1", "c1", "a4", "c4", "c2")][:n]
    for w in far:
        s.removed += s.wells[w]
        s.wells[w] = ""
    s.sand_dollars = far
    s.weather[1].in_wells = min(n, 8)
    s.weather[0].in_wells = max(0, n - 8)
    s.weather[1].neutralized = s.weather[1].in_wells == 8
    return s


def test_tm14_end_13th_sand_dollar_in_the_players_turn_no_tekitatsu_after():
    """ "Solo-mode Game End": the 13th sand dollar placed in the turn -> the turn is finished, no Tekitatsu phase,
    Elemental Mastery tallied, the rank line given."""
    wells = full_wells("L")
    wells[W["b1"]] = "L"
    s = sgame(card=3, wells=wells)
    s.seats[0].well = W["b2"]
    s = refresh(_near_full_sand(s))
    set_island(s, 0, island(W="A3 B3 B4"))
    s, ev = play(s, "gather:b1")
    assert s.end_triggered
    before = list(s.wells)
    s, ev = play(s, *[o for o in ids(s) if o.startswith("fly:")][:1])
    while not s.over:
        s, more = play(s, ids(s)[0])
        ev += more
    assert "tekitatsu" not in [e.kind for e in ev]
    assert all(len(s.wells[w]) == len(before[w]) for w in range(25) if w != W["b2"])
    mastery = s.seats[0].scored["mastery"]
    assert mastery == 2 * 3  # three connected water rings
    r = GAME.result(s)
    assert r.winners == ["al"] and rank_line(s.seats[0].fortune) in r.reason
    assert [e.kind for e in ev][-2:] == ["solo_rank", "game_over"]
    f = s.seats[0].fortune
    rank = str(rank_name(f))
    assert ev[-2].text == f"{{@al}} ends with {f} fortune: {rank_line(f)!s} (solo rank {rank})"
    assert ev[-1].text == f"The solo game is over: {{@al}} {f} fortune, rank {rank}."
    assert GAME.status(s) == f"Solo game over after round {s.round}: {f} fortune, rank {rank}."
    assert not any("winner" in t.lower() for t in (ev[-2].text, ev[-1].text, r.reason, GAME.status(s)))


def test_tm14_end_13th_sand_dollar_by_a_tekitatsu_ends_after_its_decisions():
    wells = full_wells("L")
    wells[W["a3"]] = "W"  # next to the Tekitatsu on b3
    s = sgame(card=3, deck=[0, 1], wells=wells)
    s = refresh(_near_full_sand(s))
    s, ev = play(s, "fly:b2", "gather:b1")  # a2 is the lone second well (c2 is depleted): taken at once
    assert s.over and s.end_reason == "the 13th sand dollar was placed"
    assert s.solo.card == 3 and s.solo.turns == 1  # no next card
    assert "tekitatsu" in [e.kind for e in ev] and "solo_rank" in [e.kind for e in ev]


def test_tm14_end_exhausted_deck_after_the_16th_card_is_played():
    """ "Solo-mode Game End": turning up the last card triggers the end; that card's turn is the last."""
    s = sgame(card=3, deck=[0], wells=full_wells("L"))
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")
    assert s.solo.card == 0 and s.solo.deck == [] and s.end_triggered
    assert s.end_reason == "the solo deck is exhausted" and not s.over
    assert "16/16" in GAME.status(s)
    s, ev = play(s, "fly:c2")
    while not s.over:
        s, more = play(s, ids(s)[0])
        ev += more
    assert s.over and "tekitatsu" not in [e.kind for e in ev] and s.solo.turns == 2


def test_tm14_full_game_lasts_at_most_16_turns():
    """A natural game: at most 16 turns, one per card."""
    import random

    from games.ai import next_move

    for seed in range(20):
        s = GAME.setup(["al"], SOLO, 100 + seed)
        rng = random.Random(seed)
        while (m := next_move(GAME, s, {}, rng)) is not None:
            s = GAME.apply(s, m).state
        assert s.round <= 16 and s.solo.turns <= 16


def test_tm12_tm14_end_when_a_ring_cannot_be_placed():
    """ "Solo-mode Game End": a ring that must be placed and cannot be ends the game after the turn (TM-12)."""
    s = sgame(card=3, wells=full_wells("L"))
    # every space full but the water rift C1: an overflow of wind cannot be placed
    lay = layout("tatsumi")
    isl = [lay.rift[i] or "F" for i in range(37)]
    isl[lay.index("C1")] = "."
    set_island(s, 0, "".join(isl))
    hold(s, 0, W=1, N=1, F=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "gather:c2")
    while not s.over and GAME.pending(s)[0].kind != "overflow":
        s, _ = play(s, ids(s)[0])
    assert not s.over
    s, ev = play(s, "overflow:wind") if "overflow:wind" in ids(s) else play(s, ids(s)[0])
    while not s.over:
        s, more = play(s, ids(s)[0])
        ev += more
    assert s.end_reason == "{@al} could not place a ring"
    assert "tekitatsu" not in [e.kind for e in ev]


# ---------------------------------------------------------------------------------------------- rank


@pytest.mark.parametrize(
    "fortune, line",
    [
        (0, "The islanders go exploring, searching for a new home."),
        (69, "The islanders go exploring, searching for a new home."),
        (70, "The island is safe but the islanders remain fearful."),
        (79, "The island is safe but the islanders remain fearful."),
        (80, "The island is peaceful and bellies are full."),
        (90, "The islanders rejoice with a harvest feast."),
        (100, "The island radiates with elemental harmony."),
        (110, "The sea itself bows to you, Tatsu."),
        (119, "The sea itself bows to you, Tatsu."),
        (120, "The islanders tell legends of you for generations."),
        (175, "The islanders tell legends of you for generations."),
    ],
)
def test_solo_rank_lines(fortune, line):
    """ "Solo-mode Scoring Rank": the rulebook's table, <70 up to 120+."""
    assert rank_line(fortune) == line
    assert len(SOLO_RANKS) == 7


def test_solo_cannot_resign_into_a_smaller_game_and_refuses_other_players():
    s = sgame()
    assert GAME.resign(s, "al") is None
    assert_illegal(GAME, s, Move(player="bo", option=ids(s)[0]), match="not your turn")
    assert_illegal(GAME, s, Move(player="al", option="next"))


def test_tm19_a_ring_washed_away_by_both_tekitatsu_is_removed_once_and_counts_for_each():
    """RULINGS TM-19 (confirming the designed reading of step 2): a well next to both Tekitatsu loses one ring, and
    each of them has removed it, so each adds its sand dollar (two, its element having a weather card)."""
    wells = full_wells("L")
    wells[W["c3"]] = "LLW"  # next to b3 and d3
    s = sgame(card=3, deck=[0, 1], wells=wells)
    s, ev = play(s, "fly:b2", "gather:b1", "gather:a2")
    assert s.wells[W["c3"]] == "LL"
    assert s.weather[0].on_card == 2
    assert [e.text for e in ev if e.kind == "weather_add"] == [
        "The Tekitatsu on b3 washes away water: a sand dollar onto Flash Flood (minor water) (1 on it, 4 beside).",
        "The Tekitatsu on d3 washes away water: a sand dollar onto Flash Flood (minor water) (2 on it, 3 beside).",
    ]


def test_tm19_upkeep_flips_a_back_side_back_to_its_front():
    """RULINGS TM-19: upkeep flips the listed shrine tile as an offering does, so a back side turns to its front."""
    s = sgame(card=0, deck=[3, 1], wells=full_wells("L"))  # card 0: upkeep north
    s.sides = ["back", "back", "front", "front"]
    at(s, 0, "e5")
    s = refresh(s)
    s, ev = play(s, "fly:e4", "gather:e3")
    assert s.sides == ["front", "back", "front", "front"]
    flip = next(e for e in ev if e.kind == "flip")
    assert flip.data == {"shrine": D.ELEMENT_NAMES[s.shrines[0]], "side": "front", "upkeep": True}


def test_tm16_solo_picks_any_dragon_and_side_and_any_island_and_side():
    """RULINGS TM-16: in solo mode the player picks any dragon (not only Karyu) and its card side, and any island
    board and its side; then the first turn starts on a1 with the solo card's tokens placed."""
    s = GAME.setup(["al"], {**SOLO, "colours": "choose", "island": "choose", "dragons": "choose"}, 5)
    assert s.setup_queue == ["colour:al", "island:al", "dragon:al"]
    assert [o.id for o in GAME.pending(s)[0].options] == [f"dragon:{d}" for d in D.DRAGONS[:4]]
    s, _ = play(s, "dragon:raijin")
    assert len(GAME.pending(s)[0].options) == 7  # Tatsumi Island and the six boards' asymmetric sides
    s, _ = play(s, "island:mizukame", "dragon:asymmetric")
    p = s.seats[0]
    assert (p.dragon, p.element, p.gather, p.island_key) == ("raijin", "L", "raijinsama", "mizukame")
    assert D.WELL_NAMES[p.well] == "a1" and s.turn.stage == "main" and GAME.pending(s)[0].kind == "turn"
    assert s.solo is not None and s.solo.turns == 0
    check_invariants(s)

