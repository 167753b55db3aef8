"""The six asymmetric islands (rulebook "Asymmetric Islands"; RULINGS TM-15, designed) and their placement rules.

Data first: every island is a 37-space hexagon with the geometry of Tatsumi Island (TM-9: rows A-G of 4, 5, 6, 7, 6,
5, 4 spaces, hex adjacency), 16 rifts (4 per element) and 2 blessings. ``rows`` uses the TM-9 notation (``.`` plain,
``F W N L`` rift, ``*`` blessing); ``marks`` gives each space the mark its rule needs (``.`` none):

- Arashima — no marks: every row is a wind row (an inland space of a row takes a ring only once a perimeter space of
  that row holds one).
- Inyo — ``l`` light, ``d`` dark; the eyes ``D`` (dark, inside the light half) and ``L`` (light, inside the dark
  half). After every ring placed the rings on light and on dark spaces differ by at most one.
- Isuragi — ``o`` obelisk: it takes a ring only once every space adjacent to it holds one.
- Kogasu — ``v`` the volcano centre: it is adjacent to no space, for placement and for scoring (groups, wind), so a
  ring may go there at any time after the first ring (rule 1-2 still hold), and sits apart from all others.
- Mizukame — ``1 2 3`` droplets: a 2-droplet space takes a ring only once every 1-droplet space holds one, a
  3-droplet space once every 1- and 2-droplet space does.
- Raikou — ``b`` lightning bolt: an offering must put exactly one of its rings on a bolt space if some order of
  placing all its rings can (checked when the offering starts); overflow and Blackbird are free.

``blessings``: (space, support, support, element) — the blessing is unlocked when its space holds a ring of any
element and both supports hold rings of ``element`` (TM-15: supporting positions and elements fixed by the layout).

Replace the tables with the printed boards without touching the logic below them.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from games.core import T
from games.tatsumi.data import ELEMENTS
from games.tatsumi.island import EMPTY, Layout, base_legal_spaces, layout, put

BOARDS = ("arashima", "inyo", "isuragi", "kogasu", "mizukame", "raikou")
"""The six island boards; each has Tatsumi Island on its symmetric side."""

TITLES = {
    "arashima": T("Arashima"),
    "inyo": T("Inyo"),
    "isuragi": T("Isuragi"),
    "kogasu": T("Kogasu"),
    "mizukame": T("Mizukame"),
    "raikou": T("Raikou"),
}
"""The boards' names (texts: a Japanese table writes them in kana)."""

RULE_TEXT = {
    "arashima": T("inland ring in a row only after a perimeter ring in that row"),
    "inyo": T("light and dark rings always within one of each other"),
    "isuragi": T("an obelisk only once all its neighbours hold rings"),
    "kogasu": T("the volcano centre touches nothing; any ring may go there"),
    "mizukame": T("all 1-droplets before 2-droplets before 3-droplets"),
    "raikou": T("each offering encircles exactly one bolt if it can"),
}
"""One-line rule texts (our words) for options, help and the renderer."""

ISLANDS = {
    "arashima": {
        "rows": (
            "N . . F",
            ". W . L .",
            "F . * . . N",
            "L . W . F . W",
            "N . . * . L",
            ". F . N .",
            "W . . L",
        ),
        "marks": None,
        "blessings": (("C3", "B3", "D4", "L"), ("E4", "E3", "F3", "F")),
    },
    "inyo": {
        "rows": (
            ". F W .",
            "L N . L .",
            "W . * . F .",
            ". N . . W . .",
            ". . F * L N",
            ". . . W L",
            "N . . F",
        ),
        "marks": (
            "l l d d",
            "l d d d d",
            "l d d L d d",
            "l l l d d d d",
            "l l l l l d",
            "l D l l d",
            "l l d d",
        ),
        "blessings": (("C3", "B3", "C4", "L"), ("E4", "D5", "F4", "W")),
    },
    "isuragi": {
        "rows": (
            ". W F .",
            "N . . . L",
            "F . . * W .",
            "L . N . L . N",
            ". W * . F .",
            "N . . . W",
            ". L F .",
        ),
        "marks": (
            ". . . .",
            ". . . o .",
            ". . o . . .",
            ". . . . . . .",
            ". . . o . .",
            ". . . . .",
            ". . . .",
        ),
        "blessings": (("C4", "C5", "D4", "W"), ("E3", "D3", "F3", "N")),
    },
    "kogasu": {
        "rows": (
            "F . . W",
            ". L . N .",
            "N . * . F .",
            "W . F . L . N",
            ". N . * W .",
            ". L . F .",
            "L . . W",
        ),
        "marks": (
            ". . . .",
            ". . . . .",
            ". . . . . .",
            ". . . v . . .",
            ". . . . . .",
            ". . . . .",
            ". . . .",
        ),
        "blessings": (("C3", "C2", "B3", "F"), ("E4", "E3", "F3", "L")),
    },
    "mizukame": {
        "rows": (
            "W . . F",
            "N L . W L",
            "F . * . . N",
            "L . . W . . F",
            "N . . * . W",
            ". . L . N",
            ". F . .",
        ),
        "marks": (
            ". 1 1 .",
            ". . 1 . .",
            ". 2 . 1 . .",
            ". . 2 . 2 . .",
            ". . 3 . 2 .",
            ". 3 . 3 .",
            ". . 3 .",
        ),
        "blessings": (("C3", "B3", "C4", "W"), ("E4", "E5", "F3", "L")),
    },
    "raikou": {
        "rows": (
            ". L N .",
            "F . . . W",
            ". . * F . L",
            "W . L . . N .",
            "N . F * . W",
            "L . . . F",
            ". W N .",
        ),
        "marks": (
            "b . . .",
            ". . b . .",
            ". . . b . .",
            ". . b . . . b",
            ". . . . . .",
            ". . b . .",
            ". . . b",
        ),
        "blessings": (("C3", "C2", "D4", "L"), ("E4", "E5", "F4", "F")),
    },
}

