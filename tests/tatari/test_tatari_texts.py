"""What players read and type in Tatari: refusals that say why, labels that warn of the Shrine box, the compulsory
gift in /rules, faces typed as faces (rulebook "How to Play" steps 2 and 5; RULINGS TA-3, TA-5, TA-7, TA-8, TA-9)."""

from __future__ import annotations

import pytest
from support import assert_illegal
from test_tatari_cases import act, begin, decision, ids, position
from test_tatari_resign_and_end import to_give_phase

from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store
from games import Move
from games.tatari import GAME


def test_TA_3_a_face_not_showing_is_refused_with_the_reason():
    s = begin(position(), ["2", "2", "3", "4", "doll", "doll"])
    assert_illegal(
        GAME, s, Move(player="alice", option="set:1"),
        match=r"^No die shows 1 in this roll \(2 · 2 · 3 · 4 · doll · doll\)\. Set aside 2, 3, 4 or doll\.$",
    )
    assert_illegal(GAME, s, Move(player="alice", option="set:double"), match=r"^No die shows double-doll in this")


def test_TA_3_a_face_already_set_aside_is_refused_with_the_reason():
    s = begin(position(), ["2", "1", "3", "4", "doll", "doll"], ["2", "2", "3", "4", "1"])
    s = act(s, "set:2").state
    assert ids(s) == ["set:1", "set:3", "set:4"]
    assert_illegal(
        GAME, s, Move(player="alice", option="set:2"),
        match=r"^You already set aside 2 this turn: each face is set aside once \(TA-3\)\. Set aside 1, 3 or 4\.$",
    )
    # not a face at all, or not the player's turn: the contract's own refusals
    assert_illegal(GAME, s, Move(player="alice", option="set:7"), match="not a choice now")
    assert_illegal(GAME, s, Move(player="bob", option="set:2"), match="not your turn")


def test_TA_7_TA_9_the_gift_label_warns_when_the_doll_goes_to_the_shrine_box():
    s = to_give_phase().model_copy(deep=True)
    s.stashes["carol"] = 10
    d = decision(s)
    assert d.prompt == "{@alice}: a 1 is set aside, so you must give one doll — to whom?"
    assert [o.label for o in d.options] == [
        "{@bob} (6 dolls)", "{@carol} (10 dolls: full, the doll goes to the Shrine box)",
    ]
    out = act(s, "give:carol")
    assert [e.text for e in out.events][:2] == [
        "{@alice} gives a doll to {@carol}.", "{@carol} can hold only 10: 1 to the Shrine box.",
    ]


def test_TA_8_TA_9_the_take_labels_say_how_many_dolls_go_to_the_shrine_box():
    """A bust with shrines 7 and 9 tied at 4 and alice holding 8: 2 of the 4 stay, 2 go to the box (TA-9)."""
    s = begin(position((4, 1, 4, 1), (8, 10, 10)), ["double"] * 6)
    assert decision(s).kind == "bust"
    assert [o.label for o in decision(s).options] == [
        "Shrine 7 (4 dolls; 2 to the Shrine box: you can hold only 10)",
        "Shrine 9 (4 dolls; 2 to the Shrine box: you can hold only 10)",
    ]
    s = begin(position((4, 1, 4, 1), (5, 10, 10)), ["double"] * 6)
    assert [o.label for o in decision(s).options] == ["Shrine 7 (4 dolls)", "Shrine 9 (4 dolls)"]


def test_TA_5_TA_9_the_stop_label_warns_when_taken_dolls_overflow():
    """Total 7 with 0 dolls on a shrine 7 of 3, alice holding 9: she takes 3, keeps 1, 2 go to the box."""
    s = begin(position((3, 1, 1, 1), (9, 10, 10)), ["4", "3", "3", "2", "2", "2"], ["3", "2", "2"])
    s = act(s, "set:4").state
    s = act(s, "set:3").state
    assert (s.total, s.dolls) == (7, 0)
    assert decision(s).options[1].label == "Stop: take 3 from shrine 7 (2 to the Shrine box)"
    out = act(s, "stop")
    assert out.state.stashes["alice"] == 10 and out.state.shrines["7"] == 0


