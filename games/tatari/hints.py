"""Why a Tatari option is good or bad, in the game's terms, for hints (:mod:`games.hints`): what a stop moves
(TA-5, TA-6), how often going on busts (TA-3: a roll busts when every die shows a face already set aside; TA-8),
and the exact chance of winning of every option of a two-player turn (:class:`games.tatari.ai.TurnSolver`)."""

from __future__ import annotations

from games.core import Decision, T, Text, player_ref
from games.tatari.data import DICE, FACE_DOLLS, FACE_VALUE, FACES
from games.tatari.rules import dice_text, dolls_text
from games.tatari.state import TatariState


def bust_chance(faces_aside: int, dice: int) -> float:
    """The chance (0..1) that rolling ``dice`` dice busts with ``faces_aside`` different faces set aside: every die
    shows one of them (TA-3: six equally likely faces, TA-2)."""
    return (faces_aside / len(FACES)) ** dice if dice > 0 else 0.0


def _pct(p: float) -> int:
    return round(100 * p)


def _stop_effect(state: TatariState, total: int, dolls: int) -> Text:
    """What stopping at ``total`` with ``dolls`` counted moves (TA-5, TA-6)."""
    stash = state.stashes[state.current]
    if total >= 11:
        return T("{pile} out of your stash for good", pile=dolls_text(min(dolls, stash)))
    held = state.shrines[str(total)]
    if held < dolls:
        return T("{pile} onto shrine {shrine}", pile=dolls_text(min(dolls - held, stash)), shrine=total)
    if held > dolls:
        return T("{pile} back from shrine {shrine}", pile=dolls_text(held - dolls), shrine=total)
    return T("shrine {shrine} stays as it is", shrine=total)


def _fullest(state: TatariState) -> tuple[int, int]:
    """The fullest shrine and its dolls (what a bust takes, TA-8)."""
    shrine = max(state.shrines, key=lambda k: (state.shrines[k], -int(k)))
    return int(shrine), state.shrines[shrine]


def explain(state: TatariState, decision: Decision, option: str) -> Text | None:
    """One short reason for ``option`` (module doc): a stop's effect and the bust chance it avoids; going on's bust
    chance and what a bust costs; a face's total, dolls and dice left; a gift's recipient's stash."""
    faces = len(set(state.set_aside))
    left = DICE - len(state.set_aside)
    if option == "stop":
        return T("{effect}; going on busts {pct} % of the time", effect=_stop_effect(state, state.total, state.dolls),
                 pct=_pct(bust_chance(faces, left)))
    if option == "continue":
        shrine, held = _fullest(state)
        return T("the next roll of {dice} busts {pct} % of the time; a bust brings back shrine {shrine}'s {pile}",
                 dice=dice_text(left), pct=_pct(bust_chance(faces, left)), shrine=shrine, pile=dolls_text(held))
    if option.startswith("set:"):
        face = option[4:]
        n = state.rolled.count(face)
        total, dolls, after = state.total + FACE_VALUE[face] * n, state.dolls + FACE_DOLLS[face] * n, left - n
        if after == 0:
            if total >= 7:
                return T("all dice aside at {total}: {effect}", total=total, effect=_stop_effect(state, total, dolls))
            return T("all dice aside under 7: a bust")
        bust = _pct(bust_chance(faces + 1, after))
        if total >= 7:
            return T("total {total} with {pile}: you may stop; rolling {dice} on busts {pct} % of the time",
                     total=total, pile=dolls_text(dolls), dice=dice_text(after), pct=bust)
        return T("total {total} with {pile}, {dice} left to reach 7; the next roll busts {pct} % of the time",
                 total=total, pile=dolls_text(dolls), dice=dice_text(after), pct=bust)
    if option.startswith("give:"):
        to = option[5:]
        return T("{player} has {pile} left: the fewer, the closer to winning", player=player_ref(to),
                 pile=dolls_text(state.stashes[to]))
    if option.startswith("shrine:"):
        return T("you take back {pile}", pile=dolls_text(state.shrines[option[7:]]))
    return None


def option_values(state: TatariState, decision: Decision, player: str) -> dict[str, float] | None:
    """The exact chance of winning (0..1) of every option of a two-player ``select`` or ``fate`` decision
    (:class:`TurnSolver`: expectimax over the dice, the fitted turn-end value), or None (three or more in play,
    another kind, another player's turn)."""
    if len(state.in_play()) != 2 or decision.kind not in ("select", "fate") or player != state.current:
        return None
    from games.tatari.ai import TurnSolver  # the solver's module builds KNOWLEDGE from this one

    solver = TurnSolver(state)
    mask, left, total, dolls = solver.now()
    if decision.kind == "fate":
        return {"stop": solver.stop_value(total, dolls, bool(mask & 1)),
                "continue": solver.roll_value(mask, left, total, dolls)}
    out = {}
    for o in decision.options:
        face = o.id[4:]
        c = state.rolled.count(face)
        out[o.id] = solver.after(mask | 1 << FACES.index(face), left - c, total + FACE_VALUE[face] * c,
                                 dolls + FACE_DOLLS[face] * c)
    return out
