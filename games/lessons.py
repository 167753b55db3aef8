"""Guided first games (``/learn GAME``): a lesson is pure data kept with its game (``games/<id>/lesson.py``,
``LESSON``); :class:`LessonRun` drives it over the contract. Pure: no I/O, no clock.

A lesson is a fixed seed and setup, a Teacher seat played by the game's greedy player with a generator seeded by the
lesson's seed (the same moves every time), and 6-12 :class:`Step` s: each step is the learner's next decision (or
their input to a race of nobody in particular, e.g. Tatamokatsu's shout or salute) and explains one rule at the
moment it matters. A right answer is applied; a wrong one is NOT applied — the learner gets why and the same decision
again. The learner makes every move that is a choice (a decision of a single option that no step teaches, such as
Tatamokatsu's roll, is made for them); after the last step the lesson ends with the game's goal (:attr:`Lesson.goal`).

Registry: ``LESSONS`` (game id -> :class:`Lesson`) lists every game whose package has a ``lesson`` module.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.ai import greedy
from games.core import TIMEOUT, BaseState, Decision, Event, Game, Move, Text
from games.search import knowledge

LEARNER = "learner"
"""The learner's player id in every lesson (presenters name it after the member)."""
TEACHER = "teacher"
"""The Teacher seat's player id."""
LEARNER_REACTION_MS = 700
"""When the learner's input to a race is timed, after its window opened (ms). The Teacher sends no race inputs:
a race the learner does not answer closes at its deadline."""


class LessonBroken(RuntimeError):
    """The engine does not offer what a step expects (a rule changed under the lesson): the step's number and what
    differs, in English (a test and log message, never shown to a learner)."""


Accept = Callable[[Game, BaseState, Decision, str], bool]
"""``accept(game, state, decision, option id)``: whether a step also takes that option as right (asked of the
engine: e.g. :func:`leads_to`)."""


