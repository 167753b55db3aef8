"""Where on the board a Tatsumi option points (``Option.locus``; the numbered markers).

Vocabulary (the renderer :mod:`renderers.tatsumi` knows how to find each):

- ``well:<well>`` — a well of the seaboard (``well:c3``): fly, lift, gather, Fujinsama's dash, Mizuchisama's dive.
- ``breath:<dir>`` — Karyusama's breath out of its well towards ``n``/``e``/``s``/``w``.
- ``shrine:<element>`` — the shrine tile of an element (``shrine:fire``): offerings.
- ``card:<card>`` — a summoning card in play (``card:koi``): a scale from a back side, a blessing or Flying Fish.
- ``island:<player>:<space>`` — a space of a player's island (``island:p0:C4``): placing a ring.
- ``pair:<player>:<space>-<space>`` — two neighbouring spaces of a player's island (``pair:p0:C4-C5``): a weather
  swap (TM-13).
- ``weather:<side>:<row>`` — a sand dollar row of a weather card (``weather:minor:card``, ``weather:major:beside``):
  where a depleted well's sand dollar comes from (TM-13).

Other options (end turn, Blackbird, stop, skip, overflow, setup sides, the solo step) have no place: ``None``.
"""

from __future__ import annotations


def locus(player: str, option_id: str) -> str | None:
    """The locus of option ``option_id`` of a decision answered by ``player`` (a player id), or None."""
    kind, _, arg = option_id.partition(":")
    if kind in ("fly", "gather", "dash", "dive"):
        return f"well:{arg}"
    if kind in ("breath", "shrine", "card"):
        return option_id
    if kind == "offer":
        return f"shrine:{arg}"
    if kind == "sand":
        return f"weather:{arg}"
    if kind == "swap" and arg:
        return f"pair:{player}:{arg}"
    if "@" in option_id:
        return f"island:{player}:{option_id.split('@', 1)[1]}"
    return None
