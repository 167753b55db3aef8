"""The acceptance cases of ../shared/cases/tsukimi.md (TS-A..TS-D), every number asserted."""

from __future__ import annotations

from tsukimi_helpers import GAME, PLAYERS, P, W, act, check, option_ids, play_tile, position, tid

from games.core import Move
from games.tsukimi import rules
from games.tsukimi.data import TEMPLE


def test_case_ts_a_rulebook_end_example():
    """TS-A: counts per tile, claims, D3 discarded, white wins 8 to 3 (TS-8)."""
    board = {"C3": tid("sakura", 5), "C2": tid("carrot", 1), "C4": tid("matcha", 2),
             "B2": tid("strawberry", 0), "B3": tid("blueberry", 3), "D3": tid("matcha", 3)}
    s = position(board, white=("C3-sw", "C3-ne", "C4-ne", "C2-nw", "C3-se"),
                 purple=("C3-n", "B2-nw", "B3-ne", "D3-s"))
    cl = rules.claims(s)
    assert {sp: c.counts for sp, c in cl.items()} == {
        "C3": (3, 1), "C2": (2, 0), "C4": (3, 0), "B2": (0, 2), "B3": (1, 2), "D3": (1, 1)}
    assert {sp for sp, c in cl.items() if c.winner == 0} == {"C3", "C2", "C4"}
    assert {sp for sp, c in cl.items() if c.winner == 1} == {"B2", "B3"}
    assert cl["D3"].winner is None
    st = rules.standings(s)
    assert st.points == (5 + 1 + 2, 0 + 3) == (8, 3)
    assert st.tiles == (3, 2)
    s.phase = "over"
    r = GAME.result(s)
    assert r.winners == [W] and r.ranking == [[W], [P]] and r.scores == {W: 8, P: 3}
    assert "8 points" in r.reason and "3 points" in r.reason


def test_case_ts_b_costs():
    """TS-B: t1 0, t2 1, t3 2, t18 0, t17 1, t9 8, t10 8; after t1 and t2 are taken, t3 0 and t4 1."""
    s = GAME.setup(PLAYERS, None, 4)
    s.circle = [TEMPLE, *range(1, 19)]  # t_k is tile k, clockwise from the Temple
    cs = rules.costs(s.circle)
    assert (cs[1], cs[2], cs[3], cs[18], cs[17], cs[9], cs[10]) == (0, 1, 2, 0, 1, 8, 8)
    labels = {o.id: o.label for o in GAME.pending(s)[0].options}
    assert labels["tile:9"].endswith("(cost 8)") and labels["tile:10"].endswith("(cost 8)")
    s, _ = act(s, "tile:1", "space:C3", "end")  # white: t1 for 0
    assert s.reserve == [15, 15] and s.turn == 1
    s, _ = act(s, "tile:2", "space:C4", "end")  # purple: t2, now next to the Temple's gap: 0
    assert s.reserve == [15, 15] and s.circle[1] is None and s.circle[2] is None
    cs = rules.costs(s.circle)
    assert cs[3] == 0 and cs[4] == 1 and cs[18] == 0 and cs[17] == 1
    check(s)


def test_case_ts_c_exactly_three():
    """TS-C: matcha on C2 and C3, a matcha on C4 makes exactly 3: the placer discards one rival rabbit of their
    choice; a fourth matcha touching the group then discards nothing."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1)}
    s = position(board, purple=("A1-n", "E3-s"))
    s, ev = play_tile(s, tid("matcha", 2), "C4")
    groups = [e for e in ev if e.kind == "group"]
    assert len(groups) == 1 and groups[0].data == {"by": "flavour", "name": "matcha", "discard": True}
    assert s.discards_left == 1
    assert sorted(o for o in option_ids(s) if o.startswith("discard:")) == ["discard:A1-n", "discard:E3-s"]
    s, _ = act(s, "discard:E3-s", "end")
    assert s.rabbits == {"A1-n": 1} and s.box == [0, 1] and s.reserve == [15, 13]
    # purple plays a tile elsewhere, then white adds a fourth matcha touching the group
    s, _ = play_tile(s, tid("carrot", 3), "D1")
    s, _ = act(s, "end")
    assert s.turn == 0
    s, ev = play_tile(s, tid("matcha", 3), "B3")
    assert not [e for e in ev if e.kind == "group"] and s.discards_left == 0
    assert "end" in option_ids(s) and not [o for o in option_ids(s) if o.startswith("discard:")]
    check(s)


def test_case_ts_d_no_rival_rabbit_on_board():
    """TS-D: a group of exactly 3 forms but the rival has no rabbit on the board: nothing happens, the turn goes
    on (the tile's effects are still offered)."""
    board = {"C2": tid("matcha", 0), "C3": tid("matcha", 1)}
    s = position(board, white=("A1-n",))
    before_box = list(s.box)
    s, ev = play_tile(s, tid("matcha", 2), "C4")
    groups = [e for e in ev if e.kind == "group"]
    assert len(groups) == 1 and groups[0].data["discard"] is False and "nothing to discard" in groups[0].text
    assert s.discards_left == 0 and s.phase == "effects" and s.turn == 0 and s.box == before_box
    ids = option_ids(s)
    assert "end" in ids and any(o.startswith("place:") for o in ids) and "move:A1-n" in ids
    assert not [o for o in ids if o.startswith("discard:")]
    s2 = GAME.apply(s, Move(player=W, option="end")).state
    assert s2.turn == 1 and s2.rabbits == {"A1-n": 0}
