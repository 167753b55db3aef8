"""A simple greedy Tatsumi player: offer when possible, fly to where an offering or good gathering waits, place rings
for the most immediate fortune plus a share of Elemental Mastery, put scales where they pay most."""

from __future__ import annotations

import random
from typing import Any

from games.core import Decision
from games.search import Knowledge
from games.tatsumi import data as D
from games.tatsumi import dragons, rules, weather
from games.tatsumi.hints import explain
from games.tatsumi.island import blessing_met, encircled, layout, mastery, put
from games.tatsumi.seaboard import guarded_wells
from games.tatsumi.state import Seat, TatsumiState

_LASTING_VALUE = {"blackbird": 5, "butterfly": 4, "swallows": 2, "heron": 2, "duck": 2, "flying_fish": 0}


def _element_value(s: TatsumiState, p: Seat, e: str, holding: dict[str, int] | None = None) -> float:
    """How much one more ring of ``e`` helps ``p``: towards a shrine's requirement, without a 4th element."""
    h = holding or p.holding
    v = 0.0
    for k in range(4):
        req = rules.requirement(s, k)
        if req.count(e) > h[e]:
            v += 1.0
    kinds = sum(1 for x in D.ELEMENTS if h[x])
    if not h[e] and kinds >= 3:
        v -= 3.0
    return v


def _offer_possible(s: TatsumiState, p: Seat, well: int, holding: dict[str, int]) -> bool:
    reach = 1 + rules.scales_on(s, p, "butterfly")
    for k in range(4):
        if rules.shrine_distance(k, well) <= reach:
            req = rules.requirement(s, k)
            if all(holding[e] >= req.count(e) for e in set(req)):
                return True
    return False


def _fly_value(s: TatsumiState, p: Seat, dest: int, acted: bool) -> float:
    h = dict(p.holding)
    here = s.wells[p.well]
    if here:
        h[here[-1]] += 1
    v = 0.0
    if not acted:
        if _offer_possible(s, p, dest, h):
            v += 10.0
        else:
            guarded = guarded_wells(s, p)
            tops = sorted(
                (
                    _element_value(s, p, s.wells[w][-1], h)
                    for w in rules.ORTHO[dest]
                    if w not in guarded and s.wells[w]
                ),
                reverse=True,
            )
            v += sum(2.0 + t for t in tops[:2])
    return v


def _place_value(s: TatsumiState, p: Seat, oid: str) -> float:
    lay = layout(p.island_key)
    name, space = oid.split("@")
    e = D.ELEMENT_CODES[name]
    i = lay.index(space)
    after = put(p.island, i, e)
    gain = encircled(lay, after, e) if s.turn.mode != "overflow" else 0
    m0 = sum(mastery(lay, p.island).values())
    m1 = sum(mastery(lay, after).values())
    bless = sum(3.0 for b in range(len(lay.blessings)) if not p.blessings[b] and blessing_met(lay, after, b))
    rift_bonus = 0.5 if lay.rift[i] else 0.0
    return 3.0 * gain + (m1 - m0) + bless + rift_bonus


def choose(s: TatsumiState, decision: Decision, rng: Any) -> str | None:
    """The greedy option id for ``decision`` (None falls back to random)."""
    ids = [o.id for o in decision.options]
    if not ids:
        return None
    if s.interrupts:
        return weather.greedy(s, ids, rng) if not s.interrupts[0].startswith("solo:") else ids[0]
    p = s.seats[s.current]
    t = s.turn
    st = t.stage
    if st == "main":
        offers = [i for i in ids if i.startswith("offer:")]
        if offers:
            return max(
                offers, key=lambda i: len(rules.requirement(s, s.shrines.index(D.ELEMENT_CODES[i[6:]])))
            )
        if "blackbird" in ids:
            return "blackbird"
        flies = [i for i in ids if i.startswith("fly:")]
        if flies:
            return max(flies, key=lambda i: (_fly_value(s, p, D.WELL_INDEX[i[4:]], t.acted), rng.random()))
        gathers = [i for i in ids if i.startswith("gather:")]
        if gathers:
            return max(
                gathers, key=lambda i: (_element_value(s, p, s.wells[D.WELL_INDEX[i[7:]]][-1]), rng.random())
            )
        specials = [i for i in ids if i.startswith(dragons.SPECIAL_PREFIXES)]
        if specials:  # Karyusama, Fujinsama, Mizuchisama (games.tatsumi.dragons)
            return max(specials, key=lambda i: (dragons.greedy_value(s, p, i), rng.random()))
        return ids[0]
    if st == "gather2":
        return max(ids, key=lambda i: (_element_value(s, p, s.wells[D.WELL_INDEX[i[7:]]][-1]), rng.random()))
    if st == "place":
        places = [i for i in ids if i != "stop"]
        if not places:
            return "stop"
        return max(places, key=lambda i: (_place_value(s, p, i), rng.random()))
    if st == "overflow":
        return min(ids, key=lambda i: p.holding[D.ELEMENT_CODES[i[9:]]])
    if st == "scale":

        def val(i: str) -> float:
            card = i[5:]
            if card in D.SCORING_CARDS:
                return rules.card_value(s, p, card, extra=1)
            return _LASTING_VALUE.get(card, 1)

        return max(ids, key=val)
    return None


