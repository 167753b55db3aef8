"""Tatari: push-your-luck dice, cursed dolls on shrines 7-11 (``shared/rules/tatari.md``, RULINGS TA-1..TA-10).

A turn: the dice in the box are rolled automatically (rulebook "How to Play" step 1); the player sets aside one face
(step 2, TA-3); then Continue or Stop (step 3, TA-4). Stopping resolves the shrine (step 5, TA-5/TA-6), then a set-aside
1 gives a doll away (TA-7). A bust takes the fullest shrine (TA-8). Stashes cap at 10 (TA-9). The game ends when a
turn would start for a player with an empty stash (TA-10).

Decisions (``kind``: option ids):
- ``select``: ``set:<face>`` — faces ``1 2 3 4 doll double`` (TA-2).
- ``fate``: ``continue`` | ``stop`` (offered only from a total of 7, TA-4).
- ``bust``: ``shrine:<7..10>`` — only when shrines tie for most (TA-8, C-3).
- ``give``: ``give:<player id>`` — only with two or more possible recipients (TA-7, C-3).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from games.core import (
    BaseState,
    Decision,
    Event,
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    Result,
    Rng,
    player_ref,
    rank_by,
)

FACES: tuple[str, ...] = ("1", "2", "3", "4", "doll", "double")
"""The six faces of a Tatari die (TA-2)."""
FACE_VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "doll": 0, "double": 0}
FACE_DOLLS = {"1": 0, "2": 0, "3": 0, "4": 0, "doll": 1, "double": 2}
FACE_LABEL = {"1": "1", "2": "2", "3": "3", "4": "4", "doll": "doll", "double": "double-doll"}
SHRINES: tuple[int, ...] = (7, 8, 9, 10)
"""The shrine boards that hold dolls; shrine 11 is the Shrine box (``TatariState.box``)."""
TOTAL_DOLLS = 44
STASH_CAP = 10
DICE = 6

Phase = Literal["select", "fate", "bust", "give", "over"]


class TatariOptions(BaseModel):
    """Lobby options. ``first``: who holds the Cursed box first — the first seat ("host") or a seeded draw."""

    first: Literal["host", "random"] = "host"


class TatariState(BaseState):
    """A Tatari position.

    ``stashes``: player -> dolls (0..10); ``shrines``: "7".."10" -> dolls; ``box``: dolls in the Shrine box
    (shrine 11, out of play); ``current``: the player whose turn it is; ``rolled``: faces of the dice just rolled
    (still in the box); ``set_aside``: faces set aside this turn; ``out``: players who resigned; ``winner``.
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
        return [p for p in self.players if p not in self.out]


def _copy(s: TatariState) -> TatariState:
    """A copy sharing nothing mutable with ``s`` (faster than a deep copy; ``apply`` never mutates its input)."""
    return s.model_copy(
        update={
            "stashes": dict(s.stashes),
            "shrines": dict(s.shrines),
            "rolled": list(s.rolled),
            "set_aside": list(s.set_aside),
            "out": list(s.out),
            "rng": s.rng.model_copy(update={"forced": list(s.rng.forced)}),
        }
    )


def _dolls(n: int) -> str:
    return f"{n} doll" if n == 1 else f"{n} dolls"


def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def _faces_text(faces: list[str]) -> str:
    return " · ".join(FACE_LABEL[f] for f in faces) if faces else "nothing"


