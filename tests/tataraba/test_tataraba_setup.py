"""Setup: boards and layouts (FT-1), Evergreens (FT-2), tokens and pieces, the shift deck (FT-7), first Tataras."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from support import assert_illegal
from tataraba_support import GAME, T, act, ids, new, placed

from games import Move
from games.tataraba.board import geometry, layout_for, tile_index, tile_name
from games.tataraba.data import shift_cards


@pytest.mark.parametrize(("n", "boards", "layout"), [(2, 3, "123"), (3, 5, "123/45."), (4, 6, "123/456")])
def test_ft1_boards_and_default_layouts(n, boards, layout):
    """FT-1: 2 players boards 1-3 in a row, 3 players 1-2-3 over 4-5, 4 players 1-2-3 over 4-5-6; 3x3 tiles each."""
    s = new([f"p{i}" for i in range(n)])
    assert s.layout == layout
    assert len(s.tiles) == boards * 9
    assert geometry(s.layout).n_tiles == boards * 9


def test_ft1_adjacency_is_orthogonal_and_crosses_board_edges():
    """FT-1: 4 neighbours, across board edges; diagonals are not adjacent."""
    geo = geometry("123/456")
    names = lambda t: sorted(tile_name(x) for x in geo.neighbours[tile_index(t)])  # noqa: E731
    assert names("1-3") == ["1-2", "1-6", "2-1"]
    assert names("1-7") == ["1-4", "1-8", "4-1"]
    assert names("2-5") == ["2-2", "2-4", "2-6", "2-8"]
    assert names("5-5") == ["5-2", "5-4", "5-6", "5-8"]
    assert names("6-9") == ["6-6", "6-8"]


@pytest.mark.parametrize(
    ("n", "text", "norm"),
    [
        (2, "1/2/3", "1/2/3"),
        (2, "12/3.", "12/3."),
        (2, "1-2-3", "123"),
        (3, "12./345", "12./345"),
        (4, "12/34/56", "12/34/56"),
        (4, ".1./234/.56", ".1./234/.56"),
        (4, "12/../3456", "12../..../3456"),
        (4, "123/4.5/..6", "123/4.5/..6"),
    ],
)
def test_ft1_custom_layouts_accepted(n, text, norm):
    """FT-1: any layout where every board shares a full edge with another board is accepted."""
    s = GAME.setup([f"p{i}" for i in range(n)], {"layout": text}, 1)
    assert s.layout == norm


def test_ft1_custom_layout_changes_adjacency():
    """A column layout joins 1-7 to 2-1 (board 2 below board 1)."""
    geo = geometry(layout_for(2, "1/2/3"))
    assert tile_index("2-1") in geo.neighbours[tile_index("1-7")]
    assert tile_index("2-1") not in geo.neighbours[tile_index("1-3")]


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (2, "12"),
        (2, "1234"),
        (2, "1.23"),
        (2, "1./.2/3."),
        (3, "1234.5"),
        (4, "123/45"),
        (4, "1.2.3/.4.5.6"),
        (2, ""),
    ],
)
def test_ft1_bad_layouts_refused_at_setup(n, text):
    """Wrong boards for the player count, or a board that shares no full edge (corner touch, gap) -> ValueError."""
    if not text:
        with pytest.raises(ValueError):
            layout_for(5, "")
        return
    with pytest.raises(ValueError):
        GAME.setup([f"p{i}" for i in range(n)], {"layout": text}, 1)


@pytest.mark.parametrize("text", ["12x", "11/23", "1;2", "12", "1.23", "1234"])
def test_ft1_layout_syntax_checked_by_options(text):
    with pytest.raises(ValidationError):
        GAME.options({"layout": text})


def test_ft2_evergreens_on_designed_cells():
    """FT-2: 3 per board, on the designed cells (row, col) -> cell numbers 1..9 in reading order."""
    s = new(["a", "b", "c", "d"])
    ever = sorted(tile_name(t) for t, c in enumerate(s.tiles) if c == "Ea-")
    assert ever == sorted(
        [
            "1-1",
            "1-6",
            "1-8",
            "2-3",
            "2-4",
            "2-9",
            "3-2",
            "3-7",
            "3-9",
            "4-1",
            "4-3",
            "4-8",
            "5-5",
            "5-3",
            "5-7",
            "6-2",
            "6-6",
            "6-7",
        ]
    )
    assert all(c in ("", "Ea-") for c in s.tiles)


def test_tokens_and_pieces_at_start():
    """Rulebook (3)-(5): no Sen, no material, 1 Foot marker; 4 Red Pine, 4 Oak, 4 Cedar, 2 Tatara, 1 Eidai each;
    18 Beeches in the supply, none on the board."""
    s = new(["a", "b", "c"])
    for seat in s.seats:
        assert (seat.sen, seat.mat, seat.foot) == (0, 0, 1)
        assert (seat.pine, seat.oak, seat.cedar, seat.tatara, seat.eidai) == (4, 4, 4, 2, 1)
    assert s.beech == 18


@pytest.mark.parametrize(
    ("n", "cards"),
    [
        (2, [0, 1, 1, 2, 2, 3, 3]),
        (3, [0] + [k for k in range(1, 6) for _ in range(2)]),
        (4, [0] + [k for k in range(1, 7) for _ in range(2)]),
    ],
)
def test_ft7_shift_deck_and_first_reveal(n, cards):
    """Rulebook (6): 7 / 11 / 13 cards (one zero card). FT-7: as many cards as players are revealed before the first
    round, for information only: the forest does not change."""
    assert sorted(shift_cards(n)) == cards
    s = new([f"p{i}" for i in range(n)], seed=5)
    assert len(s.shown) == n and len(s.deck) == len(cards) - n and s.used == []
    assert sorted(s.shown + s.deck) == cards
    fresh = [c for c in s.tiles]
    assert fresh == [c for c in GAME.setup([f"p{i}" for i in range(n)], None, 5).tiles]
    assert all(c in ("", "Ea-") for c in s.tiles)


def test_deck_shuffle_comes_from_the_seed():
    """C-1: the same seed gives the same deck; the shuffle can be forced."""
    assert new(seed=3).deck == new(seed=3).deck
    assert {tuple(new(seed=k).shown + new(seed=k).deck) for k in range(20)} != 1


def test_first_tatara_placement_clockwise_from_the_starting_player():
    """Rulebook "Placing your first Tatara": seat order from the starting player; Tatara and Player piece on the same
    open tile; then round 1 begins with the starting player's move."""
    s = new(["red", "blue", "green"])
    d = GAME.pending(s)[0]
    assert d.player == "red" and d.kind == "place"
    assert "tile:1-1" not in ids(s)  # an Evergreen
    s, events = act(s, "red", "tile:1-5")
    assert s.tiles[T("1-5")] == "T-0" and s.seats[0].pos == T("1-5") and s.seats[0].tatara == 1
    assert "tile:1-5" not in ids(s)
    assert GAME.pending(s)[0].player == "blue"
    s, _ = act(s, "blue", "tile:3-5")
    s, events = act(s, "green", "tile:5-1")
    assert s.phase == "move" and s.round == 1 and s.turn == 0
    assert GAME.pending(s)[0].player == "red" and GAME.pending(s)[0].kind == "move"
    assert [e.kind for e in events] == ["place", "round"]