# ==============================================================================================================
# Logic: building the layouts and the placement rules they name.


def _cells(rows) -> list[str]:
    return [c for row in rows for c in row.split()]


def _rule_legal(lay: Layout, island: str, element: str, base) -> list[int]:
    """TM-8 spaces (``base``) narrowed by the island's own rule (see the module docstring)."""
    out = base(lay, island, element)
    rule = lay.rule
    marks = lay.marks
    if rule == "arashima":
        rows_ok = set()
        for i, c in enumerate(island):
            if c != EMPTY and lay.perimeter[i]:
                rows_ok.add(lay.coords[i][0])
        return [i for i in out if lay.perimeter[i] or lay.coords[i][0] in rows_ok]
    if rule == "inyo":
        diff = 0
        for i, c in enumerate(island):
            if c != EMPTY:
                diff += 1 if marks[i] in "lL" else -1
        if diff == 0:
            return out
        want = "dD" if diff > 0 else "lL"
        return [i for i in out if marks[i] in want]
    if rule == "isuragi":
        return [i for i in out if marks[i] != "o" or all(island[j] != EMPTY for j in lay.adj[i])]
    if rule == "mizukame":
        full = {k: all(island[i] != EMPTY for i, m in enumerate(marks) if m == k) for k in "12"}
        return [
            i
            for i in out
            if marks[i] not in "23" or (full["1"] and (marks[i] == "2" or full["2"]))
        ]
    if rule == "kogasu":
        crater = marks.index("v")
        if island[crater] == EMPTY and island.count(EMPTY) < len(island):
            out = sorted(set(out) | {crater})
        return out
    return out


@cache
def build(key: str) -> Layout:
    """The :class:`~games.tatsumi.island.Layout` of asymmetric island ``key`` (TM-15) on Tatsumi Island's geometry;
    ``KeyError`` for an unknown key."""
    spec = ISLANDS[key]
    base = layout("tatsumi")
    cells = _cells(spec["rows"])
    assert len(cells) == base.size, key
    marks = tuple(_cells(spec["marks"])) if spec["marks"] else (".",) * base.size
    rift = tuple(c if c in ELEMENTS else "" for c in cells)
    blessings = tuple((base.index(b), base.index(x), base.index(y)) for b, x, y, _ in spec["blessings"])
    adj = base.adj
    if key == "kogasu":  # the volcano centre touches nothing (placement and scoring)
        crater = marks.index("v")
        adj = tuple(() if i == crater else tuple(j for j in a if j != crater) for i, a in enumerate(adj))
    return dataclasses.replace(
        base,
        key=key,
        title=TITLES[key],
        adj=adj,
        rift=rift,
        blessings=blessings,
        rifts_of={e: tuple(i for i, x in enumerate(rift) if x == e) for e in ELEMENTS},
        rule=key,
        marks=marks,
        bless_el=tuple(e for *_, e in spec["blessings"]),
        legal=_rule_legal,
        plain_ok=key in ("kogasu", "raikou"),
    )


# --------------------------------------------------------------------------------------------------------------
# Raikou: exactly one bolt per offering, if possible (TM-15)


def bolts_on(lay: Layout, island: str) -> int:
    """Bolt spaces holding a ring."""
    return sum(1 for i, m in enumerate(lay.marks) if m == "b" and island[i] != EMPTY)


def _bolt_search(lay: Layout, island: str, rings: str, need: int, memo: dict) -> bool:
    """Whether ``rings`` can all be placed (TM-8) putting exactly ``need`` of them on bolt spaces."""
    if need < 0:
        return False
    if not rings:
        return need == 0
    key = (island, rings, need)
    if key in memo:
        return memo[key]
    ok = False
    for e in sorted(set(rings)):
        rest = rings.replace(e, "", 1)
        for i in base_legal_spaces(lay, island, e):
            if _bolt_search(lay, put(island, i, e), rest, need - (lay.marks[i] == "b"), memo):
                ok = True
                break
        if ok:
            break
    memo[key] = ok
    return ok


def offer_bolts(lay: Layout, island: str, rings: str) -> int:
    """At the start of an offering on Raikou: the bolts already encircled if exactly one more can be encircled by
    placing ``rings``, else -1 (no bolt requirement for this offering). -1 on every other island."""
    if lay.rule != "raikou":
        return -1
    return bolts_on(lay, island) if _bolt_search(lay, island, "".join(sorted(rings)), 1, {}) else -1


def bolt_ok(lay: Layout, after: str, rest: str, start: int) -> bool:
    """Whether a placement leading to island ``after`` (``rest`` rings still to place) keeps Raikou's "exactly one
    bolt" reachable for an offering that began with ``start`` bolts encircled (``start`` -1: always True)."""
    if start < 0:
        return True
    need = 1 - (bolts_on(lay, after) - start)
    return _bolt_search(lay, after, "".join(sorted(rest)), need, {})
