"""``renderers.shows_whole(state)``: where a renderer says the decision's view of a state is the whole board,
``render(state)`` and ``render(state, full=True)`` are the same PNG bytes (a whole board looked up is then the
board image drawn already, ``bot.discord.images.Images.full_png``); where it says not, they differ."""

from __future__ import annotations

import random

import pytest

import games
import renderers
from games.ai import play

EVERY = 7
"""Every how-many-th position of a random-legal game is checked (its last one always)."""


def positions(game_id: str, seed: int) -> list:
    """Every :data:`EVERY`-th position of a seeded random-legal 2-player game of ``game_id``, and its end."""
    game = games.get(game_id)
    seen = [game.setup(["p1", "p2"], None, seed)]
    final = play(game, seen[0], {}, random.Random(seed), on_step=lambda before, move, after, events: seen.append(after))
    return seen[::EVERY] + [final]


@pytest.mark.parametrize("game_id", ["tatari", "tsukimi", "tatamokatsu", "tataraba", "tatsumi"])
def test_the_decisions_view_is_the_whole_board_exactly_where_the_renderer_says_so(game_id):
    names = {"p1": "Ann", "p2": "髙橋"}
    whole, close = 0, 0
    for state in positions(game_id, seed=3):
        board, full = renderers.render(state, names), renderers.render(state, names, full=True)
        if renderers.shows_whole(state):
            whole += 1
            assert board == full, f"{game_id}: shows_whole, yet the images differ (phase {state.phase})"
        else:
            close += 1
            assert board != full, f"{game_id}: not shows_whole, yet the images are the same (phase {state.phase})"
    assert whole >= 1  # the game's end at least
    if game_id in ("tatari", "tatamokatsu"):
        assert close == 0
    else:
        assert close >= 1


def test_a_game_without_a_renderer_is_a_key_error():
    state = games.get("tatari").setup(["p1", "p2"], None, 1).model_copy(update={"game": "go"})
    with pytest.raises(KeyError, match="no renderer for 'go'"):
        renderers.shows_whole(state)
