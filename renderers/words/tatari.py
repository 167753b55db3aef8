"""Tatari in words: dice rolled and set aside, shrines 7-10, the Shrine box and every stash (rulebook "Setup",
RULINGS TA-2..TA-10). Shapes as in :mod:`renderers.words`; every piece is a :class:`games.core.Text` (catalogue
domain ``tatari``), so a presenter can say it in the reader's language."""

from __future__ import annotations

import games
from games.core import N, T, Text
from games.tatari.state import TatariState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, pending_of

SHRINES = ("7", "8", "9", "10")
COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def _dolls(n: int) -> Text:
    return N("{n} doll", "{n} dolls", n=n)


DIE_FACES = {"doll": T("doll"), "double": T("double")}
"""The dice's picture faces as the alt text names them (digits stay digits)."""


def _faces(faces: list[str]) -> Text:
    """Faces as listed: ``"1, doll, double"``."""
    return Text.join(COMMA, [DIE_FACES.get(f, f) for f in faces])


def _dice(state: TatariState) -> Text:
    bits = []
    if state.rolled:
        bits.append(T("Rolled: {faces}.", faces=_faces(state.rolled)))
    if state.set_aside:
        bits.append(T("Set aside: {faces} (total {total}, {pile}).", faces=_faces(state.set_aside),
                      total=state.total, pile=_dolls(state.dolls)))
    return Text.join(" ", bits)


def _shrines(state: TatariState) -> Text:
    each = [T("{shrine} has {pile}", shrine=k, pile=_dolls(state.shrines.get(k, 0))) for k in SHRINES]
    return T("Shrines: {shrines}; Shrine box {n}.", shrines=Text.join(COMMA, each), n=state.box)


def _stashes(state: TatariState, name) -> Text:
    each = [T("{player} {n} (out)", player=name(p), n=state.stashes.get(p, 0)) if p in state.out
            else T("{player} {n}", player=name(p), n=state.stashes.get(p, 0)) for p in state.players]
    return T("Stashes: {stashes}.", stashes=Text.join(COMMA, each))


def alt_text(state: TatariState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatari's alt text (≤ ``limit``, default 1,024 characters): the decision and its options, the dice, shrines and stashes; at the
    end, the winner and the dolls left (fewest wins, TA-10)."""
    name = namer(state, names)
    game = games.get("tatari")
    if not pending_of(game, state):
        return fit([Part(T("Tatari, game over."), rank=200),
                    Part(T("{player} wins.", player=name(state.winner)) if state.winner else "", rank=150),
                    Part(_stashes(state, name), rank=50), Part(_shrines(state), rank=10)], limit)
    head = Part(T("Tatari, turn {n}: {player} holds the Cursed box.", n=state.turn_number, player=name(state.current)),
                rank=90)
    return fit([head, *decision_parts(game, state, name), Part(_dice(state), rank=80),
                Part(_shrines(state), rank=60), Part(_stashes(state, name), rank=40)], limit)


def board_words(state: TatariState, names: dict[str, str]) -> list[str]:
    """The whole Tatari board: chunks of ≤ 1,900 characters (one line per part)."""
    name = namer(state, names)
    lines = [T("Tatari, turn {n}. {player} holds the Cursed box.", n=state.turn_number, player=name(state.current))]
    if state.winner:
        lines.append(T("{player} won.", player=name(state.winner)))
    lines += [_dice(state) or T("No dice on the table."), _shrines(state)]
    lines += [T("{player}: {pile}, resigned", player=name(p), pile=_dolls(state.stashes.get(p, 0))) if p in state.out
              else T("{player}: {pile}", player=name(p), pile=_dolls(state.stashes.get(p, 0)))
              for p in state.players]
    return chunks([ln for ln in lines if ln])
