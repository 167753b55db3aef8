"""Tatamokatsu's resolutions: what happens when a window closes or a choice is made.

Every function here works on a state COPY owned by :meth:`Tatamokatsu.apply` (it mutates it) and appends
:class:`Event`s to ``events``. Rulebook sections: "Sum Ranges", "Special Actions", "End of the Game";
rulings TK-3..TK-12. A roll resolves as a whole (TK-12): the losses of the race's close (mistakes, the Katana, an
under-10 sum) and of what completes it (the winner's choice, the count, the salute window, the victim) form one
resolution, and the end is checked once, after all of it (TK-9).
"""

from __future__ import annotations

from collections import Counter

from games.core import DICE_SEP, Event, Millis, N, T, Text, player_ref
from games.tatamokatsu.data import (
    DICE,
    FINGERS,
    GRAB,
    KATANA,
    ROLLOFF_DIE,
    SALUTE,
    SHOUT,
)
from games.tatamokatsu.dice import all_choices, is_tatamokatsu, is_triple, offered_choices, shows_t, sum_range
from games.tatamokatsu.state import Miss, RaceEntry, TatamokatsuState

INPUT_WORDS = {SHOUT: T("shouts"), GRAB: T("grabs"), KATANA: T("does a Katana"), SALUTE: T("salutes")}
INPUT_NAMES = {SHOUT: T("shout"), GRAB: T("grab"), KATANA: T("katana"), SALUTE: T("salute")}
"""A race input named as its id is (``shout`` …), translated: for the board in words."""


def ref(p: str) -> str:
    return player_ref(p)


# ------------------------------------------------------------------------------------------------------------
# Turn order and the roll


def next_roller(s: TatamokatsuState) -> str:
    """TK-3: the next player after the current roller, in seat order, who has fingers."""
    n = len(s.players)
    i = s.players.index(s.roller)
    for k in range(1, n + 1):
        p = s.players[(i + k) % n]
        if s.fingers[p] > 0:
            return p
    return s.roller


def start_turn(s: TatamokatsuState, events: list[Event]) -> None:
    """Hand the dice to the next roller (TK-3) and wait for the roll."""
    s.roller = next_roller(s)
    s.phase = "roll"
    s.deadline_ms = None
    s.winner = None
    events.append(Event(kind="turn", text=T("{player} rolls next.", player=ref(s.roller)), data={"roller": s.roller}))


def roll(s: TatamokatsuState, at_ms: int, events: list[Event]) -> None:
    """Roll A, B, C (TK-2) and open the reaction window [at_ms, at_ms + window_ms] (TK-3, TK-10)."""
    s.dice = [s.rng.pick(faces) for faces in DICE]
    s.values = None
    s.total = None
    s.rolls += 1
    s.roll_ms = at_ms
    s.window_open_ms = at_ms
    s.now_ms = at_ms
    s.deadline_ms = at_ms + s.window_ms
    s.anchored = False
    s.inputs = {}
    s.rolloffs = []
    s.missed = []
    s.excused = list(s.missing)  # presence: who was missing when this roll opened owes nothing in it
    s.phase = "race"
    events.append(
        Event(
            kind="roll",
            text=T("{player} rolls {dice}. Quick!", player=ref(s.roller), dice=Text.join(DICE_SEP, s.dice)),
            data={"roller": s.roller, "dice": list(s.dice), "at_ms": at_ms, "deadline_ms": s.deadline_ms},
        )
    )


# ------------------------------------------------------------------------------------------------------------
# Finger changes and the end


COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def fingers_text(n: int) -> Text:
    """``"1 finger"``, ``"3 fingers"``."""
    return N("{n} finger", "{n} fingers", n=n)


def because(why: dict[str, Text], player: str, reason: Text) -> None:
    """Add ``reason`` to ``player``'s reasons for losing fingers (``"no Katana, sum under 10"``)."""
    why[player] = Text.join(COMMA, [why[player], reason]) if why.get(player) else reason


