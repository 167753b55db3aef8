"""Tatsumi rules: setup and the turn as small decisions — ring placement, offerings, overflow, scales, the end
(RULINGS TM-1..TM-12). The seaboard lives in :mod:`.seaboard`, the summoning cards in :mod:`.cards`.

A turn is a sequence of small decisions (stages of :class:`games.tatsumi.state.Turn`). :func:`choices` lists the
current stage's (id, label) pairs, :func:`act` applies one, :func:`advance` applies lone choices by itself
(RULINGS C-3). Everything here mutates the state it is given; :class:`games.tatsumi.TatsumiGame` hands it a copy.
"""

from __future__ import annotations

import re

from games.core import (
    SHORT_LABEL,
    Event,
    IllegalMove,
    N,
    Option,
    Rng,
    T,
    Text,
    marker_keys,
    player_ref,
)
from games.tatsumi import data as D
from games.tatsumi import dragons, solo, weather  # dragons: asymmetric dragons, setup choices (TM-1, TM-15)
from games.tatsumi import islands_data as ID  # asymmetric islands (TM-15)
from games.tatsumi.cards import card_slot, card_value, place_scale, scale_cards, scales_on, score
from games.tatsumi.island import (
    blessing_met,
    can_place_all,
    encircled,
    layout,
    legal_spaces,
    mastery,
    plain_reach,
    put,
)
from games.tatsumi.loci import locus  # Option.locus: the place an option points at
from games.tatsumi.seaboard import (
    ORTHO,
    RAYS,
    claim,
    ename,
    etext,
    fly_targets,
    gather_wells,
    guarded_wells,
    offer_edges,
    requirement,
    rings_text,
    shrine_distance,
    trigger_end,
)
from games.tatsumi.solo_data import rank_name
from games.tatsumi.state import Seat, TatsumiOptions, TatsumiState, Turn

__all__ = [
    "KINDS",
    "ORTHO",
    "RAYS",
    "act",
    "advance",
    "card_slot",
    "card_value",
    "choices",
    "claim",
    "layout",
    "options",
    "place_scale",
    "prompt",
    "requirement",
    "scales_on",
    "setup",
    "shrine_distance",
    "trigger_end",
]

# --------------------------------------------------------------------------------------------------------------
# Setup (TM-2, TM-6, TM-10, TM-11)


def setup(players: list[str], options: TatsumiOptions, seed: int) -> TatsumiState:
    """A new game: wells filled from the seed (TM-2), layers removed for 2-3 players, shrines and cards dealt,
    dragons on their corner wells, 2 scales on the island and 5 beside (TM-10)."""
    rng = Rng(seed=seed)
    rings = rng.shuffled(list("".join(D.ELEMENTS) * D.RINGS_PER_ELEMENT))
    wells, k = [], 0
    for w in range(25):
        d = D.WELL_DEPTH[w]
        wells.append("".join(rings[k : k + d]))
        k += d
    layers = D.LAYERS_REMOVED[len(players)]
    removed = ""
    if layers:
        for w in range(25):
            removed += wells[w][-layers:]
            wells[w] = wells[w][:-layers]
    shrines = rng.shuffled(list(D.ELEMENTS))
    cards = rng.shuffled(list(D.CARDS))[:4]
    seats = []
    for i, pid in enumerate(players):
        dragon = D.DRAGONS[i]
        lay = layout("tatsumi")
        seats.append(
            Seat(
                id=pid,
                mark=i,
                dragon=dragon,
                element=D.DRAGON_ELEMENT[dragon],
                well=D.START_WELLS[i],
                holding={e: 0 for e in D.ELEMENTS},
                island=lay.empty,
                scored={},
                scales_beside=D.SCALES_BESIDE,
                blessings=[False] * len(lay.blessings),
                cards=[0, 0, 0, 0],
            )
        )
    state = TatsumiState(
        players=list(players),
        rng=rng,
        options=options,
        wells=wells,
        removed=removed,
        shrines=shrines,
        sides=["front"] * 4,
        cards=cards,
        seats=seats,
    )
    if options.weather or options.solo:
        weather.setup(state)  # TM-13
    if options.solo:
        solo.setup(state)  # TM-14
    return state


