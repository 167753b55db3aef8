"""A roll resolves as a whole (TK-12): its Katana (TK-7) and its sum effect (TK-6) together, the end (TK-9) decided
only after both, whatever the sum effect needs (the roller's count, the salute window, the victim choice).

The three endgames of the outside review are pinned exactly; a property test then plays random endgames and
compares the engine with an independent reference that applies the Katana and the sum effect together.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tatamokatsu_helpers import GAME, T0, apply, close, inp, kinds, new, roll

from games.tatamokatsu.data import DIE_AB, DIE_C

TRIO = ["alice", "bob", "carol"]


def endgame():
    """Alice (the roller) and bob have 1 finger each, carol none."""
    return new(players=TRIO, fingers={"alice": 1, "bob": 1, "carol": 0})


def hands(s):
    return [s.fingers[p] for p in s.players]


def katana_roll(faces, first, last):
    """The endgame rolls ``faces``; both press Katana, ``first`` at +300 ms, ``last`` at +700 ms; the window
    closes: (state, events of the close)."""
    s, _ = roll(endgame(), *faces)
    s = inp(s, first, "katana", 300)
    s = inp(s, last, "katana", 700)
    return close(s)


# -- the three positions -------------------------------------------------------------------------------------------


def test_tk12_katana_then_salute_window_alice_fails_to_salute_and_they_share():
    """4·4·4 (sum 12), both Katana, bob last (TK-7): bob loses his last finger, yet the salute window opens (TK-12);
    alice does not salute and loses her last finger in the same resolution: a shared win (TK-9)."""
    s, ev = katana_roll(("4", "4", "4"), "alice", "bob")
    assert kinds(ev) == ["window", "katana", "finger", "sum"]
    assert [e.text for e in ev] == [
        "Last Katana: {@bob} (+700 ms).",
        "Triples: Katana!",
        "{@bob} loses 1 finger (last Katana): 0 left.",
        "Sum 12: salute! Say Hai.",
    ]
    assert s.phase == "salute" and hands(s) == [1, 0, 0] and GAME.result(s) is None
    assert s.deadline_ms == T0 + 16000 and [d.kind for d in GAME.pending(s)] == ["salute"]
    s, ev = close(s)
    assert [e.text for e in ev] == [
        "No salute from {@alice}.",
        "{@alice} loses 1 finger (no salute): 0 left.",
        "The last fingers fell together: {@alice}, {@bob} share the win.",
    ]
    r = GAME.result(s)
    assert r.winners == ["alice", "bob"] and r.ranking == [["alice", "bob"], ["carol"]]
    assert r.scores == {"alice": 0, "bob": 0, "carol": 0}


def test_tk12_katana_then_salute_window_alice_salutes_and_wins():
    """The same roll; alice salutes in the salute window (the window closes at once): she is the Samurai."""
    s, _ = katana_roll(("4", "4", "4"), "alice", "bob")
    s, ev = apply(s, "alice", "salute", T0 + 8000 + 1200)
    assert [e.text for e in ev] == [
        "{@alice} salutes (+1200 ms into the salute window).",
        "Salutes: {@alice} +1200 ms after the salute was called.",
        "{@alice} is the last with fingers: Samurai!",
    ]
    r = GAME.result(s)
    assert r.winners == ["alice"] and r.ranking == [["alice"], ["bob"], ["carol"]]
    assert hands(s) == [1, 0, 0]


def test_tk12_a_salute_made_during_the_race_counts_and_alice_wins():
    """Alice saluted during the race already (TK-6: "since the roll"): nothing is owed, she is the Samurai."""
    s, _ = roll(endgame(), "4", "4", "4")
    s = inp(s, "alice", "katana", 300)
    s = inp(s, "alice", "salute", 400)
    s = inp(s, "bob", "katana", 700)
    s, ev = close(s)
    assert [e.text for e in ev][-3:] == [
        "Sum 12: salute! Say Hai.",
        "Everyone has already saluted.",
        "{@alice} is the last with fingers: Samurai!",
    ]
    assert GAME.result(s).winners == ["alice"]


def test_tk12_katana_then_victim_above_17_they_share():
    """6·6·6 (sum 18), alice last Katana: she loses her last finger to the Katana AND, as roller, chooses a victim
    above 17 — bob, the only one with fingers (C-3: no question) — so they share the win (TK-7, TK-9, TK-12)."""
    s, ev = katana_roll(("6", "6", "6"), "bob", "alice")
    assert [e.text for e in ev] == [
        "Last Katana: {@alice} (+700 ms).",
        "Triples: Katana!",
        "{@alice} loses 1 finger (last Katana): 0 left.",
        "Sum 18: above 17.",
        "{@bob} loses 1 finger (chosen by {@alice}): 0 left.",
        "The last fingers fell together: {@alice}, {@bob} share the win.",
    ]
    r = GAME.result(s)
    assert r.winners == ["alice", "bob"] and r.ranking == [["alice", "bob"], ["carol"]]


def test_tk12_katana_then_under_10_they_share():
    """2·2·2 (sum 6), bob last Katana: bob loses his last finger, alice hers for the sum under 10, at one close:
    a shared win (TK-7, TK-9, TK-12)."""
    s, ev = katana_roll(("2", "2", "2"), "alice", "bob")
    assert [e.text for e in ev] == [
        "Last Katana: {@bob} (+700 ms).",
        "Triples: Katana!",
        "Sum 6: under 10.",
        "{@alice} loses 1 finger (sum under 10): 0 left.",
        "{@bob} loses 1 finger (last Katana): 0 left.",
        "The last fingers fell together: {@alice}, {@bob} share the win.",
    ]
    assert GAME.result(s).winners == ["alice", "bob"]


def test_tk12_a_one_or_ten_triple_waits_for_the_rollers_count():
    """1/10·1/10·1/10, bob last Katana: the game waits for alice's count (TK-6, TK-11) before the end (TK-12).
    Counting 1+1+1 (3, under 10) costs her last finger too: shared. Counting 10+10+1 (21, above 17) finds no
    opponent with fingers: alice is the Samurai."""
    s, ev = katana_roll(("1/10", "1/10", "1/10"), "alice", "bob")
    assert [e.text for e in ev][-2:] == ["{@bob} loses 1 finger (last Katana): 0 left.",
                                          "{@alice}, count the 1/10 dice."]
    assert s.phase == "fix" and GAME.result(s) is None
    assert [o.id for o in GAME.pending(s)[0].options] == ["fix:1+1+1", "fix:1+1+10", "fix:1+10+10", "fix:10+10+10"]
    low, ev = apply(s, "alice", "fix:1+1+1", T0 + 9000)
    assert [e.text for e in ev] == [
        "{@alice} counts 1+1+1: sum 3.",
        "Sum 3: under 10.",
        "{@alice} loses 1 finger (sum under 10): 0 left.",
        "The last fingers fell together: {@alice}, {@bob} share the win.",
    ]
    high, ev = apply(s, "alice", "fix:1+10+10", T0 + 9000)
    assert [e.text for e in ev][1:] == [
        "Sum 21: above 17, but no opponent has fingers.",
        "{@alice} is the last with fingers: Samurai!",
    ]
    assert GAME.result(high).winners == ["alice"] and hands(high) == [1, 0, 0]


def test_tk12_resigning_during_the_sum_effect_ends_with_the_resolutions_hands():
    """Bob (out to the Katana) leaves while the salute window is open: alice is the only hand left (TK-9)."""
    s, _ = katana_roll(("4", "4", "4"), "alice", "bob")
    out = GAME.resign(s, "bob")
    assert GAME.result(out.state).winners == ["alice"] and out.state.resolution_before == {}


# -- the property: the Katana and the sum effect applied together ----------------------------------------------------


def reference(fingers, players, roller, dice, katanas, salutes, count_pick, victim_pick):
    """What TK-6, TK-7, TK-8 and TK-9 give when the roll's Katana and sum effect are applied together (TK-12),
    written from the rulings without the engine: ``(hands after, winners or None while the game goes on)``.

    ``katanas``/``salutes``: player -> ms of their input (players without fingers are ignored, TK-3);
    ``count_pick``/``victim_pick``: index of the roller's count (offered sums ascending) and victim (seat order)."""
    alive = [p for p in players if fingers[p] > 0]
    katanas = {p: t for p, t in katanas.items() if p in alive}
    saluted = {p for p in salutes if p in alive}
    loss = dict.fromkeys(players, 0)
    if dice[0] == dice[1] == dice[2]:
        missing = [p for p in alive if p not in katanas]
        for p in missing or [p for p in katanas if katanas[p] == max(katanas.values())]:
            loss[p] += 1
    else:
        for p in katanas:  # a Katana without triples is a mistake (TK-8)
            loss[p] += 1
    # The sums the roller may count: each 1/10 die as 1 or 10; 10 and 17 are never offered (TK-6).
    wild = dice.count("1/10")
    base = sum(int(f) for f in dice if f != "1/10")
    sums = sorted({base + k + 10 * (wild - k) for k in range(wild + 1)} - {10, 17})
    if sums:
        total = sums[count_pick % len(sums)]
        after_katana = [p for p in players if fingers[p] - loss[p] > 0]
        if total < 10:
            loss[roller] += 1
        elif total <= 16:
            for p in after_katana:
                if p not in saluted:
                    loss[p] += 1
        else:
            victims = [p for p in after_katana if p != roller]
            if victims:
                loss[victims[victim_pick % len(victims)]] += 1
    after = {p: max(0, fingers[p] - loss[p]) for p in players}
    left = [p for p in players if after[p] > 0]
    if len(left) >= 2:
        return after, None
    return after, left or alive


