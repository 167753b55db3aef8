"""AI seat levels and the race model: ``games.ai.choose``, ``race_answer``, ``play_race``.

Every search here runs on an iteration budget, so the tests are deterministic and never timed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import mid_game

import games
from games import Move, Rng
from games.ai import (
    LEVELS,
    MAX_BUDGET_MS,
    MIN_REACTION_MS,
    Budget,
    choose,
    easy,
    greedy,
    level_strategy,
    next_move,
    play,
    play_race,
    race_answer,
    random_legal,
)
from games.tatamokatsu.ai import REACTION_MODEL, wanted_inputs
from games.tatamokatsu.data import GRAB, KATANA, SALUTE
from games.tatari.ai import loses_at_once
from games.tatari.state import TatariState

TABLES = [("tatari", 2, None), ("tatari", 3, None), ("tsukimi", 2, None), ("tatamokatsu", 3, None),
          ("tataraba", 2, None), ("tataraba", 3, None), ("tatsumi", 2, None), ("tatsumi", 3, None),
          ("tatsumi", 1, {"solo": True})]


def _chosen(game, state, level, seed, iterations=6):
    d = game.pending(state)[0]
    player = d.player if d.player is not None else state.players[0]
    return d, choose(game, state, d, player, level, random.Random(seed), Budget(iterations=iterations))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), level=st.sampled_from(LEVELS))
def test_every_level_answers_a_listed_option_in_every_game(table, seed, level):
    """Easy, normal and strong answer every decision of every game (3+ players and Tatsumi solo
    included) with one of its listed options, from random positions."""
    game_id, n, options = table
    game = games.get(game_id)
    state = mid_game(game, [f"p{i}" for i in range(n)], options, seed, max_moves=80)
    if not game.pending(state):
        return
    d = game.pending(state)[0]
    if not d.options:
        return
    d, option = _chosen(game, state, level, seed)
    assert d.option(option) is not None
    game.apply(state, Move(player=d.player or state.players[0], option=option, at_ms=d.deadline_ms))


@pytest.mark.parametrize("game_id", ["tatari", "tsukimi", "tatamokatsu", "tataraba", "tatsumi"])
def test_strong_is_reproducible_with_a_seed_and_iterations(game_id):
    """The same rng seed and iteration budget give the same answers (pure, no clock)."""
    game = games.get(game_id)
    state = game.begin(["a", "b"], None, 5).state
    rng = random.Random(1)
    for _ in range(200):
        ds = game.pending(state)
        if ds[0].player is not None and len(ds[0].options) > 1:
            break
        state = game.apply(state, next_move(game, state, {}, rng)).state
    answers = {_chosen(game, state, "strong", 7, iterations=12)[1] for _ in range(3)}
    assert len(answers) == 1


def test_one_option_is_answered_at_once_without_a_budget_spent():
    """A decision with one option is answered at once at every level."""
    game = games.get("tatamokatsu")
    state = game.setup(["a", "b"], None, 1)
    (d,) = game.pending(state)
    assert [o.id for o in d.options] == ["roll"]

    class Spent(Budget):
        def spent(self, done):  # pragma: no cover - must not be asked
            raise AssertionError("no search for one option")

    for level in LEVELS:
        assert choose(game, state, d, "a", level, random.Random(0), Spent(iterations=1)) == "roll"


def test_unknown_level_is_refused_with_the_known_ones():
    game = games.get("tatari")
    state = game.setup(["a", "b"], None, 1)
    d = game.pending(state)[0]
    with pytest.raises(ValueError, match="unknown AI level 'grandmaster'.*easy, normal, strong"):
        choose(game, state, d, "a", "grandmaster", random.Random(0))
    with pytest.raises(ValueError, match="unknown AI level"):
        race_answer(game, state, d, "a", "hard", random.Random(0))


def test_budget_needs_iterations_or_a_clocked_deadline_and_is_clamped_to_the_maximum():
    with pytest.raises(ValueError, match="iterations or a deadline"):
        Budget()
    with pytest.raises(ValueError, match="needs a clock"):
        Budget(deadline=1.0)
    now = [10.0]
    b = Budget.from_ms(5000, lambda: now[0])
    assert b.deadline == pytest.approx(10.0 + MAX_BUDGET_MS / 1000)
    assert not b.spent(10_000)
    now[0] = 11.0
    assert b.spent(0)
    assert Budget(iterations=3).spent(3) and not Budget(iterations=3).spent(2)


def test_a_deadline_budget_stops_before_an_iteration_would_end_past_it():
    """A search stops when one more iteration at the mean pace would end past the deadline (never more
    than the budget): deadline 10, iterations taking 4 then 3 time units -> after 2 (7 + 3.5 > 10)."""
    now = [0.0]
    b = Budget(deadline=10.0, clock=lambda: now[0])
    assert not b.spent(0)
    now[0] = 4.0
    assert not b.spent(1)
    now[0] = 7.0
    assert b.spent(2)


# -- strong finds the obvious winning move ---------------------------------------------------------------------


def _tatari(stashes, shrines, set_aside, rolled, phase):
    players = list(stashes)
    return TatariState(players=players, rng=Rng(seed=3), stashes=dict(stashes),
                       shrines={str(k): v for k, v in zip((7, 8, 9, 10), shrines, strict=True)},
                       box=44 - sum(stashes.values()) - sum(shrines),
                       current=players[0], phase=phase, set_aside=set_aside, rolled=rolled)


def test_strong_tatari_stops_when_the_stop_empties_its_stash():
    """Tatari TA-5, TA-10: total 8 with two dolls and shrine 8 empty: stopping puts alice's last doll on the shrine
    (her stash is empty, she wins when her turn comes round); strong stops."""
    game = games.get("tatari")
    state = _tatari({"alice": 1, "bob": 10}, (3, 0, 3, 3), ["4", "4", "double"], [], "fate")
    d = game.pending(state)[0]
    assert {o.id for o in d.options} == {"stop", "continue"}
    assert choose(game, state, d, "alice", "strong", random.Random(0), Budget(iterations=60)) == "stop"


def test_strong_tatamokatsu_strikes_the_last_finger():
    """Tatamokatsu TK-4, TK-9: the race winner strikes when the only opponent has one finger left (that wins the
    game); recovering would not."""
    game = games.get("tatamokatsu")
    state = game.setup(["alice", "bob"], None, 1).model_copy(
        update={"phase": "choice", "winner": "alice", "fingers": {"alice": 2, "bob": 1}})
    d = game.pending(state)[0]
    assert {o.id for o in d.options} == {"attack", "recover"}
    assert choose(game, state, d, "alice", "strong", random.Random(0), Budget(iterations=40)) == "attack"


def _deciding(game_id, n, kinds, seeds, wins_now, ready=lambda state: True, policy=greedy):
    """The first decision (in games of ``policy``, from ``seeds``) of a kind in ``kinds`` where ``wins_now`` is True
    for some options and False for the others (None: undecided, the position is skipped): (state, decision,
    winning option ids)."""
    game = games.get(game_id)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.begin([f"p{i}" for i in range(n)], None, seed).state
        for _ in range(3000):
            ds = game.pending(state)
            if not ds:
                break
            d = ds[0]
            if d.player is not None and d.kind in kinds and len(d.options) > 1 and ready(state):
                verdicts = {o.id: wins_now(game, state, d, o.id) for o in d.options}
                good = {o for o, won in verdicts.items() if won}
                if None not in verdicts.values() and good and len(good) < len(d.options):
                    return state, d, good
            option = policy(game, state, d, rng) if d.options else "timeout"
            state = game.apply(state, Move(player=d.player, option=option, at_ms=d.deadline_ms)).state
    pytest.skip(f"no deciding {kinds} position found in {game_id}")


def _ends_won(game, state, d, option):
    after = game.apply(state, Move(player=d.player, option=option, at_ms=d.deadline_ms)).state
    for _ in range(5):  # moves nobody chooses (one option) follow at once
        ds = game.pending(after)
        if not ds or len(ds[0].options) != 1:
            break
        after = game.apply(after, Move(player=ds[0].player, option=ds[0].options[0].id)).state
    result = game.result(after)
    return None if result is None else result.winners == [d.player]


def test_strong_tsukimi_places_the_rabbit_that_claims_the_game():
    """Tsukimi "End of the Game", TS-8: on the last decision of the game, where some answers claim the mochi that
    decides the game and others do not, strong picks a winning one."""
    state, d, good = _deciding("tsukimi", 2, {"effects", "move_to"}, [9, 13, 19], _ends_won,
                               ready=lambda s: len(s.board) == 18, policy=random_legal)
    game = games.get("tsukimi")
    assert len(good) < len(d.options)
    assert choose(game, state, d, d.player, "strong", random.Random(0), Budget(iterations=4 * len(d.options))) in good


def test_strong_tataraba_builds_the_eidai_tatara():
    """Forest of Tataraba FT-3, FT-8: with 10 Sen and 10 material the Eidai Tatara wins the game; strong takes the
    special action rather than ending its turn."""
    game = games.get("tataraba")

    def eidai_offered(game, state, d, option):
        return option == "eidai"

    state, d, good = _deciding("tataraba", 2, {"special"}, range(20), eidai_offered)
    assert choose(game, state, d, d.player, "strong", random.Random(0), Budget(iterations=40)) == "eidai"


# -- easy: random-legal, but not a certain loss ----------------------------------------------------------------


def test_easy_tatari_never_sets_aside_a_face_that_busts_for_certain():
    """Tatari TA-3, TA-4: with 1 and a doll set aside (total 1), taking the three double-dolls leaves one die that
    adds at most 4 (total 5 < 7): a certain bust, never chosen by easy; taking the 2 (total 3, three dice left)
    is safe."""
    game = games.get("tatari")
    state = _tatari({"alice": 5, "bob": 5}, (1, 1, 1, 1), ["1", "doll"], ["double", "double", "double", "2"],
                    "select")
    d = game.pending(state)[0]
    assert {o.id for o in d.options} == {"set:double", "set:2"}
    assert loses_at_once(state, d, "set:double")
    assert not loses_at_once(state, d, "set:2")
    assert {easy(game, state, d, random.Random(seed)) for seed in range(30)} == {"set:2"}
    assert {choose(game, state, d, "alice", "easy", random.Random(seed)) for seed in range(30)} == {"set:2"}


# -- the race model (TK-3..TK-8) -------------------------------------------------------------------------------


def _race(dice, fingers=None, seed=1):
    game = games.get("tatamokatsu")
    state = game.setup(["alice", "bob", "carol"], None, seed)
    state = game.apply(state, Move(player="alice", option="roll", at_ms=1000)).state
    update = {"dice": dice}
    if fingers:
        update["fingers"] = fingers
    state = state.model_copy(update=update)
    return game, state, game.pending(state)[0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.sampled_from(LEVELS),
       dice=st.sampled_from([["1", "2", "3"], ["4", "6", "1/10"], ["5", "5", "5"], ["2", "3", "T"]]))
def test_race_answer_is_seeded_and_never_sooner_than_250_ms(seed, level, dice):
    """A reaction is never below MIN_REACTION_MS (250 ms) nor past the window, and the same rng
    seed gives the same answer."""
    game, state, d = _race(dice)
    first = race_answer(game, state, d, "bob", level, random.Random(seed))
    assert first == race_answer(game, state, d, "bob", level, random.Random(seed))
    if first is not None:
        option, ms = first
        assert d.option(option) is not None
        assert MIN_REACTION_MS <= ms <= state.window_ms


def test_race_model_levels_differ_in_speed_and_care():
    """REACTION_MODEL: over many seeded races the strong level answers sooner than normal, normal sooner than easy,
    and easy makes more mistakes (TK-8) than strong."""
    game, state, d = _race(["1", "2", "3"])  # sum 6: no shout, no grab, no Katana; the right input is the salute
    stats = {}
    for level in LEVELS:
        rng = random.Random(11)
        answers = [race_answer(game, state, d, "bob", level, rng) for _ in range(400)]
        given_ = [a for a in answers if a is not None]
        ms = sorted(a[1] for a in given_)
        stats[level] = (ms[len(ms) // 2], sum(a[0] != SALUTE for a in given_))
    assert stats["strong"][0] < stats["normal"][0] < stats["easy"][0]
    assert stats["strong"][1] < stats["easy"][1]
    assert abs(stats["strong"][0] - REACTION_MODEL["strong"][0]) < 60


def test_race_answer_sends_each_right_input_once_and_then_nothing():
    """TK-7, TK-6: triple sixes (18: no Tatamokatsu) want a Katana and a salute: a careful seat sends the Katana,
    then the salute later, each once; then nothing (None)."""
    game, state, d = _race(["6", "6", "6"])
    assert wanted_inputs(state, d, "bob") == [KATANA, SALUTE]
    rng = random.Random(2)
    sent = []
    for _ in range(5):
        answer = race_answer(game, state, d, "bob", "strong", rng)
        if answer is None:
            break
        sent.append(answer)
        state = game.apply(state, Move(player="bob", option=answer[0], at_ms=state.window_open_ms + answer[1])).state
    assert [o for o, _ in sent] == [KATANA, SALUTE]
    assert sent[1][1] > sent[0][1] >= MIN_REACTION_MS


def test_a_seat_without_fingers_only_grabs():
    """TK-3, TK-5: a player without fingers may only grab; the model sends them nothing but the grab."""
    game, state, d = _race(["2", "3", "T"], fingers={"alice": 5, "bob": 0, "carol": 5})
    answers = {race_answer(game, state, d, "bob", "easy", random.Random(s)) for s in range(50)}
    assert {a[0] for a in answers if a is not None} == {GRAB}
    game, state, d = _race(["2", "3", "4"], fingers={"alice": 5, "bob": 0, "carol": 5})
    assert all(race_answer(game, state, d, "bob", "easy", random.Random(s)) is None for s in range(50))


def test_play_race_judges_the_fastest_shout():
    """TK-4: in a Tatamokatsu race (4 + 5 + 1 = 10) played out by the model, the earliest valid shout wins the
    choice; over seeded races the strong seat wins it more often than a normal one."""
    wins = {"alice": 0, "bob": 0}
    for seed in range(40):
        game, state, d = _race(["4", "5", "1"], seed=seed)
        after = play_race(game, state, d, {"alice": "strong", "bob": "normal"}, random.Random(seed))
        if after.phase == "choice":
            wins[after.winner] += 1
    assert wins["alice"] > 2 * wins["bob"]
    assert wins["alice"] + wins["bob"] >= 30


def test_level_strategy_plays_a_whole_game():
    """``level_strategy`` drives ``games.ai.play`` (the demo's players) to the end at every level."""
    game = games.get("tatari")
    for level in LEVELS:
        budget = (lambda: Budget(iterations=3)) if level == "strong" else None
        strategy = level_strategy(level, budget)
        end = play(game, game.setup(["a", "b"], None, 2), {"a": strategy, "b": strategy}, random.Random(2))
        assert game.result(end) is not None
