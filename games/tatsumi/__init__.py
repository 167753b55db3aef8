"""Tatsumi: dragons gather elemental rings from a 5x5 seaboard, offer them at shrines and heal their island
(rulebook ``tatsumi.md``; RULINGS TM-1..TM-12, C-1..C-4). Base game: 2-4 players, symmetric island and dragons.

Modules: :mod:`.data` (designed tables: seaboard, shrines, island layouts, cards), :mod:`.island` (geometry,
placement, mastery), :mod:`.seaboard` (wells, fly, gather, shrines), :mod:`.cards` (summoning cards, scoring),
:mod:`.state` (models), :mod:`.rules` (setup and the turn as small decisions), :mod:`.ai` (greedy).

Later modules (asymmetric islands and dragons, weather, solo, the Void; TM-13..TM-15) plug in at
``data.ISLANDS`` + ``Seat.island_key``, ``seaboard.GATHERS`` + ``Seat.gather``, ``seaboard.guarded_wells`` and the
reserved ``TatsumiOptions`` fields; none is implemented here.
"""

from __future__ import annotations

from typing import Any

from games.core import TIMEOUT, Decision, Event, Game, IllegalMove, Move, Outcome, Result, player_ref, rank_by
from games.tatsumi import ai, dragons, rules, solo, weather
from games.tatsumi import data as D
from games.tatsumi.island import EMPTY
from games.tatsumi.state import TatsumiOptions, TatsumiState, Turn, clone


