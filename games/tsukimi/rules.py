"""Tsukimi's rules as pure functions over :class:`TsukimiState` (rulebook "How to Play", RULINGS TS-1..TS-9).

Effects (TS-3, TS-9): an effect is done as a whole: a tile's placing is all done before its move or all after it,
never split around it (no place - move - place). Once the player has placed and then moved, the placing effect is
over (``state.placing_done``); move - place - place is allowed (the placing is up to 1 or 2 rabbits).

``pending`` lists what the turn waits for; ``step`` applies one already-validated option to a state it may mutate
(the game's ``apply`` deep-copies first). ``claims`` / ``standings`` score a board (rulebook "End of the Game").
"""

from __future__ import annotations

from typing import NamedTuple

from games.core import Decision, Event, N, Option, T, Text, player_ref

from .board import NEIGHBOURS, SPACE_VERTICES, SPACES, VERTEX_INDEX, VERTICES, corner_name, vertex_label
from .data import COLOUR_TEXT, EFFECTS, FLAVOUR_TEXT, NO_GROUP_VALUE, RECRUIT, TEMPLE, TILES, tile_text
from .state import TsukimiState

N_MOCHI = len(TILES)


# -- the tile circle (TS-4) -------------------------------------------------------------------------------------


def costs(circle: list[int | None]) -> dict[int, int]:
    """Mochi tile id -> its cost in rabbits: the number of mochi tiles still in the circle strictly between the
    Temple and it, along the cheaper way round (rulebook "Choosing a Mochi Tile", TS-4)."""
    n = len(circle)
    t = circle.index(TEMPLE)
    order = [circle[(t + k) % n] for k in range(1, n)]  # clockwise from the Temple
    present = [x for x in order if x is not None]
    m = len(present)
    return {tile: min(i, m - 1 - i) for i, tile in enumerate(present)}


# -- the board ------------------------------------------------------------------------------------------------------


def free_spaces(state: TsukimiState) -> list[str]:
    """Spaces a tile may go on: empty and next to a placed tile; any space for the first tile (TS-5)."""
    board = state.board
    if not board:
        return list(SPACES)
    return [s for s in SPACES if s not in board and any(n in board for n in NEIGHBOURS[s])]


def groups_formed(board: dict[str, int], space: str) -> list[tuple[str, str]]:
    """Groups of exactly three made by the tile on ``space``: a list of ``("flavour", name)`` / ``("value", "2")``
    (TS-6: the connected set of placed tiles sharing the tile's flavour, resp. value, containing it, has exactly
    3 tiles; value 5 never counts)."""
    tile = TILES[board[space]]
    found = []
    for kind, key in (("flavour", lambda t: t.flavour == tile.flavour), ("value", lambda t: t.value == tile.value)):
        if kind == "value" and tile.value == NO_GROUP_VALUE:
            continue
        seen = {space}
        todo = [space]
        while todo and len(seen) <= 3:
            s = todo.pop()
            for n in NEIGHBOURS[s]:
                if n not in seen and n in board and key(TILES[board[n]]):
                    seen.add(n)
                    todo.append(n)
        if len(seen) == 3:
            found.append((kind, tile.flavour if kind == "flavour" else str(tile.value)))
    return found


class Claim(NamedTuple):
    """Rabbits around one placed tile by seat, and the seat claiming it (None on a tie: discarded)."""

    counts: tuple[int, int]
    winner: int | None


def claims(state: TsukimiState) -> dict[str, Claim]:
    """Space -> :class:`Claim` for every placed tile (rulebook "End of the Game": more rabbits on the 6 vertices
    claims the tile; a tie discards it)."""
    out = {}
    rabbits = state.rabbits
    for space in state.board:
        c = [0, 0]
        for v in SPACE_VERTICES[space]:
            seat = rabbits.get(v)
            if seat is not None:
                c[seat] += 1
        out[space] = Claim((c[0], c[1]), 0 if c[0] > c[1] else 1 if c[1] > c[0] else None)
    return out


class Standing(NamedTuple):
    points: tuple[int, int]
    tiles: tuple[int, int]
    reserve: tuple[int, int]


