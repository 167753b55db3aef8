"""Board geometry: layouts, tile indices and names, adjacency (RULINGS FT-1).

A *layout* is a string of rows separated by ``/``; each character is a board number or ``.`` for a gap
(``"123/456"``: boards 1-2-3 over 4-5-6). Board ``k`` owns tiles ``(k-1)*9 .. (k-1)*9+8``, cell ``n`` (1..9) in
reading order; a tile's name for people is ``"k-n"`` (board 2, centre: ``"2-5"``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from games.core import T
from games.tataraba.data import BOARD_SIDE, BOARDS_FOR, DEFAULT_LAYOUTS, EVERGREEN_CELLS

CELLS = BOARD_SIDE * BOARD_SIDE


def normalise_layout(text: str) -> str:
    """``text`` without spaces and ``-`` separators, rows padded with ``.`` to one width.

    Raises ``ValueError`` when a character is not a digit 1-6, ``.`` or ``/``, a board repeats, or no board is given.
    """
    rows = [r for r in text.replace(" ", "").replace("-", "").replace(",", "/").split("/")]
    if not any(rows):
        raise ValueError(T("a layout needs at least one board"))
    width = max(len(r) for r in rows)
    seen: set[str] = set()
    for row in rows:
        for ch in row:
            if ch == ".":
                continue
            if ch not in "123456":
                raise ValueError(T("layout character {ch} is not a board number 1-6 or '.'", ch=repr(ch)))
            if ch in seen:
                raise ValueError(T("board {board} appears twice in the layout", board=ch))
            seen.add(ch)
    return "/".join(r.ljust(width, ".") for r in rows)


def layout_for(n_players: int, text: str = "") -> str:
    """The checked, normalised layout for ``n_players``: ``text`` or the default (FT-1).

    Raises ``ValueError`` unless the layout holds exactly boards 1..n (n = 3/5/6 for 2/3/4 players) and every board
    shares a full edge with another board.
    """
    if n_players not in BOARDS_FOR:
        raise ValueError(T("Forest of Tataraba needs 2-4 players, not {n}", n=n_players))
    layout = normalise_layout(text or DEFAULT_LAYOUTS[n_players])
    boards = BOARDS_FOR[n_players]
    slots = _slots(layout)
    if sorted(slots) != list(range(1, boards + 1)):
        raise ValueError(T("{n} players use boards 1-{boards}, each once; the layout has {slots}", n=n_players,
                           boards=boards, slots=str(sorted(slots))))
    where = {pos: k for k, pos in slots.items()}
    for k, (r, c) in slots.items():
        if not any((r + dr, c + dc) in where for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            raise ValueError(T("board {board} does not share a full edge with another board", board=k))
    return layout


def _slots(layout: str) -> dict[int, tuple[int, int]]:
    """Board number -> (row, col) of its slot in the layout grid."""
    out = {}
    for r, row in enumerate(layout.split("/")):
        for c, ch in enumerate(row):
            if ch != ".":
                out[int(ch)] = (r, c)
    return out


class Geometry(NamedTuple):
    """Everything about one layout: ``slots`` (board -> grid slot), ``xy`` (tile -> (x, y) in tiles, global),
    ``neighbours`` (tile -> orthogonal neighbour tiles, across board edges), ``rows``/``cols`` (grid size in
    tiles), ``n_tiles``."""

    slots: dict[int, tuple[int, int]]
    xy: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    rows: int
    cols: int
    n_tiles: int


@lru_cache(maxsize=64)
def geometry(layout: str) -> Geometry:
    """The :class:`Geometry` of a normalised ``layout`` (cached)."""
    slots = _slots(layout)
    n = len(slots) * CELLS
    xy: list[tuple[int, int]] = [(0, 0)] * n
    at: dict[tuple[int, int], int] = {}
    for k, (r, c) in slots.items():
        for cell in range(CELLS):
            x = c * BOARD_SIDE + cell % BOARD_SIDE
            y = r * BOARD_SIDE + cell // BOARD_SIDE
            t = (k - 1) * CELLS + cell
            xy[t] = (x, y)
            at[(x, y)] = t
    neighbours = []
    for t in range(n):
        x, y = xy[t]
        neighbours.append(tuple(at[p] for p in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)) if p in at))
    rows = max(r for r, _ in slots.values()) + 1
    cols = max(c for _, c in slots.values()) + 1
    return Geometry(slots, tuple(xy), tuple(neighbours), rows * BOARD_SIDE, cols * BOARD_SIDE, n)


def tile_name(tile: int) -> str:
    """``"k-n"``: board ``k``, cell ``n`` (1..9 in reading order)."""
    return f"{tile // CELLS + 1}-{tile % CELLS + 1}"


def tile_index(name: str) -> int:
    """The tile index of ``"k-n"``; ``ValueError`` for anything else."""
    board, _, cell = name.partition("-")
    if not (board.isdigit() and cell.isdigit()):
        raise ValueError(f"not a tile name: {name!r}")
    k, n = int(board), int(cell)
    if not (1 <= k <= 6 and 1 <= n <= CELLS):
        raise ValueError(f"not a tile name: {name!r}")
    return (k - 1) * CELLS + n - 1


def evergreen_tiles(n_boards: int) -> list[int]:
    """Tiles that start with an Evergreen on boards 1..n_boards (FT-2)."""
    return [
        (k - 1) * CELLS + r * BOARD_SIDE + c for k in range(1, n_boards + 1) for r, c in EVERGREEN_CELLS[k]
    ]
