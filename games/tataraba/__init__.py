"""Forest of Tataraba (``shared/rules/tataraba.md``, RULINGS FT-1..FT-10, C-1..C-4).

Modules: ``data`` (numbers and designed data), ``board`` (layouts, tiles ``k-n``, adjacency), ``state`` (models,
lobby options), ``rules`` (the rules as functions), ``game`` (decisions and the :class:`Tataraba` contract),
``ai`` (greedy player), ``help`` (``/rules`` texts).

Readings of the rulebook (where it leaves a choice; the rulings are followed as written):

- The first seat is the starting player (the rulebook lets the table pick anyone).
- Stuck (no move exists): the piece may pass through one of the other players' Tataras next to it onto an open tile
  beyond, for 1 step, and the move goes on as usual (FT-10). Stuck otherwise: the piece stays; Foot markers are
  used whenever they allow a move, since then the only options cost them.
- An Eidai Tatara is a Tatara piece for movement (its owner may pass and stop on it; others may not enter).
- When the Eidai ending has builders, they rank above everyone else; within a group, more Sen, then more material.
- A Beech is needed and none is left: the trees already changed by that step stay changed; the rest of the step and
  the remaining cards are not processed.
- Safety stops (FT-9), scored like "Beech runs out" and announced (``state.end``, an ``end`` event): the lobby's round
  limit (default 60), and an exhausted forest, only when it is certain that nobody can ever build an Eidai Tatara
  or take another action that uses up a Beech.
"""

from games.tataraba.game import Tataraba
from games.tataraba.state import Seat, TatarabaOptions, TatarabaState

GAME = Tataraba()

__all__ = ["GAME", "Seat", "Tataraba", "TatarabaOptions", "TatarabaState"]
