"""The strong AI level's search (issue 14 item 4): determinised Monte Carlo search over the current decision's
options, with the game's greedy player as roll-out policy and a per-game evaluation at a horizon.

Works for every game through ``pending`` / ``apply`` / ``result`` alone, with optional per-game knowledge from the
game's ``games/<id>/ai.py`` (see :class:`Knowledge`). Pure: no clock, no I/O; the budget's clock is passed in.

One sample of an option:

1. *Determinise*: a copy of the position whose random generator is re-seeded (future dice, draws and reshuffles
   are drawn afresh, RULINGS C-1) and whose hidden information is re-dealt by the game's ``determinise`` hook (e.g.
   Forest of Tataraba's face-down shift deck), so the search never reads what a player cannot see.
2. *Play* the option, then *roll out*: every seat answers with the game's greedy player (the normal level), a
   decision with one option is played at once, a decision with no options is closed by its timeout, and a race
   (``player=None`` with a deadline) is played out by the game's race model (``resolve_race``: Tatamokatsu's
   reaction times, the strong model for the searching seat and the normal one for the others) — until the game
   ends or the horizon: ``ROLLOUT_TURNS`` changes of the player to move, at most ``ROLLOUT_DECISIONS`` decisions.
3. *Evaluate*: at the end, each seat's share of the ranking (``Result.ranking``: 1 for every opponent ranked below,
   1/2 for each tied, divided by the number of opponents); at the horizon, the mean over opponents of
   ``sigmoid((h[p] - h[q]) / EVAL_SCALE)`` for the game's heuristic ``evaluate(state) -> {player: h}``; alone
   (Tatsumi solo) ``sigmoid((h[p] - SOLO_REFERENCE) / EVAL_SCALE)``. Every seat maximises its own share, so 3+
   players and solo need nothing special.

:func:`search` samples the candidate options in rounds with common random numbers and successive halving and
answers the best mean share (see there).
"""

from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.core import TIMEOUT, BaseState, Decision, Game, Move, Rng

MIN_GAIN = 0.01
"""How much better (in share of the result, 0..1) an option must sample than the greedy option to be preferred."""


@dataclass(frozen=True)
class Knowledge:
    """What a game's ``ai.py`` may tell the search (all optional; defaults in brackets):

    - ``evaluate(state) -> dict[player, float]``: a heuristic score per player at the roll-out's horizon, in the
      game's own points (None: roll out to the end).
    - ``EVAL_SCALE``: how many of those points make a clear lead [1.0].
    - ``SOLO_REFERENCE``: the score a solo game is measured against [0].
    - ``ROLLOUT_TURNS``: changes of the player to move before the horizon [2]; ``ROLLOUT_DECISIONS``: decisions
      answered at most in one roll-out [60]; ``rollout_turns(state) -> int`` instead of ``ROLLOUT_TURNS`` where the
      horizon depends on the position (e.g. to the end once the end is near), ``rollout_decisions(state)`` likewise.
    - ``determinise(state, rng) -> state``: a copy with hidden information re-dealt (the generator is re-seeded
      here in any case).
    - ``resolve_race(game, state, decision, me, rng) -> state``: a race played out by every seat's modelled
      inputs and closed.
    - ``rollout_choice(state, decision, rng) -> str | None``: a cheaper roll-out policy than ``Game.greedy``.
    - ``candidates(state, decision, rng) -> list[str]``: the options worth searching, best first (the greedy
      player's ranking, the greedy option first); ``CANDIDATES``: how many of them at most [all].
    - ``GREEDY_KINDS``: decision kinds the greedy player answers without a search (where the horizon cannot see
      what the choice is worth) [none]; ``MIN_GAIN``: see :data:`MIN_GAIN`; ``MIN_ROUNDS``: complete rounds
      needed before the search may answer anything but the greedy option [1].
    """

    module: ModuleType | None

    def get(self, name: str, default: Any = None) -> Any:
        return getattr(self.module, name, default) if self.module is not None else default


_KNOWLEDGE: dict[str, Knowledge] = {}


def knowledge(game: Game) -> Knowledge:
    """The search knowledge of ``game`` (its ``games/<id>/ai.py`` module, or none)."""
    found = _KNOWLEDGE.get(game.id)
    if found is None:
        try:
            module = importlib.import_module(f"games.{game.id}.ai")
        except ImportError:
            module = None
        found = _KNOWLEDGE[game.id] = Knowledge(module)
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
    scale = float(know.get("EVAL_SCALE", 1.0))
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
    evaluate = know.get("evaluate")
    if evaluate is None:
        if result is not None:
            ref = float(know.get("SOLO_REFERENCE", 0))
            return [_sigmoid((result.scores.get(p, 0) - ref) / scale) for p in players]
        return [0.5] * n
    h = evaluate(state)
    if n == 1:
        ref = float(know.get("SOLO_REFERENCE", 0))
        return [_sigmoid((h[players[0]] - ref) / scale)]
    return [sum(_sigmoid((h[p] - h[q]) / scale) for q in players if q != p) / (n - 1) for p in players]


