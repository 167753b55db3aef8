"""Tatari's rule functions: a turn from the roll to the passing of the box (``shared/rules/tatari.md`` "How to Play";
RULINGS TA-3..TA-10).

A turn: the dice in the box are rolled automatically (step 1); the player sets aside one face (step 2, TA-3); then
Continue or Stop (step 3, TA-4). Stopping resolves the shrine (step 5, TA-5/TA-6), then a set-aside 1 gives a doll
away (TA-7). A bust takes the fullest shrine (TA-8). Stashes cap at 10 (TA-9). The game ends when a turn would start
for a player with an empty stash (TA-10).

Every function here works on a state COPY owned by the caller (``Tatari.apply``, ``begin``), mutates it and appends
:class:`Event`\\ s to ``events``. Older imports (``from games.tatari.rules import FACES, TatariState …``) keep
working: the data and the models are re-exported from here.
"""

from __future__ import annotations

from games.core import DICE_SEP, Event, N, T, Text, player_ref
from games.tatari.data import (
    DICE,
    FACE_DOLLS,
    FACE_LABEL,
    FACE_VALUE,
    FACES,
    SHRINES,
    STASH_CAP,
    TOTAL_DOLLS,
)
from games.tatari.state import Phase, TatariOptions, TatariState

__all__ = [
    "DICE",
    "FACES",
    "FACE_DOLLS",
    "FACE_LABEL",
    "FACE_VALUE",
    "SHRINES",
    "STASH_CAP",
    "TOTAL_DOLLS",
    "Phase",
    "TatariOptions",
    "TatariState",
    "dice_text",
    "dolls_text",
    "end_turn",
    "faces_text",
    "fullest",
    "give",
    "kept_of",
    "recipients",
    "roll",
    "select",
    "start_turn",
    "stop",
    "take_shrine",
]


# -- texts ----------------------------------------------------------------------------------------------------


def dolls_text(n: int) -> Text:
    """``"1 doll"``, ``"3 dolls"``."""
    return N("{n} doll", "{n} dolls", n=n)


def dice_text(n: int) -> Text:
    """``"1 die"``, ``"5 dice"``."""
    return N("{n} die", "{n} dice", n=n)


def faces_text(faces: list[str]) -> Text:
    """Faces as people read them: ``"2 · 4 · double-doll"`` (``"nothing"`` for none)."""
    return Text.join(DICE_SEP, [FACE_LABEL[f] for f in faces]) if faces else T("nothing")


# -- counting ---------------------------------------------------------------------------------------------------


def kept_of(s: TatariState, player: str, n: int) -> int:
    """How many of ``n`` dolls given to ``player`` stay in the stash; the rest go to the Shrine box (TA-9)."""
    return min(n, max(STASH_CAP - s.stashes[player], 0))


def recipients(s: TatariState) -> list[str]:
    """Who may receive the doll of a set-aside 1 (TA-7): every other player in play, in seat order."""
    return [q for q in s.in_play() if q != s.current]


def fullest(s: TatariState) -> list[int]:
    """The shrines among 7-10 holding the most dolls, in shrine order (TA-8)."""
    most = max(s.shrines.values())
    return [t for t in SHRINES if s.shrines[str(t)] == most]


# -- the turn -----------------------------------------------------------------------------------------------------


def start_turn(s: TatariState, player: str, events: list[Event]) -> None:
    """``player`` takes the Cursed box: the game ends if their stash is empty (TA-10), else all six dice roll."""
    s.current = player
    s.set_aside = []
    s.rolled = []
    if s.stashes[player] == 0:  # TA-10
        s.phase = "over"
        s.winner = player
        events.append(Event(kind="win", text=T("{player} starts a turn with no dolls and wins!", player=player_ref(player)), data={}))
        return
    roll(s, events)


def roll(s: TatariState, events: list[Event]) -> None:
    """Roll the dice still in the box (step 1); bust when no new face shows (TA-3); one new face is set aside
    without asking (C-3)."""
    n = DICE - len(s.set_aside)
    s.rolled = [s.rng.pick(FACES) for _ in range(n)]
    events.append(
        Event(
            kind="roll",
            text=T("{player} rolls {faces}.", player=player_ref(s.current), faces=faces_text(s.rolled)),
            data={"player": s.current, "faces": list(s.rolled)},
        )
    )
    choices = {f for f in s.rolled if f not in s.set_aside}
    if not choices:
        events.append(
            Event(kind="bust", text=T("No new face: {player} busts.", player=player_ref(s.current)), data={"reason": "no_face"})
        )
        bust(s, events)
    elif len(choices) == 1:
        select(s, choices.pop(), events)
    else:
        s.phase = "select"


