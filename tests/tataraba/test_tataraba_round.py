"""Round completion (FT-6, FT-7, FT-8), endings and tie-breaks (rulebook "End of the Game"), cases FT-A and FT-D."""

from __future__ import annotations

import pytest
from tataraba_support import GAME, T, act, scene

from games import force, ranking_text
from games.tataraba import rules


def finish_round(state, deck, shown=(), used=()):
    """Give the last seat its end-of-turn step and end it, with the shift deck set to ``deck`` (top first)."""
    state.deck, state.shown, state.used = list(deck), list(shown), list(used)
    last = (state.start - 1) % len(state.players)
    state.turn, state.phase, state.actions = last, "special", 0
    return act(state, state.players[last], "end")


def full_deck_rest(cards, n=2):
    """The deck ``cards`` followed by the rest of the n-player deck, so the card count stays right."""
    rest = [0] + [k for k in range(1, {2: 3, 3: 5, 4: 6}[n] + 1) for _ in range(2)]
    for c in cards:
        rest.remove(c)
    return list(cards) + rest


def test_ft6_one_step_moves_every_tree_one_stage_on_that_board_only():
    """FT-6: young -> adult (Cedar 1 -> 2 -> adult), adult Red Pine -> young Oak (same colour), adult Oak / Cedar ->
    young Beech, Beech young -> adult, adult Beech and Evergreens stay; only board 1 (card 1); the zero card does
    nothing."""
    before = {
        "1-1": "Ry0",
        "1-2": "Ra1",
        "1-3": "Oy0",
        "1-4": "Oa1",
        "1-5": "Cy0",
        "1-6": "C21",
        "1-7": "Ca0",
        "1-8": "By-",
        "1-9": "Ba-",
        "2-1": "Ea-",
        "2-2": "Ry0",
        "2-3": "Ca0",
        "3-1": "T-0",
    }
    after = {
        "1-1": "Ra0",
        "1-2": "Oy1",
        "1-3": "Oa0",
        "1-4": "By-",
        "1-5": "C20",
        "1-6": "Ca1",
        "1-7": "By-",
        "1-8": "Ba-",
        "1-9": "Ba-",
        "2-1": "Ea-",
        "2-2": "Ry0",
        "2-3": "Ca0",
        "3-1": "T-0",
    }
    s = scene(before, at=("3-5", "3-9"))
    s, events = finish_round(s, full_deck_rest([1, 0]))
    assert {k: s.tiles[T(k)] for k in after} == after
    assert s.shown == [1, 0]
    assert (s.seats[1].pine_gone, s.seats[1].oak) == (1, 3)  # blue's Red Pine left the game for an Oak
    assert (s.seats[1].oak_gone, s.seats[0].cedar_gone) == (1, 1)
    assert s.beech == 16
    grow = [e for e in events if e.kind == "grow"]
    assert [(e.data["board"], e.data["grown"], e.data["shifted"]) for e in grow] == [(1, 5, 3)]


def test_ft_a_two_cards_for_board_two():
    """Case FT-A: a young red Red Pine on board 2, both revealed cards 2: it ends as a young red Oak; the Red Pine
    piece leaves the game."""
    s = scene({"2-5": "Ry0"}, at=("1-5", "3-9"))
    s, events = finish_round(s, full_deck_rest([2, 2]))
    assert s.tiles[T("2-5")] == "Oy0"
    assert (s.seats[0].pine, s.seats[0].pine_gone, s.seats[0].oak) == (4, 1, 3)
    assert [e.data["board"] for e in events if e.kind == "grow"] == [2, 2]


def test_ft6_two_steps_cedar_and_oak():
    s = scene({"2-1": "Cy0", "2-2": "Oa1", "2-3": "C21"}, at=("1-5", "3-9"))
    s, _ = finish_round(s, full_deck_rest([2, 2]))
    assert [s.tiles[T(k)] for k in ("2-1", "2-2", "2-3")] == ["Ca0", "Ba-", "By-"]