def determinise(state: BaseState, know: Knowledge, rng: random.Random) -> BaseState:
    """A copy of ``state`` with a fresh generator and, through the game's hook, hidden information re-dealt."""
    s = state.model_copy(update={"rng": Rng(seed=rng.getrandbits(62))})
    hook = know.get("determinise")
    return hook(s, rng) if hook is not None else s


def _first(decisions: list[Decision]) -> Decision:
    return decisions[0]


def _forced(game: Game, state: BaseState, decision: Decision, know: Knowledge, me: str,
            rng: random.Random) -> BaseState | None:
    """The state after a decision nobody chooses in (no options, one option, or a race); None if it is a choice."""
    race = decision.player is None and decision.deadline_ms is not None
    if race:
        resolve = know.get("resolve_race")
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


def _rollout(game: Game, state: BaseState, know: Knowledge, me: str, rng: random.Random) -> BaseState:
    horizon = know.get("rollout_turns")
    turns = int(horizon(state)) if horizon is not None else int(know.get("ROLLOUT_TURNS", 2))
    most = know.get("rollout_decisions")
    limit = int(most(state)) if most is not None else int(know.get("ROLLOUT_DECISIONS", 60))
    policy = know.get("rollout_choice")
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


def _value(game: Game, state: BaseState, decision: Decision, option: str, know: Knowledge, player: str,
           seed: int) -> list[float]:
    """One sample of ``option``: played on the position re-dealt from ``seed``, then rolled out; every seat's
    share (:func:`shares`)."""
    rng = random.Random(seed)
    s = determinise(state, know, rng)
    s = _play(game, s, decision, option)
    s = _rollout(game, s, know, player, rng)
    return shares(game, s, know)


def search(game: Game, state: BaseState, decision: Decision, player: str, rng: random.Random,
           budget: Any) -> str:
    """The strong level's option id for ``decision`` (answered by ``player``) within ``budget`` (a
    :class:`games.ai.Budget`; one iteration = one option sampled once). A decision with one option is answered at
    once. Deterministic for a given ``rng`` and an iteration budget.

    Rounds: each round draws one seed and samples every candidate option on the position re-dealt from it (the
    same dice and draws for every option: common random numbers, so options are compared on equal luck). After
    rounds 1, 2, 4, 8 … the weaker half of the candidates is dropped (successive halving), never below two. The
    candidates are the game's ``candidates(state, decision, rng)`` (its greedy ranking, best first, at most
    ``CANDIDATES``) or every option. The answer is the greedy option unless another samples clearly better
    (:func:`_pick`); a budget spent before ``MIN_ROUNDS`` rounds are complete answers the greedy option."""
    ids = [o.id for o in decision.options]
    if len(ids) == 1:
        return ids[0]
    know = knowledge(game)
    me = list(state.players).index(player) if player in state.players else 0
    ranked = know.get("candidates")
    if ranked is not None:  # the greedy ranking: its first is the greedy option
        cands = [o for o in ranked(state, decision, rng) if o in ids] or list(ids)
        greedy = cands[0]
    else:
        greedy = game.greedy(state, decision, rng)
        cands = list(ids)
    if greedy not in ids:
        greedy = None
    elif decision.kind in know.get("GREEDY_KINDS", ()):
        return greedy
    cands = cands[:int(know.get("CANDIDATES", len(ids)))]
    if len(cands) == 1:
        return cands[0]
    samples: dict[str, list[float]] = {o: [] for o in cands}
    done = 0
    rounds = 0
    alive = list(cands)
    while True:
        seed = rng.getrandbits(62)
        for o in alive:
            if budget.spent(done):
                break
            samples[o].append(_value(game, state, decision, o, know, player, seed)[me])
            done += 1
        else:
            rounds += 1
            if rounds & (rounds - 1) == 0 and len(alive) > 2:  # after rounds 1, 2, 4, 8 ...
                alive.sort(key=lambda o: (-_mean(samples[o][:rounds]), o != greedy))
                alive = alive[:max(2, (len(alive) + 1) // 2)]
            continue
        break
    if rounds == 0 or (greedy is not None and rounds < int(know.get("MIN_ROUNDS", 1))):
        return greedy if greedy is not None else cands[0]
    return _pick(alive, samples, rounds, greedy, float(know.get("MIN_GAIN", MIN_GAIN)))


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
