"""Per-game AI knowledge (``games.search.Knowledge``): one typed ``KNOWLEDGE`` object per game, refused at import
when a hook is misspelt or cannot be called as the AI levels call it, and read by the levels under exactly the
names it declares. Deterministic: no clock."""

from __future__ import annotations

import ast
import dataclasses
import random
import sys
import types
from pathlib import Path

import pytest

import games
from games import Move
from games.ai import Budget, choose, greedy
from games.search import NO_KNOWLEDGE, Knowledge, knowledge, search
from games.tatamokatsu import ai as tatamokatsu_ai
from games.tatamokatsu import hints as tatamokatsu_hints
from games.tataraba import ai as tataraba_ai
from games.tataraba import hints as tataraba_hints
from games.tatari import ai as tatari_ai
from games.tatari import hints as tatari_hints
from games.tatsumi import ai as tatsumi_ai
from games.tatsumi import hints as tatsumi_hints
from games.tsukimi import ai as tsukimi_ai
from games.tsukimi import hints as tsukimi_hints

ROOT = Path(__file__).resolve().parents[1]

TOLD: dict[str, dict[str, object]] = {
    "tatamokatsu": {
        "evaluate": tatamokatsu_ai.evaluate, "eval_scale": 1.5, "rollout_turns": 3, "rollout_decisions": 40,
        "resolve_race": tatamokatsu_ai.resolve_race, "loses_at_once": tatamokatsu_ai.loses_at_once,
        "race_answer": tatamokatsu_ai.race_answer, "window_opened": tatamokatsu_ai.window_opened,
        "explain": tatamokatsu_hints.explain,
    },
    "tataraba": {
        "evaluate": tataraba_ai.evaluate, "rollout_turns": 4, "determinise": tataraba_ai.determinise,
        "candidates": tataraba_ai.candidates, "max_candidates": 3, "min_rounds": 3,
        "greedy_kinds": frozenset({"special"}), "min_gain": 0.02, "explain": tataraba_hints.explain,
    },
    "tatari": {
        "evaluate": tatari_ai.evaluate, "eval_scale": 1.5, "rollout_decisions": 30,
        "candidates": tatari_ai.candidates, "loses_at_once": tatari_ai.loses_at_once,
        "explain": tatari_hints.explain, "option_values": tatari_hints.option_values,
    },
    "tatsumi": {
        "evaluate": tatsumi_ai.evaluate, "eval_scale": 6.0, "solo_reference": 100.0,
        "rollout_turns": tatsumi_ai.rollout_turns, "rollout_decisions": tatsumi_ai.rollout_decisions,
        "determinise": tatsumi_ai.determinise, "rollout_choice": tatsumi_ai.rollout_choice,
        "candidates": tatsumi_ai.candidates, "explain": tatsumi_hints.explain,
    },
    "tsukimi": {
        "evaluate": tsukimi_ai.evaluate, "eval_scale": 2.0, "min_gain": 0.02,
        "rollout_turns": tsukimi_ai.rollout_turns, "rollout_decisions": tsukimi_ai.rollout_decisions,
        "candidates": tsukimi_ai.candidates, "max_candidates": 4, "explain": tsukimi_hints.explain,
    },
}
"""Every field each game's knowledge sets away from its default, and to what."""


def _told(know: Knowledge) -> dict[str, object]:
    return {f.name: getattr(know, f.name) for f in dataclasses.fields(Knowledge)
            if getattr(know, f.name) != f.default}


@pytest.mark.parametrize("game_id", sorted(TOLD))
def test_each_game_tells_the_ai_exactly_its_hooks(game_id):
    """A hook renamed, dropped from ``KNOWLEDGE`` or given another value changes this table (Tsukimi's
    ``rollout_turns`` is its endgame look-ahead, Tatsumi's its round-long horizon, Tatamokatsu's ``race_answer``
    its reaction model)."""
    know = knowledge(games.get(game_id))
    assert know is sys.modules[f"games.{game_id}.ai"].KNOWLEDGE
    assert _told(know) == TOLD[game_id]


def test_every_registered_game_has_its_knowledge():
    assert sorted(g.id for g in games.all()) == sorted(TOLD)