def lose(s: TatamokatsuState, losses: Counter, events: list[Event], why: dict[str, Text]) -> None:
    """Apply ``losses`` (player -> fingers lost, one per reason) at once, never below 0, with one event each."""
    for p in s.players:
        n = losses.get(p, 0)
        if not n:
            continue
        before = s.fingers[p]
        after = max(0, before - n)
        lost = before - after
        if not lost:  # nothing left to lose
            continue
        s.fingers[p] = after
        if after == 0:
            s.out_at[p] = s.step
        events.append(
            Event(
                kind="finger",
                text=T("{player} loses {hand} ({why}): {n} left.", player=ref(p),
                       hand=fingers_text(lost), why=why.get(p, ""), n=after),
                data={"player": p, "lost": lost, "fingers": after, "reason": str(why.get(p, ""))},
            )
        )


def finish_resolution(s: TatamokatsuState, before: dict[str, int], events: list[Event]) -> bool:
    """Close one resolution: TK-9, the game ends when at most one player has fingers; when the last players lost
    their last fingers in this resolution together, they share the win. True when the game is over."""
    s.step += 1
    alive = s.alive()
    if len(alive) > 1:
        return False
    winners = alive or [p for p in s.players if before.get(p, 0) > 0 and p not in s.left]
    s.winners = winners
    s.phase = "over"
    s.deadline_ms = None
    s.winner = None
    if len(winners) == 1:
        text = T("{player} is the last with fingers: Samurai!", player=ref(winners[0]))
    else:
        text = T("The last fingers fell together: {players} share the win.", players=Text.join(COMMA, [ref(p) for p in winners]))
    events.append(Event(kind="end", text=text, data={"winners": winners}))
    return True


# ------------------------------------------------------------------------------------------------------------
# Races


def rolls_n(player: str, n: int) -> Text:
    """``"{@p} rolls 4"`` (a roll-off)."""
    return T("{player} rolls {n}", player=ref(player), n=n)


def first_of(
    s: TatamokatsuState, times: dict[str, int], events: list[Event], what: Text
) -> str:
    """The first of ``times`` (player -> at_ms); ties within ``tie_tolerance_ms`` of the first roll off with 1-6
    dice, ties rerolled (TK-4). Roll-off rounds are kept in ``s.rolloffs`` and told in events."""
    t0 = min(times.values())
    tied = [p for p in s.players if p in times and times[p] <= t0 + s.tie_tolerance_ms]
    while len(tied) > 1:
        dice = {p: int(s.rng.pick(ROLLOFF_DIE)) for p in tied}
        s.rolloffs.append(dice)
        best = max(dice.values())
        events.append(
            Event(
                kind="rolloff",
                text=T("Tie for the {what}: {rolls}.", what=what, rolls=Text.join(COMMA, [rolls_n(p, v) for p, v in dice.items()])),
                data={"rolls": dict(dice), "for": str(what)},
            )
        )
        tied = [p for p in tied if dice[p] == best]
    return tied[0]


