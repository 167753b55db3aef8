"""Tatari's options and state models (pydantic; the state round-trips exactly through JSON)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from games.core import BaseState
from games.tatari.data import FACE_DOLLS, FACE_VALUE

Phase = Literal["select", "fate", "bust", "give", "over"]


class TatariOptions(BaseModel):
    """Lobby options. ``first``: who holds the Cursed box first — the first seat ("host") or a seeded draw
    (rulebook "Setup": the players decide; a draw is our stand-in for rock-paper-scissors)."""

    first: Literal["host", "random"] = "host"


class TatariState(BaseState):
    """A Tatari position.

    ``stashes``: player -> dolls (0..10); ``shrines``: "7".."10" -> dolls; ``box``: dolls in the Shrine box
    (shrine 11, out of play); ``current``: the player whose turn it is; ``phase``: the decision waited for
    (``select`` a face, ``fate`` continue or stop, ``bust`` which shrine to take, ``give`` to whom, ``over``);
    ``rolled``: faces of the dice just rolled (still in the box); ``set_aside``: faces set aside this turn;
    ``out``: players who resigned; ``winner``; ``turn_number``: 1 for the first turn.
    """

    game: str = "tatari"
    stashes: dict[str, int]
    shrines: dict[str, int]
    box: int
    current: str
    phase: Phase = "select"
    rolled: list[str] = Field(default_factory=list)
    set_aside: list[str] = Field(default_factory=list)
    out: list[str] = Field(default_factory=list)
    winner: str | None = None
    turn_number: int = 1

    @property
    def total(self) -> int:
        """Sum of the set-aside number faces (TA-2)."""
        return sum(FACE_VALUE[f] for f in self.set_aside)

    @property
    def dolls(self) -> int:
        """Dolls counted on the set-aside dice (TA-2)."""
        return sum(FACE_DOLLS[f] for f in self.set_aside)

    def in_play(self) -> list[str]:
        """Players who have not resigned, in seat order (C-2)."""
        return [p for p in self.players if p not in self.out]

    def clone(self) -> TatariState:
        """A copy sharing nothing mutable with this state (faster than a deep copy; ``apply`` never mutates its
        input)."""
        return self.model_copy(
            update={
                "stashes": dict(self.stashes),
                "shrines": dict(self.shrines),
                "rolled": list(self.rolled),
                "set_aside": list(self.set_aside),
                "out": list(self.out),
                "rng": self.rng.model_copy(update={"forced": list(self.rng.forced)}),
            }
        )
