"""A greedy Tsukimi player: one-step look-ahead on a cheap position score (no copying of states).

Score of a position for a seat: for each placed tile its value (a value-0 tile counts a little, for TS-8's tile
tie-break) signed by who leads around it, a small bonus for a lead of two; for each empty space a small share of
an average future tile by the same rule; plus reserve rabbits, worth more early than late.
"""

from __future__ import annotations

import random

from games.core import Decision
from games.search import Knowledge

from . import rules
from .board import NEIGHBOURS, SPACE_VERTICES, SPACES, VERTEX_SPACES, VERTICES
from .data import EFFECTS, TILES
from .hints import explain
from .state import TsukimiState

_LEAD = {-2: -1.15, -1: -1.0, 0: 0.0, 1: 1.0, 2: 1.15}
_EMPTY_SHARE = 0.35


def _space_score(space: str, board: dict[str, int], rabbits: dict[str, int], me: int) -> float:
    d = 0
    for v in SPACE_VERTICES[space]:
        s = rabbits.get(v)
        if s is not None:
            d += 1 if s == me else -1
    lead = _LEAD[max(-2, min(2, d))]
    tile = board.get(space)
    if tile is None:
        return _EMPTY_SHARE * lead if any(n in board for n in NEIGHBOURS[space]) else 0.1 * lead
    return (TILES[tile].value + 0.4) * lead


def _around(vertices, board, rabbits, me) -> float:
    spaces = dict.fromkeys(s for v in vertices for s in VERTEX_SPACES[v])  # in board order: the same float sum
    return sum(_space_score(s, board, rabbits, me) for s in spaces)


def _reserve_weight(board: dict[str, int]) -> float:
    return 0.15 + 0.55 * (18 - len(board)) / 18


def _delta_set(vertex: str, seat: int | None, board, rabbits, me) -> float:
    """Score change (for ``me``) of putting ``seat``'s rabbit on ``vertex`` (None: removing the rabbit there)."""
    before = _around((vertex,), board, rabbits, me)
    old = rabbits.get(vertex)
    if seat is None:
        del rabbits[vertex]
    else:
        rabbits[vertex] = seat
    after = _around((vertex,), board, rabbits, me)
    if old is None:
        del rabbits[vertex]
    else:
        rabbits[vertex] = old
    return after - before


def _best_move(board, rabbits, me) -> tuple[float, str | None, str | None]:
    best = (0.0, None, None)
    empty = [v for v in VERTICES if v not in rabbits]
    for src in [v for v, s in rabbits.items() if s == me]:
        lose = _delta_set(src, None, board, rabbits, me)
        del rabbits[src]
        for dst in empty:
            gain = lose + _delta_set(dst, me, board, rabbits, me)
            if gain > best[0] + 1e-9:
                best = (gain, src, dst)
        rabbits[src] = me
    return best


def _best_discard(board, rabbits, me) -> tuple[float, str | None]:
    best: tuple[float, str | None] = (-1e9, None)
    for v, s in list(rabbits.items()):
        if s != me:
            g = _delta_set(v, None, board, rabbits, me)
            if g > best[0]:
                best = (g, v)
    return best


def _placement_value(state: TsukimiState, tile: int, space: str, reserve: int, move_gain: float,
                     memo: dict | None = None) -> float:
    """Estimated gain of putting ``tile`` on ``space`` with ``reserve`` rabbits left, effects played greedily
    (``move_gain``: the best move's gain in the current position, an estimate for tiles that move a rabbit).
    ``memo`` (one dict per position and ``move_gain``) shares the answer between tiles that differ in nothing the
    estimate reads: the same value, as many groups formed (TS-6), as many rabbits to place (TS-3)."""
    me = state.turn
    board = dict(state.board)
    rabbits = dict(state.rabbits)
    board[space] = tile
    value = TILES[tile].value
    contested = any(s != me for s in rabbits.values())
    groups = len(rules.groups_formed(board, space)) if contested else 0
    key = (space, value, groups, max(0, min(EFFECTS[value][0], reserve)))
    if memo is not None and key in memo:
        return memo[key]
    del board[space]
    before = _space_score(space, board, rabbits, me) + sum(
        _space_score(n, board, rabbits, me) for n in NEIGHBOURS[space] if n not in board)
    board[space] = tile
    gain = _space_score(space, board, rabbits, me) + sum(
        _space_score(n, board, rabbits, me) for n in NEIGHBOURS[space] if n not in board) - before
    if contested:
        for _ in range(groups):
            g, v = _best_discard(board, rabbits, me)
            if v is None:
                break
            gain += g
            del rabbits[v]
    places, moves = EFFECTS[TILES[tile].value]
    w = _reserve_weight(board)
    for _ in range(min(places, reserve)):
        options = [(_delta_set(v, me, board, rabbits, me), v) for v in SPACE_VERTICES[space] if v not in rabbits]
        if not options:
            break
        g, v = max(options)
        if g <= w:
            break
        gain += g - w
        rabbits[v] = me
    if moves:
        gain += 0.6 * move_gain
    if memo is not None:
        memo[key] = gain
    return gain


