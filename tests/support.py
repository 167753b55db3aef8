"""Helpers shared by every game's tests: contract checks and random-legal fuzzing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games import Game, IllegalMove, Move
from games.ai import next_move, play, random_legal
from games.core import BaseState


def assert_illegal(game: Game, state: BaseState, move: Move, match: str | None = None) -> IllegalMove:
    """``apply`` must raise IllegalMove with a readable message and leave ``state`` unchanged."""
    before = state.model_dump_json()
    with pytest.raises(IllegalMove, match=match) as info:
        game.apply(state, move)
    assert str(info.value).strip(), "IllegalMove needs a message a player can read"
    assert state.model_dump_json() == before, "a refused move changed the state"
    return info.value


def fuzz(
    game: Game,
    n_players: int,
    seed: int,
    check: Callable[[BaseState], None] | None = None,
    options=None,
    strict: bool = True,
) -> BaseState:
    """Play one random-legal game to its end. At every step: JSON round-trips exactly, ``apply`` does not mutate
    its input, and ``check(state)`` (the game's invariants) holds. Returns the final state."""
    players = [f"p{i}" for i in range(n_players)]
    state = game.setup(players, options, seed)
    if check:
        check(state)

    def on_step(before, move, after, events):
        if strict:
            assert before.model_dump_json() == snapshot[0], f"apply mutated its input on {move}"
            assert game.load_state(after.model_dump_json()) == after
        if check:
            check(after)
        snapshot[0] = after.model_dump_json()

    snapshot = [state.model_dump_json()]
    final = play(game, state, {}, random.Random(seed), on_step=on_step)
    assert game.result(final) is not None
    assert game.pending(final) == []
    return final


def mid_game(game: Game, players: list[str], options, seed: int, max_moves: int = 60) -> BaseState:
    """A position after a seeded random number (0..max_moves-1) of random-legal moves from ``setup`` (for
    garbage-move properties that need states from every stage)."""
    state = game.setup(players, options, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, max_moves)):
        move = next_move(game, state, {}, rng)
        if move is None:
            break
        state = game.apply(state, move).state
    return state


__all__ = ["assert_illegal", "fuzz", "mid_game", "random_legal"]
