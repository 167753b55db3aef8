"""Tatamokatsu in words: fingers, the dice and what the open race asks (rulebook "Sum Ranges", "Special Actions",
RULINGS TK-1..TK-9). Shapes as in :mod:`renderers.words`; every piece is a :class:`games.core.Text` (catalogue
domain ``tatamokatsu``)."""

from __future__ import annotations

import games
from games.core import T, Text
from games.tatamokatsu.rules import INPUT_NAMES, SEMICOLON, fingers_text
from games.tatamokatsu.state import TatamokatsuState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, listing, namer, pending_of

RACE_RULES = T("Shout if the sum can be 10 or 17; grab the T die if it shows; Katana if all three dice match; "
               "salute (Hai) at 11 to 16.")
COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def _fingers(state: TatamokatsuState, name) -> Text:
    hands = [T("{player} {n}", player=name(p), n=state.fingers.get(p, 0)) for p in state.players]
    return T("Fingers: {hands}.", hands=Text.join(COMMA, hands))


def _dice(state: TatamokatsuState) -> Text | str:
    if not state.dice:
        return ""
    faces = Text.join(COMMA, [f"{d} {f}" for d, f in zip("ABC", state.dice, strict=False)])
    text = T("Last roll: {dice}.", dice=faces) if state.phase == "roll" else T("Dice: {dice}.", dice=faces)
    if state.total is not None:
        text = T("{dice} Sum {total}.", dice=text, total=state.total)
    return text


def alt_text(state: TatamokatsuState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatamokatsu's alt text (≤ ``limit``, default 1,024 characters): the decision, its options, the dice, the fingers and, in a race,
    what each input answers; at the end, who won."""
    name = namer(state, names)
    game = games.get("tatamokatsu")
    if not pending_of(game, state):
        won = listing([name(p) for p in state.winners])
        return fit([Part(T("Tatamokatsu, game over."), rank=200),
                    Part(T("{players} won.", players=won) if won else "", rank=150),
                    Part(_fingers(state, name), rank=50)], limit)
    race = state.phase in ("race", "salute")
    return fit([Part(T("Tatamokatsu: {player} rolls.", player=name(state.roller)), rank=90),
                *decision_parts(game, state, name),
                Part(_dice(state), rank=95), Part(RACE_RULES if race else "", rank=60),
                Part(_fingers(state, name), rank=80)], limit)


def board_words(state: TatamokatsuState, names: dict[str, str]) -> list[str]:
    """The whole Tatamokatsu table: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [T("Tatamokatsu. {player} rolls, roll {n}.", player=name(state.roller), n=state.rolls),
             _dice(state) or T("No dice rolled yet.")]
    lines += [T("{player}: {hand}", player=name(p), hand=fingers_text(state.fingers.get(p, 0)))
              for p in state.players]
    if state.last_race:
        inputs = [T("{player} {input} at {ms} ms", player=name(e.player), input=INPUT_NAMES[e.input], ms=e.ms)
                  for e in state.last_race]
        lines.append(T("Last race: {inputs}.", inputs=Text.join(SEMICOLON, inputs)))
    if state.winners:
        lines.append(T("{players} won.", players=listing([name(p) for p in state.winners])))
    return chunks(lines)
