"""The strong AI level's search: determinised Monte Carlo search over the current decision's
options, with the game's greedy player as roll-out policy and a per-game evaluation at a horizon.

Works for every game through ``pending`` / ``apply`` / ``result`` alone, with optional per-game knowledge from the
game's ``games/<id>/ai.py`` (its ``KNOWLEDGE``, a :class:`Knowledge`). Pure: no clock, no I/O; the budget's clock is passed in.

One sample of an option:

1. *Determinise*: a copy of the position whose random generator is re-seeded (future dice, draws and reshuffles
   are drawn afresh, RULINGS C-1) and whose hidden information is re-dealt by the game's ``determinise`` hook (e.g.
   Forest of Tataraba's face-down shift deck), so the search never reads what a player cannot see.
2. *Play* the option, then *roll out*: every seat answers with the game's greedy player (the normal level), a
   decision with one option is played at once, a decision with no options is closed by its timeout, and a race
   (``player=None`` with a deadline) is played out by the game's race model (``resolve_race``: Tatamokatsu's
   reaction times, the strong model for the searching seat and the normal one for the others) — until the game
   ends or the horizon: ``rollout_turns`` changes of the player to move, at most ``rollout_decisions`` decisions.
3. *Evaluate*: at the end, each seat's share of the ranking (``Result.ranking``: 1 for every opponent ranked below,
   1/2 for each tied, divided by the number of opponents); at the horizon, the mean over opponents of
   ``sigmoid((h[p] - h[q]) / eval_scale)`` for the game's heuristic ``evaluate(state) -> {player: h}``; alone
   (Tatsumi solo) ``sigmoid((h[p] - solo_reference) / eval_scale)``. Every seat maximises its own share, so 3+
   players and solo need nothing special.

:func:`search` samples the candidate options in rounds with common random numbers and successive halving and
answers the best mean share (see there).
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.core import TIMEOUT, BaseState, Decision, Game, Move, Rng

MIN_GAIN = 0.01
"""How much better (in share of the result, 0..1) an option must sample than the greedy option to be preferred."""


State = TypeVar("State", bound=BaseState)

Horizon = int | Callable[[State], int]
"""A roll-out horizon: a fixed count, or ``(state) -> count`` where it depends on the position."""

_HOOK_ARITY: dict[str, int] = {
    "evaluate": 1, "determinise": 2, "resolve_race": 5, "rollout_choice": 3, "candidates": 3,
    "loses_at_once": 3, "race_answer": 5, "window_opened": 1, "rollout_turns": 1, "rollout_decisions": 1,
    "explain": 3, "option_values": 3,
}
"""How many positional arguments each callable field of :class:`Knowledge` is called with."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Knowledge(Generic[State]):
    """What a game's ``games/<id>/ai.py`` tells the AI levels, as its one ``KNOWLEDGE = Knowledge(...)`` object
    (every field optional; defaults in brackets). Built at import of that module: an unknown field name is a
    ``TypeError`` there, a hook that cannot be called with the arguments the search passes is a ``TypeError``,
    a number out of range a ``ValueError``.

    The strong search (this module):

    - ``evaluate(state) -> {player: score}``: a heuristic score per player at the roll-out's horizon, in the
      game's own points [None: roll out to the end].
    - ``eval_scale``: how many of those points make a clear lead [1.0]; ``solo_reference``: the score a solo
      game is measured against [0.0].
    - ``rollout_turns``: changes of the player to move before the horizon [2]; ``rollout_decisions``: decisions
      answered at most in one roll-out [60]. Either may be ``(state) -> int`` where the horizon depends on the
      position (e.g. to the end once the end is near).
    - ``determinise(state, rng) -> state``: a copy with hidden information re-dealt (the generator is re-seeded
      in any case) [None: all is open].
    - ``resolve_race(game, state, decision, me, rng) -> state``: a race played out by every seat's modelled
      inputs and closed [None: closed by its timeout].
    - ``rollout_choice(state, decision, rng) -> option id | None``: a cheaper roll-out policy than
      ``Game.greedy`` (None: ask ``Game.greedy``) [None].
    - ``candidates(state, decision, rng) -> [option id]``: the options worth searching, best first (the greedy
      player's ranking, the greedy option first) [None: every option]; ``max_candidates``: how many of them at
      most [None: all].
    - ``greedy_kinds``: decision kinds the greedy player answers without a search (where the horizon cannot see
      what the choice is worth) [none]; ``min_gain``: see :data:`MIN_GAIN`; ``min_rounds``: complete rounds
      needed before the search may answer anything but the greedy option [1].

    The easy level and the race model (:mod:`games.ai`):

    - ``loses_at_once(state, decision, option id) -> bool``: an option the easy level leaves out [None].
    - ``race_answer(state, decision, player, level, rng) -> (option id, reaction ms) | None``: a seat's next input
      to an open race [None: the greedy option at a human pace].
    - ``window_opened(state) -> ms``: when the open race window opened [None: races closed by the timeout].

    Hints (:mod:`games.hints`):

    - ``explain(state, decision, option id) -> Text``: one short reason for the option in the game's terms, from
      what it does and what :func:`evaluate` rewards (e.g. Tatari "stop: 4 dolls onto shrine 8; going on busts
      41 % of the time"), or None where it has nothing to say [None: the evaluation's change].
    - ``option_values(state, decision, player) -> {option id: share} | None``: exact shares (chances of winning,
      0..1) of the options where the game computes them (Tatari's two-player turn) [None: estimated].
    """

    evaluate: Callable[[State], dict[str, float]] | None = None
    eval_scale: float = 1.0
    solo_reference: float = 0.0
    rollout_turns: Horizon = 2
    rollout_decisions: Horizon = 60
    determinise: Callable[[State, random.Random], State] | None = None
    resolve_race: Callable[[Game, State, Decision, str, random.Random], State] | None = None
    rollout_choice: Callable[[State, Decision, random.Random], str | None] | None = None
    candidates: Callable[[State, Decision, random.Random], list[str]] | None = None
    max_candidates: int | None = None
    greedy_kinds: frozenset[str] = frozenset()
    min_gain: float = MIN_GAIN
    min_rounds: int = 1
    loses_at_once: Callable[[State, Decision, str], bool] | None = None
    race_answer: Callable[[State, Decision, str, str, random.Random], tuple[str, int] | None] | None = None
    window_opened: Callable[[State], int] | None = None
    explain: Callable[[State, Decision, str], Any] | None = None
    option_values: Callable[[State, Decision, str], dict[str, float] | None] | None = None

    def __post_init__(self) -> None:
        for name, arity in _HOOK_ARITY.items():
            hook = getattr(self, name)
            if hook is None or (name.startswith("rollout_") and _is_count(hook)):
                continue
            if not callable(hook):
                raise TypeError(f"Knowledge.{name} must be callable, not {type(hook).__name__}")
            try:
                inspect.signature(hook).bind(*[None] * arity)
            except TypeError as e:
                raise TypeError(f"Knowledge.{name} must take {arity} positional argument(s): {e}") from None
        for name in ("rollout_turns", "rollout_decisions"):
            value = getattr(self, name)
            if _is_count(value) and value < 1:
                raise ValueError(f"Knowledge.{name} must be at least 1, not {value}")
        if self.max_candidates is not None and (not _is_count(self.max_candidates) or self.max_candidates < 1):
            raise ValueError(f"Knowledge.max_candidates must be a count of at least 1, not {self.max_candidates!r}")
        if not _is_count(self.min_rounds) or self.min_rounds < 1:
            raise ValueError(f"Knowledge.min_rounds must be a count of at least 1, not {self.min_rounds!r}")
        for name in ("eval_scale", "solo_reference", "min_gain"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"Knowledge.{name} must be a number, not {type(value).__name__}")
            object.__setattr__(self, name, float(value))
        if self.eval_scale <= 0:
            raise ValueError(f"Knowledge.eval_scale must be positive, not {self.eval_scale}")
        if isinstance(self.greedy_kinds, str) or not all(isinstance(k, str) for k in self.greedy_kinds):
            raise TypeError("Knowledge.greedy_kinds must be a collection of decision kinds")
        object.__setattr__(self, "greedy_kinds", frozenset(self.greedy_kinds))


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


