"""Asymmetric dragons (rulebook "Asymmetric Dragons"; RULINGS TM-1, TM-3, TM-4) and the per-player setup choices
(rulebook "Setup" steps 1-2; TM-16: each player in seat order picks a dragon not yet taken and an island board not
yet taken, and the sides of their island board and dragon card; TM-1: Kihaku's player names its element).

Gathering actions plug into :data:`games.tatsumi.seaboard.GATHERS` (``Seat.gather`` names one):

- ``raijinsama`` — two steps (``gather:<well>`` twice): any of the 8 surrounding wells, then one of the other 7
  whose top ring matches the first ring claimed (none may match: one ring).
- ``karyusama`` — one step ``breath:<dir>`` (8 directions): the top rings of the two nearest non-depleted wells in
  that straight line, skipping depleted wells, stopped by a guarded well.
- ``fujinsama`` — one step ``dash:<well>``: move 1 or 2 wells in one of 8 directions, never into a guarded well;
  every well exited gives its top ring (rulebook "Movement"), a depleted one nothing.
- ``mizuchisama`` — ``dive:<well>`` then ``gather:<well>``: claim the ring beneath the dragon, reemerge at another
  unguarded well whose top ring matches it, then claim the top ring of one of the (8) adjacent wells. Not possible
  without a ring beneath or without a matching well.
- ``kihakusama`` — two steps ``gather:<well>``: the edgemost ring of two different ends of the dragon's row and
  column (west, east, north, south); walking in from the edge, depleted wells are skipped, a guarded well (or the
  dragon's own) closes that end.

"Adjacent" means the 8 surrounding wells (rulebook "Adjacent": orthogonal and diagonal unless otherwise noted);
straight lines are the 8 queen directions, like the fly (TM-3).
"""

from __future__ import annotations

from games.core import Event, IllegalMove, N, T, Text, player_ref
from games.tatsumi import data as D
from games.tatsumi import islands_data as ID
from games.tatsumi.island import layout
from games.tatsumi.seaboard import GATHERS, claim, guarded_wells
from games.tatsumi.state import Seat, TatsumiOptions, TatsumiState, Turn

# --------------------------------------------------------------------------------------------------------------
# Geometry: rays by direction (n, ne, e, se, s, sw, w, nw), nearest well first; empty when off the board.

DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DIR_NAMES = {
    "n": T("north"),
    "ne": T("north-east"),
    "e": T("east"),
    "se": T("south-east"),
    "s": T("south"),
    "sw": T("south-west"),
    "w": T("west"),
    "nw": T("north-west"),
}
_STEP = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}


def _ray(w: int, d: str) -> tuple[int, ...]:
    x, y = D.well_xy(w)
    dx, dy = _STEP[d]
    out = []
    x, y = x + dx, y + dy
    while 1 <= x <= 5 and 1 <= y <= 5:
        out.append((y - 1) * 5 + x - 1)
        x, y = x + dx, y + dy
    return tuple(out)


DRAYS = tuple({d: _ray(w, d) for d in DIRS} for w in range(25))
"""``DRAYS[well][dir]``: the wells from ``well`` in direction ``dir``, nearest first."""
ADJ8 = tuple(tuple(r[0] for r in DRAYS[w].values() if r) for w in range(25))
"""The (up to 8) wells around each well."""

# --------------------------------------------------------------------------------------------------------------
# The dragon cards (TM-1): asymmetric gathering names, titles and short texts (our words).

