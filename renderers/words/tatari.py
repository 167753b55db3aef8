"""Tatari in words: dice rolled and set aside, shrines 7-10, the Shrine box and every stash (rulebook "Setup",
RULINGS TA-2..TA-10). Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.tatari.state import TatariState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, plural

SHRINES = ("7", "8", "9", "10")


def _dice(state: TatariState) -> str:
    bits = []
    if state.rolled:
        bits.append("Rolled: " + ", ".join(state.rolled) + ".")
    if state.set_aside:
        bits.append(f"Set aside: {', '.join(state.set_aside)} (total {state.total}, {plural(state.dolls, 'doll')}).")
    return " ".join(bits)


def _shrines(state: TatariState) -> str:
    return ("Shrines: " + ", ".join(f"{k} has {plural(state.shrines.get(k, 0), 'doll')}" for k in SHRINES)
            + f"; Shrine box {state.box}.")


def _stashes(state: TatariState, name) -> str:
    return "Stashes: " + ", ".join(
        f"{name(p)} {state.stashes.get(p, 0)}" + (" (out)" if p in state.out else "") for p in state.players) + "."


def alt_text(state: TatariState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatari's alt text (≤ ``limit``, default 1,024 characters): the decision and its options, the dice, shrines and stashes; at the
    end, the winner and the dolls left (fewest wins, TA-10)."""
    name = namer(state, names)
    game = games.get("tatari")
    if not game.pending(state):
        return fit([Part("Tatari, game over.", rank=200),
                    Part(f"{name(state.winner)} wins." if state.winner else "", rank=150),
                    Part(_stashes(state, name), rank=50), Part(_shrines(state), rank=10)], limit)
    head = Part(f"Tatari, turn {state.turn_number}: {name(state.current)} holds the Cursed box.", rank=90)
    return fit([head, *decision_parts(game, state, name), Part(_dice(state), rank=80),
                Part(_shrines(state), rank=60), Part(_stashes(state, name), rank=40)], limit)


def board_words(state: TatariState, names: dict[str, str]) -> list[str]:
    """The whole Tatari board: chunks of ≤ 1,900 characters (one line per part)."""
    name = namer(state, names)
    lines = [f"Tatari, turn {state.turn_number}. {name(state.current)} holds the Cursed box."]
    if state.winner:
        lines.append(f"{name(state.winner)} won.")
    lines += [_dice(state) or "No dice on the table.", _shrines(state)]
    lines += [f"{name(p)}: {plural(state.stashes.get(p, 0), 'doll')}" + (", resigned" if p in state.out else "")
              for p in state.players]
    return chunks([ln for ln in lines if ln])
