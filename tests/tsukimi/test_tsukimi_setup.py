"""Setup (RULINGS TS-1, rulebook "Setup") and the contract rulings C-1..C-4."""

from __future__ import annotations

import pytest
from tsukimi_helpers import GAME, PLAYERS, P, W, act, check, option_ids, position

from games.core import Move, force
from games.tsukimi.board import SPACES
from games.tsukimi.data import TEMPLE

# -- TS-1 / Setup --------------------------------------------------------------------------------------------------


def test_ts1_light_setup_white_first():
    """TS-1 and Setup: 15 rabbits each in reserve on the light side, none in the box, white (seat 0) first;
    the circle holds the Temple and the 18 mochi tiles."""
    s = GAME.setup(PLAYERS, None, 7)
    assert s.side == "light" and s.reserve == [15, 15] and s.box == [0, 0]
    assert s.turn == 0 and GAME.pending(s)[0].player == W
    assert sorted(s.circle) == list(range(19)) and s.board == {} and s.rabbits == {}
    check(s)


def test_ts1_dark_setup_and_purple_first():
    """TS-1: dark side 3 in reserve, 12 of each colour in the box; the lobby may let purple start."""
    s = GAME.setup(PLAYERS, {"side": "dark", "first": "purple"}, 7)
    assert s.reserve == [3, 3] and s.box == [12, 12]
    assert s.turn == 1 and GAME.pending(s)[0].player == P
    check(s)


def test_ts1_two_players_only():
    with pytest.raises(ValueError):
        GAME.setup(["a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b"], {"side": "grey"}, 1)


# -- C-1 .. C-4 --------------------------------------------------------------------------------------------------


def test_c1_seeded_shuffle_replays_and_can_be_forced():
    """C-1: the circle comes from the seed; the same seed gives the same game; tests can force it."""
    a = GAME.setup(PLAYERS, None, 42)
    b = GAME.setup(PLAYERS, None, 42)
    c = GAME.setup(PLAYERS, None, 43)
    assert a == b and a.circle != c.circle
    order = list(range(19))
    forced = force(a, order)
    assert forced.rng.shuffled(range(19)) == order


def test_c2_player_ids_and_seats():
    """C-2: ids are opaque strings; seat order decides the colours (seat 0 white)."""
    s = GAME.setup(["123", "456"], None, 1)
    d = GAME.pending(s)[0]
    assert d.player == "123" and "{@123}" in d.prompt


def test_c3_single_option_applied_without_asking():
    """C-3: an effects step with nothing to do ends itself, and a lone tile left in the circle is taken without
    asking; the choice of two spaces is asked."""
    board = {sp: t for sp, t in zip(SPACES[:16], range(1, 17), strict=True)}
    s = position(board)
    s.circle = [TEMPLE, 17, 18, *[None] * 16]
    s, _ = act(s, "tile:17")
    out = GAME.apply(s, Move(player=W, option="space:E1"))
    assert [e.kind for e in out.events] == ["place_tile", "end_turn", "take"]
    t = out.state
    assert t.turn == 1 and t.phase == "place" and t.tile == 18 and option_ids(t) == ["space:E2", "space:E3"]
    last, ev = act(t, "space:E3")
    assert last.phase == "over" and [e.kind for e in ev] == ["place_tile", "end_turn", "game_over"]


def test_c4_time_is_an_input_only():
    """C-4: the engine reads no clock; at_ms never changes the outcome."""
    s = GAME.setup(PLAYERS, None, 9)
    o = GAME.pending(s)[0].options[0].id
    a = GAME.apply(s, Move(player=W, option=o, at_ms=0)).state
    b = GAME.apply(s, Move(player=W, option=o, at_ms=10**12)).state
    assert a == b


def test_registered_with_simple_options():
    """The registry finds the game; lobby options are simple defaulted choices (TS-1: side, who starts)."""
    import games

    assert games.get("tsukimi") is GAME and GAME.min_players == GAME.max_players == 2
    assert GAME.Options().model_dump() == {"side": "light", "first": "white"}


def test_status_and_help():
    s = GAME.setup(PLAYERS, None, 1)
    assert "to play: {@white}" in GAME.status(s)
    assert "" in GAME.rules_help and all(GAME.rules_help.values())
    assert {"tiles", "cost", "groups", "scoring", "dark"} <= set(GAME.rules_help)