# --------------------------------------------------------------------------------------------------------------
# Small helpers


def me(s: TatsumiState) -> Seat:
    return s.seats[s.current]


# --------------------------------------------------------------------------------------------------------------
# Options per stage: (id, label) pairs; :func:`options` turns them into contract ``Option``s.

Choice = tuple[str, str]


def _opt(id: str, label: str) -> Choice:  # noqa: A002 - mirrors Option's fields
    return (id, label)


def _blackbird_ok(s: TatsumiState, p: Seat) -> bool:
    if s.turn.blackbird_used or scales_on(s, p, "blackbird") == 0:
        return False
    lay = layout(p.island_key)
    return any(p.holding[e] and legal_spaces(lay, p.island, e) for e in D.ELEMENTS)


def _fly_bonus(swallows: int, heron: int) -> Text | None:
    """What a fly scores on the way, for its label: ``"+2 fortune (Swallows)"``, ``"+4 fortune (Swallows 2,
    Heron 2)"``, or None (TM-11)."""
    if swallows and heron:
        return T("+{n} fortune ({swallows} {a}, {heron} {b})", n=swallows + heron, swallows=D.CARD_TITLES["swallows"],
                 a=swallows, heron=D.CARD_TITLES["heron"], b=heron)
    if swallows or heron:
        return T("+{n} fortune ({card})", n=swallows + heron, card=D.CARD_TITLES["swallows" if swallows else "heron"])
    return None


def _offer_scale(s: TatsumiState, p: Seat, k: int) -> Text | None:
    """What an offering at edge ``k``'s shrine does with a scale, for its label (TM-10): on the back side, a scale
    on the card above (Flying Fish: on another card) or none when the 5 are spent; nothing on the front side."""
    if s.sides[k] != "back":
        return None
    if p.scales_beside <= 0:
        return T("no scale left to place")
    card = s.cards[k]
    if card == "flying_fish":
        return T("a scale via Flying Fish on another card")
    if card in D.SCORING_CARDS:
        return T("a scale on {card} (+{n})", card=D.CARD_TITLES[card], n=card_value(s, p, card, extra=1))
    return T("a scale on {card} (lasting)", card=D.CARD_TITLES[card])


def scale_prompt(queue: list[str]) -> str:
    """The prompt for the first scale of ``queue`` (``Turn.scale_queue``): which blessing (by its space) or Flying
    Fish it comes from, and how many wait after it, so two blessings unlocked at once read differently."""
    item = queue[0]
    what = D.CARD_TITLES["flying_fish"] if item == "fish" else T("the island blessing on {space}",
                                                                 space=item.split(":", 1)[1])
    if len(queue) > 1:
        return N("place the scale from {source} on a summoning card ({n} more scale to place after it).",
                 "place the scale from {source} on a summoning card ({n} more scales to place after it).",
                 n=len(queue) - 1, source=what)
    return T("place the scale from {source} on a summoning card.", source=what)


