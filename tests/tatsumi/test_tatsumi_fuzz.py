"""Tatsumi fuzzing: 1,000 random-legal games with invariants at every step, JSON round-trip and no mutation on a
subset, fortune equal to the sum of its scored events, garbage moves refused, greedy beats random."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support import assert_illegal, fuzz, mid_game
from tatsumi_helpers import P2, P3, check_invariants, ids, new

from games import IllegalMove, Move
from games.ai import STRATEGIES, next_move, play
from games.tatsumi import GAME


def _run(seed: int, n_players: int, strategies=None) -> tuple[int, dict[str, int]]:
    """One random-legal game with invariants after every move; returns (moves, fortune summed from events)."""
    players = [f"p{i}" for i in range(n_players)]
    state = GAME.setup(players, None, seed)
    check_invariants(state)
    rng = random.Random(seed)
    from_events = {p: 0 for p in players}
    moves = 0
    while True:
        move = next_move(GAME, state, strategies or {}, rng)
        if move is None:
            break
        out = GAME.apply(state, move)
        for e in out.events:
            if e.kind == "score":
                from_events[e.data["player"]] += e.data["amount"]
        state = out.state
        check_invariants(state)
        moves += 1
        assert moves < 5000
    assert GAME.result(state) is not None and GAME.pending(state) == []
    for p in state.seats:
        assert p.fortune == from_events[p.id]
    assert state.end_triggered
    return moves, from_events


def test_thousand_random_games_keep_the_invariants():
    """1,000 random-legal games (2-4 players): 112 rings conserved (with those removed at setup), at most 13 sand
    dollars, fortune = sum of its scored events, every island obeys TM-8, scales conserved."""
    total = 0
    for seed in range(1000):
        moves, _ = _run(seed, 2 + seed % 3)
        total += moves
    assert total > 50_000


def test_greedy_games_keep_the_invariants():
    """50 games of greedy players (who offer, use Blackbird, place scales far more than random ones)."""
    for seed in range(50):
        n = 2 + seed % 3
        _run(20_000 + seed, n, {f"p{i}": STRATEGIES["greedy"] for i in range(n)})


def test_round_trip_and_no_mutation_on_a_subset():
    """support.fuzz: JSON round-trip and no mutation of the input at every step (40 games)."""
    for seed in range(40):
        fuzz(GAME, 2 + seed % 3, 10_000 + seed, check_invariants)


def test_greedy_beats_random():
    """The greedy AI wins most 2-player games against random-legal (measured ~100%; asserted ≥ 80%)."""
    wins = 0
    n = 100
    for seed in range(n):
        seats = ["g", "r"] if seed % 2 == 0 else ["r", "g"]
        state = GAME.setup(seats, None, 50_000 + seed)
        final = play(GAME, state, {"g": STRATEGIES["greedy"], "r": STRATEGIES["random"]}, random.Random(seed))
        wins += "g" in GAME.result(final).winners and len(GAME.result(final).winners) == 1
    assert wins >= 80




@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 50),
    option=st.text(max_size=12),
    who=st.sampled_from(["ann", "bob", "cat", "zed", None]),
)
def test_garbage_moves_refused(seed, option, who):
    """Random option strings and wrong players are refused with the state unchanged."""
    state = mid_game(GAME, P3, None, seed)
    pending = GAME.pending(state)
    if not pending:
        return
    d = pending[0]
    if who == d.player and d.option(option) is not None:
        return
    assert_illegal(GAME, state, Move(player=who, option=option))


def test_wrong_player_and_stale_option_refused():
    s = new(P3)
    assert_illegal(GAME, s, Move(player="bob", option=ids(s)[0]), match="not your turn")
    assert_illegal(GAME, s, Move(player="ann", option="fly:a1"))
    assert_illegal(GAME, s, Move(player="ann", option="offer:fire"))
    assert_illegal(GAME, s, Move(player="ann", option="card:koi"))
    assert_illegal(GAME, s, Move(player=None, option="timeout"))


def test_finished_game_refuses_moves():
    state = GAME.setup(P2, None, 3)
    final = play(GAME, state, {}, random.Random(3))
    try:
        GAME.apply(final, Move(player="ann", option="end"))
    except IllegalMove as exc:
        assert "over" in str(exc)
    else:
        raise AssertionError("a finished game accepted a move")


def _universe() -> list[str]:
    """Every option id the game can ever list."""
    from games.tatsumi import data as D
    from games.tatsumi.island import layout

    names = list(D.ELEMENT_NAMES.values())
    out = [f"fly:{w}" for w in D.WELL_NAMES] + [f"gather:{w}" for w in D.WELL_NAMES]
    out += [f"offer:{e}" for e in names] + [f"overflow:{e}" for e in names]
    out += [f"{e}@{sp}" for e in names for sp in layout("tatsumi").names]
    out += [f"card:{c}" for c in D.CARDS] + ["blackbird", "end", "stop"]
    return out


def test_plausible_but_unlisted_options_refused():
    """At positions met in random games (every stage), every well-formed option id that is not listed is refused
    with the state unchanged, and every listed one is accepted."""
    universe = _universe()
    rng = random.Random(7)
    seen_stages = set()
    for seed in range(12):
        state = GAME.setup(P3, None, 700 + seed)
        k = 0
        while (move := next_move(GAME, state, {}, rng)) is not None:
            k += 1
            if k % 9 == 0:
                d = GAME.pending(state)[0]
                seen_stages.add(state.turn.stage)
                listed = {o.id for o in d.options}
                for oid in rng.sample(universe, 40):
                    if oid not in listed:
                        assert_illegal(GAME, state, Move(player=d.player, option=oid))
                for oid in listed:
                    GAME.apply(state, Move(player=d.player, option=oid))
            state = GAME.apply(state, move).state
    assert {"main", "gather2", "place"} <= seen_stages
