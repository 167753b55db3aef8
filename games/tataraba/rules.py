"""The rules of Forest of Tataraba as functions over a (copied) :class:`TatarabaState`.

Rulebook: ``shared/rules/tataraba.md``; rulings FT-1..FT-10 and C-1..C-4. Functions named ``do_*`` and the round
procedure mutate the state they are given — :meth:`Tataraba.apply` hands them a deep copy.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from games.core import Event, N, T, Text, player_ref
from games.tataraba.board import CELLS, evergreen_tiles, geometry, tile_name
from games.tataraba.data import (
    ADULT,
    BASE_STEPS,
    BEECH,
    CEDAR,
    CEDAR2,
    EIDAI,
    EIDAI_COST,
    EVERGREEN,
    FOOT_MAX,
    LOG_FEE,
    OAK,
    PINE,
    TATARA,
    TATARA_COST,
    TREE_NAMES,
    TREE_TEXT,
    YIELDS,
    YOUNG,
)
from games.tataraba.state import Seat, TatarabaState

COMMA = T(", ")
"""The separator of listed texts (cards, players, tiles), translated like any text (ja 「、」)."""

BUILDINGS = (TATARA, EIDAI)


def tree(kind: str, stage: str, owner: int | None = None) -> str:
    """The tile code of a tree: ``tree("C", "y", 0)`` is seat 0's Cedar on its "1" side."""
    return f"{kind}{stage}{'-' if owner is None else owner}"


def building(kind: str, owner: int) -> str:
    """The tile code of a Tatara (``"T"``) or Eidai Tatara (``"X"``) of seat ``owner``."""
    return f"{kind}-{owner}"


def owner_of(code: str) -> int | None:
    """The seat that owns a tile's piece, or None (Evergreen, Beech, empty)."""
    return int(code[2]) if code and code[2] != "-" else None


def describe(code: str, players: list[str], viewer: int | None = None, own: str = "their own") -> str:
    """A person's name for a tile's content: ``"{@p}'s adult Cedar"``, ``"an adult Evergreen"``. A piece of seat
    ``viewer`` is ``own`` instead of the owner's name (``"their own adult Cedar"`` in an event about that seat,
    ``"your adult Cedar"`` in a label addressed to it)."""
    if not code:
        return T("nothing")
    kind, stage, owner = code[0], code[1], owner_of(code)
    if kind in BUILDINGS:
        name = T("Eidai Tatara") if kind == EIDAI else T("Tatara")
    elif owner is None:  # Evergreens and Beeches: "an adult Evergreen", "a young Beech"
        tree_ = TREE_TEXT[kind]
        if stage == ADULT:
            return T("an adult {tree}", tree=tree_)
        if kind == CEDAR and stage == YOUNG:
            return T('a young {tree} ("1")', tree=tree_)
        if stage == CEDAR2:
            return T('a young {tree} ("2")', tree=tree_)
        return T("a young {tree}", tree=tree_)
    elif stage == ADULT:
        name = T("adult {tree}", tree=TREE_TEXT[kind])
    elif kind == CEDAR and stage == YOUNG:
        name = T('young {tree} ("1")', tree=TREE_TEXT[kind])
    elif stage == CEDAR2:
        name = T('young {tree} ("2")', tree=TREE_TEXT[kind])
    else:
        name = T("young {tree}", tree=TREE_TEXT[kind])
    if owner is not None and owner == viewer:
        return T("your {thing}", thing=name) if own == "your" else T("their own {thing}", thing=name)
    if owner is not None:
        return T("{player}'s {thing}", player=player_ref(players[owner]), thing=name)
    return name  # pragma: no cover - every building has an owner


# -- setup (rulebook "Game Preparations", FT-1, FT-2, FT-7) --------------------------------------------------------


def new_tiles(layout: str, n_boards: int) -> list[str]:
    """All tiles of ``n_boards`` boards, with an adult Evergreen on every marked tile (FT-2)."""
    tiles = [""] * (n_boards * CELLS)
    for t in evergreen_tiles(n_boards):
        tiles[t] = tree(EVERGREEN, ADULT)
    assert len(tiles) == geometry(layout).n_tiles
    return tiles