def _main_options(s: TatsumiState, p: Seat) -> list[Choice]:
    t = s.turn
    opts: list[Choice] = []
    if not t.flown:
        targets = fly_targets(s, p)
        here = s.wells[p.well]
        if targets:
            sw = 2 * scales_on(s, p, "swallows")
            he = scales_on(s, p, "heron")
            for w in sorted(targets):
                g, d = targets[w]
                bonus = _fly_bonus(g * sw, d * he)
                label = T("fly to {well}", well=D.WELL_NAMES[w])
                if here:
                    label = T("fly to {well}, claim {element} from {start}", well=D.WELL_NAMES[w],
                              element=etext(here[-1]), start=D.WELL_NAMES[p.well])
                if bonus is not None:
                    label = T("{choice}, {bonus}", choice=label, bonus=bonus)
                opts.append(_opt(id=f"fly:{D.WELL_NAMES[w]}", label=label))
        else:
            guarded = guarded_wells(s, p)
            for w in range(25):
                if w != p.well and w not in guarded:
                    opts.append(
                        _opt(id=f"fly:{D.WELL_NAMES[w]}", label=T("lift to {well} (no flight)", well=D.WELL_NAMES[w]))
                    )
    actions: list[Choice] = []
    if not t.acted:
        for w in gather_wells(s, p):
            actions.append(
                _opt(
                    id=f"gather:{D.WELL_NAMES[w]}",
                    label=T("gather {element} from {well}", element=etext(s.wells[w][-1]), well=D.WELL_NAMES[w]),
                )
            )
        actions.extend(dragons.special_options(s, p))
        for k in offer_edges(s, p):
            e = s.shrines[k]
            label = T("offer {pieces} at the {element} shrine ({edge})", pieces=rings_text(requirement(s, k)),
                      element=etext(e), edge=D.EDGE_NAMES[D.EDGES[k]])
            scale = _offer_scale(s, p, k)
            if scale is not None:
                label = T("{choice}, {extra}", choice=label, extra=scale)
            actions.append(_opt(id=f"offer:{ename(e)}", label=label))
    opts.extend(actions)
    bb = _blackbird_ok(s, p)
    if bb:
        n = scales_on(s, p, "blackbird")
        opts.append(_opt(id="blackbird", label=N("Blackbird: place up to {n} ring from holding",
                                                 "Blackbird: place up to {n} rings from holding", n=n)))
    if t.flown and (t.acted or not actions):
        opts.append(_opt(id="end", label=T("end turn")))
    return opts


def _place_options(s: TatsumiState, p: Seat) -> list[Choice]:
    t = s.turn
    lay = layout(p.island_key)
    opts = []
    if t.mode == "blackbird":
        elems = [e for e in D.ELEMENTS if p.holding[e]]
    else:
        elems = [e for e in D.ELEMENTS if e in t.to_place]
    # TM-7 shortcut: a placement removes at most one reachable plain space, so with one more than the rest needs
    # every placement keeps the offering placeable.
    roomy = t.mode == "offer" and lay.plain_ok and plain_reach(lay, p.island, len(t.to_place)) >= len(t.to_place)
    for e in elems:
        rest = t.to_place.replace(e, "", 1) if t.mode == "offer" and not roomy else ""
        n_before = encircled(lay, p.island, e)
        for i in legal_spaces(lay, p.island, e):
            after = put(p.island, i, e)
            if rest and not can_place_all(lay, after, rest):
                continue
            if t.mode == "offer" and t.bolts >= 0 and not ID.bolt_ok(lay, after, t.to_place.replace(e, "", 1), t.bolts):
                continue  # Raikou: exactly one bolt per offering (TM-15)
            if t.mode == "overflow":
                label = T("{element} ring on {space} (unscored)", element=etext(e), space=lay.names[i])
            else:
                label = T("{element} ring on {space} (+{n})", element=etext(e), space=lay.names[i],
                          n=n_before + (1 if lay.rift[i] else 0))
            opts.append(_opt(id=f"{ename(e)}@{lay.names[i]}", label=label))
    if t.mode == "blackbird":
        opts.append(_opt(id="stop", label=T("stop placing")))
    return opts


def options(s: TatsumiState) -> list[Option]:
    """The current stage's choices as contract ``Option``s (empty when the game is over), each with its button's
    words when its label is long (:func:`short_label`)."""
    who = decider(s).id if not s.over else ""
    opts = [Option.model_construct(id=i, label=label, locus=locus(who, i)) for i, label in choices(s)]
    keys = marker_keys(opts)

    def room(o: Option) -> int:  # the characters its key leaves ("12 · ")
        return SHORT_LABEL - (len(keys[o.id]) + 3 if o.id in keys else 0)

    return [o if len(o.label) <= room(o) else o.model_copy(update={"short": short_label(o.label, room(o))})
            for o in opts]


