"""Guided first games (games/lessons.py): every lesson is checked against its engine step by step, so a rule change
that breaks a lesson fails here."""

import dataclasses

import pytest

from games import lessons
from games.lessons import LESSONS, LessonBroken, LessonRun, play_scripted

GAMES = sorted(LESSONS)


def test_every_game_has_a_lesson():
    assert GAMES == ["tatamokatsu", "tataraba", "tatari", "tatsumi", "tsukimi"]


@pytest.mark.parametrize("game", GAMES)
def test_lesson_plays_to_its_end_offering_each_step(game):
    lesson = LESSONS[game]
    assert 6 <= len(lesson.steps) <= 12
    run = LessonRun(lesson)
    for number, step in enumerate(lesson.steps, 1):
        assert run.step is step
        d = run.decision()  # kind and right options checked against the engine (LessonBroken otherwise)
        assert d.player in (lessons.LEARNER, None) and d.kind == step.kind
        assert step.right in {o.id for o in d.options}
        # a wrong choice to learn from, except in a race of one input (letting it pass is the mistake)
        assert run.wrong_options() or (d.player is None and len(d.options) == 1), f"step {number}"
        assert str(step.rule).count("\n") <= 2 and len(str(step.rule)) <= 330
        verdict = run.answer(step.right)
        assert verdict.right and verdict.why is None
    assert run.done and run.step is None
    with pytest.raises(LessonBroken):
        run.decision()


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_choice_is_explained_and_asked_again(game):
    run = LessonRun(LESSONS[game])
    while not run.done:
        before, step, decision = run.state, run.step, run.decision()
        if not run.wrong_options():
            assert run.answer(step.right).right
            continue
        wrong = run.wrong_options()[0]
        verdict = run.answer(wrong)
        assert not verdict.right and verdict.why == step.why and verdict.events == ()
        assert run.state is before and run.step is step and run.decision() == decision
        assert run.answer(step.right).right


@pytest.mark.parametrize("game", GAMES)
def test_scripted_learners_finish_and_the_teacher_repeats_itself(game):
    assert play_scripted(LESSONS[game], wrong_first=True) is True
    assert play_scripted(LESSONS[game]) is True
    one, two = LessonRun(LESSONS[game]), LessonRun(LESSONS[game])
    while not one.done:
        right = one.step.right
        assert one.answer(right) == two.answer(right)
    assert one.state == two.state


def test_a_step_the_engine_no_longer_offers_breaks_the_lesson():
    lesson = LESSONS["tatari"]
    first = dataclasses.replace(lesson.steps[0], right="set:5")
    broken = dataclasses.replace(lesson, steps=(first, *lesson.steps[1:]))
    assert play_scripted(broken) is False
    with pytest.raises(LessonBroken, match="step 1"):
        LessonRun(broken).decision()
    other_kind = dataclasses.replace(lesson.steps[1], kind="select")
    assert play_scripted(dataclasses.replace(lesson, steps=(lesson.steps[0], other_kind, *lesson.steps[2:]))) is False


def played(game: str) -> tuple[LessonRun, list[str]]:
    """The lesson of ``game`` answered rightly to its end, and every event text on the way."""
    run = LessonRun(LESSONS[game])
    texts = [str(e.text) for e in run.events]
    while not run.done:
        texts += [str(e.text) for e in run.answer(run.step.right).events]
    return run, texts


def test_tatamokatsu_lesson_races_the_learner_meets_and_the_teachers_fingers():
    run, texts = played("tatamokatsu")
    assert "{@learner} shouts Tatamokatsu first!" in texts
    assert "Reactions: {@learner} did the Katana (+700 ms)." in texts
    assert "{@teacher} loses 1 finger (no salute): 2 left." in texts
    assert run.game.result(run.state).winners == ["learner"]


def test_tatari_lesson_sheds_dolls_on_shrines_8_and_7():
    run, texts = played("tatari")
    assert "{@learner} stops at 8: puts 1 on shrine 8 (now 2)." in texts
    assert "{@learner} stops at 7: puts 2 on shrine 7 (now 3)." in texts
    assert run.state.stashes == {"learner": 7, "teacher": 10}


def test_tsukimi_lesson_leads_at_b2_until_the_teacher_ties_it():
    run, texts = played("tsukimi")
    assert "purple {@teacher} places a rabbit on A1-s (= B1-ne = B2-nw)." in texts
    assert texts[-1] == "white {@learner} takes sakura 5 for free."


def test_tataraba_lesson_grows_the_learners_pine_and_ends_with_a_sen_a_material_and_a_foot_marker():
    run, texts = played("tataraba")
    assert "Board 1: 1 tree grows." in texts
    seat = run.state.seats[0]
    assert (seat.sen, seat.mat, seat.foot) == (1, 1, 1)


def test_tatsumi_lesson_is_the_getting_started_game_and_scores_5_fortune():
    run, texts = played("tatsumi")
    assert run.state.options.model_dump() == {"colours": "seat", "island": "symmetric", "dragons": "symmetric",
                                              "void": False, "weather": False, "solo": False}
    assert "{@learner} scores 2 fortune (2 lightning rifts encircled)." in texts
    assert run.state.seats[0].fortune == 5
