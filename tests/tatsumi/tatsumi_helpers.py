"""Helpers for the Tatsumi tests: build positions, play moves, check invariants."""

from __future__ import annotations

from games import Move
from games.tatsumi import GAME, TatsumiState, rules
from games.tatsumi import data as D
from games.tatsumi.island import EMPTY, layout
from games.tatsumi.state import Turn

P2 = ["ann", "bob"]
P3 = ["ann", "bob", "cat"]
P4 = ["ann", "bob", "cat", "dan"]
W = D.WELL_INDEX
LAY = layout("tatsumi")


def new(players=P2, seed: int = 1, wells: list[str] | None = None, shrines=None, cards=None) -> TatsumiState:
    """A fresh game, optionally with chosen wells (25 strings), shrines and cards (edges N, E, S, W).
    Rings taken out of the wells go to ``removed`` (rings the pool lacks are conjured: such test positions do not
    conserve the 112 rings)."""
    s = GAME.setup(list(players), None, seed)
    if wells is not None:
        all_now = "".join(s.wells) + s.removed
        s.wells = list(wells)
        pool = list(all_now)
        for c in "".join(wells):
            if c in pool:
                pool.remove(c)
        s.removed = "".join(pool)
    if shrines is not None:
        s.shrines = list(shrines)
    if cards is not None:
        s.cards = list(cards)
    return s


def full_wells(ring: str = "F", depth: int = 3) -> list[str]:
    return [ring * depth for _ in range(25)]


def island(**rings: str) -> str:
    """An island string from ``F="A2 C5", W="C1"`` style arguments."""
    isl = list(LAY.empty)
    for e, spaces in rings.items():
        for name in spaces.split():
            isl[LAY.index(name)] = e
    return "".join(isl)


def hold(s: TatsumiState, seat: int, **counts: int) -> None:
    """Set a seat's holding, balancing the rings through ``removed`` (the box)."""
    p = s.seats[seat]
    box = list(s.removed)
    for e in D.ELEMENTS:
        want = counts.get(e, 0)
        while p.holding[e] < want:
            if e in box:
                box.remove(e)
            p.holding[e] += 1
        while p.holding[e] > want:
            box.append(e)
            p.holding[e] -= 1
    s.removed = "".join(box)


def set_island(s: TatsumiState, seat: int, isl: str) -> None:
    """Set a seat's island, balancing the rings through ``removed``."""
    p = s.seats[seat]
    box = list(s.removed)
    for c in p.island:
        if c != EMPTY:
            box.append(c)
    for c in isl:
        if c != EMPTY and c in box:
            box.remove(c)
    s.removed = "".join(box)
    p.island = isl


def at(s: TatsumiState, seat: int, well: str) -> None:
    s.seats[seat].well = W[well]


def refresh(s: TatsumiState) -> TatsumiState:
    """Restart the current turn from its beginning and settle lone choices."""
    s.turn = Turn()
    rules.advance(s, [])
    return s


def ids(s: TatsumiState) -> list[str]:
    d = GAME.pending(s)
    return [o.id for o in d[0].options] if d else []


def play(s: TatsumiState, *options: str):
    """Apply options in order for whoever is to play; returns (state, all events)."""
    events = []
    for o in options:
        pid = GAME.pending(s)[0].player
        out = GAME.apply(s, Move(player=pid, option=o))
        s = out.state
        events.extend(out.events)
    return s, events


def rings_total(s: TatsumiState) -> int:
    n = sum(len(w) for w in s.wells) + len(s.removed) + len(s.turn.to_place)
    for p in s.seats:
        n += sum(p.holding.values()) + (len(p.island) - p.island.count(EMPTY))
    return n


def check_invariants(s: TatsumiState) -> None:
    """112 rings conserved (28 per element) across wells, box, holdings, islands and rings being placed; at most
    13 sand dollars, each on a depleted well; fortune is the sum of its sources; every island obeys TM-8; at
    most one dragon per well; scales conserved (7 per dragon)."""
    assert rings_total(s) == 112
    every = "".join(s.wells) + s.removed + s.turn.to_place
    for p in s.seats:
        every += "".join(e * n for e, n in p.holding.items()) + p.island.replace(EMPTY, "")
    for e in D.ELEMENTS:
        assert every.count(e) == 28
    assert len(s.sand_dollars) <= 13
    assert len(set(s.sand_dollars)) == len(s.sand_dollars)
    assert all(s.wells[w] == "" for w in s.sand_dollars)
    assert len({p.well for p in s.seats}) == len(s.seats)
    for p in s.seats:
        assert p.fortune == sum(p.scored.values())
        assert all(v > 0 for v in p.scored.values())
        assert island_ok(p.island)
        in_flight = len(s.turn.scale_queue) if p is s.seats[s.current] else 0
        assert p.scales_beside + sum(p.cards) + sum(not b for b in p.blessings) + in_flight == 7
        assert min(p.holding.values()) >= 0


def island_ok(isl: str) -> bool:
    """TM-8 holds for ``isl``: every rift holds only its element and the rings form one connected group that
    contains a rift (the first ring)."""
    occ = [i for i, c in enumerate(isl) if c != EMPTY]
    if not occ:
        return True
    for i in occ:
        if LAY.rift[i] and LAY.rift[i] != isl[i]:
            return False
    if not any(LAY.rift[i] for i in occ):
        return False
    seen = {occ[0]}
    stack = [occ[0]]
    while stack:
        a = stack.pop()
        for b in LAY.adj[a]:
            if b not in seen and isl[b] != EMPTY:
                seen.add(b)
                stack.append(b)
    return len(seen) == len(occ)


def offer_state(shrine="F", side="front", card="koi", **holding):
    """Ann on c1 next to the north shrine (element ``shrine``, side ``side``, card ``card`` above it), holding
    ``holding``; the wells hold lightning."""
    s = new(
        wells=full_wells("L"),
        shrines=[shrine] + [e for e in D.ELEMENTS if e != shrine],
        cards=[card, "turtle", "toad", "monkey"],
    )
    s.sides[0] = side
    at(s, 0, "c1")
    hold(s, 0, **holding)
    return refresh(s)