def test_ft6_beech_runs_out_ends_the_game_at_once():
    """FT-6, rulebook "Beech runs out": a Beech is needed and none is left -> the game ends at once (the second
    card is not processed), every player compared on Sen, then material."""
    s = scene({"1-1": "Oa0", "1-2": "Oa1", "2-1": "Ry0"}, at=("1-5", "3-9"), sen=(3, 5), mat=(9, 0))
    s.beech = 1
    s, events = finish_round(s, full_deck_rest([1, 2]))
    assert s.phase == "over" and s.end == "beech" and s.beech == 0
    assert s.tiles[T("1-1")] == "By-" and s.tiles[T("1-2")] == "Oa1"
    assert s.tiles[T("2-1")] == "Ry0"  # card 2 never ran
    assert [e.kind for e in events][-2:] == ["no_beech", "end"]
    res = GAME.result(s)
    assert (
        res.winners == ["blue"] and res.ranking == [["blue"], ["red"]] and res.scores == {"red": 3, "blue": 5}
    )
    assert GAME.pending(s) == []


def test_beech_out_ties_broken_by_material_then_shared():
    s = scene({"1-1": "Oa0"}, at=("1-5", "3-9"), sen=(4, 4), mat=(2, 3))
    s.beech = 0
    s, _ = finish_round(s, full_deck_rest([1, 0]))
    assert GAME.result(s).winners == ["blue"] and GAME.result(s).ranking == [["blue"], ["red"]]
    s = scene({"1-1": "Oa0"}, at=("1-5", "3-9"), sen=(4, 4), mat=(3, 3))
    s.beech = 0
    s, _ = finish_round(s, full_deck_rest([1, 0]))
    assert GAME.result(s).winners == ["red", "blue"] and GAME.result(s).ranking == [["red", "blue"]]


def test_ft7_empty_deck_reshuffles_earlier_cards_only():
    """FT-7: when the deck runs out mid-reveal, the cards revealed in earlier rounds (not this round's) are shuffled
    into a new deck (through the seeded rng, here forced)."""
    s = scene(at=("1-5", "3-9"))
    s = force(s, [2, 0, 1, 3, 1, 2])
    s, events = finish_round(s, deck=[3], shown=[1, 2], used=[0, 1, 2, 3])
    assert s.shown == [3, 2] and s.deck == [0, 1, 3, 1, 2] and s.used == []
    kinds = [e.kind for e in events]
    assert kinds.index("reshuffle") < kinds.index("reveal")
    assert next(e for e in events if e.kind == "reshuffle").data["size"] == 6


def test_revealed_cards_go_to_the_earlier_pile():
    s = scene(at=("1-5", "3-9"))
    s, _ = finish_round(s, deck=[3, 0, 1, 2], shown=[1, 2], used=[3])
    assert s.used == [3, 1, 2] and s.shown == [3, 0] and s.deck == [1, 2]


def test_starting_player_passes_clockwise():
    """Rulebook "3. Change starting player": the next round starts with the player on the left (next seat)."""
    s = scene(at=("1-5", "3-9", "5-5"), players=("a", "b", "c"))
    assert (s.start, s.round) == (0, 1)
    s, events = finish_round(s, full_deck_rest([0, 0, 0][:1] + [4, 5], 3))
    assert (s.start, s.turn, s.round) == (1, 1, 2) and s.phase in ("move", "action")
    assert events[-1].kind in ("move", "round", "stuck") and any(e.kind == "round" for e in events)
    s, _ = finish_round(s, full_deck_rest([1, 4, 5], 3))
    assert (s.start, s.turn, s.round) == (2, 2, 3)
    s, _ = finish_round(s, full_deck_rest([1, 4, 5], 3))
    assert (s.start, s.turn, s.round) == (0, 0, 4)


def _eidai_ready(sen=(10, 10), mat=(10, 10), pieces=None):
    s = scene(pieces or {"2-1": "Ry0"}, at=("1-5", "3-9"), phase="special", sen=sen, mat=mat)
    s.deck = full_deck_rest([2, 2])
    return s