ASYMMETRIC = {
    "karyu": "karyusama",
    "raijin": "raijinsama",
    "fujin": "fujinsama",
    "mizuchi": "mizuchisama",
    "kihaku": "kihakusama",
}
GATHER_TITLES = {
    "symmetric": T("symmetric"),
    "karyusama": T("Karyusama"),
    "raijinsama": T("Raijinsama"),
    "fujinsama": T("Fujinsama"),
    "mizuchisama": T("Mizuchisama"),
    "kihakusama": T("Kihakusama"),
}
GATHER_TEXT = {
    "symmetric": T("gather 2 rings next to you (N/E/S/W)"),
    "karyusama": T("breath: 2 nearest rings in a line, skips empty wells"),
    "raijinsama": T("zap: 2 matching rings from the 8 around you"),
    "fujinsama": T("dash 1-2 wells in a line, claiming each well left"),
    "mizuchisama": T("dive: claim beneath, reemerge at a match, +1 adjacent"),
    "kihakusama": T("claim the edgemost rings of 2 ends of your row/column"),
}


def _open(s: TatsumiState, p: Seat) -> tuple[set[int], list[str]]:
    return guarded_wells(s, p), s.wells


# --------------------------------------------------------------------------------------------------------------
# Raijinsama


def raijin_gather(s: TatsumiState, p: Seat, exclude: int = -1) -> list[int]:
    """Raijinsama's wells: first any of the 8 around, unguarded and not depleted; then (``exclude`` the first well)
    those whose top ring matches the first ring claimed (``Turn.gathered``)."""
    guarded, wells = _open(s, p)
    out = [w for w in ADJ8[p.well] if w != exclude and w not in guarded and wells[w]]
    if exclude >= 0:
        first = s.turn.gathered[:1]
        out = [w for w in out if wells[w][-1] == first]
    return sorted(out)


# --------------------------------------------------------------------------------------------------------------
# Karyusama


def breath_targets(s: TatsumiState, p: Seat) -> dict[str, list[int]]:
    """Karyusama: for each direction with at least one ring, the (up to 2) nearest non-depleted wells in that line
    before any guarded well."""
    guarded, wells = _open(s, p)
    out: dict[str, list[int]] = {}
    for d in DIRS:
        got: list[int] = []
        for w in DRAYS[p.well][d]:
            if w in guarded:
                break
            if wells[w]:
                got.append(w)
                if len(got) == 2:
                    break
        if got:
            out[d] = got
    return out


# --------------------------------------------------------------------------------------------------------------
# Fujinsama


def dash_targets(s: TatsumiState, p: Seat) -> dict[int, list[int]]:
    """Fujinsama: destination well -> wells exited on the way (the start, and the middle well for 2 steps); never
    into a guarded well (and so never through one)."""
    guarded = guarded_wells(s, p)
    out: dict[int, list[int]] = {}
    for d in DIRS:
        ray = DRAYS[p.well][d]
        path = [p.well]
        for w in ray[:2]:
            if w in guarded:
                break
            out[w] = list(path)
            path.append(w)
    return out


# --------------------------------------------------------------------------------------------------------------
# Mizuchisama


def dive_targets(s: TatsumiState, p: Seat) -> list[int]:
    """Mizuchisama: the wells to reemerge at — another unguarded well whose top ring matches the ring beneath the
    dragon; none when the dragon's well is depleted."""
    guarded, wells = _open(s, p)
    here = wells[p.well]
    if not here:
        return []
    e = here[-1]
    return [w for w in range(25) if w != p.well and w not in guarded and wells[w] and wells[w][-1] == e]


def mizuchi_gather(s: TatsumiState, p: Seat, exclude: int = -1) -> list[int]:
    """Mizuchisama's second part (``exclude`` is the well dived from, >= 0): the 8 wells around the new well,
    unguarded and not depleted. Before the dive (``exclude`` -1) there is no plain gathering."""
    if exclude < 0:
        return []
    guarded, wells = _open(s, p)
    return sorted(w for w in ADJ8[p.well] if w not in guarded and wells[w])


# --------------------------------------------------------------------------------------------------------------
# Kihakusama


