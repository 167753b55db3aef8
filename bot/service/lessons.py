"""Guided first games (``/learn GAME``, ``python -m bot learn GAME``, the sandbox's ``/learn``) over
:mod:`games.lessons`. Nothing is stored: a lesson is deterministic, so where it stands is the game and its path (the answers
taken, a digit per step done: :attr:`games.lessons.LessonRun.path`), and a page is rebuilt by replaying them (a
button keeps working after a restart). A lesson is
never a session: nothing is rated, recorded or counted as a game.

:func:`page` is a step (or the end) as a neutral :class:`LessonPage`; :func:`answer` judges an option by its index;
:func:`text` writes a page for a reader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from games import Option
from games.core import BaseState, Decision, T, Text
from games.lessons import LEARNER, LESSONS, TEACHER, Lesson, LessonBroken, LessonRun

from ..i18n import say
from ..refusals import SessionError

TEACHER_NAME = T("Teacher")
"""How the Teacher seat is named to the learner."""


@dataclass(frozen=True)
class LessonPage:
    """What the learner sees: ``game``; ``step`` done so far (0-based index of the current step; ``total`` at the
    end); ``path`` the answers that led here (:attr:`games.lessons.LessonRun.path`, ``len(path) == step``);
    ``happened`` (event texts since the last answer, player references ``{@learner}``/``{@teacher}``);
    ``wrong`` the explanation of a wrong choice just made (None otherwise); ``rule`` the step's rule; ``prompt`` and
    ``options`` the decision asked again; at the end ``goal`` and no options. ``state`` and ``pending`` the position
    the page speaks of (its board image and alt text; not compared)."""

    game: str
    step: int
    total: int
    happened: tuple[Text, ...] = ()
    wrong: Text | None = None
    rule: Text | None = None
    prompt: Text | None = None
    options: tuple[Option, ...] = ()
    goal: Text | None = None
    path: str = ""
    state: BaseState | None = field(default=None, compare=False)
    pending: tuple[Decision, ...] = field(default=(), compare=False)

    @property
    def done(self) -> bool:
        return self.goal is not None


def lesson_of(game_id: str) -> Lesson:
    """The lesson of ``game_id``; ``SessionError`` (a refusal naming the games with one) when there is none."""
    lesson = LESSONS.get(game_id)
    if lesson is None:
        raise SessionError(T("There is no lesson for {game}. Lessons: {games}.", game=game_id,
                             games=", ".join(LESSONS)))
    return lesson


def run_at(game_id: str, path: str = "") -> LessonRun:
    """The lesson of ``game_id`` with the answers of ``path`` taken (:meth:`games.lessons.LessonRun.follow`;
    ``SessionError`` for a path the lesson does not have)."""
    lesson = lesson_of(game_id)
    run = LessonRun(lesson)
    try:
        if len(path) > len(lesson.steps):
            raise LessonBroken(f"{game_id}: {len(path)} steps")
        run.follow(path)
    except LessonBroken:
        raise SessionError(T("This lesson step is out of date: /learn {game} to start again.",
                             game=game_id)) from None
    return run


def _page(run: LessonRun, happened: tuple, wrong: Text | None = None) -> LessonPage:
    total = len(run.lesson.steps)
    texts = tuple(e.text for e in happened)
    board = {"path": run.path, "state": run.state, "pending": tuple(run.game.pending(run.state))}
    if run.done:
        return LessonPage(run.lesson.game, total, total, texts, goal=T(
            "{goal}\nThat was the whole lesson. Play a real game against an AI seat: /play {game} ai:1",
            goal=run.lesson.goal, game=run.lesson.game), **board)
    d = run.decision()
    return LessonPage(run.lesson.game, run.index, total, texts, wrong, run.step.rule, d.prompt, tuple(d.options),
                      **board)


def page(game_id: str, path: str = "") -> LessonPage:
    """The page of ``game_id``'s lesson after the answers of ``path`` ("": the start, with what happened before
    the first step)."""
    run = run_at(game_id, path)
    return _page(run, run.events if not path else ())


def answer(game_id: str, path: str, option: int) -> LessonPage:
    """The learner picked option number ``option`` (0-based, of the decision offered) after the answers of
    ``path``: the next page (right: applied, with what happened), or the same step with why (wrong: nothing
    applied). ``SessionError`` for an option out of range or a path out of date."""
    run = run_at(game_id, path)
    if run.done:
        return _page(run, ())
    options = run.decision().options
    if not 0 <= option < len(options):
        raise SessionError(T("Pick one of the options listed."))
    verdict = run.answer(options[option].id)
    return _page(run, verdict.events, None if verdict.right else verdict.why)


def seat_names(lang: str, learner: str) -> dict[str, str]:
    """The lesson's seats as the learner reads them: the learner's own name, the Teacher in ``lang``."""
    return {LEARNER: learner, TEACHER: say(TEACHER_NAME, lang)}


def text(p: LessonPage, lang: str, learner: str, numbered: bool = False) -> str:
    """``p`` as one message in ``lang``, the learner named ``learner``: the step number, what happened, a wrong
    choice's why, the rule and the prompt (with ``numbered``: the options as ``1. label`` lines, for a terminal)."""
    names: Callable[[str], str] | dict[str, str] = seat_names(lang, learner)
    lines = [say(line, lang, names) for line in p.happened]
    if p.wrong is not None:
        lines.append(say(T("✗ {why}", why=p.wrong), lang, names))
    if p.done:
        lines.append(say(p.goal, lang, names))
        return "\n".join(lines)
    lines.append(say(T("Step {n} of {total}: {rule}", n=p.step + 1, total=p.total, rule=p.rule), lang, names))
    lines.append(say(p.prompt, lang, names))
    if numbered:
        lines += [f"{i}. {say(o.label, lang, names)}" for i, o in enumerate(p.options, 1)]
    return "\n".join(lines)
