"""Helpers for the Tatamokatsu tests: a table of four, forced rolls, timed inputs."""

from __future__ import annotations

from games import TIMEOUT, Move, force, get

GAME = get("tatamokatsu")
TABLE = ["alice", "bob", "carol", "dave"]
T0 = 1_000_000  # the roll's time (ms); cases count "+1200 ms" from it


def new(players=None, options=None, seed=1, fingers=None):
    """A fresh game (alice rolls first); ``fingers`` overrides hands (player -> fingers)."""
    s = GAME.setup(list(players or TABLE), options, seed)
    if fingers:
        s = s.model_copy(deep=True)
        s.fingers.update(fingers)
    return s


def apply(s, player, option, at=None):
    """Apply one move, return (state, events)."""
    out = GAME.apply(s, Move(player=player, option=option, at_ms=at))
    return out.state, out.events


def roll(s, *faces, at=T0):
    """The roller rolls ``faces`` (forced, C-1) at time ``at``; returns (state, events)."""
    return apply(force(s, *faces), s.roller, "roll", at)


def inp(s, player, what, ms, t0=T0):
    """A race input ``ms`` after the roll."""
    return apply(s, player, what, t0 + ms)[0]


def close(s):
    """The session's timeout at the open decision's deadline; returns (state, events)."""
    return apply(s, None, TIMEOUT, s.deadline_ms)


def kinds(events):
    return [e.kind for e in events]


def decision(s, kind):
    found = [d for d in GAME.pending(s) if d.kind == kind]
    assert found, f"no {kind} decision in {[d.kind for d in GAME.pending(s)]}"
    return found[0]
