"""One test per rule clause and ruling of Tatamokatsu (rulebook tatamokatsu.md; RULINGS TK-1..TK-13, C-1..C-4)."""

from __future__ import annotations

import inspect
from collections import Counter

import pytest
from pydantic import ValidationError
from support import assert_illegal
from tatamokatsu_helpers import GAME, T0, TABLE, apply, close, decision, inp, kinds, new, roll

from games import Move, force, get
from games.tatamokatsu import data
from games.tatamokatsu.dice import all_choices, is_tatamokatsu, is_triple, offered_choices, sum_range


def hands(s):
    return [s.fingers[p] for p in s.players]


# -- TK-1 players and hands ------------------------------------------------------------------------------------


def test_tk1_two_to_five_players_five_fingers_each():
    for n in range(2, 6):
        s = GAME.setup([f"p{i}" for i in range(n)], None, 0)
        assert s.fingers == {f"p{i}": 5 for i in range(n)}
    for n in (1, 6):
        with pytest.raises(ValueError):
            GAME.setup([f"p{i}" for i in range(n)], None, 0)
    with pytest.raises(ValueError):
        GAME.setup(["a", "a"], None, 0)
    assert get("tatamokatsu") is GAME


def test_options_defaults_and_limits():
    o = GAME.Options()
    assert (o.window_ms, o.tie_tolerance_ms) == (8000, 0)
    s = new(options={"window_ms": 5000, "tie_tolerance_ms": 40})
    assert (s.window_ms, s.tie_tolerance_ms) == (5000, 40)
    for bad in ({"window_ms": 10}, {"tie_tolerance_ms": -1}, {"window_ms": "soon"}):
        with pytest.raises(ValidationError):
            new(options=bad)


# -- TK-2 dice ---------------------------------------------------------------------------------------------------


def test_tk2_dice_faces():
    assert data.DIE_AB == ("1", "2", "3", "4", "5", "6", "1/10", "1/10")
    assert data.DIE_C == ("1", "2", "3", "4", "5", "6", "1/10", "T")
    # the T face is on die C only; forcing it on A is not a possible outcome
    with pytest.raises(ValueError):
        roll(new(), "T", "1", "1")


def test_tk2_dice_frequencies_from_the_seed():
    """Rolled from the state's generator (C-1): 1/10 shows on A about 2/8 of the time, T on C about 1/8."""
    counts = [Counter(), Counter(), Counter()]
    s = new()
    for i in range(4000):
        s.rng.counter = 0
        s.rng.seed = i
        s2, _ = apply(s, "alice", "roll", 0)
        for k in range(3):
            counts[k][s2.dice[k]] += 1
    assert 850 < counts[0]["1/10"] < 1150 and 850 < counts[1]["1/10"] < 1150
    assert 400 < counts[2]["T"] < 600 and 400 < counts[2]["1/10"] < 600
    assert "T" not in counts[0] and "T" not in counts[1]


# -- TK-3 the roller, the window, who may react ---------------------------------------------------------------


def test_tk3_turn_order_skips_players_without_fingers():
    s = new(fingers={"bob": 0, "carol": 0})
    s, _ = roll(s, "2", "2", "3")  # 7: alice loses one
    s, _ = close(s)
    assert s.roller == "dave"
    s, _ = roll(s, "6", "6", "5", at=T0 + 20000)  # 17, nobody shouts: nothing
    s, _ = close(s)
    assert s.roller == "alice"
    assert decision(s, "roll").player == "alice"


def test_tk3_only_the_roller_rolls():
    s = new()
    before = s.model_dump_json()
    with pytest.raises(Exception, match="not your turn"):
        GAME.apply(s, Move(player="bob", option="roll", at_ms=T0))
    assert s.model_dump_json() == before


def test_tk3_window_opens_at_the_roll_and_lasts_window_ms():
    s, ev = roll(new(options={"window_ms": 3000}), "2", "3", "5")
    d = decision(s, "race")
    assert d.player is None and d.deadline_ms == T0 + 3000
    assert [o.id for o in d.options] == ["shout", "grab", "katana", "salute"]
    assert ev[0].data["deadline_ms"] == T0 + 3000
    inp(s, "bob", "salute", 0)  # both ends are inside
    inp(s, "bob", "salute", 3000)


