"""State models of Forest of Tataraba (pydantic; JSON round-trips exactly)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from games.core import BaseState, T, Text
from games.tataraba.board import layout_for, normalise_layout
from games.tataraba.data import (
    BEECHES,
    BOARDS_FOR,
    CEDARS,
    DEFAULT_ROUND_LIMIT,
    EIDAIS,
    FOOT_START,
    OAKS,
    PINES,
    TATARAS,
)

Phase = Literal["place", "move", "action", "plant", "log", "special", "tatara", "eidai", "over"]
"""What the game waits for: ``place`` the first Tatara, ``move`` the piece, choose an ``action``, choose where to
``plant`` / what to ``log``, a ``special`` action or the end of the turn, where to build a ``tatara`` / ``eidai``."""

EndReason = Literal["", "eidai", "beech", "exhausted", "limit"]


class TatarabaOptions(BaseModel):
    """Lobby options (all simple types).

    ``layout``: rows of board numbers separated by ``/`` (``.`` a gap), e.g. ``"123/456"``; empty = the default for
    the player count (FT-1). It must hold boards 1..n for the player count, every board sharing a full edge with
    another (checked at setup). ``round_limit``: a designed safety stop (not in the rulebook): after that many
    rounds the game ends and is scored like "Beech runs out" (1..1000; a cap keeps a forest where every choice is
    forced from looping for ever).
    """

    layout: str = ""
    round_limit: int = Field(default=DEFAULT_ROUND_LIMIT, ge=1, le=1000)

    @field_validator("layout")
    @classmethod
    def _layout_fits_some_table(cls, value: str) -> str:
        """A non-empty layout must be valid for 2, 3 or 4 players (boards 1-3, 1-5 or 1-6); setup then checks it
        against the players actually seated."""
        if not value.strip():
            return value
        normalise_layout(value)
        problems = []
        for n in BOARDS_FOR:
            try:
                layout_for(n, value)
                return value
            except ValueError as exc:
                problems.append(T("{n} players: {problem}", n=n, problem=exc.args[0] if exc.args else str(exc)))
        raise ValueError(T("the layout fits no table ({problems})", problems=Text.join(T("; "), problems)))


class Seat(BaseModel):
    """One player's pieces and tokens. Supply counts are pieces not yet on the board; ``*_gone`` are pieces that
    shifted into another tree and left the game. ``pos`` is the tile of the Player piece (-1 before placement)."""

    sen: int = 0
    mat: int = 0
    foot: int = FOOT_START
    pos: int = -1
    pine: int = PINES
    oak: int = OAKS
    cedar: int = CEDARS
    tatara: int = TATARAS
    eidai: int = EIDAIS
    pine_gone: int = 0
    oak_gone: int = 0
    cedar_gone: int = 0


class TatarabaState(BaseState):
    """The whole game. ``tiles[t]`` is ``""`` or a three-character code (``data.py``: kind, stage, owner seat).

    ``deck`` is the face-down shift deck (top first), ``shown`` the cards of the latest reveal, ``used`` the cards
    revealed earlier (reshuffled into a new deck when the deck runs out, FT-7). ``start`` is the starting player's
    seat, ``turn`` the seat to play, ``actions`` the normal actions left this turn (``actions_per_turn`` in all).
    """

    game: str = "tataraba"
    layout: str
    round_limit: int = DEFAULT_ROUND_LIMIT
    tiles: list[str]
    seats: list[Seat]
    deck: list[int]
    shown: list[int] = Field(default_factory=list)
    used: list[int] = Field(default_factory=list)
    beech: int = BEECHES
    start: int = 0
    turn: int = 0
    round: int = 0
    phase: Phase = "place"
    actions: int = 0
    actions_per_turn: int = 0
    end: EndReason = ""