NO_KNOWLEDGE: Knowledge = Knowledge()
"""The knowledge of a game without a ``games/<id>/ai.py``: every default."""

_KNOWLEDGE: dict[str, Knowledge] = {}


def knowledge(game: Game) -> Knowledge:
    """The AI knowledge of ``game``: the ``KNOWLEDGE`` object of its ``games/<id>/ai.py``, or
    :data:`NO_KNOWLEDGE` for a game without that module. ``TypeError`` if the module has no ``KNOWLEDGE`` or it is
    not a :class:`Knowledge`."""
    found = _KNOWLEDGE.get(game.id)
    if found is None:
        name = f"games.{game.id}.ai"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is None or not (name == e.name or name.startswith(e.name + ".")):
                raise
            found = NO_KNOWLEDGE
        else:
            found = getattr(module, "KNOWLEDGE", None)
            if not isinstance(found, Knowledge):
                raise TypeError(f"{name}.KNOWLEDGE must be a games.search.Knowledge, not {type(found).__name__}")
        _KNOWLEDGE[game.id] = found
    return found


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def shares(game: Game, state: BaseState, know: Knowledge) -> list[float]:
    """Each seat's share of the result in [0, 1], in ``state.players`` order (see the module doc, step 4)."""
    players = state.players
    n = len(players)
    result = game.result(state)
    scale = know.eval_scale
    if result is not None and n > 1:
        rank_of = {p: r for r, group in enumerate(result.ranking) for p in group}
        out = []
        for p in players:
            mine = rank_of.get(p, len(result.ranking))
            score = sum(1.0 if rank_of.get(q, len(result.ranking)) > mine else
                        0.5 if rank_of.get(q, len(result.ranking)) == mine else 0.0
                        for q in players if q != p)
            out.append(score / (n - 1))
        return out
    evaluate = know.evaluate
    if evaluate is None:
        if result is not None:
            ref = know.solo_reference
            return [_sigmoid((result.scores.get(p, 0) - ref) / scale) for p in players]
        return [0.5] * n
    h = evaluate(state)
    if n == 1:
        ref = know.solo_reference
        return [_sigmoid((h[players[0]] - ref) / scale)]
    return [sum(_sigmoid((h[p] - h[q]) / scale) for q in players if q != p) / (n - 1) for p in players]


