"""Hints and turning points (``games.hints``, ``games.turning``): the first hint is the strong AI's own choice at
the same generator and budget in every game; Tatari's exact two-player chances and bust odds (TA-3); Tatsumi's
reasons from what a ring does (TM-9, TM-12); a hint for a player not to move refused; turning points in move order,
the biggest swings, skipped when the budget runs out."""

from __future__ import annotations

import random
import re

import pytest

import games
from games import ai as game_ai
from games.hints import advise, explain
from games.search import analyse
from games.tatari.hints import bust_chance, option_values
from games.turning import turning_points


def positions(game_id: str, seed: int = 0, every: float = 0.3):
    """(state, decision) of a greedy 2-player game whose decision names a player and has two or more options."""
    game = games.get(game_id)
    rng = random.Random(seed)
    state = game.begin(["a", "b"], None, seed).state
    strategies = {p: game_ai.greedy for p in state.players}
    while (pending := game.pending(state)):
        d = pending[0]
        if d.player is not None and len(d.options) > 1 and rng.random() < every:
            yield state, d
        state = game.apply(state, game_ai.next_move(game, state, strategies, rng)).state


@pytest.mark.parametrize("game_id", sorted(g.id for g in games.all()))
def test_the_first_hint_is_the_strong_ais_move_at_the_same_seed_and_budget(game_id):
    game = games.get(game_id)
    for n, (state, d) in zip(range(4), positions(game_id), strict=False):
        advice = advise(game, state, d, d.player, random.Random(n), game_ai.Budget(iterations=12))
        strong = game_ai.choose(game, state, d, d.player, "strong", random.Random(n), game_ai.Budget(iterations=12))
        assert advice.choice == strong
        assert 1 <= len(advice.hints) <= 3 and len({h.option for h in advice.hints}) == len(advice.hints)
        assert all(0.0 <= h.share <= 1.0 and str(h.reason) for h in advice.hints)
        shares = [h.share for h in advice.hints]  # listed by the AI's ranking, the shares agree with it
        assert shares == sorted(shares, reverse=True), (game_id, n, shares)


def test_an_option_valued_above_the_choice_within_the_noise_shows_the_choices_share():
    """Tsukimi's greedy choice kept though another option sampled a little higher (the search's noise rule): the
    list is the AI's ranking, the choice first, and no later option shows a higher share."""
    game = games.get("tsukimi")
    found = 0
    for n, (state, d) in zip(range(40), positions("tsukimi", every=0.5), strict=False):
        analysis = analyse(game, state, d, d.player, random.Random(n), game_ai.Budget(iterations=12))
        if max(analysis.values.values(), default=0) <= analysis.values.get(analysis.choice, 1.0):
            continue
        found += 1
        advice = advise(game, state, d, d.player, random.Random(n), game_ai.Budget(iterations=12))
        assert advice.choice == analysis.choice
        assert advice.hints[0].share == pytest.approx(analysis.values[analysis.choice])
        assert all(h.share <= advice.hints[0].share for h in advice.hints[1:])
    assert found


def test_a_hint_for_a_player_not_to_move_is_refused():
    game = games.get("tatari")
    state, d = next(positions("tatari"))
    other = next(p for p in state.players if p != d.player)
    with pytest.raises(ValueError, match="not b's|not a's"):
        advise(game, state, d, other, random.Random(0), game_ai.Budget(iterations=4))


def test_bust_odds_are_every_die_on_a_face_set_aside():
    """TA-3: with 2 faces set aside, 2 dice bust 1 time in 9; nothing set aside never busts; no dice, no roll."""
    assert bust_chance(2, 2) == pytest.approx(1 / 9)
    assert bust_chance(0, 6) == 0.0 and bust_chance(3, 0) == 0.0


def test_tatari_fate_hint_names_the_stop_and_the_odds_of_going_on_with_exact_chances():
    game = games.get("tatari")
    state, d = next((s, d) for s, d in positions("tatari", every=1.0) if d.kind == "fate")
    values = option_values(state, d, d.player)
    assert set(values) == {"stop", "continue"} and all(0 <= v <= 1 for v in values.values())
    advice = advise(game, state, d, d.player, random.Random(0), game_ai.Budget(iterations=4))
    assert advice.choice == max(values, key=values.get)
    assert [h.share for h in advice.hints] == [values[h.option] for h in advice.hints] and advice.hints[0].exact
    pct = round(100 * bust_chance(len(set(state.set_aside)), 6 - len(state.set_aside)))
    assert re.fullmatch(rf".+; going on busts {pct} % of the time", str(explain(game, state, d, "stop")))
    assert str(explain(game, state, d, "continue")).startswith("the next roll of ")


