"""The race window: out-of-order inputs, window bounds, repeats, and refused input (TK-3, TK-10, C-4)."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import assert_illegal
from tatamokatsu_helpers import GAME, T0, TABLE, apply, close, inp, new, roll

from games import TIMEOUT, Move


def _play(s, moves):
    for p, what, ms in moves:
        s = inp(s, p, what, ms)
    return close(s)


def test_inputs_out_of_order_give_the_same_result():
    """Every arrival order of the same timed inputs ends in the same state (judged by at_ms at the close)."""
    s0, _ = roll(new(), "1/10", "1/10", "6")
    moves = [("carol", "shout", 1350), ("bob", "shout", 1200), ("dave", "katana", 50), ("alice", "grab", 7999),
             ("dave", "shout", 1201)]
    results = set()
    for order in itertools.permutations(moves):
        s, ev = _play(s0, order)
        results.add(s.model_dump_json())
        assert s.winner == "bob"
    assert len(results) == 1
    s, _ = _play(s0, moves)
    assert [(e.player, e.input, e.ms) for e in s.last_race] == [
        ("dave", "katana", 50), ("bob", "shout", 1200), ("dave", "shout", 1201), ("carol", "shout", 1350),
        ("alice", "grab", 7999),
    ]
    assert s.fingers == {"alice": 4, "bob": 5, "carol": 5, "dave": 4}


def test_a_late_arriving_earlier_repeat_replaces_the_time():
    """A reaction timed earlier than the same player's button, arriving after it, counts with its earlier time."""
    s, _ = roll(new(), "4", "3", "3")
    s = inp(s, "bob", "shout", 900)  # button
    s = inp(s, "carol", "shout", 600)
    s2, ev = apply(s, "bob", "shout", T0 + 500)  # reaction, arrives later, timed earlier
    assert ev[0].data["repeat"] is True and s2.inputs["bob"]["shout"] == T0 + 500
    s3, _ = apply(s2, "bob", "shout", T0 + 950)  # a later repeat changes nothing
    assert s3.inputs == s2.inputs
    s, _ = close(s3)
    assert s.winner == "bob"


def test_random_arrival_orders_many_rolls():
    rng = random.Random(5)
    for _ in range(60):
        faces = [rng.choice(["1", "2", "3", "4", "5", "6", "1/10"]) for _ in range(2)] + [
            rng.choice(["1", "2", "3", "4", "5", "6", "1/10", "T"])
        ]
        s0, _ = roll(new(fingers={"dave": rng.choice([0, 5])}), *faces)
        moves = [(p, w, rng.randint(0, 8000)) for p in TABLE for w in ("shout", "grab", "katana", "salute")
                 if rng.random() < 0.4]
        a = _play(s0, moves)[0]
        shuffled = moves[:]
        rng.shuffle(shuffled)
        b = _play(s0, shuffled)[0]
        assert a == b


def test_inputs_outside_the_window_are_refused():
    s, _ = roll(new(), "2", "3", "4")
    for at in (T0 - 1, T0 + 8001, 0, -5):
        assert_illegal(GAME, s, Move(player="bob", option="shout", at_ms=at), match="window")
    assert_illegal(GAME, s, Move(player="bob", option="shout", at_ms=None), match="time")


def test_salute_window_bounds():
    s, _ = roll(new(), "5", "3", "4")
    s, _ = close(s)
    assert s.phase == "salute"
    assert_illegal(GAME, s, Move(player="bob", option="salute", at_ms=T0 + 7999), match="window")
    assert_illegal(GAME, s, Move(player="bob", option="salute", at_ms=T0 + 16001), match="window")
    assert_illegal(GAME, s, Move(player="bob", option="shout", at_ms=T0 + 9000))
    inp(s, "bob", "salute", 8000)


def test_timeout_before_the_deadline_is_refused():
    s, _ = roll(new(), "2", "3", "4")
    assert_illegal(GAME, s, Move(player=None, option=TIMEOUT, at_ms=T0 + 7999), match="deadline")
    s2, _ = apply(s, None, TIMEOUT, T0 + 9000)  # a late timer closes the window at its deadline
    assert s2.now_ms == T0 + 8000
    s3, _ = apply(s, None, TIMEOUT, None)
    assert s3 == s2


def test_a_stale_timeout_after_the_next_roll_is_refused():
    s, _ = roll(new(), "2", "3", "4")
    s, _ = close(s)
    assert_illegal(GAME, s, Move(player=None, option=TIMEOUT, at_ms=T0 + 8000), match="deadline")
    s, _ = roll(s, "2", "3", "4", at=T0 + 9000)
    assert_illegal(GAME, s, Move(player=None, option=TIMEOUT, at_ms=T0 + 8000), match="deadline")


def test_refused_moves_leave_the_state_unchanged():
    s, _ = roll(new(), "1/10", "3", "5")
    assert_illegal(GAME, s, Move(player="mallory", option="shout", at_ms=T0 + 5), match="not seated")
    assert_illegal(GAME, s, Move(player=None, option="shout", at_ms=T0 + 5))
    assert_illegal(GAME, s, Move(player="bob", option="fix:10", at_ms=T0 + 5))  # only the roller fixes
    assert_illegal(GAME, s, Move(player="alice", option="fix:1+1", at_ms=T0 + 5))
    assert_illegal(GAME, s, Move(player="alice", option="roll", at_ms=T0 + 5))
    assert_illegal(GAME, s, Move(player="bob", option="victim:carol", at_ms=T0 + 5))
    s, _ = close(s)
    assert_illegal(GAME, s, Move(player="bob", option="shout", at_ms=T0 + 8500), match="not your turn")
    s, _ = apply(s, "alice", "fix:10", T0 + 9000)
    assert_illegal(GAME, s, Move(player="alice", option="victim:alice"))
    assert_illegal(GAME, s, Move(player="bob", option="victim:carol"))
    s, _ = apply(s, "alice", "victim:dave")
    final = s.model_copy(deep=True)
    final.phase = "over"
    assert_illegal(GAME, final, Move(player="alice", option="roll"), match="over")