def reveal(state: TatarabaState, events: list[Event]) -> None:
    """Reveal as many shift cards as players one by one (FT-7); an empty deck is rebuilt from the cards revealed in
    earlier rounds (``used``), shuffled with ``state.rng``."""
    state.used.extend(state.shown)
    state.shown = []
    for _ in state.players:
        if not state.deck:
            state.deck = state.rng.shuffled(state.used)
            state.used = []
            events.append(
                Event(
                    kind="reshuffle",
                    text=T("The shift deck ran out: earlier cards are shuffled into a new deck of {n}.",
                           n=len(state.deck)),
                    data={"size": len(state.deck)},
                )
            )
        state.shown.append(state.deck.pop(0))
    cards = Text.join(COMMA, [str(c) for c in state.shown])
    events.append(
        Event(kind="reveal", text=T("Shift cards revealed: {cards}.", cards=cards), data={"cards": list(state.shown)})
    )


# -- movement (rulebook "1. Moving", FT-4) --------------------------------------------------------------------------


def destinations(state: TatarabaState, seat: int) -> dict[int, int]:
    """Tiles the seat's Player piece may end on -> Foot markers the cheapest way there costs (FT-4, FT-10, FT-11).

    Steps cost 1, or 2 into a tile with an adult tree (which cannot be the end). Other Player pieces can be passed,
    not ended on; other players' Tataras neither. The start tile is never a destination. Exceptions ("stuck"): when
    no move is possible without Foot markers (walled in by other players' Tataras, adult trees or a mix of both), the
    piece may pass through one of the other players' Tataras next to it onto an open tile beyond (one a move could
    end on), and that pass counts as 1 step (FT-10); the rest of the move (the second step, Foot markers) follows
    from there under the usual rules. That pass is offered whether or not the player holds Foot markers, beside the
    Foot-marker moves over the trees (FT-11): each tile at its cheaper way. When nothing is reachable either way,
    the result is empty and the piece stays (the rulebook's "you don't have to move" among adult trees; Foot
    markers are used whenever they allow a move, since every option that needs them is offered).
    """
    found = _reach(state, seat, pass_tataras=False)
    if any(cost == 0 for cost in found.values()):
        return found  # an ordinary move without Foot markers exists: the Tataras block (FT-10)
    for tile, cost in _reach(state, seat, pass_tataras=True).items():
        found[tile] = min(cost, found.get(tile, cost))
    return found


def _reach(state: TatarabaState, seat: int, pass_tataras: bool) -> dict[int, int]:
    me = state.seats[seat]
    others = tuple(s.pos for i, s in enumerate(state.seats) if i != seat)
    return dict(
        _reach_cached(
            state.layout,
            tuple(state.tiles),
            me.pos,
            others,
            str(seat),
            BASE_STEPS + min(FOOT_MAX, me.foot),
            pass_tataras,
        )
    )


@lru_cache(maxsize=4096)
def _reach_cached(
    layout: str,
    tiles: tuple[str, ...],
    start: int,
    others: tuple[int, ...],
    mine: str,
    budget: int,
    pass_tataras: bool,
) -> tuple[tuple[int, int], ...]:
    """Dijkstra over step costs (1, or 2 into an adult tree) within ``budget`` steps; (tile, Foot markers) pairs.
    With ``pass_tataras`` the move starts with FT-10's pass: through one other player's Tatara next to ``start``
    onto an open tile beyond, for 1 step."""
    neighbours = geometry(layout).neighbours

    def walled(code: str) -> bool:
        return bool(code) and code[0] in BUILDINGS and code[2] != mine

    best = {start: 0}
    heap = [(0, start)]
    out: dict[int, int] = {}
    if pass_tataras:
        heap = []
        for wall in neighbours[start]:
            if not walled(tiles[wall]):
                continue
            for nb in neighbours[wall]:
                code = tiles[nb]
                if nb == start or nb in others or walled(code) or (code and code[1] == ADULT) or nb in best:
                    continue
                best[nb] = 1
                heap.append((1, nb))
                out[nb] = 0
        heapq.heapify(heap)
    while heap:
        cost, t = heapq.heappop(heap)
        if cost > best[t]:
            continue
        for nb in neighbours[t]:
            code = tiles[nb]
            end_ok = nb != start and nb not in others
            if walled(code):
                continue
            if code and code[1] == ADULT:
                step, end_ok = 2, False
            else:
                step = 1
            c = cost + step
            if c > budget or c >= best.get(nb, 99):
                continue
            best[nb] = c
            heapq.heappush(heap, (c, nb))
            if end_ok:
                out[nb] = max(0, c - BASE_STEPS)
    return tuple(sorted(out.items()))


