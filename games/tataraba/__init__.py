"""Forest of Tataraba (``shared/rules/tataraba.md``, RULINGS FT-1..FT-8)."""

from games.tataraba.game import Tataraba
from games.tataraba.state import Seat, TatarabaOptions, TatarabaState

GAME = Tataraba()

__all__ = ["GAME", "Seat", "Tataraba", "TatarabaOptions", "TatarabaState"]