SHORT = 35
"""Characters a button's words may take by default: :data:`games.core.SHORT_LABEL` less a marker key
(``"25 · "``); :func:`options` gives each option the room its own key leaves."""
_SHORTER = [  # (pattern, replacement), applied in turn until the label fits; each drops what the board or the
    # option's whole label (shown next to the button) says
    (re.compile(r"^(fly|dash|lift) to [a-e]\d(,| )"), r"\1\2"),  # the well: the option's marker
    (re.compile(r"^dive: claim (\w+) beneath, reemerge at [a-e]\d$"), r"dive, claim \1 beneath"),
    (re.compile(r" at the \w+ shrine \([a-z-]+\)"), ""),  # the shrine: the option's marker
    (re.compile(r", a scale (on|via) ([A-Z][a-z]+(?: [A-Z][a-z]+)?).*$"), r", scale \1 \2"),
    (re.compile(r", no scale left to place$"), ", no scale left"),
    (re.compile(r" \((major|minor) \w+\)"), ""),  # a weather card's side: its card on the board
    (re.compile(r"^sand dollar (off|from beside) (.*) into [a-e]\d$"), r"\1 \2"),  # the well: the prompt's
    (re.compile(r"^from beside "), "beside "),
    (re.compile(r"^overflow (.*) onto the island$"), r"overflow \1"),
    (re.compile(r"^(\w+) \((a?symmetric) side\): .*$"), r"\1 (\2 side)"),  # the rule: the whole label
    (re.compile(r" fortune \(.*\)$"), " fortune"),
    (re.compile(r", scale (on|via) .*$"), ""),
    (re.compile(r", no scale left$"), ""),
    (re.compile(r" from holding$"), ""),
    (re.compile(r"^dash, claiming "), "dash: "),
    (re.compile(r"\b(north|south)-(east|west)\b"), lambda m: m[1][0].upper() + m[2][0].upper()),
    (re.compile(r" from ([a-e]\d)"), r" \1"),
    (re.compile(r"\b(\w+) ([a-e]\d), \1 ([a-e]\d)\b"), r"\1 \2 + \3"),  # "lightning a2 + a3"
    (re.compile(r"^breath (north|south|east|west)\b"), lambda m: "breath " + m[1][0].upper()),
    (re.compile(r"\b(\w+) on ([A-G]\d)\b"), r"\1 \2"),  # a swap: "swap water F3 with lightning E4"
]


def short_label(label: str, limit: int = SHORT) -> str | None:
    """A button's words for ``label`` when it is longer than ``limit`` characters (``Option.short``): the
    choice, without what its marker shows (the well, the shrine) or what its whole label adds (the rule of an
    island side, where a scale goes), e.g. ``"offer 2 water + 1 wind at the water shrine (south), a scale on
    Toad (+2)"`` -> ``"offer 2 water + 1 wind, scale on Toad"``; None when the label fits."""
    if len(label) <= limit:
        return None
    short = label
    for pattern, repl in _SHORTER:
        short = pattern.sub(repl, short)
        if len(short) <= limit:
            break
    return short


def choices(s: TatsumiState) -> list[Choice]:
    """The choices of the current stage as (id, label) pairs (empty when the game is over)."""
    if s.over:
        return []
    if s.interrupts:
        return _module(s).choices(s, s.interrupts[0])
    p = me(s)
    t = s.turn
    st = t.stage
    if st == "setup":
        return dragons.setup_choices(s)
    if st == "main":
        return _main_options(s, p)
    if st == "gather2":
        return [
            _opt(
                id=f"gather:{D.WELL_NAMES[w]}",
                label=T("gather {element} from {well}", element=etext(s.wells[w][-1]), well=D.WELL_NAMES[w]),
            )
            for w in gather_wells(s, p, exclude=t.first_well)
        ]
    if st == "place":
        return _place_options(s, p)
    if st == "overflow":
        return [
            _opt(id=f"overflow:{ename(e)}", label=N("overflow {n} {element} ring onto the island",
                                                    "overflow {n} {element} rings onto the island",
                                                    n=p.holding[e], element=etext(e)))
            for e in D.ELEMENTS
            if p.holding[e]
        ]
    if st == "scale":
        opts = []
        for k in scale_cards(s):
            card = s.cards[k]
            v = card_value(s, p, card, extra=1)
            label = (
                T("{card} (+{n})", card=D.CARD_TITLES[card], n=v)
                if card in D.SCORING_CARDS
                else T("{card} (lasting)", card=D.CARD_TITLES[card])
            )
            opts.append(_opt(id=f"card:{card}", label=label))
        return opts
    return []