def do_move(state: TatarabaState, tile: int, events: list[Event]) -> None:
    """Move the player to play to ``tile`` (one of :func:`destinations`), spending the Foot markers it costs."""
    seat = state.turn
    cost = destinations(state, seat)[tile]
    me = state.seats[seat]
    me.foot -= cost
    me.pos = tile
    who, where = player_ref(state.players[seat]), tile_name(tile)
    text = (N("{player} moves to {tile}, spending {n} Foot marker.", "{player} moves to {tile}, spending {n} Foot markers.",
              n=cost, player=who, tile=where) if cost else T("{player} moves to {tile}.", player=who, tile=where))
    events.append(
        Event(
            kind="move",
            text=text,
            data={"player": state.players[seat], "tile": tile_name(tile), "foot": cost},
        )
    )
    begin_actions(state)


# -- actions (rulebook "2. Carry out 2 actions", FT-5, FT-8) ---------------------------------------------------------


def is_open(state: TatarabaState, tile: int) -> bool:
    """FT-5: nothing on the tile — no tree, no Tatara, no Player piece."""
    return not state.tiles[tile] and all(s.pos != tile for s in state.seats)


def open_tiles(state: TatarabaState) -> list[int]:
    """Every open tile (FT-5), in index order."""
    taken = {s.pos for s in state.seats}
    return [t for t, code in enumerate(state.tiles) if not code and t not in taken]


def plant_targets(state: TatarabaState, seat: int) -> list[tuple[str, int]]:
    """(kind, tile) pairs the seat may plant now: a Red Pine or Cedar from its supply on an open adjacent tile."""
    me = state.seats[seat]
    kinds = [k for k, n in ((PINE, me.pine), (CEDAR, me.cedar)) if n > 0]
    if not kinds or me.pos < 0:
        return []
    tiles = [t for t in geometry(state.layout).neighbours[me.pos] if is_open(state, t)]
    return [(k, t) for t in sorted(tiles) for k in kinds]


def log_targets(state: TatarabaState, seat: int) -> list[tuple[int, str]]:
    """(tile, yield) pairs the seat may log now: adjacent adult Evergreen / Red Pine / Oak / Cedar (never Beech);
    another player's tree only when the seat can pay the 1 Sen fee. Yield is ``"sen"`` or ``"mat"``."""
    me = state.seats[seat]
    out = []
    for t in sorted(geometry(state.layout).neighbours[me.pos]):
        code = state.tiles[t]
        if not code or code[1] != ADULT or code[0] not in YIELDS:
            continue
        owner = owner_of(code)
        if owner is not None and owner != seat and me.sen < LOG_FEE:
            continue
        out.extend((t, kind) for kind, _ in YIELDS[code[0]])
    return out


def begin_turn(state: TatarabaState, events: list[Event]) -> None:
    """Start the turn of ``state.turn``: 2 actions, 3 once the second Tatara is built (FT-8); then the move."""
    me = state.seats[state.turn]
    state.actions_per_turn = 3 if me.tatara == 0 else 2
    state.phase = "move"
    if not destinations(state, state.turn):
        events.append(
            Event(
                kind="stuck",
                text=T("{player} cannot move and stays.", player=player_ref(state.players[state.turn])),
                data={"player": state.players[state.turn]},
            )
        )
        begin_actions(state)


def begin_actions(state: TatarabaState) -> None:
    state.actions = state.actions_per_turn
    state.phase = "action"


def do_plant(state: TatarabaState, kind: str, tile: int, events: list[Event]) -> None:
    """Plant a young tree (Cedar on its "1" side) of the player's colour on ``tile``."""
    seat = state.turn
    me = state.seats[seat]
    if kind == PINE:
        me.pine -= 1
    else:
        me.cedar -= 1
    state.tiles[tile] = tree(kind, YOUNG, seat)
    events.append(
        Event(
            kind="plant",
            text=T("{player} plants a {tree} at {tile}.", player=player_ref(state.players[seat]), tree=TREE_TEXT[kind],
                   tile=tile_name(tile)),
            data={"player": state.players[seat], "tree": TREE_NAMES[kind], "tile": tile_name(tile)},
        )
    )
    action_done(state)