@st.composite
def endgames(draw):
    n = draw(st.integers(2, 4))
    players = ["alice", "bob", "carol", "dave"][:n]
    fingers = {p: draw(st.integers(0, 2)) for p in players}
    alive = [p for p in players if fingers[p] > 0]
    if len(alive) < 2:  # a game under way has at least two hands with fingers
        fingers[players[0]] = fingers[players[1]] = 1
        alive = [p for p in players if fingers[p] > 0]
    roller = draw(st.sampled_from(alive))
    triple = draw(st.booleans())
    if triple:
        face = draw(st.sampled_from([f for f in DIE_AB if f in DIE_C]))
        dice = [face] * 3
    else:
        dice = [draw(st.sampled_from(DIE_AB)), draw(st.sampled_from(DIE_AB)),
                draw(st.sampled_from([f for f in DIE_C if f != "T"]))]
    times = st.sampled_from([100, 200, 300, 400])
    katanas = {p: draw(times) for p in players if draw(st.booleans())}
    race_salutes = {p: draw(times) for p in players if draw(st.booleans())}
    window_salutes = {p: draw(times) for p in players if draw(st.booleans())}
    return dict(players=players, fingers=fingers, roller=roller, dice=dice, katanas=katanas,
                race_salutes=race_salutes, window_salutes=window_salutes,
                count_pick=draw(st.integers(0, 3)), victim_pick=draw(st.integers(0, 3)))


