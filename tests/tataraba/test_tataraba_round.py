"""Round completion (FT-6, FT-7, FT-8), endings and tie-breaks (rulebook "End of the Game"), cases FT-A and FT-D."""

from __future__ import annotations

from tataraba_support import GAME, T, act, scene

from games import force


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
    assert res.reason == "{@red} built the Eidai Tatara."


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