def do_log(state: TatarabaState, tile: int, take: str, events: list[Event]) -> None:
    """Log the adult tree on ``tile``: pay its owner 1 Sen if it is another player's, take the chosen yield, then
    remove an Evergreen or lay the tree down young (Cedar on "1")."""
    seat = state.turn
    me = state.seats[seat]
    code = state.tiles[tile]
    what = describe(code, state.players, viewer=seat)
    kind, owner = code[0], owner_of(code)
    paid = None
    if owner is not None and owner != seat:
        me.sen -= LOG_FEE
        state.seats[owner].sen += LOG_FEE
        paid = player_ref(state.players[owner])
    amount = dict(YIELDS[kind])[take]
    if take == "sen":
        me.sen += amount
    else:
        me.mat += amount
    state.tiles[tile] = "" if kind == EVERGREEN else tree(kind, YOUNG, owner)
    got = T("{n} Sen", n=amount) if take == "sen" else T("{n} building material", n=amount)
    who, where = player_ref(state.players[seat]), tile_name(tile)
    if paid is None:
        text = T("{player} logs {tree} at {tile} and takes {got}.", player=who, tree=what, tile=where, got=got)
    else:
        text = T("{player} logs {tree} at {tile}, pays {owner} {fee} Sen and takes {got}.", player=who, tree=what,
                 tile=where, owner=paid, fee=LOG_FEE, got=got)
    events.append(
        Event(
            kind="log",
            text=text,
            data={
                "player": state.players[seat],
                "tile": tile_name(tile),
                "tree": TREE_NAMES[kind],
                "take": take,
                "amount": amount,
            },
        )
    )
    action_done(state)


def do_foot(state: TatarabaState, events: list[Event]) -> None:
    """Take a Foot marker, unless the player holds 4 already (then the action is skipped)."""
    me = state.seats[state.turn]
    who = player_ref(state.players[state.turn])
    if me.foot < FOOT_MAX:
        me.foot += 1
        text = N("{player} takes a Foot marker and now holds {n} Foot marker.",
                 "{player} takes a Foot marker and now holds {n} Foot markers.", n=me.foot, player=who)
    else:
        text = T("{player} already holds {n} Foot markers and skips the action.", player=who, n=FOOT_MAX)
    events.append(Event(kind="foot", text=text, data={"player": state.players[state.turn], "foot": me.foot}))
    action_done(state)


def action_done(state: TatarabaState) -> None:
    state.actions -= 1
    state.phase = "action" if state.actions > 0 else "special"


def can_build(state: TatarabaState, seat: int, kind: str) -> bool:
    """FT-3, FT-8: the piece is still in the supply, the player can pay, and an open tile exists."""
    me = state.seats[seat]
    left, (sen, mat) = (me.tatara, TATARA_COST) if kind == TATARA else (me.eidai, EIDAI_COST)
    return left > 0 and me.sen >= sen and me.mat >= mat and bool(open_tiles(state))


def do_build(state: TatarabaState, kind: str, tile: int, events: list[Event]) -> None:
    """Pay and place the second Tatara or the Eidai Tatara on the open ``tile`` (any tile on the map)."""
    seat = state.turn
    me = state.seats[seat]
    if kind == TATARA:
        me.tatara -= 1
        sen, mat = TATARA_COST
        text = T("{player} builds a Tatara at {tile} (3 actions from the next turn).",
                 player=player_ref(state.players[seat]), tile=tile_name(tile))
    else:
        me.eidai -= 1
        sen, mat = EIDAI_COST
        text = T("{player} builds an Eidai Tatara at {tile}: the game ends when this round's turns are done.",
                 player=player_ref(state.players[seat]), tile=tile_name(tile))
    me.sen -= sen
    me.mat -= mat
    state.tiles[tile] = building(kind, seat)
    events.append(
        Event(
            kind="eidai" if kind == EIDAI else "tatara",
            text=text,
            data={"player": state.players[seat], "tile": tile_name(tile)},
        )
    )
    state.phase = "special"


def end_turn(state: TatarabaState, events: list[Event]) -> None:
    """Pass the turn clockwise; after the player before the starting player, run the round completion."""
    n = len(state.players)
    state.turn = (state.turn + 1) % n
    if state.turn == state.start:
        end_round(state, events)
    else:
        begin_turn(state, events)


# -- round completion (rulebook "Round Completion Procedure", FT-6, FT-8) --------------------------------------------


