"""Guided first games (games/lessons.py): every lesson is checked against its engine step by step, so a rule change
that breaks a lesson fails here."""

import dataclasses

import pytest

from games import lessons
from games.core import Move
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


# What each step's text calls right, where it names more than the step's ``right`` (everything else is refused).
NAMED_RIGHT = {
    ("tatsumi", 2): {"gather:a2", "gather:c2"},  # "Gather water from a2 or lightning from c2."
    ("tatsumi", 4): {"fly:a2", "fly:a3"},  # "Fly to a2 or a3: both are next to the water shrine."
}


def every_path(lesson):
    """Every way through ``lesson`` a learner can take (a path per answer each step accepts): finished runs."""
    runs, done = [LessonRun(lesson)], []
    while runs:
        run = runs.pop()
        if run.done:
            done.append(run)
            continue
        for i in range(len(run.accepted())):
            branch = LessonRun(lesson)
            branch.follow(run.path + str(i))
            runs.append(branch)
    return done


@pytest.mark.parametrize("game", GAMES)
def test_a_step_accepts_exactly_what_its_text_calls_right_and_refuses_the_rest(game):
    lesson = LESSONS[game]
    for end in every_path(lesson):
        run = LessonRun(lesson)
        for number, digit in enumerate(end.path, 1):
            step = run.step
            named = NAMED_RIGHT.get((game, number), {step.right})
            offered = {o.id for o in run.decision().options}
            if game == "tatsumi" and number == 3:  # "Gather the second of a2 and c2"
                named = {"gather:a2", "gather:c2"} & offered
            assert set(run.accepted()) == named & offered and named & offered, (game, number, run.accepted())
            for wrong in offered - named:
                before = run.state
                verdict = run.answer(wrong)
                assert not verdict.right and verdict.why == step.why and run.state is before
            run.answer(run.accepted()[int(digit)])
        assert run.done


def test_tatsumi_fly_to_the_shrine_accepts_what_the_engine_puts_in_reach():
    """Step 4 takes every fly after which the water shrine can be offered at (TM-6: wells next to it, diagonals
    included; a4 is no queen move from b2), derived from the engine; the text names exactly those wells."""
    run = LessonRun(LESSONS["tatsumi"])
    run.follow("000")
    d = run.decision()
    reach = set()
    for o in d.options:
        after = run.game.apply(run.state, Move(player=d.player, option=o.id, at_ms=d.deadline_ms)).state
        if any(p.option("offer:water") for p in run.game.pending(after) if p.player == lessons.LEARNER):
            reach.add(o.id)
    assert reach == set(run.accepted()) == {"fly:a2", "fly:a3"}
    assert str(run.step.rule).endswith("beside a2, a3 and a4 (a phone draws its tile top left). Leaving b2 you claim its water, your second.\nFly to a2 or a3.")


def test_tatsumi_gathering_is_two_rings_one_at_a_time():
    """TM-4: the symmetric gather claims the top rings of two different wells straight next to the dragon — the
    engine asks for them one by one, as step 2's text says."""
    run = LessonRun(LESSONS["tatsumi"])
    run.follow("0")
    assert "claims the top ring of a well straight next to you (not diagonal), then of a second one: two rings, " \
           "one at a time" in str(run.step.rule)
    first = run.decision()
    assert {o.id for o in first.options} == {"gather:b1", "gather:c2", "gather:b3", "gather:a2"}  # b2's four sides
    run.follow("1")  # water from a2
    second = run.decision()
    assert second.kind == "gather" and {o.id for o in second.options} == {"gather:b1", "gather:c2", "gather:b3"}


# A word of the game, and the few words that explain it where it first comes up (rule texts, wrong-answer texts
# and the recap, in the order the learner reads them).
TERMS = {
    "tatsumi": {"well": "5x5 wells", "shrine": "Each shrine asks for a set of rings", "holding": "wait in your holding",
                "island": "a board of your own", "fortune": "fortune (points)", "rift": "rifts: spaces marked",
                "encircle": "encircles (heals)"},
    "tataraba": {"Sen": "Sen (iron money)", "Eidai Tatara": "the great furnace", "Tatara": "Tatara (a furnace)",
                 "Evergreen": "Evergreens (the forest's first trees)", "Foot marker": "buys 1 extra tile",
                 "adult": "adult (grown)", "shift card": "shift cards shown name boards", "log": "logged (cut)",
                 "Oak": "turns into a young Oak"},
}
UNTAUGHT = {"tatsumi": ["seawell", "mastery", "blessing", "overflow", "scale"],
            "tataraba": ["Beech", "extra Tatara"],
            "tatamokatsu": ["T face", "T die", "grab"]}


def read_in_order(lesson):
    """The lesson's texts as the learner meets them: each step's rule, then its wrong-answer text; the recap last."""
    return [str(t) for step in lesson.steps for t in (step.rule, step.why)] + [str(lesson.goal)]


@pytest.mark.parametrize("game", sorted(UNTAUGHT))
def test_every_word_of_the_game_is_explained_where_it_first_comes_up(game):
    texts = read_in_order(LESSONS[game])
    for term, explained in TERMS.get(game, {}).items():
        first = next(t for t in texts if term.lower() in t.lower())
        assert explained in first, (term, first)
    for word in UNTAUGHT[game]:
        assert not any(word.lower() in t.lower() for t in texts), word


@pytest.mark.parametrize("game", sorted(UNTAUGHT))
def test_the_recap_is_the_goal_and_what_the_lesson_practised(game):
    goal = str(LESSONS[game].goal)
    assert goal.startswith("Goal: ") and goal.count(". ") == 1 and "You practised: " in goal
