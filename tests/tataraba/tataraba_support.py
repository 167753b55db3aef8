"""Helpers for the Forest of Tataraba tests: building positions by hand and the game's invariants."""

from __future__ import annotations

from games import Move
from games.tataraba import GAME
from games.tataraba.board import evergreen_tiles, tile_index
from games.tataraba.data import BEECHES, BOARDS_FOR, CEDARS, EIDAIS, FOOT_MAX, OAKS, PINES, TATARAS
from games.tataraba.state import TatarabaState


def T(name: str) -> int:
    """Tile index of ``"k-n"``."""
    return tile_index(name)


def new(players=("red", "blue"), seed=1, **options) -> TatarabaState:
    return GAME.setup(list(players), options or None, seed)


def placed(players=("red", "blue"), at=("1-5", "3-5"), seed=1, **options) -> TatarabaState:
    """A game after every player placed their first Tatara at ``at`` (in seat order, seat 0 starting)."""
    state = new(players, seed, **options)
    for p, name in zip(players, at, strict=True):
        state = GAME.apply(state, Move(player=p, option=f"tile:{name}")).state
    return state


def act(state: TatarabaState, player: str, *options: str) -> tuple[TatarabaState, list]:
    """Apply ``options`` in order for ``player``; returns the final state and all events."""
    events = []
    for opt in options:
        out = GAME.apply(state, Move(player=player, option=opt))
        state = out.state
        events.extend(out.events)
    return state, events


def ids(state: TatarabaState) -> list[str]:
    d = GAME.pending(state)
    return [o.id for o in d[0].options] if d else []


_EVERGREENS = {n: set(evergreen_tiles(BOARDS_FOR[n])) for n in BOARDS_FOR}


def check(state: TatarabaState) -> None:
    """Invariants at every step: pieces of every kind conserved, Beech never over 18, Sen / material never
    negative, Foot markers 0..4, pieces on distinct legal tiles, and a pending decision has 2+ options (C-3)."""
    n = len(state.players)
    tiles = state.tiles
    for i, s in enumerate(state.seats):
        own = [c for c in tiles if c and c[2] == str(i)]
        count = {k: sum(1 for c in own if c[0] == k) for k in "ROCTX"}
        assert s.pine + count["R"] + s.pine_gone == PINES
        assert s.oak + count["O"] + s.oak_gone == OAKS
        assert s.oak == OAKS - s.pine_gone
        assert s.cedar + count["C"] + s.cedar_gone == CEDARS
        assert s.tatara + count["T"] == TATARAS
        assert s.eidai + count["X"] == EIDAIS
        assert min(s.pine, s.oak, s.cedar, s.tatara, s.eidai) >= 0
        assert s.sen >= 0 and s.mat >= 0
        assert 0 <= s.foot <= FOOT_MAX
    on_board = sum(1 for c in tiles if c and c[0] == "B")
    assert 0 <= state.beech and state.beech + on_board == BEECHES
    ever = {t for t, c in enumerate(tiles) if c and c[0] == "E"}
    assert ever <= _EVERGREENS[n], "an Evergreen away from its starting tile"
    assert all(tiles[t] == "Ea-" for t in ever), "Evergreens never change"
    assert sorted(state.deck + state.shown + state.used) == sorted(
        [0] + [k for k in range(1, BOARDS_FOR[n] + 1)] * 2
    )
    pos = [s.pos for s in state.seats if s.pos >= 0]
    assert len(pos) == len(set(pos))
    for i, s in enumerate(state.seats):
        if s.pos >= 0:
            c = tiles[s.pos]
            assert not (c and c[0] in "TX" and c[2] != str(i)), "a piece on another player's Tatara"
    d = GAME.pending(state)
    if state.phase == "over":
        assert d == [] and GAME.result(state) is not None
    else:
        assert len(d) == 1 and len(d[0].options) >= 2, "C-3: single options are applied without asking"
        assert d[0].player == state.players[state.turn]


def scene(
    pieces: dict[str, str] | None = None,
    at=("2-5", "3-9"),
    players=("red", "blue"),
    phase="move",
    foot=None,
    sen=None,
    mat=None,
    **options,
) -> TatarabaState:
    """An empty forest (Evergreens removed) holding ``pieces`` (tile name -> tile code, see ``data.py``: kind,
    stage, owner seat) with the Player pieces at ``at`` (one tile per seat), round 1, seat 0 starting and to play
    ``phase`` (``"move"``: the turn begins; ``"action"``: the move is done). ``foot`` / ``sen`` / ``mat``: per-seat
    values (tuples) or None for the defaults (1 Foot marker, 0 Sen, 0 material)."""
    from games.tataraba import rules

    s = new(players, **options)
    s.tiles = [""] * len(s.tiles)
    for name, code in (pieces or {}).items():
        s.tiles[T(name)] = code
    for i, seat in enumerate(s.seats):
        seat.pos = T(at[i])
        if foot is not None:
            seat.foot = foot[i]
        if sen is not None:
            seat.sen = sen[i]
        if mat is not None:
            seat.mat = mat[i]
    s.round, s.turn, s.start = 1, 0, 0
    rules.begin_turn(s, [])
    if phase != "move":
        rules.begin_actions(s)
        s.phase = phase
    return s


def options(state: TatarabaState) -> dict[str, str]:
    """Pending option id -> label."""
    d = GAME.pending(state)
    return {o.id: o.label for o in d[0].options} if d else {}
