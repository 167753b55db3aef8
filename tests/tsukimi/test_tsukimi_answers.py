"""Typed answers (``games/tsukimi/answers.py``): bare names of one option accepted, refusals with reasons.

Names: RULINGS TS-2 (a vertex has up to three names), TS-3 (tiles). Reasons: TS-4 (cost), TS-5 (placing a tile),
TS-6 (discards), TS-9 (the placing effect is over), rulebook "Placing Rabbits" / "Moving".
"""

from __future__ import annotations

import pytest
from support import assert_illegal
from tsukimi_helpers import GAME, PLAYERS, P, W, act, free_tile, play_tile, position, tid

from games.core import Move
from games.tsukimi.data import TEMPLE


def _effects():
    """White to use carrot 0 on C4 (place up to 2, move 1): white rabbit on A1-n, purple on D4-n (= C4-se)."""
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",), purple=("C4-se",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    return s


def _refusal(state, text, player=W) -> str:
    return str(assert_illegal(GAME, state, Move(player=player, option=text)))


@pytest.mark.parametrize("name, logged", [
    ("C4-s", "C4-s (= D3-ne = D4-nw)"), ("c4-s", "C4-s (= D3-ne = D4-nw)"), ("D3-ne", "D3-ne (= C4-s = D4-nw)"),
    (" D4-nw ", "D4-nw (= C4-s = D3-ne)"), ("place:d4-NW", "D4-nw (= C4-s = D3-ne)"),
    ("place:C4-s", "C4-s (= D3-ne = D4-nw)"),
])
def test_ts2_bare_vertex_in_any_spelling_places_there(name, logged):
    """TS-2: C4-s = D3-ne = D4-nw; typed bare (any case), it names the one listed option place:C4-s, and the log
    names the rabbit by the name the player wrote first."""
    s, events = act(_effects(), name)
    assert s.rabbits == {"A1-n": 0, "D4-n": 1, "C4-s": 0} and s.reserve == [13, 14]
    assert events[0].text == f"white {{@white}} places a rabbit on {logged}."


def test_bare_vertex_of_your_rabbit_picks_it_to_move_then_bare_destination():
    """Rulebook "Moving": a bare vertex holding your rabbit is move:<it>; then a bare empty vertex is to:<it>."""
    s, _ = act(_effects(), "A1-n")
    assert s.phase == "move_to" and s.moving_from == "A1-n"
    s, _ = act(s, "E1-s")
    assert s.rabbits == {"E1-s": 0, "D4-n": 1} and s.phase == "effects"


def test_ts3_bare_tile_name_takes_that_tile():
    """TS-3: "sakura 5" (the cheaper sakura) and "Matcha-2" name tiles in the circle."""
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    a, events = act(s, "sakura 5")
    assert a.tile == 18 and a.reserve == [15, 15] and events[0].text == "white {@white} takes sakura 5 for free."
    b, events = act(s, "Matcha-2")
    assert b.tile == tid("matcha", 2) and b.reserve == [12, 15]
    assert events[0].text == "white {@white} takes matcha 2, paying 3 rabbits to the box."


def test_ts5_bare_space_places_the_tile():
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    s, _ = act(s, "strawberry 0", "c3")
    assert s.board == {"C3": tid("strawberry", 0)} and s.phase == "effects"


def test_refusal_vertex_taken_echoes_what_was_typed():
    """Rulebook "Placing Rabbits" (one rabbit a vertex): the text typed is echoed as typed, with the reason."""
    assert _refusal(_effects(), "place:C4-se") == (
        "'place:C4-se' is refused: D4-n (= C4-se = C5-sw) holds purple {@purple}'s rabbit (one rabbit a vertex). "
        "Choose one of: place a rabbit on C4-n; place a rabbit on C4-ne (= B4-s); place a rabbit on C4-s; place a "
        "rabbit on C4-sw (= D3-n); place a rabbit on C4-nw (= B3-s); move your rabbit from A1-n … (7 choices)."
    )
    assert _refusal(_effects(), "place:A1-n").startswith("'place:A1-n' is refused: A1-n holds your rabbit")


def test_refusal_vertex_not_on_the_placed_tile():
    """Rulebook "Placing Rabbits": only on the corners of the space just filled."""
    assert _refusal(_effects(), "place:C3-n").startswith(
        "'place:C3-n' is refused: C3-n (= B2-se = B3-sw) is not a corner of C4, where your tile went. Choose one of: "
    )
    assert _refusal(_effects(), "C3-n").startswith("'C3-n' is refused: C3-n (= B2-se = B3-sw) is not a corner of C4")