def end_round(state: TatarabaState, events: list[Event]) -> None:
    """Eidai built -> the game ends (FT-8, no growth). Else reveal cards, run growth and shift per card (FT-6; a
    missing Beech ends the game at once), apply the designed safety stops, pass the starting player clockwise."""
    if any(s.eidai == 0 for s in state.seats):
        finish(state, "eidai", events)
        return
    reveal(state, events)
    for card in state.shown:
        if card and not grow(state, card, events):
            finish(state, "beech", events)
            return
    if exhausted(state):
        finish(state, "exhausted", events)
        return
    if state.round >= state.round_limit:
        finish(state, "limit", events)
        return
    state.start = (state.start + 1) % len(state.players)
    state.round += 1
    state.turn = state.start
    events.append(
        Event(
            kind="round",
            text=T("Round {round}: {player} starts.", round=state.round, player=player_ref(state.players[state.start])),
            data={"round": state.round, "start": state.players[state.start]},
        )
    )
    begin_turn(state, events)


def grow(state: TatarabaState, board: int, events: list[Event]) -> bool:
    """One growth-and-shift step on ``board`` (FT-6): every tree moves one stage at once. Young -> adult (Cedar
    "1" -> "2" -> adult), adult Red Pine -> young Oak of the same colour, adult Oak / Cedar -> young Beech; adult
    Beech and Evergreens stay. Shifted pieces leave the game. Returns False when a Beech is needed and none is left
    (the game ends at once; the tree stays as it was)."""
    grown = shifted = 0
    lo = (board - 1) * CELLS
    for t in range(lo, lo + CELLS):
        code = state.tiles[t]
        if not code or code[0] in BUILDINGS or code[0] == EVERGREEN:
            continue
        kind, stage, owner = code[0], code[1], owner_of(code)
        if stage == YOUNG and kind == CEDAR:
            state.tiles[t] = tree(CEDAR, CEDAR2, owner)
            grown += 1
        elif stage != ADULT:
            state.tiles[t] = tree(kind, ADULT, owner)
            grown += 1
        elif kind == PINE:
            seat = state.seats[owner]
            seat.pine_gone += 1
            seat.oak -= 1
            state.tiles[t] = tree(OAK, YOUNG, owner)
            shifted += 1
        elif kind in (OAK, CEDAR):
            if state.beech == 0:
                events.append(
                    Event(
                        kind="no_beech",
                        text=T("Board {board}: a Beech is needed and none is left: the game ends.", board=board),
                        data={"board": board},
                    )
                )
                return False
            seat = state.seats[owner]
            if kind == OAK:
                seat.oak_gone += 1
            else:
                seat.cedar_gone += 1
            state.beech -= 1
            state.tiles[t] = tree(BEECH, YOUNG)
            shifted += 1
    if grown or shifted:
        events.append(
            Event(
                kind="grow",
                text=grow_text(board, grown, shifted),
                data={"board": board, "grown": grown, "shifted": shifted},
            )
        )
    return True


def grow_text(board: int, grown: int, shifted: int) -> str:
    """The line for one growth-and-shift step (FT-6), naming only what happened: ``"Board 2: 1 tree grows, 3
    shift."``, ``"Board 1: 1 tree shifts."``. Nothing happened: ``""`` (no event is posted then)."""
    parts = []
    if grown:
        parts.append(N("{n} tree grows", "{n} trees grow", n=grown))
    if shifted and grown:
        parts.append(N("{n} shifts", "{n} shift", n=shifted))
    elif shifted:
        parts.append(N("{n} tree shifts", "{n} trees shift", n=shifted))
    return T("Board {board}: {changes}.", board=board, changes=Text.join(COMMA, parts)) if parts else ""


def exhausted(state: TatarabaState) -> bool:
    """RULINGS FT-9, the "exhausted forest" safety stop (not in the rulebook): True only when it is certain that no
    player can ever build an Eidai Tatara or change anything that counts again. When in doubt, play on (False):

    - a player holds a Red Pine or Cedar to plant;
    - a player holds an unbuilt Tatara or Eidai Tatara and its price, and some tile is empty, even under a Player
      piece (pieces move: a player who steps onto their own Tatara frees the tile they left and builds there);
    - some player could ever stand next to a tree that may yield Sen or material (an Evergreen, Red Pine, Oak or
      Cedar at any stage: young trees grow). "Ever" is over-estimated: 4 Foot markers every turn, passing any
      Tatara, and every tile but adult Beeches (which never change) and other players' Tataras a place to stop.
    """
    if any(s.pine or s.cedar for s in state.seats):
        return False
    if "" in state.tiles and any(_could_pay(s) for s in state.seats):
        return False
    sources = [t for t, code in enumerate(state.tiles) if code and code[0] in YIELDS]
    if not sources:
        return True
    neighbours = geometry(state.layout).neighbours
    for seat in range(len(state.seats)):
        ever = _ever_standable(state, seat)
        if any(nb in ever for t in sources for nb in neighbours[t]):
            return False
    return True


