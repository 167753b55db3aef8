"""Acceptance cases of shared/cases/tatari.md (TA-A … TA-F), every number asserted."""

from __future__ import annotations

from games import Move, force
from games.core import Rng
from games.tatari import GAME, TatariState

P = ["alice", "bob", "carol"]


def position(shrines=(1, 1, 1, 1), stashes=(10, 10, 10), players=P) -> TatariState:
    """A position with alice to play; the Shrine box holds the rest of the 44 dolls."""
    st = dict(zip(players, stashes, strict=True))
    sh = {str(k): v for k, v in zip((7, 8, 9, 10), shrines, strict=True)}
    return TatariState(
        players=list(players), rng=Rng(seed=1), stashes=st, shrines=sh,
        box=44 - sum(st.values()) - sum(sh.values()), current=players[0],
    )


def begin(state: TatariState, *rolls: list[str]) -> TatariState:
    """Start alice's turn with the given rolls forced (one list per throw)."""
    faces = [f for roll in rolls for f in roll]
    return GAME.begin_turn(force(state, *faces), state.current).state


def act(state, option, player="alice"):
    return GAME.apply(state, Move(player=player, option=option))


def decision(state):
    (d,) = GAME.pending(state)
    return d


def ids(state):
    return [o.id for o in decision(state).options]


def conserved(s: TatariState) -> None:
    assert sum(s.stashes.values()) + sum(s.shrines.values()) + s.box == 44


def rulebook_example_to_total_8(stash=6):
    """TA-A throws 1-4: 4; two double-dolls; 3 (Stop offered, continue); 1 (total 8, dolls 4)."""
    s = begin(
        position((4, 3, 4, 1), (stash, 10, 10)),
        ["4", "1", "2", "doll", "3", "double"],
        ["double", "double", "1", "2", "3"],
        ["3", "1", "2"],
        ["1", "2"],
        ["double"],
    )
    assert decision(s).kind == "select" and s.rolled == ["4", "1", "2", "doll", "3", "double"]
    s = act(s, "set:4").state
    assert (s.total, s.dolls, s.set_aside) == (4, 0, ["4"])
    # total 4: Stop is not offered, the five other dice are rolled at once
    assert decision(s).kind == "select" and s.rolled == ["double", "double", "1", "2", "3"]
    s = act(s, "set:double").state
    assert (s.total, s.dolls) == (4, 4)
    assert decision(s).kind == "select" and s.rolled == ["3", "1", "2"]
    s = act(s, "set:3").state
    assert (s.total, s.dolls) == (7, 4)
    assert ids(s) == ["continue", "stop"]
    s = act(s, "continue").state
    assert s.rolled == ["1", "2"] and ids(s) == ["set:1", "set:2"]
    s = act(s, "set:1").state
    assert (s.total, s.dolls, len(s.set_aside)) == (8, 4, 5)
    assert ids(s) == ["continue", "stop"]
    return s


def test_TA_A_rulebook_bust_example():
    s = rulebook_example_to_total_8()
    out = act(s, "continue")
    s = out.state
    assert [e.kind for e in out.events] == ["continue", "roll", "bust"]
    d = decision(s)
    assert d.kind == "bust" and d.player == "alice"
    assert [o.id for o in d.options] == ["shrine:7", "shrine:9"]
    s = act(s, "shrine:9").state
    assert s.stashes == {"alice": 10, "bob": 10, "carol": 10}
    assert s.shrines == {"7": 4, "8": 3, "9": 0, "10": 1}
    assert s.box == 44 - 30 - 8
    assert s.current == "bob"
    conserved(s)


def test_TA_A_with_stash_8_the_box_gains_2():
    s = rulebook_example_to_total_8(stash=8)
    box = s.box
    s = act(act(s, "continue").state, "shrine:9").state
    assert s.stashes["alice"] == 10 and s.box == box + 2 and s.shrines["9"] == 0
    conserved(s)


def test_TA_B_rulebook_stop_example():
    s = rulebook_example_to_total_8()
    box = s.box
    s = act(s, "stop").state
    assert s.shrines["8"] == 4 and s.stashes["alice"] == 5
    d = decision(s)
    assert d.kind == "give" and [o.id for o in d.options] == ["give:bob", "give:carol"]
    out = act(s, "give:bob")
    s = out.state
    assert s.stashes == {"alice": 4, "bob": 10, "carol": 10}
    assert s.box == box + 1
    assert [e.kind for e in out.events][:2] == ["give", "overflow"]
    assert s.current == "bob"
    conserved(s)


def test_TA_C_faq1_take_the_difference():
    s = begin(
        position((1, 1, 3, 1), (6, 10, 10)),
        ["4", "double", "1", "1", "2", "3"],
        ["double", "1", "3", "3", "2"],
        ["3", "1", "1", "2"],
        ["2", "1", "1"],
    )
    for opt in ("set:4", "set:double", "set:3", "continue", "set:2"):
        s = act(s, opt).state
    assert (s.total, s.dolls) == (9, 2)
    s = act(s, "stop").state
    assert s.shrines["9"] == 2 and s.stashes["alice"] == 7
    assert s.current == "bob"  # no 1 set aside: no gift
    conserved(s)


def test_TA_D_faq2_zero_dolls_takes_the_shrine_and_11_plus_moves_nothing():
    s = begin(position((1, 1, 1, 2), (6, 10, 10)), ["4", "4", "2", "1", "3", "doll"], ["2", "3", "1", "doll"])
    s = act(s, "set:4").state
    assert s.total == 8 and ids(s) == ["continue", "stop"]
    s = act(act(s, "continue").state, "set:2").state
    assert (s.total, s.dolls) == (10, 0)
    s = act(s, "stop").state
    assert s.shrines["10"] == 0 and s.stashes["alice"] == 8
    conserved(s)

    s = begin(position((1, 1, 1, 2), (6, 10, 10)), ["4", "4", "4", "2", "3", "doll"])
    box = s.box
    s = act(act(s, "set:4").state, "stop").state
    assert s.shrines == {"7": 1, "8": 1, "9": 1, "10": 2} and s.stashes["alice"] == 6 and s.box == box


def test_TA_E_faq5_six_double_dolls_bust():
    s = position((2, 1, 1, 1), (6, 10, 10))
    out = GAME.begin_turn(force(s, *["double"] * 6), "alice")
    assert [e.kind for e in out.events] == ["roll", "set_aside", "bust", "take", "roll"]
    assert out.events[2].data == {"reason": "low_total"} and out.events[4].data["player"] == "bob"
    s = out.state
    assert s.stashes["alice"] == 8 and s.shrines["7"] == 0 and s.current == "bob"
    conserved(s)


def test_TA_F_total_11_sends_counted_dolls_to_the_box():
    s = begin(
        position((1, 1, 1, 1), (10, 10, 10)),
        ["4", "4", "3", "doll", "double", "2"],
        ["3", "doll", "double", "2"],
        ["doll", "double", "2"],
        ["double", "2"],
    )
    box = s.box
    for opt in ("set:4", "continue", "set:3", "continue", "set:doll", "continue", "set:double"):
        s = act(s, opt).state
    assert (s.total, s.dolls) == (11, 3)
    s = act(s, "stop").state
    assert s.stashes["alice"] == 7 and s.box == box + 3 and s.current == "bob"
    conserved(s)
