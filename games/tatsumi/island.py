"""Island geometry, ring placement, immediate scoring, blessings and Elemental Mastery (RULINGS TM-8, TM-9, TM-12).

An island position is a string of 37 characters, one per space in row order (``A1`` first): ``.`` empty, else the
element code of the ring on it (see :mod:`games.tatsumi.data`). Strings are immutable, so states copy cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from games.tatsumi.data import ELEMENTS, ISLANDS

EMPTY = "."


@dataclass(frozen=True)
class Layout:
    """The geometry of one island (TM-9): space names, hex adjacency, rifts, blessings, perimeter.

    ``rift[i]`` is an element code or ``""``; ``blessings`` are ``(space, left, right)`` triples; ``rifts_of[e]``
    the rift spaces of element ``e``; ``perimeter`` a 37-tuple of bools.
    """

    key: str
    title: str
    rows: tuple[int, ...]
    names: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    adj: tuple[tuple[int, ...], ...]
    rift: tuple[str, ...]
    blessings: tuple[tuple[int, int, int], ...]
    rifts_of: dict
    perimeter: tuple[bool, ...]
    rule: str = ""
    """Asymmetric islands (TM-15, :mod:`games.tatsumi.islands_data`): the rule's name, each space's mark, each
    blessing's fixed supporting element, the placement filter ``legal(lay, island, element, base)`` and whether
    :func:`plain_reach`'s shortcut still holds (no rule beyond TM-8 on plain spaces)."""
    marks: tuple[str, ...] = ()
    bless_el: tuple[str, ...] = ()
    legal: Callable | None = None
    plain_ok: bool = True

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def empty(self) -> str:
        return EMPTY * len(self.names)

    def index(self, name: str) -> int:
        """The space index of ``name`` (``"C3"``); ``KeyError`` when there is no such space."""
        return self.names.index(name)


@cache
def layout(key: str = "tatsumi") -> Layout:
    """The :class:`Layout` of island ``key`` built from :data:`games.tatsumi.data.ISLANDS` (TM-9).

    Adjacency: left/right in a row; between rows r and r+1, space i (0-based) of the shorter row touches spaces
    i and i+1 of the longer row.
    """
    if key not in ISLANDS:  # the asymmetric islands (TM-15)
        from games.tatsumi.islands_data import build

        return build(key)
    spec = ISLANDS[key]
    grid = [row.split() for row in spec["rows"]]
    rows = tuple(len(r) for r in grid)
    names, coords, rift, marks = [], [], [], []
    start = []
    for r, cells in enumerate(grid):
        start.append(len(names))
        for i, cell in enumerate(cells):
            names.append(f"{'ABCDEFG'[r]}{i + 1}")
            coords.append((r, i))
            rift.append(cell if cell in ELEMENTS else "")
            marks.append(cell)
    idx = {rc: n for n, rc in enumerate(coords)}
    adj: list[list[int]] = [[] for _ in names]

    def link(a: int, b: int) -> None:
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)

    for r, n_cells in enumerate(rows):
        for i in range(n_cells):
            a = idx[(r, i)]
            if i + 1 < n_cells:
                link(a, idx[(r, i + 1)])
            if r + 1 < len(rows):
                below = rows[r + 1]
                cands = (i, i + 1) if below > n_cells else (i - 1, i)
                for j in cands:
                    if 0 <= j < below:
                        link(a, idx[(r + 1, j)])
    blessings = tuple(
        (n, idx[(coords[n][0], coords[n][1] - 1)], idx[(coords[n][0], coords[n][1] + 1)])
        for n, m in enumerate(marks)
        if m == "*"
    )
    perimeter = tuple(r in (0, len(rows) - 1) or i in (0, rows[r] - 1) for r, i in coords)
    return Layout(
        key=key,
        title=spec["title"],
        rows=rows,
        names=tuple(names),
        coords=tuple(coords),
        adj=tuple(tuple(sorted(a)) for a in adj),
        rift=tuple(rift),
        blessings=blessings,
        rifts_of={e: tuple(n for n, x in enumerate(rift) if x == e) for e in ELEMENTS},
        perimeter=perimeter,
    )


# --------------------------------------------------------------------------------------------------------------
# Placement (TM-8)


def legal_spaces(lay: Layout, island: str, element: str) -> list[int]:
    """Spaces where a ring of ``element`` may go now: TM-8 (:func:`base_legal_spaces`) and the island's own rule."""
    if lay.legal is not None:
        return lay.legal(lay, island, element, base_legal_spaces)
    return base_legal_spaces(lay, island, element)