def close_race(s: TatamokatsuState, close_ms: int, events: list[Event]) -> None:
    """The reaction window closed at ``close_ms``: judge its inputs by their times (TK-4..TK-8), then go on.

    Order: mistakes, the Katana, an under-10 sum known at the close and a dragon resurrection form one resolution,
    which the race winner's choice completes; or the rest of the sum effect (TK-6) when no shout or grab won.
    """
    s.now_ms = close_ms
    before = dict(s.fingers)
    dice = s.dice
    t_roll = shows_t(dice)
    triple = is_triple(dice)
    tk = is_tatamokatsu(dice)
    losses: Counter = Counter()
    why: dict[str, Text] = {}
    notes: dict[tuple[str, str], str] = {}
    first_event = len(events)

    def mistake(p: str, inp: str, text: Text) -> None:
        if before[p] > 0:  # a player without fingers has nothing to lose
            notes[(p, inp)] = "mistake"
            losses[p] += 1
            because(why, p, text)

    def times_of(inp: str, alive_only: bool) -> dict[str, int]:
        return {
            p: d[inp]
            for p, d in s.inputs.items()
            if inp in d and (before[p] > 0 or not alive_only)
        }

    grabs = times_of(GRAB, alive_only=False)
    shouts = times_of(SHOUT, alive_only=True)
    katanas = times_of(KATANA, alive_only=True)
    winner: str | None = None
    if t_roll:
        # TK-5, TK-13: a grab race only; shouts neither win nor cost (the grabber shouts anyway at a real table).
        if grabs:
            winner = first_of(s, grabs, events, T("T die"))
            notes[(winner, GRAB)] = "first"
    else:
        for p in grabs:
            mistake(p, GRAB, T("grabbed, but no T shows"))
        if shouts:
            if tk:
                winner = first_of(s, shouts, events, T("shout"))
                notes[(winner, SHOUT)] = "first"
            else:
                for p in shouts:
                    mistake(p, SHOUT, T("shouted, but no Tatamokatsu"))
    if triple:
        # TK-7: everyone with fingers must Katana; if all did, the last (ties within the tolerance) loses one.
        missing = [p for p in s.players if before[p] > 0 and p not in katanas and p not in s.excused]
        if missing:
            for p in missing:
                s.missed.append(Miss(player=p, input=KATANA))
                losses[p] += 1
                because(why, p, T("no Katana"))
        elif katanas:
            t_last = max(katanas.values())
            for p in s.players:
                if p in katanas and katanas[p] >= t_last - s.tie_tolerance_ms:
                    losses[p] += 1
                    notes[(p, KATANA)] = "last"
                    because(why, p, T("last Katana"))
        events.append(Event(kind="katana", text=T("Triples: Katana!"), data={"missing": missing}))
    else:
        for p in katanas:
            mistake(p, KATANA, T("Katana without triples"))

    # The sum effect (TK-6) when no shout or grab won. An under-10 loss known at the close joins this
    # resolution (TK-9: fingers lost together); a salute window or a victim comes after it.
    sum_now = False
    if winner is None and not t_roll:
        choices = offered_choices(dice)
        if s.values is None and len(choices) == 1:
            s.values = list(choices[0].values)  # C-3: the only count offered
        sum_now = s.values is not None or not choices
        if s.values is not None and sum_range(sum(s.values)) == "low":
            s.total = sum(s.values)
            events.append(Event(kind="sum", text=T("Sum {total}: under 10.", total=s.total), data={"total": s.total}))
            losses[s.roller] += 1
            because(why, s.roller, T("sum under 10"))
    record_race(s, notes)
    # Texts in the order people read them: the race's summary first, then what it cost (roll-offs, the Katana
    # and the sum were judged before; the summary goes ahead of them too).
    events.insert(first_event, window_summary(s, winner, t_roll, tk))
    lose(s, losses, events, why)
    resurrected = False
    if winner is not None and t_roll and before[winner] == 0:
        # Dragon resurrection (rulebook "Special Actions", TK-5).
        s.fingers[winner] = FINGERS
        s.out_at.pop(winner, None)
        resurrected = True
        events.append(
            Event(
                kind="resurrection",
                text=T("{player} catches the Tatamokatsu die: dragon resurrection, back to {n} fingers!",
                       player=ref(winner), n=FINGERS),
                data={"player": winner},
            )
        )
    elif winner is not None:
        text = (T("{player} grabs the T die first!", player=ref(winner)) if t_roll
                else T("{player} shouts Tatamokatsu first!", player=ref(winner)))
        events.append(Event(kind="race_won", text=text, data={"player": winner}))
    if winner is not None and not resurrected and s.alive() != [winner]:
        # The winner's choice (TK-4) belongs to this resolution: the end is checked after it, so a winner whom
        # mistakes took to 0 may still recover. (Alone with fingers, the winner is simply the Samurai.)
        s.winner = winner  # a valid shout cancels the sum effect (TK-4): no count is asked
        s.resolution_before = before
        s.phase = "choice"
        s.deadline_ms = None
        return
    sum_follows = winner is None and not t_roll and s.total is None
    if not sum_follows or not s.alive():
        # Nothing of this roll is left to play (or nobody has a finger left to lose): decide the end now.
        if not finish_resolution(s, before, events):
            start_turn(s, events)
        return
    # TK-12: the roll's sum effect (its count, salute window or victim) belongs to this resolution: the end is
    # decided after it, even if the Katana or a mistake left only one hand with fingers.
    s.resolution_before = before
    if not sum_now:
        s.phase = "fix"
        s.deadline_ms = close_ms + s.window_ms
        events.append(
            Event(
                kind="fix_wait",
                text=T("{player}, count the 1/10 dice.", player=ref(s.roller)),
                data={"roller": s.roller, "deadline_ms": s.deadline_ms},
            )
        )
        return
    sum_effect(s, close_ms, events)