def test_ft_d_eidai_ends_the_game_after_the_rounds_turns():
    """Case FT-D, FT-8: red (the starting player) builds an Eidai Tatara; blue still plays its turn; then the game
    ends with no growth step, and red, the only builder, wins (even with less Sen)."""
    s = _eidai_ready(sen=(10, 30), mat=(10, 0))
    s, events = act(s, "red", "eidai", "tile:1-1")
    assert s.phase != "over" and s.turn == 1
    assert GAME.pending(s)[0].player == "blue"
    s, events = act(s, "blue", "tile:3-8", "foot", "foot")
    assert s.phase == "over" and s.end == "eidai"
    assert s.tiles[T("2-1")] == "Ry0"  # no growth
    assert not any(e.kind in ("reveal", "grow") for e in events)
    res = GAME.result(s)
    assert res.winners == ["red"] and res.ranking == [["red"], ["blue"]]
    assert res.reason == (
        "{@red} built the Eidai Tatara. Scores are Sen: {@red} (Eidai Tatara) 0 Sen 0 material, "
        "{@blue} 30 Sen 0 material."
    )  # the scores a ranking shows are labelled (Sen), with the material beside them
    assert res.standings == {"red": "Eidai Tatara, 0 Sen, 0 material", "blue": "30 Sen, 0 material"}
    assert ranking_text(res, {"red": "Red", "blue": "Blue"}.__getitem__) == (
        "1. Red — Eidai Tatara, 0 Sen, 0 material; 2. Blue — 30 Sen, 0 material"
    )


def test_ft_d_two_builders_compare_sen_then_material_then_share():
    """Case FT-D: if blue also builds one in that round, more Sen left wins; equal Sen, more material; equal, shared."""
    cases = [
        ((13, 12), (10, 10), ["red"]),
        ((12, 13), (10, 10), ["blue"]),
        ((12, 12), (11, 10), ["red"]),
        ((12, 12), (10, 12), ["blue"]),
        ((12, 12), (10, 10), ["red", "blue"]),
    ]
    for sen, mat, winners in cases:
        s = _eidai_ready(sen=sen, mat=mat)
        s, _ = act(s, "red", "eidai", "tile:1-1")
        s, _ = act(s, "blue", "tile:3-8", "foot", "foot", "eidai", "tile:1-2")
        if s.phase == "special":  # blue could still afford a Tatara
            s, _ = act(s, "blue", "end")
        assert s.phase == "over"
        res = GAME.result(s)
        assert res.winners == winners, (sen, mat)
        assert res.scores == {"red": sen[0] - 10, "blue": sen[1] - 10}


def test_eidai_builder_ranks_above_richer_non_builders():
    s = _eidai_ready(sen=(10, 50), mat=(10, 0))
    s, _ = act(s, "red", "eidai", "tile:1-1")
    s, _ = act(s, "blue", "tile:3-8", "foot", "foot")
    assert GAME.result(s).ranking == [["red"], ["blue"]]


def test_safety_stop_exhausted_forest():
    """Designed (not in the rulebook): nothing left that could ever yield Sen or material, no Eidai affordable ->
    the game ends and is scored like "Beech runs out"."""
    s = scene({"1-1": "Ba-"}, at=("1-5", "3-9"), sen=(1, 2))
    for seat in s.seats:
        seat.pine = seat.cedar = 0
    s, events = finish_round(s, full_deck_rest([0, 1]))
    assert s.end == "exhausted" and GAME.result(s).winners == ["blue"]
    s = scene({"1-1": "Ba-", "2-2": "Ea-"}, at=("1-5", "3-9"))
    for seat in s.seats:
        seat.pine = seat.cedar = 0
    s, _ = finish_round(s, full_deck_rest([0, 1]))
    assert s.phase != "over"  # an Evergreen can still be logged
    s = scene({"1-1": "Ea-", "1-2": "Ba-", "1-4": "Ba-"}, at=("1-5", "3-9"))
    for seat in s.seats:
        seat.pine = seat.cedar = 0
    s, _ = finish_round(s, full_deck_rest([0, 3]))
    assert s.end == "exhausted"  # the Evergreen in the corner is walled in by adult Beeches for good