def test_tk3_roll_without_time_uses_the_last_known_time():
    s, _ = roll(new(), "2", "3", "4")
    s, _ = close(s)
    s, _ = apply(force(s, "5", "5", "1"), "bob", "roll", None)
    assert s.roll_ms == T0 + 8000 and s.deadline_ms == T0 + 16000


def test_tk3_fingerless_players_may_only_grab():
    s, _ = roll(new(fingers={"carol": 0}), "1/10", "1/10", "6")
    for what in ("shout", "katana", "salute"):
        s2, ev = apply(s, "carol", what, T0 + 100)
        assert kinds(ev) == ["ignored"] and s2.inputs == {}
    s = inp(s, "carol", "shout", 100)  # ignored: bob's later shout wins
    s = inp(s, "bob", "shout", 500)
    s, _ = close(s)
    assert s.winner == "bob"


# -- TK-4 Tatamokatsu -------------------------------------------------------------------------------------------


def test_tk4_a_roll_is_a_tatamokatsu_when_some_count_makes_10_or_17():
    assert is_tatamokatsu(["1/10", "1/10", "6"])  # 1+10+6
    assert is_tatamokatsu(["4", "3", "3"])  # 10
    assert is_tatamokatsu(["6", "6", "5"])  # 17
    assert is_tatamokatsu(["1/10", "3", "4"])  # 1+3+4=8 or 17
    assert is_tatamokatsu(["1/10", "3", "6"])  # 10 or 19
    assert not is_tatamokatsu(["1/10", "3", "5"])  # 9 or 18
    assert not is_tatamokatsu(["2", "3", "4"])
    assert not is_tatamokatsu(["1/10", "1/10", "1/10"])  # 3, 12, 21, 30
    assert not is_tatamokatsu(["4", "3", "T"])  # T: a grab race


def test_tk4_first_valid_shout_wins_by_time_not_by_arrival():
    s, _ = roll(new(), "4", "3", "3")
    s = inp(s, "carol", "shout", 900)
    s = inp(s, "dave", "shout", 400)  # arrives later, timed earlier
    s, _ = close(s)
    assert s.winner == "dave"


def test_tk4_tie_rolls_off_with_1_to_6_and_rerolls_ties():
    s, _ = roll(new(), "4", "3", "3")
    s = inp(s, "bob", "shout", 700)
    s = inp(s, "carol", "shout", 700)
    s = inp(s, "dave", "shout", 700)
    s, ev = close(force(s, "5", "5", "2", "3", "6"))  # round 1: bob 5, carol 5, dave 2; round 2: bob 3, carol 6
    assert s.rolloffs == [{"bob": 5, "carol": 5, "dave": 2}, {"bob": 3, "carol": 6}]
    assert kinds(ev).count("rolloff") == 2
    assert s.winner == "carol"
    # the summary first (TK-11), then the roll-offs that decided it
    assert kinds(ev)[:3] == ["window", "rolloff", "rolloff"]
    assert ev[0].text == "{@carol} shouted first (+700 ms), tied with {@bob} and {@dave}: won the roll-off."


def test_tk4_tie_tolerance_default_zero_and_option():
    s, _ = roll(new(), "4", "3", "3")
    s = inp(s, "bob", "shout", 701)
    s = inp(s, "carol", "shout", 700)
    s, _ = close(s)
    assert s.winner == "carol" and s.rolloffs == []
    s, _ = roll(new(options={"tie_tolerance_ms": 50}), "4", "3", "3")
    s = inp(s, "bob", "shout", 750)
    s = inp(s, "carol", "shout", 700)
    s = inp(s, "dave", "shout", 751)  # 51 ms after the first: not tied
    s, _ = close(force(s, "6", "1"))
    assert s.rolloffs == [{"bob": 6, "carol": 1}] and s.winner == "bob"


def test_tk4_winner_recovers_one_up_to_five():
    s, _ = roll(new(fingers={"bob": 3}), "6", "6", "5")
    s = inp(s, "bob", "shout", 100)
    s, _ = close(s)
    assert decision(s, "tatamokatsu").option("recover").label == "Recover one finger"
    s, ev = apply(s, "bob", "recover")
    assert hands(s) == [5, 4, 5, 5]
    assert "recover" in kinds(ev)
    s, _ = roll(s, "6", "6", "5", at=T0 + 20000)
    s = inp(s, "alice", "shout", 100, t0=T0 + 20000)
    s, _ = close(s)
    s, _ = apply(s, "alice", "recover")
    assert s.fingers["alice"] == 5  # max 5


