"""Solo mode (rulebook "Solo-mode"; RULINGS TM-14, TM-3, TM-13): one player against the solo deck, two Tekitatsu
and the maelstrom.

Setup: all 112 rings, the weather module, the 16 solo cards (:data:`games.tatsumi.solo_data.SOLO_CARDS`) shuffled
from the seed and the first one turned up; the Tekitatsu and the maelstrom stand on its wells. They guard their
wells (:func:`games.tatsumi.seaboard.guarded_wells`). After each of the player's turns (:func:`after_turn`):

1. every Tekitatsu on the board removes the top ring of each orthogonally adjacent well at once (a well next to
   both loses one ring; wells guarded by the player's dragon, the maelstrom or the other Tekitatsu lose none); the
   rings go back to the box; each Tekitatsu that removed an element of a weather card in play adds one sand dollar
   to it (TM-13); wells it depleted take sand dollars (the player chooses which, TM-13);
2. ``solo:next`` (once those decisions are made): the card's upkeep flips the shrine of its edge; the next card
   is turned up and the tokens move to its wells without claiming rings — a token whose well holds the player's
   dragon sits out the round. Turning up the last card triggers the end.

The end (rulebook "Solo-mode Game End"): the 13th sand dollar, a ring that cannot be placed, or the exhausted
deck; the player's turn is finished (no Tekitatsu phase after it) and Elemental Mastery is tallied. An end
triggered during the Tekitatsu phase ends the game once its decisions are made. The final fortune gets the
rulebook's rank line (:func:`games.tatsumi.solo_data.rank_line`).
"""

from __future__ import annotations

from games.core import Event, N, T, Tc, Text, player_ref
from games.tatsumi import data as D
from games.tatsumi import weather
from games.tatsumi.seaboard import ORTHO, mark_depleted, trigger_end
from games.tatsumi.solo_data import SOLO_CARDS, rank_line, rank_name
from games.tatsumi.state import SoloBoard, TatsumiState, Turn

Choice = tuple[str, str]


def setup(s: TatsumiState) -> None:
    """Solo setup (rulebook "Solo-mode Setup"): deck shuffled from the seed, the first card up, tokens placed."""
    deck = s.rng.shuffled(list(range(len(SOLO_CARDS))))
    s.solo = SoloBoard(card=deck[0], deck=deck[1:], tekitatsu=[-1, -1])
    _position(s, [])


def _position(s: TatsumiState, events: list[Event]) -> None:
    """Put the Tekitatsu and the maelstrom on the face-up card's wells; a token whose well holds the player's dragon
    stays off the board this round (rulebook "Important")."""
    sb = s.solo
    card = SOLO_CARDS[sb.card]
    here = s.seats[0].well
    wells = [D.WELL_INDEX[w] for w in card.tekitatsu]
    sb.tekitatsu = [w if w != here else -1 for w in wells]
    m = D.WELL_INDEX[card.maelstrom]
    sb.maelstrom = m if m != here else -1
    left = [name for name, w in zip(card.tekitatsu, sb.tekitatsu, strict=True) if w < 0]
    if sb.maelstrom < 0:
        left.append(card.maelstrom)
    events.append(
        Event(
            kind="solo_card",
            text=_card_text(16 - len(sb.deck), card, left),
            data={
                "card": sb.card,
                "tekitatsu": list(card.tekitatsu),
                "maelstrom": card.maelstrom,
                "upkeep": card.upkeep,
                "off": left,
            },
        )
    )


def _card_text(n: int, card, left: list[str]) -> Text:
    """The line of a solo card turned up: its wells, the upkeep shrine if any, the wells the dragon keeps free."""
    args = {"n": n, "a": card.tekitatsu[0], "b": card.tekitatsu[1], "m": card.maelstrom, "wells": Text.join(T(", "), left)}
    if card.upkeep:
        args["edge"] = D.EDGE_NAMES[card.upkeep]
        if left:
            return T("Solo card {n} of 16: Tekitatsu on {a} and {b}, maelstrom on {m}, upkeep of the {edge} shrine; "
                     "your dragon keeps {wells} free this round.", **args)
        del args["wells"]
        return T("Solo card {n} of 16: Tekitatsu on {a} and {b}, maelstrom on {m}, upkeep of the {edge} shrine.",
                 **args)
    if left:
        return T("Solo card {n} of 16: Tekitatsu on {a} and {b}, maelstrom on {m}; your dragon keeps {wells} free "
                 "this round.", **args)
    del args["wells"]
    return T("Solo card {n} of 16: Tekitatsu on {a} and {b}, maelstrom on {m}.", **args)


def after_turn(s: TatsumiState, events: list[Event]) -> bool:
    """The player's turn is over: count it; then, unless the end is triggered (the game ends with this turn:
    False, the caller ends the game), the Tekitatsu phase (step 2) and ``solo:next`` (steps 3-4) once its
    decisions are made (True)."""
    sb = s.solo
    sb.turns += 1
    if s.end_triggered:
        return False
    storm(s, events)
    s.interrupts.append("solo:next")
    return True


