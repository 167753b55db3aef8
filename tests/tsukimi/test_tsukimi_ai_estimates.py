"""The strong level's knowledge of Tsukimi: the greedy player's tile estimates shared between
tiles that read alike equal those computed alone. Deterministic, never timed."""

from __future__ import annotations

import random

import pytest

import games
from games import Move
from games.tsukimi import ai as tsukimi_ai
from games.tsukimi import rules as tsukimi_rules


@pytest.mark.parametrize("seed", range(6))
def test_tsukimi_tile_estimates_shared_between_tiles_equal_the_ones_computed_alone(seed):
    """The greedy player's tile estimates (choose a mochi tile, "Choosing a Mochi Tile") with the memo equal, to
    the last bit, each tile's best placement computed on its own, at every tile choice of a game."""
    game = games.get("tsukimi")
    state = game.begin(["a", "b"], None, seed).state
    rng = random.Random(seed)
    checked = 0
    while game.pending(state):
        d = game.pending(state)[0]
        if d.kind == "choose_tile":
            me = state.turn
            cs = tsukimi_rules.costs(state.circle)
            spaces = tsukimi_rules.free_spaces(state)
            w = tsukimi_ai._reserve_weight(state.board)
            mg = tsukimi_ai._best_move(state.board, dict(state.rabbits), me)[0] if state.rabbits else 0.0
            alone = {}
            for o in d.options:
                tile = int(o.id.split(":")[1])
                left = state.reserve[me] - cs[tile]
                alone[o.id] = max(tsukimi_ai._placement_value(state, tile, s, left, mg) for s in spaces) \
                    - w * cs[tile]
            assert tsukimi_ai._tile_values(state, [o.id for o in d.options]) == alone
            checked += 1
        option = game.greedy(state, d, rng) if rng.random() < 0.7 else rng.choice(d.options).id
        state = game.apply(state, Move(player=d.player, option=option)).state
    assert checked >= 9