def record_race(s: TatamokatsuState, notes: dict[tuple[str, str], str], salute_window: bool = False) -> None:
    """Keep the roll's inputs in time order (``ms`` after the roll) for the record and the picture. With
    ``salute_window`` (at the salute window's close), inputs not already recorded at the race's close are marked
    ``window="salute"``."""
    raced = {(e.player, e.input) for e in s.last_race} if salute_window else set()
    seat = {p: i for i, p in enumerate(s.players)}
    order = {inp: i for i, inp in enumerate((SHOUT, GRAB, KATANA, SALUTE))}
    rows = [
        (t, seat[p], order[inp], p, inp)
        for p, d in s.inputs.items()
        for inp, t in d.items()
    ]
    rows.sort()
    s.last_race = [
        RaceEntry(
            player=p,
            input=inp,
            ms=t - s.roll_ms,
            note=notes.get((p, inp), ""),
            window="salute" if salute_window and (p, inp) not in raced else "race",
        )
        for t, _, _, p, inp in rows
    ]


DONE_WORDS = {SHOUT: T("shouted"), GRAB: T("grabbed the T die"), KATANA: T("did the Katana"), SALUTE: T("saluted")}
MISTAKE_WORDS = {SHOUT: T("shouted"), GRAB: T("grabbed"), KATANA: T("did a Katana")}


SENTENCES = T(". ")
"""Between the sentences of a window's summary."""
SEMICOLON = T("; ")
"""Between the clauses of the salute window's summary."""


def _at(player: str, ms: int) -> Text:
    """``"{@p} (+1200 ms)"``."""
    return T("{player} (+{ms} ms)", player=ref(player), ms=Millis(ms))


def _did(player: str, did: Text, ms: int, free: bool = False) -> Text:
    """``"{@p} shouted (+1200 ms)"``; ``free``: a mistake with no finger to lose."""
    if free:
        return T("{player} {did} (+{ms} ms, no finger to lose)", player=ref(player), did=did, ms=Millis(ms))
    return T("{player} {did} (+{ms} ms)", player=ref(player), did=did, ms=Millis(ms))


def _nobody_else(text: Text, inp: str) -> Text:
    """A winner's line without a runner-up: ``"…; nobody else shouted"`` (by the winning input)."""
    if inp == SHOUT:
        return T("{text}; nobody else shouted", text=text)
    if inp == GRAB:
        return T("{text}; nobody else grabbed", text=text)
    if inp == KATANA:
        return T("{text}; nobody else did", text=text)
    return T("{text}; nobody else saluted", text=text)


def _list(items: list[str]) -> Text:
    """``a, b and c`` (each item translated when it is a text)."""
    if len(items) > 1:
        return T("{some} and {last}", some=Text.join(COMMA, items[:-1]), last=items[-1])
    return Text.join("", items)


