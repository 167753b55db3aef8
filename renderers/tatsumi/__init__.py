"""Tatsumi board images (8-bit palette PNGs).

``render(state, names, full=True)`` is the whole board (1240 x 860 px, a fifth panel row with the Void's 5
players): the seaboard (each well's top ring, depth and the rings beneath with their symbols, sand dollars,
dragons), the four shrines with their side and requirement and the summoning card above each with its scales,
weather cards and the solo panel when in play, and every player's island with holding, fortune, scales and score
breakdown. ``render(state, names)`` (``full=False``) is the image for the current decision: a close-up readable on
a phone with every offered place marked (:mod:`.decision`).

Modules, by what they draw: :mod:`.icons` (element symbols, rings, pips, sand dollars, player marks),
:mod:`.seaboard` (wells, dragons, shrines and cards on the board, background), :mod:`.cards` (card faces, scale
marks, shrine tiles), :mod:`.island` (island grids and their marks at any size, players' panels),
:mod:`.weather` (TM-13), :mod:`.solo` (TM-14), :mod:`.decision` (the decision views and markers).

Markers: the options' ``locus`` ids are those of :mod:`games.tatsumi.loci` — ``well:<well>``,
``breath:<dir>``, ``shrine:<element>``, ``card:<card>``, ``island:<player>:<space>``,
``pair:<player>:<space>-<space>``, ``weather:<side>:<row>``; :func:`.decision.marker_positions` finds each.

Colour-blind safe: every element has a colour, a symbol and a name (rings and pips carry the symbol); players have
a shape as well as a colour (never a disc in an element's colour) and their name is written.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from PIL import Image

from games.core import T
from games.tatsumi import GAME
from games.tatsumi.state import TatsumiState

from ..common import WHITE, display_name, encode_png, game_palette
from .decision import draw_decision, view_of
from .icons import label
from .island import draw_panel
from .seaboard import W, background, draw_seaboard
from .solo import draw_solo
from .weather import draw_weather


def _title(img: Image.Image, s: TatsumiState, names: dict[str, str] | None) -> None:
    if s.over:
        res = GAME.result(s)
        top = [display_name(w, names, 12) for w in res.winners]
        head = T("Game over after round {round} — winner: {players} ({n})", round=s.round, players=" & ".join(top),
                 n=res.scores[res.winners[0]])
    else:
        who = display_name(s.seats[s.current].id, names, 16)
        head = (T("Round {round} (last) — {player} to play", round=s.round, player=who) if s.end_triggered
                else T("Round {round} — {player} to play", round=s.round, player=who))
    label(img, (W - 14, 25), T("{head} · sand dollars {n}/13", head=head, n=len(s.sand_dollars)), 16, True, WHITE,
          "rm")


def draw(state: TatsumiState, names: dict[str, str] | None = None) -> Image.Image:
    """The whole board of ``state`` (1240 x 860 px, taller with 5 players); ``names`` maps player ids to display
    names."""
    s = state
    img = background(len(s.seats)).copy()
    _title(img, s, names)
    draw_seaboard(img, s)
    for seat in range(len(s.seats)):
        draw_panel(img, s, seat, names)
    if s.weather or s.interrupts:
        draw_weather(img, s, names)
    draw_solo(img, s)
    return img


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The 256-colour palette of Tatsumi boards (base, modules, solo, 5 players), from seeded sample games: full
    boards and decision views (markers, headers, close-ups) in turn, so that building it costs no more than
    drawing one kind (a few seconds, once per process)."""
    turn = itertools.count()

    def sample(state: TatsumiState) -> Image.Image:
        if next(turn) % 2:
            return draw_decision(state, None, lambda: draw(state))
        return draw(state)

    return game_palette(
        GAME, sample, (1, 2, 4, 5), seeds=(1,), every=48,
        options=(None, {"solo": True}, {"island": "asymmetric", "dragons": "asymmetric", "weather": True},
                 {"void": True, "island": "asymmetric"}),
    )


def shows_whole(state: TatsumiState) -> bool:
    """Whether the decision's view of ``state`` is the whole board (:func:`.decision.view_of`: a decision no closer
    view serves, or the game over)."""
    return view_of(state) == "full"


def render(state: TatsumiState, names: dict[str, str] | None = None, full: bool = False) -> bytes:
    """PNG bytes (8-bit palette) of ``state``: the whole board with ``full=True``, else the current decision's
    view (:mod:`.decision`); ``names`` maps player ids to display names."""
    if full:
        return encode_png(draw(state, names), palette())
    return encode_png(draw_decision(state, names, lambda: draw(state, names)), palette())


__all__ = ["draw", "palette", "render", "shows_whole"]
