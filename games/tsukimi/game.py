"""The :class:`Tsukimi` game: the contract wiring (setup, pending, apply, result) over the rules in ``rules.py``.

A turn is a few small decisions: ``choose_tile`` (``tile:<id>``), ``place_tile`` (``space:<name>``), then
``effects`` (``place:<vertex>``, ``move:<vertex>``, ``discard:<vertex>``, ``end``) with ``move_to``
(``to:<vertex>`` or ``back``) after picking a rabbit to move. Vertex ids use the canonical name (see
``board``); moves naming any other name of the same vertex (``C3-se`` for ``D3-n``) are accepted, and so is a
bare name of exactly one listed option (``C3-s``, ``c3``, ``sakura 5``); a refusal says why (``answers``).
A decision with a single option is applied without asking (RULINGS C-3).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.core import Event, Game, IllegalMove, Move, Outcome, Result, Rng, T, Text, player_ref, rank_by

from . import rules
from .answers import named_vertex, normalise, refusal, resolve
from .data import COLOUR_TEXT, COLOURS, SIDE_TEXT, START, TEMPLE, TILES
from .help import RULES_HELP, TOPIC_NAMES
from .state import TsukimiOptions, TsukimiState


class Tsukimi(Game):
    """The game object registered as ``tsukimi``: 2 players, options :class:`TsukimiOptions`."""

    id: ClassVar[str] = "tsukimi"
    title: ClassVar[str] = T("Tsukimi")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options = TsukimiOptions
    State = TsukimiState
    summary: ClassVar[str] = T("Two rabbit clans surround mochi on the Moon; the clan claiming the most mochi points wins.")
    rules_help: ClassVar[dict[str, str]] = RULES_HELP
    rules_topics: ClassVar[dict[str, str]] = TOPIC_NAMES

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

        ``move.option`` is a listed option id in any spelling, or a bare name of exactly one listed option (a
        vertex in any of its names, a space, a tile such as ``sakura 5``): see ``answers``. ``IllegalMove`` (state
        unchanged) for a wrong player, and for anything else with the reason it is refused and a short hint."""
        if not isinstance(move.option, str):
            raise IllegalMove(T("A move must name an option."))
        decisions = rules.pending(state)
        if not decisions or move.player != decisions[0].player:
            self.find_decision(state, move)  # raises: the game is over / not your turn / no deadline
            raise IllegalMove(T("It is not your turn."))  # pragma: no cover - find_decision raised
        decision = decisions[0]
        option = resolve(state, decision, move.option)
        if decision.option(option) is None:
            raise IllegalMove(refusal(state, decision, move.option, option))
        new = _copy(state)
        events: list[Event] = []
        # A listed id (a button) is named as its label names it; another spelling by the name the player wrote.
        said = None if move.option == option else named_vertex(move.option)
        rules.step(new, option, events, said=said)
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
            how = T("on points")
        elif st.tiles[0] != st.tiles[1]:
            how = T("on points, then most tiles claimed")
        elif st.reserve[0] != st.reserve[1]:
            how = T("on points and tiles, then most rabbits in reserve")
        else:
            how = T("a full tie: both clans share the win")
        clans = [T("{colour} {player} {points} ({tiles} claimed, {many} in reserve)", colour=COLOUR_TEXT[i],
                   player=player_ref(p), points=rules.points_text(st.points[i]),
                   tiles=rules.tiles_text(st.tiles[i]), many=rules.rabbits_text(st.reserve[i]))
                 for i, p in enumerate((a, b))]
        reason = T("{white}, {purple} - {how}.", white=clans[0], purple=clans[1], how=how)
        return Result(winners=ranking[0], ranking=ranking, scores={a: st.points[0], b: st.points[1]}, reason=reason)

    def status(self, state: TsukimiState) -> Text:
        """One line: the tile of this turn (``tile 3/18``: the third tile is being taken, placed or used), each
        clan's reserve and the points it would score now, whose turn."""
        st = rules.standings(state)
        parts = [T("{colour} {player}: {points} now, {many} in reserve", colour=COLOUR_TEXT[i], player=player_ref(p),
                   points=rules.points_text(st.points[i]), many=rules.rabbits_text(state.reserve[i]))
                 for i, p in enumerate(state.players)]
        head = T("Tsukimi ({side} side), tile {n}/18", side=SIDE_TEXT[state.side], n=tile_number(state))
        tail = (T("game over") if state.phase == "over"
                else T("to play: {player}", player=player_ref(state.players[state.turn])))
        return T("{head} · {clans} · {tail}", head=head, clans=Text.join(" · ", parts), tail=tail)

    def greedy(self, state: TsukimiState, decision, rng) -> str | None:
        from .ai import greedy_choice

        return greedy_choice(state, decision, rng)


def tile_number(state: TsukimiState) -> int:
    """The number (1-18) of the tile this turn is about: the tile being chosen or placed counts before it is on the
    board, so the count never steps back within a turn (1, 1, 1, then 2 …); 18 at the end."""
    waiting = state.phase in ("choose", "place")
    return min(len(state.board) + (1 if waiting else 0), 18)


def _copy(state: TsukimiState) -> TsukimiState:
    """A deep copy of ``state`` (what ``model_copy(deep=True)`` gives, several times faster): every mutable
    field is a flat list or dict of immutable values, so copying each container is a full deep copy."""
    rng = state.rng.model_copy(update={"forced": list(state.rng.forced)})
    return state.model_copy(update={
        "players": list(state.players), "rng": rng, "circle": list(state.circle), "board": dict(state.board),
        "rabbits": dict(state.rabbits), "reserve": list(state.reserve), "box": list(state.box)})


__all__ = ["Tsukimi", "normalise"]
