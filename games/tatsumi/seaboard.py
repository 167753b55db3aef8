"""The seaboard (RULINGS TM-2, TM-3, TM-4, TM-6): well geometry, guarded wells, flying, gathering, claiming rings,
sand dollars, and the shrines on its edges with their requirements and range."""

from __future__ import annotations

import re
from collections.abc import Callable

from games.core import Event, T, Text, player_ref
from games.tatsumi import data as D
from games.tatsumi import weather
from games.tatsumi.cards import scales_on
from games.tatsumi.island import can_place_all, layout
from games.tatsumi.state import Seat, TatsumiState

# --------------------------------------------------------------------------------------------------------------
# Seaboard geometry (TM-2, TM-3)

_DIRS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def _rays(w: int) -> tuple[tuple[int, ...], ...]:
    x, y = D.well_xy(w)
    out = []
    for dx, dy in _DIRS:
        ray = []
        cx, cy = x + dx, y + dy
        while 1 <= cx <= 5 and 1 <= cy <= 5:
            ray.append((cy - 1) * 5 + cx - 1)
            cx, cy = cx + dx, cy + dy
        if ray:
            out.append(tuple(ray))
    return tuple(out)


RAYS = tuple(_rays(w) for w in range(25))
"""For each well, its queen-move rays (nearest well first)."""
ORTHO = tuple(
    tuple(
        (y - 1 + dy) * 5 + (x - 1 + dx)
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if 1 <= x + dx <= 5 and 1 <= y + dy <= 5
    )
    for x, y in (D.well_xy(w) for w in range(25))
)
"""For each well, its orthogonal neighbours."""


def _distance(edge: int, well: int) -> int:
    sx, sy = D.SHRINE_XY[D.EDGES[edge]]
    x, y = D.well_xy(well)
    return max(abs(sx - x), abs(sy - y))


_DISTANCE = tuple(tuple(_distance(k, w) for w in range(25)) for k in range(4))


def shrine_distance(edge: int, well: int) -> int:
    """Chebyshev distance from ``well`` to the virtual well of edge ``edge``'s shrine (TM-6)."""
    return _DISTANCE[edge][well]


def ename(e: str) -> str:
    """The element's name as option ids and event data write it (``"fire"``); :func:`etext` for people."""
    return D.ELEMENT_NAMES[e]


def etext(e: str) -> Text:
    """The element's name for people, in any language (``T("fire")``)."""
    return D.ELEMENT_TEXT[e]


def rings_text(rings: str) -> Text:
    """``"FFNN"`` -> ``"2 fire + 2 wind"``."""
    parts = []
    for e in D.ELEMENTS:
        n = rings.count(e)
        if n:
            parts.append(T("{n} {element}", n=n, element=etext(e)))
    return Text.join(" + ", parts) if parts else T("nothing")


def claim_text(how: str, player: str, ring: str, well: str) -> Text:
    """The line of a claim: ``how`` the dragon took the ring (``gathers``, ``claims``, ``breathes in``,
    ``submerges and claims``)."""
    args = {"player": player_ref(player), "element": etext(ring), "well": well}
    if how == "gathers":
        return T("{player} gathers a {element} ring from {well}.", **args)
    if how == "breathes in":
        return T("{player} breathes in a {element} ring from {well}.", **args)
    if how == "submerges and claims":
        return T("{player} submerges and claims a {element} ring from {well}.", **args)
    return T("{player} claims a {element} ring from {well}.", **args)


_COULD_NOT_PLACE = re.compile(r"(\{@[^{}]+\}) could not place a ring")


def end_reason_text(reason: str) -> Text:
    """The stored ``end_reason`` (English, in the state's JSON) as a text for people; ``""`` is "the end"."""
    if reason == "the 13th sand dollar was placed":
        return T("the 13th sand dollar was placed")
    if reason == "the solo deck is exhausted":
        return T("the solo deck is exhausted")
    m = _COULD_NOT_PLACE.fullmatch(reason)
    if m:
        return T("{player} could not place a ring", player=m.group(1))
    return T("the end") if not reason else Text.join("", [reason])


def guarded_wells(s: TatsumiState, p: Seat) -> set[int]:
    """Wells guarded against ``p``: those holding another dragon (TM-3), and in solo the Tekitatsu and the
    maelstrom on the board (TM-14)."""
    g = {q.well for q in s.seats if q is not p}
    if s.solo is not None:
        g.update(w for w in (*s.solo.tekitatsu, s.solo.maelstrom) if w >= 0)
    return g