def test_TA_7_rules_help_says_the_gift_is_compulsory():
    text = GAME.rules_help["stop"]
    assert "you must then give one doll from your stash to another player of your choice" in text
    assert "lets you" not in text


@pytest.mark.parametrize(
    ("typed", "option"),
    [("1", "set:1"), ("4", "set:4"), (" Doll ", "set:doll"), ("double-doll", "set:double"), ("Double doll", "set:double"),
     ("double", "set:double"), ("two", "set:2"), ("5", None), ("0", None), ("stop", None), ("", None)],
)
def test_a_face_typed_as_itself_is_that_face(typed, option):
    assert GAME.chat_word(typed) == option


async def test_typed_faces_in_the_local_chat(tmp_path):
    """Through the offline adapter: while a face is to be set aside, "1" is the face 1 (refused with the reason
    when no die shows it), "2" the face 2 — not the list's items; in a bust, numbers pick from the list again."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        chat = LocalChat(SessionService(store, seeds=lambda: 1), None)
        for line in ("alice: /play tatari", "bob: /join", "carol: /join", "alice: /start"):
            await chat.line(line)
        assert (await chat.service.show("table")).state.rolled == ["4", "double", "2", "doll", "3", "4"]
        out = await chat.line("alice: 1")
        assert out == ["! alice: No die shows 1 in this roll (4 · double-doll · 2 · doll · 3 · 4). "
                       "Set aside 2, 3, 4, doll or double-doll."]
        out = await chat.line("alice: 2")  # list item 2 is the 3; the face 2 is set aside
        assert out[0] == "alice sets aside 2 ×1: total 2, 0 dolls."
        out = await chat.line("alice: 1")
        assert out[0] == "alice sets aside 1 ×2: total 4, 0 dolls."
        assert (await chat.service.show("table")).pending[0].kind == "bust"
        out = await chat.line("alice: 2")  # a bust's list: item 2 is shrine 8
        assert out[0] == "alice takes 1 doll from shrine 8."
    finally:
        await store.close()


def test_texts_count_one_doll_in_the_singular():
    # total 11 with one doll, stash 10: "1 doll to the Shrine box", in the label and in the event
    s = begin(position(), ["4", "4", "3", "doll", "2", "2"], ["3", "doll", "2", "2"], ["doll", "2", "2"])
    s = act(act(s, "set:4").state, "continue").state
    s = act(act(s, "set:3").state, "continue").state
    s = act(s, "set:doll").state
    assert (s.total, s.dolls) == (11, 1)
    assert decision(s).options[1].label == "Stop: 1 doll to the Shrine box"
    out = act(s, "stop")
    assert out.events[0].text == "{@alice} stops at 11: 1 doll to the Shrine box."
    # a bust with a tie over shrines of one doll each: labels and the take event
    s = begin(position((1, 1, 1, 1)), ["double"] * 6)
    # alice holds 10: the label warns that the doll goes on to the Shrine box (TA-9)
    assert [o.label for o in decision(s).options] == [
        f"Shrine {t} (1 doll; 1 to the Shrine box: you can hold only 10)" for t in (7, 8, 9, 10)
    ]
    out = act(s, "shrine:9")
    assert out.events[0].text == "{@alice} takes 1 doll from shrine 9."


def test_gift_labels_count_dolls():
    s = to_give_phase()
    s = s.model_copy(update={"stashes": {**s.stashes, "bob": 1}})
    assert [o.label for o in decision(s).options] == ["{@bob} (1 doll)", "{@carol} (7 dolls)"]


def test_continue_with_one_die_left_says_die():
    s = begin(position(), ["4", "4", "3", "double", "2", "1"], ["3", "double", "2", "1"], ["double", "2", "1"],
              ["2", "1"])
    s = act(s, "set:4").state
    assert decision(s).options[0].label == "Continue (roll 4 dice)"
    s = act(act(s, "continue").state, "set:3").state
    s = act(act(s, "continue").state, "set:double").state
    assert decision(s).options[0].label == "Continue (roll 2 dice)"
    s = act(act(s, "continue").state, "set:2").state
    assert s.set_aside == ["4", "4", "3", "double", "2"]
    assert decision(s).options[0].label == "Continue (roll 1 die)"
