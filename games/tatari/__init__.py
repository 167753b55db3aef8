"""Tatari (``shared/rules/tatari.md``, RULINGS TA-1..TA-10)."""

from games.tatari.rules import FACES, SHRINES, Tatari, TatariOptions, TatariState

GAME = Tatari()

__all__ = ["FACES", "GAME", "SHRINES", "Tatari", "TatariOptions", "TatariState"]