def kihaku_ends(s: TatsumiState, p: Seat) -> dict[str, int]:
    """Kihakusama: for each end of the dragon's row and column (``n e s w``), the edgemost well with a ring, walking
    in from the edge past depleted wells; a guarded well or the dragon's own well closes the end (no entry)."""
    guarded, wells = _open(s, p)
    out = {}
    for d in ("n", "e", "s", "w"):
        for w in reversed(DRAYS[p.well][d]):
            if w in guarded:
                break
            if wells[w]:
                out[d] = w
                break
    return out


def kihaku_gather(s: TatsumiState, p: Seat, exclude: int = -1) -> list[int]:
    """Kihakusama's wells; the second pick (``exclude`` the first well) comes from another end."""
    ends = kihaku_ends(s, p)
    if exclude >= 0:
        ends = {d: w for d, w in ends.items() if exclude not in DRAYS[p.well][d]}
    return sorted(ends.values())


GATHERS.update(
    {
        "raijinsama": raijin_gather,
        "karyusama": lambda s, p, exclude=-1: [],
        "fujinsama": lambda s, p, exclude=-1: [],
        "mizuchisama": mizuchi_gather,
        "kihakusama": kihaku_gather,
    }
)

# --------------------------------------------------------------------------------------------------------------
# The special one-step options (breath, dash, dive) listed in the main stage, and acting on them.

SPECIAL_PREFIXES = ("breath:", "dash:", "dive:")


def _tops(s: TatsumiState, wells: list[int]) -> str:
    parts = [T("{element} from {well}", element=D.ELEMENT_TEXT[s.wells[w][-1]], well=D.WELL_NAMES[w])
             for w in wells if s.wells[w]]
    return Text.join(D.COMMA, parts) if parts else T("nothing")


def special_options(s: TatsumiState, p: Seat) -> list[tuple[str, str]]:
    """The main-stage gathering options that are not ``gather:<well>`` (Karyusama, Fujinsama, Mizuchisama)."""
    g = p.gather
    if g == "karyusama":
        return [
            (f"breath:{d}", T("breath {dir}: {pieces}", dir=DIR_NAMES[d], pieces=_tops(s, ws)))
            for d, ws in breath_targets(s, p).items()
        ]
    if g == "fujinsama":
        return [
            (f"dash:{D.WELL_NAMES[w]}", T("dash to {well}, claiming {pieces}", well=D.WELL_NAMES[w], pieces=_tops(s, path)))
            for w, path in sorted(dash_targets(s, p).items())
        ]
    if g == "mizuchisama":
        here = s.wells[p.well]
        return [
            (
                f"dive:{D.WELL_NAMES[w]}",
                T("dive: claim {element} beneath, reemerge at {well}", element=D.ELEMENT_TEXT[here[-1]],
                  well=D.WELL_NAMES[w]),
            )
            for w in dive_targets(s, p)
        ]
    return []


def special_act(s: TatsumiState, p: Seat, oid: str, events: list[Event]) -> None:
    """Apply a listed ``breath:``/``dash:``/``dive:`` option (the gathering action of the turn)."""
    t = s.turn
    kind, arg = oid.split(":", 1)
    t.acted = True
    who = player_ref(p.id)
    if kind == "breath":
        wells = breath_targets(s, p)[arg]
        events.append(
            Event(kind="breath", text=T("{player} breathes fire {dir}.", player=who, dir=DIR_NAMES[arg]),
                  data={"player": p.id, "dir": arg})
        )
        for w in wells:
            t.gathered += claim(s, p, w, events, "breathes in")
    elif kind == "dash":
        dest = D.WELL_INDEX[arg]
        path = dash_targets(s, p)[dest]
        events.append(
            Event(
                kind="dash",
                text=T("{player} dashes from {start} to {well}.", player=who, start=D.WELL_NAMES[p.well], well=arg),
                data={"player": p.id, "from": D.WELL_NAMES[p.well], "to": arg},
            )
        )
        for src, nxt in zip(path, path[1:] + [dest], strict=True):
            p.well = nxt
            t.gathered += claim(s, p, src, events, "claims")
    elif kind == "dive":
        dest = D.WELL_INDEX[arg]
        src = p.well
        events.append(
            Event(
                kind="dive",
                text=T("{player} dives at {start} and reemerges at {well}.", player=who, start=D.WELL_NAMES[src], well=arg),
                data={"player": p.id, "from": D.WELL_NAMES[src], "to": arg},
            )
        )
        t.gathered += claim(s, p, src, events, "submerges and claims")
        p.well = dest
        t.first_well = src
        if mizuchi_gather(s, p, src):
            t.stage = "gather2"
        else:
            t.first_well = -1
    else:  # pragma: no cover - choices() lists only the kinds above
        raise IllegalMove(T("'{option}' is not a choice now.", option=oid))


