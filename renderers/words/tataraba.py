"""Forest of Tataraba in words: each player's piece, Sen, material and Foot markers, and the tiles around the
current player (tile names ``k-n``: board k, cell n in reading order; tree codes as ``games/tataraba/data.py``).
Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.core import SEMICOLON, N, T, Tc, Text
from games.tataraba import board as B
from games.tataraba.data import EIDAI, TATARA, TREE_TEXT
from games.tataraba.rules import COMMA
from games.tataraba.state import TatarabaState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, pending_of, words


def _stage(stage: str, tree: Text) -> Text:
    """A tree with its stage: ``young Cedar``, ``growing Cedar`` (its "2" side), ``adult Oak``."""
    if stage == "y":
        return T("young {tree}", tree=tree)
    if stage == "2":
        return T("growing {tree}", tree=tree)
    if stage == "a":
        return T("adult {tree}", tree=tree)
    return tree


def _tile(state: TatarabaState, t: int, name) -> str:
    code = state.tiles[t]
    if not code:
        return Tc("tataraba tile", "empty")  # a tile with nothing on it: 空きマス (Tsukimi's empty circle is 空)
    kind, stage, owner = code[0], code[1], code[2]
    what = {TATARA: T("Tatara"), EIDAI: T("Eidai Tatara")}.get(kind) or _stage(stage, TREE_TEXT.get(kind, kind))
    if owner.isdigit() and int(owner) < len(state.players):
        what = T("{player}'s {thing}", player=name(state.players[int(owner)]), thing=what)
    return what


def _pieces(state: TatarabaState, t: int, name) -> str:
    here = [name(state.players[i]) for i, seat in enumerate(state.seats) if seat.pos == t]
    if not here:
        return ""
    players = here[0]
    for other in here[1:]:
        players = T("{a} and {b}", a=players, b=other)
    return T(", {players} here", players=players)


def _where(state: TatarabaState, name):
    def where(locus: str) -> str:
        kind, _, ref = locus.partition(":")
        if kind != "tile":
            return ""
        try:
            t = B.tile_index(ref)
        except ValueError:
            return ""
        return Text.join("", [_tile(state, t, name), _pieces(state, t, name)])
    return where


def _seat(state: TatarabaState, i: int, name) -> str:
    s = state.seats[i]
    if s.pos < 0:
        return N("{player}, not placed yet: {sen} Sen, {mat} material, {n} Foot marker.",
                 "{player}, not placed yet: {sen} Sen, {mat} material, {n} Foot markers.", n=s.foot,
                 player=name(state.players[i]), sen=s.sen, mat=s.mat)
    return N("{player} at {tile}: {sen} Sen, {mat} material, {n} Foot marker.",
             "{player} at {tile}: {sen} Sen, {mat} material, {n} Foot markers.", n=s.foot,
             player=name(state.players[i]), tile=B.tile_name(s.pos), sen=s.sen, mat=s.mat)


def _around(state: TatarabaState, name) -> str:
    s = state.seats[state.turn]
    if s.pos < 0:
        return ""
    board = s.pos // 9
    tiles = [T("{tile} {thing}", tile=B.tile_name(t), thing=_tile(state, t, name))
             for t in range(board * 9, board * 9 + 9) if state.tiles[t]]
    return T("Board {board} around {player}: {tiles}.", board=board + 1, player=name(state.players[state.turn]),
             tiles=Text.join(COMMA, tiles) if tiles else T("all empty"))


def alt_text(state: TatarabaState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tataraba's alt text (≤ ``limit``, default 1,024 characters): the decision, each option's key with what stands on its tile, the
    current player's board and every player's goods. Game over: the result."""
    name = namer(state, names)
    game = games.get("tataraba")
    seats = Text.join(" ", [_seat(state, i, name) for i in range(len(state.players))])
    if not pending_of(game, state):
        res = game.result(state)
        head = T("Forest of Tataraba, game over.")
        if res is not None:
            head = T("Forest of Tataraba, game over. {reason}", reason=words(res.reason, name))
        return fit([Part(head, rank=200), Part(seats, rank=50)], limit)
    return fit([Part(T("Forest of Tataraba, round {round}.", round=max(state.round, 1)), rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(_around(state, name), rank=70), Part(seats, rank=60)], limit)


def board_words(state: TatarabaState, names: dict[str, str]) -> list[str]:
    """The whole forest, one line per board, then each player: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [T("Forest of Tataraba, round {round}. {player} to play.", round=max(state.round, 1),
               player=name(state.players[state.turn]))]
    for b in range(len(state.tiles) // 9):
        tiles = [T("{tile} {thing}{here}", tile=B.tile_name(t), thing=_tile(state, t, name), here=_pieces(state, t, name))
                 for t in range(b * 9, b * 9 + 9)]
        lines.append(T("Board {board}: {tiles}.", board=b + 1, tiles=Text.join(SEMICOLON, tiles)))
    lines += [_seat(state, i, name) for i in range(len(state.players))]
    return chunks(lines)