def leads_to(option_id: str) -> Accept:
    """A step's :attr:`Step.also` for "any option after which the learner can answer ``option_id``" (e.g. every fly
    that ends beside the shrine the next step offers at), asked of the engine by applying each option."""

    def accept(game: Game, state: BaseState, decision: Decision, option: str) -> bool:
        after = game.apply(state, Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state
        return any(d.player == LEARNER and d.option(option_id) is not None for d in game.pending(after))

    return accept


def one_of(*option_ids: str) -> Accept:
    """A step's :attr:`Step.also` for a few named options (those the step's text names as right too)."""
    return lambda game, state, decision, option: option in option_ids


@dataclass(frozen=True)
class Step:
    """One decision of the learner: ``kind`` the engine's decision kind it must be; ``rule`` the rule it teaches (two
    or three lines naming the right choice); ``right`` the option id it asks for (the later steps are played from it
    unless the learner took another the step accepts); ``also`` the other options it accepts (:data:`Accept`, None:
    ``right`` alone; at most 10 in all) — the text must call right exactly what the step accepts; ``why`` what any other choice is told
    before the same decision is asked again; ``wait`` how many races of the step's kind close unanswered before the
    one the step answers (rolls with nothing to react to). A decision of the learner's own has other options to learn
    from; a race may offer its one input alone (letting it pass is the mistake)."""

    kind: str
    rule: Text
    right: str
    why: Text
    wait: int = 0
    also: Accept | None = None


@dataclass(frozen=True)
class Lesson:
    """A guided first game of ``game``: ``seed`` and ``options`` of its setup, the learner (first seat) against the
    Teacher, ``steps`` in order, ``goal`` the recap told at the end."""

    game: str
    seed: int
    steps: tuple[Step, ...]
    goal: Text
    options: dict[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = (LEARNER, TEACHER)


@dataclass(frozen=True)
class Verdict:
    """The learner's answer judged: ``right`` (then applied), ``why`` (a wrong answer: the step's explanation), and
    ``events`` — what happened from the answer until the learner's next decision (Teacher moves included)."""

    right: bool
    why: Text | None = None
    events: tuple[Event, ...] = ()


class LessonRun:
    """A lesson being played. ``events`` holds what happened before the first step (the setup, Teacher moves);
    :attr:`step` and :meth:`decision` the current step (None / ``LessonBroken`` after the end); :meth:`answer`
    judges an option id; :attr:`path` the answers taken so far, one digit per step (the index of the answer among
    that step's :meth:`accepted` options: :meth:`follow` replays it). ``LessonBroken`` when the engine's decision
    differs from the step's."""

    def __init__(self, lesson: Lesson, game: Game | None = None) -> None:
        import games

        self.lesson = lesson
        self.game = game if game is not None else games.get(lesson.game)
        outcome = self.game.begin(list(lesson.players), lesson.options or None, lesson.seed)
        self.state: BaseState = outcome.state
        self.index = 0
        self._passed = 0  # races let pass before the current step (Step.wait)
        self._rng = random.Random(lesson.seed)
        self.path = ""
        self.events: tuple[Event, ...] = tuple(outcome.events) + self._advance()

    @property
    def done(self) -> bool:
        """True after the last step was answered rightly."""
        return self.index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        """The current step, None when the lesson is done."""
        return None if self.done else self.lesson.steps[self.index]

    def decision(self) -> Decision:
        """The learner's open decision, checked against the current step (``LessonBroken`` when it differs or the
        lesson is done)."""
        step = self.step
        if step is None:
            raise LessonBroken(f"{self.lesson.game}: the lesson is over")
        mine = [d for d in self.game.pending(self.state) if d.player in (LEARNER, None) and d.options]
        if not mine:
            raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: the learner has no decision")
        d = mine[0]
        offered = [o.id for o in d.options]
        if d.kind != step.kind:
            raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: decision {d.kind!r}, not {step.kind!r}")
        accepted = self._accepted(d)
        if not accepted:
            raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: {step.right!r} not offered "
                               f"(offered {offered})")
        if len(accepted) > 10:  # a path keeps one digit per step
            raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: {len(accepted)} answers accepted")
        if len(offered) < 2 and d.player is not None:
            raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: no wrong option to learn from")
        return d

    def _accepted(self, d: Decision) -> list[str]:
        step = self.lesson.steps[self.index]
        also = step.also
        return [o.id for o in d.options
                if o.id == step.right or (also is not None and also(self.game, self.state, d, o.id))]

    def accepted(self) -> list[str]:
        """The current decision's options that the step takes as right (``right`` and what ``also`` accepts), in
        the decision's order."""
        return self._accepted(self.decision())

    def expected(self) -> str:
        """The answer the lesson is written for: the step's ``right`` when offered, else the first it accepts
        (an earlier step answered another way)."""
        accepted = self.accepted()
        step = self.step
        return step.right if step is not None and step.right in accepted else accepted[0]

    def wrong_options(self) -> list[str]:
        """The current decision's options that the step does not accept."""
        accepted = self.accepted()
        return [o.id for o in self.decision().options if o.id not in accepted]

    def answer(self, option_id: str) -> Verdict:
        """Judge the learner's ``option_id``: a right one (:meth:`accepted`) is applied and the lesson goes on to
        the next step (Teacher moves played); a wrong or unknown one changes nothing and says why.
        ``LessonBroken`` after the end."""
        d = self.decision()
        step = self.lesson.steps[self.index]
        accepted = self._accepted(d)
        if option_id not in accepted:
            return Verdict(right=False, why=step.why)
        outcome = self.game.apply(self.state, Move(player=LEARNER, option=option_id, at_ms=self._at_ms(d)))
        self.state = outcome.state
        self.index += 1
        self.path += str(accepted.index(option_id))
        self._passed = 0
        return Verdict(right=True, events=tuple(outcome.events) + self._advance())

    def follow(self, path: str) -> tuple[Event, ...]:
        """Answer the next ``len(path)`` steps as :attr:`path` recorded them (a digit per step: the index among the
        step's accepted options); the events on the way. ``LessonBroken`` for a path the lesson does not
        accept (a digit out of range)."""
        events: list[Event] = []
        for digit in path:
            accepted = self.accepted()
            if not digit.isdigit() or int(digit) >= len(accepted):
                raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: no answer {digit!r}")
            events.extend(self.answer(accepted[int(digit)]).events)
        return tuple(events)

    def _at_ms(self, decision: Decision) -> int | None:
        """When the learner's answer is made (ms): a race input :data:`LEARNER_REACTION_MS` after its window opened
        (the game's ``KNOWLEDGE.window_opened``), else the decision's deadline (None without one)."""
        opened = knowledge(self.game).window_opened
        if decision.player is None and opened is not None and decision.deadline_ms is not None:
            return min(opened(self.state) + LEARNER_REACTION_MS, decision.deadline_ms)
        return decision.deadline_ms

    def _advance(self) -> tuple[Event, ...]:
        """Play the Teacher (and timeouts) until the learner's next decision; nothing once the lesson is done."""
        events: list[Event] = []
        teacher = {p: greedy for p in self.lesson.players if p != LEARNER}
        while not self.done:
            pending = self.game.pending(self.state)
            if not pending:
                raise LessonBroken(f"{self.lesson.game} step {self.index + 1}: the game ended")
            mine = [d for d in pending if d.player == LEARNER and d.options]
            if len(mine) == 1 and len(mine[0].options) == 1 and mine[0].kind != self.lesson.steps[self.index].kind:
                d = mine[0]  # a forced move (Tatamokatsu's roll) is made for the learner unless a step teaches it
                outcome = self.game.apply(self.state, Move(player=LEARNER, option=d.options[0].id,
                                                           at_ms=d.deadline_ms))
                self.state = outcome.state
                events.extend(outcome.events)
                continue
            if mine:
                break
            d = pending[0]
            step = self.lesson.steps[self.index]
            if d.player is None and d.options and d.kind == step.kind:
                if self._passed >= step.wait:
                    break  # a race the next step answers
                self._passed += 1
            if d.player is None or not d.options:
                if d.deadline_ms is None:
                    raise LessonBroken(f"{self.lesson.game}: decision {d.kind!r} has no player and no deadline")
                move = Move(player=None, option=TIMEOUT, at_ms=d.deadline_ms)
            else:
                move = Move(player=d.player, option=teacher[d.player](self.game, self.state, d, self._rng),
                            at_ms=d.deadline_ms)
            outcome = self.game.apply(self.state, move)
            self.state = outcome.state
            events.extend(outcome.events)
        return tuple(events)


def play_scripted(lesson: Lesson, wrong_first: bool = False) -> bool:
    """Play ``lesson`` to its end with a learner who answers every step as written (:meth:`LessonRun.expected`) — after one wrong choice at every
    step when ``wrong_first`` (which must change nothing). True when the end is reached; False when the engine no
    longer matches the lesson (:class:`LessonBroken`) or a wrong choice was accepted."""
    try:
        run = LessonRun(lesson)
        while not run.done:
            if wrong_first and run.wrong_options():
                before = run.state
                if run.answer(run.wrong_options()[0]).right or run.state is not before:
                    return False
            if not run.answer(run.expected()).right:
                return False
        return True
    except LessonBroken:
        return False


def _registry() -> dict[str, Lesson]:
    import games

    out: dict[str, Lesson] = {}
    for game in sorted(games.all(), key=lambda g: g.id):
        try:
            module = importlib.import_module(f"games.{game.id}.lesson")
        except ModuleNotFoundError as exc:
            if exc.name != f"games.{game.id}.lesson":
                raise
            continue
        out[game.id] = module.LESSON
    return out


def __getattr__(name: str) -> Any:
    if name == "LESSONS":  # built on first use: the lesson modules import this one
        global LESSONS
        LESSONS = _registry()
        return LESSONS
    raise AttributeError(name)
