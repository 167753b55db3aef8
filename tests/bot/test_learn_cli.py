"""python -m bot learn GAME: the lesson in the terminal, answers piped on stdin."""

from click.testing import CliRunner

from bot.__main__ import cli
from games.lessons import LESSONS, LessonRun


def numbers(game: str, wrong_first: bool) -> str:
    """The option numbers a learner types: each step's right one, after a wrong one when ``wrong_first``."""
    run, lines = LessonRun(LESSONS[game]), []
    while not run.done:
        ids = [o.id for o in run.decision().options]
        if wrong_first:
            lines.append(str(ids.index(run.wrong_options()[0]) + 1))
        lines.append(str(ids.index(run.step.right) + 1))
        run.answer(run.step.right)
    return "\n".join(lines) + "\n"


def test_learn_tatari_in_the_terminal_with_a_wrong_choice_each_step():
    out = CliRunner().invoke(cli, ["learn", "tatari", "--name", "alice"], input="x\n" + numbers("tatari", True))
    assert out.exit_code == 0, out.output
    assert out.output.startswith("alice holds the Cursed box first (first seat).\n")
    assert "Step 1 of 7: Each roll, you set aside ONE face" in out.output
    assert "Answer with the number of one of the options." in out.output
    assert out.output.count("✗ ") == 7
    assert out.output.rstrip().endswith("Play a real game against an AI seat: /play tatari ai:1")


def test_learn_in_japanese_and_stopping_early_and_unknown_games():
    out = CliRunner().invoke(cli, ["learn", "tatari", "--locale", "ja"], input=numbers("tatari", False))
    assert out.exit_code == 0, out.output
    assert "手順 1/7：振るたびに出目を1種類だけ選び" in out.output
    assert "レッスンはこれで終わりです。AIを相手に本番のゲームを遊びましょう：/play tatari ai:1" in out.output
    assert CliRunner().invoke(cli, ["learn", "tatari"], input="3\n").exit_code == 1
    out = CliRunner().invoke(cli, ["learn", "chess"])
    assert out.exit_code == 2 and "There is no lesson for chess." in out.output