def window_summary(s: TatamokatsuState, winner: str | None, t_roll: bool, tk: bool) -> Event:
    """One line on the closed race window (times in ms after the roll, one clock: TK-10), read before the losses.

    TK-11: the line names the first *valid* input as the winner (the first shout on a Tatamokatsu, the first grab
    on a T roll) and how far ahead of the next valid one of the same input it was; mistakes are listed as mistakes
    (TK-8), never as "first"; on triples the last Katana is named (TK-7). ``data``: ``first`` (the winner or None),
    ``input``, ``ms``, ``second``, ``margin_ms`` (None without a winner or a runner-up), ``mistakes`` (player, input,
    ms, in time order, of the mistakes that cost a finger; a fingerless grab with no T showing is told with them, as
    costing nothing), ``entries`` (every input in time order: player, input, ms, note)."""
    entries = s.last_race
    data: dict = {"first": None, "input": None, "ms": None, "second": None, "margin_ms": None,
                  "mistakes": [], "entries": [e.model_dump() for e in entries]}
    parts: list[Text] = []
    first = next((e for e in entries if e.player == winner and e.note == "first"), None) if winner else None
    if first is not None:
        runners = [e for e in entries if e.input == first.input and e.player != first.player and e.note != "mistake"]
        text = T("{player} {did} first (+{ms} ms)", player=ref(first.player), did=DONE_WORDS[first.input],
                 ms=Millis(first.ms))
        if runners:
            margin = runners[0].ms - first.ms
            t0 = min(first.ms, runners[0].ms)  # runners are in time order
            tied = [e for e in runners if e.ms <= t0 + s.tie_tolerance_ms] if first.ms <= t0 + s.tie_tolerance_ms \
                else []
            if tied:  # TK-4: equal times (within the tolerance) were decided by the roll-off told below
                text = T("{text}, tied with {players}: won the roll-off", text=text,
                         players=_list([ref(e.player) for e in tied]))
            else:
                text = T("{text}, {ms} ms ahead of {player}", text=text, ms=Millis(margin), player=ref(runners[0].player))
            data.update(second=runners[0].player, margin_ms=margin)
        else:
            text = _nobody_else(text, first.input)
        parts.append(text)
        data.update(first=first.player, input=first.input, ms=first.ms)
    elif t_roll:
        parts.append(T("Nobody grabbed the T die in time"))
    elif tk:
        parts.append(T("Nobody shouted Tatamokatsu in time"))
    lasts = [e for e in entries if e.note == "last"]
    if lasts:
        parts.append(T("Last Katana: {players}", players=Text.join(COMMA, [_at(e.player, e.ms) for e in lasts])))
    mistakes = [e for e in entries if e.note == "mistake"]
    # A grab with no T showing from a player without fingers is a mistake with nothing to lose (TK-3, TK-8).
    free = [e for e in entries if not t_roll and e.input == GRAB and e.note != "mistake"]
    if mistakes or free:
        told = [e for e in entries if e in mistakes or e in free]
        told_texts = [_did(e.player, MISTAKE_WORDS[e.input], e.ms, free=not e.note) for e in told]
        parts.append(T("Mistakes: {list}", list=_list(told_texts)))
        data["mistakes"] = [{"player": e.player, "input": e.input, "ms": e.ms} for e in mistakes]
    if not parts and not entries:
        parts.append(T("Nobody reacted in time"))
    elif not parts:  # only valid inputs that win nothing (salutes, Katanas on triples that all came in)
        done = [_did(e.player, DONE_WORDS[e.input], e.ms) for e in entries]
        parts.append(T("Reactions: {list}", list=_list(done)))
    return Event(kind="window", text=T("{text}.", text=Text.join(SENTENCES, parts)), data=data)


# ------------------------------------------------------------------------------------------------------------
# The sum effect and the choices that follow


def open_resolution(s: TatamokatsuState) -> dict[str, int]:
    """The fingers before the resolution under way: those kept at the race's close when its winner's choice or its
    sum effect was still to come (TK-9, TK-12), else the fingers now (a resolution that starts now)."""
    return dict(s.resolution_before) or dict(s.fingers)


def end_resolution(s: TatamokatsuState, before: dict[str, int], events: list[Event]) -> None:
    """Close the resolution that began with ``before`` (TK-9): the end, or the next roller's turn."""
    s.resolution_before = {}
    if not finish_resolution(s, before, events):
        start_turn(s, events)


