"""Tatsumi in words: the wells of the seaboard with their rings and depths, the shrines and the summoning cards
above them, and each dragon's well, holding and fortune (RULINGS TM-1..TM-17; wells ``a1``..``e5``, rings listed
bottom first, the top ring is the one a dragon claims). Shapes as in :mod:`renderers.words`."""

from __future__ import annotations

import games
from games.core import SEMICOLON, N, T, Tc, Text
from games.tatsumi import data as D
from games.tatsumi import island
from games.tatsumi.seaboard import rings_text
from games.tatsumi.state import TatsumiState
from renderers.words import ALT_LIMIT, Part, chunks, decision_parts, fit, namer, pending_of, words

SEMI = SEMICOLON


def _state_of_well(state: TatsumiState, w: int) -> Text:
    """A well's rings without its name: ``"empty"``, ``"depth 2, top fire, 1 fire + 1 wind"``."""
    rings = state.wells[w]
    if not rings:
        return T("empty, a sand dollar") if w in state.sand_dollars else Tc("tatsumi seawell", "empty")
    top = D.ELEMENT_TEXT.get(rings[-1], rings[-1])
    if len(rings) > 1:
        return T("depth {n}, top {element}, {rings}", n=len(rings), element=top, rings=rings_text(rings))
    return T("depth {n}, top {element}", n=len(rings), element=top)


def _well(state: TatsumiState, w: int) -> Text:
    return Text.join(" ", [D.WELL_NAMES[w], _state_of_well(state, w)])


def _dragons_at(state: TatsumiState, w: int, name) -> Text | str:
    here = [name(s.id) for s in state.seats if s.well == w]
    return T(", {players}'s dragon here", players=Text.join(T(" and "), here)) if here else ""


def _card(card: str) -> Text:
    text = D.CARD_TEXT.get(card, "")
    title = D.CARD_TITLES.get(card, card)
    return T("{title} ({text})", title=title, text=text) if text else Text.join("", [title])


def _where(state: TatsumiState, name):
    def where(locus: str) -> str:
        kind, _, ref = locus.partition(":")
        if kind == "well" and ref in D.WELL_INDEX:
            w = D.WELL_INDEX[ref]
            return Text.join("", [_state_of_well(state, w), _dragons_at(state, w, name)])
        if kind == "card":
            return D.CARD_TEXT.get(ref, "")
        if kind == "island":
            return _island_space(state, *ref.rpartition(":")[::2])
        return ""
    return where


def _island_space(state: TatsumiState, player: str, space: str) -> Text | str:
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
    near = [Text.join(" ", [lay.names[j], D.ELEMENT_TEXT.get(seat.island[j], seat.island[j])]) for j in lay.adj[i]
            if j < len(seat.island) and seat.island[j] != island.EMPTY]
    beside = T("next to {rings}", rings=Text.join(D.COMMA, near)) if near else T("no ring next to it")
    if not rift:
        return Text.join("", [beside])
    return T("{rift}; {beside}", rift=T("a {element} rift", element=D.ELEMENT_TEXT.get(rift, rift)), beside=beside)


def _shrines(state: TatsumiState) -> Text:
    table = {"front": D.SHRINE_FRONT, "back": D.SHRINE_BACK}
    each = [T("{edge} {element} asks {rings}", edge=D.EDGE_NAMES[e], element=D.ELEMENT_TEXT.get(el, el),
              rings=rings_text(table[state.sides[k]][el]))
            for k, (e, el) in enumerate(zip(D.EDGES, state.shrines, strict=False))]
    return T("Shrines: {shrines}.", shrines=Text.join(SEMI, each))


def _cards(state: TatsumiState, brief: bool = False) -> Text:
    """The summoning cards in play, with what each scores (``brief``: their titles only)."""
    cards = [D.CARD_TITLES.get(c, c) if brief else _card(c) for c in state.cards]
    return T("Cards in play: {cards}.", cards=Text.join(SEMI, cards))


def _seat(state: TatsumiState, seat, name) -> Text:
    held = "".join(e * n for e, n in seat.holding.items())
    well = D.WELL_NAMES[seat.well] if seat.well >= 0 else T("no well")
    return T("{player}: dragon at {well}, holds {rings}, {fortune}.", player=name(seat.id), well=well,
             rings=rings_text(held), fortune=N("{n} fortune point", "{n} fortune points", n=seat.fortune))


def _near(state: TatsumiState, name) -> Text | str:
    """The wells next to the current dragon (its neighbours on the 5 x 5 seaboard)."""
    seat = state.seats[state.current]
    if seat.well < 0:
        return ""
    x, y = seat.well % 5, seat.well // 5
    near = [w for w in range(25) if max(abs(w % 5 - x), abs(w // 5 - y)) == 1]
    return T("Wells around {player}: {wells}.", player=name(seat.id),
             wells=Text.join(SEMI, [_well(state, w) for w in near]))


def alt_text(state: TatsumiState, names: dict[str, str], limit: int = ALT_LIMIT) -> str:
    """Tatsumi's alt text (≤ ``limit``, default 1,024 characters): the decision, each option's key with its well's depth and rings,
    the dragons, the wells around the current dragon, the shrines and the cards in play. Game over: the result."""
    name = namer(state, names)
    game = games.get("tatsumi")
    seats = Text.join(" ", [_seat(state, s, name) for s in state.seats])
    if not pending_of(game, state):
        res = game.result(state)
        head = (T("Tatsumi, game over. {reason}", reason=words(res.reason, name)) if res is not None
                else T("Tatsumi, game over."))
        return fit([Part(head, rank=200), Part(seats, rank=50)], limit)
    return fit([Part(T("Tatsumi, round {n}.", n=state.round), rank=90),
                *decision_parts(game, state, name, _where(state, name)),
                Part(seats, rank=70), Part(_near(state, name), rank=60), Part(_cards(state), _cards(state, brief=True), rank=55),
                Part(_shrines(state), rank=50)], limit)


def board_words(state: TatsumiState, names: dict[str, str]) -> list[str]:
    """The whole seaboard row by row, then shrines, cards and dragons: chunks of ≤ 1,900 characters."""
    name = namer(state, names)
    lines = [T("Tatsumi, round {n}. {player} to play.", n=state.round, player=name(state.seats[state.current].id))]
    for r in range(5):
        lines.append(T("Row {n}: {wells}.", n=r + 1, wells=Text.join(SEMI, [
            Text.join("", [_well(state, w), _dragons_at(state, w, name)]) for w in range(r * 5, r * 5 + 5)])))
    lines += [_shrines(state), _cards(state)]
    lines += [_seat(state, s, name) for s in state.seats]
    return chunks(lines)
