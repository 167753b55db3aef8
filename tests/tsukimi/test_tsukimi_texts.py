"""Prompts, status and result lines: what the table reads says what is really possible.

Sources: TS-5 (the first tile anywhere), TS-3 (effects "up to"), TS-8 (scoring keys), rulebook "How to Play".
"""

from __future__ import annotations

from tsukimi_helpers import GAME, PLAYERS, act, free_tile, play_tile, position, tid

from games.tsukimi.data import TEMPLE
from games.tsukimi.game import tile_number


def test_ts5_first_tile_prompt_says_any_space_later_ones_next_to_a_tile():
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    s, _ = act(s, "tile:1")
    assert GAME.pending(s)[0].prompt == (
        "{@white}, place your strawberry 0 on any space (the first tile goes anywhere)."
    )
    assert len(GAME.pending(s)[0].options) == 19
    s, _ = act(s, "space:C3", "end", "tile:18")
    assert GAME.pending(s)[0].prompt == "{@purple}, place your sakura 5 on an empty space next to a placed tile."


def test_tile_counter_never_steps_back_within_a_turn():
    """Status "tile n/18": 1 while the first tile is chosen, placed and used; 2 from the next turn; 18 at the end."""
    s = GAME.setup(PLAYERS, None, 1)
    s.circle = [TEMPLE, *range(1, 19)]
    seen = [tile_number(s)]
    s, _ = act(s, "tile:1")
    seen.append(tile_number(s))
    s, _ = act(s, "space:C3")
    seen.append(tile_number(s))
    s, _ = act(s, "end")
    seen.append(tile_number(s))
    assert seen == [1, 1, 1, 2]
    assert "tile 2/18" in GAME.status(s)


def test_plurals_in_prompt_and_status():
    """One rabbit, one point: singular nouns (never "1 rabbits", "1 pts")."""
    s = position({"C3": tid("blueberry", 1)}, white=("C3-n",), reserve=(1, 15))
    assert GAME.pending(s)[0].prompt.startswith("{@white}, take a mochi tile (you have 1 rabbit in reserve;")
    assert GAME.status(s) == (
        "Tsukimi (light side), tile 2/18 · white {@white}: 1 point now, 1 rabbit in reserve · purple {@purple}: "
        "0 points now, 15 rabbits in reserve · to play: {@white}"
    )


def test_ts3_place_up_to_counts_the_free_corners():
    """TS-3 "place up to 2": with one free corner around the tile the prompt says "place 1 rabbit"."""
    s = position({"C3": tid("matcha", 1)}, white=("C4-n", "C4-ne"), purple=("C4-se", "C4-s", "C4-sw", "E3-s"))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 0 on C4: place 1 rabbit, move 1 rabbit (any order)."
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 0 on C4: place up to 2 rabbits, move 1 rabbit (any order)."
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",), reserve=(1, 15))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 0 on C4: place 1 rabbit, move 1 rabbit (any order)."


def test_ts8_result_line_labels_points_tiles_and_reserve():
    s = position({"C3": tid("blueberry", 1), "C4": tid("matcha", 0)}, white=("C3-n",), purple=("C4-ne",),
                 reserve=(1, 14))
    s.phase = "over"
    res = GAME.result(s)
    assert res.reason == (
        "white {@white} 1 point (1 tile claimed, 1 rabbit in reserve), purple {@purple} 0 points (1 tile claimed, "
        "14 rabbits in reserve) - on points."
    )
    assert res.scores == {"white": 1, "purple": 0}


def test_free_tile_taken_for_free():
    s = free_tile(GAME.setup(PLAYERS, None, 1), tid("matcha", 3))
    _, events = act(s, f"tile:{tid('matcha', 3)}")
    assert events[0].text == "white {@white} takes matcha 3 for free." and events[0].data["cost"] == 0


def test_ts2_a_rabbit_is_logged_by_the_name_it_was_chosen_by():
    """The button "place a rabbit on C3-se (= D3-n)" (tile on C3) is logged as C3-se first, not as D3-n; a typed
    name leads the log as written (TS-2: D3-n = C3-se = C4-sw)."""
    s = position({"C4": tid("matcha", 1)})
    s, _ = play_tile(s, tid("blueberry", 1), "C3")
    labels = {o.id: o.label for o in GAME.pending(s)[0].options}
    assert labels["place:D3-n"] == "place a rabbit on C3-se (= D3-n)"
    _, events = act(s, "place:D3-n")
    assert events[0].text == "white {@white} places a rabbit on C3-se (= D3-n = C4-sw)."
    _, events = act(s, "c4-SW")
    assert events[0].text == "white {@white} places a rabbit on C4-sw (= D3-n = C3-se)."


def test_ts3_any_order_only_for_more_than_one_effect():
    """TS-3: "(any order)" is said only when two or more effects are left to do."""
    s = position({"C4": tid("matcha", 1)})
    s, _ = play_tile(s, tid("matcha", 3), "C3")  # value 3: place up to 1
    assert GAME.pending(s)[0].prompt == "{@white}, matcha 3 on C3: place 1 rabbit."
    s = position({"C4": tid("matcha", 1)}, white=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 2), "C3")  # value 2: place up to 1 + move 1
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 2 on C3: place 1 rabbit, move 1 rabbit (any order)."
    s, _ = act(s, "place:C3-n")
    assert GAME.pending(s)[0].prompt == "{@white}, carrot 2 on C3: move 1 rabbit."