def test_tk4_strike_hits_only_opponents_with_fingers():
    s, _ = roll(new(fingers={"dave": 0, "carol": 2}), "6", "6", "5")
    s = inp(s, "alice", "shout", 100)
    s, _ = close(s)
    s, _ = apply(s, "alice", "attack")
    assert hands(s) == [5, 4, 1, 0]


def test_tk4_a_valid_shout_cancels_the_sum_effect():
    """1/10, 1/10, 6 could be 26 (a victim) but bob's shout wins: no count is asked, no victim."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    s = inp(s, "bob", "shout", 300)
    s, _ = close(s)
    assert s.phase == "choice"
    s, _ = apply(s, "bob", "recover")
    assert s.phase == "roll" and hands(s) == [5, 5, 5, 5]


# -- TK-5 the T face ----------------------------------------------------------------------------------------------


def test_tk5_t_roll_is_a_grab_race_only():
    """1, 1, T would be under 10, but T shows: no sum effect; shouts neither win nor cost (our reading)."""
    s, _ = roll(new(), "1", "1", "T")
    assert [d.kind for d in GAME.pending(s)] == ["race"]
    s = inp(s, "bob", "shout", 100)
    s = inp(s, "carol", "grab", 900)
    s = inp(s, "dave", "grab", 600)
    s, _ = close(s)
    assert s.winner == "dave" and hands(s) == [5, 5, 5, 5]
    s, _ = apply(s, "dave", "attack")
    assert hands(s) == [4, 4, 4, 5]


def test_tk13_a_shout_on_a_t_roll_neither_wins_nor_costs_even_when_the_dice_could_make_ten():
    """RULINGS TK-13: on a T roll the grab wins; a shout beside it is never a mistake (TK-8's "no Tatamokatsu" means
    no T showing and no 10 or 17), even first and even when the other two dice (1/10 and 1/10) could make 10 or 17.
    ``/rules tatamokatsu mistakes`` says so."""
    s, _ = roll(new(), "1/10", "1/10", "T")
    s = inp(s, "bob", "shout", 100)
    s = inp(s, "carol", "shout", 200)
    s = inp(s, "dave", "grab", 700)
    s, _ = close(s)
    assert s.winner == "dave" and hands(s) == [5, 5, 5, 5]
    mistakes = GAME.rules_help["mistakes"]
    assert "On a T roll a shout neither wins nor costs" in mistakes


def test_tk5_t_roll_nobody_grabs_nothing_happens():
    s, _ = roll(new(), "1", "1", "T")
    s, ev = close(s)
    assert hands(s) == [5, 5, 5, 5] and s.phase == "roll" and s.roller == "bob"


def test_tk5_dragon_resurrection_needs_the_first_grab():
    s, _ = roll(new(fingers={"dave": 0}), "3", "1/10", "T")
    s = inp(s, "bob", "grab", 500)
    s = inp(s, "dave", "grab", 501)
    s, _ = close(s)
    assert s.fingers["dave"] == 0 and s.winner == "bob"


def test_tk5_resurrection_wins_a_tied_rolloff():
    s, _ = roll(new(fingers={"dave": 0}), "3", "1/10", "T")
    s = inp(s, "bob", "grab", 500)
    s = inp(s, "dave", "grab", 500)
    s, _ = close(force(s, "2", "4"))
    assert s.fingers["dave"] == 5 and s.phase == "roll"


# -- TK-6 the roller's count and the sum ranges ------------------------------------------------------------------


def test_tk6_choices_never_make_10_or_17():
    assert [c.option_id for c in offered_choices(["1/10", "1/10", "6"])] == ["fix:1+1", "fix:10+10"]
    assert [c.total for c in offered_choices(["1/10", "1/10", "1/10"])] == [3, 12, 21, 30]
    assert [c.option_id for c in offered_choices(["2", "3", "4"])] == ["fix:none"]
    assert offered_choices(["4", "3", "3"]) == ()  # 10: every count makes 10
    assert len(all_choices(["1/10", "1/10", "6"])) == 3


def test_tk6_sum_ranges():
    assert [sum_range(t) for t in (3, 9, 10, 11, 16, 17, 18, 30)] == [
        "low", "low", "tatamokatsu", "salute", "salute", "tatamokatsu", "high", "high"
    ]


def test_tk11_no_count_is_offered_or_taken_during_the_race():
    """TK-11: during the window only the race is pending (its option list does not tell whether a 10 or 17
    exists); a count sent during it is refused with a reason and nothing changes; at the close it opens."""
    s, _ = roll(new(), "1/10", "3", "5")
    assert [(d.kind, d.player) for d in GAME.pending(s)] == [("race", None)]
    assert_illegal(GAME, s, Move(player="alice", option="fix:1", at_ms=T0 + 100), match="when the window closes")
    s, ev = close(s)
    d = decision(s, "fix")
    assert (d.player, d.deadline_ms, [o.id for o in d.options]) == ("alice", T0 + 16000, ["fix:1", "fix:10"])
    assert d.prompt == ("{@alice}, count the 1/10 dice (10 and 17 are not offered: nobody shouted). "
                        "No answer in time: sum 9.")
    s, ev = apply(s, "alice", "fix:1", T0 + 9000)
    assert hands(s) == [4, 5, 5, 5] and s.total == 9 and s.phase == "roll" and s.roller == "bob"


def test_tk11_a_count_after_its_deadline_is_refused_and_the_timeout_gives_the_lowest_sum():
    """TK-11: ``fix:10+10`` timed 4 s after the count's deadline is refused (state unchanged); a count at the
    deadline itself still counts; the session's timeout applies the lowest offered sum (8: alice loses one)."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    s, _ = close(s)
    assert s.phase == "fix" and s.deadline_ms == T0 + 16000
    assert_illegal(GAME, s, Move(player="alice", option="fix:10+10", at_ms=T0 + 20000), match=r"^Too late by 4000 ms: the time to count is over; the lowest sum applies\.$")
    on_time, _ = apply(s, "alice", "fix:10+10", T0 + 16000)
    assert on_time.total == 26 and on_time.phase == "victim"
    s, ev = close(s)
    assert s.values == [1, 1, 6] and s.total == 8 and hands(s) == [4, 5, 5, 5]
    assert [e.text for e in ev][:2] == ["{@alice} is given 1+1: sum 8.", "Sum 8: under 10."]