def determinise(state: BaseState, know: Knowledge, rng: random.Random) -> BaseState:
    """A copy of ``state`` with a fresh generator and, through the game's hook, hidden information re-dealt."""
    s = state.model_copy(update={"rng": Rng(seed=rng.getrandbits(62))})
    hook = know.determinise
    return hook(s, rng) if hook is not None else s


def _first(decisions: list[Decision]) -> Decision:
    return decisions[0]


def _forced(game: Game, state: BaseState, decision: Decision, know: Knowledge, me: str,
            rng: random.Random) -> BaseState | None:
    """The state after a decision nobody chooses in (no options, one option, or a race); None if it is a choice."""
    race = decision.player is None and decision.deadline_ms is not None
    if race:
        resolve = know.resolve_race
        if resolve is not None:
            return resolve(game, state, decision, me, rng)
        return game.apply(state, Move(player=None, option=TIMEOUT, at_ms=decision.deadline_ms)).state
    if not decision.options:
        if decision.deadline_ms is None:
            raise RuntimeError(f"decision {decision.kind!r} has no options and no deadline")
        return game.apply(state, Move(player=None, option=TIMEOUT, at_ms=decision.deadline_ms)).state
    if len(decision.options) == 1:
        return _play(game, state, decision, decision.options[0].id)
    return None