def test_placement_refuses_taken_tiles_and_wrong_players():
    s = placed(("red", "blue"), ("1-5", "3-5"))
    s2 = new()
    s2, _ = act(s2, "red", "tile:1-5")
    assert_illegal(GAME, s2, Move(player="blue", option="tile:1-5"))
    assert_illegal(GAME, s2, Move(player="blue", option="tile:1-1"))  # Evergreen
    assert_illegal(GAME, s2, Move(player="red", option="tile:2-5"))  # not red's turn
    assert s.phase == "move"


def test_setup_refuses_bad_player_lists():
    with pytest.raises(ValueError):
        GAME.setup(["a"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c", "d", "e"], None, 1)
    with pytest.raises(ValueError):
        GAME.setup(["a", "a"], None, 1)


def test_ft1_three_player_layout_has_no_board_under_board_three():
    """FT-1: 3 players, 1-2-3 over 4-5: board 3 has nothing below it; 2-8 touches 5-2."""
    geo = geometry("123/45.")
    names = lambda t: sorted(tile_name(x) for x in geo.neighbours[tile_index(t)])  # noqa: E731
    assert names("3-7") == ["2-9", "3-4", "3-8"]
    assert names("3-8") == ["3-5", "3-7", "3-9"]
    assert names("2-8") == ["2-5", "2-7", "2-9", "5-2"]
    assert names("5-3") == ["2-9", "5-2", "5-6"]
    assert names("5-6") == ["5-3", "5-5", "5-9"]  # nothing right of board 5


def test_ft7_begin_returns_the_first_reveal_as_an_event():
    """FT-7, rulebook "Reveal shift card" (contract ``Game.begin``): setup's revealed cards reach the table as one
    event, once; ``begin(...).state`` equals ``setup(...)``; the forest does not change."""
    out = GAME.begin(["red", "blue", "green"], None, 5)
    assert out.state == GAME.setup(["red", "blue", "green"], None, 5)
    cards = out.state.shown
    assert len(cards) == 3
    assert [(e.kind, e.data) for e in out.events] == [("reveal", {"cards": cards})]
    assert out.events[0].text == (
        "Shift cards revealed before the first round (they only inform, nothing grows): "
        + ", ".join(str(c) for c in cards)
        + "."
    )
    assert all(c in ("", "Ea-") for c in out.state.tiles)
