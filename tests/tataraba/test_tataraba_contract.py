"""The contract: registry, options, JSON round-trip, no mutation, refusals (hypothesis), greedy AI, help, status."""

from __future__ import annotations

import importlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support import assert_illegal
from tataraba_support import GAME, act, new, placed, scene

import games
from games import Move
from games.ai import greedy, next_move, play, random_legal

POSITIONS = [
    new(),
    placed(),
    scene({"2-2": "Ca1", "2-4": "Ea-"}, at=("2-5", "3-9"), phase="action", sen=(1, 0)),
    scene(at=("2-5", "3-9"), phase="special", sen=(12, 0), mat=(12, 0)),
]


def test_registered():
    """The registry finds ``games/tataraba`` by its ``GAME`` (checked without importing the other games)."""
    module = importlib.import_module("games.tataraba")
    assert isinstance(module.GAME, games.Game) and module.GAME.id == "tataraba" and module.GAME is GAME
    assert (GAME.title, GAME.min_players, GAME.max_players) == ("Forest of Tataraba", 2, 4)
    assert GAME.summary


def test_options_are_simple_and_defaulted():
    fields = GAME.Options.model_fields
    assert set(fields) == {"layout", "round_limit"}
    assert GAME.options(None).layout == "" and GAME.options(None).round_limit == 60
    assert GAME.options({"layout": "1/2/3"}).layout == "1/2/3"


def test_json_round_trip_and_no_mutation():
    rng = random.Random(4)
    s = GAME.setup(["a", "b", "c"], {"layout": "12/345"}, 9)
    for _ in range(200):
        assert GAME.load_state(s.model_dump_json()) == s
        before = s.model_dump_json()
        move = next_move(GAME, s, {}, rng)
        if move is None:
            break
        out = GAME.apply(s, move)
        assert s.model_dump_json() == before
        s = out.state


def test_same_seed_same_game():
    """C-1: a game replays exactly from its seed and its moves."""
    a = play(GAME, GAME.setup(["x", "y"], None, 5), {}, random.Random(1))
    b = play(GAME, GAME.setup(["x", "y"], None, 5), {}, random.Random(1))
    assert a == b


@settings(max_examples=150, deadline=None)
@given(
    pos=st.sampled_from(range(len(POSITIONS))),
    player=st.sampled_from(["red", "blue", "nobody", ""]),
    option=st.one_of(
        st.text(max_size=12),
        st.sampled_from(
            [
                "tile:0-0",
                "tile:7-1",
                "tile:1-10",
                "tile:-1",
                "pine:2-2",
                "log",
                "mat:2-9",
                "eidai",
                "end",
                "timeout",
                "foot:2-2",
                "tile:2-5",
            ]
        ),
    ),
)
def test_garbage_moves_refused(pos, player, option):
    """Any move that is not a listed option of the player to act is refused, state unchanged."""
    state = POSITIONS[pos]
    d = GAME.pending(state)[0]
    if player == d.player and option in {o.id for o in d.options}:
        return
    assert_illegal(GAME, state, Move(player=player, option=option))


def test_timeout_and_moves_after_the_end_refused():
    s = POSITIONS[2]
    assert_illegal(GAME, s, Move(player=None, option="timeout"))
    over = play(GAME, GAME.setup(["red", "blue"], None, 3), {}, random.Random(3))
    assert GAME.pending(over) == []
    assert_illegal(GAME, over, Move(player="red", option="end"), match="over")


def test_every_event_names_players_by_reference():
    rng = random.Random(2)
    s = GAME.setup(["ann", "bob"], None, 2)
    while GAME.pending(s):
        out = GAME.apply(s, next_move(GAME, s, {}, rng))
        for e in out.events:
            assert e.text and "\n" not in e.text
            assert "ann" not in e.text.replace("{@ann}", "") and "bob" not in e.text.replace("{@bob}", "")
        s = out.state


def test_greedy_beats_random():
    """The greedy player wins clearly more than its share against random-legal play (2 players, both seats)."""
    wins = 0
    games_played = 100
    for seed in range(games_played):
        me = f"p{seed % 2}"
        s = GAME.setup(["p0", "p1"], None, seed)
        final = play(GAME, s, {me: greedy, f"p{1 - seed % 2}": random_legal}, random.Random(seed))
        wins += me in GAME.result(final).winners
    assert wins >= 85, wins


def test_rules_help_and_status():
    assert set(GAME.rules_help) >= {"", "turn", "move", "actions", "logging", "forest", "build", "end"}
    assert all(len(v) > 40 for v in GAME.rules_help.values())
    s = POSITIONS[2]
    assert GAME.status(s).startswith("Round 1: {@red} to play")
    assert "1 Sen" in GAME.status(s)
    assert GAME.status(POSITIONS[0]).startswith("Setup:")


def test_resign_is_not_supported():
    assert GAME.resign(POSITIONS[1], "red") is None


def test_wrong_player_refused_everywhere():
    for s in POSITIONS:
        d = GAME.pending(s)[0]
        other = "blue" if d.player == "red" else "red"
        assert_illegal(GAME, s, Move(player=other, option=d.options[0].id), match="not your turn")


def test_act_helper_sequence():
    s, events = act(POSITIONS[3], "red", "tatara", "tile:1-1")
    assert s.seats[0].tatara == 1


def test_c4_time_is_only_an_input():
    """C-4: no decision has a deadline; a move's timestamp changes nothing."""
    s = POSITIONS[2]
    assert all(d.deadline_ms is None for d in GAME.pending(s))
    a = GAME.apply(s, Move(player="red", option="foot", at_ms=None)).state
    b = GAME.apply(s, Move(player="red", option="foot", at_ms=123_456_789)).state
    assert a == b


def test_c2_clockwise_is_seat_order():
    """C-2: turns pass in seat order from the starting player."""
    s = scene(at=("1-5", "3-9", "5-5"), players=("a", "b", "c"), phase="special")
    s, _ = act(s, "a", "end")
    assert GAME.pending(s)[0].player == "b"
