"""The Moon board and its names (RULINGS TS-2): spaces, vertices, the up-to-three names of a vertex, aliases."""

from __future__ import annotations

from support import assert_illegal
from tsukimi_helpers import GAME, W, act, option_ids, play_tile, position, tid

from games.core import Move
from games.tsukimi import normalise
from games.tsukimi.board import (
    NEIGHBOURS,
    SPACE_VERTICES,
    SPACES,
    VERTEX_NAMES,
    VERTICES,
    canonical,
    corner_name,
    vertex_label,
)

# -- TS-2: the board -------------------------------------------------------------------------------------------


def test_ts2_board_rows_spaces_vertices():
    """TS-2: rows A-E of 3, 4, 5, 4, 3 spaces, C3 the centre with six neighbours, 54 vertices."""
    assert [sum(1 for s in SPACES if s[0] == r) for r in "ABCDE"] == [3, 4, 5, 4, 3]
    assert len(SPACES) == 19 and len(VERTICES) == 54
    assert NEIGHBOURS["C3"] == ("B2", "B3", "C2", "C4", "D2", "D3")
    assert NEIGHBOURS["A1"] == ("A2", "B1", "B2")
    assert NEIGHBOURS["E3"] == ("D3", "D4", "E2")
    assert sorted(len(NEIGHBOURS[s]) for s in SPACES) == [3] * 6 + [4] * 6 + [6] * 7


def test_ts2_vertex_names_up_to_three():
    """TS-2: C3-n = B2-se = B3-sw; every vertex has 1-3 names; each space has 6 distinct vertices."""
    assert VERTEX_NAMES["C3-n"] == ("C3-n", "B2-se", "B3-sw")
    assert canonical("B2-se") == canonical("b3-SW") == canonical(" C3-n ") == "C3-n"
    assert canonical("C3-x") is None and canonical("Z9-n") is None and canonical("C3") is None
    assert vertex_label("C3-n") == "C3-n (= B2-se = B3-sw)"
    assert corner_name("C3", "D3-n") == "C3-se"
    counts = sorted(len(n) for n in VERTEX_NAMES.values())
    assert counts.count(3) == 24 and counts.count(2) == 12 and counts.count(1) == 18  # 72+24+18 = 114 = 19*6
    for s in SPACES:
        assert len(set(SPACE_VERTICES[s])) == 6


def test_ts2_one_rabbit_per_vertex_aliases_refused():
    """TS-2: a vertex holds at most one rabbit; naming an occupied vertex by another name is refused."""
    s = position({"C3": tid("matcha", 2)}, white=("B2-se",))  # = C3-n
    s, _ = play_tile(s, tid("strawberry", 1), "B3")
    assert "place:C3-n" not in option_ids(s)
    assert_illegal(GAME, s, Move(player=W, option="place:B3-sw"))
    assert_illegal(GAME, s, Move(player=W, option="place:C3-n"))


# -- names and aliases -------------------------------------------------------------------------------------------


def test_aliases_accepted_everywhere():
    """Option ids use the canonical vertex; any of its names (any case) is accepted, and space names any case."""
    assert normalise(" Place:c3-se ") == "place:D3-n"
    assert normalise("to:B2-se") == "to:C3-n" and normalise("space:c3") == "space:C3" and normalise("END") == "end"
    assert normalise("place:nowhere") == "place:nowhere"
    s = position({"C3": tid("matcha", 1)})
    s, _ = play_tile(s, tid("carrot", 1), "C4")
    s2, _ = act(s, "place:C4-sw")  # = C3-se = D3-n
    assert s2.rabbits == {"D3-n": 0}
    labels = [o.label for o in GAME.pending(s)[0].options]
    assert "place a rabbit on C4-sw (= D3-n)" in labels


