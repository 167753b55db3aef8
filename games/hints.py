"""Hints from the strong AI: its best options for the player whose decision is open, each with an estimated share
of the result and one short reason in the game's terms.

The first hint is exactly the strong level's own answer: :func:`advise` runs the one search the strong level runs
(:func:`games.search.analyse`, same generator, same budget) and reads its choice and the values it sampled. The
other options shown are ranked by those values; an option the search did not sample is valued by the game's exact
values where it has them (``Knowledge.option_values``, Tatari's two-player turn) or by a few roll-outs of its own,
drawn after the search (so they never change its choice). The reasons are the game's ``Knowledge.explain(state,
decision, option)`` (``games/<id>/hints.py``), else the change the option makes to the game's evaluation.

What a share means depends on the seats (:func:`measure`): two players, the chance of winning; three or more,
the share of rivals finished ahead of; alone (Tatsumi solo), a score in the game's own points.

Pure: no clock (the budget's clock is the caller's), no I/O. A lesson can use :func:`explain` for the "why" of any
option and :func:`advise` for the Teacher's suggestion.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.core import BaseState, Decision, Game, Move, T, Text
from games.search import Knowledge, analyse, determinise, knowledge, sample

TOP = 3
"""How many options a hint shows."""
EXTRA_SAMPLES = 2
"""Roll-outs that value an option shown in a hint which the search did not sample."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One option of a hint: ``option`` its id, ``label`` what its button says, ``share`` its estimated share of
    the result for the player (0..1, see :func:`measure`), ``exact`` whether the game computed it exactly,
    ``reason`` one short line in the game's terms, ``score`` alone (solo) the player's score in the game's own
    points by the evaluation right after the option (else None)."""

    option: str
    label: str
    share: float
    exact: bool
    reason: Text
    score: float | None = None


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint for one decision: ``hints`` best first (``hints[0].option`` is the strong level's choice),
    ``measure`` what a share is (:func:`measure`),
    ``iterations`` the search's samples (``Budget(iterations=iterations)`` repeats it exactly)."""

    hints: list[Hint]
    measure: str
    iterations: int

    @property
    def choice(self) -> str:
        """The strong level's option id."""
        return self.hints[0].option


def measure(state: BaseState) -> str:
    """What a share of the result means for ``state``'s seats: ``"win"`` (two players: the chance of winning),
    ``"rivals"`` (three or more: the share of rivals finished ahead of), ``"score"`` (one player: a share says
    nothing a player can read; hints show the game's own score instead, :attr:`Hint.score`)."""
    n = len(state.players)
    return "win" if n == 2 else "score" if n == 1 else "rivals"


def value_text(hint: Hint, state: BaseState, game: Game) -> Text:
    """A hint's number as a player reads it (:func:`measure`): ``"61 %"`` (two or more seats), or alone the game's
    own score by the AI's count right after the option (Tatsumi solo: ``"20 fortune"``)."""
    if hint.score is not None:
        words = game.score_words(round(hint.score))
        return words if words is not None else T("{score} points", score=round(hint.score))
    return T("{pct} %", pct=round(100 * hint.share))


def measure_text(state: BaseState) -> Text:
    """The heading of a hint's numbers (:func:`measure`)."""
    return {"win": T("estimated chance of winning"), "rivals": T("estimated share of rivals you finish ahead of"),
            "score": T("your score by the AI's count right after it")}[measure(state)]


