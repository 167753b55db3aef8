"""Reading what a Tsukimi player typed: option ids in any spelling, bare names, and why an answer is refused.

:meth:`Tsukimi.apply` accepts, for the decision pending now:

- an option id (``place:D3-n``) in any of its spellings: any name of a vertex (``place:C3-se``), any case, blanks
  around (:func:`normalise`); a tile by flavour and value (``tile:matcha 2``, the cheaper sakura);
- a bare name that stands for exactly one option listed now (:func:`resolve`): a vertex in any of its names
  (``C3-s``: ``place:``, ``move:``, ``discard:`` or ``to:`` it, whichever is listed), a space (``c3``), a tile
  (``sakura 5``, ``matcha-2``).

Anything else is refused with :func:`refusal`: one sentence saying why (taken, not a corner of the tile just
placed, not your rabbit, the placing effect is over (TS-9), …) and a short hint, never the whole option list.
"""

from __future__ import annotations

import re

from games.core import CHOICE_SEP, Decision, T, Text, player_ref
from games.spelling import fold

from . import rules
from .board import SPACE_SET, SPACE_VERTICES, canonical, vertex_label
from .data import COLOUR_TEXT, TILES, tile_name, tile_text
from .state import TsukimiState

_VERTEX_KINDS = ("place", "move", "discard", "to")
TYPED_WORDS = {"end": "end", "back": "back", "終わり": "end", "おわり": "end", "終了": "end", "戻る": "back",
               "もどる": "back"}
"""Words typed for the ``end`` and ``back`` options, in their :func:`games.spelling.fold` form: English, and the
Japanese a player types (終わり, 戻る; in kana, katakana or half width too)."""
_TILE_NAME = re.compile(r"^\s*([a-z]+)[\s_-]*(\d+)\s*$", re.IGNORECASE)


def normalise(option: str) -> str:
    """Accept sensible spellings of an option id: any name of a vertex (``to:B2-se`` -> ``to:C3-n``), any case of
    a space (``space:c3``), surrounding blanks, ``end`` and ``back`` also as 終わり and 戻る (:data:`TYPED_WORDS`).
    Unknown text is returned stripped, for the caller to refuse."""
    option = option.strip()
    kind, sep, arg = option.partition(":")
    kind = kind.strip().lower()
    if not sep:
        return TYPED_WORDS.get(fold(kind), option)
    arg = arg.strip()
    if kind in _VERTEX_KINDS:
        v = canonical(arg)
        return f"{kind}:{v}" if v else option
    if kind == "space":
        return f"space:{arg.upper()}"
    if kind == "tile":
        return f"tile:{arg}"
    return option


def named_vertex(text: str) -> str | None:
    """The vertex name ``text`` (an option id such as ``place:c3-SE`` or a bare name) was written with, spelled as
    the board names it (``C3-se``), or None when it names no vertex (TS-2)."""
    kind, sep, arg = text.strip().partition(":")
    if sep and kind.strip().lower() not in _VERTEX_KINDS:
        return None
    name = (arg if sep else kind).strip()
    v = canonical(name)
    if v is None:
        return None
    s, _, c = name.partition("-")
    return f"{s.upper()}-{c.lower()}"


def tile_by_name(state: TsukimiState, name: str) -> int | None:
    """The id of the tile ``name`` (``"matcha 2"``, ``"Matcha-2"``) still in the circle, the cheaper of the two
    sakura; None when ``name`` is not a tile name or no such tile is in the circle."""
    m = _TILE_NAME.match(name)
    if not m:
        return None
    flavour, value = m.group(1).lower(), int(m.group(2))
    costs = rules.costs(state.circle)
    found = sorted((c, t) for t, c in costs.items() if TILES[t].flavour == flavour and TILES[t].value == value)
    return found[0][1] if found else None


def resolve(state: TsukimiState, decision: Decision, text: str) -> str:
    """The option id ``text`` stands for in ``decision`` (the one pending in ``state``): a listed id in any
    spelling, or a bare name of exactly one listed option. Anything else comes back normalised, unlisted, for
    :func:`refusal`."""
    option = normalise(text)
    listed = {o.id for o in decision.options}
    if option in listed:
        return option
    kind, sep, arg = option.partition(":")
    if sep and kind == "tile":
        t = tile_by_name(state, arg)
        return f"tile:{t}" if t is not None else option
    if sep:
        return option
    bare = text.strip()
    v = canonical(bare)
    if v is not None:
        hits = [i for i in listed if i.partition(":")[2] == v]
        return hits[0] if len(hits) == 1 else option
    if bare.upper() in SPACE_SET and f"space:{bare.upper()}" in listed:
        return f"space:{bare.upper()}"
    t = tile_by_name(state, bare)
    if t is not None and f"tile:{t}" in listed:
        return f"tile:{t}"
    return option


def _hint(state: TsukimiState, decision: Decision, limit: int = 6) -> Text:
    """A short hint: the first ``limit`` options by their labels (what a player reads, never an id to type) and
    how many there are (never the whole list of 54 vertices)."""
    labels = [o.label for o in decision.options]
    shown = Text.join(CHOICE_SEP, labels[:limit])
    if len(labels) > limit:
        return T("Choose one of: {shown} … ({n} choices).", shown=shown, n=len(labels))
    return T("Choose one of: {shown}.", shown=shown)


def _who(state: TsukimiState, seat: int) -> Text:
    if seat == state.turn:
        return T("your")
    return T("{colour} {player}'s", colour=COLOUR_TEXT[seat], player=player_ref(state.players[seat]))


def _holds(state: TsukimiState, v: str) -> Text:
    return T("{vertex} holds {whose} rabbit (one rabbit a vertex).", vertex=vertex_label(v),
             whose=_who(state, state.rabbits[v]))


