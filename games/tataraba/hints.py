"""Why a Forest of Tataraba option is good, in the game's terms, for hints (:mod:`games.hints`): where to stand
(adult trees to log next to it, open ground to plant on; FT-5, FT-6), and what an action changes in what the
fitted evaluation rewards (:func:`games.tataraba.ai.features`: Sen and material still short of the Eidai Tatara,
the Tatara built, trees on the board; rulebook "Building an Eidai Tatara", FT-3, FT-8)."""

from __future__ import annotations

import random

from games.core import Decision, Move, N, T, Text
from games.tataraba import rules
from games.tataraba.board import geometry, tile_index
from games.tataraba.data import ADULT, EIDAI_COST, YIELDS
from games.tataraba.state import TatarabaState


def _spot(state: TatarabaState, tile: int) -> Text:
    """What standing on ``tile`` offers: adult trees to log and open ground around it."""
    around = geometry(state.layout).neighbours[tile]
    adults = sum(1 for t in around if state.tiles[t] and state.tiles[t][1] == ADULT and state.tiles[t][0] in YIELDS)
    ground = sum(1 for t in around if rules.is_open(state, t))
    return T("next to {trees} and {ground}", trees=N("{n} adult tree to log", "{n} adult trees to log", n=adults),
             ground=N("{n} open space to plant", "{n} open spaces to plant", n=ground))


def explain(state: TatarabaState, decision: Decision, option: str) -> Text | None:
    """One short reason for ``option`` (module doc): a spot's trees and ground; otherwise the Sen, material,
    buildings and trees it changes, and what the Eidai Tatara still needs (10 Sen and 10 material, FT-3: the
    evaluation's own count adds the optional second Tatara's 2 and 2, which a reader would take for the price). The shift deck is re-dealt
    on the copy played (a reason never tells a card to come)."""
    from games.tataraba.ai import determinise, features
    from games.tataraba.game import Tataraba

    seat = state.turn
    if decision.kind in ("place", "move"):
        return _spot(state, tile_index(option.partition(":")[2]))
    if decision.kind == "action" and option in ("plant", "log"):  # the choice of an action: what it can reach
        if option == "log":
            return N("{n} adult tree to log next to you", "{n} adult trees to log next to you",
                     n=len({t for t, _ in rules.log_targets(state, seat)}))
        return N("{n} open space to plant next to you", "{n} open spaces to plant next to you",
                 n=len({t for _, t in rules.plant_targets(state, seat)}))
    try:
        after = Tataraba().apply(determinise(state, random.Random(0)),
                                 Move(player=decision.player, option=option, at_ms=decision.deadline_ms)).state
    except ValueError:
        return None
    f0, f1 = features(state, seat), features(after, seat)
    me0, me1 = state.seats[seat], after.seats[seat]
    parts: list[Text] = []
    if f1["eidai"] > f0["eidai"]:
        parts.append(T("builds the Eidai Tatara"))
    elif f1["tatara"] > f0["tatara"]:
        parts.append(T("builds your Tatara"))
    if me1.sen > me0.sen:
        parts.append(T("+{n} Sen", n=me1.sen - me0.sen))
    if me1.mat > me0.mat:
        parts.append(T("+{n} material", n=me1.mat - me0.mat))
    if decision.kind == "plant":  # what the young tree becomes (FT-6) and gives when logged
        parts.append(T("a Red Pine: adult after 1 growth, 2 Sen when logged") if option.startswith("pine:")
                     else T("a Cedar: adult after 2 growths, 3 material (or 1 Sen) when logged"))
    if f1["foot"] > f0["foot"]:
        parts.append(T("a Foot marker"))
    sen_short, mat_short = max(0, EIDAI_COST[0] - me1.sen), max(0, EIDAI_COST[1] - me1.mat)
    if (me1.sen, me1.mat) != (me0.sen, me0.mat) and (sen_short or mat_short):  # the Eidai Tatara's own price (FT-3); the optional second Tatara is not counted
        parts.append(T("the Eidai Tatara still needs {sen} Sen and {mat} material", sen=sen_short, mat=mat_short))
    return Text.join(T(", "), parts) if parts else None
