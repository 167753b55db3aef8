"""Tatsumi state models (pydantic, JSON round-trip exact) and a fast copy for ``apply``.

Rings are element codes (``F W N L``). A well is a string of its rings, bottom first (the last character is the
topmost ring, ``""`` a depleted well); an island a 37-character string (see :mod:`games.tatsumi.island`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from games.core import BaseState


class TatsumiOptions(BaseModel):
    """Lobby options (rulebook "Setup", "Islands and Dragons", "Solo-mode", "Weather Module"; RULINGS TM-1,
    TM-13..TM-17). Seat counts they allow: :meth:`games.tatsumi.TatsumiGame.seat_counts`."""

    colours: Literal["seat", "choose", "random"] = "seat"
    """Who plays which dragon (TM-16): ``seat`` deals them in seat order (Karyu, Raijin, Fujin, Mizuchi; Kihaku
    5th), ``choose`` lets each player in seat order pick a dragon not yet taken (Kihaku only with the Void; solo:
    any), ``random`` deals them at random from the seed. Start wells stay by seat (TM-2)."""
    island: Literal["symmetric", "asymmetric", "choose"] = "symmetric"
    """Island boards (TM-15, TM-16): all on the symmetric side (Tatsumi Island), all asymmetric (each player is
    dealt one of the six boards), or each player in seat order picks a board not yet taken and its side."""
    dragons: Literal["symmetric", "asymmetric", "choose"] = "symmetric"
    """Dragon card sides (rulebook "Asymmetric Dragons"): all symmetric, all asymmetric, or each player chooses."""
    void: bool = False
    """The Void expansion (TM-1, TM-17): exactly 5 players, the 5th dragon Kihaku, 4 extra rings on b2 d2 b4 d4.
    The 24 Void Shrine cards are not played."""
    weather: bool = False
    """Weather module (TM-13): a minor and a major weather card and their sand dollars. Always on in solo."""
    solo: bool = False
    """Solo mode (TM-14): one player against the solo deck, two Tekitatsu and the maelstrom (implies weather)."""


class Seat(BaseModel):
    """One player: ``mark`` (colour and shape in images: the dragon's place in ``data.DRAGONS``, so a colour is a
    dragon, TM-16; the seat while the dragon is still to pick), dragon (``""`` until picked, with ``element``),
    well, holding, island, fortune and scales.

    ``scored`` splits ``fortune`` by source (``rift``, ``card``, ``swallows``, ``heron``, ``duck``, ``mastery``);
    their sum is always ``fortune``. ``blessings[b]`` is True once blessing ``b``'s scale has left the island.
    ``cards[k]`` counts this player's scales on the summoning card above the shrine of edge ``k`` (N, E, S, W).
    """

    id: str
    mark: int = 0
    dragon: str
    element: str
    island_key: str = "tatsumi"
    board: str = ""
    """The island board dealt with asymmetric islands (TM-15; its asymmetric side is ``island_key`` if chosen)."""
    gather: str = "symmetric"
    well: int
    holding: dict[str, int]
    island: str
    fortune: int = 0
    scored: dict[str, int] = Field(default_factory=dict)
    scales_beside: int = 5
    blessings: list[bool] = Field(default_factory=list)
    cards: list[int] = Field(default_factory=lambda: [0, 0, 0, 0])


class Turn(BaseModel):
    """Where the current turn stands.

    ``stage``: ``main`` (fly / gather / offer / blackbird / end), ``gather2`` (second well), ``place`` (put rings on
    the island one at a time; ``mode`` offer, overflow or blackbird), ``overflow`` (pick the element), ``scale``
    (pick a summoning card for the first entry of ``scale_queue``), ``over``; ``setup`` before round 1 while the
    modules' per-player choices are queued (``TatsumiState.setup_queue``, :mod:`games.tatsumi.dragons`).
    """

    flown: bool = False
    acted: bool = False
    blackbird_used: bool = False
    stage: str = "main"
    mode: str = ""
    to_place: str = ""
    bb_left: int = 0
    first_well: int = -1
    shrine: int = -1
    scale_queue: list[str] = Field(default_factory=list)
    resume: str = "main"
    gathered: str = ""
    """Rings claimed by this turn's gathering action so far (Raijinsama matches the first)."""
    bolts: int = -1
    """Raikou (TM-15): lightning bolts encircled when the current offering began, -1 when no bolt is required."""
    weather_in: str = ""
    """Elements whose weather card already got a sand dollar from this turn's claims (TM-13: once a turn)."""
    weather_out: str = ""
    """Elements whose weather card already lost a sand dollar to this turn's placements (TM-13: once a turn)."""