def test_tk6_late_fix_times_out_to_the_lowest_offered_sum():
    s, _ = roll(new(), "1/10", "1/10", "6")
    s, _ = close(s)
    assert s.phase == "fix" and s.deadline_ms == T0 + 16000
    s, ev = close(s)
    assert s.values == [1, 1, 6] and s.total == 8
    assert hands(s) == [4, 5, 5, 5]


def test_tk6_one_offered_count_is_applied_without_asking():
    """C-3: 1/10, 3, 4 is 8 or 17; 17 is never offered, so 8 applies: alice loses one."""
    s, _ = roll(new(), "1/10", "3", "4")
    assert [d.kind for d in GAME.pending(s)] == ["race"]
    s, _ = close(s)
    assert s.total == 8 and hands(s) == [4, 5, 5, 5]


def test_tk6_plain_10_or_17_without_a_shout_does_nothing():
    for faces in (("4", "3", "3"), ("6", "6", "5")):
        s, _ = roll(new(), *faces)
        s, ev = close(s)
        assert hands(s) == [5, 5, 5, 5] and s.phase == "roll" and "finger" not in kinds(ev)


def test_tk6_salute_window_same_length_and_salutes_since_the_roll():
    s, _ = roll(new(options={"window_ms": 2000}), "5", "3", "4")  # 12
    s = inp(s, "alice", "salute", 10)
    s = inp(s, "bob", "salute", 1990)
    s, _ = close(s)
    assert s.phase == "salute" and s.window_open_ms == T0 + 2000 and s.deadline_ms == T0 + 4000
    s = inp(s, "carol", "salute", 2500)
    s, ev = close(s)
    assert hands(s) == [5, 5, 5, 4]