KINDS = {"main": "turn", "gather2": "gather", "place": "place", "overflow": "overflow", "scale": "scale"}
KINDS["setup"] = "setup"


def _module(s: TatsumiState):
    """The module answering the first interrupt (``s.interrupts``): solo steps or weather decisions."""
    return solo if s.interrupts[0].startswith("solo:") else weather


def decider(s: TatsumiState) -> Seat:
    """The seat whose decision is pending: the current seat, or the seat a module interrupt names (TM-13 swaps)."""
    if s.interrupts:
        return s.seats[_module(s).seat(s, s.interrupts[0])]
    return s.seats[s.current]


def kind(s: TatsumiState) -> str:
    """The pending decision's ``kind``."""
    if s.interrupts:
        return _module(s).kind(s.interrupts[0])
    return KINDS[s.turn.stage]


def prompt(s: TatsumiState) -> str:
    """One line telling the current player what to decide."""
    if s.interrupts:
        return _module(s).prompt(s, s.interrupts[0])
    p = me(s)
    t = s.turn
    who = player_ref(p.id)
    if t.stage == "setup":
        return dragons.setup_prompt(s)
    if t.stage == "main":
        if not t.flown and not t.acted:
            return T("{player}: fly, and gather or offer (either order).", player=who)
        if not t.flown:
            return T("{player}: fly.", player=who)
        if not t.acted:
            return T("{player}: gather or offer.", player=who)
        return T("{player}: finish your turn.", player=who)
    if t.stage == "gather2":
        return T("{player}: gather a second ring.", player=who)
    if t.stage == "place":
        if t.mode == "blackbird":
            return T("{player}: Blackbird — place a ring from holding ({n} left) or stop.", player=who, n=t.bb_left)
        if t.mode == "offer":
            return T("{player}: place your offered rings ({pieces}) on your island.", player=who,
                     pieces=rings_text(t.to_place))
        return T("{player}: place your overflowing rings ({pieces}) on your island.", player=who,
                 pieces=rings_text(t.to_place))
    if t.stage == "overflow":
        return T("{player}: more than 3 elements in holding — choose the element that overflows onto your island.",
                 player=who)
    if t.stage == "scale":
        return T("{player}: {what}", player=who, what=scale_prompt(t.scale_queue))
    return Text.join("", [])


# --------------------------------------------------------------------------------------------------------------
# Acting


