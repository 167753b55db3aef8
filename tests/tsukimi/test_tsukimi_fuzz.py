"""1,000 random-legal games with the invariants at every step; illegal and garbage moves refused, state unchanged."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import assert_illegal, fuzz
from tsukimi_helpers import GAME, PLAYERS, P, W, check, option_ids, play_tile, position, tid

from games.ai import play
from games.core import Move
from games.tsukimi.answers import resolve

N_GAMES = 1000


@pytest.mark.slow
def test_fuzz_1000_random_legal_games():
    """Every step of 1,000 games (light and dark, either clan first): JSON round-trip, no mutation of the input,
    and the invariants of ``check``: rabbits of each colour conserved across reserve, board and box; one rabbit per
    vertex; every placed tile touches another; each tile exactly once in the circle, in hand or on the board."""
    sides = {"light": 0, "dark": 0}
    for seed in range(N_GAMES):
        opts = {"side": "dark" if seed % 2 else "light", "first": "purple" if seed % 4 >= 2 else "white"}
        final = fuzz(GAME, 2, seed, check, options=opts)
        assert len(final.board) == 18
        sides[final.side] += 1
    assert sides == {"light": N_GAMES // 2, "dark": N_GAMES // 2}


def _random_state(seed: int, steps: int):
    rng = random.Random(seed)
    s = GAME.setup(PLAYERS, {"side": "dark" if seed % 2 else "light"}, seed)
    for _ in range(steps):
        d = GAME.pending(s)
        if not d:
            break
        s = GAME.apply(s, Move(player=d[0].player, option=rng.choice(d[0].options).id)).state
    return s


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 90),
       option=st.one_of(st.text(max_size=20),
                        st.sampled_from(["tile:", "tile:0", "tile:-1", "tile:99", "space:Z9", "space:",
                                         "place:", "place:C3-q", "move:A1-n", "discard:C3-n", "to:", "end ",
                                         "back", "timeout", "tile:1 ", "space:c3", "to:x-n"])),
       who=st.sampled_from([W, P, None, "mallory", ""]))
def test_garbage_refused_state_unchanged(seed, steps, option, who):
    """Any move that is not a listed option (after the accepted spellings and bare names, ``answers.resolve``) for
    the player to act is refused with a readable message and leaves the state unchanged."""
    s = _random_state(seed, steps)
    d = GAME.pending(s)
    listed = {o.id for o in d[0].options} if d else set()
    if d and who == d[0].player and resolve(s, d[0], option) in listed:
        return  # a legal move (e.g. "space:c3"), not garbage
    assert_illegal(GAME, s, Move(player=who, option=option))


def test_wrong_player_refused():
    """Every listed option, sent by the other player (or a stranger, or the system), is refused."""
    s = GAME.setup(PLAYERS, None, 1)
    o = option_ids(s)[0]
    assert_illegal(GAME, s, Move(player=P, option=o), match="not your turn")
    assert_illegal(GAME, s, Move(player=None, option="timeout"))
    for seed in range(30):
        s = _random_state(seed, seed * 3)
        d = GAME.pending(s)
        if not d:
            continue
        other = PLAYERS[1 - PLAYERS.index(d[0].player)]
        for opt in d[0].options[:5]:
            for who in (other, "mallory", None):
                assert_illegal(GAME, s, Move(player=who, option=opt.id))


def test_moves_after_the_end_refused():
    s = _random_state(3, 10_000)
    assert s.phase == "over"
    assert_illegal(GAME, s, Move(player=W, option="end"), match="over")


def test_options_of_another_phase_refused():
    """Options valid in another phase are refused (a tile while placing, a space while acting)."""
    s = position({"C3": tid("matcha", 1)}, purple=("A1-n",))
    s, _ = play_tile(s, tid("carrot", 0), "C4")
    for o in ("tile:1", "space:C5", "to:E3-s", "back", "discard:A1-n"):
        assert_illegal(GAME, s, Move(player=W, option=o))


def test_illegal_move_to_occupied_vertex_refused():
    s = position({"C3": tid("matcha", 1)}, white=("A1-n",), purple=("E3-s",))
    s, _ = play_tile(s, tid("sakura", 5), "C4")
    s = GAME.apply(s, Move(player=W, option="move:A1-n")).state
    assert_illegal(GAME, s, Move(player=W, option="to:E3-s"))
    assert_illegal(GAME, s, Move(player=W, option="to:A1-n"))


def test_strategies_play_to_the_end():
    s = GAME.setup(PLAYERS, {"side": "dark"}, 5)
    final = play(GAME, s, {}, random.Random(5))
    check(final)
