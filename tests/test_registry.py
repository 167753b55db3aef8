"""The registry (ARCHITECTURE.md, the contract): every game loads and keeps the contract's names."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

import games
from games import Game

IDS = ["tatamokatsu", "tataraba", "tatari", "tatsumi", "tsukimi"]


def test_every_game_package_loads():
    assert games.load_errors() == {}
    assert [g.id for g in games.all()] == IDS


@pytest.mark.parametrize("game_id", IDS)
def test_contract_names(game_id):
    g = games.get(game_id)
    assert isinstance(g, Game) and g.id == game_id and g.title
    assert 1 <= g.min_players <= g.max_players <= 5
    assert issubclass(g.Options, BaseModel) and g.Options()  # every option defaulted
    assert g.rules_help.get("") and g.summary
    state = g.setup([f"p{i}" for i in range(max(g.min_players, 2))], None, 1)
    assert g.load_state(state.model_dump_json()) == state
    assert g.pending(state) and g.result(state) is None


def test_unknown_game_names_the_known_ones():
    with pytest.raises(KeyError, match="unknown game 'chess' \\(known: tatamokatsu, tataraba, tatari, tatsumi"):
        games.get("chess")
