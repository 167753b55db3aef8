"""Tatamokatsu: a real-time dice reaction game (rulebook ``tatamokatsu.md``; RULINGS TK-1..TK-11).

Modules: ``data`` (dice and ids), ``dice`` (sums and the roller's counts), ``state`` (models), ``rules``
(resolutions), ``game`` (the contract), ``ai`` (greedy and a race-aware driver), ``help`` (``/rules`` texts).
"""

from games.tatamokatsu.game import Tatamokatsu, word_to_input

GAME = Tatamokatsu()

__all__ = ["GAME", "Tatamokatsu", "word_to_input"]