def test_safety_stop_round_limit():
    s = scene(at=("1-5", "3-9"), round_limit=1, sen=(0, 0), mat=(1, 0))
    s, _ = finish_round(s, full_deck_rest([0, 1]))
    assert s.end == "limit" and GAME.result(s).winners == ["red"]
    assert "round limit" in GAME.result(s).reason


def _walled_forest(pieces: dict[str, str], **kw):
    """Every tile an adult Beech except ``pieces`` (tile -> code; ``""`` an empty tile); no trees to plant."""
    everything = {f"{b}-{c}": "Ba-" for b in (1, 2, 3) for c in range(1, 10)}
    everything.update(pieces)
    s = scene({k: v for k, v in everything.items() if v}, **kw)
    for seat in s.seats:
        seat.pine = seat.cedar = 0
    s.beech = 0
    return s


def test_ft9_exhausted_stop_waits_for_a_player_who_can_step_onto_their_tatara_and_build():
    """RULINGS FT-9: red holds 10 Sen and 10 material, but the only empty tile (1-2) is under red's own piece, and
    nothing in the forest can ever be logged. Red can still step onto its own Tatara (1-1) and build the Eidai on the
    tile it left, so the forest is not exhausted: play goes on, red builds there and wins by the Eidai."""
    s = _walled_forest({"1-1": "T-0", "1-2": "", "3-9": "T-1"}, at=("1-2", "3-9"), sen=(10, 0), mat=(10, 0))
    s, events = finish_round(s, full_deck_rest([0, 1]))
    assert s.phase == "special" and s.round == 2 and s.turn == 0
    assert not any(e.kind == "end" for e in events)
    assert s.seats[0].pos == T("1-1") and s.seats[1].pos == T(
        "3-9"
    )  # red stepped onto its Tatara (C-3: only move)
    assert [o.id for o in GAME.pending(s)[0].options] == ["tatara", "eidai", "end"]
    s, events = act(s, "red", "eidai")
    assert s.tiles[T("1-2")] == "X-0"  # the only open tile: placed without asking (C-3)
    assert s.phase == "over" and s.end == "eidai" and GAME.result(s).winners == ["red"]


def test_ft9_exhausted_stop_waits_for_a_player_who_can_still_build_a_tatara():
    """RULINGS FT-9: a second Tatara would still change the Sen (the score): with 2 Sen and 2 material and an empty
    tile, play goes on; with 1 Sen it cannot, and the stop fires."""
    s = _walled_forest({"1-1": "T-0", "1-2": "", "3-9": "T-1"}, at=("1-2", "3-9"), sen=(2, 0), mat=(2, 0))
    s, _ = finish_round(s, full_deck_rest([0, 1]))
    assert s.phase != "over" and s.round == 2
    s = _walled_forest({"1-1": "T-0", "1-2": "", "3-9": "T-1"}, at=("1-2", "3-9"), sen=(1, 0), mat=(2, 0))
    s, _ = finish_round(s, full_deck_rest([0, 1]))
    assert s.phase == "over" and s.end == "exhausted"


def test_ft9_exhausted_stop_waits_while_a_tree_may_still_be_logged_through_tataras():
    """RULINGS FT-9 with FT-10: red is walled in by blue's Tataras (1-3, 1-5) and an adult Beech; the only way to
    the Evergreen at 2-2 is the pass through blue's Tatara at 1-3 onto 2-1. The forest is not exhausted: next round
    red passes (its only move, C-3) and may log the Evergreen."""
    s = _walled_forest(
        {"1-2": "", "1-3": "T-1", "1-5": "T-1", "2-1": "", "2-2": "Ea-", "3-9": ""},
        at=("1-2", "3-9"),
    )
    s, _ = finish_round(s, full_deck_rest([0, 3]))
    assert s.phase == "action" and s.round == 2 and s.turn == 0
    assert s.seats[0].pos == T("2-1") and s.seats[0].foot == 1
    assert [o.id for o in GAME.pending(s)[0].options] == ["log", "foot"]


