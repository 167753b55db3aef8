"""The Void expansion (RULINGS TM-1, TM-2, TM-16, TM-17): exactly 5 players, Kihaku naming its element, the 4 extra
rings, the seat counts the options allow, /rules void."""

from __future__ import annotations

import pytest
from support import assert_illegal
from tatsumi_helpers import ids, play

from games import Move
from games.tatsumi import GAME
from games.tatsumi import data as D
from games.tatsumi.cards import card_value
from games.tatsumi.island import put

P5 = ["ann", "bob", "cat", "dan", "eve"]
VOID = {"void": True}


def five(seed: int = 1, **opts):
    return GAME.setup(P5, {**VOID, **opts}, seed)


def test_tm1_five_players_only_with_the_void():
    """TM-1: 1-4 players (base), 5 with the Void expansion."""
    with pytest.raises(ValueError, match="^Five players need the Void expansion: open the lobby with void=true$"):
        GAME.setup(P5, None, 1)
    with pytest.raises(ValueError):
        GAME.setup([*P5, "fay"], VOID, 1)
    assert len(five().seats) == 5


def test_tm1_tm2_kihaku_is_the_fifth_dragon_on_c3():
    """TM-1/TM-2: the 5th seat plays Kihaku, starting on c3; the other four as in the base game."""
    s = five()
    assert [p.dragon for p in s.seats] == ["karyu", "raijin", "fujin", "mizuchi", "kihaku"]
    assert [D.WELL_NAMES[p.well] for p in s.seats] == ["a1", "e1", "e5", "a5", "c3"]
    assert s.seats[4].element == ""


def test_tm1_kihaku_names_its_element_at_setup():
    """TM-1: Kihaku's player names one element at setup (a decision for that player only); then round 1 starts
    with the first seat."""
    s = five()
    d = GAME.pending(s)[0]
    assert d.player == "eve" and d.kind == "setup"
    assert [o.id for o in d.options] == ["element:fire", "element:water", "element:wind", "element:lightning"]
    assert_illegal(GAME, s, Move(player="ann", option="element:fire"), match="not your turn")
    s, ev = play(s, "element:wind")
    assert s.seats[4].element == "N" and s.turn.stage == "main" and GAME.pending(s)[0].player == "ann"
    assert any(e.kind == "setup" and "wind" in e.text for e in ev)


def test_tm1_void_rings_on_b2_d2_b4_d4():
    """TM-1: with 5 players the Void's 4 rings (one per element, shuffled from the seed) go one each on top of b2,
    d2, b4 and d4; no layer is removed (TM-2): 116 rings, 29 per element."""
    s = five(7)
    base = GAME.setup(P5[:4], None, 7)
    void_wells = [D.WELL_INDEX[w] for w in ("b2", "d2", "b4", "d4")]
    tops = ""
    for w in range(25):
        if w in void_wells:
            assert len(s.wells[w]) == D.WELL_DEPTH[w] + 1 == 5
            assert s.wells[w][:-1] == base.wells[w]
            tops += s.wells[w][-1]
        else:
            assert s.wells[w] == base.wells[w]
    assert sorted(tops) == sorted(D.ELEMENTS)
    every = "".join(s.wells) + s.removed
    assert s.removed == "" and len(every) == 116 and all(every.count(e) == 29 for e in D.ELEMENTS)
    orders = {"".join(five(seed).wells[w][-1] for w in void_wells) for seed in range(12)}
    assert len(orders) > 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_tm17_void_with_fewer_than_five_players_is_refused_at_start(n):
    """RULINGS TM-17 (was: accepted with 2-4 players, silently doing nothing): the Void needs exactly 5 players;
    with fewer, setup refuses with a message naming the option and the count."""
    with pytest.raises(ValueError) as err:
        GAME.setup(P5[:n], VOID, 3)
    assert str(err.value) == (
        f"The Void (void=true) needs exactly 5 players, not {n}: seat 5, or play without void=true"
    )


def test_tm17_solo_and_the_void_exclude_each_other():
    """RULINGS TM-14, TM-17: solo is one player, the Void five: together they allow no seat count."""
    assert GAME.seat_counts({"solo": True, "void": True}) == []
    with pytest.raises(ValueError, match="^Solo mode and the Void do not go together"):
        GAME.setup(["ann"], {"solo": True, "void": True}, 1)


@pytest.mark.parametrize(
    ("options", "counts"),
    [
        (None, [2, 3, 4]),
        ({"weather": True, "island": "choose", "colours": "choose"}, [2, 3, 4]),
        ({"void": True}, [5]),
        ({"void": True, "weather": True}, [5]),
        ({"solo": True}, [1]),
        ({"solo": True, "dragons": "choose"}, [1]),
    ],
)
def test_tm17_seat_counts_say_what_the_lobby_needs(options, counts):
    """RULINGS TM-1, TM-14, TM-17: ``seat_counts(options)`` lists exactly the player counts setup accepts, so the
    lobby can say "needs 5" or "needs 2-4" instead of min_players' "1+"."""
    assert GAME.seat_counts(options) == counts
    for n in range(1, 6):
        players = P5[:n]
        if n in counts:
            GAME.setup(players, options, 2)
        else:
            with pytest.raises(ValueError):
                GAME.setup(players, options, 2)


def test_tm17_rules_void_says_the_void_shrine_cards_are_not_played():
    """RULINGS TM-17: ``/rules tatsumi void`` says the Void needs exactly 5 players and that the 24 Void Shrine
    cards are not played."""
    text = GAME.rules_help["void"]
    assert "exactly 5 players" in text
    assert "The 24 Void Shrine cards are not played" in text
    assert GAME.rules_help[""].startswith("2-4 players; exactly 5 with void=true; exactly 1 with solo=true.")


def test_kihaku_card_side_and_element_queue_order():
    """With dragons=choose, each player chooses in seat order; Kihaku's player also names the element."""
    s = five(dragons="choose")
    assert s.setup_queue == ["dragon:ann", "dragon:bob", "dragon:cat", "dragon:dan", "dragon:eve", "element:eve"]
    s, _ = play(s, "dragon:symmetric", "dragon:symmetric", "dragon:symmetric", "dragon:symmetric")
    assert "Kihakusama" in GAME.pending(s)[0].options[1].label
    s, _ = play(s, "dragon:asymmetric", "element:lightning")
    assert s.seats[4].gather == "kihakusama" and s.seats[4].element == "L"


def test_kihaku_element_counts_for_dragonfly_and_the_tie_break():
    """TM-1: the named element is Kihaku's for Dragonfly and for the tie-break (TM-12)."""
    s, _ = play(five(), "element:water")
    p = s.seats[4]
    p.island = put(put(p.island, 0, "W"), 1, "W")
    assert card_value(s, p, "dragonfly") == 2
    s.over = True
    for q in s.seats:
        q.fortune = 10
    res = GAME.result(s)
    assert res.winners == ["eve"]


def test_five_player_rounds():
    """A round is five turns: after Kihaku's turn the first seat plays again in round 2."""
    s, _ = play(five(), "element:fire")
    for seat in range(5):
        assert s.current == seat and s.round == 1
        fly = next(i for i in ids(s) if i.startswith("fly:"))
        s, _ = play(s, fly)
        while s.current == seat and s.round == 1:
            s, _ = play(s, ids(s)[0])
    assert s.current == 0 and s.round == 2