class TatsumiGame(Game):
    """The Tatsumi engine over the contract of :mod:`games.core`."""

    id = "tatsumi"
    title = "Tatsumi"
    min_players = 1  # one player only in solo mode (TM-14); setup refuses other combinations
    max_players = 5  # 5 only with the Void expansion (TM-1); setup refuses 5 without it
    Options = TatsumiOptions
    State = TatsumiState
    summary = "Dragons gather elemental rings at sea, offer them at shrines and heal their islands."
    rules_help = {
        "": (
            "Tatsumi (2-4 players; 5 with void=true; 1 with solo=true). Each turn: fly your dragon and either "
            "gather or offer, in either order. "
            "Rings you offer go onto your island and score; the richest island in fortune wins. "
            "The game ends after the round in which the 13th sand dollar appears or a ring cannot be placed."
        ),
        "fly": (
            "Fly like a chess queen to another well, over empty wells but never into or past another dragon. "
            "You claim the top ring of the well you leave. If you cannot fly at all you are lifted to any free well."
        ),
        "gather": "Gather: take the top rings of two different wells next to you (north, east, south, west).",
        "holding": (
            "Rings wait in your holding, one slot per element. At the end of your turn, with all 4 elements held, "
            "you choose one element and all its rings go to your island unscored (overflow)."
        ),
        "offer": (
            "Offer at a shrine within 1 well of it (more with Butterfly) with exactly the rings it asks: "
            "front 2+2 (fire: fire+wind, wind: wind+water, water: water+lightning, lightning: lightning+fire), "
            "back 2+1 with a scale icon (fire+water, water+wind, wind+lightning, lightning+fire). "
            "The tile flips after each offering. Offering at a back side puts a scale on the card above it."
        ),
        "island": (
            "Island: a rift takes only its element; your first ring goes on a rift; later rings next to a ring. "
            "Each offered ring scores 1 per rift of its element you have encircled. A blessing space with a ring "
            "between two rings of one element frees a scale that you put on any summoning card."
        ),
        "cards": (
            "Summoning cards: scoring cards pay when a scale lands (Jellyfish, Koi, Otter, Salamander, Water "
            "Strider, Lizard Claw, Turtle, Toad, Monkey, Dragonfly); lasting ones grow with your scales on them "
            "(Butterfly range, Swallows, Heron, Blackbird, Duck; Flying Fish sends its scale to another card)."
        ),
        "weather": (
            "Weather (option weather=true; always in solo): a minor card (5 sand dollars) and a major card (8). "
            "Claiming its element in a turn puts a sand dollar from beside the card onto it; placing its element "
            "takes one off. With none left beside it, the card strikes: every island swaps 1 (major: 2) rings of "
            "its element with a neighbour of another element (plain spaces only). A depleted well takes a sand "
            "dollar you choose from on or beside a card; a card whose dollars are all in the sea is neutralised."
        ),
        "solo": (
            "Solo (option solo=true, one player): each solo card places two Tekitatsu and the maelstrom, which "
            "guard their wells. After your turn each Tekitatsu washes away the top ring of its four neighbours, the "
            "card may flip a shrine, and the next card moves them. The end: 13 sand dollars, a ring you cannot "
            "place, or the 16th card played. Rank: 70+ safe, 80+ peaceful, 90+ feast, 100+ harmony, 110+, 120+."
        ),
        "dragons": (
            "Dragon cards (option dragons: symmetric, asymmetric, or each player chooses at setup). Asymmetric "
            "gathering: Raijinsama two matching rings from the 8 wells around; Karyusama breath: the two nearest "
            "rings in a straight line, skipping empty wells, stopped by a dragon; Fujinsama dashes 1-2 wells in a "
            "line, claiming each well it leaves; Mizuchisama dives (claims the ring beneath), reemerges at a well "
            "topped by the same element, then claims a ring next to it; Kihakusama claims the edgemost rings of "
            "two ends of its row and column (empty edge wells skipped, a dragon on the edge blocks)."
        ),
        "islands": (
            "Island boards (option island: symmetric, asymmetric, or choose): each player is dealt one of six "
            "boards. Arashima: inland ring in a row only after a perimeter ring in that row. Inyo: rings on light "
            "and dark spaces within one of each other (the eyes count for their own colour). Isuragi: an obelisk "
            "only once all its neighbours hold rings. Kogasu: the volcano centre touches nothing, any ring may go "
            "there. Mizukame: all 1-droplets, then 2s, then 3s. Raikou: each offering puts exactly one ring on a "
            "bolt if it can. Their blessings need two rings of a set element on marked spaces."
        ),
        "void": (
            "The Void (option void): a 5th player plays Kihaku from c3 and names its element at setup (for "
            "Dragonfly and ties); 4 extra rings, one per element, go on b2, d2, b4 and d4."
        ),
        "end": (
            "End: Elemental Mastery — water 2 per ring of your largest water group, lightning 2 per group, wind "
            "1 per other element touching it, fire 5 per 3 fire rings. Ties: most rings of your dragon's element."
        ),
    }

    # -- contract ----------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: Any = None, seed: int = 0) -> TatsumiState:
        """A new game (TM-2): ``players`` in seat order, 2-4 of them, or 1 in solo mode (TM-14). ``ValueError`` on a
        bad count, or a solo game with other than one player."""
        self.check_players(players)
        opts = self.options(options)
        solo.check_players(players, opts)
        state = rules.setup(list(players), opts, seed)
        dragons.setup_modules(state)  # asymmetric islands/dragons, the Void (TM-1, TM-15)
        rules.advance(state, [])
        return state

    def pending(self, state: TatsumiState) -> list[Decision]:
        """The one decision of the current player, or ``[]`` when the game is over."""
        if state.over:
            return []
        return [
            Decision(
                player=rules.decider(state).id,
                kind=rules.kind(state),
                prompt=rules.prompt(state),
                options=rules.options(state),
            )
        ]

    def apply(self, state: TatsumiState, move: Move) -> Outcome:
        """Apply ``move``; ``IllegalMove`` (state unchanged) unless it answers the pending decision."""
        self._validate(state, move)
        new = clone(state)
        events: list[Event] = []
        rules.act(new, move.option, events)
        rules.advance(new, events)
        return Outcome(state=new, events=events)

    def _validate(self, state: TatsumiState, move: Move) -> None:
        """``Game.find_decision``'s checks and messages, on the cheap (id, label) choices: the game is over, no
        deadline is pending, not the mover's turn, or the option is not listed -> ``IllegalMove``."""
        if state.over:
            raise IllegalMove("The game is over.")
        if move.option == TIMEOUT and move.player is None:
            raise IllegalMove("Nothing is waiting on a deadline.")
        who = rules.decider(state).id
        if move.player != who:
            raise IllegalMove(f"It is not your turn: waiting for {player_ref(who)}.")
        listed = [i for i, _ in rules.choices(state)]
        if move.option not in listed:
            raise IllegalMove(f"'{move.option}' is not a choice now. Choose one of: {', '.join(listed)}.")

    def result(self, state: TatsumiState) -> Result | None:
        """Winners by fortune, ties broken by rings of the dragon's element on the island, then shared (TM-12)."""
        if not state.over:
            return None

        def key(pid: str) -> tuple[int, int]:
            p = state.seats[state.players.index(pid)]
            return (-p.fortune, -p.island.count(p.element))

        ranking = rank_by(state.players, key)
        reason = f"Most fortune after {state.round} round(s); {state.end_reason or 'the end'}."
        if state.solo is not None:  # TM-14: the rank line of the rulebook's table
            reason = solo.rank_event(state).text + f" ({state.end_reason or 'the end'}.)"
        return Result(
            winners=list(ranking[0]),
            ranking=ranking,
            scores={p.id: p.fortune for p in state.seats},
            reason=reason,
        )

    def resign(self, state: TatsumiState, player: str) -> Outcome | None:
        """Remove ``player`` when at least 2 others play on: their dragon leaves the seaboard, their rings go back
        to the box, their scales leave the cards. If it was their turn, the next seat plays (or, in the last round
        after the last seat, the game ends). ``None`` when only 2 were playing (the session ends the game)."""
        if state.over or player not in state.players or len(state.seats) <= 2:
            return None
        s = clone(state)
        k = s.players.index(player)
        p = s.seats[k]
        back = "".join(e * n for e, n in p.holding.items()) + p.island.replace(EMPTY, "")
        was_turn = k == s.current
        if was_turn:
            back += s.turn.to_place
        s.removed += back
        last = len(s.seats) - 1
        del s.seats[k]
        del s.players[k]
        events = [Event(kind="resign", text=f"{player_ref(player)} resigns.", data={"player": player})]
        if s.interrupts:  # pending weather decisions (TM-13): the leaver's are dropped or made, seats renumbered
            weather.on_resign(s, k, was_turn, events)
        if k < s.current:
            s.current -= 1
        elif was_turn:
            if s.end_triggered and k == last:
                rules._game_over(s, events)
                return Outcome(state=s, events=events)
            if k == last:
                s.current = 0
                s.round += 1
            s.turn = Turn()
        if state.setup_queue:  # resigning during the setup choices (games.tatsumi.dragons)
            dragons.start_or_next(s)
        rules.advance(s, events)
        return Outcome(state=s, events=events)

    # -- extras ------------------------------------------------------------------------------------------------
    def greedy(self, state: TatsumiState, decision: Decision, rng: Any) -> str | None:
        return ai.choose(state, decision, rng)

    def status(self, state: TatsumiState) -> str:
        scores = ", ".join(f"{player_ref(p.id)} {p.fortune}" for p in state.seats)
        sd = f"sand dollars {len(state.sand_dollars)}/{D.SAND_DOLLARS}"
        if state.over:
            return f"Game over after round {state.round}: {scores}."
        if state.setup_queue:  # the modules' setup choices (games.tatsumi.dragons)
            return f"Setup: {player_ref(state.seats[state.current].id)} to choose ({len(state.setup_queue)} left)."
        last = " (last round)" if state.end_triggered else ""
        turn = player_ref(state.seats[state.current].id)
        extra = "".join(f"; {m.status(state)}" for m, on in ((weather, state.weather), (solo, state.solo)) if on)
        return f"Round {state.round}{last}, {turn} to play; fortune {scores}; {sd}{extra}."


GAME = TatsumiGame()

__all__ = ["GAME", "TatsumiGame", "TatsumiOptions", "TatsumiState"]