def select(s: TatariState, face: str, events: list[Event]) -> None:
    """Set aside every rolled die showing ``face`` (TA-3), then the fate step (TA-4): all six set aside ends the
    turn (a stop from 7, else a bust); from 7 the player chooses; under 7 the dice left roll again."""
    n = s.rolled.count(face)
    s.set_aside.extend([face] * n)
    s.rolled = []
    events.append(
        Event(
            kind="set_aside",
            text=T("{player} sets aside {face} ×{n}: total {total}, {pile}.", player=player_ref(s.current),
                   face=FACE_LABEL[face], n=n, total=s.total, pile=dolls_text(s.dolls)),
            data={"face": face, "count": n, "total": s.total, "dolls": s.dolls},
        )
    )
    if len(s.set_aside) == DICE:  # TA-4: the turn ends at once
        if s.total >= 7:
            stop(s, events)
        else:
            events.append(
                Event(
                    kind="bust",
                    text=T("All six dice set aside with total {total}: {player} busts.", total=s.total,
                           player=player_ref(s.current)),
                    data={"reason": "low_total"},
                )
            )
            bust(s, events)
    elif s.total >= 7:
        s.phase = "fate"
    else:
        roll(s, events)


def to_stash(s: TatariState, player: str, n: int, events: list[Event]) -> None:
    """Give ``player`` ``n`` dolls; past 10 they go to the Shrine box (TA-9)."""
    kept = kept_of(s, player, n)
    s.stashes[player] += kept
    if n > kept:
        s.box += n - kept
        events.append(
            Event(
                kind="overflow",
                text=T("{player} can hold only 10: {n} to the Shrine box.", player=player_ref(player), n=n - kept),
                data={"player": player, "count": n - kept},
            )
        )


def stop(s: TatariState, events: list[Event]) -> None:
    """Resolve a stop (TA-5, TA-6), then the compulsory gift of a set-aside 1 (TA-7)."""
    p, t, d = s.current, s.total, s.dolls
    if t >= 11:
        moved = min(d, s.stashes[p])
        s.stashes[p] -= moved
        s.box += moved
        events.append(
            Event(
                kind="stop",
                text=T("{player} stops at {total}: {pile} to the Shrine box.", player=player_ref(p), total=t,
                       pile=dolls_text(moved)),
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
            events.append(
                Event(
                    kind="stop",
                    text=T("{player} stops at {total}: puts {n} on shrine {total} (now {now}).", player=player_ref(p),
                           total=t, n=moved, now=s.shrines[key]),
                    data={"total": t, "dolls": d, "shrine": t, "to_shrine": moved},
                )
            )
        elif held > d:
            taken = held - d
            s.shrines[key] -= taken
            events.append(
                Event(
                    kind="stop",
                    text=T("{player} stops at {total}: takes {n} from shrine {total} (now {now}).", player=player_ref(p),
                           total=t, n=taken, now=s.shrines[key]),
                    data={"total": t, "dolls": d, "shrine": t, "to_shrine": -taken},
                )
            )
            to_stash(s, p, taken, events)
        else:
            events.append(
                Event(
                    kind="stop",
                    text=T("{player} stops at {total}: shrine {total} already holds {n}; nothing moves.",
                           player=player_ref(p), total=t, n=held),
                    data={"total": t, "dolls": d, "shrine": t, "to_shrine": 0},
                )
            )
    if "1" in s.set_aside and s.stashes[p] > 0:  # TA-7
        who = recipients(s)
        if len(who) == 1:  # C-3: one recipient, no question
            give(s, who[0], events)
            return
        s.phase = "give"
        return
    end_turn(s, events)


def give(s: TatariState, to: str, events: list[Event]) -> None:
    """TA-7: one doll from the current player's stash to ``to`` (past 10 it goes to the Shrine box, TA-9)."""
    s.stashes[s.current] -= 1
    events.append(
        Event(
            kind="give",
            text=T("{player} gives a doll to {to}.", player=player_ref(s.current), to=player_ref(to)),
            data={"from": s.current, "to": to},
        )
    )
    to_stash(s, to, 1, events)
    end_turn(s, events)


def bust(s: TatariState, events: list[Event]) -> None:
    """TA-8: take the fullest shrine; ask only on a tie (C-3). All shrines empty: nothing to take. The busting
    roll stays in ``rolled`` (every face already set aside) so the board can show it; the next turn clears it."""
    most = fullest(s)
    if s.shrines[str(most[0])] == 0:
        events.append(Event(kind="take", text=T("Every shrine is empty: nothing to take."), data={"shrine": None}))
        end_turn(s, events)
    elif len(most) == 1:
        take_shrine(s, most[0], events)
    else:
        s.phase = "bust"


def take_shrine(s: TatariState, shrine: int, events: list[Event]) -> None:
    """TA-8: the busting player takes every doll of ``shrine`` (past 10 they go to the Shrine box, TA-9)."""
    n = s.shrines[str(shrine)]
    s.shrines[str(shrine)] = 0
    events.append(
        Event(
            kind="take",
            text=T("{player} takes {pile} from shrine {shrine}.", player=player_ref(s.current), pile=dolls_text(n),
                   shrine=shrine),
            data={"shrine": shrine, "count": n},
        )
    )
    to_stash(s, s.current, n, events)
    end_turn(s, events)


def end_turn(s: TatariState, events: list[Event]) -> None:
    """Pass the box to the left (seat order, C-2) and start that player's turn (TA-10 checked there)."""
    order = s.in_play()
    if s.current in order:
        nxt = order[(order.index(s.current) + 1) % len(order)]
    else:  # the current player just resigned
        seats = s.players
        i = seats.index(s.current)
        nxt = next(seats[(i + k) % len(seats)] for k in range(1, len(seats)) if seats[(i + k) % len(seats)] in order)
    s.turn_number += 1
    start_turn(s, nxt, events)
