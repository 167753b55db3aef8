"""Tatsumi in words: the wells of the seaboard with their rings and depths, the shrines and the summoning cards
above them, and each dragon's well, holding and fortune (RULINGS TM-1..TM-17; wells ``a1``..``e5``, rings listed
bottom first, the top ring is the one a dragon claims). Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.tatsumi import data as D
from games.tatsumi import island
from games.tatsumi.seaboard import rings_text
from games.tatsumi.state import TatsumiState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, pending_of, plural, words


def _well(state: TatsumiState, w: int) -> str:
    rings = state.wells[w]
    if not rings:
        return f"{D.WELL_NAMES[w]} empty" + (", a sand dollar" if w in state.sand_dollars else "")
    return (f"{D.WELL_NAMES[w]} depth {len(rings)}, top {D.ELEMENT_NAMES[rings[-1]]}"
            + (f", {rings_text(rings)}" if len(rings) > 1 else ""))


def _dragons_at(state: TatsumiState, w: int, name) -> str:
    here = [name(s.id) for s in state.seats if s.well == w]
    return f", {' and '.join(here)}'s dragon here" if here else ""


def _card(card: str) -> str:
    text = D.CARD_TEXT.get(card, "")
    return D.CARD_TITLES.get(card, card) + (f" ({text})" if text else "")


def _where(state: TatsumiState, name):
    def where(locus: str) -> str:
        kind, _, ref = locus.partition(":")
        if kind == "well" and ref in D.WELL_INDEX:
            w = D.WELL_INDEX[ref]
            return _well(state, w).split(" ", 1)[1] + _dragons_at(state, w, name)
        if kind == "card":
            return D.CARD_TEXT.get(ref, "")
        if kind == "island":
            return _island_space(state, *ref.rpartition(":")[::2])
        return ""
    return where


def _island_space(state: TatsumiState, player: str, space: str) -> str:
    """What a ring placed on ``space`` of ``player``'s island lands beside (TM-8, TM-9): the space's rift, then
    the rings on the spaces next to it (``"a wind rift; next to C3 water, D4 fire"``); "" for an unknown space."""
    seat = next((s for s in state.seats if s.id == player), None)
    if seat is None:
        return ""
    try:
        lay = island.layout(seat.island_key)
        i = lay.index(space)
    except (KeyError, ValueError):
        return ""
    rift = lay.rift[i] if i < len(lay.rift) else ""
    near = [f"{lay.names[j]} {D.ELEMENT_NAMES.get(seat.island[j], seat.island[j])}" for j in lay.adj[i]
            if j < len(seat.island) and seat.island[j] != island.EMPTY]
    bits = [f"a {D.ELEMENT_NAMES.get(rift, rift)} rift"] if rift else []
    bits.append("next to " + ", ".join(near) if near else "no ring next to it")
    return "; ".join(bits)


def _shrines(state: TatsumiState) -> str:
    table = {"front": D.SHRINE_FRONT, "back": D.SHRINE_BACK}
    return "Shrines: " + "; ".join(
        f"{D.EDGE_NAMES[e]} {D.ELEMENT_NAMES[el]} asks {rings_text(table[state.sides[k]][el])}"
        for k, (e, el) in enumerate(zip(D.EDGES, state.shrines, strict=False))) + "."


def _cards(state: TatsumiState, brief: bool = False) -> str:
    """The summoning cards in play, with what each scores (``brief``: their titles only)."""
    cards = [D.CARD_TITLES.get(c, c) if brief else _card(c) for c in state.cards]
    return "Cards in play: " + "; ".join(cards) + "."


def _seat(state: TatsumiState, seat, name) -> str:
    held = "".join(e * n for e, n in seat.holding.items())
    return (f"{name(seat.id)}: dragon at {D.WELL_NAMES[seat.well] if seat.well >= 0 else 'no well'}, holds "
            f"{rings_text(held)}, {plural(seat.fortune, 'fortune point')}.")


def _near(state: TatsumiState, name) -> str:
    """The wells next to the current dragon (its neighbours on the 5 x 5 seaboard)."""
    seat = state.seats[state.current]
    if seat.well < 0:
        return ""
    x, y = seat.well % 5, seat.well // 5
    near = [w for w in range(25) if max(abs(w % 5 - x), abs(w // 5 - y)) == 1]
    return f"Wells around {name(seat.id)}: " + "; ".join(_well(state, w) for w in near) + "."


def alt_text(state: TatsumiState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatsumi's alt text (≤ ``limit``, default 1,024 characters): the decision, each option's key with its well's depth and rings,
    the dragons, the wells around the current dragon, the shrines and the cards in play. Game over: the result."""
    name = namer(state, names)
    game = games.get("tatsumi")
    seats = " ".join(_seat(state, s, name) for s in state.seats)
    if not pending_of(game, state):
        res = game.result(state)
        head = "Tatsumi, game over." + (f" {words(res.reason, name)}" if res is not None else "")
        return fit([Part(head, rank=200), Part(seats, rank=50)], limit)
    return fit([Part(f"Tatsumi, round {state.round}.", rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(seats, rank=70), Part(_near(state, name), rank=60), Part(_cards(state), _cards(state, brief=True), rank=55),
                Part(_shrines(state), rank=50)], limit)


def board_words(state: TatsumiState, names: dict[str, str]) -> list[str]:
    """The whole seaboard row by row, then shrines, cards and dragons: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [f"Tatsumi, round {state.round}. {name(state.seats[state.current].id)} to play."]
    for r in range(5):
        lines.append(f"Row {r + 1}: " + "; ".join(_well(state, w) + _dragons_at(state, w, name)
                                                  for w in range(r * 5, r * 5 + 5)) + ".")
    lines += [_shrines(state), _cards(state)]
    lines += [_seat(state, s, name) for s in state.seats]
    return chunks(lines)
