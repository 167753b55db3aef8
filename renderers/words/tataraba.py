"""Forest of Tataraba in words: each player's piece, Sen, material and Foot markers, and the tiles around the
current player (tile names ``k-n``: board k, cell n in reading order; tree codes as ``games/tataraba/data.py``).
Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.tataraba import board as B
from games.tataraba.data import EIDAI, TATARA, TREE_NAMES
from games.tataraba.state import TatarabaState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, plural, words

STAGES = {"y": "young ", "2": "growing ", "a": "adult ", "-": ""}


def _tile(state: TatarabaState, t: int, name) -> str:
    code = state.tiles[t]
    if not code:
        return "empty"
    kind, stage, owner = code[0], code[1], code[2]
    what = {TATARA: "Tatara", EIDAI: "Eidai Tatara"}.get(kind) or STAGES.get(stage, "") + TREE_NAMES.get(kind, kind)
    if owner.isdigit() and int(owner) < len(state.players):
        what = f"{name(state.players[int(owner)])}'s {what}"
    return what


def _pieces(state: TatarabaState, t: int, name) -> str:
    here = [name(state.players[i]) for i, seat in enumerate(state.seats) if seat.pos == t]
    return f", {' and '.join(here)} here" if here else ""


def _where(state: TatarabaState, name):
    def where(locus: str) -> str:
        kind, _, ref = locus.partition(":")
        if kind != "tile":
            return ""
        try:
            t = B.tile_index(ref)
        except ValueError:
            return ""
        return _tile(state, t, name) + _pieces(state, t, name)
    return where


def _seat(state: TatarabaState, i: int, name) -> str:
    s = state.seats[i]
    at = f"at {B.tile_name(s.pos)}" if s.pos >= 0 else "not placed yet"
    return (f"{name(state.players[i])} {at}: {s.sen} Sen, {s.mat} material, "
            f"{plural(s.foot, 'Foot marker')}.")


def _around(state: TatarabaState, name) -> str:
    s = state.seats[state.turn]
    if s.pos < 0:
        return ""
    board = s.pos // 9
    tiles = [f"{B.tile_name(t)} {_tile(state, t, name)}" for t in range(board * 9, board * 9 + 9) if state.tiles[t]]
    return f"Board {board + 1} around {name(state.players[state.turn])}: " + (", ".join(tiles) or "all empty") + "."


def alt_text(state: TatarabaState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tataraba's alt text (≤ ``limit``, default 1,024 characters): the decision, each option's key with what stands on its tile, the
    current player's board and every player's goods. Game over: the result."""
    name = namer(state, names)
    game = games.get("tataraba")
    seats = " ".join(_seat(state, i, name) for i in range(len(state.players)))
    if not game.pending(state):
        res = game.result(state)
        head = "Forest of Tataraba, game over."
        if res is not None:
            head += " " + words(res.reason, name)
        return fit([Part(head, rank=200), Part(seats, rank=50)], limit)
    return fit([Part(f"Forest of Tataraba, round {state.round + 1}.", rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(_around(state, name), rank=70), Part(seats, rank=60)], limit)


def board_words(state: TatarabaState, names: dict[str, str]) -> list[str]:
    """The whole forest, one line per board, then each player: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [f"Forest of Tataraba, round {state.round + 1}. {name(state.players[state.turn])} to play."]
    for b in range(len(state.tiles) // 9):
        tiles = [f"{B.tile_name(t)} {_tile(state, t, name)}{_pieces(state, t, name)}" for t in range(b * 9, b * 9 + 9)]
        lines.append(f"Board {b + 1}: " + "; ".join(tiles) + ".")
    lines += [_seat(state, i, name) for i in range(len(state.players))]
    return chunks(lines)
