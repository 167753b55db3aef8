"""Presence (``TatamokatsuOptions.presence``, the live table's rule for play by chat): a player who owed an input
in a closed window and sent none is marked missing until any input of theirs or ``here``; a player marked missing
when a roll opens owes nothing in it. Off, the rules of a race are TK-6 and TK-7 unchanged (the cases suite)."""

from __future__ import annotations

import pytest
from tatamokatsu_helpers import GAME, T0, apply, close, inp, new, roll

from games import IllegalMove, Move

ON = {"presence": True}


def hands(s):
    return [s.fingers[p] for p in ("alice", "bob", "carol", "dave")]


def salute_roll(s, at, *, saluting):
    """A 4, 4, 4 roll (triples, 12) at ``at``: every player in ``saluting`` does a Katana and salutes in the race
    window; the race and the salute window close."""
    s, _ = roll(s, "4", "4", "4", at=at)
    for i, p in enumerate(saluting):
        s = inp(s, p, "katana", 500 + i, t0=at)
        s = inp(s, p, "salute", 900 + i, t0=at)
    s, ev = close(s)
    events = list(ev)
    if s.phase == "salute":
        s, ev = close(s)
        events += ev
    return s, events


def test_a_player_who_misses_a_race_loses_then_is_missing_and_owes_nothing_in_the_next_roll():
    s = new(options=ON)
    s, ev = salute_roll(s, T0, saluting=["alice", "bob", "dave"])
    assert hands(s) == [5, 5, 3, 5]  # present and silent: no Katana, no salute (TK-6, TK-7), as without presence
    assert s.missing == ["carol"] and [e.kind for e in ev].count("missing") == 1
    s, ev = salute_roll(s, T0 + 60_000, saluting=["bob", "dave"])  # bob rolls; carol is excused, alice is not
    assert s.excused == ["carol"]
    assert hands(s) == [3, 5, 3, 5] and s.missing == ["alice", "carol"]
    s, ev = apply(s, "carol", "here")
    assert s.missing == ["alice"] and [e.kind for e in ev] == ["here"]
    with pytest.raises(IllegalMove, match="not marked missing"):
        apply(s, "carol", "here")
    s, _ = roll(s, "2", "3", "4", at=T0 + 120_000)  # carol rolls: alice is excused in it ...
    s = inp(s, "alice", "shout", 100, t0=T0 + 120_000)  # ... and any input of hers ends the mark
    assert s.missing == [] and s.excused == ["alice"]


def test_without_presence_nobody_is_marked_and_every_miss_costs():
    s = new()
    s, _ = salute_roll(s, T0, saluting=["alice", "bob", "dave"])
    s, _ = salute_roll(s, T0 + 60_000, saluting=["alice", "bob", "dave"])
    assert hands(s) == [5, 5, 1, 5] and s.missing == [] and s.excused == []
    with pytest.raises(IllegalMove):
        GAME.apply(s, Move(player="carol", option="here"))