def _could_pay(seat: Seat) -> bool:
    """The seat holds an unbuilt Tatara or Eidai Tatara and can pay for it now (FT-3)."""
    return (seat.tatara > 0 and seat.sen >= TATARA_COST[0] and seat.mat >= TATARA_COST[1]) or (
        seat.eidai > 0 and seat.sen >= EIDAI_COST[0] and seat.mat >= EIDAI_COST[1]
    )


def _ever_standable(state: TatarabaState, seat: int) -> set[int]:
    """Tiles the seat's piece could stop on in some later turn (an over-estimate, see :func:`exhausted`)."""
    neighbours = geometry(state.layout).neighbours
    beech = tree(BEECH, ADULT)
    mine = str(seat)

    def stoppable(t: int) -> bool:
        code = state.tiles[t]
        return code != beech and not (code and code[0] in BUILDINGS and code[2] != mine)

    budget = BASE_STEPS + FOOT_MAX
    seen = {state.seats[seat].pos}
    todo = [state.seats[seat].pos]
    while todo:
        start = todo.pop()
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            cost, t = heapq.heappop(heap)
            if cost > best[t]:
                continue
            for nb in neighbours[t]:
                c = cost + (2 if state.tiles[nb] == beech else 1)
                if c <= budget and c < best.get(nb, 99):
                    best[nb] = c
                    heapq.heappush(heap, (c, nb))
                    if nb not in seen and stoppable(nb):
                        seen.add(nb)
                        todo.append(nb)
    return seen


ENDINGS: dict[str, str] = {
    "eidai": T("An Eidai Tatara stands"),
    "beech": T("The Beeches ran out"),
    "exhausted": T("Safety stop: the forest is exhausted"),
    "limit": T("Safety stop: the round limit was reached"),
}
"""``state.end`` -> a short title of how the game ended, for results and boards. ``exhausted`` and ``limit`` are
RULINGS FT-9's safety stops (not in the rulebook), scored like the Beech ending."""

SAFETY_STOPS = ("exhausted", "limit")


def finish(state: TatarabaState, reason: str, events: list[Event]) -> None:
    """End the game now for ``reason`` (a key of :data:`ENDINGS`, kept in ``state.end``) and announce it: one
    ``end`` event whose data holds ``reason``, ``round`` and ``safety_stop`` (FT-9: both safety stops are
    announced)."""
    state.phase = "over"
    state.end = reason  # type: ignore[assignment]
    state.actions = 0
    if reason == "eidai":
        text = T("The round is over and an Eidai Tatara stands: the game ends.")
    elif reason == "beech":
        text = T("The Beeches have run out: the game ends.")
    elif reason == "exhausted":
        text = T("Safety stop (not in the rulebook): the forest is exhausted: it is certain that nobody can ever "
                 "build an Eidai Tatara or take another action that uses up a Beech. The game ends, scored like the "
                 "Beech ending.")
    else:
        text = T("Safety stop (not in the rulebook): the round limit ({rounds}) is reached. The game ends, scored "
                 "like the Beech ending.", rounds=N("{n} round", "{n} rounds", n=state.round_limit))
    events.append(
        Event(
            kind="end",
            text=text,
            data={"reason": reason, "round": state.round, "safety_stop": reason in SAFETY_STOPS},
        )
    )


def ranking(state: TatarabaState) -> list[list[int]]:
    """Seats best first (rulebook "End of the Game"): Eidai builders first, then the rest; within each, more Sen,
    then more building material; equal on both share a rank."""

    def key(i: int) -> tuple[int, int, int]:
        s = state.seats[i]
        return (0 if s.eidai == 0 else 1, -s.sen, -s.mat)

    groups: list[list[int]] = []
    for i in sorted(range(len(state.seats)), key=key):
        if groups and key(groups[-1][0]) == key(i):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups
