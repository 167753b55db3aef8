"""The :class:`TatsumiGame` engine: the contract of :mod:`games.core` (setup, pending, apply, result, resign) wired
to the turn machine in :mod:`games.tatsumi.rules` (rulebook ``tatsumi.md``; RULINGS TM-1..TM-19, C-1..C-4)."""

from __future__ import annotations

from typing import Any

from games.core import (
    CHOICE_SEP,
    SEMICOLON,
    TIMEOUT,
    Decision,
    Event,
    Game,
    IllegalMove,
    Move,
    N,
    Outcome,
    Result,
    T,
    Text,
    player_ref,
    rank_by,
)
from games.tatsumi import ai, dragons, rules, solo, weather
from games.tatsumi import data as D
from games.tatsumi.help import RULES_HELP, TOPIC_NAMES
from games.tatsumi.island import EMPTY
from games.tatsumi.seaboard import end_reason_text
from games.tatsumi.solo_data import rank_name
from games.tatsumi.state import TatsumiOptions, TatsumiState, Turn, clone


class TatsumiGame(Game):
    """The Tatsumi engine over the contract of :mod:`games.core`."""

    id = "tatsumi"
    title = T("Tatsumi")
    min_players = 1  # one player only in solo mode (TM-14); setup refuses other combinations
    max_players = 5  # 5 only with the Void expansion (TM-1); setup refuses 5 without it
    Options = TatsumiOptions
    State = TatsumiState
    summary = T("Dragons gather elemental rings at sea, offer them at shrines and heal their islands.")
    rules_help = RULES_HELP
    rules_topics = TOPIC_NAMES

    # -- contract ----------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: Any = None, seed: int = 0) -> TatsumiState:
        """A new game (TM-2): ``players`` in seat order, as many as :meth:`seat_counts` allows for ``options``.
        ``ValueError`` (a message for the table, naming the option to change) on a count the options do not allow
        (TM-1, TM-14, TM-17); ``pydantic.ValidationError`` on an unknown option value."""
        self.check_players(players)
        opts = self.options(options)
        self.check_seats(len(players), opts)
        state = rules.setup(list(players), opts, seed)
        dragons.setup_modules(state)  # the Void, dragons dealt or picked, islands, card sides (TM-1, TM-15, TM-16)
        rules.advance(state, [])
        return state

    def seat_counts(self, options: Any = None) -> list[int]:
        """The numbers of players ``options`` (a ``TatsumiOptions``, a dict or None) allow, ascending: ``[1]`` in
        solo mode (TM-14), ``[5]`` with the Void (TM-17), ``[2, 3, 4]`` otherwise (TM-1); ``[]`` for solo with
        the Void (they exclude each other). For a lobby's "needs N" line: the table may start exactly when its
        seat count is listed. ``pydantic.ValidationError`` on an unknown option value."""
        o = self.options(options)
        if o.solo and o.void:
            return []
        if o.solo:
            return [1]
        if o.void:
            return [5]
        return [2, 3, 4]

    def check_seats(self, n: int, options: Any = None) -> None:
        """``ValueError`` with a message for the table unless ``n`` players fit ``options`` (:meth:`seat_counts`;
        RULINGS TM-1, TM-14, TM-17). The message says which option or seat count would fit."""
        o = self.options(options)
        if n in self.seat_counts(o):
            return
        if o.solo and o.void:
            raise ValueError(T("Solo mode and the Void do not go together: the Void needs 5 players, solo mode one"))
        if o.solo:
            raise ValueError(T("Tatsumi solo mode is for exactly one player, not {n}: play without solo=true", n=n))
        if o.void:
            raise ValueError(
                T("The Void (void=true) needs exactly 5 players, not {n}: seat 5, or play without void=true", n=n)
            )
        if n == 1:
            raise ValueError(T("Tatsumi with one player is the solo mode: open the lobby with solo=true"))
        if n == 5:
            raise ValueError(T("Five players need the Void expansion: open the lobby with void=true"))
        raise ValueError(T("Tatsumi needs 2-4 players, not {n}", n=n))  # pragma: no cover - check_players refuses it

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
            raise IllegalMove(T("The game is over."))
        if move.option == TIMEOUT and move.player is None:
            raise IllegalMove(T("Nothing is waiting on a deadline."))
        who = rules.decider(state).id
        if move.player != who:
            raise IllegalMove(T("It is not your turn: waiting for {players}.", players=player_ref(who)))
        listed = rules.choices(state)
        if all(i != move.option for i, _ in listed):
            raise IllegalMove(T("'{option}' is not a choice now. Choose one of: {choices}.", option=move.option,
                                choices=Text.join(CHOICE_SEP, [label for _, label in listed])))

    def result(self, state: TatsumiState) -> Result | None:
        """Winners by fortune, ties broken by rings of the dragon's element on the island, then shared (TM-12); the
        reason names the winners and their fortune."""
        if not state.over:
            return None

        def key(pid: str) -> tuple[int, int]:
            p = state.seats[state.players.index(pid)]
            return (-p.fortune, -p.island.count(p.element))

        ranking = rank_by(state.players, key)
        why = end_reason_text(state.end_reason)
        top = state.seats[state.players.index(ranking[0][0])].fortune
        winners = Text.join(T(", "), [player_ref(p) for p in ranking[0]])
        reason = N("Most fortune after {n} round: {winners} with {fortune}; {reason}.",
                   "Most fortune after {n} rounds: {winners} with {fortune}; {reason}.", n=state.round,
                   winners=winners, fortune=top, reason=why)
        if state.solo is not None:  # TM-14: the rank line of the rulebook's table
            reason = T("{rank} ({reason}.)", rank=solo.rank_event(state).text, reason=why)
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
        events = [Event(kind="resign", text=T("{player} resigns.", player=player_ref(player)), data={"player": player})]
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

    def score_words(self, score: int) -> Text:
        """A player's fortune (``Result.scores``, TM-12), as the board counts it: ``"64 fortune"``."""
        return T("{n} fortune", n=score)

    def score_heading(self) -> Text:
        """The result card's score column: each player's fortune."""
        return T("Fortune")

    def status(self, state: TatsumiState) -> str:
        scores = Text.join(D.COMMA, [T("{player} {n}", player=player_ref(p.id), n=p.fortune) for p in state.seats])
        sd = T("sand dollars {n}/{total}", n=len(state.sand_dollars), total=D.SAND_DOLLARS)
        if state.over and state.solo is not None:  # solo: a rank, not a winner
            p = state.seats[0]
            return T("Solo game over after round {round}: {n} fortune, rank {rank}.", round=state.round, n=p.fortune,
                     rank=rank_name(p.fortune))
        if state.over:
            return T("Game over after round {round}: {scores}.", round=state.round, scores=scores)
        if state.setup_queue:  # the modules' setup choices (games.tatsumi.dragons)
            return dragons.setup_status(state)
        turn = player_ref(state.seats[state.current].id)
        parts = [sd] + [m.status(state) for m, on in ((weather, state.weather), (solo, state.solo)) if on]
        if state.end_triggered:
            return T("Round {round} (last round), {player} to play; fortune {scores}; {rest}.", round=state.round,
                     player=turn, scores=scores, rest=Text.join(SEMICOLON, parts))
        return T("Round {round}, {player} to play; fortune {scores}; {rest}.", round=state.round, player=turn,
                 scores=scores, rest=Text.join(SEMICOLON, parts))