def _reads(path: Path) -> set[str]:
    """The attribute names read on a knowledge object in ``path``: ``know.<name>`` and ``knowledge(game).<name>``."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Attribute):
            continue
        value = node.value
        if (isinstance(value, ast.Name) and value.id == "know") or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "knowledge"):
            out.add(node.attr)
    return out


def test_the_ai_levels_read_every_knowledge_field_and_no_other_name():
    """The search (``games/search.py``), the easy level and race model (``games/ai.py``) and the hints
    (``games/hints.py``) read the knowledge by its declared fields only: a misspelt read is a name not declared, a
    field nobody reads a hook that does nothing."""
    search_reads = _reads(ROOT / "games" / "search.py")
    level_reads = _reads(ROOT / "games" / "ai.py")
    hint_reads = _reads(ROOT / "games" / "hints.py")
    declared = {f.name for f in dataclasses.fields(Knowledge)}
    assert search_reads | level_reads | hint_reads == declared
    assert level_reads == {"loses_at_once", "race_answer", "window_opened"}
    assert hint_reads - search_reads == {"explain", "option_values"}


def test_a_misspelt_hook_is_refused_when_the_knowledge_is_built():
    with pytest.raises(TypeError, match="unexpected keyword argument 'rollout_turn'"):
        Knowledge(rollout_turn=tsukimi_ai.rollout_turns)
    with pytest.raises(TypeError, match=r"Knowledge\.rollout_turns must take 1 positional argument"):
        Knowledge(rollout_turns=lambda: 2)
    with pytest.raises(TypeError, match=r"Knowledge\.evaluate must take 1 positional argument"):
        Knowledge(evaluate=tatari_ai.candidates)
    with pytest.raises(TypeError, match=r"Knowledge\.candidates must be callable, not int"):
        Knowledge(candidates=4)
    with pytest.raises(TypeError, match=r"Knowledge\.eval_scale must be a number, not str"):
        Knowledge(eval_scale="2")
    with pytest.raises(ValueError, match=r"Knowledge\.eval_scale must be positive, not 0\.0"):
        Knowledge(eval_scale=0)
    with pytest.raises(ValueError, match=r"Knowledge\.rollout_turns must be at least 1, not 0"):
        Knowledge(rollout_turns=0)
    with pytest.raises(ValueError, match=r"Knowledge\.max_candidates must be a count of at least 1, not 0"):
        Knowledge(max_candidates=0)
    with pytest.raises(TypeError, match=r"Knowledge\.greedy_kinds must be a collection of decision kinds"):
        Knowledge(greedy_kinds="special")


def test_knowledge_is_frozen_and_numbers_are_floats():
    know = Knowledge(eval_scale=3, solo_reference=100, greedy_kinds=("special",))
    assert (know.eval_scale, know.solo_reference, know.greedy_kinds) == (3.0, 100.0, frozenset({"special"}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        know.eval_scale = 2.0


def test_a_game_without_an_ai_module_gets_the_defaults_and_one_without_knowledge_is_refused(monkeypatch):
    assert knowledge(types.SimpleNamespace(id="no_such_game")) is NO_KNOWLEDGE
    monkeypatch.setitem(sys.modules, "games.bare", types.ModuleType("games.bare"))
    monkeypatch.setitem(sys.modules, "games.bare.ai", types.ModuleType("games.bare.ai"))
    with pytest.raises(TypeError, match=r"games\.bare\.ai\.KNOWLEDGE must be a games\.search\.Knowledge, not NoneType"):
        knowledge(types.SimpleNamespace(id="bare"))



def _tsukimi_after(seed: int, moves: int):
    """The position after ``moves`` greedy moves of the Tsukimi game dealt from ``seed`` (rng ``Random(seed)``)."""
    game = games.get("tsukimi")
    rng = random.Random(seed)
    state = game.begin(["a", "b"], None, seed).state
    for _ in range(moves):
        d = game.pending(state)[0]
        option = greedy(game, state, d, rng)
        state = game.apply(state, Move(player=d.player, option=option, at_ms=d.deadline_ms)).state
    return game, state, game.pending(state)[0]


def test_the_tsukimi_endgame_look_ahead_changes_the_strong_choice():
    """With two mochi tiles left (ENDGAME_TILES) Tsukimi's ``rollout_turns`` rolls out to the end of the game
    (99 changes of the player to move, 40 decisions) instead of the turn and the reply. In this position (seed 10,
    after 69 greedy moves, bob's effects with 7 options) the strong search answers ``move:B3-s``; the same
    search, same rng and 56 iterations, with the two-turn horizon answers ``move:A2-s``."""
    game, state, d = _tsukimi_after(10, 69)
    assert (18 - len(state.board), d.kind, d.player, len(d.options)) == (2, "effects", "b", 7)
    assert (tsukimi_ai.rollout_turns(state), tsukimi_ai.rollout_decisions(state)) == (99, 40)
    two_turns = dataclasses.replace(tsukimi_ai.KNOWLEDGE, rollout_turns=2, rollout_decisions=16)
    budget = 8 * len(d.options)
    assert search(game, state, d, "b", random.Random(0), Budget(iterations=budget)) == "move:B3-s"
    assert choose(game, state, d, "b", "strong", random.Random(0), Budget(iterations=budget)) == "move:B3-s"
    assert search(game, state, d, "b", random.Random(0), Budget(iterations=budget), know=two_turns) == "move:A2-s"
