"""The Moon board's geometry (RULINGS TS-2): 19 pointy-top hex spaces, 54 vertices, their names.

Spaces are named by row and position: rows A-E hold 3, 4, 5, 4, 3 spaces (``A1``..``A3``, …, ``C1``..``C5``, …,
``E1``..``E3``); ``C3`` is the centre. A vertex is named by a space and a corner (``n``, ``ne``, ``se``, ``s``,
``sw``, ``nw``); one vertex has up to three names (``C3-n`` = ``B2-se`` = ``B3-sw``).

Canonical vertex name (used in option ids and in the state): among a vertex's names, the one whose corner comes
first in ``n, s, ne, nw, se, sw`` (ties: the space first in board order). Every vertex is the ``n`` or ``s`` corner
of some hex, so inner vertices are named ``X-n`` or ``X-s``; a few rim vertices fall back to other corners.

Coordinates are in hex-size units (centre-to-corner = 1), origin at the centre of ``C3``, y grows downwards;
renderers scale them.
"""

from __future__ import annotations

import math

from games.core import T

ROWS = "ABCDE"
CORNERS = ("n", "ne", "se", "s", "sw", "nw")
_CORNER_ANGLE = {"n": -90, "ne": -30, "se": 30, "s": 90, "sw": 150, "nw": 210}
_CORNER_RANK = {"n": 0, "s": 1, "ne": 2, "nw": 3, "se": 4, "sw": 5}
_SQ3 = math.sqrt(3.0)


def _build():
    spaces: list[str] = []
    axial: dict[str, tuple[int, int]] = {}
    for ri, row in enumerate(ROWS):
        r = ri - 2
        qmin, qmax = max(-2, -2 - r), min(2, 2 - r)
        for i, q in enumerate(range(qmin, qmax + 1)):
            name = f"{row}{i + 1}"
            spaces.append(name)
            axial[name] = (q, r)
    centre = {s: (_SQ3 * (q + r / 2.0), 1.5 * r) for s, (q, r) in axial.items()}
    by_axial = {v: k for k, v in axial.items()}
    neighbours: dict[str, tuple[str, ...]] = {}
    for s, (q, r) in axial.items():
        ns = []
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            other = by_axial.get((q + dq, r + dr))
            if other is not None:
                ns.append(other)
        neighbours[s] = tuple(sorted(ns, key=spaces.index))
    # vertices: group corner names by rounded position
    groups: dict[tuple[int, int], list[tuple[str, str]]] = {}
    pos: dict[tuple[int, int], tuple[float, float]] = {}
    for s in spaces:
        cx, cy = centre[s]
        for c in CORNERS:
            a = math.radians(_CORNER_ANGLE[c])
            x, y = cx + math.cos(a), cy + math.sin(a)
            key = (round(x * 1000), round(y * 1000))
            groups.setdefault(key, []).append((s, c))
            pos[key] = (x, y)
    vertex_names: dict[str, tuple[str, ...]] = {}
    vertex_spaces: dict[str, tuple[str, ...]] = {}
    vertex_xy: dict[str, tuple[float, float]] = {}
    alias: dict[str, str] = {}
    space_vertices: dict[str, dict[str, str]] = {s: {} for s in spaces}
    for key, names in groups.items():
        names.sort(key=lambda sc: (_CORNER_RANK[sc[1]], spaces.index(sc[0])))
        canon = f"{names[0][0]}-{names[0][1]}"
        vertex_names[canon] = tuple(f"{s}-{c}" for s, c in names)
        vertex_spaces[canon] = tuple(sorted({s for s, _ in names}, key=spaces.index))
        vertex_xy[canon] = pos[key]
        for s, c in names:
            alias[f"{s}-{c}"] = canon
            space_vertices[s][c] = canon
    # order vertices top-to-bottom, left-to-right for stable listings
    order = sorted(vertex_names, key=lambda v: (round(vertex_xy[v][1], 3), round(vertex_xy[v][0], 3)))
    return spaces, axial, centre, neighbours, order, vertex_names, vertex_spaces, vertex_xy, alias, space_vertices


(SPACES, AXIAL, SPACE_XY, NEIGHBOURS, VERTICES, VERTEX_NAMES, VERTEX_SPACES, VERTEX_XY, ALIAS,
 _SPACE_CORNERS) = _build()

SPACE_SET = frozenset(SPACES)
VERTEX_INDEX = {v: i for i, v in enumerate(VERTICES)}
SPACE_VERTICES: dict[str, tuple[str, ...]] = {s: tuple(_SPACE_CORNERS[s][c] for c in CORNERS) for s in SPACES}
"""Canonical vertex names around each space, in corner order n, ne, se, s, sw, nw."""


def canonical(name: str) -> str | None:
    """The canonical name of vertex ``name`` (any of its up-to-three names, case-insensitive), or None."""
    name = name.strip()
    if "-" not in name:
        return None
    s, _, c = name.partition("-")
    return ALIAS.get(f"{s.upper()}-{c.lower()}")


def corner_name(space: str, vertex: str) -> str:
    """The name of canonical ``vertex`` as a corner of ``space`` (``C3-se``); ``KeyError`` if not on it."""
    for c in CORNERS:
        if _SPACE_CORNERS[space][c] == vertex:
            return f"{space}-{c}"
    raise KeyError(f"{vertex} is not a corner of {space}")


def vertex_label(vertex: str, first: str | None = None) -> str:
    """People's label for a vertex: ``C3-n (= B2-se = B3-sw)``; ``first``, one of its names (TS-2), leads when
    given: ``vertex_label("C3-n", "B2-se")`` -> ``B2-se (= C3-n = B3-sw)``. The names are always half-width
    letters and digits, in every language; the other names' brackets are the language's (ja
    ``C3-n（= B2-se = B3-sw）``): a :class:`~games.core.Text` when there are other names."""
    names = list(VERTEX_NAMES[vertex])
    if first in names:
        names.remove(first)
        names.insert(0, first)
    if len(names) == 1:
        return names[0]
    return T("{vertex} (= {others})", vertex=names[0], others=" = ".join(names[1:]))


assert len(SPACES) == 19 and len(VERTICES) == 54
