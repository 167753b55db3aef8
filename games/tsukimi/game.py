"""The :class:`Tsukimi` game: the contract wiring (setup, pending, apply, result) over the rules in ``rules.py``.

A turn is a few small decisions: ``choose_tile`` (``tile:<id>``), ``place_tile`` (``space:<name>``), then
``effects`` (``place:<vertex>``, ``move:<vertex>``, ``discard:<vertex>``, ``end``) with ``move_to``
(``to:<vertex>`` or ``back``) after picking a rabbit to move. Vertex ids use the canonical name (see
``board``); moves naming any other name of the same vertex (``C3-se`` for ``D3-n``) are accepted.
A decision with a single option is applied without asking (RULINGS C-3).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from games.core import Event, Game, IllegalMove, Move, Outcome, Result, Rng, player_ref, rank_by

from . import rules
from .board import canonical
from .data import COLOURS, START, TEMPLE, TILES
from .help import RULES_HELP
from .state import TsukimiOptions, TsukimiState

_VERTEX_KINDS = ("place", "move", "discard", "to")


def normalise(option: str) -> str:
    """Accept sensible spellings of an option id: any name of a vertex (``to:B2-se`` -> ``to:C3-n``), any case of
    a space (``space:c3``), surrounding blanks. Unknown text is returned stripped, for ``find_decision`` to refuse."""
    option = option.strip()
    kind, sep, arg = option.partition(":")
    kind = kind.strip().lower()
    if not sep:
        return kind if kind in ("end", "back") else option
    arg = arg.strip()
    if kind in _VERTEX_KINDS:
        v = canonical(arg)
        return f"{kind}:{v}" if v else option
    if kind == "space":
        return f"space:{arg.upper()}"
    if kind == "tile":
        return f"tile:{arg}"
    return option


class Tsukimi(Game):
    """The game object registered as ``tsukimi``: 2 players, options :class:`TsukimiOptions`."""

    id: ClassVar[str] = "tsukimi"
    title: ClassVar[str] = "Tsukimi"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options = TsukimiOptions
    State = TsukimiState
    summary: ClassVar[str] = "Two rabbit clans surround mochi on the Moon; the clan claiming the most mochi points wins."
    rules_help: ClassVar[dict[str, str]] = RULES_HELP

    # -- contract -----------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: Any = None, seed: int = 0) -> TsukimiState:
        """A new game: seat 0 white, seat 1 purple; reserves and box by side (TS-1); the 19 tiles shuffled into
        the circle (rulebook Setup 3, TS-4). ``ValueError`` unless exactly two distinct players."""
        self.check_players(players)
        opts = self.options(options)
        reserve, box = START[opts.side]
        state = TsukimiState(game=self.id, players=list(players), rng=Rng(seed=seed), side=opts.side,
                             reserve=[reserve, reserve], box=[box, box],
                             turn=COLOURS.index(opts.first))
        state.circle = state.rng.shuffled([TEMPLE, *TILES])
        return state

    def pending(self, state: TsukimiState):
        return rules.pending(state)

    def apply(self, state: TsukimiState, move: Move) -> Outcome:
        """Apply ``move`` to a copy of ``state``; single-option decisions that follow are applied too (C-3).
        ``IllegalMove`` (state unchanged) for a move that is not listed in ``pending`` or a wrong player."""
        if not isinstance(move.option, str):
            raise IllegalMove("A move must name an option.")
        option = _tile_by_name(state, normalise(move.option))
        self.find_decision(state, Move(player=move.player, option=option, at_ms=move.at_ms))
        new = _copy(state)
        events: list[Event] = []
        rules.step(new, option, events)
        self._settle(new, events)
        return Outcome(state=new, events=events)

    def _settle(self, state: TsukimiState, events: list[Event]) -> None:
        while True:
            decisions = rules.pending(state)
            if len(decisions) != 1 or len(decisions[0].options) != 1:
                return
            rules.step(state, decisions[0].options[0].id, events)

    def result(self, state: TsukimiState) -> Result | None:
        """Points per player and the ranking with TS-8's tie-breaks, once every tile is placed."""
        if state.phase != "over":
            return None
        st = rules.standings(state)
        key = {state.players[i]: (-st.points[i], -st.tiles[i], -st.reserve[i]) for i in range(2)}
        ranking = rank_by(state.players, key.__getitem__)
        a, b = state.players
        if st.points[0] != st.points[1]:
            how = "on points"
        elif st.tiles[0] != st.tiles[1]:
            how = "on points, then most tiles claimed"
        elif st.reserve[0] != st.reserve[1]:
            how = "on points and tiles, then most rabbits in reserve"
        else:
            how = "a full tie: both clans share the win"
        reason = (f"white {player_ref(a)} {st.points[0]} points ({st.tiles[0]} tiles, {st.reserve[0]} in reserve), "
                  f"purple {player_ref(b)} {st.points[1]} points ({st.tiles[1]} tiles, {st.reserve[1]} in reserve)"
                  f" - {how}.")
        return Result(winners=ranking[0], ranking=ranking, scores={a: st.points[0], b: st.points[1]}, reason=reason)

    def status(self, state: TsukimiState) -> str:
        """One line: round, each clan's reserve and the points it would score now, whose turn."""
        st = rules.standings(state)
        parts = [f"{COLOURS[i]} {player_ref(p)}: {st.points[i]} pts now, {state.reserve[i]} in reserve"
                 for i, p in enumerate(state.players)]
        head = f"Tsukimi ({state.side} side), tile {min(len(state.board) + (state.phase == 'choose'), 18)}/18"
        tail = "game over" if state.phase == "over" else f"to play: {player_ref(state.players[state.turn])}"
        return f"{head} · " + " · ".join(parts) + f" · {tail}"

    def greedy(self, state: TsukimiState, decision, rng) -> str | None:
        from .ai import greedy_choice

        return greedy_choice(state, decision, rng)


_TILE_NAME = re.compile(r"^tile:\s*([a-z]+)[\s_-]*(\d)$", re.IGNORECASE)


def _tile_by_name(state: TsukimiState, option: str) -> str:
    """``tile:matcha 2`` / ``tile:Matcha-2`` -> ``tile:<id>`` of that tile if it is in the circle (the cheaper
    one for the two sakura); anything else unchanged."""
    m = _TILE_NAME.match(option)
    if not m:
        return option
    flavour, value = m.group(1).lower(), int(m.group(2))
    costs = rules.costs(state.circle)
    found = sorted((c, t) for t, c in costs.items() if TILES[t].flavour == flavour and TILES[t].value == value)
    return f"tile:{found[0][1]}" if found else option


def _copy(state: TsukimiState) -> TsukimiState:
    """A deep copy of ``state`` (what ``model_copy(deep=True)`` gives, several times faster): every mutable
    field is a flat list or dict of immutable values, so copying each container is a full deep copy."""
    rng = state.rng.model_copy(update={"forced": list(state.rng.forced)})
    return state.model_copy(update={
        "players": list(state.players), "rng": rng, "circle": list(state.circle), "board": dict(state.board),
        "rabbits": dict(state.rabbits), "reserve": list(state.reserve), "box": list(state.box)})


__all__ = ["Tsukimi", "normalise"]
