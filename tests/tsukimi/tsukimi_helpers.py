"""Helpers for the Tsukimi tests: build exact positions, take and place chosen tiles, the invariants."""

from __future__ import annotations

from games.core import Move
from games.tsukimi import GAME
from games.tsukimi.board import NEIGHBOURS, VERTICES, canonical
from games.tsukimi.data import RABBITS_PER_CLAN, TEMPLE, TILES
from games.tsukimi.state import TsukimiState

W, P = "white", "purple"
PLAYERS = [W, P]


def tid(flavour: str, value: int, nth: int = 0) -> int:
    """The id of the ``nth`` tile of ``flavour`` and ``value``."""
    return [t.id for t in TILES.values() if t.flavour == flavour and t.value == value][nth]


def position(board: dict[str, int] | None = None, white: tuple[str, ...] = (), purple: tuple[str, ...] = (),
             side: str = "light", seed: int = 1, turn: int = 0, reserve: tuple[int, int] | None = None,
             box: tuple[int, int] | None = None) -> TsukimiState:
    """A state at the start of ``turn``'s turn with ``board`` placed (removed from the circle, leaving gaps),
    rabbits on the named vertices (any of their names). Reserve/box default to the side's start minus the rabbits
    on the board (rabbits on the board came from the reserve)."""
    s = GAME.setup(PLAYERS, {"side": side}, seed)
    board = board or {}
    s.board = dict(board)
    s.circle = [t if t == TEMPLE or t not in board.values() else None for t in s.circle]
    s.rabbits = {}
    for seat, vs in ((0, white), (1, purple)):
        for v in vs:
            c = canonical(v)
            assert c is not None and c not in s.rabbits, v
            s.rabbits[c] = seat
    if reserve is None:
        reserve = tuple(s.reserve[i] - sum(1 for x in s.rabbits.values() if x == i) for i in range(2))
    s.reserve = list(reserve)
    if box is not None:
        s.box = list(box)
    s.turn = turn
    s.phase = "choose"
    return s


def free_tile(state: TsukimiState, tile: int) -> TsukimiState:
    """A copy of ``state`` whose circle has ``tile`` right after the Temple (so it costs 0), swapping places."""
    s = state.model_copy(deep=True)
    t = s.circle.index(TEMPLE)
    slot = (t + 1) % len(s.circle)
    i = s.circle.index(tile)
    s.circle[i], s.circle[slot] = s.circle[slot], s.circle[i]
    return s


def act(state: TsukimiState, *options: str, player: str | None = None):
    """Apply ``options`` in turn by the player to move; returns (state, all events)."""
    events = []
    for o in options:
        who = player or state.players[state.turn]
        out = GAME.apply(state, Move(player=who, option=o))
        state = out.state
        events += out.events
    return state, events


def play_tile(state: TsukimiState, tile: int, space: str):
    """Take ``tile`` for free and place it on ``space``: (state in the effects phase or later, events)."""
    s = free_tile(state, tile)
    return act(s, f"tile:{tile}", f"space:{space}")


def option_ids(state: TsukimiState) -> list[str]:
    d = GAME.pending(state)
    return [o.id for o in d[0].options] if d else []


def check(state: TsukimiState) -> None:
    """The invariants of every reachable state."""
    assert len(state.circle) == 19 and state.circle.count(TEMPLE) == 1
    in_circle = [t for t in state.circle if t not in (None, TEMPLE)]
    on_board = list(state.board.values())
    held = [state.tile] if state.tile is not None and state.phase == "place" else []
    assert sorted(in_circle + on_board + held) == sorted(TILES), "every mochi tile is exactly once somewhere"
    for seat in (0, 1):
        on = sum(1 for x in state.rabbits.values() if x == seat)
        assert state.reserve[seat] >= 0 and state.box[seat] >= 0
        assert state.reserve[seat] + state.box[seat] + on == RABBITS_PER_CLAN, "rabbits conserved"
    assert set(state.rabbits) <= set(VERTICES), "rabbits only on canonical vertices, one per vertex"
    assert all(v in (0, 1) for v in state.rabbits.values())
    if len(state.board) > 1:
        for sp in state.board:
            assert any(n in state.board for n in NEIGHBOURS[sp]), f"{sp} touches no other tile"
    if state.side == "light":
        pass
    over = state.phase == "over"
    assert over == (GAME.pending(state) == [])
    if over:
        assert len(state.board) == 18
        assert GAME.result(state) is not None
    else:
        assert GAME.result(state) is None