def _play(game: Game, state: BaseState, decision: Decision, option: str) -> BaseState:
    return game.apply(state, Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state


def _horizon(horizon: Horizon, state: BaseState) -> int:
    return horizon if isinstance(horizon, int) else int(horizon(state))


def _rollout(game: Game, state: BaseState, know: Knowledge, me: str, rng: random.Random) -> BaseState:
    turns = _horizon(know.rollout_turns, state)
    limit = _horizon(know.rollout_decisions, state)
    policy = know.rollout_choice
    last = None
    changes = 0
    for _ in range(limit):
        decisions = game.pending(state)
        if not decisions:
            return state
        d = _first(decisions)
        if d.player is not None and d.player != last:
            if last is not None:
                changes += 1
                if changes >= turns:
                    return state
            last = d.player
        after = _forced(game, state, d, know, me, rng)
        if after is None:
            choice = policy(state, d, rng) if policy is not None else None
            if choice is None:
                choice = game.greedy(state, d, rng)
            if choice is None or d.option(choice) is None:
                choice = rng.choice(d.options).id
            after = _play(game, state, d, choice)
        state = after
    return state


def sample(game: Game, state: BaseState, decision: Decision, option: str, know: Knowledge, player: str,
           seed: int) -> list[float]:
    """One sample of ``option``: played on the position re-dealt from ``seed``, then rolled out; every seat's
    share (:func:`shares`)."""
    rng = random.Random(seed)
    s = determinise(state, know, rng)
    s = _play(game, s, decision, option)
    s = _rollout(game, s, know, player, rng)
    return shares(game, s, know)


@dataclass(frozen=True, slots=True)
class Analysis:
    """What one strong search found: ``choice`` the option id it answers; ``values`` each sampled option's mean
    share of the result for the searching seat (0..1, over the rounds it was sampled in; options dropped by
    successive halving have fewer rounds, options never sampled are absent); ``rounds`` complete rounds and
    ``iterations`` samples spent (``Budget(iterations=iterations)`` with the same generator repeats the search
    exactly)."""

    choice: str
    values: dict[str, float]
    rounds: int = 0
    iterations: int = 0


def search(game: Game, state: BaseState, decision: Decision, player: str, rng: random.Random,
           budget: Any, know: Knowledge | None = None) -> str:
    """The strong level's option id for ``decision`` (answered by ``player``) within ``budget``: the choice of
    :func:`analyse` (see there)."""
    return analyse(game, state, decision, player, rng, budget, know).choice


def analyse(game: Game, state: BaseState, decision: Decision, player: str, rng: random.Random,
            budget: Any, know: Knowledge | None = None) -> Analysis:
    """The strong level's search of ``decision`` (answered by ``player``) within ``budget`` (a
    :class:`games.ai.Budget`; one iteration = one option sampled once), with the game's :func:`knowledge` (or
    ``know`` instead, e.g. to compare a hook with its default): its choice and what it sampled (:class:`Analysis`).
    A decision with one option is answered at once. Deterministic for a given ``rng`` and an iteration budget.

    Rounds: each round draws one seed and samples every candidate option on the position re-dealt from it (the
    same dice and draws for every option: common random numbers, so options are compared on equal luck). After
    rounds 1, 2, 4, 8 … the weaker half of the candidates is dropped (successive halving), never below two. The
    candidates are the game's ``candidates(state, decision, rng)`` (its greedy ranking, best first, at most
    ``max_candidates``) or every option. The answer is the greedy option unless another samples clearly better
    (:func:`_pick`); a budget spent before ``min_rounds`` rounds are complete answers the greedy option."""
    ids = [o.id for o in decision.options]
    if len(ids) == 1:
        return Analysis(ids[0], {})
    know = know if know is not None else knowledge(game)
    me = list(state.players).index(player) if player in state.players else 0
    ranked = know.candidates
    if ranked is not None:  # the greedy ranking: its first is the greedy option
        cands = [o for o in ranked(state, decision, rng) if o in ids] or list(ids)
        greedy = cands[0]
    else:
        greedy = game.greedy(state, decision, rng)
        cands = list(ids)
    if greedy not in ids:
        greedy = None
    elif decision.kind in know.greedy_kinds:
        return Analysis(greedy, {})
    cands = cands[:know.max_candidates]
    if len(cands) == 1:
        return Analysis(cands[0], {})
    samples: dict[str, list[float]] = {o: [] for o in cands}
    done = 0
    rounds = 0
    alive = list(cands)
    while True:
        seed = rng.getrandbits(62)
        for o in alive:
            if budget.spent(done):
                break
            samples[o].append(sample(game, state, decision, o, know, player, seed)[me])
            done += 1
        else:
            rounds += 1
            if rounds & (rounds - 1) == 0 and len(alive) > 2:  # after rounds 1, 2, 4, 8 ...
                alive.sort(key=lambda o: (-_mean(samples[o][:rounds]), o != greedy))
                alive = alive[:max(2, (len(alive) + 1) // 2)]
            continue
        break
    values = {o: _mean(v[:rounds] if 0 < rounds < len(v) else v) for o, v in samples.items() if v}
    if rounds == 0 or (greedy is not None and rounds < know.min_rounds):
        return Analysis(greedy if greedy is not None else cands[0], values, rounds, done)
    return Analysis(_pick(alive, samples, rounds, greedy, know.min_gain), values, rounds, done)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _pick(alive: list[str], samples: dict[str, list[float]], rounds: int, greedy: str | None,
          min_gain: float) -> str:
    """The answer among the options still searched: the greedy option unless another beats it on the same rounds
    (paired by round: common random numbers) by more than ``min_gain`` and by more than one standard error of the
    paired difference; then the one that beats it most. Without the greedy option, the best mean."""
    if greedy not in alive:
        return max(alive, key=lambda o: _mean(samples[o][:rounds]))
    base = samples[greedy][:rounds]
    best, best_gain = greedy, 0.0
    for o in alive:
        if o == greedy:
            continue
        diffs = [a - b for a, b in zip(samples[o][:rounds], base, strict=True)]
        gain = _mean(diffs)
        spread = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs)) if len(diffs) > 1 else 0.0
        if gain > max(min_gain, spread) and gain > best_gain:
            best, best_gain = o, gain
    return best
