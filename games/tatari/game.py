"""The Tatari game object: setup and begin, pending decisions, apply, result, hooks (ARCHITECTURE.md contract;
``shared/rules/tatari.md``, RULINGS TA-1..TA-10).

Decisions (``kind``: option ids):
- ``select``: ``set:<face>`` — faces ``1 2 3 4 doll double`` (TA-2). A face may also be typed as itself
  (``chat_word``: "1" is the face 1, "double-doll" the double-doll), and a face that cannot be set aside is refused
  with the reason (not showing, or already set aside: TA-3).
- ``fate``: ``continue`` | ``stop`` (offered only from a total of 7, TA-4).
- ``bust``: ``shrine:<7..10>`` — only when shrines tie for most (TA-8, C-3).
- ``give``: ``give:<player id>`` — the compulsory gift of a set-aside 1, asked only with two or more possible
  recipients (TA-7, C-3).
"""

from __future__ import annotations

from typing import Any

from games.core import (
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
from games.tatari import rules
from games.tatari.data import DICE, FACE_LABEL, FACE_WORDS, FACES, SHRINES, TOTAL_DOLLS, stash_size
from games.tatari.help import RULES_HELP
from games.tatari.rules import dice_text, dolls_text, kept_of
from games.tatari.state import TatariOptions, TatariState


def _or(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


class Tatari(Game):
    """Tatari (rulebook ``tatari.md``; RULINGS TA-1..TA-10, C-1..C-4)."""

    id = "tatari"
    title = "Tatari"
    lower_score_wins = True  # scores are dolls left, fewer better (TA-10)
    min_players = 2
    max_players = 5
    Options = TatariOptions
    State = TatariState
    summary = "Push-your-luck dice: break the curse by pushing your cursed dolls onto shrines 7-11."
    rules_help = RULES_HELP

    # -- setup ------------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: Any = None, seed: int = 0) -> TatariState:
        """Deal the dolls (TA-1), hand the Cursed box to the first player and roll their first throw. The same
        state as ``begin(players, options, seed).state``. ``ValueError`` for a bad player count or options."""
        return self.begin(players, options, seed).state

    def begin(self, players: list[str], options: Any = None, seed: int = 0) -> Outcome:
        """Setup and what the table sees happen in it: who holds the Cursed box first (the host's seat, or the
        seeded draw with ``first="random"``), then the first roll and all it resolved (a face set aside without
        asking, a whole turn when a roll leaves no choice: e.g. six 3s stop at 18). ``Outcome(state, events)``;
        ``ValueError`` as :meth:`setup`."""
        self.check_players(players)
        opts = self.options(options)
        stash = stash_size(len(players))
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
        how = "drawn at random" if opts.first == "random" else "first seat"
        events = [
            Event(
                kind="first",
                text=f"{player_ref(first)} holds the Cursed box first ({how}).",
                data={"player": first, "how": opts.first},
            )
        ]
        rules.start_turn(state, first, events)
        return Outcome(state=state, events=events)

    # -- the contract ------------------------------------------------------------------------------------------
    def pending(self, state: TatariState) -> list[Decision]:
        """The one decision the current player owes (see the module doc), or none when the game is over."""
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
                    prompt=f"{player_ref(p)}: total {state.total}, {dolls_text(state.dolls)} — continue or stop?",
                    options=[
                        Option(id="continue", label=f"Continue (roll {dice_text(DICE - len(state.set_aside))})"),
                        Option(id="stop", label=self._stop_label(state), short=self._stop_short(state)),
                    ],
                )
            ]
        if state.phase == "bust":
            most = rules.fullest(state)
            return [
                Decision(
                    player=p,
                    kind="bust",
                    prompt=f"{player_ref(p)} busts: take the dolls of which shrine?",
                    options=[Option(id=f"shrine:{s}", label=self._take_label(state, s), locus=f"shrine:{s}",
                                    short=self._take_short(state, s)) for s in most],
                )
            ]
        if state.phase == "give":
            return [
                Decision(
                    player=p,
                    kind="give",
                    prompt=f"{player_ref(p)}: a 1 is set aside, so you must give one doll — to whom?",
                    options=[
                        Option(id=f"give:{q}", label=self._give_label(state, q), locus=f"stash:{q}",
                               short=self._give_short(state, q))
                        for q in rules.recipients(state)
                    ],
                )
            ]
        raise AssertionError(state.phase)

    def apply(self, state: TatariState, move: Move) -> Outcome:
        """Apply ``move``; ``IllegalMove`` (state unchanged) when it answers no pending decision, with the reason
        for a face that cannot be set aside (TA-3)."""
        if move.player in state.out and state.phase != "over":
            raise IllegalMove("You resigned from this game: wait for the next one.")
        if state.phase == "select" and move.player == state.current and move.option.startswith("set:"):
            self._check_face(state, move.option.removeprefix("set:"))
        decision, option = self.find_decision(state, move)
        if option is None:  # a timeout: Tatari has no deadlines
            raise IllegalMove("Nothing in Tatari runs on a deadline.")
        s = state.clone()
        events: list[Event] = []
        arg = option.id.partition(":")[2]
        if decision.kind == "select":
            rules.select(s, arg, events)
        elif option.id == "continue":
            events.append(Event(kind="continue", text=f"{player_ref(s.current)} continues.", data={}))
            rules.roll(s, events)
        elif option.id == "stop":
            rules.stop(s, events)
        elif decision.kind == "bust":
            rules.take_shrine(s, int(arg), events)
        elif decision.kind == "give":
            rules.give(s, arg, events)
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

    # -- optional hooks ----------------------------------------------------------------------------------------
    def resign(self, state: TatariState, player: str) -> Outcome | None:
        """A resigning player's dolls go to the Shrine box and the turn order skips them (our ruling for chat play).
        With one player left, that player wins."""
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        if player in state.out:
            raise IllegalMove("You have already resigned.")
        if player not in state.in_play():
            raise IllegalMove("You are not playing in this game.")
        s = state.clone()
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
            rules.end_turn(s, events)
        elif s.phase == "give" and len(rules.recipients(s)) == 1:  # C-3: one recipient left, no question
            rules.give(s, rules.recipients(s)[0], events)
        return Outcome(state=s, events=events)

    def chat_word(self, text: str) -> str | None:
        """A die face typed as itself: "1".."4", "doll", "double-doll" (or "double") -> ``set:<face>``; case, spaces
        and punctuation ignored. Adapters that try chat words before list numbers make a typed "1" mean the face 1
        while a face is to be set aside (a face not showing is then refused with its reason). None otherwise."""
        word = "".join(ch for ch in text.casefold() if ch.isalnum())
        face = FACE_WORDS.get(word)
        return f"set:{face}" if face else None

    def status(self, state: TatariState) -> str:
        """One line: whose turn and the total, the shrines and every stash."""
        stashes = ", ".join(f"{player_ref(p)} {state.stashes[p]}" for p in state.in_play())
        shrines = " ".join(f"{k}:{v}" for k, v in state.shrines.items())
        if state.phase == "over":
            head = f"{player_ref(state.winner)} wins" if state.winner else "Game over"
            return f"{head} · shrines {shrines} · stashes {stashes}"
        return f"Turn of {player_ref(state.current)} · total {state.total} · shrines {shrines} · stashes {stashes}"

    def greedy(self, state: TatariState, decision: Decision, rng: Any) -> str | None:
        """The greedy player of :mod:`games.tatari.ai`."""
        from games.tatari.ai import greedy_choice

        return greedy_choice(state, decision)

    def begin_turn(self, state: TatariState, player: str) -> Outcome:
        """Start ``player``'s turn in ``state`` (return the dice, roll six: rulebook step 1) as the game does after
        every turn. For tests and tools that build a position: ``begin_turn(force(position, "4", ...), "alice")``
        forces the first roll (C-1). ``IllegalMove`` if ``player`` is not in play."""
        if player not in state.in_play():
            raise IllegalMove(f"{player_ref(player)} is not in play.")
        s = state.clone()
        events: list[Event] = []
        rules.start_turn(s, player, events)
        return Outcome(state=s, events=events)

    # -- labels and refusals -----------------------------------------------------------------------------------
    @staticmethod
    def _check_face(state: TatariState, face: str) -> None:
        """TA-3: say why the die face ``face`` cannot be set aside now (IllegalMove); nothing when it can."""
        offered = [FACE_LABEL[f] for f in FACES if f in state.rolled and f not in state.set_aside]
        choose = f"Set aside {_or(offered)}." if offered else ""
        if face not in FACES:
            return  # not a face at all: the contract's "not a choice now" with the list
        label = FACE_LABEL[face]
        if face in state.set_aside:
            raise IllegalMove(
                f"You already set aside {label} this turn: each face is set aside once (TA-3). {choose}".strip()
            )
        if face not in state.rolled:
            raise IllegalMove(
                f"No die shows {label} in this roll ({rules.faces_text(state.rolled)}). {choose}".strip()
            )

    @staticmethod
    def _select_label(state: TatariState, face: str) -> str:
        n = state.rolled.count(face)
        return f"{FACE_LABEL[face]} ×{n}" if n > 1 else FACE_LABEL[face]

    @staticmethod
    def _stop_label(state: TatariState) -> str:
        """What a stop would do now (TA-5, TA-6), warning when dolls taken would overflow to the Shrine box (TA-9)."""
        t, d, p = state.total, state.dolls, state.current
        if t >= 11:
            return f"Stop: {dolls_text(min(d, state.stashes[p]))} to the Shrine box"
        shrine = state.shrines[str(t)]
        if shrine < d:
            return f"Stop: put {min(d - shrine, state.stashes[p])} on shrine {t}"
        if shrine > d:
            taken = shrine - d
            lost = taken - kept_of(state, p, taken)
            return f"Stop: take {taken} from shrine {t}" + (f" ({lost} to the Shrine box)" if lost else "")
        return f"Stop: shrine {t} stays at {shrine}"

    @staticmethod
    def _stop_short(state: TatariState) -> str | None:
        """The stop's button when dolls taken would overflow (:meth:`_stop_label`): "Stop: take 3 from shrine 10
        (2 to box)"; None otherwise (the label fits)."""
        t, d, p = state.total, state.dolls, state.current
        if t >= 11 or state.shrines[str(t)] <= d:
            return None
        taken = state.shrines[str(t)] - d
        lost = taken - kept_of(state, p, taken)
        return f"Stop: take {taken} from shrine {t} ({lost} to box)" if lost else None

    @staticmethod
    def _take_short(state: TatariState, shrine: int) -> str | None:
        """A bust shrine's button when dolls would overflow (:meth:`_take_label`): "Shrine 8 (2 dolls; 1 to the
        box)"; None otherwise."""
        n = state.shrines[str(shrine)]
        lost = n - kept_of(state, state.current, n)
        return f"Shrine {shrine} ({dolls_text(n)}; {lost} to the box)" if lost else None

    @staticmethod
    def _give_short(state: TatariState, to: str) -> str | None:
        """A full recipient's button (:meth:`_give_label`): "{@bob} (full: doll to the box)"; None otherwise."""
        return f"{player_ref(to)} (full: doll to the box)" if kept_of(state, to, 1) == 0 else None

    @staticmethod
    def _take_label(state: TatariState, shrine: int) -> str:
        """A bust's shrine (TA-8), warning how many of its dolls go to the Shrine box past 10 (TA-9)."""
        n = state.shrines[str(shrine)]
        lost = n - kept_of(state, state.current, n)
        tail = f"; {lost} to the Shrine box: you can hold only 10" if lost else ""
        return f"Shrine {shrine} ({dolls_text(n)}{tail})"

    @staticmethod
    def _give_label(state: TatariState, to: str) -> str:
        """A gift's recipient (TA-7) with their stash, warning when the doll would go to the Shrine box (TA-9)."""
        n = state.stashes[to]
        tail = ": full, the doll goes to the Shrine box" if kept_of(state, to, 1) == 0 else ""
        return f"{player_ref(to)} ({dolls_text(n)}{tail})"