def test_tk6_salute_window_skipped_when_everyone_saluted():
    s, _ = roll(new(), "5", "3", "4")
    for p in TABLE:
        s = inp(s, p, "salute", 100)
    s, ev = close(s)
    assert s.phase == "roll" and "salute_done" in kinds(ev)


def test_tk6_fingerless_players_owe_no_salute():
    s, _ = roll(new(fingers={"carol": 0}), "5", "3", "4")
    for p in ("alice", "bob", "dave"):
        s = inp(s, p, "salute", 100)
    s, _ = close(s)
    assert s.phase == "roll" and hands(s) == [5, 5, 0, 5]


def test_tk6_above_17_victim_single_choice_applies():
    s, _ = roll(new(fingers={"carol": 0, "dave": 0}), "6", "6", "6")  # 18 and triples
    s = inp(s, "alice", "katana", 100)
    s = inp(s, "bob", "katana", 200)  # bob is last: loses one, and is the only victim: loses one more
    s, ev = close(s)
    assert hands(s) == [5, 3, 0, 0] and s.phase == "roll"


# -- TK-7 Katana ---------------------------------------------------------------------------------------------------


def test_tk7_triples_include_1_10_faces():
    assert is_triple(["1/10", "1/10", "1/10"]) and is_triple(["2", "2", "2"])
    assert not is_triple(["2", "2", "T"])


def test_tk7_all_did_katana_the_last_loses_one():
    s, _ = roll(new(), "2", "2", "2")  # 6: alice loses one too (in addition to the Katana)
    for p, ms in (("alice", 100), ("bob", 300), ("carol", 200), ("dave", 250)):
        s = inp(s, p, "katana", ms)
    s, _ = close(s)
    assert hands(s) == [4, 4, 5, 5]


def test_tk7_tie_for_last_each_loses_one():
    s, _ = roll(new(), "5", "5", "5")  # 15: salute window follows
    for p, ms in (("alice", 100), ("bob", 300), ("carol", 300), ("dave", 250)):
        s = inp(s, p, "katana", ms)
        s = inp(s, p, "salute", ms + 1)
    s, _ = close(s)
    assert hands(s) == [5, 4, 4, 5]
    assert [e.note for e in s.last_race if e.input == "katana"] == ["", "", "last", "last"]


def test_tk7_tie_for_last_uses_the_tolerance():
    s, _ = roll(new(options={"tie_tolerance_ms": 30}), "1/10", "1/10", "1/10")
    for p, ms in (("alice", 100), ("bob", 300), ("carol", 275), ("dave", 250)):
        s = inp(s, p, "katana", ms)
    s, _ = close(s)
    assert hands(s) == [5, 4, 4, 5]
    d = decision(s, "fix")
    assert [o.id for o in d.options] == ["fix:1+1+1", "fix:1+1+10", "fix:1+10+10", "fix:10+10+10"]


# -- TK-8 mistakes -------------------------------------------------------------------------------------------------


def test_tk8_each_mistake_costs_one():
    s, _ = roll(new(), "2", "3", "5")  # 10: shouting is right; grabbing and a Katana are mistakes
    s = inp(s, "bob", "grab", 100)
    s = inp(s, "bob", "katana", 120)
    s = inp(s, "carol", "katana", 130)
    s = inp(s, "dave", "salute", 130)  # a salute at the wrong time costs nothing
    s, ev = close(s)
    assert hands(s) == [5, 3, 4, 5]
    assert [e.note for e in s.last_race] == ["mistake", "mistake", "mistake", ""]


def test_tk8_three_mistakes_three_fingers():
    s, _ = roll(new(), "2", "3", "6")  # 11: no Tatamokatsu
    for what in ("shout", "grab", "katana", "salute"):
        s = inp(s, "bob", what, 100)
    s, _ = close(s)
    assert s.fingers["bob"] == 2 and s.phase == "salute"


def test_tk8_fingerless_wrong_grab_costs_nothing():
    s, _ = roll(new(fingers={"dave": 0}), "2", "3", "6")
    s = inp(s, "dave", "grab", 100)
    for p in ("alice", "bob", "carol"):
        s = inp(s, p, "salute", 100)
    s, _ = close(s)
    assert hands(s) == [5, 5, 5, 0] and s.phase == "roll"


