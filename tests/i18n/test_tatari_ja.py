"""Tatari in Japanese: whole games (2-5 players, several seeds, greedy and random players) read in ja have every
prompt, option label, event, status, result reason and refusal as a Text, and no English word in their Japanese;
the /rules help too. The games' terms come out as the glossary says (成仏の祠, 手元, バースト)."""

from __future__ import annotations

import random

import pytest
from ja_play import JaReader

import games
from bot import i18n
from games.core import Move
from games.tatari.data import FACES

GAME = games.get("tatari")
PLAYERS = ["alice", "bob", "carol", "dave", "erin"]


def play(n: int, seed: int, reader: JaReader) -> None:
    rng = random.Random(seed)
    players = PLAYERS[:n]
    out = GAME.begin(players, {"first": "random" if seed % 2 else "host"}, seed)
    state = out.state
    reader.events(out.events)
    for _ in range(2000):
        reader.read(GAME.status(state), "status")
        pending = GAME.pending(state)
        if not pending:
            break
        d = pending[0]
        reader.decision(d)
        if d.kind == "select":  # TA-3: a face not showing or already set aside is refused with its reason
            for face in FACES:
                if f"set:{face}" not in {o.id for o in d.options}:
                    assert reader.refusal(GAME, state, Move(player=d.player, option=f"set:{face}"))
        pick = GAME.greedy(state, d, rng) if rng.random() < 0.6 else None
        out = GAME.apply(state, Move(player=d.player, option=pick or rng.choice(d.options).id))
        reader.events(out.events)
        state = out.state
        if rng.random() < 0.01 and len(state.in_play()) > 2 and state.phase != "over":
            res = GAME.resign(state, rng.choice(state.in_play()))
            reader.events(res.events)
            state = res.state
    else:
        raise AssertionError("no end")
    reader.result(GAME.result(state))
    quitter = players[0]
    for p in (quitter, "zed"):  # after the end: the game's own refusals
        try:
            GAME.resign(state, p)
        except games.IllegalMove as exc:
            reader.read(exc.args[0], "resign refusal")
    try:
        GAME.begin_turn(state, "zed")
    except games.IllegalMove as exc:
        reader.read(exc.args[0], "begin_turn refusal")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_whole_games_read_in_japanese_are_texts_without_english(n):
    reader = JaReader()
    for seed in range(3):
        play(n, seed, reader)
    assert reader.problems == []
    assert reader.count > 100


def test_the_rules_help_and_summary_read_in_japanese():
    reader = JaReader()
    reader.help(GAME)
    assert reader.problems == [] and len(reader.lines) == 1 + len(GAME.rules_help)


def test_the_games_terms_in_japanese():
    from games.core import player_ref
    from games.tatari.game import Tatari
    from games.tatari.rules import dolls_text

    s = GAME.setup(["alice", "bob"], None, 1)
    s.stashes["bob"] = 10
    s.current = "alice"
    assert i18n.say(Tatari._give_label(s, "bob"), "ja", {"bob": "ボブ"}) == "ボブ（人形10体：満杯、人形は成仏の祠へ）"
    assert i18n.say(dolls_text(3), "ja") == "人形3体" and str(dolls_text(3)) == "3 dolls"
    event = GAME.resign(s, "bob").events[0]
    assert i18n.say(event.text, "ja", {"bob": "ボブ"}) == "ボブが投了し、手元の人形は成仏の祠へ送られた。"
    assert i18n.say(GAME.pending(GAME.setup(["a", "b"], None, 3))[0].prompt, "ja") .startswith(player_ref("a"))


def test_a_face_typed_in_japanese_is_set_aside_as_the_rules_help_says():
    assert GAME.chat_word("人形") == "set:doll" and GAME.chat_word("ダブル人形") == "set:double"
    assert GAME.chat_word("ダブル") == "set:double" and GAME.chat_word("２") == "set:2"
    assert GAME.chat_word("人形だよ") is None and GAME.chat_word("doll") == "set:doll"


def test_dice_are_counted_with_their_counter_in_japanese():
    """Dice take the counter 個 (glossary): "ダイス5個", and the option to roll again says how many in those words."""
    from games.tatari.data import DICE
    from games.tatari.rules import dice_text

    assert [i18n.say(dice_text(n), "ja") for n in (1, 2, 5)] == ["ダイス1個", "ダイス2個", "ダイス5個"]
    rng = random.Random(2)
    state = GAME.setup(["alice", "bob"], None, 2)
    for _ in range(200):
        d = GAME.pending(state)[0]
        again = d.option("continue")
        if again is not None:
            n = DICE - len(state.set_aside)
            assert i18n.say(again.label, "ja") == f"続行（ダイス{n}個を振る）"
            return
        state = GAME.apply(state, Move(player=d.player, option=rng.choice(d.options).id)).state
    raise AssertionError("no decision to roll again")