def act(s: TatsumiState, oid: str, events: list[Event]) -> None:
    """Apply option ``oid`` of the current stage (already validated). ``IllegalMove`` if it is not one."""
    if s.interrupts:
        _module(s).act(s, s.interrupts[0], oid, events)
        return
    p = me(s)
    t = s.turn
    st = t.stage
    if st == "main":
        if oid.startswith("fly:"):
            _fly(s, p, D.WELL_INDEX[oid[4:]], events)
        elif oid.startswith("gather:"):
            w = D.WELL_INDEX[oid[7:]]
            t.gathered += claim(s, p, w, events, "gathers")
            t.acted = True
            t.first_well = w
            if gather_wells(s, p, exclude=w):
                t.stage = "gather2"
        elif oid.startswith("offer:"):
            _offer(s, p, D.ELEMENT_CODES[oid[6:]], events)
        elif oid.startswith(dragons.SPECIAL_PREFIXES):
            dragons.special_act(s, p, oid, events)
        elif oid == "blackbird":
            t.blackbird_used = True
            t.stage = "place"
            t.mode = "blackbird"
            t.bb_left = scales_on(s, p, "blackbird")
            t.to_place = ""
            events.append(
                Event(kind="blackbird", text=T("{player} calls on Blackbird.", player=player_ref(p.id)),
                      data={"player": p.id})
            )
        elif oid == "end":
            _end_turn(s, p, events)
        else:
            raise IllegalMove(T("'{option}' is not a choice now.", option=oid))
    elif st == "gather2":
        t.gathered += claim(s, p, D.WELL_INDEX[oid[7:]], events, "gathers")
        t.stage = "main"
        t.first_well = -1
    elif st == "setup":
        dragons.setup_act(s, oid, events)
    elif st == "place":
        if oid == "stop":
            _batch_done(s, p, events)
        else:
            name, space = oid.split("@")
            _place(s, p, D.ELEMENT_CODES[name], layout(p.island_key).index(space), events)
    elif st == "overflow":
        e = D.ELEMENT_CODES[oid[9:]]
        n = p.holding[e]
        p.holding[e] = 0
        t.stage = "place"
        t.mode = "overflow"
        t.to_place = e * n
        events.append(
            Event(
                kind="overflow",
                text=N("{player}'s holding overflows: {n} {element} ring onto the island, unscored.",
                       "{player}'s holding overflows: {n} {element} rings onto the island, unscored.", n=n,
                       player=player_ref(p.id), element=etext(e)),
                data={"player": p.id, "element": ename(e), "count": n},
            )
        )
        _check_stuck(s, p, events)
    elif st == "scale":
        card = oid[5:]
        item = t.scale_queue.pop(0)
        place_scale(s, p, s.cards.index(card), "Flying Fish" if item == "fish" else "island blessing", events)
        if not t.scale_queue:
            _resume(s, p, events)
    else:
        raise IllegalMove(T("The game is over."))


def _fly(s: TatsumiState, p: Seat, dest: int, events: list[Event]) -> None:
    """Fly (TM-3): claim the exited well's top ring; Swallows and Heron score on the way (TM-11).
    With no flight possible the dragon is lifted to ``dest`` without a claim."""
    targets = fly_targets(s, p)
    src = p.well
    s.turn.flown = True
    if not targets:
        p.well = dest
        events.append(
            Event(
                kind="lift",
                text=T("{player} cannot fly and is lifted to {well}.", player=player_ref(p.id), well=D.WELL_NAMES[dest]),
                data={"player": p.id, "to": D.WELL_NAMES[dest]},
            )
        )
        return
    g, d = targets[dest]
    p.well = dest
    events.append(
        Event(
            kind="fly",
            text=T("{player} flies from {start} to {well}.", player=player_ref(p.id), start=D.WELL_NAMES[src],
                   well=D.WELL_NAMES[dest]),
            data={"player": p.id, "from": D.WELL_NAMES[src], "to": D.WELL_NAMES[dest]},
        )
    )
    claim(s, p, src, events, "claims")
    if g:
        why = N("{card}, {n} guarded well passed", "{card}, {n} guarded wells passed", n=g,
                card=D.CARD_TITLES["swallows"])
        score(s, p, 2 * g * scales_on(s, p, "swallows"), "swallows", why, events)
    if d:
        why = N("{card}, {n} depleted well passed", "{card}, {n} depleted wells passed", n=d,
                card=D.CARD_TITLES["heron"])
        score(s, p, d * scales_on(s, p, "heron"), "heron", why, events)