def play(g):
    """Drive the engine through one roll of ``g``: race inputs, the close, the count, salutes, the victim."""
    s = new(players=g["players"], fingers=g["fingers"])
    s.roller = g["roller"]
    s, _ = roll(s, *g["dice"])
    for p, ms in g["katanas"].items():
        s = inp(s, p, "katana", ms)
    for p, ms in g["race_salutes"].items():
        s = inp(s, p, "salute", ms + 1)
    s, _ = close(s)
    if s.phase == "fix":
        options = GAME.pending(s)[0].options
        s, _ = apply(s, s.roller, options[g["count_pick"] % len(options)].id, s.now_ms + 100)
    if s.phase == "salute":
        opened = s.window_open_ms
        for p, ms in g["window_salutes"].items():
            if s.phase == "salute":
                s = inp(s, p, "salute", ms, t0=opened)
        if s.phase == "salute":
            s, _ = close(s)
    if s.phase == "victim":
        options = GAME.pending(s)[0].options
        s, _ = apply(s, s.roller, options[g["victim_pick"] % len(options)].id)
    return s


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames())
def test_tk12_random_endgames_equal_the_katana_and_the_sum_effect_together(g):
    """Over random endgames (hands of 0-2 fingers, triples and plain rolls, random Katanas and salutes, any count
    and victim), the engine's hands and end equal the reference's (TK-6, TK-7, TK-9, TK-12)."""
    s = play(g)
    salutes = {**g["window_salutes"], **g["race_salutes"]}
    after, winners = reference(g["fingers"], g["players"], g["roller"], g["dice"], g["katanas"], salutes,
                               g["count_pick"], g["victim_pick"])
    assert s.fingers == after
    if winners is None:
        assert s.phase == "roll" and GAME.result(s) is None
    else:
        assert s.phase == "over" and GAME.result(s).winners == winners