# -- TK-9 the end ----------------------------------------------------------------------------------------------------


def test_tk9_last_with_fingers_is_samurai():
    s, _ = roll(new(fingers={"bob": 1, "carol": 0, "dave": 0}), "6", "6", "5")
    s = inp(s, "alice", "shout", 100)
    s, _ = close(s)
    s, ev = apply(s, "alice", "attack")
    assert s.phase == "over" and GAME.pending(s) == []
    r = GAME.result(s)
    assert r.winners == ["alice"] and r.scores == {"alice": 5, "bob": 0, "carol": 0, "dave": 0}
    assert r.ranking[0] == ["alice"] and r.ranking[1] == ["bob"]
    assert "end" in kinds(ev)


def test_tk9_shared_win_when_the_last_fingers_fall_together():
    s, _ = roll(new(fingers={"alice": 1, "bob": 1, "carol": 0, "dave": 0}), "3", "3", "3")  # 9 + Katana
    s = inp(s, "alice", "katana", 100)
    s = inp(s, "bob", "katana", 100)  # tied last: both lose their last finger
    s, ev = close(s)
    r = GAME.result(s)
    assert r.winners == ["alice", "bob"] and r.ranking[0] == ["alice", "bob"]
    assert "share the win" in ev[-1].text


def test_tk9_ranking_by_elimination_order():
    s = new(fingers={"bob": 1, "carol": 1, "dave": 1})
    s, _ = roll(s, "2", "3", "6")
    s = inp(s, "dave", "katana", 50)  # dave out first
    for p in ("alice", "bob", "carol"):
        s = inp(s, p, "salute", 100)
    s, _ = close(s)
    s, _ = roll(s, "6", "6", "5", at=T0 + 10000)
    s = inp(s, "bob", "shout", 60, t0=T0 + 10000)
    s, _ = close(s)
    s, _ = apply(s, "bob", "attack")  # alice 4, carol out
    s, _ = roll(s, "2", "3", "4", at=T0 + 20000)
    s = inp(s, "bob", "grab", 10, t0=T0 + 20000)  # bob out by mistake: alice wins
    s, _ = close(s)
    r = GAME.result(s)
    assert r.winners == ["alice"] and r.ranking == [["alice"], ["bob"], ["carol"], ["dave"]]


def test_resign_passes_the_dice_and_can_end_the_game():
    s = new()
    out = GAME.resign(s, "alice")
    assert out.state.fingers["alice"] == 0 and out.state.roller == "bob" and out.state.phase == "roll"
    with pytest.raises(Exception, match="left"):
        GAME.apply(out.state, Move(player="alice", option="roll"))
    s = new(players=["alice", "bob"])
    out = GAME.resign(s, "bob")
    assert GAME.result(out.state).winners == ["alice"]


# -- C-1 .. C-4 --------------------------------------------------------------------------------------------------------


def test_c1_same_seed_same_dice():
    a, _ = apply(new(seed=7), "alice", "roll", 0)
    b, _ = apply(new(seed=7), "alice", "roll", 0)
    assert a.dice == b.dice and a == b


def test_c4_engine_never_reads_a_clock():
    import games.tatamokatsu.ai as ai
    import games.tatamokatsu.game as g
    import games.tatamokatsu.rules as r

    for mod in (g, r, ai):
        src = inspect.getsource(mod)
        assert "import time" not in src and "datetime" not in src and "asyncio" not in src


def test_rules_help_and_status():
    assert "" in GAME.rules_help and {"dice", "race", "sums", "katana", "dragon", "mistakes", "end"} <= set(
        GAME.rules_help
    )
    s, _ = roll(new(), "2", "3", "4")
    assert GAME.status(s).startswith("Roll 1: race on 2 · 3 · 4")


def test_tk9_an_under_10_loss_at_the_close_is_the_same_resolution():
    """3, 3, 3 (9 and triples): bob misses the Katana and alice (the roller) loses one for the sum at the same
    close: both lose their last finger together and share the win."""
    s, _ = roll(new(fingers={"alice": 1, "bob": 1, "carol": 0, "dave": 0}), "3", "3", "3")
    s = inp(s, "alice", "katana", 100)
    s, ev = close(s)
    assert GAME.result(s).winners == ["alice", "bob"]
    assert [e.kind for e in ev][:4] == ["window", "katana", "sum", "finger"]  # the summary before the losses