def gather_title(p: Seat) -> str:
    """The dragon's title with its card side: ``Raijinsama`` (asymmetric) or ``Raijin`` (symmetric); ``"choosing"``
    before its player picked one (TM-16)."""
    if not p.dragon:
        return T("choosing")
    return GATHER_TITLES[p.gather] if p.gather != "symmetric" else D.DRAGON_TITLES[p.dragon]


# --------------------------------------------------------------------------------------------------------------
# Setup choices (rulebook "Setup" 1-2; TM-1, TM-15, TM-16): a ``setup`` stage before round 1, one small decision
# each, in seat order. Queue items (``TatsumiState.setup_queue``): ``colour:<id>`` pick a dragon not yet taken
# (option ``colours=choose``), ``island:<id>`` pick an island board not yet taken and its side (``island=choose``),
# ``dragon:<id>`` pick the side of the dragon card (``dragons=choose``), ``element:<id>`` name Kihaku's element.


def dragon_pool(o: TatsumiOptions) -> tuple[str, ...]:
    """The dragons in the box (TM-1, TM-16): the four base dragons, and Kihaku with the Void."""
    return D.DRAGONS if o.void else D.DRAGONS[:4]


def give_dragon(s: TatsumiState, p: Seat, dragon: str) -> None:
    """``p`` plays ``dragon``: its element (Kihaku's is named later), its colour in images (``mark``: the dragon's
    place in ``D.DRAGONS``, so a colour always means the same dragon, TM-16) and, with ``dragons=asymmetric``, its
    asymmetric gathering."""
    p.dragon = dragon
    p.element = D.DRAGON_ELEMENT[dragon]
    p.mark = D.DRAGONS.index(dragon)
    if s.options.dragons == "asymmetric":
        p.gather = ASYMMETRIC[dragon]


def setup_modules(s: TatsumiState) -> None:
    """Apply the module options to a fresh base setup (called by ``TatsumiGame.setup`` before ``advance``; the seat
    count is already checked, TM-17): the Void's rings (5 players, TM-1), dragons dealt at random (``colours=random``,
    TM-16; ``seat`` keeps the seat-order deal of :func:`games.tatsumi.rules.setup`, ``choose`` leaves them to pick),
    island boards dealt from the seed (``island=asymmetric``), card sides, and the queue of per-player choices.
    Start wells stay by seat whatever the dragon (TM-2, TM-16)."""
    from games.tatsumi import void  # the Void imports this module's tables

    o = s.options
    if o.void:
        void.setup_void(s)
    if o.colours == "random":
        for p, dragon in zip(s.seats, s.rng.shuffled(list(dragon_pool(o))), strict=False):
            give_dragon(s, p, dragon)
    elif o.colours == "choose":
        for p in s.seats:
            p.dragon = p.element = ""
    if o.island == "asymmetric":
        boards = s.rng.shuffled(list(ID.BOARDS))[: len(s.seats)]
        for p, b in zip(s.seats, boards, strict=True):
            p.board = b
            set_island_side(p, b)
    if o.dragons == "asymmetric":
        for p in s.seats:
            if p.dragon:
                p.gather = ASYMMETRIC[p.dragon]
    queue = []
    for p in s.seats:
        if o.colours == "choose":
            queue.append(f"colour:{p.id}")
        if o.island == "choose":
            queue.append(f"island:{p.id}")
        if o.dragons == "choose":
            queue.append(f"dragon:{p.id}")
        if p.dragon == "kihaku":
            queue.append(f"element:{p.id}")
    if queue:
        s.setup_queue = queue
        s.current = s.players.index(queue[0].split(":", 1)[1])
        s.turn = Turn(stage="setup")


