"""The Tatamokatsu game object: setup, pending decisions, apply, result (ARCHITECTURE.md contract).

Time (RULINGS C-4, TK-10): the engine never reads a clock. The roller's ``Move(roller, "roll", at_ms=T)`` opens the
reaction window ``[T, T + window_ms]``; the race decision (``player=None``) carries ``deadline_ms = T + window_ms``
and the session closes it with ``Move(None, "timeout", at_ms=deadline)``. Race inputs (``shout``, ``grab``,
``katana``, ``salute``) may arrive in any order: each player's earliest time per input is kept and the window is
judged by those times only when it closes. An input timed outside the open window is refused (IllegalMove).
The roller's count of the 1/10 dice opens only when the race window closes and must be timed by its own deadline
(TK-11): during the race the only decision listed is the race itself.
A repeat of the same input by the same player is accepted and keeps the earlier time; it is told (an ``input``
event) only when it moves that time earlier. The salute window (sum 11-16)
closes as soon as every player with fingers has saluted (nothing can change after that); the race window always
waits for its timeout, since a late-arriving input may be timed earlier than those already in.

TK-10 "the window opens at the snowflake time of the roll message": a chat adapter commits the roll before it can
post the roll message, so it then sends the system input ``Move(None, "open", at_ms=<the message's time>)``
(:meth:`Tatamokatsu.opening` names it): the window becomes ``[T_msg, T_msg + window_ms]``, inputs timed outside it
are dropped (none can have seen the dice before the message existed), and it is logged like any move, so replay is
exact. Once a roll; a game played without it (offline adapters) keeps the window at the roll's time.
"""

from __future__ import annotations

from typing import Any

from games.core import (
    DICE_SEP,
    TIMEOUT,
    Decision,
    Event,
    Game,
    IllegalMove,
    Millis,
    Move,
    N,
    Option,
    Outcome,
    Result,
    Rng,
    T,
    Text,
)
from games.spelling import fold
from games.tatamokatsu import rules
from games.tatamokatsu.data import (
    ATTACK,
    FINGERS,
    FIX_PREFIX,
    GRAB,
    HERE,
    OPEN,
    RACE_INPUTS,
    RACE_LABELS,
    REACTIONS,
    RECOVER,
    ROLL,
    ROLL_WORDS,
    SALUTE,
    TO_TYPE,
    TYPED_WORDS,
    VICTIM_PREFIX,
)
from games.tatamokatsu.dice import offered_choices
from games.tatamokatsu.help import RULES_HELP, TOPIC_NAMES
from games.tatamokatsu.rules import COMMA
from games.tatamokatsu.state import TatamokatsuOptions, TatamokatsuState

ref = rules.ref

ROLL_OPTIONS = [Option(id=ROLL, label=T("Roll the dice"))]
RACE_OPTIONS = [Option(id=i, label=RACE_LABELS[i]) for i in RACE_INPUTS]
SALUTE_OPTIONS = [Option(id=SALUTE, label=RACE_LABELS[SALUTE])]


def _choice_options(fingers: int) -> list[Option]:
    recover = T("Recover one finger") if fingers < FINGERS else T("Recover one finger (you have 5: no change)")
    short = None if fingers < FINGERS else T("Recover one finger (no change)")
    return [Option(id=ATTACK, label=T("Every opponent loses one finger")), Option(id=RECOVER, label=recover,
                                                                                   short=short)]

def normal_word(text: str) -> str:
    """A typed word in the form :data:`~games.tatamokatsu.data.TYPED_WORDS` keys use: :func:`games.spelling.fold`
    (Unicode NFKC: "ＨＡＩ" -> "HAI", "ﾊｲ" -> "ハイ"; case folded; katakana as hiragana: "ハイ" -> "はい"; spaces,
    punctuation, "！" and wave dashes dropped), every long-vowel mark dropped ("はーい" -> "はい"), then a trailing
    small tsu dropped (a clipped spoken ending: "はいっ" -> "はい", "ハイッ！" -> "はい")."""
    return fold(text).replace("ー", "").rstrip("っ")


