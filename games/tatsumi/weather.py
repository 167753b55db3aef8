"""The weather module (rulebook "Weather Module"; RULINGS TM-13): a minor and a major weather card, their sand
dollars beside them, on them or in the seaboard, triggering and neutralising, the swap events, and the choice of
which sand dollar goes into a depleted well.

Sand dollars: the 13 are split 5 (minor card) + 8 (major card). Each lies beside its card, on its card, or in a
depleted well. A claim of an element adds one from beside onto that element's card, once a turn (and once per
Tekitatsu in solo); a placement of that element on the island takes one off the card back beside it, once a turn.
When none lies beside a card and some lie on it, the card triggers: every player (seat order from the current one)
swaps one ring of the element with an adjacent ring of another element on their island (two swaps for the major
card, the second never exchanging the same two spaces again: TM-18), never breaking a rift (both rings must stand on
plain spaces: TM-8), skipping when none is legal; then the card's sand dollars go back beside it. When all of a
card's sand dollars are in the seaboard it is neutralised.

Decisions that pause the turn are queued in ``state.interrupts`` (see :func:`games.tatsumi.rules.decider`):
``sand:<well>`` (the current player chooses the sand dollar for a depleted well), ``swap:<seat>:<element>:<n>``
(that seat makes ``n`` more swaps; after a major event's first swap, ``swap:<seat>:<element>:1:<a>-<b>`` names the
two spaces just exchanged, TM-18), ``wscale:<seat>:<blessing>`` (a blessing unlocked by a swap: that seat puts the
scale on a card). Everything here mutates the state it is given.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, N, T, Text, player_ref
from games.tatsumi import data as D
from games.tatsumi.cards import card_value, place_scale, scale_cards
from games.tatsumi.island import EMPTY, Layout, blessing_met, layout, mastery
from games.tatsumi.solo_data import WEATHER_SAND, WEATHER_SWAPS, weather_name
from games.tatsumi.state import Seat, TatsumiState, WeatherCard

Choice = tuple[str, str]


# --------------------------------------------------------------------------------------------------------------
# Setup and small helpers


def setup(s: TatsumiState) -> None:
    """Weather setup (rulebook "Weather Setup"): two different elements at random from the seed, the first on its
    minor side with 5 sand dollars beside it, the second on its major side with 8."""
    minor, major = s.rng.shuffled(list(D.ELEMENTS))[:2]
    s.weather = [
        WeatherCard(element=minor, side="minor", total=WEATHER_SAND["minor"]),
        WeatherCard(element=major, side="major", total=WEATHER_SAND["major"]),
    ]


def title(c: WeatherCard) -> Text:
    """``"Wildfire (minor fire)"``."""
    if c.side == "minor":
        return T("{name} (minor {element})", name=weather_name(c.element, c.side), element=D.ELEMENT_TEXT[c.element])
    return T("{name} (major {element})", name=weather_name(c.element, c.side), element=D.ELEMENT_TEXT[c.element])


def card_for(s: TatsumiState, element: str) -> WeatherCard | None:
    """The weather card of ``element`` in play (not neutralised), or None."""
    for c in s.weather:
        if c.element == element and not c.neutralized:
            return c
    return None


def push(s: TatsumiState, item: str) -> None:
    """Queue interrupt ``item`` after the other module decisions but before the solo step (``solo:…``)."""
    q = s.interrupts
    for k, it in enumerate(q):
        if it.startswith("solo:"):
            q.insert(k, item)
            return
    q.append(item)


# --------------------------------------------------------------------------------------------------------------
# Upkeeping sand dollars (rulebook "Upkeeping Sand Dollars")


def add(s: TatsumiState, c: WeatherCard, who: str, events: list[Event], verb: str = "claims") -> None:
    """One sand dollar from beside ``c`` onto it (``who`` ``verb`` a ring of its element), then the trigger check."""
    if c.neutralized or c.beside <= 0:
        return
    c.on_card += 1
    events.append(
        Event(
            kind="weather_add",
            text=(T("{who} washes away {element}: a sand dollar onto {card} ({n} on it, {beside} beside).", who=who,
                    element=D.ELEMENT_TEXT[c.element], card=title(c), n=c.on_card, beside=c.beside)
                  if verb == "washes away" else
                  T("{who} claims {element}: a sand dollar onto {card} ({n} on it, {beside} beside).", who=who,
                    element=D.ELEMENT_TEXT[c.element], card=title(c), n=c.on_card, beside=c.beside)),
            data={"element": D.ELEMENT_NAMES[c.element], "side": c.side, "on_card": c.on_card},
        )
    )
    check(s, c, events)


def on_claim(s: TatsumiState, p: Seat, ring: str, events: list[Event]) -> None:
    """``p`` claimed a ``ring`` from the seaboard: its card gets a sand dollar, once a turn per element (TM-13)."""
    c = card_for(s, ring)
    if c is None or ring in s.turn.weather_in:
        return
    s.turn.weather_in += ring
    add(s, c, player_ref(p.id), events)


def on_place(s: TatsumiState, p: Seat, ring: str, events: list[Event]) -> None:
    """``p`` placed a ``ring`` on the island: one sand dollar leaves its card (back beside it), once a turn per
    element (TM-13; a turn in which the card holds none removes nothing yet)."""
    c = card_for(s, ring)
    if c is None or ring in s.turn.weather_out or c.on_card <= 0:
        return
    s.turn.weather_out += ring
    c.on_card -= 1
    events.append(
        Event(
            kind="weather_remove",
            text=T("{player} places {element}: a sand dollar leaves {card} ({n} on it, {beside} beside).",
                   player=player_ref(p.id), element=D.ELEMENT_TEXT[ring], card=title(c), n=c.on_card, beside=c.beside),
            data={"element": D.ELEMENT_NAMES[ring], "side": c.side, "on_card": c.on_card},
        )
    )


def on_deplete(s: TatsumiState, well: int) -> None:
    """A sand dollar went into depleted ``well``: the current player will choose which one (rulebook "Placing Sand
    Dollars into Depleted Seawells")."""
    push(s, f"sand:{D.WELL_NAMES[well]}")


def sand_choices(s: TatsumiState, well: str) -> list[Choice]:
    """Where the sand dollar for ``well`` may come from: each card in play, off it or from beside it (labels:
    ``"sand dollar off Thunderclap (2 on it) into b3"``, ``"sand dollar from beside Thunderclap (3 beside it) into
    b3"``)."""
    out = []
    for c in s.weather:
        if c.neutralized:
            continue
        if c.on_card:
            out.append(
                (f"sand:{c.side}:card", T("sand dollar off {card} ({n} on it) into {well}", card=title(c), n=c.on_card,
                                          well=well))
            )
        if c.beside:
            out.append(
                (f"sand:{c.side}:beside", T("sand dollar from beside {card} ({n} beside it) into {well}", card=title(c),
                                            n=c.beside, well=well))
            )
    return out


def place_sand(s: TatsumiState, well: str, oid: str, events: list[Event]) -> None:
    """Move the chosen sand dollar (``sand:<side>:<card|beside>``) into ``well``; then the card's checks."""
    _, side, where = oid.split(":")
    c = next(c for c in s.weather if c.side == side)
    if where == "card":
        c.on_card -= 1
    c.in_wells += 1
    events.append(
        Event(
            kind="weather_sand",
            text=(T("The sand dollar in {well} comes off {card} ({n} on it, {beside} beside, {sea} in the sea).",
                    well=well, card=title(c), n=c.on_card, beside=c.beside, sea=c.in_wells) if where == "card" else
                  T("The sand dollar in {well} comes from beside {card} ({n} on it, {beside} beside, {sea} in the "
                    "sea).", well=well, card=title(c), n=c.on_card, beside=c.beside, sea=c.in_wells)),
            data={"well": well, "side": side, "from": where},
        )
    )
    check(s, c, events)


def check(s: TatsumiState, c: WeatherCard, events: list[Event]) -> None:
    """Neutralise ``c`` when all its sand dollars are in the seaboard; trigger it when none lies beside it and some
    lie on it (rulebook "Triggering Weather Events")."""
    if c.neutralized:
        return
    if c.in_wells >= c.total:
        c.neutralized = True
        c.on_card = 0
        events.append(
            Event(
                kind="weather_neutralized",
                text=T("All sand dollars of {card} are in the sea: the card is neutralised.", card=title(c)),
                data={"element": D.ELEMENT_NAMES[c.element], "side": c.side},
            )
        )
    elif c.beside == 0 and c.on_card > 0:
        trigger(s, c, events)


def trigger(s: TatsumiState, c: WeatherCard, events: list[Event]) -> None:
    """``c``'s event: every seat, from the current one on, swaps ``WEATHER_SWAPS[side]`` times; the card's sand
    dollars go back beside it."""
    c.triggered += 1
    c.on_card = 0
    n = WEATHER_SWAPS[c.side]
    events.append(
        Event(
            kind="weather",
            text=N("{name}! Every island swaps {n} {element} ring with a neighbour of another element; its sand "
                   "dollars go back beside it.",
                   "{name}! Every island swaps {n} {element} rings with a neighbour of another element; its sand "
                   "dollars go back beside it.", n=n, name=weather_name(c.element, c.side),
                   element=D.ELEMENT_TEXT[c.element]),
            data={"element": D.ELEMENT_NAMES[c.element], "side": c.side, "swaps": n},
        )
    )
    k = len(s.seats)
    for i in range(k):
        push(s, f"swap:{(s.current + i) % k}:{c.element}:{n}")


# --------------------------------------------------------------------------------------------------------------
# Swaps (TM-13)


def swap_pairs(lay: Layout, island: str, element: str) -> list[tuple[int, int]]:
    """Legal swaps on ``island``: (space of an ``element`` ring, adjacent space of a ring of another element), both
    plain spaces (a rift holds only its element, TM-8); in space order."""
    rift = lay.rift
    out = []
    for i, c in enumerate(island):
        if c != element or rift[i]:
            continue
        for j in lay.adj[i]:
            x = island[j]
            if x != EMPTY and x != element and not rift[j]:
                out.append((i, j))
    return out


def _swap(island: str, i: int, j: int) -> str:
    cells = list(island)
    cells[i], cells[j] = cells[j], cells[i]
    return "".join(cells)


def _swap_choices(s: TatsumiState, seat: int, element: str, last: str = "") -> list[Choice]:
    """The swaps open to ``seat`` (``skip`` alone when none is legal). ``last`` (``"B3-C3"``) is the event's
    previous swap: the same two spaces may not be exchanged again (TM-18: the second swap of a major event may not
    undo the first)."""
    p = s.seats[seat]
    lay = layout(p.island_key)
    pairs = swap_pairs(lay, p.island, element)
    if last:
        undo = {lay.index(x) for x in last.split("-")}
        pairs = [(i, j) for i, j in pairs if {i, j} != undo]
    if not pairs:
        return [("skip", T("no legal swap: skip"))]
    e = D.ELEMENT_TEXT[element]
    return [
        (
            f"swap:{lay.names[i]}-{lay.names[j]}",
            T("swap {element} on {space} with {other} on {to}", element=e, space=lay.names[i],
              other=D.ELEMENT_TEXT[p.island[j]], to=lay.names[j]),
        )
        for i, j in pairs
    ]


def _do_swap(s: TatsumiState, item: str, oid: str, events: list[Event]) -> None:
    _, seat_s, element, n_s = item.split(":")[:4]
    seat, n = int(seat_s), int(n_s)
    p = s.seats[seat]
    lay = layout(p.island_key)
    if oid == "skip":
        s.interrupts.pop(0)
        events.append(
            Event(
                kind="weather_skip",
                text=T("{player} has no legal {element} swap.", player=player_ref(p.id), element=D.ELEMENT_TEXT[element]),
                data={"player": p.id},
            )
        )
        return
    a, b = oid[5:].split("-")
    i, j = lay.index(a), lay.index(b)
    other = p.island[j]
    p.island = _swap(p.island, i, j)
    events.append(
        Event(
            kind="weather_swap",
            text=T("{player} swaps {element} on {space} with {other} on {to}.", player=player_ref(p.id),
                   element=D.ELEMENT_TEXT[element], space=a, other=D.ELEMENT_TEXT[other], to=b),
            data={"player": p.id, "from": a, "to": b, "element": D.ELEMENT_NAMES[element]},
        )
    )
    if n > 1:
        s.interrupts[0] = f"swap:{seat}:{element}:{n - 1}:{a}-{b}"  # TM-18: remembered so it is not undone
    else:
        s.interrupts.pop(0)
    # Blessings unlocked by moved rings (rulebook "Island Blessings"): the scale is placed at once.
    for bl in range(len(lay.blessings) - 1, -1, -1):
        if not p.blessings[bl] and blessing_met(lay, p.island, bl):
            s.interrupts.insert(0, f"wscale:{seat}:{bl}")
            events.append(
                Event(
                    kind="blessing",
                    text=T("{player} unlocks the island blessing on {space}.", player=player_ref(p.id),
                           space=lay.names[lay.blessings[bl][0]]),
                    data={"player": p.id, "space": lay.names[lay.blessings[bl][0]]},
                )
            )


def _scale_choices(s: TatsumiState, seat: int) -> list[Choice]:
    p = s.seats[seat]
    out = []
    for k in scale_cards(s):
        card = s.cards[k]
        if card in D.SCORING_CARDS:
            out.append((f"card:{card}", T("{card} (+{n})", card=D.CARD_TITLES[card], n=card_value(s, p, card, extra=1))))
        else:
            out.append((f"card:{card}", T("{card} (lasting)", card=D.CARD_TITLES[card])))
    return out


def on_resign(s: TatsumiState, k: int, was_turn: bool, events: list[Event]) -> None:
    """Seat ``k`` has just left (already removed from ``s.seats``): its swaps and scales are dropped, later seats
    renumbered; if it was its turn, its pending sand dollar choices are made by the engine (the first source
    listed), so the next player starts a clean turn."""
    out = []
    for it in s.interrupts:
        head = it.split(":")
        if head[0] in ("swap", "wscale"):
            seat = int(head[1])
            if seat == k:
                continue
            if seat > k:
                head[1] = str(seat - 1)
        out.append(":".join(head))
    s.interrupts = out
    if was_turn:
        while s.interrupts and s.interrupts[0].startswith("sand:"):
            well = s.interrupts.pop(0)[5:]
            place_sand(s, well, sand_choices(s, well)[0][0], events)


# --------------------------------------------------------------------------------------------------------------
# The interrupt interface used by :mod:`games.tatsumi.rules`


def seat(s: TatsumiState, item: str) -> int:
    """The seat answering ``item``: the named seat of a swap or scale, the current seat for a sand dollar."""
    if item.startswith(("swap:", "wscale:")):
        return int(item.split(":")[1])
    return s.current


def kind(item: str) -> str:
    return {"sand": "sand", "swap": "swap", "wscale": "scale"}[item.split(":")[0]]


def choices(s: TatsumiState, item: str) -> list[Choice]:
    """The (id, label) choices of interrupt ``item``."""
    head = item.split(":")
    if head[0] == "sand":
        return sand_choices(s, head[1])
    if head[0] == "swap":
        return _swap_choices(s, int(head[1]), head[2], head[4] if len(head) > 4 else "")
    return _scale_choices(s, int(head[1]))


def act(s: TatsumiState, item: str, oid: str, events: list[Event]) -> None:
    """Apply option ``oid`` (already validated) of interrupt ``item`` (the first of ``s.interrupts``)."""
    head = item.split(":")
    if head[0] == "sand":
        s.interrupts.pop(0)
        place_sand(s, head[1], oid, events)
    elif head[0] == "swap":
        _do_swap(s, item, oid, events)
    else:
        s.interrupts.pop(0)
        p = s.seats[int(head[1])]
        p.blessings[int(head[2])] = True
        place_scale(s, p, s.cards.index(oid[5:]), "island blessing", events)


def prompt(s: TatsumiState, item: str) -> str:
    head = item.split(":")
    who = player_ref(s.seats[seat(s, item)].id)
    if head[0] == "sand":
        return T("{player}: {well} is depleted — choose which sand dollar goes into it.", player=who, well=head[1])
    if head[0] == "swap":
        e = D.ELEMENT_TEXT[head[2]]
        if len(head) > 4:  # TM-18: the second swap of a major event
            a, b = head[4].split("-")
            return T("{player}: weather — the second {element} swap (not {space} with {to} back).", player=who,
                     element=e, space=a, to=b)
        return T("{player}: weather — swap a {element} ring with an adjacent ring of another element ({n} to go).",
                 player=who, element=e, n=int(head[3]))
    lay = layout(s.seats[int(head[1])].island_key)
    space = lay.names[lay.blessings[int(head[2])][0]]
    more = sum(1 for it in s.interrupts[1:] if it.startswith(f"wscale:{head[1]}:"))
    if more:
        return T("{player}: place the scale of the island blessing on {space} (unlocked by the weather) on a summoning "
                 "card ({n} more to place after it).", player=who, space=space, n=more)
    return T("{player}: place the scale of the island blessing on {space} (unlocked by the weather) on a summoning "
             "card.", player=who, space=space)


def status(s: TatsumiState) -> str:
    """``"weather Wildfire 2 on/3 beside, Typhoon neutralised"``."""
    parts = []
    for c in s.weather:
        name = weather_name(c.element, c.side)
        parts.append(T("{name} neutralised", name=name) if c.neutralized else
                     T("{name} {n} on/{beside} beside", name=name, n=c.on_card, beside=c.beside))
    return T("weather {cards}", cards=Text.join(D.COMMA, parts))


# --------------------------------------------------------------------------------------------------------------
# Greedy answers (used by :func:`games.tatsumi.ai.choose`)


def greedy(s: TatsumiState, ids: list[str], rng: Any) -> str | None:
    """A simple choice for an interrupt: sand dollars off the most threatening card (fewest beside), else from
    beside the calmest one; the swap that loses the least Elemental Mastery; the scale on the best-paying card."""
    item = s.interrupts[0]
    head = item.split(":")
    if head[0] == "sand":

        def sand_key(oid: str) -> tuple:
            _, side, where = oid.split(":")
            c = next(c for c in s.weather if c.side == side)
            return (where == "card", -c.beside if where == "card" else c.beside, rng.random())

        return max(ids, key=sand_key)
    if head[0] == "swap":
        p = s.seats[int(head[1])]
        lay = layout(p.island_key)

        def swap_key(oid: str) -> tuple:
            if oid == "skip":
                return (0.0, 0.0)
            a, b = oid[5:].split("-")
            after = _swap(p.island, lay.index(a), lay.index(b))
            bless = sum(
                5 for bl in range(len(lay.blessings)) if not p.blessings[bl] and blessing_met(lay, after, bl)
            )
            return (sum(mastery(lay, after).values()) + bless, rng.random())

        return max(ids, key=swap_key)
    p = s.seats[int(head[1])]

    def card_key(oid: str) -> float:
        card = oid[5:]
        return card_value(s, p, card, extra=1) if card in D.SCORING_CARDS else 3

    return max(ids, key=card_key)