def explain(game: Game, state: BaseState, decision: Decision, option: str, player: str | None = None) -> Text:
    """One short reason for ``option`` of ``decision`` in the game's terms: the game's ``Knowledge.explain``, or
    (where that has nothing to say) the change the option makes to the evaluation of ``player``'s position, said
    as such ("the AI's evaluation of your position (higher is better): 3.1 -> 3.4"), or where it does not rise
    "the strong AI's roll-outs favour it" (the position re-dealt first: a reason never tells a hidden card or a
    die to come). ``KeyError`` for an option the decision does not list."""
    if decision.option(option) is None:
        raise KeyError(option)
    know = knowledge(game)
    said = know.explain(state, decision, option) if know.explain is not None else None
    if said is not None:
        return said
    player = player or decision.player or state.players[0]
    if know.evaluate is None:
        return T("the strong AI's roll-outs favour it")
    before = know.evaluate(state).get(player, 0.0)
    s = determinise(state, know, random.Random(0))
    after = know.evaluate(game.apply(s, Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state).get(player, 0.0)
    if after <= before:  # a number that drops for the best option reads as a warning: the roll-outs speak
        return T("the strong AI's roll-outs favour it")
    shown = {"before": format(before, ".1f"), "after": format(after, ".1f")}
    return T("the AI's evaluation of your position (higher is better): {before} -> {after}", **shown)


def advise(game: Game, state: BaseState, decision: Decision, player: str, rng: random.Random, budget: Any,
           top: int = TOP) -> Advice:
    """The strong level's best ``top`` options for ``player`` at ``decision`` within ``budget`` (a
    :class:`games.ai.Budget`), best first: the first is what :func:`games.ai.choose` answers at the strong level
    with the same ``rng`` and budget (one search, :func:`games.search.analyse`); the rest by the search's values,
    then the game's exact values, then the game's candidate ranking (valued by :data:`EXTRA_SAMPLES` roll-outs
    drawn after the search). The shares agree with that order: each is the search's value of its option, but never
    more than the share of the option ranked above it — an option the search valued a little higher than the
    choice did not beat it clearly (:func:`games.search.analyse` keeps the greedy option within the noise), so it
    shows the choice's share. ``ValueError`` when ``decision`` lists no options or names another player."""
    if not decision.options:
        raise ValueError(f"decision {decision.kind!r} lists no options")
    if decision.player is not None and decision.player != player:
        raise ValueError(f"decision {decision.kind!r} is {decision.player}'s, not {player}'s")
    know = knowledge(game)
    found = analyse(game, state, decision, player, rng, budget, know)
    values: dict[str, tuple[float, bool]] = {o: (v, False) for o, v in found.values.items()}
    exact = know.option_values(state, decision, player) if know.option_values is not None else None
    for o, v in (exact or {}).items():
        values[o] = (v, True)
    ids = [o.id for o in decision.options]
    shown = [found.choice] + sorted((o for o in values if o != found.choice), key=lambda o: -values[o][0])
    shown += [o for o in ids if o not in shown]
    shown = shown[:max(1, top)]
    me = list(state.players).index(player) if player in state.players else 0
    for o in shown:
        if o not in values:
            values[o] = (_sampled(game, state, decision, o, know, player, me, rng), False)
    ranked = [found.choice] + sorted(shown[1:], key=lambda o: -values[o][0])
    hints = []
    ceiling = values[found.choice][0]
    for o in ranked:
        share, is_exact = values[o]
        shown_share = min(share, ceiling)
        label = decision.option(o).label
        score = _score_after(game, state, decision, o, know, player) if measure(state) == "score" else None
        hints.append(Hint(o, label, shown_share, is_exact and shown_share == share,
                          explain(game, state, decision, o, player), score))
    return Advice(hints, measure(state), found.iterations)


def _score_after(game: Game, state: BaseState, decision: Decision, option: str, know: Knowledge,
                 player: str) -> float | None:
    """``player``'s score by the game's evaluation right after ``option`` (the position re-dealt first), or None
    for a game without one."""
    if know.evaluate is None:
        return None
    s = determinise(state, know, random.Random(0))
    after = game.apply(s, Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state
    return know.evaluate(after).get(player)


def _sampled(game: Game, state: BaseState, decision: Decision, option: str, know: Knowledge, player: str, me: int,
             rng: random.Random) -> float:
    """The mean share of ``option`` over :data:`EXTRA_SAMPLES` roll-outs (as the search samples it)."""
    seeds = [rng.getrandbits(62) for _ in range(EXTRA_SAMPLES)]
    return sum(sample(game, state, decision, option, know, player, seed)[me] for seed in seeds) / len(seeds)


__all__ = ["Advice", "EXTRA_SAMPLES", "Hint", "TOP", "advise", "explain", "measure",
           "measure_text", "value_text"]