def _tile_values(state: TsukimiState, ids) -> dict[str, float]:
    """The greedy player's estimate of each ``choose_tile`` option (``tile:<id>``): its best placement on a free
    space (:func:`_placement_value`, with the rabbits it costs already paid) less the rabbits it costs
    ("Choosing a Mochi Tile"), weighted by :func:`_reserve_weight`."""
    me = state.turn
    cs = rules.costs(state.circle)
    spaces = rules.free_spaces(state)
    w = _reserve_weight(state.board)
    mg = _best_move(state.board, dict(state.rabbits), me)[0] if state.rabbits else 0.0
    memo: dict = {}
    out = {}
    for oid in ids:
        tile = int(oid.split(":")[1])
        left = state.reserve[me] - cs[tile]
        out[oid] = max(_placement_value(state, tile, s, left, mg, memo) for s in spaces) - w * cs[tile]
    return out


def greedy_choice(state: TsukimiState, decision: Decision, rng: random.Random) -> str | None:
    """The greedy option id for ``decision`` (always one of its options). Ties are broken by one ``rng.random()``
    per option in the decision's order, so the same rng gives the same choice in every process."""
    me = state.turn
    ids = [o.id for o in decision.options]
    if decision.kind == "choose_tile":
        values = _tile_values(state, ids)
        best = None
        for oid in ids:
            key = (values[oid], rng.random())
            if best is None or key > best[0]:
                best = (key, oid)
        return best[1]
    if decision.kind == "place_tile":
        mg = _best_move(state.board, dict(state.rabbits), me)[0] if state.rabbits else 0.0
        best = None
        for oid in ids:
            val = _placement_value(state, state.tile, oid.split(":")[1], state.reserve[me], mg)
            key = (val, rng.random())
            if best is None or key > best[0]:
                best = (key, oid)
        return best[1]
    board = state.board
    rabbits = dict(state.rabbits)
    if decision.kind == "move_to":
        src = state.moving_from
        lose = _delta_set(src, None, board, rabbits, me)
        del rabbits[src]
        cands = [(lose + _delta_set(o[3:], me, board, rabbits, me), o) for o in ids if o.startswith("to:")]
        g, oid = max(cands)
        return oid if g > 0 else "back"
    # effects: discards first (owed), then the best placement or move while it gains
    disc = [o for o in ids if o.startswith("discard:")]
    if disc:
        return max((_delta_set(o[8:], None, board, rabbits, me), o) for o in disc)[1]
    w = _reserve_weight(board)
    cands: list[tuple[float, str]] = []
    for o in ids:
        if o.startswith("place:"):
            cands.append((_delta_set(o[6:], me, board, rabbits, me) - w, o))
    if any(o.startswith("move:") for o in ids):
        g, src, _dst = _best_move(board, rabbits, me)
        if src is not None:
            # moving closes placing: only move first if no placement is worth more
            cands.append((g - 0.01, f"move:{src}"))
    if cands:
        g, oid = max(cands)
        if g > 0:
            return oid
    return "end" if "end" in ids else None


# -- AI seats: the strong search's knowledge ------------------------------------------------------------------


def evaluate(state: TsukimiState) -> dict[str, float]:
    """Heuristic score per player at the strong search's horizon, in mochi points: the greedy player's position
    score of every space (placed tiles by who leads around them, empty spaces a share; "End of the Game", TS-8)
    plus reserve rabbits weighted by how much of the game is left. Seat 0's score is the negative of seat 1's."""
    board, rabbits = state.board, state.rabbits
    d = sum(_space_score(s, board, rabbits, 0) for s in SPACES)
    d += _reserve_weight(board) * (state.reserve[0] - state.reserve[1])
    a, b = state.players
    return {a: d / 2, b: -d / 2}


ENDGAME_TILES = 2
"""With this many mochi tiles or fewer left to place, the strong search rolls out to the end of the game."""


def rollout_turns(state: TsukimiState) -> int:
    """The strong search's horizon: this turn and the rival's reply, or the whole rest of the game once at most
    :data:`ENDGAME_TILES` tiles are left (18 in all, "How to Play")."""
    return 99 if 18 - len(state.board) <= ENDGAME_TILES else 2


def rollout_decisions(state: TsukimiState) -> int:
    """At most 16 decisions in a roll-out (a turn and the reply), 40 in the endgame (to the end)."""
    return 40 if 18 - len(state.board) <= ENDGAME_TILES else 16


def candidates(state: TsukimiState, decision: Decision, rng: random.Random) -> list[str]:
    """The options of ``decision`` worth searching, best first by the greedy player's own estimates (tile choice:
    its best placement less the rabbits it costs; placement: :func:`_placement_value`); other decisions: the
    greedy option first, then the rest."""
    me = state.turn
    ids = [o.id for o in decision.options]
    if decision.kind in ("choose_tile", "place_tile"):
        if decision.kind == "choose_tile":
            value = _tile_values(state, ids)
        else:
            mg = _best_move(state.board, dict(state.rabbits), me)[0] if state.rabbits else 0.0
            value = {oid: _placement_value(state, state.tile, oid.split(":")[1], state.reserve[me], mg)
                     for oid in ids}
        return sorted(ids, key=lambda o: -value[o])
    best = greedy_choice(state, decision, rng)
    return [best] + [o for o in ids if o != best] if best in ids else ids


KNOWLEDGE: Knowledge[TsukimiState] = Knowledge(
    evaluate=evaluate, eval_scale=2.0, min_gain=0.02, rollout_turns=rollout_turns,
    rollout_decisions=rollout_decisions, candidates=candidates, max_candidates=4, explain=explain,
)
"""What the strong search knows of Tsukimi (``games.search.Knowledge``): the greedy player's position score at the
horizon (the rival's reply, or the end of the game in the endgame), its four best options compared."""