class WeatherCard(BaseModel):
    """A weather card in play (TM-13): ``element``, ``side`` (``minor`` with 5 sand dollars, ``major`` with 8),
    ``on_card`` sand dollars on it, ``in_wells`` of its sand dollars placed into depleted wells; the rest lie beside
    it. ``triggered`` counts its events; ``neutralized`` once all its sand dollars are in the seaboard."""

    element: str
    side: str
    total: int
    on_card: int = 0
    in_wells: int = 0
    triggered: int = 0
    neutralized: bool = False

    @property
    def beside(self) -> int:
        return self.total - self.on_card - self.in_wells


class SoloBoard(BaseModel):
    """Solo mode (TM-14): ``card`` the face-up solo card (index into ``solo_data.SOLO_CARDS``), ``deck`` the face-down
    ones (top first), ``tekitatsu`` the two Tekitatsu wells and ``maelstrom`` the maelstrom well (-1: off the board
    this round because the player's dragon stood there), ``turns`` the player's turns played."""

    card: int
    deck: list[int]
    tekitatsu: list[int]
    maelstrom: int = -1
    turns: int = 0


class TatsumiState(BaseState):
    """The whole game. ``wells`` 25 ring strings (bottom first); ``sand_dollars`` wells holding one, in placing
    order (at most 13); ``removed`` rings returned to the box at setup; ``shrines[k]`` the element of edge k's shrine
    (N, E, S, W) and ``sides[k]`` ``front``/``back``; ``cards[k]`` the summoning card above it; ``seats`` in seat
    order; ``current`` the seat to play; ``round`` from 1."""

    game: str = "tatsumi"
    options: TatsumiOptions = Field(default_factory=TatsumiOptions)
    wells: list[str]
    sand_dollars: list[int] = Field(default_factory=list)
    removed: str = ""
    shrines: list[str]
    sides: list[str]
    cards: list[str]
    seats: list[Seat]
    current: int = 0
    round: int = 1
    turn: Turn = Field(default_factory=Turn)
    end_triggered: bool = False
    end_reason: str = ""
    over: bool = False
    setup_queue: list[str] = Field(default_factory=list)
    """Per-player setup choices still to make (``island:<id>``, ``dragon:<id>``, ``element:<id>``), first first;
    the turn stage is ``setup`` while any is left (games.tatsumi.dragons)."""
    weather: list[WeatherCard] = Field(default_factory=list)
    """The weather cards in play, minor first (TM-13); empty without the weather module."""
    solo: SoloBoard | None = None
    interrupts: list[str] = Field(default_factory=list)
    """Module decisions pausing the turn (``sand:b3``, ``swap:0:W:1``, ``wscale:0:1``, ``solo:next``), first first;
    see :func:`games.tatsumi.rules.decider`."""


def _copy(m: BaseModel, **fields) -> BaseModel:
    """A shallow copy of pydantic model ``m`` with ``fields`` replaced, bypassing validation (as ``model_copy``
    does, but without its per-field ``__setattr__`` cost)."""
    new = m.__class__.__new__(m.__class__)
    d = dict(m.__dict__)
    d.update(fields)
    object.__setattr__(new, "__dict__", d)
    object.__setattr__(new, "__pydantic_fields_set__", set(m.__pydantic_fields_set__))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


def clone(state: TatsumiState) -> TatsumiState:
    """An independent copy of ``state`` (the fast equivalent of ``model_copy(deep=True)``: strings are immutable,
    so only lists, dicts and the nested models are copied)."""
    t = state.turn
    return _copy(
        state,
        rng=_copy(state.rng, forced=list(state.rng.forced)),
        players=list(state.players),
        wells=list(state.wells),
        sand_dollars=list(state.sand_dollars),
        sides=list(state.sides),
        cards=list(state.cards),
        shrines=list(state.shrines),
        seats=[
            _copy(
                p,
                holding=dict(p.holding),
                scored=dict(p.scored),
                blessings=list(p.blessings),
                cards=list(p.cards),
            )
            for p in state.seats
        ],
        turn=_copy(t, scale_queue=list(t.scale_queue)),
        setup_queue=list(state.setup_queue),
        weather=[_copy(c) for c in state.weather],
        solo=state.solo and _copy(state.solo, deck=list(state.solo.deck), tekitatsu=list(state.solo.tekitatsu)),
        interrupts=list(state.interrupts),
    )
