"""Fuzzing Tatari (foundation issue, item 9): random-legal games with invariants at every step, and garbage moves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support import fuzz

from games import IllegalMove, Move
from games.ai import STRATEGIES, play
from games.tatari import GAME, TatariState


def invariants(s: TatariState) -> None:
    """44 dolls conserved across stashes, shrines and box (TA-1); no stash over 10 (TA-9); shrines never
    negative; the set-aside dice never repeat a face across throws (TA-3) and never exceed six."""
    assert sum(s.stashes.values()) + sum(s.shrines.values()) + s.box == 44
    assert all(0 <= v <= 10 for v in s.stashes.values())
    assert all(v >= 0 for v in s.shrines.values()) and s.box >= 0
    assert len(s.set_aside) + len(s.rolled) <= 6
    faces = []
    for f in s.set_aside:
        if not faces or faces[-1] != f:
            faces.append(f)
    assert len(faces) == len(set(faces))


def test_1000_random_legal_games():
    lengths = []
    for seed in range(1000):
        final = fuzz(GAME, 2 + seed % 4, seed, invariants, strict=seed % 10 == 0)
        lengths.append(final.turn_number)
        r = GAME.result(final)
        assert len(r.winners) == 1 and final.stashes[r.winners[0]] == 0
    assert min(lengths) >= 2


def test_greedy_beats_random():
    wins = 0
    for seed in range(200):
        s = GAME.setup(["greedy", "random"] if seed % 2 else ["random", "greedy"], None, seed)
        final = play(GAME, s, {"greedy": STRATEGIES["greedy"]}, random.Random(seed))
        wins += GAME.result(final).winners == ["greedy"]
    assert wins >= 150, wins  # measured: about 90%


states = st.builds(lambda seed, n: GAME.setup([f"p{i}" for i in range(n)], None, seed),
                   st.integers(0, 2**32), st.integers(2, 5))
garbage = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["set:5", "set:", "shrine:11", "give:p0", "give:nobody", "stop", "continue", "timeout", "set:1 "]),
)


@settings(max_examples=300, deadline=None)
@given(states, st.one_of(st.none(), st.sampled_from(["p0", "p1", "p4", "zz"])), garbage)
def test_garbage_moves_are_refused_and_change_nothing(state, player, option):
    legal = {(d.player, o.id) for d in GAME.pending(state) for o in d.options}
    before = state.model_dump_json()
    if (player, option) in legal:
        GAME.apply(state, Move(player=player, option=option))
    else:
        try:
            GAME.apply(state, Move(player=player, option=option))
        except IllegalMove as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{player}:{option!r} was accepted")
    assert state.model_dump_json() == before