# -- AI seats: the strong search's knowledge ------------------------------------------------------------------


RING_HELD = 0.4
"""Horizon worth of one ring in holding (fortune to come)."""


def _held_value(s: TatsumiState, p: Seat) -> float:
    """The horizon worth of ``p``'s holding (fortune to come): :data:`RING_HELD` a ring (weighting rings a
    shrine asks for, TM-6, did not measure better; not kept)."""
    return RING_HELD * sum(p.holding.values())


def evaluate(s: TatsumiState) -> dict[str, float]:
    """Heuristic score per player at the strong search's horizon: fortune, plus the Elemental Mastery the island
    would score now (counted at the end, TM-12), plus the holding's worth (:func:`_held_value`, fortune to come)."""
    if s.over:
        return {p.id: float(p.fortune) for p in s.seats}
    return {p.id: p.fortune + sum(mastery(layout(p.island_key), p.island).values()) + _held_value(s, p)
            for p in s.seats}


TABLE_CANDIDATES = 12
"""How many options the strong search compares at a table: the roll-outs are nearly deterministic (every ring is
in sight; only the greedy players' ties are drawn), so a few samples tell an option's worth and the budget is
better spent on more options than on more samples of the same few."""
SOLO_CANDIDATES = 6
"""How many options the strong search compares alone (solo, TM-14: the solo deck is drawn afresh per sample)."""


def candidates(s: TatsumiState, decision: Decision, rng: Any) -> list[str]:
    """The options worth searching, best first by the greedy player's own values (placing: :func:`_place_value`,
    flying: :func:`_fly_value`, gathering: :func:`_element_value`; otherwise the greedy option first): at most
    :data:`TABLE_CANDIDATES` at a table, :data:`SOLO_CANDIDATES` alone."""
    return _ranked(s, decision, rng)[: SOLO_CANDIDATES if s.solo is not None else TABLE_CANDIDATES]


def _ranked(s: TatsumiState, decision: Decision, rng: Any) -> list[str]:
    ids = [o.id for o in decision.options]
    best = choose(s, decision, rng)
    head = [best] if best in ids else []
    if s.interrupts or not ids:
        return head + [i for i in ids if i != best]
    p = s.seats[s.current]
    st = s.turn.stage

    def value(i: str) -> float:
        if st == "place" and i != "stop":
            return _place_value(s, p, i)
        if i.startswith("fly:"):
            return _fly_value(s, p, D.WELL_INDEX[i[4:]], s.turn.acted)
        if i.startswith("gather:") and s.wells[D.WELL_INDEX[i[7:]]]:
            return _element_value(s, p, s.wells[D.WELL_INDEX[i[7:]]][-1])
        return -100.0

    rest = sorted((i for i in ids if i != best), key=lambda i: -value(i))
    return head + rest


def determinise(s: TatsumiState, rng: random.Random) -> TatsumiState:
    """Solo mode's face-down solo deck re-dealt (TM-14); everything else in Tatsumi is open."""
    if s.solo is None or len(s.solo.deck) < 2:
        return s
    deck = rng.sample(s.solo.deck, len(s.solo.deck))
    return s.model_copy(update={"solo": s.solo.model_copy(update={"deck": deck})})


ROLLOUT_TURNS = 2
"""The strong search's horizon alone (solo, TM-14), in changes of the player to move."""

HORIZON_EXTRA = 1
"""Turns the roll-out plays past the round: 1, the searching seat's own next turn, so that rings gathered now are
judged by the offering they make possible (rulebook "Offering") rather than by a guess at the horizon."""


def rollout_turns(s: TatsumiState) -> int:
    """The strong search's horizon in changes of the player to move, counted from the position after the searched
    option: the searching seat's turn ends, every other seat plays its turn once, then the searching seat plays
    :data:`HORIZON_EXTRA` more turns (the same horizon whether the option ended the searching seat's turn or not,
    and in 3-4 player games every opponent answers); alone (solo, TM-14) :data:`ROLLOUT_TURNS`.

    Mid-turn (the seat to move has flown or acted) the seat to move is the searching seat: ``n`` changes back to
    it (``n`` seats); at a fresh turn the option ended the searching seat's turn: ``n - 1``; plus
    :data:`HORIZON_EXTRA`."""
    n = len(s.seats)
    if n == 1:
        return ROLLOUT_TURNS
    t = s.turn
    fresh = not s.interrupts and t.stage == "main" and not t.flown and not t.acted
    return (n - 1 if fresh else n) + HORIZON_EXTRA


