"""The race window: out-of-order inputs, window bounds, repeats, refused input, and what the table reads after it
(TK-3, TK-6, TK-10, TK-11, C-4)."""

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
    assert_illegal(GAME, s, Move(player="bob", option="shout", at_ms=T0 + 8500), match="counts only in a race")
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


def test_tk11_a_winning_shout_leaves_no_count_to_make():
    """TK-11 with TK-4: a count cannot be made during the window, and a winning shout cancels the sum: the winner
    chooses and the roller is never asked to count."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    assert_illegal(GAME, s, Move(player="alice", option="fix:10+10", at_ms=T0 + 50), match="TK-11")
    s = inp(s, "bob", "shout", 300)
    s, _ = close(s)
    assert s.values is None and s.phase == "choice" and [d.kind for d in GAME.pending(s)] == ["tatamokatsu"]


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
    assert [word_to_input(w) for w in ("振る", "ふる", "ダイスを振る", "Roll")] == ["roll"] * 4


def test_a_race_word_before_the_roll_is_refused_by_the_word_not_its_id():
    """TK-3: 「タタモカツ」 typed before a roll counts for nothing and changes nothing; the refusal names the word
    to type (in the reader's language), never the option id ``shout``."""
    from bot.i18n import say

    s = new()
    for option, en, ja in (("shout", "'tatamokatsu' counts only in a race, after a roll.", "「タタモカツ」は"),
                           ("salute", "'hai' counts only in a race, after a roll.", "「はい」は")):
        refused = assert_illegal(GAME, s, Move(player="bob", option=option, at_ms=T0))
        assert say(refused.text, "en") == en and say(refused.text, "ja").startswith(ja)


# -- what the table reads after a window (TK-11, TK-6) -------------------------------------------------------------


def test_tk11_the_summary_lists_mistakes_as_mistakes_never_as_first():
    """TK-11: 2, 3, 4 has no T and no Tatamokatsu: carol's grab (+300) and shout (+400) and bob's Katana (+700) are
    mistakes (TK-8). The summary comes first and names nobody "first"; the losses follow it."""
    s, _ = roll(new(), "2", "3", "4")
    s = inp(s, "carol", "shout", 400)
    s = inp(s, "carol", "grab", 300)
    s = inp(s, "bob", "katana", 700)
    s = inp(s, "dave", "salute", 900)
    s, ev = close(s)
    assert [e.kind for e in ev] == ["window", "sum", "finger", "finger", "finger", "turn"]
    assert ev[0].text == (
        "Mistakes: {@carol} grabbed (+300 ms), {@carol} shouted (+400 ms) and {@bob} did a Katana (+700 ms)."
    )
    assert "first" not in ev[0].text
    assert ev[0].data["first"] is None and ev[0].data["margin_ms"] is None
    assert ev[0].data["mistakes"] == [
        {"player": "carol", "input": "grab", "ms": 300}, {"player": "carol", "input": "shout", "ms": 400},
        {"player": "bob", "input": "katana", "ms": 700},
    ]
    assert [e.note for e in s.last_race] == ["mistake", "mistake", "mistake", ""]
    assert [e.text for e in ev[2:5]] == [
        "{@alice} loses 1 finger (sum under 10): 4 left.",
        "{@bob} loses 1 finger (Katana without triples): 4 left.",
        "{@carol} loses 2 fingers (grabbed, but no T shows, shouted, but no Tatamokatsu): 3 left.",
    ]


def test_tk11_the_summary_names_the_first_valid_input_not_an_earlier_mistake():
    """TK-11: on 1/10, 1/10, 6 dave's grab at +100 (no T: a mistake) comes before bob's shout at +1200; bob is
    named first, 150 ms ahead of carol (the next valid shout), and dave's grab is listed as a mistake."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    s = inp(s, "carol", "shout", 1350)
    s = inp(s, "bob", "shout", 1200)
    s = inp(s, "dave", "grab", 100)
    s, ev = close(s)
    assert [e.kind for e in ev] == ["window", "finger", "race_won"]
    assert ev[0].text == "{@bob} shouted first (+1200 ms), 150 ms ahead of {@carol}. Mistakes: {@dave} grabbed (+100 ms)."
    assert (ev[0].data["first"], ev[0].data["input"], ev[0].data["ms"]) == ("bob", "shout", 1200)
    assert (ev[0].data["second"], ev[0].data["margin_ms"]) == ("carol", 150)
    assert [(e.player, e.note) for e in s.last_race] == [("dave", "mistake"), ("bob", "first"), ("carol", "")]


def test_tk11_a_t_roll_or_a_tatamokatsu_nobody_won_says_so():
    """TK-11 with TK-5 and TK-4: nobody is first when nobody grabbed the T die or shouted on a Tatamokatsu; a
    shout on a T roll is neither a win nor a mistake."""
    s, _ = roll(new(), "1/10", "4", "T")
    s = inp(s, "carol", "shout", 350)
    s, ev = close(s)
    assert ev[0].text == "Nobody grabbed the T die in time."
    s, _ = roll(new(), "4", "3", "3")
    s, ev = close(s)
    assert [e.text for e in ev] == [
        "Nobody shouted Tatamokatsu in time.",
        "Sum 10: a Tatamokatsu, but nobody shouted: no effect.",
        "{@bob} rolls next.",
    ]
    assert (s.values, s.total) == ([4, 3, 3], 10)  # a plain 10 reads as the sum it is


def test_tk6_salute_times_count_from_the_salute_windows_opening():
    """TK-6 texts: 4, 4, 4 (12). A salute in the salute window is timed from its opening (+1000 ms, not +9000 from
    the roll) and the text says so; the window's summary comes before the losses and names who did not salute."""
    s, _ = roll(new(), "4", "4", "4")
    for p, ms in (("alice", 900), ("bob", 1500), ("carol", 1700), ("dave", 2000)):
        s = inp(s, p, "katana", ms)
    s = inp(s, "alice", "salute", 2500)
    s, ev = close(s)
    assert ev[0].text == (
        "Last Katana: {@dave} (+2000 ms)."
    )
    assert s.phase == "salute" and s.window_open_ms == T0 + 8000
    s, ev = apply(s, "carol", "salute", T0 + 9000)
    assert ev[0].text == "{@carol} salutes (+1000 ms into the salute window)."
    s, ev = apply(s, "dave", "salute", T0 + 14730)
    assert ev[0].text == "{@dave} salutes (+6730 ms into the salute window)."
    s2, ev = apply(s, "alice", "salute", T0 + 9500)  # a repeat: her salute of the race counts; logged once
    assert ev == [] and s2 == s
    s, ev = close(s)
    assert [e.kind for e in ev] == ["window", "finger", "turn"]
    assert ev[0].text == (
        "Salutes: {@carol} +1000 ms and {@dave} +6730 ms after the salute was called; {@alice} had saluted during "
        "the race; no salute from {@bob}."
    )
    assert ev[0].data == {"saluted": {"carol": 1000, "dave": 6730}, "earlier": ["alice"], "missing": ["bob"]}
    assert [(e.player, e.input, e.ms, e.window) for e in s.last_race if e.input == "salute"] == [
        ("alice", "salute", 2500, "race"), ("carol", "salute", 9000, "salute"), ("dave", "salute", 14730, "salute"),
    ]


def test_a_repeated_input_is_logged_once():
    """A second press of the same input, timed later, changes nothing and is not told again (TK-3)."""
    s, _ = roll(new(), "6", "5", "T")
    s, ev = apply(s, "alice", "grab", T0 + 1000)
    assert [e.text for e in ev] == ["{@alice} grabs (+1000 ms)."]
    s2, ev = apply(s, "alice", "grab", T0 + 1400)
    assert ev == [] and s2 == s
    s3, ev = apply(s, "alice", "grab", T0 + 800)  # timed earlier (a reaction arriving late): told with its time
    assert [e.text for e in ev] == ["{@alice} grabs (+800 ms)."]


def test_a_fingerless_grab_with_no_t_is_a_mistake_with_nothing_to_lose():
    """Carol has no fingers and grabs on 2·3·4: no T shows, so it is no grab of the T die (TK-3, TK-8)."""
    s, _ = roll(new(fingers={"carol": 0}), "2", "3", "4")
    s = inp(s, "carol", "grab", 300)
    s, ev = close(s)
    assert ev[0].text == "Mistakes: {@carol} grabbed (+300 ms, no finger to lose)."
    assert ev[0].data["mistakes"] == []
    s, _ = roll(new(fingers={"carol": 0}), "2", "3", "4")
    s = inp(s, "carol", "grab", 300)
    s = inp(s, "bob", "shout", 200)
    s, ev = close(s)
    assert ev[0].text == "Mistakes: {@bob} shouted (+200 ms) and {@carol} grabbed (+300 ms, no finger to lose)."
    assert [e.text for e in ev if e.kind == "finger"] == [
        "{@alice} loses 1 finger (sum under 10): 4 left.",
        "{@bob} loses 1 finger (shouted, but no Tatamokatsu): 4 left.",
    ]
