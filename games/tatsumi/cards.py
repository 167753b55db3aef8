"""Summoning cards and scales (RULINGS TM-10, TM-11): which card a scale may go on, what a scoring card pays,
how strong a lasting card is; and :func:`score`, the one place fortune is added."""

from __future__ import annotations

from games.core import Event, T, player_ref
from games.tatsumi import data as D
from games.tatsumi.island import encircled, inland_rings, layout, perimeter_rings
from games.tatsumi.state import Seat, TatsumiState


def card_slot(s: TatsumiState, card: str) -> int:
    """The edge index of ``card`` if it is in play, else -1."""
    try:
        return s.cards.index(card)
    except ValueError:
        return -1


def scales_on(s: TatsumiState, p: Seat, card: str) -> int:
    """``p``'s scales on ``card`` (0 when the card is not in play) — the strength of a lasting card (TM-11)."""
    k = card_slot(s, card)
    return p.cards[k] if k >= 0 else 0


def score(s: TatsumiState, p: Seat, amount: int, source: str, why: str, events: list[Event]) -> None:
    """Add ``amount`` fortune to ``p`` under ``source`` with one ``score`` event (nothing when 0)."""
    if amount <= 0:
        return
    p.fortune += amount
    p.scored[source] = p.scored.get(source, 0) + amount
    events.append(
        Event(
            kind="score",
            text=T("{player} scores {n} fortune ({why}).", player=player_ref(p.id), n=amount, why=why),
            data={"player": p.id, "amount": amount, "source": source},
        )
    )


# --------------------------------------------------------------------------------------------------------------
# Summoning cards (TM-10, TM-11)


def card_value(s: TatsumiState, p: Seat, card: str, extra: int = 0) -> int:
    """What scoring card ``card`` pays ``p`` now, its new scale already on a card (``extra`` counts scales not yet
    put down); 0 for lasting cards (TM-11)."""
    lay = layout(p.island_key)
    placed = sum(p.cards) + extra
    if card == "jellyfish":
        return 2 * placed
    if card in D.RIFT_CARDS:
        return placed + encircled(lay, p.island, D.RIFT_CARDS[card])
    if card == "lizard_claw":
        return D.LIZARD_CLAW[sum(1 for e in D.ELEMENTS if p.holding[e] > 0)]
    if card == "turtle":
        return perimeter_rings(lay, p.island)
    if card == "toad":
        return inland_rings(lay, p.island)
    if card == "monkey":
        return D.MONKEY[min(4, min(p.island.count(e) for e in D.ELEMENTS))]
    if card == "dragonfly":
        return p.island.count(p.element)
    return 0


SCALE_FROM = {"shrine": T("shrine"), "island blessing": T("island blessing"), "Flying Fish": D.CARD_TITLES["flying_fish"]}
"""Where a placed scale comes from (``place_scale``'s ``why``, kept in English in the event data) for people."""


def place_scale(s: TatsumiState, p: Seat, edge: int, why: str, events: list[Event]) -> None:
    """Put one of ``p``'s scales on the card above edge ``edge`` and apply its benefit (TM-10)."""
    card = s.cards[edge]
    p.cards[edge] += 1
    events.append(
        Event(
            kind="scale",
            text=T("{player} places a scale on {card} ({why}).", player=player_ref(p.id), card=D.CARD_TITLES[card],
                   why=SCALE_FROM.get(why, why)),
            data={"player": p.id, "card": card, "why": why},
        )
    )
    score(s, p, card_value(s, p, card), "card", D.CARD_TITLES[card], events)


def scale_cards(s: TatsumiState) -> list[int]:
    """Edges whose card may take a scale placed anywhere: every card in play but Flying Fish (TM-11)."""
    return [k for k in range(4) if s.cards[k] != "flying_fish"]