class Tatari(Game):
    id = "tatari"
    title = "Tatari"
    min_players = 2
    max_players = 5
    Options = TatariOptions
    State = TatariState
    summary = "Push-your-luck dice: break the curse by pushing your cursed dolls onto shrines 7-11."
    rules_help = {
        "": (
            "Get rid of all your cursed dolls. On your turn you roll six dice and set aside every die of one face, "
            "again and again, never a face you already set aside. From a total of 7 you may stop: the total names a "
            "shrine and the doll faces you set aside say how many dolls that shrine should hold. You win when your "
            "turn comes round and your stash is empty."
        ),
        "dice": "Faces 1-4 add to the total; a doll counts 1 doll, a double-doll 2 dolls. Six dice, six faces.",
        "stop": (
            "Total 7-10: the shrine of that number is brought to the number of dolls you counted — you put dolls in "
            "if it holds fewer, you take the difference if it holds more. Total 11+: the counted dolls leave your "
            "stash for the Shrine box. A set-aside 1 then lets you give one doll to another player."
        ),
        "bust": (
            "If no die of the roll shows a new face, or all six dice are set aside with a total under 7, you bust: "
            "take every doll from the fullest shrine (your pick on a tie)."
        ),
        "stash": "Nobody holds more than 10 dolls: any doll past 10 goes to the Shrine box at once.",
        "end": "The game ends when a player starts a turn with no dolls: they win. Others rank by dolls left.",
    }

    # -- setup ------------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options=None, seed: int = 0) -> TatariState:
        """Deal the dolls (TA-1) and roll for the first player. ``ValueError`` for a bad player count."""
        self.check_players(players)
        opts = self.options(options)
        stash = 8 if len(players) == 5 else 10
        rng = Rng(seed=seed)
        first = players[0] if opts.first == "host" else rng.pick(players)
        state = TatariState(
            players=list(players),
            rng=rng,
            stashes={p: stash for p in players},
            shrines={str(s): 1 for s in SHRINES},
            box=TOTAL_DOLLS - len(SHRINES) - stash * len(players),
            current=first,
        )
        events: list[Event] = []
        self._start_turn(state, first, events)
        return state

    # -- the contract ------------------------------------------------------------------------------------------
    def pending(self, state: TatariState) -> list[Decision]:
        p = state.current
        if state.phase == "over":
            return []
        if state.phase == "select":
            opts = [
                Option(id=f"set:{f}", label=self._select_label(state, f))
                for f in FACES
                if f in state.rolled and f not in state.set_aside
            ]
            return [Decision(player=p, kind="select", prompt=f"{player_ref(p)}: set aside one face", options=opts)]
        if state.phase == "fate":
            return [
                Decision(
                    player=p,
                    kind="fate",
                    prompt=f"{player_ref(p)}: total {state.total}, {_dolls(state.dolls)} — continue or stop?",
                    options=[
                        Option(id="continue", label=f"Continue (roll {_dice(DICE - len(state.set_aside))})"),
                        Option(id="stop", label=self._stop_label(state)),
                    ],
                )
            ]
        if state.phase == "bust":
            most = self._fullest(state)
            return [
                Decision(
                    player=p,
                    kind="bust",
                    prompt=f"{player_ref(p)} busts: take the dolls of which shrine?",
                    options=[
                        Option(id=f"shrine:{s}", label=f"Shrine {s} ({_dolls(state.shrines[str(s)])})", locus=f"shrine:{s}")
                        for s in most
                    ],
                )
            ]
        if state.phase == "give":
            return [
                Decision(
                    player=p,
                    kind="give",
                    prompt=f"{player_ref(p)}: a 1 is set aside — give one doll to whom?",
                    options=[
                        Option(id=f"give:{q}", label=f"{player_ref(q)} ({_dolls(state.stashes[q])})", locus=f"stash:{q}")
                        for q in self._recipients(state)
                    ],
                )
            ]
        raise AssertionError(state.phase)

    def apply(self, state: TatariState, move: Move) -> Outcome:
        """Apply ``move``; ``IllegalMove`` (state unchanged) when it answers no pending decision."""
        if move.player in state.out and state.phase != "over":
            raise IllegalMove("You resigned from this game: wait for the next one.")
        decision, option = self.find_decision(state, move)
        if option is None:  # a timeout: Tatari has no deadlines
            raise IllegalMove("Nothing in Tatari runs on a deadline.")
        s = _copy(state)
        events: list[Event] = []
        kind, _, arg = option.id.partition(":")
        if decision.kind == "select":
            self._select(s, arg, events)
        elif option.id == "continue":
            events.append(Event(kind="continue", text=f"{player_ref(s.current)} continues.", data={}))
            self._roll(s, events)
        elif option.id == "stop":
            self._stop(s, events)
        elif decision.kind == "bust":
            self._take_shrine(s, int(arg), events)
        elif decision.kind == "give":
            self._give(s, arg, events)
        return Outcome(state=s, events=events)

    def result(self, state: TatariState) -> Result | None:
        """Winner and ranking by dolls left, fewer better, ties share (TA-10); resigned players last, without a
        score (their dolls went to the Shrine box: 0 left would read as the best score)."""
        if state.phase != "over":
            return None
        winner = state.winner
        others = [p for p in state.in_play() if p != winner]
        last_left = winner is not None and not others and bool(state.out)
        ranking = ([[winner]] if winner else []) + rank_by(others, lambda p: state.stashes[p])
        if state.out:
            ranking.append(list(state.out))
        return Result(
            winners=[winner] if winner else [],
            ranking=ranking,
            scores={p: state.stashes[p] for p in state.players if p not in state.out},  # a resigner's 0 is no score
            reason=(
                f"{player_ref(winner)} starts a turn with an empty stash and breaks the curse."
                if winner and not last_left
                else f"{player_ref(winner)} is the last player left." if winner else "Nobody is left."
            ),
        )

    def resign(self, state: TatariState, player: str) -> Outcome | None:
        """A resigning player's dolls go to the Shrine box and the turn order skips them (our ruling for chat play).
        With one player left, that player wins."""
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        if player in state.out:
            raise IllegalMove("You have already resigned.")
        if player not in state.in_play():
            raise IllegalMove("You are not playing in this game.")
        s = _copy(state)
        events = [Event(kind="resign", text=f"{player_ref(player)} resigns; their dolls go to the Shrine box.")]
        s.box += s.stashes[player]
        s.stashes[player] = 0
        s.out.append(player)
        left = s.in_play()
        if len(left) == 1:
            s.phase = "over"
            s.winner = left[0]
            events.append(Event(kind="win", text=f"{player_ref(left[0])} wins: nobody else is left.", data={}))
        elif s.current == player:
            self._end_turn(s, events)
        elif s.phase == "give" and len(self._recipients(s)) == 1:  # C-3: one recipient left, no question
            self._give(s, self._recipients(s)[0], events)
        return Outcome(state=s, events=events)

    def status(self, state: TatariState) -> str:
        stashes = ", ".join(f"{player_ref(p)} {state.stashes[p]}" for p in state.in_play())
        shrines = " ".join(f"{k}:{v}" for k, v in state.shrines.items())
        if state.phase == "over":
            head = f"{player_ref(state.winner)} wins" if state.winner else "Game over"
            return f"{head} · shrines {shrines} · stashes {stashes}"
        return f"Turn of {player_ref(state.current)} · total {state.total} · shrines {shrines} · stashes {stashes}"

    def greedy(self, state: TatariState, decision: Decision, rng) -> str | None:
        from games.tatari.ai import greedy_choice

        return greedy_choice(state, decision)

    def begin_turn(self, state: TatariState, player: str) -> Outcome:
        """Start ``player``'s turn in ``state`` (return the dice, roll six: rulebook step 1) as the game does after
        every turn. For tests and tools that build a position: ``begin_turn(force(position, "4", ...), "alice")``
        forces the first roll (C-1). ``IllegalMove`` if ``player`` is not in play."""
        if player not in state.in_play():
            raise IllegalMove(f"{player_ref(player)} is not in play.")
        s = _copy(state)
        events: list[Event] = []
        self._start_turn(s, player, events)
        return Outcome(state=s, events=events)

    # -- steps -------------------------------------------------------------------------------------------------
    def _select_label(self, state: TatariState, face: str) -> str:
        n = state.rolled.count(face)
        return f"{FACE_LABEL[face]} ×{n}" if n > 1 else FACE_LABEL[face]

    def _stop_label(self, state: TatariState) -> str:
        t, d = state.total, state.dolls
        if t >= 11:
            return f"Stop: {_dolls(min(d, state.stashes[state.current]))} to the Shrine box"
        shrine = state.shrines[str(t)]
        if shrine < d:
            return f"Stop: put {min(d - shrine, state.stashes[state.current])} on shrine {t}"
        if shrine > d:
            return f"Stop: take {shrine - d} from shrine {t}"
        return f"Stop: shrine {t} stays at {shrine}"

    def _start_turn(self, s: TatariState, player: str, events: list[Event]) -> None:
        s.current = player
        s.set_aside = []
        s.rolled = []
        if s.stashes[player] == 0:  # TA-10
            s.phase = "over"
            s.winner = player
            events.append(
                Event(kind="win", text=f"{player_ref(player)} starts a turn with no dolls and wins!", data={})
            )
            return
        self._roll(s, events)

    def _roll(self, s: TatariState, events: list[Event]) -> None:
        """Roll the dice still in the box (step 1); bust when no new face shows (TA-3); auto-select one face (C-3)."""
        n = DICE - len(s.set_aside)
        s.rolled = [s.rng.pick(FACES) for _ in range(n)]
        events.append(
            Event(
                kind="roll",
                text=f"{player_ref(s.current)} rolls {_faces_text(s.rolled)}.",
                data={"player": s.current, "faces": list(s.rolled)},
            )
        )
        choices = {f for f in s.rolled if f not in s.set_aside}
        if not choices:
            events.append(
                Event(kind="bust", text=f"No new face: {player_ref(s.current)} busts.", data={"reason": "no_face"})
            )
            self._bust(s, events)
        elif len(choices) == 1:
            self._select(s, choices.pop(), events)
        else:
            s.phase = "select"

    def _select(self, s: TatariState, face: str, events: list[Event]) -> None:
        """Set aside every rolled die showing ``face`` (TA-3), then the fate step (TA-4)."""
        n = s.rolled.count(face)
        s.set_aside.extend([face] * n)
        s.rolled = []
        events.append(
            Event(
                kind="set_aside",
                text=f"{player_ref(s.current)} sets aside {FACE_LABEL[face]} ×{n}: total {s.total}, {_dolls(s.dolls)}.",
                data={"face": face, "count": n, "total": s.total, "dolls": s.dolls},
            )
        )
        if len(s.set_aside) == DICE:  # TA-4: the turn ends at once
            if s.total >= 7:
                self._stop(s, events)
            else:
                events.append(
                    Event(
                        kind="bust",
                        text=f"All six dice set aside with total {s.total}: {player_ref(s.current)} busts.",
                        data={"reason": "low_total"},
                    )
                )
                self._bust(s, events)
        elif s.total >= 7:
            s.phase = "fate"
        else:
            self._roll(s, events)

    def _to_stash(self, s: TatariState, player: str, n: int, events: list[Event]) -> None:
        """Give ``player`` ``n`` dolls; past 10 they go to the Shrine box (TA-9)."""
        room = STASH_CAP - s.stashes[player]
        kept = min(n, max(room, 0))
        s.stashes[player] += kept
        if n > kept:
            s.box += n - kept
            events.append(
                Event(
                    kind="overflow",
                    text=f"{player_ref(player)} can hold only 10: {n - kept} to the Shrine box.",
                    data={"player": player, "count": n - kept},
                )
            )

    def _stop(self, s: TatariState, events: list[Event]) -> None:
        """Resolve a stop (TA-5, TA-6), then the gift of a set-aside 1 (TA-7)."""
        p, t, d = s.current, s.total, s.dolls
        if t >= 11:
            moved = min(d, s.stashes[p])
            s.stashes[p] -= moved
            s.box += moved
            events.append(
                Event(
                    kind="stop",
                    text=f"{player_ref(p)} stops at {t}: {_dolls(moved)} to the Shrine box.",
                    data={"total": t, "dolls": d, "shrine": 11, "to_shrine": moved},
                )
            )
        else:
            key = str(t)
            held = s.shrines[key]
            if held < d:
                moved = min(d - held, s.stashes[p])
                s.stashes[p] -= moved
                s.shrines[key] += moved
                text = f"{player_ref(p)} stops at {t}: puts {moved} on shrine {t} (now {s.shrines[key]})."
                data = {"total": t, "dolls": d, "shrine": t, "to_shrine": moved}
            elif held > d:
                taken = held - d
                s.shrines[key] -= taken
                text = f"{player_ref(p)} stops at {t}: takes {taken} from shrine {t} (now {s.shrines[key]})."
                data = {"total": t, "dolls": d, "shrine": t, "to_shrine": -taken}
                events.append(Event(kind="stop", text=text, data=data))
                self._to_stash(s, p, taken, events)
                text = ""
            else:
                text = f"{player_ref(p)} stops at {t}: shrine {t} already holds {held}; nothing moves."
                data = {"total": t, "dolls": d, "shrine": t, "to_shrine": 0}
            if text:
                events.append(Event(kind="stop", text=text, data=data))
        if "1" in s.set_aside and s.stashes[p] > 0:  # TA-7
            recipients = self._recipients(s)
            if len(recipients) == 1:
                self._give(s, recipients[0], events)
                return
            s.phase = "give"
            return
        self._end_turn(s, events)

    def _recipients(self, s: TatariState) -> list[str]:
        return [q for q in s.in_play() if q != s.current]

    def _give(self, s: TatariState, to: str, events: list[Event]) -> None:
        s.stashes[s.current] -= 1
        events.append(
            Event(
                kind="give",
                text=f"{player_ref(s.current)} gives a doll to {player_ref(to)}.",
                data={"from": s.current, "to": to},
            )
        )
        self._to_stash(s, to, 1, events)
        self._end_turn(s, events)

    def _fullest(self, s: TatariState) -> list[int]:
        most = max(s.shrines.values())
        return [t for t in SHRINES if s.shrines[str(t)] == most]

    def _bust(self, s: TatariState, events: list[Event]) -> None:
        """TA-8: take the fullest shrine; ask only on a tie (C-3). All shrines empty: nothing to take. The busting
        roll stays in ``rolled`` (every face already set aside) so the board can show it; the next turn clears it."""
        most = self._fullest(s)
        if s.shrines[str(most[0])] == 0:
            events.append(Event(kind="take", text="Every shrine is empty: nothing to take.", data={"shrine": None}))
            self._end_turn(s, events)
        elif len(most) == 1:
            self._take_shrine(s, most[0], events)
        else:
            s.phase = "bust"

    def _take_shrine(self, s: TatariState, shrine: int, events: list[Event]) -> None:
        n = s.shrines[str(shrine)]
        s.shrines[str(shrine)] = 0
        events.append(
            Event(
                kind="take",
                text=f"{player_ref(s.current)} takes {_dolls(n)} from shrine {shrine}.",
                data={"shrine": shrine, "count": n},
            )
        )
        self._to_stash(s, s.current, n, events)
        self._end_turn(s, events)

    def _end_turn(self, s: TatariState, events: list[Event]) -> None:
        """Pass the box to the left (seat order, C-2) and start that player's turn (TA-10 checked there)."""
        order = s.in_play()
        if s.current in order:
            nxt = order[(order.index(s.current) + 1) % len(order)]
        else:  # the current player just resigned
            seats = s.players
            i = seats.index(s.current)
            nxt = next(seats[(i + k) % len(seats)] for k in range(1, len(seats)) if seats[(i + k) % len(seats)] in order)
        s.turn_number += 1
        self._start_turn(s, nxt, events)