def sum_effect(s: TatamokatsuState, at_ms: int, events: list[Event]) -> None:
    """TK-6 with the 1/10 dice fixed (``s.values``, or None when every choice made 10 or 17): under 10 the roller
    loses one; 11-16 a salute window; above 17 the roller's victim; 10 or 17 nothing. It completes the resolution
    of the race's close (TK-12): a roller or a saluter the Katana took to 0 fingers still plays it, and the end is
    decided after it."""
    before = open_resolution(s)
    if s.values is None:
        counts = all_choices(s.dice)
        if len(counts) != 1:  # not reached with the printed dice: 1/10 dice always leave a count off 10 and 17
            events.append(Event(kind="sum", text=T("Every count makes 10 or 17: no sum effect."), data={"total": None}))
            end_resolution(s, before, events)
            return
        s.values = list(counts[0].values)  # a plain roll (no 1/10 die): its sum is what it shows
    total = sum(s.values)
    s.total = total
    kind = sum_range(total)
    if kind == "tatamokatsu":
        events.append(
            Event(kind="sum", text=T("Sum {total}: a Tatamokatsu, but nobody shouted: no effect.", total=total), data={"total": total})
        )
        end_resolution(s, before, events)
        return
    if kind == "low":
        events.append(Event(kind="sum", text=T("Sum {total}: under 10.", total=total), data={"total": total}))
        lose(s, Counter({s.roller: 1}), events, {s.roller: T("sum under 10")})
        end_resolution(s, before, events)
        return
    if kind == "salute":
        events.append(Event(kind="sum", text=T("Sum {total}: salute! Say Hai.", total=total), data={"total": total}))
        owing = owes_salute(s)
        if not owing:
            events.append(Event(kind="salute_done", text=T("Everyone has already saluted."), data={}))
            end_resolution(s, before, events)
            return
        s.resolution_before = before
        s.phase = "salute"
        s.now_ms = at_ms
        s.window_open_ms = at_ms
        s.deadline_ms = at_ms + s.window_ms
        return
    victims = victims_of(s)
    if not victims:
        events.append(Event(kind="sum", text=T("Sum {total}: above 17, but no opponent has fingers.", total=total),
                            data={"total": total}))
        end_resolution(s, before, events)
        return
    events.append(Event(kind="sum", text=T("Sum {total}: above 17.", total=total), data={"total": total}))
    s.resolution_before = before
    if len(victims) == 1:
        hit(s, victims[0], events)  # C-3: the only opponent with fingers
        return
    s.phase = "victim"
    s.deadline_ms = None


def close_salute(s: TatamokatsuState, close_ms: int, events: list[Event]) -> None:
    """TK-6: the salute window closed; every player with fingers who has not saluted since the roll loses one.
    The end is decided after it, with the losses of the race's close (TK-12)."""
    s.now_ms = close_ms
    before = open_resolution(s)
    owing = owes_salute(s)
    record_race(s, {(e.player, e.input): e.note for e in s.last_race}, salute_window=True)
    s.missed = s.missed + [Miss(player=p, input=SALUTE) for p in owing]
    events.append(salute_summary(s, owing))
    lose(s, Counter(dict.fromkeys(owing, 1)), events, dict.fromkeys(owing, T("no salute")))
    end_resolution(s, before, events)
    mark_missing(s, events)


def owes_salute(s: TatamokatsuState) -> list[str]:
    """Who must still salute (TK-6): every player with fingers who has not saluted since the roll, but a player
    excused by presence (``TatamokatsuOptions.presence``)."""
    return [p for p in s.alive() if SALUTE not in s.inputs.get(p, {}) and p not in s.excused]


def mark_missing(s: TatamokatsuState, events: list[Event]) -> None:
    """Presence (``TatamokatsuOptions.presence``): after a window closed, whoever missed an input they owed in it
    (``s.missed``) and still has fingers is marked missing, in seat order, with one event naming the newly marked.
    Nothing without presence."""
    if not s.presence:
        return
    missed = {m.player for m in s.missed}
    marked = [p for p in s.players if (p in s.missing or p in missed) and s.fingers[p] > 0 and p not in s.left]
    new = [p for p in marked if p not in s.missing]
    s.missing = marked
    if new:
        events.append(Event(kind="missing", text=T("{players} missed the race: the next roll waits until they are "
                                                   "back (any input, or I'm here).",
                                                   players=Text.join(COMMA, [ref(p) for p in new])),
                            data={"players": new}))