def _offer(s: TatsumiState, p: Seat, element: str, events: list[Event]) -> None:
    """Start an offering (rulebook "Offering", TM-6): the rings leave holding, then are placed one by one."""
    k = s.shrines.index(element)
    req = requirement(s, k)
    t = s.turn
    for e in req:
        p.holding[e] -= 1
    t.acted = True
    t.stage = "place"
    t.mode = "offer"
    t.to_place = req
    t.shrine = k
    t.bolts = ID.offer_bolts(layout(p.island_key), p.island, req)  # Raikou (TM-15)
    events.append(
        Event(
            kind="offer",
            text=T("{player} offers {pieces} at the {element} shrine.", player=player_ref(p.id), pieces=rings_text(req),
                   element=etext(element)),
            data={"player": p.id, "shrine": ename(element), "side": s.sides[k], "rings": req},
        )
    )


def _place(s: TatsumiState, p: Seat, e: str, space: int, events: list[Event]) -> None:
    """Put one ring on the island (TM-8); offering and Blackbird rings score the encircled rifts of their element."""
    lay = layout(p.island_key)
    t = s.turn
    p.island = put(p.island, space, e)
    if s.weather:
        weather.on_place(s, p, e, events)  # TM-13
    if t.mode == "blackbird":
        p.holding[e] -= 1
        t.bb_left -= 1
    else:
        t.to_place = t.to_place.replace(e, "", 1)
    events.append(
        Event(
            kind="place",
            text=T("{player} places a {element} ring on {space}.", player=player_ref(p.id), element=etext(e),
                   space=lay.names[space]),
            data={"player": p.id, "ring": ename(e), "space": lay.names[space], "mode": t.mode},
        )
    )
    if t.mode != "overflow":
        n = encircled(lay, p.island, e)
        score(s, p, n, "rift", N("{n} {element} rift encircled", "{n} {element} rifts encircled", n=n, element=etext(e)),
              events)
    if t.mode == "blackbird":
        if t.bb_left <= 0 or not any(p.holding[x] and legal_spaces(lay, p.island, x) for x in D.ELEMENTS):
            _batch_done(s, p, events)
    elif not t.to_place:
        _batch_done(s, p, events)
    elif t.mode == "overflow":
        _check_stuck(s, p, events)


def _check_stuck(s: TatsumiState, p: Seat, events: list[Event]) -> None:
    """Overflow rings that cannot be placed stay in holding and end the game (TM-12)."""
    t = s.turn
    if t.to_place and not legal_spaces(layout(p.island_key), p.island, t.to_place[0]):
        e = t.to_place[0]
        p.holding[e] += len(t.to_place)
        events.append(
            Event(
                kind="stuck",
                text=N("{player} cannot place {n} {element} ring; it stays in holding.",
                       "{player} cannot place {n} {element} rings; they stay in holding.", n=len(t.to_place),
                       player=player_ref(p.id), element=etext(e)),
                data={"player": p.id, "element": ename(e), "count": len(t.to_place)},
            )
        )
        t.to_place = ""
        trigger_end(s, T("{player} could not place a ring", player=player_ref(p.id)), events)
        _batch_done(s, p, events)


def _batch_done(s: TatsumiState, p: Seat, events: list[Event]) -> None:
    """After a run of placements: the shrine's scale and flip (offering steps 2-3), then unlocked blessings
    (step 4), then back to the turn (or on to its end after an overflow)."""
    t = s.turn
    lay = layout(p.island_key)
    mode = t.mode
    if mode == "offer":
        k = t.shrine
        if s.sides[k] == "back" and p.scales_beside > 0:
            p.scales_beside -= 1
            if s.cards[k] == "flying_fish":
                t.scale_queue.append("fish")
            else:
                place_scale(s, p, k, "shrine", events)
        s.sides[k] = "back" if s.sides[k] == "front" else "front"
        events.append(
            Event(
                kind="flip",
                text=T("The {element} shrine turns to its front.", element=etext(s.shrines[k])) if s.sides[k] == "front"
                else T("The {element} shrine turns to its back.", element=etext(s.shrines[k])),
                data={"shrine": ename(s.shrines[k]), "side": s.sides[k]},
            )
        )
    for b in range(len(lay.blessings)):
        if not p.blessings[b] and blessing_met(lay, p.island, b):
            p.blessings[b] = True
            t.scale_queue.append(f"blessing:{lay.names[lay.blessings[b][0]]}")
            events.append(
                Event(
                    kind="blessing",
                    text=T("{player} unlocks the island blessing on {space}.", player=player_ref(p.id),
                           space=lay.names[lay.blessings[b][0]]),
                    data={"player": p.id, "space": lay.names[lay.blessings[b][0]]},
                )
            )
    t.mode = ""
    t.to_place = ""
    t.bb_left = 0
    t.shrine = -1
    t.resume = "finish" if mode == "overflow" else "main"
    if t.scale_queue:
        t.stage = "scale"
    else:
        _resume(s, p, events)