def standings(state: TsukimiState) -> Standing:
    """Points and claimed tiles per seat, and reserves: the keys of TS-8's ranking (points, then claimed tiles,
    then rabbits left in reserve; a full tie is a shared win)."""
    pts = [0, 0]
    tiles = [0, 0]
    for space, claim in claims(state).items():
        if claim.winner is not None:
            pts[claim.winner] += TILES[state.board[space]].value
            tiles[claim.winner] += 1
    return Standing((pts[0], pts[1]), (tiles[0], tiles[1]), (state.reserve[0], state.reserve[1]))


# -- decisions ------------------------------------------------------------------------------------------------------

_decision = Decision.model_construct
_opt = Option.model_construct  # options below are built from known-good values: skip re-validation (speed)
_TO = {v: _opt(id=f"to:{v}", label=T("{vertex}", vertex=vertex_label(v)), locus=f"vertex:{v}") for v in VERTICES}


def _first_name(v: str) -> str:
    """A vertex's first name without its others (``C3-n``): a button's words, the marker shows the place."""
    return vertex_label(v).partition(" (=")[0]


def _has_others(v: str) -> bool:
    """Whether a label names ``v`` with its other names (a button long enough to wrap: then it says it short)."""
    return vertex_label(v) != _first_name(v)


_MOVE = {v: _opt(id=f"move:{v}", label=T("move your rabbit from {vertex}", vertex=vertex_label(v)),
                 locus=f"vertex:{v}",
                 short=T("move your rabbit from {vertex}", vertex=_first_name(v)) if _has_others(v) else None)
         for v in VERTICES}
_SPACE = {s: _opt(id=f"space:{s}", label=T("{space}", space=s), locus=f"space:{s}") for s in SPACES}
_PLACE = {}
for _s in SPACES:
    for _v in SPACE_VERTICES[_s]:
        _name = corner_name(_s, _v)
        _label = (T("place a rabbit on {corner} (= {vertex})", corner=_name, vertex=_v) if _name != _v
                  else T("place a rabbit on {corner}", corner=_name))
        _PLACE[_s, _v] = _opt(id=f"place:{_v}", label=_label, locus=f"vertex:{_v}")
_BACK = _opt(id="back", label=T("back (keep this rabbit where it is)"))


COMMA = T(", ")
"""The separator of listed items (a text: each language has its own comma)."""


def clan(state: TsukimiState, seat: int) -> Text:
    """``"white {@id}"`` for texts."""
    return T("{colour} {player}", colour=COLOUR_TEXT[seat], player=player_ref(state.players[seat]))


def rabbits_text(n: int) -> Text:
    """``"1 rabbit"``, ``"3 rabbits"``."""
    return N("{n} rabbit", "{n} rabbits", n=n)


def points_text(n: int) -> Text:
    """``"1 point"``, ``"7 points"``."""
    return N("{n} point", "{n} points", n=n)


def tiles_text(n: int) -> Text:
    """``"1 tile"``, ``"4 tiles"``."""
    return N("{n} tile", "{n} tiles", n=n)


def group_text(kind: str, name: str) -> Text:
    """A group of TS-6 as people read it: ``"flavour matcha"``, ``"value 2"`` (:func:`groups_formed`' pairs)."""
    if kind == "flavour":
        return T("flavour {flavour}", flavour=FLAVOUR_TEXT[name])
    return T("value {value}", value=int(name))


def _empty(state: TsukimiState) -> list[str]:
    return [v for v in VERTICES if v not in state.rabbits]


def can_place(state: TsukimiState) -> list[str]:
    """Empty vertices of the placed tile's space when a rabbit may still be placed (TS-3), else []."""
    seat = state.turn
    if state.places_left <= 0 or state.placing_done or state.reserve[seat] <= 0 or state.space is None:
        return []
    return [v for v in SPACE_VERTICES[state.space] if v not in state.rabbits]


def can_move(state: TsukimiState) -> list[str]:
    """Vertices of the player's rabbits that may be moved now (a move left, a rabbit on the board and an empty
    vertex to go to)."""
    if state.moves_left <= 0 or len(state.rabbits) >= len(VERTICES):
        return []
    return sorted((v for v, s in state.rabbits.items() if s == state.turn), key=VERTEX_INDEX.__getitem__)


def can_discard(state: TsukimiState) -> list[str]:
    """Vertices of rival rabbits the player may discard (a group discard owed, TS-6), else []."""
    if state.discards_left <= 0:
        return []
    rival = 1 - state.turn
    return sorted((v for v, s in state.rabbits.items() if s == rival), key=VERTEX_INDEX.__getitem__)