def word_to_input(text: str) -> str | None:
    """The race input a chat message stands for (``"Tatamokatsu!"`` -> ``"shout"``, ``"hai"``/``"はい"``/``"ハイ"``/
    ``"ﾊｲ"`` -> ``"salute"``, ``"katana"``/``"カタナ"``/``"刀"``, ``"grab"``), or None; compared in
    :func:`normal_word` form, so case, width, kana script, spaces and punctuation are ignored (TK-3); the roller's
    "振る"/"ふる"/"roll" is the roll (:data:`~games.tatamokatsu.data.ROLL_WORDS`)."""
    word = normal_word(text)
    return TYPED_WORDS.get(word) or ROLL_WORDS.get(word)


def _count(option_id: str) -> Text:
    """How the roller counts the 1/10 dice, from a ``fix:`` option id: ``"1+10"`` (``fix:none``: "none")."""
    count = option_id.removeprefix(FIX_PREFIX)
    return T("none") if count == "none" else T("{count}", count=count)


class Tatamokatsu(Game):
    """Tatamokatsu (rulebook ``tatamokatsu.md``; RULINGS TK-1..TK-12, C-1..C-4)."""

    id = "tatamokatsu"
    title = T("Tatamokatsu")
    min_players = 2
    max_players = 5
    Options = TatamokatsuOptions
    State = TatamokatsuState
    summary = T("Roll three dice and react first: shout Tatamokatsu, grab the T die, Katana, salute. Last hand wins.")
    rules_help = RULES_HELP
    rules_topics = TOPIC_NAMES

    # -- setup --------------------------------------------------------------------------------------------------
    live = True

    def held_by(self, state: TatamokatsuState, decision: Decision) -> list[str]:
        """Presence (``TatamokatsuOptions.presence``): a roll waits for every player marked missing who still has
        fingers (any input of theirs, or ``here``, ends the mark)."""
        if decision.kind != "roll":
            return []
        return [p for p in state.missing if state.fingers[p] > 0 and p not in state.left]

    def setup(self, players: list[str], options: Any = None, seed: int = 0) -> TatamokatsuState:
        """A new game: five fingers each (TK-1); seat 0 rolls first (TK-3). ``ValueError`` on a bad table or
        options (``pydantic.ValidationError``)."""
        self.check_players(players)
        opts = self.options(options)

        return TatamokatsuState(
            players=list(players),
            rng=Rng(seed=seed),
            window_ms=opts.window_ms,
            tie_tolerance_ms=opts.tie_tolerance_ms,
            presence=opts.presence,
            fingers=dict.fromkeys(players, FINGERS),
            roller=players[0],
        )

    # -- what the game waits for --------------------------------------------------------------------------------
    def pending(self, state: TatamokatsuState) -> list[Decision]:
        """The open decisions: one at a time. During the race only the race (anyone, with the deadline); the
        roller's count of the 1/10 dice (``fix``) opens when the race closes (TK-11), with its own deadline."""
        phase = state.phase
        if phase == "over":
            return []
        if phase == "roll":
            return [
                Decision(
                    player=state.roller,
                    kind="roll",
                    prompt=T("{player}, roll the three dice.", player=ref(state.roller)),
                    options=ROLL_OPTIONS,
                )
            ]
        if phase == "race":
            # TK-11: the roller's count opens only when this window closes; a public list of counts now would tell
            # everyone whether a 10 or 17 exists.
            return [
                Decision(
                    player=None,
                    kind="race",
                    prompt=T("{player} rolled {dice}: shout, grab, Katana or salute!", player=ref(state.roller),
                             dice=Text.join(DICE_SEP, state.dice)),
                    options=RACE_OPTIONS,
                    deadline_ms=state.deadline_ms,
                )
            ]
        if phase == "fix":
            return [self._fix_decision(state, state.deadline_ms)]
        if phase == "salute":
            return [
                Decision(
                    player=None,
                    kind="salute",
                    prompt=T("Sum {total}: everyone salute (Hai!) or lose a finger.", total=state.total),
                    options=SALUTE_OPTIONS,
                    deadline_ms=state.deadline_ms,
                )
            ]
        if phase == "choice":
            w = state.winner or ""
            return [
                Decision(
                    player=w,
                    kind="tatamokatsu",
                    prompt=T("Tatamokatsu! {player}, strike every opponent or recover a finger.", player=ref(w)),
                    options=_choice_options(state.fingers[w]),
                )
            ]
        # victim
        return [
            Decision(
                player=state.roller,
                kind="victim",
                prompt=T("Sum {total}: {player}, choose who loses a finger.", total=state.total,
                           player=ref(state.roller)),
                options=[
                    Option(id=VICTIM_PREFIX + p, label=T("{player} ({hand})", player=ref(p),
                           hand=rules.fingers_text(state.fingers[p])), locus=f"hand:{p}")
                    for p in rules.victims_of(state)
                ],
            )
        ]

    def _fix_decision(self, state: TatamokatsuState, deadline: int | None) -> Decision:
        """The roller's count of the 1/10 dice (TK-6), open from the race's close until ``deadline`` (TK-11)."""
        choices = offered_choices(state.dice)
        opts = [
            Option(id=c.option_id, label=T("{count} (sum {total})", count=_count(c.option_id), total=c.total))
            for c in choices
        ]
        return Decision(
            player=state.roller,
            kind="fix",
            prompt=T("{player}, count the 1/10 dice (10 and 17 are not offered: nobody shouted). "
                     "No answer in time: sum {total}.", player=ref(state.roller), total=choices[0].total),
            options=opts,
            deadline_ms=deadline,
        )

    # -- moves --------------------------------------------------------------------------------------------------
    def apply(self, state: TatamokatsuState, move: Move) -> Outcome:
        """Apply ``move``; IllegalMove (state unchanged) for a move the rules do not allow now: an unseated or
        departed player, an option not listed, a race input without a time or timed outside the open window, a
        count during the race or timed after its deadline (TK-11), a timeout before its deadline, ``here`` from a
        player not marked missing. Presence (``TatamokatsuOptions.presence``): any input of a player marked
        missing ends the mark, ``here`` (at any time) only that."""
        if move.option == HERE and move.player is not None and state.phase != "over":
            if move.player not in state.missing:
                raise IllegalMove(T("You are not marked missing: nothing to do."))
            s = state.clone()
            events: list[Event] = []
            rules.here(s, move.player, events)
            return Outcome(state=s, events=events)
        outcome = self._apply(state, move)
        if move.player is not None and move.player in outcome.state.missing:
            rules.here(outcome.state, move.player, outcome.events)
        return outcome

    def _apply(self, state: TatamokatsuState, move: Move) -> Outcome:
        """:meth:`apply` but presence's marks."""
        if state.phase == "over":
            raise IllegalMove(T("The game is over."))
        if move.player is None:
            if move.option == OPEN:
                return self._open(state, move.at_ms)
            if move.option != TIMEOUT:
                raise IllegalMove(T("Only the system's timeout or window opening comes without a player."))
        elif move.player not in state.fingers:
            raise IllegalMove(T("You are not seated in this game."))
        elif move.player in state.left:
            raise IllegalMove(T("You have left this game."))
        if state.phase == "race" and move.option.startswith(FIX_PREFIX):
            raise IllegalMove(
                T("{player} counts the 1/10 dice when the window closes, not during it (TK-11).",
                  player=ref(state.roller))
            )
        if move.option in TO_TYPE and not any(d.option(move.option) for d in self.pending(state)):
            # a race word typed when no race is open: said as typed, not by its option id (TK-3)
            raise IllegalMove(T("'{word}' counts only in a race, after a roll.", word=TO_TYPE[move.option]))
        decision, option = self.find_decision(state, move)
        events: list[Event] = []
        if option is None:
            deadline = decision.deadline_ms
            assert deadline is not None
            if move.at_ms is not None and move.at_ms < deadline:
                raise IllegalMove(T("The deadline is {deadline} ms, not yet reached at {at} ms.", deadline=deadline,
                                    at=move.at_ms))
            s = state.clone()
            if decision.kind == "race":
                rules.close_race(s, deadline, events)
                rules.mark_missing(s, events)
            elif decision.kind == "salute":
                rules.close_salute(s, deadline, events)
            else:  # the roller's late fix: the lowest offered sum (TK-6)
                self._fix(s, offered_choices(s.dice)[0].option_id, deadline, events, timed_out=True)
            return Outcome(state=s, events=events)
        kind = decision.kind
        player = move.player
        assert player is not None
        if kind in ("race", "salute"):
            return self._race_input(state, player, move.option, move.at_ms)
        s = state.clone()
        if kind == "roll":
            rules.roll(s, move.at_ms if move.at_ms is not None else state.now_ms, events)
        elif kind == "fix":
            deadline = decision.deadline_ms
            if move.at_ms is not None and deadline is not None and move.at_ms > deadline:
                # TK-11: a count timed after its deadline is refused; the session's timeout applies the lowest sum.
                raise IllegalMove(
                    T("Too late by {ms} ms: the time to count is over; the lowest sum applies.",
                      ms=Millis(move.at_ms - deadline))
                )
            at = max(move.at_ms, s.now_ms) if move.at_ms is not None else s.now_ms
            self._fix(s, move.option, at, events, timed_out=False)
        elif kind == "tatamokatsu":
            rules.winner_choice(s, move.option == ATTACK, events)
        elif kind == "victim":
            rules.hit(s, move.option.removeprefix(VICTIM_PREFIX), events)
        else:  # pragma: no cover - pending() lists no other kind
            raise IllegalMove(T("Unknown decision {kind}.", kind=repr(kind)))
        return Outcome(state=s, events=events)

    def _open(self, state: TatamokatsuState, at_ms: int | None) -> Outcome:
        """TK-10: the race window opens at ``at_ms``, the time the roll message appeared (at or after the roll).
        Inputs already in but timed outside the moved window are dropped (told in the event's data)."""
        if state.phase != "race" or state.anchored:
            raise IllegalMove(T("No race window is waiting to open."))
        if at_ms is None or at_ms < state.roll_ms:
            raise IllegalMove(T("The window cannot open before the roll ({roll} ms), not at {at} ms.", roll=state.roll_ms,
                                at=str(at_ms)))
        s = state.clone()
        s.roll_ms = s.window_open_ms = s.now_ms = at_ms
        s.deadline_ms = at_ms + s.window_ms
        s.anchored = True
        dropped = []
        for p in list(s.inputs):
            kept = {i: t for i, t in s.inputs[p].items() if at_ms <= t <= s.deadline_ms}
            dropped += [{"player": p, "input": i, "at_ms": t} for i, t in s.inputs[p].items() if i not in kept]
            if kept:
                s.inputs[p] = kept
            else:
                del s.inputs[p]
        seconds = f"{s.window_ms / 1000:g}"
        event = Event(
            kind="open",
            text=T("The window is open for {seconds} s.", seconds=seconds),
            data={"at_ms": at_ms, "deadline_ms": s.deadline_ms, "dropped": dropped},
        )
        return Outcome(state=s, events=[event])

    def _race_input(self, state: TatamokatsuState, player: str, inp: str, at_ms: int | None) -> Outcome:
        """Record one race input (TK-3): the earliest time per player and input counts; judged at the close."""
        if at_ms is None:
            raise IllegalMove(T("A race input needs its time (at_ms)."))
        lo, hi = state.window_open_ms, state.deadline_ms
        assert hi is not None
        if not lo <= at_ms <= hi:
            raise IllegalMove(T("Outside the window: {at} ms is not within {lo}..{hi} ms.", at=at_ms, lo=lo, hi=hi))
        s = state.clone()
        if s.fingers[player] == 0 and inp != GRAB:
            # TK-3: a player without fingers may only grab; other inputs are ignored.
            event = Event(
                kind="ignored",
                text=T("{player} has no fingers: only a grab counts.", player=ref(player)),
                data={"player": player, "input": inp},
            )
            return Outcome(state=s, events=[event])
        mine = dict(s.inputs.get(player, {}))
        old = mine.get(inp)
        if old is not None and at_ms >= old:
            return Outcome(state=s, events=[])  # a repeat of an input already in: logged once, the earlier time kept
        mine[inp] = at_ms
        # Times as people read them: from the roll in the race, from the salute window's opening in that window.
        in_salute_window = s.phase == "salute" and mine[inp] >= s.window_open_ms
        ms = mine[inp] - (s.window_open_ms if in_salute_window else s.roll_ms)

        # Canonical order (seat, then input), so the state does not depend on arrival order.
        s.inputs[player] = {i: mine[i] for i in RACE_INPUTS if i in mine}
        s.inputs = {p: s.inputs[p] for p in s.players if p in s.inputs}
        events = [
            Event(
                kind="input",
                text=(T("{player} {did} (+{ms} ms into the salute window).", player=ref(player),
                        did=rules.INPUT_WORDS[inp], ms=Millis(ms)) if in_salute_window
                      else T("{player} {did} (+{ms} ms).", player=ref(player), did=rules.INPUT_WORDS[inp],
                             ms=Millis(ms))),
                data={"player": player, "input": inp, "at_ms": at_ms, "ms": ms, "repeat": old is not None},
            )
        ]
        if s.phase == "salute" and not rules.owes_salute(s):
            # Everyone who owes a salute has saluted: nothing can change any more, close now. The close time is
            # the latest salute of this window, whatever the arrival order.
            last = max(d[SALUTE] for d in s.inputs.values() if SALUTE in d)
            rules.close_salute(s, max(last, s.window_open_ms), events)
        return Outcome(state=s, events=events)

    def _fix(self, s: TatamokatsuState, option_id: str, at_ms: int, events: list[Event], timed_out: bool) -> None:
        """The roller counts the 1/10 dice (TK-6, after the race's close: TK-11) and the sum effect follows at once
        (``timed_out``: the lowest offered sum, one window-length after the close)."""
        choice = next(c for c in offered_choices(s.dice) if c.option_id == option_id)
        s.values = list(choice.values)
        count = _count(option_id)
        events.append(
            Event(
                kind="fix",
                text=(T("{player} is given {count}: sum {total}.", player=ref(s.roller), count=count, total=choice.total)
                      if timed_out
                      else T("{player} counts {count}: sum {total}.", player=ref(s.roller), count=count,
                             total=choice.total)),
                data={"roller": s.roller, "values": list(choice.values), "total": choice.total},
            )
        )
        s.now_ms = at_ms
        rules.sum_effect(s, at_ms, events)

    # -- the end ------------------------------------------------------------------------------------------------
    def result(self, state: TatamokatsuState) -> Result | None:
        """Over: winners (the Samurai, or those sharing the win, TK-9); ranking winners first, then by how late
        each lost their last finger (same resolution = same rank); scores = fingers left."""
        if state.phase != "over":
            return None
        winners = list(state.winners)
        others = [p for p in state.players if p not in winners]
        ranking = [winners] if winners else []
        steps = sorted({state.out_at.get(p, -1) for p in others}, reverse=True)
        for st in steps:
            ranking.append([p for p in others if state.out_at.get(p, -1) == st])
        reason = (
            T("{player} is the Samurai.", player=ref(winners[0])) if len(winners) == 1
            else T("The last hands fell together: shared win.")
        )
        return Result(winners=winners, ranking=ranking, scores=dict(state.fingers), reason=reason)

    def resign(self, state: TatamokatsuState, player: str) -> Outcome | None:
        """``player`` leaves: their fingers go to 0 and they can no longer act (not even a dragon grab). A roll
        waiting on them as roller or race winner is dropped and the next roller rolls. None when over/unseated."""
        if state.phase == "over" or player not in state.fingers or player in state.left:
            return None
        s = state.clone()
        events = [Event(kind="resign", text=T("{player} leaves the game.", player=ref(player)), data={"player": player})]
        before = rules.open_resolution(s)  # a resolution under way (TK-12) ends with this leave, or goes on
        s.left.append(player)
        s.fingers[player] = 0
        s.out_at[player] = s.step
        s.inputs.pop(player, None)
        if s.phase == "choice" and player != s.winner:
            return Outcome(state=s, events=events)  # the pending choice completes the resolution and checks the end
        if rules.finish_resolution(s, before, events):
            s.resolution_before = {}
            s.winners = [p for p in s.winners if p != player] or s.alive()
            return Outcome(state=s, events=events)
        if (player == s.roller and s.phase in ("roll", "race", "fix", "victim")) or (
            player == s.winner and s.phase == "choice"
        ):
            s.resolution_before = {}  # the roll's rest is dropped with the player it waited on
            rules.start_turn(s, events)
        return Outcome(state=s, events=events)

    # -- helpers for people and AI ------------------------------------------------------------------------------
    def score_words(self, score: int) -> Text:
        """The fingers a player has left (``Result.scores``, TK-1): ``"2 fingers left"``."""
        return N("{n} finger left", "{n} fingers left", n=score)

    def score_heading(self) -> Text:
        """The result card's score column: the fingers each player has left (TK-1)."""
        return T("Fingers")

    def chat_word(self, text: str) -> str | None:
        """Typed words count as race inputs (TK-3): see :func:`word_to_input`."""
        return word_to_input(text)

    def typed_words(self, decision: Decision) -> dict[str, Text]:
        """The word to type for each race input the decision lists (``data.TO_TYPE``: ``tatamokatsu``, ``grab``,
        ``katana``, ``hai``; in Japanese タタモカツ, つかむ, カタナ, はい), as the rules' /rules text says (TK-3)."""
        if decision.player is not None:
            return {}
        return {opt: word for opt, word in TO_TYPE.items() if decision.option(opt) is not None}

    def reactions(self, decision: Decision) -> dict[str, str]:
        """The race inputs as reactions (``data.REACTIONS``): 📣 shout, ✊ grab, 🗡 Katana, 🙇 salute — those the
        decision lists (a race: all four; the salute window: 🙇)."""
        if decision.player is not None:
            return {}
        return {emoji: opt for emoji, opt in REACTIONS.items() if decision.option(opt) is not None}

    def opening(self, state: TatamokatsuState) -> str | None:
        """``"open"`` while a roll's race window still waits to be moved to its message's time (TK-10)."""
        return OPEN if state.phase == "race" and not state.anchored else None

    def race_key(self, state: TatamokatsuState, decision: Decision) -> str | None:
        """The race, the salute window and the roller's count of the 1/10 dice are named by the roll they belong
        to (``race.3``): they stay valid through every input of that roll and the ``open`` system input."""
        if decision.kind in ("race", "salute", "fix"):
            return f"{decision.kind}.{state.rolls}"
        return None

    def status(self, state: TatamokatsuState) -> Text:
        """One line: the phase and every hand."""
        hands = Text.join(COMMA, [f"{ref(p)} {state.fingers[p]}" for p in state.players])
        if state.phase == "over":
            rolls = N("{n} roll", "{n} rolls", n=state.rolls)
            return T("Over after {rolls}: {winners} won. {hands}", rolls=rolls,
                     winners=Text.join(COMMA, [ref(p) for p in state.winners]), hands=hands)
        roller = ref(state.roller)
        what = {
            "roll": lambda: T("{player} to roll", player=roller),
            "race": lambda: T("race on {dice}", dice=Text.join(DICE_SEP, state.dice)),
            "fix": lambda: T("{player} to count the 1/10 dice", player=roller),
            "salute": lambda: T("salute window"),
            "choice": lambda: T("{player} to choose", player=ref(state.winner or "")),
            "victim": lambda: T("{player} to choose a victim", player=roller),
        }[state.phase]()
        if not state.rolls:
            return T("No roll yet: {what}. Fingers: {hands}", what=what, hands=hands)
        return T("Roll {n}: {what}. Fingers: {hands}", n=state.rolls, what=what, hands=hands)

    def greedy(self, state: TatamokatsuState, decision: Decision, rng: Any) -> str | None:
        """A simple strategy: the right race input for the dice, the highest-range count (a victim beats a salute
        beats losing a finger), strike when it can knock someone out or has 5 fingers, hit the weakest opponent."""
        from games.tatamokatsu.ai import greedy_choice

        return greedy_choice(state, decision, rng)

