"""The acceptance cases of ``shared/cases/tatamokatsu.md`` (TK-A..TK-F), every number asserted.

alice rolls; bob, carol, dave; five fingers each unless said; window 8000 ms from the roll.
"""

from __future__ import annotations

from tatamokatsu_helpers import GAME, T0, apply, close, decision, inp, kinds, new, roll


def hands(s):
    return [s.fingers[p] for p in ("alice", "bob", "carol", "dave")]


def test_case_tk_a_first_shout_wins_and_strikes():
    """TK-A: 1/10, 1/10, 6 (17 possible). Bob +1200, carol +1350; bob strikes: 4, 5, 4, 4; no sum effect."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    assert s.deadline_ms == T0 + 8000
    s = inp(s, "bob", "shout", 1200)
    s = inp(s, "carol", "shout", 1350)
    s, ev = close(s)
    assert "race_won" in kinds(ev)
    d = decision(s, "tatamokatsu")
    assert d.player == "bob"
    assert [o.id for o in d.options] == ["attack", "recover"]
    assert hands(s) == [5, 5, 5, 5]  # carol's shout was no mistake: the roll is a Tatamokatsu
    s, ev = apply(s, "bob", "attack")
    assert hands(s) == [4, 5, 4, 4]
    # no sum effect: no fix, no victim, no salute; the dice pass to bob
    assert s.phase == "roll" and s.roller == "bob"
    assert s.values is None and s.total is None
    assert [e.data["player"] for e in ev if e.kind == "finger"] == ["alice", "carol", "dave"]
    assert [(e.player, e.input, e.ms, e.note) for e in s.last_race] == [
        ("bob", "shout", 1200, "first"),
        ("carol", "shout", 1350, ""),
    ]


def test_case_tk_b_mistaken_shout_and_low_sum():
    """TK-B: 2, 3, 4 (9). Carol shouts: carol loses one (mistake); under 10: alice loses one. 4, 5, 4, 5."""
    s, _ = roll(new(), "2", "3", "4")
    assert [d.kind for d in GAME.pending(s)] == ["race"]  # nothing to fix
    s = inp(s, "carol", "shout", 2000)
    s, ev = close(s)
    assert hands(s) == [4, 5, 4, 5]
    losses = {e.data["player"]: e.data["reason"] for e in ev if e.kind == "finger"}
    assert losses == {"carol": "shouted, but no Tatamokatsu", "alice": "sum under 10"}
    assert s.total == 9
    assert s.phase == "roll" and s.roller == "bob"


def test_case_tk_c_katana_and_salute():
    """TK-C: 4, 4, 4 (12). Katana alice +900, bob +1500, dave +2000, carol never; salutes alice, carol, dave.
    Carol loses one (no Katana; dave is not last), bob loses one (no salute): 5, 4, 4, 5."""
    s, _ = roll(new(), "4", "4", "4")
    s = inp(s, "alice", "katana", 900)
    s = inp(s, "bob", "katana", 1500)
    s = inp(s, "dave", "katana", 2000)
    s = inp(s, "alice", "salute", 2500)  # a salute during the roll's window counts ("since the roll")
    s, ev = close(s)
    assert hands(s) == [5, 5, 4, 5]  # carol: no Katana
    assert s.total == 12 and s.phase == "salute"
    d = decision(s, "salute")
    assert d.player is None and d.deadline_ms == T0 + 8000 + 8000
    s = inp(s, "carol", "salute", 8000 + 1000)
    s = inp(s, "dave", "salute", 8000 + 3000)
    s, ev = close(s)
    assert hands(s) == [5, 4, 4, 5]
    assert [(e.data["player"], e.data["reason"]) for e in ev if e.kind == "finger"] == [("bob", "no salute")]
    assert [(m.player, m.input) for m in s.missed] == [("carol", "katana"), ("bob", "salute")]
    assert s.phase == "roll" and s.roller == "bob"


def test_case_tk_d_dragon_resurrection():
    """TK-D: 2, 5, T. Dave (0 fingers) grabs first (+700), bob second (+800): dave is back to 5, nothing else."""
    s, _ = roll(new(fingers={"dave": 0}), "2", "5", "T")
    s = inp(s, "bob", "grab", 800)
    s = inp(s, "dave", "grab", 700)
    s, ev = close(s)
    assert hands(s) == [5, 5, 5, 5]
    assert "resurrection" in kinds(ev)
    assert "finger" not in kinds(ev)
    assert s.phase == "roll" and s.roller == "bob"
    assert [(e.player, e.ms, e.note) for e in s.last_race] == [("dave", 700, "first"), ("bob", 800, "")]


def test_case_tk_e_fix_one_die_then_victim():
    """TK-E: 1/10, 3, 5 (9 or 18). Nobody shouts; alice is offered 1 (sum 9) and 10 (sum 18); she picks 10 and
    chooses a victim among bob, carol, dave."""
    s, _ = roll(new(), "1/10", "3", "5")
    s, _ = close(s)
    d = decision(s, "fix")
    assert d.player == "alice" and d.deadline_ms == T0 + 16000
    assert [(o.id, o.label) for o in d.options] == [("fix:1", "1 (sum 9)"), ("fix:10", "10 (sum 18)")]
    s, _ = apply(s, "alice", "fix:10", T0 + 9000)
    assert s.values == [10, 3, 5] and s.total == 18
    d = decision(s, "victim")
    assert d.player == "alice"
    assert [o.id for o in d.options] == ["victim:bob", "victim:carol", "victim:dave"]
    s, _ = apply(s, "alice", "victim:carol")
    assert hands(s) == [5, 5, 4, 5]


def test_case_tk_f_seventeen_is_never_offered():
    """TK-F: 1/10, 1/10, 6, nobody shouts: alice is offered sums 8 (1+1) and 26 (10+10), not 17 — once the window
    has closed (TK-11: no count is listed during the race)."""
    s, _ = roll(new(), "1/10", "1/10", "6")
    assert [d.kind for d in GAME.pending(s)] == ["race"]
    s, _ = close(s)
    d = decision(s, "fix")
    assert [(o.id, o.label) for o in d.options] == [("fix:1+1", "1+1 (sum 8)"), ("fix:10+10", "10+10 (sum 26)")]
    assert all("17" not in o.label for o in d.options)
