"""The strong AI level's search (issue 14 item 4): determinised open-loop Monte Carlo tree search over the contract.

Works for every game through ``pending`` / ``apply`` / ``result`` alone, with optional per-game knowledge from the
game's ``games/<id>/ai.py`` (see :class:`Knowledge`). Pure: no clock, no I/O; the budget's clock is passed in.

One iteration:

1. *Determinise*: a copy of the position whose random generator is re-seeded from the caller's ``random.Random``
   (future dice, draws and reshuffles differ per iteration, RULINGS C-1) and whose hidden information is re-dealt
   by the game's ``determinise`` hook (e.g. Forest of Tataraba's face-down shift deck), so the search never reads
   what a player cannot see.
2. *Select* down the tree: nodes are keyed by the option ids played since the root (open loop: the same sequence of
   choices under different dice is one node). At a decision with two or more options the acting player picks by
   UCB1 on *their own* mean result (max^n: every player maximises their own share), untried options first.
   Decisions with one option are played at once; a decision with no options is closed by its timeout; a race
   (``player=None`` with a deadline) is resolved by the game's race model (``resolve_race``, e.g. Tatamokatsu's
   reaction times) or, without one, by its timeout.
3. *Expand* one node, then *roll out* with the game's greedy player until the game ends or the roll-out's horizon
   (``ROLLOUT_TURNS`` changes of the player to move, at most ``ROLLOUT_DECISIONS`` decisions) is reached.
4. *Evaluate*: at the end, each player's share of the ranking (``Result.ranking``: 1 for every opponent ranked
   below, 1/2 for each tied); at the horizon, the mean over opponents of ``sigmoid((h[p] - h[q]) / EVAL_SCALE)``
   for the game's heuristic ``evaluate(state) -> {player: h}``. Alone (Tatsumi solo) the share is
   ``sigmoid((h[p] - SOLO_REFERENCE) / EVAL_SCALE)``.
5. *Back up* the vector of shares along the path.

The answer is the most visited option at the root.
"""

from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.core import TIMEOUT, BaseState, Decision, Game, IllegalMove, Move, Rng

EXPLORATION = 0.7
"""UCB1's exploration constant for shares in [0, 1]."""


@dataclass(frozen=True)
class Knowledge:
    """What a game's ``ai.py`` may tell the search (all optional; defaults in brackets):

    - ``evaluate(state) -> dict[player, float]``: a heuristic score per player at the roll-out's horizon, in the
      game's own points (None: roll out to the end).
    - ``EVAL_SCALE``: how many of those points make a clear lead [1.0].
    - ``SOLO_REFERENCE``: the score a solo game is measured against [0].
    - ``ROLLOUT_TURNS``: changes of the player to move before the horizon [2]; ``ROLLOUT_DECISIONS``: decisions
      answered at most in one roll-out [60].
    - ``determinise(state, rng) -> state``: a copy with hidden information re-dealt (the generator is re-seeded
      here in any case).
    - ``resolve_race(game, state, decision, me, rng) -> state``: a race played out by every seat's modelled
      inputs and closed.
    - ``rollout_choice(state, decision, rng) -> str | None``: a cheaper roll-out policy than ``Game.greedy``.
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


class _Node:
    __slots__ = ("visits", "totals", "children")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict[str, _Node] = {}


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
    turns = int(know.get("ROLLOUT_TURNS", 2))
    limit = int(know.get("ROLLOUT_DECISIONS", 60))
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


def search(game: Game, state: BaseState, decision: Decision, player: str, rng: random.Random,
           budget: Any) -> str:
    """The strong level's option id for ``decision`` (answered by ``player``) within ``budget`` (a
    :class:`games.ai.Budget`). A decision with one option is answered at once. Deterministic for a given ``rng``
    and an iteration budget."""
    ids = [o.id for o in decision.options]
    if len(ids) == 1:
        return ids[0]
    know = knowledge(game)
    players = list(state.players)
    index = {p: i for i, p in enumerate(players)}
    root = _Node(len(players))
    greedy = game.greedy(state, decision, rng)
    first = greedy if greedy in ids else None
    done = 0
    while not budget.spent(done):
        done += 1
        s = determinise(state, know, rng)
        path = [root]
        node = root
        d = decision
        expanded = False
        while True:
            if d.player is None or len(d.options) < 2:
                after = _forced(game, s, d, know, player, rng)
                if after is None:  # a race's option picked by the race model failed: close it
                    break
                s = after
            else:
                legal = [o.id for o in d.options]
                untried = [o for o in legal if o not in node.children]
                if untried:
                    choice = first if node is root and first in untried else rng.choice(untried)
                    child = node.children[choice] = _Node(len(players))
                    expanded = True
                else:
                    who = index.get(d.player, 0)
                    log_n = math.log(max(1, node.visits))
                    best, best_value = legal[0], -1.0
                    for o in legal:
                        c = node.children[o]
                        value = c.totals[who] / c.visits + EXPLORATION * math.sqrt(log_n / c.visits)
                        if value > best_value:
                            best, best_value = o, value
                    choice, child = best, node.children[best]
                try:
                    s = _play(game, s, d, choice)
                except IllegalMove:  # pragma: no cover - listed options are legal by the contract
                    break
                node = child
                path.append(node)
                if expanded:
                    break
            decisions = game.pending(s)
            if not decisions:
                break
            d = _first(decisions)
        if expanded:
            s = _rollout(game, s, know, player, rng)
        values = shares(game, s, know)
        for n in path:
            n.visits += 1
            for i, v in enumerate(values):
                n.totals[i] += v
    if not root.children:
        return first if first is not None else rng.choice(ids)
    return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[0] == first))[0]