def set_island_side(p: Seat, key: str) -> None:
    """Give ``p`` island ``key`` (``tatsumi`` for the symmetric side), empty, with its blessings' scales."""
    lay = layout(key)
    p.island_key = key
    p.island = lay.empty
    p.blessings = [False] * len(lay.blessings)


def _item(s: TatsumiState) -> tuple[str, Seat]:
    kind, pid = s.setup_queue[0].split(":", 1)
    return kind, s.seats[s.players.index(pid)]


SETUP_WHAT = {"colour": T("a dragon"), "island": T("an island board"), "dragon": T("the side of the dragon card"),
              "element": T("Kihaku's element")}
"""What each kind of setup choice picks, as the status line names it (TM-16)."""


def setup_status(s: TatsumiState) -> str:
    """The status line while the setup choices go on (TM-16): ``"Setup: {@ann} to choose a dragon (2 setup choices
    left)."`` — the choices left count the one being made."""
    kind, p = _item(s)
    return N("Setup: {player} to choose {what} ({n} setup choice left).",
             "Setup: {player} to choose {what} ({n} setup choices left).", n=len(s.setup_queue),
             player=player_ref(p.id), what=SETUP_WHAT[kind])


def _provisional_marks(s: TatsumiState) -> None:
    """Players still to pick wear the colours of the dragons nobody has taken, in seat order, so no two players
    share a colour while the picks go on (TM-16)."""
    free = [i for i, d in enumerate(D.DRAGONS) if d not in {q.dragon for q in s.seats}]
    for q, mark in zip([q for q in s.seats if not q.dragon], free, strict=False):
        q.mark = mark


def free_dragons(s: TatsumiState, p: Seat) -> list[str]:
    """The dragons ``p`` may pick (TM-16): those of the box (Kihaku only with the Void) no other player has taken."""
    taken = {q.dragon for q in s.seats if q is not p}
    return [d for d in dragon_pool(s.options) if d not in taken]


def free_boards(s: TatsumiState, p: Seat) -> list[str]:
    """The asymmetric island boards ``p`` may pick (TM-16): those no other player has taken."""
    taken = {q.board for q in s.seats if q is not p}
    return [b for b in ID.BOARDS if b not in taken]


def _dragon_label(d: str) -> str:
    if d == "kihaku":
        return T("{name} (the Void; you name its element next)", name=D.DRAGON_TITLES[d])
    return T("{name} ({element})", name=D.DRAGON_TITLES[d], element=D.ELEMENT_TEXT[D.DRAGON_ELEMENT[d]])


def setup_choices(s: TatsumiState) -> list[tuple[str, str]]:
    """The options of the first queued setup choice: ``dragon:<name>`` (a dragon to play), ``island:symmetric`` or
    ``island:<board>`` (a board's asymmetric side), ``dragon:symmetric``/``dragon:asymmetric`` (card side),
    ``element:<name>`` (Kihaku's element)."""
    kind, p = _item(s)
    if kind == "colour":
        return [(f"dragon:{d}", _dragon_label(d)) for d in free_dragons(s, p)]
    if kind == "island":
        return [("island:symmetric", T("Tatsumi Island (symmetric side)"))] + [
            (f"island:{b}", T("{board} (asymmetric side): {rule}", board=ID.TITLES[b], rule=ID.RULE_TEXT[b]))
            for b in free_boards(s, p)
        ]
    if kind == "dragon":
        g = ASYMMETRIC[p.dragon]
        return [
            ("dragon:symmetric", T("{name} (symmetric side): {rule}", name=D.DRAGON_TITLES[p.dragon],
                                   rule=GATHER_TEXT["symmetric"])),
            ("dragon:asymmetric", T("{name} (asymmetric side): {rule}", name=GATHER_TITLES[g], rule=GATHER_TEXT[g])),
        ]
    return [(f"element:{D.ELEMENT_NAMES[e]}", T("Kihaku's element: {element}", element=D.ELEMENT_TEXT[e]))
            for e in D.ELEMENTS]


