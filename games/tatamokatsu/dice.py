"""Dice arithmetic of Tatamokatsu: values, sums, the roller's 1/10 choices (rulebook "Sum Ranges"; TK-2, TK-4, TK-6).

Dice are lists of three face strings from :mod:`games.tatamokatsu.data` (``"1"``..``"6"``, ``"1/10"``, ``"T"``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from games.tatamokatsu.data import FIX_PREFIX, ONE_OR_TEN, TATAMOKATSU_FACE, TATAMOKATSU_SUMS


class FixChoice(tuple):
    """``(option_id, values, total)``: one way the roller may fix the 1/10 dice.

    ``values`` has one int per die (A, B, C) after fixing; ``total`` is their sum.
    """

    __slots__ = ()

    @property
    def option_id(self) -> str:
        return self[0]

    @property
    def values(self) -> tuple[int, ...]:
        return self[1]

    @property
    def total(self) -> int:
        return self[2]


def shows_t(dice: list[str] | tuple[str, ...]) -> bool:
    """True when the Tatamokatsu face shows: the roll is a grab race only (TK-5)."""
    return TATAMOKATSU_FACE in dice


def is_triple(dice: list[str] | tuple[str, ...]) -> bool:
    """Three identical faces, "1/10" faces included (TK-7). The T face is on one die only, so never a triple."""
    return len(dice) == 3 and dice[0] == dice[1] == dice[2]


@lru_cache(maxsize=512)
def _all_choices(dice: tuple[str, ...]) -> tuple[FixChoice, ...]:
    wild = [i for i, f in enumerate(dice) if f == ONE_OR_TEN]
    base = sum(int(f) for f in dice if f not in (ONE_OR_TEN, TATAMOKATSU_FACE))
    out = []
    # Dice are interchangeable for the sum, so a choice is a multiset of 1s and 10s; ids list them ascending.
    for combo in combinations_with_replacement((1, 10), len(wild)):
        values = [0 if f == TATAMOKATSU_FACE else (0 if f == ONE_OR_TEN else int(f)) for f in dice]
        for i, v in zip(wild, combo, strict=True):
            values[i] = v
        total = base + sum(combo)
        oid = FIX_PREFIX + "+".join(str(v) for v in combo) if combo else FIX_PREFIX + "none"
        out.append(FixChoice((oid, tuple(values), total)))
    return tuple(out)


def all_choices(dice: list[str] | tuple[str, ...]) -> tuple[FixChoice, ...]:
    """Every way to count the 1/10 dice (one choice, id ``fix:none``, when there are none). Not for T rolls."""
    return _all_choices(tuple(dice))


def is_tatamokatsu(dice: list[str] | tuple[str, ...]) -> bool:
    """TK-4: the roll is a Tatamokatsu when some choice of 1/10 values makes the sum 10 or 17 (never with T)."""
    if shows_t(dice):
        return False
    return any(c.total in TATAMOKATSU_SUMS for c in _all_choices(tuple(dice)))


@lru_cache(maxsize=512)
def _offered(dice: tuple[str, ...]) -> tuple[FixChoice, ...]:
    choices = [c for c in _all_choices(dice) if c.total not in TATAMOKATSU_SUMS]
    return tuple(sorted(choices, key=lambda c: c.total))


def offered_choices(dice: list[str] | tuple[str, ...]) -> tuple[FixChoice, ...]:
    """TK-6: the choices offered to the roller, lowest sum first; those making 10 or 17 are never offered.

    Empty when every choice makes 10 or 17 (the roll then has no sum effect). With no 1/10 die, the one choice
    ``fix:none`` (the plain sum) unless that sum is 10 or 17. Not meaningful for T rolls (no sum effect).
    """
    return _offered(tuple(dice))


def sum_range(total: int) -> str:
    """Rulebook "Sum Ranges": ``"low"`` (< 10), ``"salute"`` (11-16), ``"high"`` (> 17) or ``"tatamokatsu"``."""
    if total in TATAMOKATSU_SUMS:
        return "tatamokatsu"
    if total < 10:
        return "low"
    if total <= 16:
        return "salute"
    return "high"