def refusal(state: TsukimiState, decision: Decision, text: str, option: str) -> Text:
    """Why ``text`` (read as ``option``) is not an answer to ``decision`` now, with a short hint: one or two
    sentences a player can read. Sources: rulebook "How to Play", TS-2..TS-6, TS-9."""
    typed = text.strip()
    kind, sep, arg = option.partition(":")
    why = _reason(state, decision, typed, kind if sep else "", arg if sep else typed)
    if why:
        return T("'{typed}' is refused: {why} {hint}", typed=typed, why=why, hint=_hint(state, decision))
    return T("'{typed}' is not a choice now. {hint}", typed=typed, hint=_hint(state, decision))


def _reason(state: TsukimiState, decision: Decision, typed: str, kind: str, arg: str) -> Text | str:  # noqa: C901
    """Why the answer is refused (a :class:`Text`), or ``""`` when no more precise reason than "not a choice"."""
    phase = state.phase
    if phase == "choose":
        if kind not in ("", "tile") or (kind == "" and arg.strip().upper() in SPACE_SET):
            return T("first take a mochi tile from the circle.")
        if kind == "tile" and arg.isdigit():
            t = int(arg)
            if t not in TILES:
                return T("there is no tile {n} (mochi tiles are 1-18).", n=t)
            name = tile_name(t)
            shown = tile_text(t)
        else:
            m = _TILE_NAME.match(arg)
            if not m:
                return "" if kind == "" else T("'{arg}' is not a tile (e.g. 'matcha 2', 'sakura 5').", arg=arg)
            name = f"{m.group(1).lower()} {int(m.group(2))}"
            ids = [i for i, tl in TILES.items() if f"{tl.flavour} {tl.value}" == name]
            if not ids:
                return T("there is no {name} tile (flavours strawberry, blueberry, carrot, matcha 0-3; sakura 5).",
                         name=name)
            t = ids[0]
            shown = tile_text(t)
        costs = rules.costs(state.circle)
        if t not in costs and all(i not in costs for i, tl in TILES.items() if tile_name(i) == name):
            return T("{tile} is no longer in the circle.", tile=shown)
        cost = min(c for i, c in costs.items() if tile_name(i) == name)
        have = state.reserve[state.turn]
        return T("{tile} costs {many} and you have {n} in reserve.", tile=shown,
                 many=rules.rabbits_text(cost), n=have)
    if phase == "place":
        if kind not in ("", "space"):
            return T("first place your {tile} on a space.", tile=tile_text(state.tile))
        space = arg.strip().upper()
        if space not in SPACE_SET:
            return "" if kind == "" else T("'{arg}' is not a space (A1-A3, B1-B4, C1-C5, D1-D4, E1-E3).", arg=arg)
        if space in state.board:
            return T("{space} already holds {tile}.", space=space, tile=tile_text(state.board[space]))
        return T("{space} touches no placed tile (TS-5: a tile goes next to a placed tile).", space=space)
    if phase == "move_to":
        if kind not in ("", "to"):
            return T("first say where the rabbit from {vertex} goes (or 'back').", vertex=state.moving_from)
        v = canonical(arg)
        if v is None:
            return "" if kind == "" else T("'{arg}' is not a vertex (a space and a corner, e.g. C3-n).", arg=arg)
        if v == state.moving_from:
            return T("the rabbit is already on {vertex}: choose another vertex, or 'back'.", vertex=v)
        if v in state.rabbits:
            return _holds(state, v)
        return ""
    # effects
    if kind in ("end", "") and TYPED_WORDS.get(fold(typed)) == "end" and state.discards_left:
        return T("a group of three owes a discard first (TS-6): discard a rival rabbit.")
    if kind == "" and canonical(arg) is not None:
        v = canonical(arg)
        holder = state.rabbits.get(v)
        kind = "place" if holder is None else "move" if holder == state.turn else "discard"
    if kind not in _VERTEX_KINDS or kind == "to":
        return ""
    v = canonical(arg)
    if v is None:
        return T("'{arg}' is not a vertex (a space and a corner, e.g. {space}-n).", arg=arg, space=state.space)
    if kind == "place":
        if state.placing_done:
            return T("your placing is over: you moved a rabbit after placing (TS-9: an effect is done as a whole).")
        if state.places_left <= 0:
            value = TILES[state.tile].value
            return (T("this tile places no rabbits.") if rules.EFFECTS[value][0] == 0
                    else T("you have placed all the rabbits this tile allows."))
        if state.reserve[state.turn] <= 0:
            return T("your reserve is empty.")
        if v in state.rabbits:
            return _holds(state, v)
        if v not in SPACE_VERTICES[state.space]:
            return T("{vertex} is not a corner of {space}, where your tile went.", vertex=vertex_label(v),
                     space=state.space)
        return ""
    if kind == "move":
        if state.moves_left <= 0:
            value = TILES[state.tile].value
            return (T("this tile moves no rabbit.") if rules.EFFECTS[value][1] == 0
                    else T("you have already moved a rabbit this turn."))
        holder = state.rabbits.get(v)
        if holder is None:
            return T("there is no rabbit on {vertex}.", vertex=vertex_label(v))
        if holder != state.turn:
            return T("the rabbit on {vertex} is not yours.", vertex=vertex_label(v))
        return ""
    if kind == "discard":
        if state.discards_left <= 0:
            return T("no discard is owed (only a group of exactly three discards a rival rabbit, TS-6).")
        holder = state.rabbits.get(v)
        if holder is None:
            return T("there is no rabbit on {vertex}.", vertex=vertex_label(v))
        if holder == state.turn:
            return T("the rabbit on {vertex} is yours: discard a rival rabbit.", vertex=vertex_label(v))
    return ""

