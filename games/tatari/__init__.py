"""Tatari: push-your-luck dice, cursed dolls on shrines 7-11 (``shared/rules/tatari.md``, RULINGS TA-1..TA-10).

Modules: ``data`` (faces, shrines, doll counts), ``state`` (models), ``rules`` (a turn's rule functions), ``game``
(the contract: setup, begin, pending, apply, result, hooks), ``ai`` (greedy), ``help`` (``/rules`` texts).
"""

from games.tatari.data import FACES, SHRINES
from games.tatari.game import Tatari
from games.tatari.state import TatariOptions, TatariState

GAME = Tatari()

__all__ = ["FACES", "GAME", "SHRINES", "Tatari", "TatariOptions", "TatariState"]
