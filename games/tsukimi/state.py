"""Tsukimi's state and lobby options (pydantic, JSON round-trips exactly)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from games.core import BaseState

Phase = Literal["choose", "place", "effects", "move_to", "over"]


class TsukimiOptions(BaseModel):
    """Lobby options: which side of the Moon (rulebook "The Dark Side of the Moon") and which clan starts (TS-1)."""

    side: Literal["light", "dark"] = "light"
    first: Literal["white", "purple"] = "white"


class TsukimiState(BaseState):
    """One game of Tsukimi. Seat 0 is the white clan, seat 1 the purple clan (TS-1).

    - ``circle``: the 19 slots of the tile circle in clockwise order; a tile id (0 = Temple, 1-18 mochi, see
      ``data.TILES``) or None for a gap left by a taken tile (TS-4).
    - ``board``: space name -> tile id placed there (TS-2 names).
    - ``rabbits``: canonical vertex name -> seat of the rabbit on it (at most one per vertex, TS-2).
    - ``reserve`` / ``box``: rabbits per seat in each clan's reserve and (of that colour) in the box.
    - ``turn``: seat to play. ``phase``: what the turn waits for. ``tile`` / ``space``: the tile taken this turn
      and where it went. ``places_left`` / ``moves_left``: unused tile effects; ``placed``: rabbits placed this turn; ``placing_done`` closes the
      placing effect once a move was made after a placement (TS-9); ``discards_left``: rival rabbits still to discard
      (TS-6). ``moving_from``: the rabbit picked for a move, awaiting its destination.
    """

    side: Literal["light", "dark"] = "light"
    circle: list[int | None] = Field(default_factory=list)
    board: dict[str, int] = Field(default_factory=dict)
    rabbits: dict[str, int] = Field(default_factory=dict)
    reserve: list[int] = Field(default_factory=lambda: [15, 15])
    box: list[int] = Field(default_factory=lambda: [0, 0])
    turn: int = 0
    phase: Phase = "choose"
    tile: int | None = None
    space: str | None = None
    places_left: int = 0
    moves_left: int = 0
    placed: int = 0
    placing_done: bool = False
    discards_left: int = 0
    moving_from: str | None = None