def test_ft9_exhausted_stop_is_announced_and_kept_in_state_and_result():
    """RULINGS FT-9: the exhausted forest is announced (event ``end``, reason in data and in ``state.end``) and
    scored like the Beech ending, the result naming the stop and the Sen."""
    s = scene({"1-1": "Ba-"}, at=("1-5", "3-9"), sen=(1, 2))
    for seat in s.seats:
        seat.pine = seat.cedar = 0
    s, events = finish_round(s, full_deck_rest([0, 1]))
    end = events[-1]
    assert end.kind == "end" and end.data == {"reason": "exhausted", "round": 1, "safety_stop": True}
    assert end.text == (
        "Safety stop (not in the rulebook): the forest is exhausted: it is certain that nobody can ever build an "
        "Eidai Tatara or take another action that uses up a Beech. The game ends, scored like the Beech ending."
    )
    assert s.end == "exhausted" and rules.ENDINGS[s.end] == "Safety stop: the forest is exhausted"
    assert GAME.result(s).reason == (
        "Safety stop: the forest is exhausted: most Sen, then material, wins: {@blue}. "
        "Scores are Sen: {@blue} 2 Sen 0 material, {@red} 1 Sen 0 material."
    )


def test_ft9_round_limit_stop_is_announced():
    """RULINGS FT-9: the round limit (a lobby option) is announced like the exhausted stop."""
    s = scene(at=("1-5", "3-9"), round_limit=1, sen=(0, 0), mat=(1, 0))
    s, events = finish_round(s, full_deck_rest([0, 1]))
    assert events[-1].kind == "end" and events[-1].data == {
        "reason": "limit",
        "round": 1,
        "safety_stop": True,
    }
    assert events[-1].text == (
        "Safety stop (not in the rulebook): the round limit (1 round) is reached. The game ends, scored like the "
        "Beech ending."
    )
    assert GAME.result(s).reason == (
        "Safety stop: the round limit was reached (1 round): most Sen, then material, wins: {@red}. "
        "Scores are Sen: {@red} 0 Sen 1 material, {@blue} 0 Sen 0 material."
    )
    assert GAME.result(s).standings == {"red": "0 Sen, 1 material", "blue": "0 Sen, 0 material"}


@pytest.mark.parametrize(
    ("grown", "shifted", "text"),
    [
        (1, 0, "Board 2: 1 tree grows."),
        (3, 0, "Board 2: 3 trees grow."),
        (0, 1, "Board 2: 1 tree shifts."),
        (0, 2, "Board 2: 2 trees shift."),
        (1, 1, "Board 2: 1 tree grows, 1 shifts."),
        (2, 3, "Board 2: 2 trees grow, 3 shift."),
        (0, 0, ""),
    ],
)
def test_ft6_growth_line_names_only_what_happened(grown, shifted, text):
    """FT-6 texts: plurals right, nothing said of what did not happen."""
    assert rules.grow_text(2, grown, shifted) == text


def test_ft6_a_board_where_nothing_grows_is_not_announced():
    """FT-6 texts: card 3 on an empty board 3 says nothing; card 1 growing one Red Pine says so."""
    s = scene({"1-1": "Ry0"}, at=("2-5", "2-9"))
    s, events = finish_round(s, full_deck_rest([1, 3]))
    assert [e.text for e in events if e.kind == "grow"] == ["Board 1: 1 tree grows."]


def test_ft6_beech_run_out_names_the_board():
    """FT-6, rulebook "Beech runs out": the line says on which board the Beech was needed."""
    s = scene({"2-1": "Oa0"}, at=("1-5", "3-9"))
    s.beech = 0
    s, events = finish_round(s, full_deck_rest([2, 0]))
    no_beech = next(e for e in events if e.kind == "no_beech")
    assert no_beech.text == "Board 2: a Beech is needed and none is left: the game ends."
    assert no_beech.data == {"board": 2}