def base_legal_spaces(lay: Layout, island: str, element: str) -> list[int]:
    """Spaces where a ring of ``element`` may go now (TM-8): empty; a rift only takes its element; the first ring
    goes on a rift; every later ring next to a ring already on the island."""
    if island.count(EMPTY) == len(island):
        return list(lay.rifts_of[element])
    rift = lay.rift
    adj = lay.adj
    out = []
    for i, c in enumerate(island):
        if c != EMPTY:
            continue
        r = rift[i]
        if r and r != element:
            continue
        for j in adj[i]:
            if island[j] != EMPTY:
                out.append(i)
                break
    return out


def put(island: str, space: int, element: str) -> str:
    """``island`` with a ring of ``element`` on ``space``."""
    return island[:space] + element + island[space + 1 :]


def encircled(lay: Layout, island: str, element: str) -> int:
    """How many rifts of ``element`` hold a ring (a rift only ever holds its own element)."""
    return sum(1 for i in lay.rifts_of[element] if island[i] != EMPTY)


def plain_reach(lay: Layout, island: str, need: int = 99) -> int:
    """How many empty plain (non-rift) spaces can be reached from the rings on ``island`` stepping through empty plain
    spaces (0 on an empty island); counting stops once ``need`` is reached. Any rings fit there in BFS order."""
    seen: set[int] = set()
    frontier = [i for i, c in enumerate(island) if c != EMPTY]
    rift = lay.rift
    adj = lay.adj
    count = 0
    while frontier and count < need:
        nxt = []
        for i in frontier:
            for j in adj[i]:
                if j not in seen and island[j] == EMPTY and not rift[j]:
                    seen.add(j)
                    count += 1
                    nxt.append(j)
        frontier = nxt
    return count


def can_place_all(lay: Layout, island: str, rings: str) -> bool:
    """Whether every ring of ``rings`` (element codes) can go on ``island`` in some order (TM-7, TM-8)."""
    if not rings:
        return True
    empty = island.count(EMPTY)
    if empty < len(rings):
        return False
    if lay.plain_ok and empty < len(island) and plain_reach(lay, island, len(rings)) >= len(rings):
        return True
    return _search(lay, island, "".join(sorted(rings)), {})


def _search(lay: Layout, island: str, rings: str, memo: dict) -> bool:
    if not rings:
        return True
    key = (island, rings)
    if key in memo:
        return memo[key]
    ok = False
    for e in sorted(set(rings)):
        rest = rings.replace(e, "", 1)
        for i in legal_spaces(lay, island, e):
            if _search(lay, put(island, i, e), rest, memo):
                ok = True
                break
        if ok:
            break
    memo[key] = ok
    return ok


def blessing_met(lay: Layout, island: str, blessing: int) -> bool:
    """Whether blessing ``blessing`` (index into ``lay.blessings``) is unlocked (TM-9): its space holds a ring and
    its left and right neighbours hold rings of one element."""
    space, left, right = lay.blessings[blessing]
    if lay.bless_el:  # TM-15: supports of a fixed element
        return island[space] != EMPTY and island[left] == island[right] == lay.bless_el[blessing]
    return island[space] != EMPTY and island[left] != EMPTY and island[left] == island[right]


# --------------------------------------------------------------------------------------------------------------
# Counts used by summoning cards (TM-11) and Elemental Mastery (TM-12)


def perimeter_rings(lay: Layout, island: str) -> int:
    """Rings on perimeter spaces (Turtle)."""
    return sum(1 for i, c in enumerate(island) if c != EMPTY and lay.perimeter[i])


def inland_rings(lay: Layout, island: str) -> int:
    """Rings on inland spaces (Toad)."""
    return sum(1 for i, c in enumerate(island) if c != EMPTY and not lay.perimeter[i])


def groups(lay: Layout, island: str, element: str) -> list[int]:
    """Sizes of the connected groups of ``element`` rings."""
    seen: set[int] = set()
    sizes = []
    for i, c in enumerate(island):
        if c != element or i in seen:
            continue
        stack = [i]
        seen.add(i)
        n = 0
        while stack:
            a = stack.pop()
            n += 1
            for b in lay.adj[a]:
                if b not in seen and island[b] == element:
                    seen.add(b)
                    stack.append(b)
        sizes.append(n)
    return sizes


def mastery(lay: Layout, island: str) -> dict[str, int]:
    """Elemental Mastery by element (rulebook "End Game Scoring", TM-12): water 2 per ring of the largest group;
    lightning 2 per group; wind 1 per other element adjacent to it (0-3); fire 5 per 3 fire rings."""
    water = groups(lay, island, "W")
    wind = 0
    for i, c in enumerate(island):
        if c == "N":
            wind += len({island[j] for j in lay.adj[i]} - {EMPTY, "N"})
    return {
        "W": 2 * max(water, default=0),
        "L": 2 * len(groups(lay, island, "L")),
        "N": wind,
        "F": 5 * (island.count("F") // 3),
    }
