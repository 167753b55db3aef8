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

import unicodedata
from typing import Any

from games.core import (
    Decision,
    Event,
    Game,
    IllegalMove,
    Move,
    N,
    Option,
    Outcome,
    Result,
    Rng,
    T,
    Text,
    player_ref,
    rank_by,
)
from games.tatari import rules
from games.tatari.data import DICE, FACE_LABEL, FACE_WORDS, FACES, SHRINES, TOTAL_DOLLS, stash_size
from games.tatari.help import RULES_HELP, TOPIC_NAMES
from games.tatari.rules import dice_text, dolls_text, kept_of
from games.tatari.state import TatariOptions, TatariState

_COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def _or(items: list[Text]) -> Text:
    """``a, b or c`` (each item translated)."""
    if len(items) > 1:
        return T("{some} or {last}", some=Text.join(_COMMA, items[:-1]), last=items[-1])
    return Text.join("", items)



def _narrow(ch: str) -> str:
    """``ch`` as its ordinary form when it is a full-width or half-width form (U+FF00-U+FFEF: ２ -> 2, Ｄ -> D,
    ﾆ -> ニ), else itself."""
    return unicodedata.normalize("NFKC", ch) if 0xFF00 <= ord(ch) <= 0xFFEF else ch

class Tatari(Game):
    """Tatari (rulebook ``tatari.md``; RULINGS TA-1..TA-10, C-1..C-4)."""

    id = "tatari"
    title = T("Tatari")
    lower_score_wins = True  # scores are dolls left, fewer better (TA-10)
    min_players = 2
    max_players = 5
    Options = TatariOptions
    State = TatariState
    summary = T("Push-your-luck dice: break the curse by pushing your cursed dolls onto shrines 7-11.")
    rules_help = RULES_HELP
    rules_topics = TOPIC_NAMES

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
        how = T("drawn at random") if opts.first == "random" else T("first seat")
        events = [
            Event(
                kind="first",
                text=T("{player} holds the Cursed box first ({how}).", player=player_ref(first), how=how),
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
            return [Decision(player=p, kind="select", prompt=T("{player}: set aside one face", player=player_ref(p)), options=opts)]
        if state.phase == "fate":
            return [
                Decision(
                    player=p,
                    kind="fate",
                    prompt=T("{player}: total {total}, {pile} — continue or stop?", player=player_ref(p),
                               total=state.total, pile=dolls_text(state.dolls)),
                    options=[
                        Option(id="continue", label=T("Continue (roll {dice})", dice=dice_text(DICE - len(state.set_aside)))),
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
                    prompt=T("{player} busts: take the dolls of which shrine?", player=player_ref(p)),
                    options=[Option(id=f"shrine:{s}", label=self._take_label(state, s), locus=f"shrine:{s}",
                                    short=self._take_short(state, s)) for s in most],
                )
            ]
        if state.phase == "give":
            return [
                Decision(
                    player=p,
                    kind="give",
                    prompt=T("{player}: a 1 is set aside, so you must give one doll — to whom?", player=player_ref(p)),
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
            raise IllegalMove(T("You resigned from this game: wait for the next one."))
        if state.phase == "select" and move.player == state.current and move.option.startswith("set:"):
            self._check_face(state, move.option.removeprefix("set:"))
        decision, option = self.find_decision(state, move)
        if option is None:  # a timeout: Tatari has no deadlines
            raise IllegalMove(T("Nothing in Tatari runs on a deadline."))
        s = state.clone()
        events: list[Event] = []
        arg = option.id.partition(":")[2]
        if decision.kind == "select":
            rules.select(s, arg, events)
        elif option.id == "continue":
            events.append(Event(kind="continue", text=T("{player} continues.", player=player_ref(s.current)), data={}))
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
                T("{player} starts a turn with an empty stash and breaks the curse.", player=player_ref(winner))
                if winner and not last_left
                else T("{player} is the last player left.", player=player_ref(winner)) if winner
                else T("Nobody is left.")
            ),
        )

    # -- optional hooks ----------------------------------------------------------------------------------------
    def resign(self, state: TatariState, player: str) -> Outcome | None:
        """A resigning player's dolls go to the Shrine box and the turn order skips them (our ruling for chat play).
        With one player left, that player wins."""
        if state.phase == "over":
            raise IllegalMove(T("The game is over."))
        if player in state.out:
            raise IllegalMove(T("You have already resigned."))
        if player not in state.in_play():
            raise IllegalMove(T("You are not playing in this game."))
        s = state.clone()
        events = [Event(kind="resign", text=T("{player} resigns; their dolls go to the Shrine box.", player=player_ref(player)))]
        s.box += s.stashes[player]
        s.stashes[player] = 0
        s.out.append(player)
        left = s.in_play()
        if len(left) == 1:
            s.phase = "over"
            s.winner = left[0]
            events.append(Event(kind="win", text=T("{player} wins: nobody else is left.", player=player_ref(left[0])), data={}))
        elif s.current == player:
            rules.end_turn(s, events)
        elif s.phase == "give" and len(rules.recipients(s)) == 1:  # C-3: one recipient left, no question
            rules.give(s, rules.recipients(s)[0], events)
        return Outcome(state=s, events=events)

    def score_words(self, score: int) -> Text:
        """The dolls left in a player's stash (the score ranks fewer first, TA-10): ``"3 dolls left"``."""
        return N("{n} doll left", "{n} dolls left", n=score)

    def score_heading(self) -> Text:
        """The result card's score column: the dolls left in each stash (TA-10)."""
        return T("Dolls")

    def chat_word(self, text: str) -> str | None:
        """A die face typed as itself: "1".."4", "doll", "double-doll" (or "double"), or its Japanese name 人形,
        ダブル人形 -> ``set:<face>``; width (full- and half-width forms, as a Japanese IME types them), case, spaces and
        punctuation ignored; other look-alike digits (superscripts ², circled ①) are no face. Adapters that try chat
        words before list numbers make a typed "1" mean the face 1 while a face is to be set aside (a face not
        showing is then refused with its reason). None otherwise."""
        narrow = unicodedata.normalize("NFC", "".join(_narrow(ch) for ch in text))  # ｷﾞ -> ギ
        word = "".join(ch for ch in narrow.casefold() if ch.isalnum())
        face = FACE_WORDS.get(word)
        return f"set:{face}" if face else None

    def status(self, state: TatariState) -> Text:
        """One line: whose turn and the total, the shrines and every stash."""
        stashes = Text.join(_COMMA, [f"{player_ref(p)} {state.stashes[p]}" for p in state.in_play()])
        shrines = " ".join(f"{k}:{v}" for k, v in state.shrines.items())
        if state.phase == "over":
            head = T("{player} wins", player=player_ref(state.winner)) if state.winner else T("Game over")
            return T("{head} · shrines {shrines} · stashes {stashes}", head=head, shrines=shrines, stashes=stashes)
        return T("Turn of {player} · total {total} · shrines {shrines} · stashes {stashes}",
                 player=player_ref(state.current), total=state.total, shrines=shrines, stashes=stashes)

    def greedy(self, state: TatariState, decision: Decision, rng: Any) -> str | None:
        """The greedy player of :mod:`games.tatari.ai`."""
        from games.tatari.ai import greedy_choice

        return greedy_choice(state, decision)

    def begin_turn(self, state: TatariState, player: str) -> Outcome:
        """Start ``player``'s turn in ``state`` (return the dice, roll six: rulebook step 1) as the game does after
        every turn. For tests and tools that build a position: ``begin_turn(force(position, "4", ...), "alice")``
        forces the first roll (C-1). ``IllegalMove`` if ``player`` is not in play."""
        if player not in state.in_play():
            raise IllegalMove(T("{player} is not in play.", player=player_ref(player)))
        s = state.clone()
        events: list[Event] = []
        rules.start_turn(s, player, events)
        return Outcome(state=s, events=events)

    # -- labels and refusals -----------------------------------------------------------------------------------
    @staticmethod
    def _check_face(state: TatariState, face: str) -> None:
        """TA-3: say why the die face ``face`` cannot be set aside now (IllegalMove); nothing when it can."""
        offered = [FACE_LABEL[f] for f in FACES if f in state.rolled and f not in state.set_aside]
        if face not in FACES:
            return  # not a face at all: the contract's "not a choice now" with the list
        label = FACE_LABEL[face]
        if face in state.set_aside:
            why = T("You already set aside {face} this turn: each face is set aside once (TA-3).", face=label)
        elif face not in state.rolled:
            why = T("No die shows {face} in this roll ({roll}).", face=label, roll=rules.faces_text(state.rolled))
        else:
            return
        if offered:
            choose = T("Set aside {faces}.", faces=_or(offered))
            raise IllegalMove(T("{why} {choose}", why=why, choose=choose))
        raise IllegalMove(why)

    @staticmethod
    def _select_label(state: TatariState, face: str) -> Text:
        n = state.rolled.count(face)
        return T("{face} ×{n}", face=FACE_LABEL[face], n=n) if n > 1 else FACE_LABEL[face]

    @staticmethod
    def _stop_label(state: TatariState) -> Text:
        """What a stop would do now (TA-5, TA-6), warning when dolls taken would overflow to the Shrine box (TA-9)."""
        t, d, p = state.total, state.dolls, state.current
        if t >= 11:
            return T("Stop: {pile} to the Shrine box", pile=dolls_text(min(d, state.stashes[p])))
        shrine = state.shrines[str(t)]
        if shrine < d:
            return T("Stop: put {n} on shrine {shrine}", n=min(d - shrine, state.stashes[p]), shrine=t)
        if shrine > d:
            taken = shrine - d
            lost = taken - kept_of(state, p, taken)
            if lost:
                return T("Stop: take {n} from shrine {shrine} ({lost} to the Shrine box)", n=taken, shrine=t, lost=lost)
            return T("Stop: take {n} from shrine {shrine}", n=taken, shrine=t)
        return T("Stop: shrine {shrine} stays at {n}", shrine=t, n=shrine)

    @staticmethod
    def _stop_short(state: TatariState) -> Text | None:
        """The stop's button when dolls taken would overflow (:meth:`_stop_label`): "Stop: take 3 from shrine 10
        (2 to box)"; None otherwise (the label fits)."""
        t, d, p = state.total, state.dolls, state.current
        if t >= 11 or state.shrines[str(t)] <= d:
            return None
        taken = state.shrines[str(t)] - d
        lost = taken - kept_of(state, p, taken)
        return T("Stop: take {n} from shrine {shrine} ({lost} to box)", n=taken, shrine=t, lost=lost) if lost else None

    @staticmethod
    def _take_short(state: TatariState, shrine: int) -> Text | None:
        """A bust shrine's button when dolls would overflow (:meth:`_take_label`): "Shrine 8 (2 dolls; 1 to the
        box)"; None otherwise."""
        n = state.shrines[str(shrine)]
        lost = n - kept_of(state, state.current, n)
        return T("Shrine {shrine} ({pile}; {lost} to the box)", shrine=shrine, pile=dolls_text(n), lost=lost) \
            if lost else None

    @staticmethod
    def _give_short(state: TatariState, to: str) -> Text | None:
        """A full recipient's button (:meth:`_give_label`): "{@bob} (full: doll to the box)"; None otherwise."""
        return T("{player} (full: doll to the box)", player=player_ref(to)) if kept_of(state, to, 1) == 0 else None

    @staticmethod
    def _take_label(state: TatariState, shrine: int) -> Text:
        """A bust's shrine (TA-8), warning how many of its dolls go to the Shrine box past 10 (TA-9)."""
        n = state.shrines[str(shrine)]
        lost = n - kept_of(state, state.current, n)
        if lost:
            return T("Shrine {shrine} ({pile}; {lost} to the Shrine box: you can hold only 10)", shrine=shrine,
                     pile=dolls_text(n), lost=lost)
        return T("Shrine {shrine} ({pile})", shrine=shrine, pile=dolls_text(n))

    @staticmethod
    def _give_label(state: TatariState, to: str) -> Text:
        """A gift's recipient (TA-7) with their stash, warning when the doll would go to the Shrine box (TA-9)."""
        n = state.stashes[to]
        if kept_of(state, to, 1) == 0:
            return T("{player} ({pile}: full, the doll goes to the Shrine box)", player=player_ref(to),
                     pile=dolls_text(n))
        return T("{player} ({pile})", player=player_ref(to), pile=dolls_text(n))