def claim(s: TatsumiState, p: Seat, well: int, events: list[Event], how: str) -> str:
    """Move the top ring of ``well`` into ``p``'s holding; place a sand dollar if the well is now depleted
    (rulebook "Depleted Seawell"); the 13th triggers the end (TM-12). Returns the ring or ``""``."""
    stack = s.wells[well]
    if not stack:
        return ""
    ring = stack[-1]
    s.wells[well] = stack[:-1]
    p.holding[ring] += 1
    events.append(
        Event(
            kind="claim",
            text=claim_text(how, p.id, ring, D.WELL_NAMES[well]),
            data={"player": p.id, "well": D.WELL_NAMES[well], "ring": ename(ring)},
        )
    )
    if s.weather:
        weather.on_claim(s, p, ring, events)
    mark_depleted(s, well, events)
    return ring


def mark_depleted(s, well: int, events: list[Event]) -> None:
    """If ``well`` is now empty, a sand dollar goes on it (while fewer than 13 are out); the weather module may ask
    which (TM-13), and the 13th triggers the end (TM-12). Used by dragons' claims and the Tekitatsu's (TM-14)."""
    if not s.wells[well] and len(s.sand_dollars) < D.SAND_DOLLARS:
        s.sand_dollars.append(well)
        n = len(s.sand_dollars)
        events.append(
            Event(
                kind="sand_dollar",
                text=T("{well} is depleted: sand dollar {n} of {total}.", well=D.WELL_NAMES[well], n=n,
                       total=D.SAND_DOLLARS),
                data={"well": D.WELL_NAMES[well], "count": n},
            )
        )
        if s.weather:
            weather.on_deplete(s, well)
        if n == D.SAND_DOLLARS:
            trigger_end(s, T("the 13th sand dollar was placed"), events)


def trigger_end(s: TatsumiState, reason: str, events: list[Event]) -> None:
    """Start the last round (TM-12); it is finished so that every seat plays equally."""
    if s.end_triggered:
        return
    s.end_triggered = True
    s.end_reason = str(reason)
    events.append(
        Event(
            kind="end_triggered",
            text=T("The end is near: {reason}. This round is the last.", reason=reason),
            data={"reason": str(reason)},
        )
    )


# --------------------------------------------------------------------------------------------------------------
# Fly (TM-3) and gather (TM-4)


def fly_targets(s: TatsumiState, p: Seat) -> dict[int, tuple[int, int]]:
    """Wells ``p`` may fly to, each with (guarded wells passed, depleted wells passed). Queen moves through
    unguarded wells; with Swallows also through (never into) guarded ones (TM-3, TM-11)."""
    guarded = guarded_wells(s, p)
    swallows = scales_on(s, p, "swallows") > 0
    out: dict[int, tuple[int, int]] = {}
    wells = s.wells
    for ray in RAYS[p.well]:
        g = d = 0
        for w in ray:
            if w in guarded:
                if not swallows:
                    break
                g += 1
                if not wells[w]:
                    d += 1
                continue
            out[w] = (g, d)
            if not wells[w]:
                d += 1
    return out


def symmetric_gather(s: TatsumiState, p: Seat, exclude: int = -1) -> list[int]:
    """Wells the symmetric gathering may claim from (TM-4): orthogonally adjacent, unguarded, not depleted."""
    guarded = guarded_wells(s, p)
    return [w for w in ORTHO[p.well] if w != exclude and w not in guarded and s.wells[w]]


GATHERS: dict[str, Callable[..., list[int]]] = {"symmetric": symmetric_gather}
"""Gathering actions by name (``Seat.gather``): the symmetric one here, the asymmetric dragons' from
:mod:`games.tatsumi.dragons`."""


def gather_wells(s: TatsumiState, p: Seat, exclude: int = -1) -> list[int]:
    return GATHERS[p.gather](s, p, exclude)


# --------------------------------------------------------------------------------------------------------------
# Offering (TM-6, TM-7)


def requirement(s: TatsumiState, edge: int) -> str:
    """The rings edge ``edge``'s shrine asks for now (TM-6)."""
    table = D.SHRINE_FRONT if s.sides[edge] == "front" else D.SHRINE_BACK
    return table[s.shrines[edge]]


def has_rings(p: Seat, rings: str) -> bool:
    return all(p.holding[e] >= rings.count(e) for e in set(rings))


def offer_edges(s: TatsumiState, p: Seat) -> list[int]:
    """Edges whose shrine ``p`` may offer at now: in range (1 + Butterfly scales), the rings held, and all of them
    placeable on the island (TM-6, TM-7)."""
    reach = 1 + scales_on(s, p, "butterfly")
    lay = layout(p.island_key)
    out = []
    for k in range(4):
        if _DISTANCE[k][p.well] > reach:
            continue
        req = requirement(s, k)
        if has_rings(p, req) and can_place_all(lay, p.island, req):
            out.append(k)
    return out