def test_clone_is_an_independent_copy():
    s, _ = roll(new(), "1/10", "1/10", "6")
    s = inp(s, "bob", "shout", 10)
    c = s.clone()
    assert c == s.model_copy(deep=True) and c.model_dump_json() == s.model_dump_json()
    c.fingers["bob"] = 1
    c.inputs["bob"]["shout"] = 99
    c.dice.append("x")
    c.rng.forced.append("1")
    c.players.append("zed")
    assert s.fingers["bob"] == 5 and s.inputs["bob"]["shout"] == T0 + 10 and len(s.dice) == 3
    assert s.rng.forced == [] and len(s.players) == 4


def test_a_roller_out_by_mistake_loses_nothing_more_for_a_low_sum():
    s, _ = roll(new(fingers={"alice": 1}), "2", "3", "4")
    s = inp(s, "alice", "shout", 10)
    s, ev = close(s)
    assert [(e.data["player"], e.data["lost"]) for e in ev if e.kind == "finger"] == [("alice", 1)]


def test_tk9_the_winners_choice_completes_the_resolution():
    """Bob shouts first on 6, 6, 5 (17) but his Katana (no triples) costs his last finger; alice is the only other
    hand. The end waits for bob's choice: recovering keeps the game going."""
    start = new(fingers={"alice": 1, "bob": 1, "carol": 0, "dave": 0})
    s, _ = roll(start, "6", "6", "5")
    s = inp(s, "bob", "shout", 100)
    s = inp(s, "bob", "katana", 200)
    s, _ = close(s)
    assert s.phase == "choice" and s.fingers["bob"] == 0
    r, _ = apply(s, "bob", "recover")
    assert r.phase == "roll" and hands(r) == [1, 1, 0, 0] and r.roller == "bob"
    a, ev = apply(s, "bob", "attack")  # alice falls too: both lost their last fingers in this resolution
    assert GAME.result(a).winners == ["alice", "bob"]


def test_tk9_a_winner_alone_with_fingers_is_samurai_without_a_choice():
    s, _ = roll(new(fingers={"alice": 1, "carol": 0, "dave": 0}), "6", "6", "5")
    s = inp(s, "bob", "shout", 100)
    s = inp(s, "alice", "grab", 150)  # a mistake: alice's last finger
    s, ev = close(s)
    assert GAME.result(s).winners == ["bob"] and GAME.pending(s) == []
    assert hands(s) == [0, 5, 0, 0] and "end" in kinds(ev)


def test_resign_during_the_winners_choice_waits_for_it():
    s, _ = roll(new(fingers={"alice": 1, "bob": 1, "dave": 0}), "6", "6", "5")
    s = inp(s, "bob", "shout", 100)
    s = inp(s, "bob", "katana", 200)
    s, _ = close(s)
    s = GAME.resign(s, "carol").state
    assert s.phase == "choice" and s.fingers["carol"] == 0
    s, _ = apply(s, "bob", "recover")
    assert s.phase == "roll" and hands(s) == [1, 1, 0, 0]
    assert_ = GAME.resign(s, "alice").state
    assert GAME.result(assert_).winners == ["bob"]


def test_counts_take_their_plural_in_the_victim_choice_and_the_status():
    """A victim with one finger reads "(1 finger)"; a game over after one roll reads "after 1 roll"."""
    s, _ = roll(new(fingers={"bob": 1, "carol": 2, "dave": 0}), "6", "6", "1/10")  # 13 or 22: alice counts 22
    s, _ = close(s)
    s, _ = apply(s, "alice", "fix:10", T0 + 9000)
    assert [o.label for o in decision(s, "victim").options] == ["{@bob} (1 finger)", "{@carol} (2 fingers)"]
    two = new(players=["alice", "bob"], fingers={"bob": 1})
    s, _ = roll(two, "2", "3", "4")
    s = inp(s, "bob", "grab", 100)  # a mistake: bob's last finger
    s, _ = close(s)
    assert GAME.status(s) == "Over after 1 roll: {@alice} won. {@alice} 4, {@bob} 0"  # 9: alice lost one too
