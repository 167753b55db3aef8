"""What Tatsumi's options, prompts and events say: an offering at a back side names the card its
scale goes on (TM-10), a flight names what Swallows and Heron pay (TM-11), counts take their plural, two blessing
scales unlocked at once are told apart (TM-10), Heron and Duck speak of depleted wells (TM-11)."""

from __future__ import annotations

from tatsumi_helpers import W, at, full_wells, hold, island, new, offer_state, play, refresh, set_island

from games.tatsumi import GAME
from games.tatsumi import data as D


def labels(s) -> dict[str, str]:
    return {o.id: o.label for o in GAME.pending(s)[0].options}


# ---------------------------------------------------------------------------------------------- offerings (TM-6, TM-10)


def test_tm10_front_side_offering_says_nothing_of_a_scale():
    s = offer_state(shrine="F", side="front", card="koi", F=2, N=2)
    assert labels(s)["offer:fire"] == "offer 2 fire + 2 wind at the fire shrine (north)"


def test_tm10_back_side_offering_names_the_card_and_what_it_pays():
    """TM-10: a back side (scale icon) puts a scale on the card above it: the label says which, and what it pays
    (Jellyfish: 2 per scale placed anywhere, the new one included)."""
    s = offer_state(shrine="F", side="back", card="jellyfish", F=2, W=1)
    assert labels(s)["offer:fire"] == "offer 2 fire + 1 water at the fire shrine (north), a scale on Jellyfish (+2)"
    s = offer_state(shrine="F", side="back", card="butterfly", F=2, W=1)
    assert labels(s)["offer:fire"].endswith(", a scale on Butterfly (lasting)")


def test_tm10_tm11_back_side_offering_with_flying_fish_or_no_scale_left():
    """TM-11: Flying Fish sends the scale to another card; TM-10: with the 5 scales spent, no scale is placed."""
    s = offer_state(shrine="F", side="back", card="flying_fish", F=2, W=1)
    assert labels(s)["offer:fire"].endswith(", a scale via Flying Fish on another card")
    s = offer_state(shrine="F", side="back", card="jellyfish", F=2, W=1)
    s.seats[0].scales_beside = 0
    s = refresh(s)
    assert labels(s)["offer:fire"].endswith(", no scale left to place")


# ---------------------------------------------------------------------------------------------- flights (TM-11)


def test_tm11_a_flight_says_what_swallows_pays():
    """TM-11: 2 scales on Swallows, one dragon passed: the label says "+4 fortune (Swallows)", not a bare "+4"."""
    s = new(wells=full_wells("F"), cards=["swallows", "koi", "toad", "turtle"])
    at(s, 0, "c3")
    at(s, 1, "c2")
    s.seats[0].cards = [2, 0, 0, 0]
    s = refresh(s)
    got = labels(s)
    assert got["fly:c1"] == "fly to c1, claim fire from c3, +4 fortune (Swallows)"
    assert got["fly:b2"] == "fly to b2, claim fire from c3"


def test_tm11_a_flight_says_what_heron_pays_and_both_together():
    s = new(wells=full_wells("F"), cards=["heron", "swallows", "toad", "turtle"])
    for w in ("b1", "c1"):
        s.wells[W[w]] = ""
    at(s, 1, "d1")
    s.seats[0].cards = [3, 1, 0, 0]
    s = refresh(s)
    got = labels(s)
    assert got["fly:c1"] == "fly to c1, claim fire from a1, +3 fortune (Heron)"
    assert got["fly:e1"] == "fly to e1, claim fire from a1, +8 fortune (Swallows 2, Heron 6)"


# ---------------------------------------------------------------------------------------------- plurals


def test_blackbird_label_counts_rings_in_the_singular_and_plural():
    s = new(wells=full_wells("W"), cards=["blackbird", "koi", "toad", "turtle"])
    s.seats[0].cards = [1, 0, 0, 0]
    hold(s, 0, F=3)
    s = refresh(s)
    assert labels(s)["blackbird"] == "Blackbird: place up to 1 ring from holding"
    s.seats[0].cards = [2, 0, 0, 0]
    s = refresh(s)
    assert labels(s)["blackbird"] == "Blackbird: place up to 2 rings from holding"
    s, ev = play(s, "blackbird", "fire@A2")
    assert ev[-1].text == "{@ann} scores 1 fortune (1 fire rift encircled)."


def test_tm5_overflow_labels_count_rings():
    s = new(wells=full_wells("L"))
    hold(s, 0, F=2, W=1, N=1)
    at(s, 0, "c3")
    s = refresh(s)
    s, _ = play(s, "fly:c4", "gather:c3", "gather:b4")
    assert labels(s) == {
        "overflow:fire": "overflow 2 fire rings onto the island",
        "overflow:water": "overflow 1 water ring onto the island",
        "overflow:wind": "overflow 1 wind ring onto the island",
        "overflow:lightning": "overflow 3 lightning rings onto the island",  # the fly and two gathers
    }
    s, ev = play(s, "overflow:water")
    assert ev[0].text == "{@ann}'s holding overflows: 1 water ring onto the island, unscored."


# ---------------------------------------------------------------------------------------------- blessings (TM-9, TM-10)


def test_tm10_two_blessings_unlocked_at_once_are_told_apart():
    """TM-10: one offering unlocks both blessings (C3 between water C2/C4, E4 between wind E3/E5): each scale's
    prompt names its blessing's space, the first says one more follows."""
    s = offer_state(shrine="F", side="front", card="koi", F=2, N=2)
    set_island(s, 0, island(W="C1 C2 C4", N="E3 E5"))
    s = refresh(s)
    s, ev = play(s, "offer:fire", "fire@C3", "fire@B2", "wind@E4", "wind@D5")
    assert [e.text for e in ev if e.kind == "blessing"] == [
        "{@ann} unlocks the island blessing on C3.",
        "{@ann} unlocks the island blessing on E4.",
    ]
    d = GAME.pending(s)[0]
    assert d.prompt == (
        "{@ann}: place the scale from the island blessing on C3 on a summoning card (1 more scale to place after it)."
    )
    s, _ = play(s, "card:turtle")
    assert GAME.pending(s)[0].prompt == "{@ann}: place the scale from the island blessing on E4 on a summoning card."


# ---------------------------------------------------------------------------------------------- card faces (TM-11)


def test_tm11_heron_and_duck_faces_speak_of_depleted_wells():
    """TM-11: Heron scores per depleted well flown over, Duck for ending on a depleted well (not "sand dollar")."""
    assert D.CARD_TEXT["heron"] == "+1/scale per depleted well flown over"
    assert D.CARD_TEXT["duck"] == "+2/scale ending on a depleted well"