PHASES = []


def _phases():
    """One state in each phase, built once."""
    if not PHASES:
        s = new()
        PHASES.append(s)
        r, _ = roll(s, "1/10", "1/10", "6")
        PHASES.append(r)
        PHASES.append(close(r)[0])  # fix
        c, _ = roll(s, "4", "3", "5")
        PHASES.append(close(c)[0])  # salute
        w, _ = roll(s, "6", "6", "5")
        PHASES.append(close(inp(w, "bob", "shout", 10))[0])  # choice
        v, _ = roll(s, "1/10", "3", "5")
        PHASES.append(apply(close(v)[0], "alice", "fix:10", T0 + 9000)[0])  # victim
    return PHASES


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 5),
    player=st.one_of(st.none(), st.sampled_from(TABLE + ["mallory", "", "ALICE"]), st.text(max_size=8)),
    option=st.one_of(
        st.text(max_size=12),
        st.sampled_from(["fix:", "fix:17", "fix:1+10", "victim:", "victim:mallory", "victim:alice", "Shout",
                         "roll ", "attack", "recover", "timeout", "grab"]),
    ),
    at=st.one_of(st.none(), st.integers(-10**12, 10**12)),
)
def test_garbage_is_refused_or_legal(which, player, option, at):
    """Any move either is legal (its option listed for a player it names) or is refused with the state unchanged."""
    s = _phases()[which]
    before = s.model_dump_json()
    decisions = GAME.pending(s)
    try:
        out = GAME.apply(s, Move(player=player, option=option, at_ms=at))
    except Exception as exc:  # noqa: BLE001 - must be IllegalMove
        from games import IllegalMove

        assert isinstance(exc, IllegalMove), exc
        assert str(exc).strip()
    else:
        if option == TIMEOUT and player is None:
            assert any(d.deadline_ms is not None for d in decisions)
        else:
            assert player in TABLE
            assert any(d.option(option) and d.player in (None, player) for d in decisions)
        assert GAME.load_state(out.state.model_dump_json()) == out.state
    assert s.model_dump_json() == before


def test_salute_window_closes_once_everyone_saluted():
    """Nothing can change once every player with fingers has saluted: the window closes at the latest salute,
    whatever the arrival order; the session's timer for the old deadline is then refused."""
    s0, _ = roll(new(fingers={"dave": 0}), "5", "3", "4")
    s0 = inp(s0, "alice", "salute", 100)
    s0, _ = close(s0)
    ends = []
    for order in itertools.permutations([("bob", 9500), ("carol", 8800)]):
        s = s0
        for p, ms in order:
            s, ev = apply(s, p, "salute", T0 + ms)
        assert s.phase == "roll" and s.roller == "bob" and s.now_ms == T0 + 9500
        ends.append(s)
    assert ends[0] == ends[1]
    assert_illegal(GAME, ends[0], Move(player=None, option=TIMEOUT, at_ms=T0 + 16000))


def test_a_count_made_during_the_window_is_dropped_by_a_winning_shout():
    s, _ = roll(new(), "1/10", "1/10", "6")
    s, _ = apply(s, "alice", "fix:10+10", T0 + 50)
    s = inp(s, "bob", "shout", 300)
    s, _ = close(s)
    assert s.values is None and s.phase == "choice"


def test_tk10_one_clock_the_engine_compares_the_numbers_it_is_given():
    """TK-10: times are Discord-clock ms (e.g. snowflake times near 1.7e12); the window opens at the roll's time
    and the engine compares nothing but the numbers it is given."""
    t = 1_732_900_000_123
    s, ev = roll(new(), "6", "6", "5", at=t)
    assert (s.window_open_ms, s.deadline_ms) == (t, t + 8000)
    s2 = inp(s, "carol", "shout", 2, t0=t)
    s2 = inp(s2, "bob", "shout", 1, t0=t)
    s2, _ = close(s2)
    assert s2.winner == "bob" and [e.ms for e in s2.last_race] == [1, 2]


def test_c2_seat_order_is_turn_order():
    s = new(players=["dave", "alice", "carol", "bob"])
    assert s.roller == "dave"
    s, _ = roll(s, "5", "5", "6")  # 16: salute
    for p in s.players:
        s = inp(s, p, "salute", 5)
    s, _ = close(s)
    assert s.roller == "alice"


def test_typed_words_map_to_race_inputs():
    from games.tatamokatsu import word_to_input
    from games.tatamokatsu.data import REACTIONS

    assert [word_to_input(w) for w in ("Tatamokatsu!", "HAI", " katana ", "grab", "hello", "")] == [
        "shout", "salute", "katana", "grab", None, None
    ]
    assert sorted(REACTIONS.values()) == ["grab", "katana", "salute", "shout"]
