"""Tatamokatsu's options and state models (pydantic; the state round-trips exactly through JSON)."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, BaseModel, Field

from games.core import BaseState
from games.tatamokatsu.data import DEFAULT_WINDOW_MS, MAX_TIE_TOLERANCE_MS, MAX_WINDOW_MS, MIN_WINDOW_MS

Phase = Literal["roll", "race", "fix", "salute", "choice", "victim", "over"]


class TatamokatsuOptions(BaseModel):
    """Lobby options (all defaulted, TK-3, TK-4).

    ``window_ms``: length of the reaction window after a roll, and of the salute window and of the roller's
    late-fix allowance (TK-3, TK-6), in ms. ``tie_tolerance_ms``: inputs this close to the first (or the last, for the
    Katana) count as a tie (TK-4, TK-7); 0 means only equal times tie.
    """

    window_ms: int = Field(DEFAULT_WINDOW_MS, ge=MIN_WINDOW_MS, le=MAX_WINDOW_MS)
    tie_tolerance_ms: int = Field(0, ge=0, le=MAX_TIE_TOLERANCE_MS)
    presence: bool = False
    """Presence, for a table whose players may not all be watching (play by chat; off by default, so the rules of a
    race are those of TK-1..13): a player who owed an input in a closed window (a Katana, TK-7; a salute, TK-6) and
    sent none is marked missing (``state.missing``) until they send any input or ``here``; a player marked missing
    when a roll opens its windows owes nothing in that roll (no finger lost for a Katana or a salute they did not
    make). A player present who does not react loses as TK-6 and TK-7 say. The table (the session) holds each roll
    while a person is marked missing; the engine only keeps the marks, so a replay re-derives them exactly."""


class RaceEntry(BaseModel):
    """One input of a closed window, for the record and the picture: ``ms`` after the roll; ``note`` one of
    ``"first"`` (the first valid input, won the race: TK-11), ``"mistake"`` (cost a finger, TK-8), ``"last"``
    (last Katana, TK-7), ``""``; ``window``: ``"race"`` (the roll's reaction window) or ``"salute"`` (made in the
    salute window, which opened when the race closed: subtract the race's length to time it from that opening)."""

    player: str
    input: str
    ms: int
    note: str = ""
    window: Literal["race", "salute"] = "race"


class Miss(BaseModel):
    """A player who owed an input and did not send it in time (a Katana on triples, a salute): it cost a finger."""

    player: str
    input: str


class TatamokatsuState(BaseState):
    """The whole game.

    - ``fingers``: player id -> fingers left, 0..5 (TK-1).
    - ``roller``: the player who rolls now or rolled last (TK-3).
    - ``phase``: what the game waits for: ``roll`` (the roller's roll), ``race`` (the reaction window), ``fix`` (the
      roller's count of the 1/10 dice, opened by the race's close: TK-6, TK-11), ``salute`` (the salute window),
      ``choice`` (the race winner's TK-4 choice), ``victim`` (the roller's victim above 17), ``over``.
    - ``dice``: the three faces of the last roll (A, B, C), ``values``: their counted values once fixed (T counts 0).
    - ``roll_ms``: the time of the roll; ``window_open_ms``: when the open window (race or salute) opened;
      ``deadline_ms``: the end of the open window or of the
      roller's late fix; ``now_ms``: the latest time the engine has settled on (a window's close, a fix).
    - ``anchored``: the open race window was moved to the roll message's time (the ``open`` system input, TK-10);
      at most once a roll.
    - ``inputs``: the open race's inputs: player -> input id -> earliest ``at_ms`` received (arrival order does not
      matter); salutes of the salute window join them, so ``inputs[p]["salute"]`` means "saluted since the roll".
    - ``winner``: the race winner who must choose (TK-4); ``resolution_before``: the fingers before the last race
      closed while that close's resolution is still under way (the winner's choice, or the sum effect's count,
      salute window or victim, completes it: TK-9, TK-12), else empty; ``last_race``: the last closed window's inputs in time
      order; ``missed``: who owed a Katana or a salute and did not (this roll); ``rolloffs``: the last roll-off rounds (player -> die).
    - ``presence``: the option of that name (:class:`TatamokatsuOptions`); ``missing``: the players marked missing
      (seat order); ``excused``: those marked missing when the current roll opened its windows (they owe nothing in
      it);
    - ``step``: resolutions so far; ``out_at``: player -> the resolution at which they lost their last finger;
      ``winners``: the Samurai (or the players sharing the win, TK-9) when over.
    """

    game: str = "tatamokatsu"
    window_ms: int = DEFAULT_WINDOW_MS
    tie_tolerance_ms: int = 0
    fingers: dict[str, int]
    roller: str
    phase: Phase = "roll"
    rolls: int = 0
    dice: list[str] = Field(default_factory=list)
    values: list[int] | None = None
    total: int | None = None
    roll_ms: int = 0
    window_open_ms: int = 0
    deadline_ms: int | None = None
    now_ms: int = 0
    anchored: bool = False
    inputs: dict[str, dict[str, int]] = Field(default_factory=dict)
    winner: str | None = None
    resolution_before: dict[str, int] = Field(
        default_factory=dict, validation_alias=AliasChoices("resolution_before", "choice_before")
    )
    last_race: list[RaceEntry] = Field(default_factory=list)
    missed: list[Miss] = Field(default_factory=list)
    rolloffs: list[dict[str, int]] = Field(default_factory=list)
    step: int = 0
    out_at: dict[str, int] = Field(default_factory=dict)
    left: list[str] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)
    presence: bool = False
    missing: list[str] = Field(default_factory=list)
    excused: list[str] = Field(default_factory=list)

    def alive(self) -> list[str]:
        """Players with fingers, in seat order."""
        return [p for p in self.players if self.fingers[p] > 0]

    def clone(self) -> TatamokatsuState:
        """A copy as independent as ``model_copy(deep=True)`` for everything the rules change, about ten times
        faster: containers are copied one level down; ``RaceEntry`` rows and roll-off rounds are never changed
        in place (the rules replace them), so they are shared."""
        new = self.model_copy()
        d = new.__dict__
        rng = self.rng.model_copy()
        rng.__dict__["forced"] = list(self.rng.forced)
        d["rng"] = rng
        d["players"] = list(self.players)
        d["fingers"] = dict(self.fingers)
        d["dice"] = list(self.dice)
        d["values"] = None if self.values is None else list(self.values)
        d["inputs"] = {p: dict(v) for p, v in self.inputs.items()}
        d["last_race"] = list(self.last_race)
        d["missed"] = list(self.missed)
        d["rolloffs"] = list(self.rolloffs)
        d["out_at"] = dict(self.out_at)
        d["resolution_before"] = dict(self.resolution_before)
        d["left"] = list(self.left)
        d["winners"] = list(self.winners)
        d["missing"] = list(self.missing)
        d["excused"] = list(self.excused)
        return new