def pending(state: TsukimiState) -> list[Decision]:
    """What the turn waits for: one decision naming the player to act, or [] when the game is over."""
    if state.phase == "over":
        return []
    seat = state.turn
    player = state.players[seat]
    if state.phase == "choose":
        cs = costs(state.circle)
        opts = [
            _opt(id=f"tile:{t}", label=T("{tile} (cost {n})", tile=tile_text(t), n=c), locus=f"tile:{t}")
            for t, c in sorted(cs.items(), key=lambda tc: (tc[1], tc[0]))
            if c <= state.reserve[seat]
        ]
        return [_decision(player=player, kind="choose_tile",
                         prompt=T("{player}, take a mochi tile (you have {many} in reserve; the cost goes to "
                                  "the box).", player=player_ref(player), many=rabbits_text(state.reserve[seat])),
                         options=opts)]
    if state.phase == "place":
        opts = [_SPACE[s] for s in free_spaces(state)]
        tile, who = tile_text(state.tile), player_ref(player)
        prompt = (T("{player}, place your {tile} on any space (the first tile goes anywhere).", player=who, tile=tile)
                  if not state.board
                  else T("{player}, place your {tile} on an empty space next to a placed tile.", player=who, tile=tile))
        return [_decision(player=player, kind="place_tile", prompt=prompt, options=opts)]
    if state.phase == "move_to":
        src = state.moving_from
        opts = [_TO[v] for v in _empty(state)]
        opts.append(_BACK)
        return [_decision(player=player, kind="move_to",
                         prompt=T("{player}, move your rabbit from {vertex} to which empty vertex?",
                                  player=player_ref(player), vertex=vertex_label(src)), options=opts)]
    # effects
    rival = state.players[1 - seat]
    opts = []
    for v in can_discard(state):
        opts.append(_opt(id=f"discard:{v}", label=T("discard {player}'s rabbit on {vertex}", player=player_ref(rival),
                                                   vertex=vertex_label(v)), locus=f"vertex:{v}",
                         short=T("discard {player}'s rabbit on {vertex}", player=player_ref(rival),
                                 vertex=_first_name(v)) if _has_others(v) else None))
    for v in can_place(state):
        opts.append(_PLACE[state.space, v])
    for v in can_move(state):
        opts.append(_MOVE[v])
    if state.discards_left <= 0:
        opts.append(_opt(id="end", label=T("end turn") if len(opts) == 0 else T("end turn (skip the rest)")))
    todo: list[Text] = []
    free = can_place(state)
    if free:
        n = min(state.places_left, state.reserve[seat], len(free))
        todo.append(T("place 1 rabbit") if n == 1 else T("place up to {n} rabbits", n=n))
    if can_move(state):
        todo.append(T("move 1 rabbit"))
    if state.discards_left:
        todo.append(N("discard {n} rival rabbit", "discard {n} rival rabbits", n=state.discards_left))
    who, tile, space = player_ref(player), tile_text(state.tile), state.space
    if len(todo) > 1:
        prompt = T("{player}, {tile} on {space}: {todo} (any order).", player=who, tile=tile, space=space,
                   todo=Text.join(COMMA, todo))
    elif todo:
        prompt = T("{player}, {tile} on {space}: {todo}.", player=who, tile=tile, space=space, todo=todo[0])
    else:
        prompt = T("{player}, {tile} on {space}: nothing left to do.", player=who, tile=tile, space=space)
    return [_decision(player=player, kind="effects", prompt=prompt, options=opts)]


# -- applying one validated option --------------------------------------------------------------------------------


def _end_turn(state: TsukimiState, events: list[Event]) -> None:
    seat = state.turn
    events.append(Event(kind="end_turn", text=T("{who} ends the turn.", who=clan(state, seat)), data={"seat": seat}))
    state.tile = state.space = state.moving_from = None
    state.places_left = state.moves_left = state.discards_left = state.placed = 0
    state.placing_done = False
    if len(state.board) >= N_MOCHI:
        state.phase = "over"
        st = standings(state)
        events.append(Event(kind="game_over",
                            text=T("All mochi are on the Moon: {white} {white_points}, {purple} {purple_points}.",
                                   white=clan(state, 0), white_points=points_text(st.points[0]),
                                   purple=clan(state, 1), purple_points=points_text(st.points[1])),
                            data={"points": list(st.points), "tiles": list(st.tiles)}))
        return
    state.turn = 1 - seat
    state.phase = "choose"