def setup_prompt(s: TatsumiState) -> str:
    kind, p = _item(s)
    who = player_ref(p.id)
    if kind == "colour":
        return T("{player}: choose your dragon (and colour) from those not yet taken.", player=who)
    if kind == "island":
        return T("{player}: choose your island board (one not yet taken) and its side.", player=who)
    if kind == "dragon":
        return T("{player}: choose the side of your dragon card ({name}).", player=who,
                 name=D.DRAGON_TITLES[p.dragon])
    return T("{player}: name Kihaku's element (for Dragonfly and the tie-break).", player=who)


def setup_act(s: TatsumiState, oid: str, events: list[Event]) -> None:
    """Apply a listed setup option, then move on to the next queued choice or to round 1. Picking Kihaku queues
    the naming of its element next (TM-1)."""
    kind, p = _item(s)
    s.setup_queue.pop(0)
    value = oid.split(":", 1)[1]
    who = player_ref(p.id)
    if kind == "colour":
        give_dragon(s, p, value)
        _provisional_marks(s)
        if value == "kihaku":
            s.setup_queue.insert(0, f"element:{p.id}")
        text = (T("{player} takes {name} ({element}).", player=who, name=D.DRAGON_TITLES[value],
                  element=D.ELEMENT_TEXT[p.element]) if p.element else
                T("{player} takes {name} (the Void).", player=who, name=D.DRAGON_TITLES[value]))
    elif kind == "island":
        p.board = "" if value == "symmetric" else value
        set_island_side(p, p.board or "tatsumi")
        text = (T("{player} plays {board} (asymmetric).", player=who, board=layout(p.island_key).title) if p.board
                else T("{player} plays {board}.", player=who, board=layout(p.island_key).title))
    elif kind == "dragon":
        p.gather = ASYMMETRIC[p.dragon] if value == "asymmetric" else "symmetric"
        text = T("{player} plays {name} ({rule}).", player=who, name=gather_title(p), rule=GATHER_TEXT[p.gather])
    else:
        p.element = D.ELEMENT_CODES[value]
        text = T("{player} names {element} as Kihaku's element.", player=who, element=D.ELEMENT_TEXT[p.element])
    events.append(Event(kind="setup", text=text, data={"player": p.id, "choice": kind, "value": value}))
    start_or_next(s)


def start_or_next(s: TatsumiState) -> None:
    """Point ``current`` at the next queued setup choice, or start round 1 with the first seat."""
    s.setup_queue = [q for q in s.setup_queue if q.split(":", 1)[1] in s.players]
    if s.setup_queue:
        s.current = s.players.index(s.setup_queue[0].split(":", 1)[1])
        s.turn = Turn(stage="setup")
    else:
        s.current = 0
        s.round = 1
        s.turn = Turn()


def greedy_value(s: TatsumiState, p: Seat, oid: str) -> float:
    """A rough worth of a special gathering option for the greedy AI: rings it claims now."""
    kind, arg = oid.split(":", 1)
    if kind == "breath":
        return len(breath_targets(s, p).get(arg, []))
    if kind == "dash":
        return sum(1 for w in dash_targets(s, p).get(D.WELL_INDEX[arg], []) if s.wells[w])
    return 2.0
