"""Scoring and the end (rulebook "End of the Game", RULINGS TS-8)."""

from __future__ import annotations

import random

from tsukimi_helpers import GAME, PLAYERS, P, W, position, tid

from games.core import Move
from games.tsukimi import rules
from games.tsukimi.data import TEMPLE

# -- TS-8 and End of the Game -------------------------------------------------------------------------------------


def test_ts8_most_points_wins():
    """End of the Game: more rabbits around a tile claims it; the most points wins (5 against 3)."""
    board = {"C3": tid("sakura", 5), "C4": tid("matcha", 3)}
    s = position(board, white=("C3-n",), purple=("C4-ne", "C4-se"))
    s.phase = "over"
    r = GAME.result(s)
    assert r.scores == {W: 5, P: 3} and r.winners == [W] and r.ranking == [[W], [P]] and "on points" in r.reason


def _tie_state(reserve):
    board = {"A1": tid("strawberry", 0), "A2": tid("strawberry", 1), "B2": tid("blueberry", 1)}
    s = position(board, white=("A1-n", "A2-n"), purple=("B2-s",), reserve=reserve)
    s.phase = "over"
    return s


def test_ts8_tiles_then_reserve_then_shared():
    """TS-8: points, then most tiles claimed, then most rabbits in reserve; a full tie is a shared win."""
    s = _tie_state((10, 10))  # white: A1 0 + A2 1 = 1 point, 2 tiles; purple: B2 1 point, 1 tile
    st = rules.standings(s)
    assert st.points == (1, 1) and st.tiles == (2, 1)
    r = GAME.result(s)
    assert r.winners == [W] and r.ranking == [[W], [P]] and "most tiles" in r.reason
    s2 = position({"A2": tid("strawberry", 1), "B2": tid("blueberry", 1)}, white=("A2-n",), purple=("B2-s",),
                  reserve=(9, 12))
    s2.phase = "over"
    r2 = GAME.result(s2)
    assert rules.standings(s2).tiles == (1, 1) and r2.winners == [P] and "reserve" in r2.reason
    s3 = s2.model_copy(update={"reserve": [12, 12]})
    r3 = GAME.result(s3)
    assert sorted(r3.winners) == sorted(PLAYERS) and r3.ranking == [PLAYERS] and "share" in r3.reason


def test_end_when_all_eighteen_placed():
    """End of the Game: the game ends when all 18 mochi are placed (after the last turn's effects)."""
    s = GAME.setup(PLAYERS, None, 11)
    rng = random.Random(0)
    turns = 0
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        s = GAME.apply(s, Move(player=d.player, option=rng.choice(d.options).id)).state
        turns += d.kind == "choose_tile"
    assert len(s.board) == 18 and s.phase == "over" and all(t is None or t == TEMPLE for t in s.circle)
    assert GAME.result(s) is not None