def _resume(s: TatsumiState, p: Seat, events: list[Event]) -> None:
    t = s.turn
    if t.resume == "finish":
        _finish(s, p, events)
    else:
        t.stage = "main"


def _end_turn(s: TatsumiState, p: Seat, events: list[Event]) -> None:
    """End of turn: overflow when the holding has more than 3 elements (TM-5), then the turn closes."""
    if sum(1 for e in D.ELEMENTS if p.holding[e]) > 3:
        s.turn.stage = "overflow"
        return
    _finish(s, p, events)


def _finish(s: TatsumiState, p: Seat, events: list[Event]) -> None:
    """Duck scores on a depleted well (TM-11); the next seat plays, or the game ends after the round (TM-12)."""
    if not s.wells[p.well]:
        duck = scales_on(s, p, "duck")
        score(s, p, 2 * duck, "duck", T("{card}, turn ended on a depleted well", card=D.CARD_TITLES["duck"]), events)
    if s.solo is not None and solo.after_turn(s, events):  # TM-14: the Tekitatsu, upkeep, the next solo card
        return
    if s.end_triggered and s.current == len(s.seats) - 1:
        _game_over(s, events)
        return
    s.current = (s.current + 1) % len(s.seats)
    if s.current == 0:
        s.round += 1
    s.turn = Turn()


def _game_over(s: TatsumiState, events: list[Event]) -> None:
    """Elemental Mastery for every island (TM-12), then the game is over."""
    s.over = True
    s.turn = Turn(stage="over")
    for p in s.seats:
        m = mastery(layout(p.island_key), p.island)
        total = sum(m.values())
        detail = Text.join(D.COMMA, [T("{element} {n}", element=etext(e), n=m[e]) for e in D.ELEMENTS])
        score(s, p, total, "mastery", T("Elemental Mastery: {detail}", detail=detail), events)
    best = max(p.fortune for p in s.seats)
    s.interrupts.clear()  # (only a resignation can end the game with module decisions pending)
    if s.solo is not None:
        events.append(solo.rank_event(s))
    text = T("The game is over: {scores}.", scores=Text.join(D.COMMA, [T("{player} {n}", player=player_ref(p.id),
                                                                        n=p.fortune) for p in s.seats]))
    if s.solo is not None:  # a rank, not a winner (rulebook "Solo-mode Scoring Rank")
        p = s.seats[0]
        text = T("The solo game is over: {player} {n} fortune, rank {rank}.", player=player_ref(p.id), n=p.fortune,
                 rank=rank_name(p.fortune))
    events.append(
        Event(
            kind="game_over",
            text=text,
            data={"scores": {p.id: p.fortune for p in s.seats}, "best": best},
        )
    )


def advance(s: TatsumiState, events: list[Event]) -> None:
    """Apply every lone choice by itself (RULINGS C-3) until a real decision or the end."""
    for _ in range(1000):
        if s.over:
            return
        opts = choices(s)
        if len(opts) != 1:
            if not opts:
                raise RuntimeError(f"tatsumi: stage {s.turn.stage!r} has no options")
            return
        act(s, opts[0][0], events)
    raise RuntimeError("tatsumi: advance did not settle")
