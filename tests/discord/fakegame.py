"""A small game for adapter tests: many options (select menus, two-step picks) and a race with a deadline.

``pick``: the current player chooses one of ``Options.n`` numbers; then ``race``: anyone seated may ``shout`` or
``grab`` (``player=None``) until ``deadline_ms`` (the pick's ``at_ms`` + ``window_ms``), when the system timeout
closes it. After ``rounds`` picks the game ends (most races won wins).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

import games
from games import TIMEOUT, BaseState, Decision, Event, Game, IllegalMove, Move, Option, Outcome, Result, Rng
from games.core import player_ref, rank_by

BOOM = "n:13"
"""Picking this number raises inside ``apply`` (a stand-in for an engine bug)."""


class RacerOptions(BaseModel):
    n: int = 30
    rounds: int = 3
    window_ms: int = 8000
    mode: Literal["plain", "fancy"] = "plain"


class RacerState(BaseState):
    game: str = "racer"
    current: str
    phase: str = "pick"
    picks: int = 0
    rounds: int = 3
    n: int = 30
    window_ms: int = 8000
    deadline_ms: int | None = None
    wins: dict[str, int] = {}


class Racer(Game):
    id = "racer"
    title = "Racer"
    min_players = 2
    max_players = 4
    Options = RacerOptions
    State = RacerState
    summary = "A test game."
    rules_help = {"": "Pick a number, then race.", "race": "Type shout or react 1️⃣ first."}

    def setup(self, players, options=None, seed=0):
        self.check_players(players)
        o = self.options(options)
        return RacerState(players=list(players), rng=Rng(seed=seed), current=players[0], rounds=o.rounds, n=o.n,
                          window_ms=o.window_ms, wins={p: 0 for p in players})

    def pending(self, s: RacerState):
        if s.phase == "over":
            return []
        if s.phase == "pick":
            return [Decision(player=s.current, kind="pick", prompt=f"{player_ref(s.current)}: pick a number",
                             options=[Option(id=f"n:{i}", label=f"Number {i}") for i in range(s.n)])]
        return [Decision(player=None, kind="race", prompt="Race!", deadline_ms=s.deadline_ms,
                         options=[Option(id="shout", label="Shout"), Option(id="grab", label="Grab")])]

    def apply(self, s: RacerState, move: Move) -> Outcome:
        decision, option = self.find_decision(s, move)
        if option is not None and option.id == BOOM:
            raise RuntimeError("a bug in the engine")  # for tests: an unexpected failure in one channel
        s = s.model_copy(deep=True)
        events = []
        if decision.kind == "pick":
            s.picks += 1
            s.phase = "race"
            s.deadline_ms = (move.at_ms or 0) + s.window_ms
            events.append(Event(kind="pick", text=f"{player_ref(move.player)} picks {option.label}."))
        elif move.option == TIMEOUT:
            events.append(Event(kind="race", text="Nobody raced in time."))
            self._next(s)
        else:
            if move.at_ms is not None and s.deadline_ms is not None and move.at_ms > s.deadline_ms:
                raise IllegalMove("Too late.")
            s.wins[move.player] += 1
            events.append(Event(kind="race", text=f"{player_ref(move.player)} wins the race ({option.id}, "
                                                  f"at {move.at_ms})."))
            self._next(s)
        return Outcome(state=s, events=events)

    def _next(self, s: RacerState) -> None:
        s.deadline_ms = None
        if s.picks >= s.rounds:
            s.phase = "over"
            return
        s.phase = "pick"
        s.current = s.players[(s.players.index(s.current) + 1) % len(s.players)]

    def result(self, s: RacerState):
        if s.phase != "over":
            return None
        ranking = rank_by(s.players, lambda p: -s.wins[p])
        return Result(winners=ranking[0], ranking=ranking, scores=dict(s.wins), reason="Most races won.")


def register() -> Racer:
    game = Racer()
    games._load()["racer"] = game
    return game


def unregister() -> None:
    games._load().pop("racer", None)
