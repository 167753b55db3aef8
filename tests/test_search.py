"""The strong level's search (issue 14 item 4, games/search.py): deepening rounds for games without chance after
setup (Tsukimi, TS-4), the final margin in the shares of a finished game, and the Tsukimi greedy estimates shared
between tiles that read alike. Iteration budgets only: deterministic, never timed."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest

import games
from games import Move, search
from games.ai import Budget
from games.search import Knowledge, shares
from games.tsukimi import ai as tsukimi_ai
from games.tsukimi import rules as tsukimi_rules


def _tsukimi_position(kind: str, seed: int = 5, turns: int = 6):
    """A Tsukimi position after ``turns`` greedy turns of seed ``seed``, at the next decision of ``kind``."""
    game = games.get("tsukimi")
    state = game.begin(["a", "b"], None, seed).state
    rng = random.Random(seed)
    while True:
        d = game.pending(state)[0]
        if d.kind == kind and len(state.board) >= turns and len(d.options) >= 4:
            return game, state, d
        state = game.apply(state, Move(player=d.player, option=game.greedy(state, d, rng))).state


def _recording(monkeypatch):
    calls: list[tuple[str, int | None]] = []
    real = search._value

    def value(game, state, decision, option, know, player, seed, turns=None):
        calls.append((option, turns))
        return real(game, state, decision, option, know, player, seed, turns)

    monkeypatch.setattr(search, "_value", value)
    return calls


def test_deepening_samples_each_option_once_per_horizon_and_keeps_the_better_half(monkeypatch):
    """A game without chance (``horizons``): round 1 samples the 4 candidates once at 2 turns, in the greedy
    ranking's order; round 2 samples the better 2 of them once at 4 turns; then the search ends with budget left."""
    game, state, d = _tsukimi_position("choose_tile")
    calls = _recording(monkeypatch)
    know = search.knowledge(game)
    monkeypatch.setattr(know.module, "horizons", lambda s: [2, 4], raising=False)
    monkeypatch.setattr(know.module, "CANDIDATES", 4)
    ranked = tsukimi_ai.candidates(state, d, random.Random(0))[:4]
    answer = search.search(game, state, d, d.player, random.Random(0), Budget(iterations=1000))
    made = list(calls)
    assert [c[0] for c in made[:4]] == ranked and {c[1] for c in made[:4]} == {2}
    assert len(made) == 6 and {c[1] for c in made[4:]} == {4}
    seed = random.Random(0).getrandbits(62)  # the search's one deal
    me = state.players.index(d.player)
    first = {o: search._value(game, state, d, o, know, d.player, seed, 2)[me] for o in ranked}
    kept = sorted(ranked, key=lambda o: (-first[o], o != ranked[0]))[:2]
    assert sorted(c[0] for c in made[4:]) == sorted(kept) and answer in kept


def test_deepening_cut_short_by_the_budget_compares_what_it_sampled(monkeypatch):
    """Two iterations: only the greedy option and the next are sampled (2 turns), and the answer is one of them;
    no iteration at all answers the greedy option."""
    game, state, d = _tsukimi_position("choose_tile")
    calls = _recording(monkeypatch)
    know = search.knowledge(game)
    monkeypatch.setattr(know.module, "horizons", lambda s: [2, 4], raising=False)
    monkeypatch.setattr(know.module, "CANDIDATES", 4)
    ranked = tsukimi_ai.candidates(state, d, random.Random(0))
    answer = search.search(game, state, d, d.player, random.Random(0), Budget(iterations=2))
    assert calls == [(ranked[0], 2), (ranked[1], 2)] and answer in ranked[:2]
    calls.clear()
    assert search.search(game, state, d, d.player, random.Random(0), Budget(iterations=0)) == ranked[0]
    assert calls == []


def _finished_tsukimi():
    game = games.get("tsukimi")
    state = game.begin(["a", "b"], None, 11).state
    rng = random.Random(11)
    while game.pending(state):
        d = game.pending(state)[0]
        state = game.apply(state, Move(player=d.player, option=game.greedy(state, d, rng))).state
    return game, state


def test_final_margin_blends_the_ranking_with_the_score_difference():
    """A finished game: without ``FINAL_MARGIN`` each seat's share is its ranking share (1 / 0 / one half on a
    shared win); with 0.5 and ``EVAL_SCALE`` 2, half of it is sigmoid(score difference / 2) ("End of the Game",
    TS-8: the mochi points)."""
    game, state = _finished_tsukimi()
    result = game.result(state)
    a, b = state.players
    rank = [1.0 if result.winners == [a] else 0.0 if result.winners == [b] else 0.5]
    rank.append(1.0 - rank[0])
    assert shares(game, state, Knowledge(SimpleNamespace(EVAL_SCALE=2.0))) == rank
    diff = result.scores[a] - result.scores[b]
    blended = shares(game, state, Knowledge(SimpleNamespace(EVAL_SCALE=2.0, FINAL_MARGIN=0.5)))
    assert blended == pytest.approx([0.5 * rank[0] + 0.5 / (1 + math.exp(-diff / 2)),
                                     0.5 * rank[1] + 0.5 / (1 + math.exp(diff / 2))])


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
