"""Tsukimi in words: the tiles on the Moon's spaces, whose rabbits sit on which vertices, and the tile circle
(rulebook "The Moon", RULINGS TS-1..TS-9; space and vertex names as TS-2). Shapes as in :mod:`renderers.words`;
every piece is a :class:`games.core.Text` (catalogue domain ``tsukimi``)."""

from __future__ import annotations

import games
from games.core import T, Text
from games.tsukimi import board as B
from games.tsukimi.data import COLOUR_TEXT, SIDE_TEXT, tile_text
from games.tsukimi.rules import points_text
from games.tsukimi.state import TsukimiState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, listing, namer, pending_of

COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def _space(state: TsukimiState, space: str) -> Text:
    tile = state.board.get(space)
    return T("{space} {tile}", space=space, tile=tile_text(tile)) if tile is not None else T("{space} empty", space=space)


def _rabbit(state: TsukimiState, vertex: str, name) -> Text | str:
    seat = state.rabbits.get(vertex)
    return T("{player}'s rabbit", player=name(state.players[seat])) if seat is not None else ""


def _where(state: TsukimiState, name):
    def where(locus: str) -> Text | str:
        kind, _, ref = locus.partition(":")
        if kind == "vertex" and ref in B.VERTEX_SPACES:
            near = Text.join(COMMA, [_space(state, s) for s in B.VERTEX_SPACES[ref] if s in state.board])
            who = _rabbit(state, ref, name)
            beside = T("by {tiles}", tiles=near) if near else T("no tile beside it")
            return T("{rabbit} here; {beside}", rabbit=who, beside=beside) if who else beside
        if kind == "space" and ref in B.NEIGHBOURS:
            tiles = [_space(state, s) for s in B.NEIGHBOURS[ref] if s in state.board]
            return T("next to {tiles}", tiles=Text.join(COMMA, tiles)) if tiles else T("no tile next to it")
        return ""
    return where


def _rabbits(state: TsukimiState, name) -> list[Text]:
    out = []
    for seat, p in enumerate(state.players):
        spots = [B.VERTEX_NAMES[v][0] for v in B.VERTICES if state.rabbits.get(v) == seat]
        where = Text.join(COMMA, spots) if spots else T("none")
        out.append(T("{player}'s rabbits: {spots}; {n} in reserve.", player=name(p), spots=where,
                     n=state.reserve[seat]))
    return out


def _tiles(state: TsukimiState) -> Text:
    placed = [_space(state, s) for s in B.SPACES if s in state.board]
    none = T("none yet")
    return T("Tiles: {tiles}.", tiles=Text.join(COMMA, placed) if placed else none)


def alt_text(state: TsukimiState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tsukimi's alt text (≤ ``limit``, default 1,024 characters): the decision; each option's key with the tiles and rabbits next to
    its place; the rabbits; the tiles. Game over: the result."""
    name = namer(state, names)
    game = games.get("tsukimi")
    if not pending_of(game, state):
        res = game.result(state)
        head = T("Tsukimi, game over.")
        if res is not None:
            points = [T("{player} {points}", player=name(p), points=points_text(v))
                      for p, v in res.scores.items()]
            head = T("Tsukimi, game over. {winners} won. {points}.", winners=listing([name(p) for p in res.winners]),
                     points=Text.join(COMMA, points))
        return fit([Part(head, rank=200), Part(Text.join(" ", _rabbits(state, name)), rank=50),
                    Part(_tiles(state), rank=40)], limit)
    who = name(state.players[state.turn])
    return fit([Part(T("Tsukimi: {player} ({colour} clan) plays.", player=who, colour=COLOUR_TEXT[state.turn]),
                     rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(Text.join(" ", _rabbits(state, name)), rank=60), Part(_tiles(state), rank=50)], limit)


def board_words(state: TsukimiState, names: dict[str, str]) -> list[str]:
    """The whole Moon, space by space, then the rabbits and the tile circle: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines: list[Text] = [T("Tsukimi, {side} side of the Moon. {player} to play.", side=SIDE_TEXT[state.side],
                           player=name(state.players[state.turn]))]
    for s in B.SPACES:
        rabbits = [T("{rabbit} on {corner}", rabbit=_rabbit(state, v, name), corner=B.corner_name(s, v))
                   for v in B.SPACE_VERTICES[s] if v in state.rabbits]
        lines.append(T("{space}: {rabbits}.", space=_space(state, s), rabbits=Text.join(COMMA, rabbits)) if rabbits
                     else T("{space}.", space=_space(state, s)))
    lines += _rabbits(state, name)
    circle = [tile_text(t) for t in state.circle if t is not None]
    empty = T("empty")
    lines.append(T("Tile circle, clockwise: {tiles}.", tiles=Text.join(COMMA, circle) if circle else empty))
    return chunks(lines)