def test_tatsumi_reason_tells_a_rift_healed_with_its_fortune_and_mastery():
    """Placing a ring on a rift of its element (TM-9) scores now; the reason says so in the game's words."""
    game = games.get("tatsumi")
    for state, d in positions("tatsumi", every=1.0):
        if d.kind != "place":
            continue
        reasons = [str(explain(game, state, d, o.id)) for o in d.options]
        healed = [r for r in reasons if r.startswith("heals your ")]
        if healed:
            assert re.fullmatch(r"heals your (fire|water|wind|lightning) rift(: .*\+\d+ fortune now.*)?", healed[0])
            return
    pytest.fail("no rift placement met")


def test_turning_points_are_the_biggest_swings_in_move_order():
    game = games.get("tatari")
    state = game.begin(["a", "b"], None, 3).state
    states, moves = [state], []
    game_ai.play(game, state, {p: game_ai.greedy for p in state.players}, random.Random(3),
                 on_step=lambda _b, m, a, _e: (moves.append(m), states.append(a)))
    points = turning_points(game, states, moves, game_ai.Budget(iterations=10_000))
    assert len(points) == 3 and [p.move for p in points] == sorted(p.move for p in points)
    smallest = min(p.swing for p in points)
    assert smallest > 0
    for p in points:
        assert moves[p.move - 1].player == p.player
        assert re.fullmatch(r"move \d+ · \{@[ab]\} chose .+: \d+ % -> \d+ %", str(p.text()))
    assert turning_points(game, states, moves, game_ai.Budget(iterations=2)) is None  # skipped: budget spent
    solo = games.get("tatsumi").begin(["a"], {"solo": True}, 1).state
    assert turning_points(games.get("tatsumi"), [solo], [], game_ai.Budget(iterations=10)) == []


def test_alone_a_hint_shows_the_games_own_score_and_with_three_the_share_of_rivals():
    """Tatsumi solo (TM-14): a chance of winning means nothing alone, so each option shows the fortune the AI
    counts right after it; three seats read as the share of rivals finished ahead of."""
    from games.hints import measure, value_text

    game = games.get("tatsumi")
    state = game.begin(["a"], {"solo": True}, 2).state
    d = game.pending(state)[0]
    advice = advise(game, state, d, d.player, random.Random(1), game_ai.Budget(iterations=12))
    assert advice.measure == "score" and all(h.score is not None for h in advice.hints)
    assert [str(value_text(h, state, game)) for h in advice.hints] == [f"{round(h.score)} fortune"
                                                                       for h in advice.hints]
    three = game.begin(["a", "b", "c"], None, 2).state
    assert measure(three) == "rivals"


def test_tataraba_reasons_tell_what_an_action_reaches_and_what_the_eidai_tatara_still_needs():
    """The lesson's first actions (nothing held): choosing an action says what it reaches next to the piece; a log
    says the gain and what the Eidai Tatara still needs at its own price, 10 and 10 (FT-3, the optional second
    Tatara not counted); a planting says what the tree becomes (FT-6)."""
    from bot.i18n import say
    from games.lessons import LessonRun
    from games.tataraba.lesson import LESSON

    run = LessonRun(LESSON)
    for _ in range(2):  # the Tatara placed, the move to 1-9
        run.answer(run.expected())
    d = run.decision()
    reasons = {o.id: say(explain(run.game, run.state, d, o.id), "en") for o in d.options}
    assert reasons == {"plant": "1 open space to plant next to you", "log": "2 adult trees to log next to you",
                       "foot": "a Foot marker"}
    assert run.answer("log").right
    d = run.decision()
    assert say(explain(run.game, run.state, d, "mat:1-8"), "en") == \
        "+1 material, the Eidai Tatara still needs 10 Sen and 9 material"
    assert run.answer("sen:1-6").right
    assert run.answer("plant").right
    d = run.decision()
    assert say(explain(run.game, run.state, d, "pine:1-6"), "en") == \
        "a Red Pine: adult after 1 growth, 2 Sen when logged"
    assert say(explain(run.game, run.state, d, "cedar:1-6"), "en") == \
        "a Cedar: adult after 2 growths, 3 material (or 1 Sen) when logged"


def test_tatsumi_offer_says_the_rings_score_as_they_are_placed():
    """An offering scores nothing until its rings are placed (TM-6, TM-9): its reason says so, never a falling
    evaluation (the lesson's step 5: 2 water + 2 lightning at the water shrine)."""
    from bot.i18n import say
    from games.lessons import LESSONS, LessonRun

    run = LessonRun(LESSONS["tatsumi"])
    run.follow("0000")
    d = run.decision()
    assert say(explain(run.game, run.state, d, "offer:water"), "en") == \
        "4 rings to place on your island, each scoring fortune as you place it"