def rollout_decisions(s: TatsumiState) -> int:
    """The strong search's horizon in decisions: 15 a seat at a table (a turn asks at most about 8, so
    :func:`rollout_turns` ends it sooner), 12 alone (solo, TM-14, has no other player whose turn would end a
    roll-out)."""
    return 12 if s.solo is not None else 15 * len(s.seats)


def _labels(lay, island: str, element: str) -> tuple[list[int], list[int]]:
    """Connected groups of ``element`` rings on ``island``: (group label per space, -1 where none; group sizes)."""
    label = [-1] * len(island)
    sizes: list[int] = []
    for i, c in enumerate(island):
        if c != element or label[i] >= 0:
            continue
        g = len(sizes)
        label[i] = g
        stack = [i]
        n = 0
        while stack:
            a = stack.pop()
            n += 1
            for b in lay.adj[a]:
                if label[b] < 0 and island[b] == element:
                    label[b] = g
                    stack.append(b)
        sizes.append(n)
    return label, sizes


def mastery_gain(lay, island: str, space: int, element: str, groups: tuple[list[int], list[int]] | None = None) -> int:
    """How much Elemental Mastery (rulebook "End Game Scoring", TM-12) one ring of ``element`` put on empty
    ``space`` adds to ``island``: ``sum(mastery(after)) - sum(mastery(island))`` without scoring both islands.
    ``groups`` is :func:`_labels` of ``element`` on ``island`` when already known (water and lightning)."""
    adj = lay.adj[space]
    if element == "F":
        gain = 5 if (island.count("F") + 1) % 3 == 0 else 0
    elif element == "N":
        gain = len({island[j] for j in adj} - {".", "N"})
    else:
        label, sizes = groups if groups is not None else _labels(lay, island, element)
        near = {label[j] for j in adj if label[j] >= 0}
        if element == "L":
            gain = 2 * (1 - len(near))
        else:
            biggest = max(sizes, default=0)
            merged = 1 + sum(sizes[g] for g in near)
            gain = 2 * (max(biggest, merged) - biggest)
    if element != "N":
        for j in adj:
            if island[j] == "N" and all(island[k] != element for k in lay.adj[j]):
                gain += 1
    return gain


def _fast_place(s: TatsumiState, p: Seat, places: list[str], rng: Any) -> str:
    """The greedy placing choice (:func:`choose`, stage ``place``: the best :func:`_place_value`, ties broken by one
    ``rng.random()`` per option in order) computed with :func:`mastery_gain` instead of two masteries per option."""
    lay = layout(p.island_key)
    island = p.island
    overflow = s.turn.mode == "overflow"
    groups: dict[str, tuple[list[int], list[int]]] = {}
    base = {e: encircled(lay, island, e) for e in D.ELEMENTS} if not overflow else {}
    best, best_key = places[0], None
    for oid in places:
        name, space = oid.split("@")
        e = D.ELEMENT_CODES[name]
        i = lay.index(space)
        if e in ("W", "L") and e not in groups:
            groups[e] = _labels(lay, island, e)
        rift = bool(lay.rift[i])
        gain = 0 if overflow else base[e] + (1 if rift else 0)
        v = 3.0 * gain + mastery_gain(lay, island, i, e, groups.get(e))
        if any(i in lay.blessings[b] for b in range(len(lay.blessings))):
            after = put(island, i, e)
            v += sum(3.0 for b in range(len(lay.blessings)) if not p.blessings[b] and blessing_met(lay, after, b))
        else:
            v += sum(3.0 for b in range(len(lay.blessings)) if not p.blessings[b] and blessing_met(lay, island, b))
        v += 0.5 if rift else 0.0
        key = (v, rng.random())
        if best_key is None or key > best_key:
            best, best_key = oid, key
    return best


def rollout_choice(s: TatsumiState, decision: Decision, rng: Any) -> str | None:
    """The strong search's roll-out policy: the greedy player's own choice (:func:`choose`, the normal level, so
    every seat is modelled as it plays), placing computed faster (:func:`_fast_place`); None (the search then asks
    :func:`choose`) elsewhere."""
    if s.interrupts or s.turn.stage != "place":
        return None
    places = [o.id for o in decision.options if o.id != "stop"]
    if not places:
        return "stop"
    return _fast_place(s, s.seats[s.current], places, rng)


KNOWLEDGE: Knowledge[TatsumiState] = Knowledge(
    evaluate=evaluate, eval_scale=6.0, solo_reference=100, rollout_turns=rollout_turns,
    rollout_decisions=rollout_decisions, determinise=determinise, rollout_choice=rollout_choice,
    candidates=candidates, explain=explain,
)
"""What the strong search knows of Tatsumi (``games.search.Knowledge``): fortune, mastery and holding at a horizon
of a round and the searching seat's next turn, solo measured against a fortune of 100 (rulebook "Solo-mode Scoring
Rank"), the solo deck re-dealt, placing rolled out by :func:`_fast_place`."""
