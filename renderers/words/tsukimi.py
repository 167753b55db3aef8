"""Tsukimi in words: the tiles on the Moon's spaces, whose rabbits sit on which vertices, and the tile circle
(rulebook "The Moon", RULINGS TS-1..TS-9; space and vertex names as TS-2). Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.tsukimi import board as B
from games.tsukimi.data import tile_name
from games.tsukimi.state import TsukimiState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, listing, namer, plural


def _space(state: TsukimiState, space: str) -> str:
    tile = state.board.get(space)
    return f"{space} {tile_name(tile)}" if tile is not None else f"{space} empty"


def _rabbit(state: TsukimiState, vertex: str, name) -> str:
    seat = state.rabbits.get(vertex)
    return f"{name(state.players[seat])}'s rabbit" if seat is not None else ""


def _where(state: TsukimiState, name):
    def where(locus: str) -> str:
        kind, _, ref = locus.partition(":")
        if kind == "vertex" and ref in B.VERTEX_SPACES:
            near = ", ".join(_space(state, s) for s in B.VERTEX_SPACES[ref] if s in state.board)
            who = _rabbit(state, ref, name)
            return (f"{who} here; " if who else "") + (f"by {near}" if near else "no tile beside it")
        if kind == "space" and ref in B.NEIGHBOURS:
            tiles = [_space(state, s) for s in B.NEIGHBOURS[ref] if s in state.board]
            return "next to " + ", ".join(tiles) if tiles else "no tile next to it"
        return ""
    return where


def _rabbits(state: TsukimiState, name) -> list[str]:
    out = []
    for seat, p in enumerate(state.players):
        spots = [B.VERTEX_NAMES[v][0] for v in B.VERTICES if state.rabbits.get(v) == seat]
        out.append(f"{name(p)}'s rabbits: {', '.join(spots) if spots else 'none'}; "
                   f"{state.reserve[seat]} in reserve.")
    return out


def _tiles(state: TsukimiState) -> str:
    placed = [_space(state, s) for s in B.SPACES if s in state.board]
    return "Tiles: " + (", ".join(placed) if placed else "none yet") + "."


def alt_text(state: TsukimiState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tsukimi's alt text (≤ ``limit``, default 1,024 characters): the decision; each option's key with the tiles and rabbits next to
    its place; the rabbits; the tiles. Game over: the result."""
    name = namer(state, names)
    game = games.get("tsukimi")
    if not game.pending(state):
        res = game.result(state)
        head = "Tsukimi, game over."
        if res is not None:
            head += " " + listing([name(p) for p in res.winners]) + " won. " + ", ".join(
                f"{name(p)} {plural(v, 'point')}" for p, v in res.scores.items()) + "."
        return fit([Part(head, rank=200), Part(" ".join(_rabbits(state, name)), rank=50),
                    Part(_tiles(state), rank=40)], limit)
    who = name(state.players[state.turn])
    return fit([Part(f"Tsukimi: {who} ({('white', 'purple')[state.turn]} clan) plays.", rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(" ".join(_rabbits(state, name)), rank=60), Part(_tiles(state), rank=50)], limit)


def board_words(state: TsukimiState, names: dict[str, str]) -> list[str]:
    """The whole Moon, space by space, then the rabbits and the tile circle: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [f"Tsukimi, {state.side} side of the Moon. {name(state.players[state.turn])} to play."]
    for s in B.SPACES:
        rabbits = [f"{_rabbit(state, v, name)} on {B.corner_name(s, v)}" for v in B.SPACE_VERTICES[s]
                   if v in state.rabbits]
        lines.append(_space(state, s) + (": " + ", ".join(rabbits) if rabbits else "") + ".")
    lines += _rabbits(state, name)
    circle = [tile_name(t) for t in state.circle if t is not None]
    lines.append("Tile circle, clockwise: " + (", ".join(circle) if circle else "empty") + ".")
    return chunks(lines)