def storm(s: TatsumiState, events: list[Event]) -> None:
    """Step 2: each Tekitatsu on the board removes the top ring of its unguarded orthogonal neighbours, all at once;
    sand dollars onto weather cards (once per Tekitatsu and element) and into depleted wells."""
    sb = s.solo
    p = s.seats[0]
    present = [(k, w) for k, w in enumerate(sb.tekitatsu) if w >= 0]
    guarded = {w for _, w in present} | {p.well} | ({sb.maelstrom} if sb.maelstrom >= 0 else set())
    by_well: dict[int, list[int]] = {}
    for k, t in present:
        for w in ORTHO[t]:
            if w not in guarded and s.wells[w]:
                by_well.setdefault(w, []).append(k)
    took: dict[int, str] = {k: "" for k, _ in present}
    gone = []
    for w in sorted(by_well):
        ring = s.wells[w][-1]
        s.wells[w] = s.wells[w][:-1]
        s.removed += ring
        gone.append(T("{element} from {well}", element=D.ELEMENT_TEXT[ring], well=D.WELL_NAMES[w]))
        for k in by_well[w]:
            took[k] += ring
    if present:
        events.append(
            Event(
                kind="tekitatsu",
                text=N("The Tekitatsu wash away {pieces} ({n} ring).", "The Tekitatsu wash away {pieces} ({n} rings).",
                       n=len(gone), pieces=Text.join(D.COMMA, gone) if gone else T("nothing")),
                data={"rings": len(gone), "wells": [D.WELL_NAMES[w] for w in sorted(by_well)]},
            )
        )
    for k, t in present:
        for e in D.ELEMENTS:
            if e in took[k]:
                c = weather.card_for(s, e)
                if c is not None:
                    weather.add(s, c, T("The Tekitatsu on {well}", well=D.WELL_NAMES[t]), events, "washes away")
    for w in sorted(by_well):
        mark_depleted(s, w, events)


def _next(s: TatsumiState, events: list[Event]) -> None:
    """Steps 3-4: upkeep of the card's shrine, the next card up (the last one triggers the end), tokens moved, the
    next turn; or the end of the game when it was triggered."""
    from games.tatsumi import rules  # the turn machine imports this module

    sb = s.solo
    if s.end_triggered or not sb.deck:
        rules._game_over(s, events)
        return
    edge = SOLO_CARDS[sb.card].upkeep
    if edge:
        k = D.EDGES.index(edge)
        s.sides[k] = "back" if s.sides[k] == "front" else "front"
        events.append(
            Event(
                kind="flip",
                text=(T("Upkeep: the {element} shrine ({edge}) turns to its front.", element=D.ELEMENT_TEXT[s.shrines[k]],
                        edge=D.EDGE_NAMES[edge]) if s.sides[k] == "front" else
                      T("Upkeep: the {element} shrine ({edge}) turns to its back.", element=D.ELEMENT_TEXT[s.shrines[k]],
                        edge=D.EDGE_NAMES[edge])),
                data={"shrine": D.ELEMENT_NAMES[s.shrines[k]], "side": s.sides[k], "upkeep": True},
            )
        )
    sb.card = sb.deck.pop(0)
    _position(s, events)
    if not sb.deck:
        trigger_end(s, T("the solo deck is exhausted"), events)
    s.round += 1
    s.turn = Turn()


# --------------------------------------------------------------------------------------------------------------
# The interrupt interface used by :mod:`games.tatsumi.rules` (``solo:next`` is a lone choice, applied at once)


def seat(s: TatsumiState, item: str) -> int:
    return 0


def kind(item: str) -> str:
    return "solo"


def choices(s: TatsumiState, item: str) -> list[Choice]:
    return [("next", T("the storm moves on"))]


def prompt(s: TatsumiState, item: str) -> str:
    return T("The storm moves on.")


def act(s: TatsumiState, item: str, oid: str, events: list[Event]) -> None:
    s.interrupts.pop(0)
    _next(s, events)


# --------------------------------------------------------------------------------------------------------------
# Result and status


def rank_event(s: TatsumiState) -> Event:
    """The final rank (rulebook "Solo-mode Scoring Rank") as an event: solo mode has a rank, not a winner."""
    p = s.seats[0]
    line = rank_line(p.fortune)
    return Event(
        kind="solo_rank",
        text=T("{player} ends with {n} fortune: {line} (solo rank {rank})", player=player_ref(p.id), n=p.fortune,
               line=line, rank=rank_name(p.fortune)),
        data={"player": p.id, "fortune": p.fortune, "rank": line, "rank_name": rank_name(p.fortune)},
    )


def status(s: TatsumiState) -> str:
    """``"solo card 3/16, Tekitatsu b2 d4, maelstrom c3"``; a Tekitatsu or the maelstrom not on the seaboard is
    ``off`` (off the board: 盤外, not a setting's オフ)."""
    sb = s.solo
    off = Tc("tatsumi off the board", "off")
    tk = Text.join(" ", [D.WELL_NAMES[w] if w >= 0 else off for w in sb.tekitatsu])
    m = D.WELL_NAMES[sb.maelstrom] if sb.maelstrom >= 0 else off
    return T("solo card {n}/16, Tekitatsu {tk}, maelstrom {m}", n=16 - len(sb.deck), tk=tk, m=m)