def step(state: TsukimiState, option: str, events: list[Event], said: str | None = None) -> None:
    """Apply ``option`` (already checked against :func:`pending`) to ``state`` in place, appending events.

    ``said``: the vertex name the player chose the option by (TS-2: ``C3-se`` for ``place:D3-n``), which the events
    name first; None names a placed rabbit by its corner of the tile just placed, as the option's label does."""
    seat = state.turn
    who = clan(state, seat)
    kind, _, arg = option.partition(":")
    if state.phase == "choose":
        tile = int(arg)
        cost = costs(state.circle)[tile]
        state.circle[state.circle.index(tile)] = None
        state.reserve[seat] -= cost
        state.box[seat] += cost
        state.tile = tile
        state.phase = "place"
        text = (T("{who} takes {tile}, paying {many} to the box.", who=who, tile=tile_text(tile),
                  many=rabbits_text(cost)) if cost
                else T("{who} takes {tile} for free.", who=who, tile=tile_text(tile)))
        events.append(Event(kind="take", text=text,
                            data={"tile": tile, "cost": cost}))
        return
    if state.phase == "place":
        space = arg
        state.board[space] = state.tile
        state.space = space
        value = TILES[state.tile].value
        state.places_left, state.moves_left = EFFECTS[value]
        state.placed = 0
        state.placing_done = False
        events.append(Event(kind="place_tile", text=T("{who} places {tile} on {space}.", who=who, tile=tile_text(state.tile),
                                                                 space=space),
                            data={"tile": state.tile, "space": space}))
        if state.side == "dark" and RECRUIT.get(space):
            n = min(RECRUIT[space], state.box[seat])
            state.box[seat] -= n
            state.reserve[seat] += n
            events.append(Event(kind="recruit", text=T("{who} recruits {many} from the box ({space} shows {n}).",
                                                       who=who, many=rabbits_text(n), space=space, n=RECRUIT[space]),
                                data={"space": space, "recruited": n}))
        rival = 1 - seat
        rival_on_board = any(s == rival for s in state.rabbits.values())
        for kind_, name in groups_formed(state.board, space):
            if rival_on_board:
                state.discards_left += 1
                text = T("{who} forms a group of exactly three ({group}): one rival rabbit to discard.", who=who,
                         group=group_text(kind_, name))
            else:
                text = T("{who} forms a group of exactly three ({group}), but {rival} has no rabbit on the board: "
                         "nothing to discard.", who=who, group=group_text(kind_, name), rival=clan(state, rival))
            events.append(Event(kind="group", text=text, data={"by": kind_, "name": name,
                                                                "discard": rival_on_board}))
        state.phase = "effects"
        return
    if state.phase == "move_to":
        src = state.moving_from
        state.moving_from = None
        state.phase = "effects"
        if kind == "back":
            return
        del state.rabbits[src]
        state.rabbits[arg] = seat
        state.moves_left -= 1
        if state.placed:
            state.placing_done = True
        events.append(Event(kind="move", text=T("{who} moves a rabbit from {src} to {dst}.", who=who, src=src, dst=said or arg),
                            data={"from": src, "to": arg}))
        return
    # effects
    if kind == "end":
        _end_turn(state, events)
    elif kind == "place":
        state.rabbits[arg] = seat
        state.reserve[seat] -= 1
        state.places_left -= 1
        state.placed += 1
        name = said or corner_name(state.space, arg)
        events.append(Event(kind="place_rabbit", text=T("{who} places a rabbit on {vertex}.", who=who,
                                                                   vertex=vertex_label(arg, name)),
                            data={"vertex": arg}))
    elif kind == "move":
        state.moving_from = arg
        state.phase = "move_to"
    elif kind == "discard":
        rival = 1 - seat
        del state.rabbits[arg]
        state.box[rival] += 1
        state.discards_left -= 1
        if not any(s == rival for s in state.rabbits.values()):
            state.discards_left = 0
        events.append(Event(kind="discard", text=T("{who} sends {rival}'s rabbit on {vertex} to the box.", who=who,
                                                              rival=clan(state, rival), vertex=said or arg),
                            data={"vertex": arg}))
    else:  # pragma: no cover - options come from pending()
        raise AssertionError(option)
