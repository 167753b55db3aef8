"""Tatamokatsu in words: fingers, the dice and what the open race asks (rulebook "Sum Ranges", "Special Actions",
RULINGS TK-1..TK-9). Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.tatamokatsu.state import TatamokatsuState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, listing, namer, plural

RACE_RULES = ("Shout if the sum can be 10 or 17; grab the T die if it shows; Katana if all three dice match; "
              "salute (Hai) at 11 to 16.")


def _fingers(state: TatamokatsuState, name) -> str:
    return "Fingers: " + ", ".join(f"{name(p)} {state.fingers.get(p, 0)}" for p in state.players) + "."


def _dice(state: TatamokatsuState) -> str:
    if not state.dice:
        return ""
    lead = "Last roll: " if state.phase == "roll" else "Dice: "
    text = lead + ", ".join(f"{d} {f}" for d, f in zip("ABC", state.dice, strict=False)) + "."
    if state.total is not None:
        text += f" Sum {state.total}."
    return text


def alt_text(state: TatamokatsuState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatamokatsu's alt text (≤ ``limit``, default 1,024 characters): the decision, its options, the dice, the fingers and, in a race,
    what each input answers; at the end, who won."""
    name = namer(state, names)
    game = games.get("tatamokatsu")
    if not game.pending(state):
        won = listing([name(p) for p in state.winners])
        return fit([Part("Tatamokatsu, game over.", rank=200), Part(f"{won} won." if won else "", rank=150),
                    Part(_fingers(state, name), rank=50)], limit)
    race = state.phase in ("race", "salute")
    return fit([Part(f"Tatamokatsu: {name(state.roller)} rolls.", rank=90), *decision_parts(game, state, name),
                Part(_dice(state), rank=95), Part(RACE_RULES if race else "", rank=60),
                Part(_fingers(state, name), rank=80)], limit)


def board_words(state: TatamokatsuState, names: dict[str, str]) -> list[str]:
    """The whole Tatamokatsu table: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [f"Tatamokatsu. {name(state.roller)} rolls, roll {state.rolls}.", _dice(state) or "No dice rolled yet."]
    lines += [f"{name(p)}: {plural(state.fingers.get(p, 0), 'finger')}" for p in state.players]
    if state.last_race:
        lines.append("Last race: " + "; ".join(f"{name(e.player)} {e.input} at {e.ms} ms" for e in state.last_race)
                     + ".")
    if state.winners:
        lines.append(f"{listing([name(p) for p in state.winners])} won.")
    return chunks(lines)
