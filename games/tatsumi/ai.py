"""A simple greedy Tatsumi player: offer when possible, fly to where an offering or good gathering waits, place rings
for the most immediate fortune plus a share of Elemental Mastery, put scales where they pay most."""

from __future__ import annotations

import random
from typing import Any

from games.core import Decision
from games.tatsumi import data as D
from games.tatsumi import dragons, rules, weather
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


# -- AI seats (issue 14): the strong search's knowledge ---------------------------------------------------------


def evaluate(s: TatsumiState) -> dict[str, float]:
    """Heuristic score per player at the strong search's horizon: fortune, plus the Elemental Mastery the island
    would score now (counted at the end, TM-12), plus a little for rings held (fortune to come)."""
    if s.over:
        return {p.id: float(p.fortune) for p in s.seats}
    return {p.id: p.fortune + sum(mastery(layout(p.island_key), p.island).values()) + 0.4 * sum(p.holding.values())
            for p in s.seats}


def candidates(s: TatsumiState, decision: Decision, rng: Any) -> list[str]:
    """The options worth searching, best first by the greedy player's own values (placing: :func:`_place_value`,
    flying: :func:`_fly_value`, gathering: :func:`_element_value`); otherwise the greedy option first."""
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


CANDIDATES = 6


def determinise(s: TatsumiState, rng: random.Random) -> TatsumiState:
    """Solo mode's face-down solo deck re-dealt (TM-14); everything else in Tatsumi is open."""
    if s.solo is None or len(s.solo.deck) < 2:
        return s
    deck = rng.sample(s.solo.deck, len(s.solo.deck))
    return s.model_copy(update={"solo": s.solo.model_copy(update={"deck": deck})})


EVAL_SCALE = 6.0
SOLO_REFERENCE = 100
ROLLOUT_TURNS = 2


def rollout_decisions(s: TatsumiState) -> int:
    """The strong search's horizon in decisions: 40 (two turns at a table end it sooner), 12 alone (solo, TM-14,
    has no other player whose turn would end a roll-out)."""
    return 12 if s.solo is not None else 40