def here(s: TatamokatsuState, player: str, events: list[Event]) -> None:
    """Presence: ``player`` gave an input, so they are no longer marked missing (an event when they were)."""
    if player in s.missing:
        s.missing = [p for p in s.missing if p != player]
        events.append(Event(kind="here", text=T("{player} is back at the table.", player=ref(player)),
                            data={"player": player}))


def salute_summary(s: TatamokatsuState, owing: list[str]) -> Event:
    """One line on the closed salute window, read before the losses (TK-6): who saluted in it, timed in ms from
    the window's opening (not from the roll), who had saluted during the race, who did not salute. ``data``:
    ``saluted`` (player -> ms from the salute window's opening), ``earlier`` and ``missing`` (player ids)."""
    opened = s.window_open_ms
    inside = {p: s.inputs[p][SALUTE] - opened for p in s.players if SALUTE in s.inputs.get(p, {})
              and any(e.player == p and e.input == SALUTE and e.window == "salute" for e in s.last_race)}
    earlier = [p for p in s.players if SALUTE in s.inputs.get(p, {}) and p not in inside and s.fingers[p] > 0]
    parts: list[Text] = []
    if inside:
        ordered = sorted(inside, key=lambda p: (inside[p], s.players.index(p)))
        salutes = [T("{player} +{ms} ms", player=ref(p), ms=Millis(inside[p])) for p in ordered]
        parts.append(T("Salutes: {list} after the salute was called", list=_list(salutes)))
    if earlier:
        parts.append(T("{players} had saluted during the race", players=_list([ref(p) for p in earlier])))
    if owing:
        players = _list([ref(p) for p in owing])
        parts.append(T("no salute from {players}", players=players) if parts
                     else T("No salute from {players}", players=players))
    text = T("{text}.", text=Text.join(SEMICOLON, parts)) if parts else T("Nobody owed a salute.")
    data = {"saluted": inside, "earlier": earlier, "missing": list(owing)}
    return Event(kind="window", text=text, data=data)


def victims_of(s: TatamokatsuState) -> list[str]:
    """Opponents of the roller with fingers, in seat order (sum above 17)."""
    return [p for p in s.alive() if p != s.roller]


def hit(s: TatamokatsuState, victim: str, events: list[Event]) -> None:
    """Sum above 17: ``victim`` loses one finger (the roller's choice); the end is decided after it, with the
    losses of the race's close (TK-12)."""
    before = open_resolution(s)
    lose(s, Counter({victim: 1}), events, {victim: T("chosen by {player}", player=ref(s.roller))})
    end_resolution(s, before, events)


def winner_choice(s: TatamokatsuState, attack: bool, events: list[Event]) -> None:
    """TK-4: the race winner's choice: every opponent with fingers loses one, or the winner recovers one (max 5)."""
    w = s.winner
    assert w is not None
    before = open_resolution(s)  # fingers before the race's close: one resolution (TK-9)
    if attack:
        targets = [p for p in s.alive() if p != w]
        events.append(Event(kind="attack", text=T("{player} strikes every opponent!", player=ref(w)), data={"player": w}))
        lose(s, Counter(dict.fromkeys(targets, 1)), events, dict.fromkeys(targets, T("struck by {player}", player=ref(w))))
    else:
        s.fingers[w] = min(FINGERS, s.fingers[w] + 1)
        s.out_at.pop(w, None)
        events.append(
            Event(
                kind="recover",
                text=T("{player} recovers a finger: {n} now.", player=ref(w), n=s.fingers[w]),
                data={"player": w, "fingers": s.fingers[w]},
            )
        )
    s.winner = None
    end_resolution(s, before, events)