def test_refusal_move_not_your_rabbit_and_no_rabbit():
    """Rulebook "Moving": only your own rabbit on the board."""
    assert _refusal(_effects(), "move:C4-se").startswith(
        "'move:C4-se' is refused: the rabbit on D4-n (= C4-se = C5-sw) is not yours."
    )
    assert _refusal(_effects(), "move:E1-s").startswith("'move:E1-s' is refused: there is no rabbit on E1-s.")


def test_refusal_discard_not_owed():
    """TS-6: only a group of exactly three discards; a bare rival vertex says so."""
    assert _refusal(_effects(), "C4-se").startswith(
        "'C4-se' is refused: no discard is owed (only a group of exactly three discards a rival rabbit, TS-6)."
    )


def test_refusal_hint_is_short_never_the_54_vertices():
    """A move's destination list has 52 vertices; the refusal shows 6 by their labels and the count."""
    s, _ = act(_effects(), "move:A1-n")
    msg = _refusal(s, "to:D4-n")
    assert msg == (
        "'to:D4-n' is refused: D4-n (= C4-se = C5-sw) holds purple {@purple}'s rabbit (one rabbit a vertex). "
        "Choose one of: A2-n; A3-n; A1-nw; A1-ne (= A2-nw); A2-ne (= A3-nw); A3-ne … (53 choices)."
    )
    assert _refusal(s, "nonsense") == (
        "'nonsense' is not a choice now. Choose one of: A2-n; A3-n; A1-nw; A1-ne (= A2-nw); A2-ne (= A3-nw); A3-ne … "
        "(53 choices)."
    )


def test_ts4_refusal_tile_too_dear_or_gone():
    """TS-4: a tile costing more than the reserve, or no longer in the circle, is refused with why."""
    s = position(reserve=(2, 15))
    s.circle = [TEMPLE, *range(1, 19)]
    assert _refusal(s, "matcha 2").startswith(
        "'matcha 2' is refused: matcha 2 costs 3 rabbits and you have 2 in reserve. Choose one of: strawberry 0 "
        "(cost 0); sakura 5 (cost 0); strawberry 1 (cost 1); sakura 5 (cost 1); strawberry 2 (cost 2); matcha 3 "
        "(cost 2)."
    )
    s.circle[s.circle.index(tid("matcha", 2))] = None
    assert _refusal(s, "tile:matcha 2").startswith("'tile:matcha 2' is refused: matcha 2 is no longer in the circle.")
    assert _refusal(s, "tile:99").startswith("'tile:99' is refused: there is no tile 99 (mochi tiles are 1-18).")


def test_ts5_refusal_space_taken_or_alone():
    """TS-5: a space holding a tile, or touching none, is refused with why."""
    s = position({"C3": tid("matcha", 1)})
    s, _ = act(free_tile(s, tid("carrot", 1)), f"tile:{tid('carrot', 1)}")
    assert s.phase == "place"
    assert _refusal(s, "C3").startswith("'C3' is refused: C3 already holds matcha 1.")
    assert _refusal(s, "space:A1").startswith(
        "'space:A1' is refused: A1 touches no placed tile (TS-5: a tile goes next to a placed tile)."
    )


def test_ts6_refusal_end_while_a_discard_is_owed():
    """TS-6: the owed discard comes before the end of the turn."""
    board = {"C2": tid("carrot", 1), "C3": tid("carrot", 3)}
    s = position(board, white=("A1-n",), purple=("E3-s", "A3-n"))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert _refusal(s, "end").startswith(
        "'end' is refused: a group of three owes a discard first (TS-6): discard a rival rabbit."
    )


def test_wrong_player_still_told_it_is_not_their_turn():
    assert "not your turn" in _refusal(_effects(), "C4-s", player=P)


def test_refusal_a_space_or_a_vertex_while_choosing_a_tile():
    """Rulebook "How to Play": the turn starts by taking a tile; a space typed now says so."""
    s = GAME.setup(PLAYERS, None, 1)
    assert _refusal(s, "C3").startswith("'C3' is refused: first take a mochi tile from the circle. Choose one of: ")
    assert _refusal(s, "place:C3-n").startswith("'place:C3-n' is refused: first take a mochi tile from the circle.")
