"""Lessons outside Discord: ``python -m bot learn GAME`` (answers piped on stdin), the sandbox's ``/learn``, and
every lesson text in Japanese."""

import pytest
from click.testing import CliRunner

from bot.__main__ import cli
from bot.i18n import say
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store
from games.lessons import LESSONS, LessonRun

GAMES = sorted(LESSONS)


def numbers(game: str, wrong_first: bool) -> list[str]:
    """The option numbers a learner types: each step's right one, after a wrong one when ``wrong_first`` (where the
    step has one)."""
    run, lines = LessonRun(LESSONS[game]), []
    while not run.done:
        ids = [o.id for o in run.decision().options]
        if wrong_first and run.wrong_options():
            lines.append(str(ids.index(run.wrong_options()[0]) + 1))
        lines.append(str(ids.index(run.step.right) + 1))
        run.answer(run.step.right)
    return lines


def wrong_steps(game: str) -> int:
    return len(numbers(game, True)) - len(LESSONS[game].steps)


@pytest.mark.parametrize("game", GAMES)
def test_learn_in_the_terminal_with_a_wrong_choice_each_step(game, tmp_path):
    """Each step writes the board it speaks of once (a wrong choice changes nothing, so no new image)."""
    typed = "x\n" + "\n".join(numbers(game, True)) + "\n"
    out = CliRunner().invoke(cli, ["learn", game, "--name", "alice", "--out", str(tmp_path)], input=typed)
    assert out.exit_code == 0, out.output
    steps = len(LESSONS[game].steps)
    boards = sorted(p.name for p in tmp_path.iterdir())
    assert boards == [f"step-{n:02d}.png" for n in range(1, steps + 1)]
    assert (tmp_path / "step-01.png").read_bytes().startswith(b"\x89PNG")
    assert out.output.count("[board] ") == steps + 1  # the first step's again after the unreadable "x"
    assert f"Step 1 of {steps}: " in out.output and f"Step {steps} of {steps}: " in out.output
    assert out.output.count("Answer with the number of one of the options.") == 1
    assert out.output.count("✗ ") == wrong_steps(game) >= steps - 1
    assert out.output.rstrip().endswith(f"Play a real game against an AI seat: /play {game} ai:1")


def test_learn_tatari_names_the_learner_and_the_teacher():
    out = CliRunner().invoke(cli, ["learn", "tatari", "--name", "alice", "--no-images"],
                             input="\n".join(numbers("tatari", False)))
    assert out.output.startswith("alice holds the Cursed box first (first seat).\n")
    assert "\nNo new face: Teacher busts.\nTeacher takes 2 dolls from shrine 8.\n" in out.output


def test_learn_in_japanese_and_stopping_early_and_unknown_games():
    out = CliRunner().invoke(cli, ["learn", "tatari", "--locale", "ja", "--no-images"],
                             input="\n".join(numbers("tatari", False)))
    assert out.exit_code == 0, out.output
    assert "手順 1/7：振るたびに出目を1種類だけ選び" in out.output
    assert "レッスンはこれで終わりです。AIを相手に本番のゲームを遊びましょう：/あそぶ（/play） tatari ai:1" in out.output
    assert CliRunner().invoke(cli, ["learn", "tatari", "--no-images"], input="3\n").exit_code == 1
    out = CliRunner().invoke(cli, ["learn", "chess"])
    assert out.exit_code == 2 and "There is no lesson for chess." in out.output


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_text_is_in_japanese(game):
    lesson = LESSONS[game]
    texts = [lesson.goal] + [t for s in lesson.steps for t in (s.rule, s.why)]
    untranslated = [str(t) for t in texts if say(t, "ja") == str(t)]
    assert untranslated == []
    assert all(any("\u3040" <= c <= "\u30ff" for c in say(t, "ja")) for t in texts)


async def test_sandbox_learn_answers_by_number_and_records_nothing(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    chat = LocalChat(SessionService(store, seeds=lambda: 1), None)
    try:
        out = await chat.line("alice: /learn tatari")
        assert "Step 1 of 7: Each roll" in out[0] and "\n3. 4 ×2" in out[0]
        out = await chat.line("alice: /learn 1")
        assert "✗ That face adds little to your total." in out[0] and "Step 1 of 7" in out[0]
        assert (await chat.line("bob: /learn 3"))[0] == "! bob: You have no lesson open: /learn <game> starts one."
        for n in numbers("tatari", False):
            out = await chat.line(f"alice: /learn {n}")
        assert out[0].rstrip().endswith("/play tatari ai:1") and "alice" not in chat.lessons
        assert await store.live_session("table") is None
    finally:
        await store.close()


async def test_sandbox_learn_writes_each_steps_board(tmp_path):
    """With images on, every lesson step's reply ends with its board, written as every turn's is."""
    store = await Store.open(tmp_path / "db.sqlite3")
    chat = LocalChat(SessionService(store, seeds=lambda: 1), tmp_path / "out")
    try:
        out = await chat.line("alice: /learn tatsumi")
        last = out[0].rsplit("\n", 1)[1]
        assert last == f"[board] {tmp_path / 'out' / 'lesson-alice-tatsumi-01.png'}"
        assert (tmp_path / "out" / "lesson-alice-tatsumi-01.png").read_bytes().startswith(b"\x89PNG")
        out = await chat.line("alice: /learn 5")  # fly to b2
        assert "Step 2 of 9" in out[0] and out[0].endswith("lesson-alice-tatsumi-02.png")
    finally:
        await store.close()


def test_a_lesson_goes_on_from_any_answer_its_step_accepts():
    """Tatsumi's step 2 takes lightning from c2 as well as water from a2: the page after it is rebuilt from the
    path of answers (lightning first, then the water the next step asks for), not from the step's default."""
    from bot.service import lessons

    first = lessons.page("tatsumi", "0")
    c2 = [o.id for o in first.options].index("gather:c2")
    page = lessons.answer("tatsumi", first.path, c2)
    assert (page.step, page.path, page.wrong) == (2, "00", None)
    assert [o.id for o in page.options] == ["gather:b1", "gather:b3", "gather:a2"]
    assert lessons.page("tatsumi", "00").options == page.options
    with pytest.raises(lessons.SessionError, match="out of date"):
        lessons.page("tatsumi", "09")
