"""Tatsumi: dragons gather elemental rings from a 5x5 seaboard, offer them at shrines and heal their island
(rulebook ``tatsumi.md``; RULINGS TM-1..TM-19, C-1..C-4). 2-4 players; 5 with the Void; 1 in solo mode.

Modules:

- :mod:`.game` — :class:`TatsumiGame`, the contract (setup, pending, apply, result, resign, status).
- :mod:`.state` — the pydantic models (options, seats, turn, weather cards, solo board) and a fast copy.
- :mod:`.rules` — setup and the turn as small decisions: fly, gather, offer, placement, overflow, scales, the end.
- :mod:`.data` — designed tables (seaboard, shrines, Tatsumi Island, summoning cards); :mod:`.islands_data` the six
  asymmetric islands (TM-15); :mod:`.solo_data` the solo cards, weather names and solo ranks (TM-13, TM-14).
- :mod:`.island` (geometry, placement, mastery), :mod:`.seaboard` (wells, fly, gather, shrines), :mod:`.cards`
  (summoning cards and scoring).
- :mod:`.dragons` (asymmetric gathering; the setup choices: dragons, island boards, card sides, TM-16),
  :mod:`.void` (the Void, TM-1, TM-17), :mod:`.weather` (TM-13, TM-18), :mod:`.solo` (TM-14, TM-19).
- :mod:`.ai` (greedy player), :mod:`.help` (``/rules`` texts).
"""

from games.tatsumi.game import TatsumiGame
from games.tatsumi.state import TatsumiOptions, TatsumiState

GAME = TatsumiGame()

__all__ = ["GAME", "TatsumiGame", "TatsumiOptions", "TatsumiState"]
