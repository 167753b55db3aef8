"""Alt text of every decision in whole games (renderers.words): each option the player can pick is named by the key
the board and the buttons show (``games.marker_keys``: ``"3 · …"``), or by its label when it has no place; at most
1,024 characters (Discord's attachment description); never a player id. ``board_words`` chunks fit a message."""

from __future__ import annotations

import random
import re

import pytest

import games
from games import format_text, marker_keys
from games.ai import greedy, play
from renderers.words import alt_text, board_words

TABLES = [("tatari", 3), ("tatamokatsu", 3), ("tsukimi", 2), ("tataraba", 2), ("tataraba", 4), ("tatsumi", 1),
          ("tatsumi", 3)]
OPTIONS = {("tatsumi", 1): {"solo": True}}
IDS = ["p1001", "p1002", "p1003", "p1004", "p1005"]


def _names(players):
    return {p: f"Player{i + 1}" for i, p in enumerate(players)}


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_every_option_key_is_in_the_alt_text_of_every_decision(game_id, n):
    game = games.get(game_id)
    players = IDS[:n]
    names = _names(players)
    state = game.setup(players, OPTIONS.get((game_id, n)), seed=3)
    seen = 0

    def check(before, move, after, events):
        nonlocal seen
        decisions = [d for d in game.pending(before) if d.options]
        text = alt_text(before, names)
        assert text and len(text) <= 1024
        assert not any(p in text for p in players), text
        for d in decisions[:1]:
            keys = marker_keys(d.options)
            for opt in d.options:
                if opt.id in keys:  # the marker key as a whole token ("3 · C3-n", or bare "3" in a long list)
                    assert re.search(rf"(?<![\d.]){keys[opt.id]}(?![\d])", text), (opt.id, keys[opt.id], text)
                else:
                    want = format_text(opt.label, lambda p: names.get(p, p))
                    assert want in text, (opt.id, want, text)
            seen += 1

    end = play(game, state, {p: greedy for p in players}, random.Random(3), on_step=check)
    assert seen > 5
    chunks = board_words(end, names)
    assert chunks and all(0 < len(c) <= 1900 for c in chunks)
    assert not any(p in c for c in chunks for p in players)
