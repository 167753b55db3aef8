"""Tatamokatsu in Japanese: whole games (2-5 players, several seeds, careful and careless players with inputs timed
at random in each window) read in ja have every prompt, option label, event, status, result reason and refusal as a
Text and no English word in their Japanese; the /rules help too. Typed race words in Japanese count (TK-3)."""

from __future__ import annotations

import random

import pytest
from ja_play import JaReader

import games
from bot import i18n
from games.core import TIMEOUT, Move
from games.tatamokatsu import word_to_input
from games.tatamokatsu.ai import TableDriver
from games.tatamokatsu.data import OPEN

GAME = games.get("tatamokatsu")
PLAYERS = ["alice", "bob", "carol", "dave", "erin"]


def refusals(state, d, reader: JaReader) -> None:
    """Moves the game's own rules refuse now, each read in Japanese."""
    tries = [Move(player="zed", option=d.options[0].id if d.options else "roll", at_ms=state.now_ms)]
    if d.deadline_ms is not None:
        tries.append(Move(player=None, option=TIMEOUT, at_ms=d.deadline_ms - 1))
    if d.player is None:
        tries += [Move(player=state.players[0], option=d.options[0].id, at_ms=d.deadline_ms + 5),
                  Move(player=state.players[0], option=d.options[0].id, at_ms=None),
                  Move(player=None, option="shout", at_ms=state.now_ms)]
    if state.phase == "race":
        tries.append(Move(player=state.roller, option="fix:1", at_ms=state.now_ms))
        if state.anchored:
            tries.append(Move(player=None, option=OPEN, at_ms=state.now_ms))
    if d.kind == "fix":
        tries.append(Move(player=state.roller, option=d.options[0].id, at_ms=d.deadline_ms + 7))
    for move in tries:
        assert reader.refusal(GAME, state, move), move


def play(n: int, seed: int, reader: JaReader) -> None:
    rng = random.Random(seed)
    kinds = {p: ("greedy" if (i + seed) % 2 else "random") for i, p in enumerate(PLAYERS[:n])}
    state = GAME.setup(PLAYERS[:n], None, seed)
    driver = TableDriver(GAME, kinds, rng)
    for _ in range(20000):
        reader.read(GAME.status(state), "status")
        pending = GAME.pending(state)
        if not pending:
            break
        for d in pending:
            reader.decision(d)
        if rng.random() < 0.2:
            refusals(state, pending[0], reader)
        if state.phase == "race" and not state.anchored and rng.random() < 0.5:
            move = Move(player=None, option=OPEN, at_ms=state.roll_ms + rng.randint(0, 300))
        else:
            move = driver(state, pending)
        out = GAME.apply(state, move)
        reader.events(out.events)
        state = out.state
        if rng.random() < 0.002 and state.phase != "over":
            res = GAME.resign(state, rng.choice([p for p in state.players if p not in state.left]))
            if res is not None:
                reader.events(res.events)
                state = res.state
                driver.reset()
    else:
        raise AssertionError("no end")
    reader.result(GAME.result(state))
    assert reader.refusal(GAME, state, Move(player=state.players[0], option="roll"))  # the game is over


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_whole_games_read_in_japanese_are_texts_without_english(n):
    reader = JaReader()
    for seed in range(3):
        play(n, seed, reader)
    assert reader.problems == []
    assert reader.count > 300


def test_the_rules_help_and_summary_read_in_japanese():
    reader = JaReader()
    reader.help(GAME)
    assert reader.problems == [] and len(reader.lines) == 1 + len(GAME.rules_help)


@pytest.mark.parametrize("typed,race_input", [
    ("hai", "salute"), ("HAI", "salute"), ("Hai!", "salute"), ("ｈａｉ", "salute"), ("ＨＡＩ！", "salute"),
    ("はい", "salute"), ("ハイ", "salute"), ("ﾊｲ", "salute"), ("はい！", "salute"), (" ハイ。", "salute"),
    ("tatamokatsu", "shout"), ("Tatamokatsu!", "shout"), ("ＴＡＴＡＭＯＫＡＴＳＵ", "shout"), ("タタモカツ", "shout"),
    ("たたもかつ！", "shout"), ("ﾀﾀﾓｶﾂ", "shout"),
    ("katana", "katana"), ("KATANA!", "katana"), ("ｋａｔａｎａ", "katana"), ("カタナ", "katana"), ("かたな", "katana"),
    ("ｶﾀﾅ", "katana"), ("刀", "katana"), ("刀！", "katana"),
    ("grab", "grab"), ("ＧＲＡＢ", "grab"), ("つかむ", "grab"), ("ツカム", "grab"), ("掴む", "grab"),
    # spoken forms: lengthened and clipped (every ー/〜/～ and a trailing っ/ッ dropped), IME off, other words
    ("はいっ", "salute"), ("はいっ！", "salute"), ("はーい", "salute"), ("ハイッ", "salute"), ("はい〜", "salute"),
    ("はい～！", "salute"), ("ﾊｲｯ", "salute"), ("お辞儀", "salute"), ("おじぎ", "salute"), ("オジギ", "salute"),
    ("たたもかつっ", "shout"), ("タタモカツー", "shout"), ("タタモカツーッ！", "shout"), ("tatamokatu", "shout"),
    ("かたなっ", "katana"), ("カタナー", "katana"), ("とる", "grab"), ("取る", "grab"), ("トルッ", "grab"),
])
def test_every_form_of_a_race_word_counts(typed, race_input):
    assert word_to_input(typed) == race_input == GAME.chat_word(typed)


@pytest.mark.parametrize("typed", ["はいはい", "こんにちは", "hello", "", "！", "刀剣", "タタモ", "たたも", "hi",
                                   "灰", "肺", "っ", "ー", "はいっはい", "取"])
def test_a_word_that_is_no_race_word_counts_as_nothing(typed):
    assert word_to_input(typed) is None


def test_the_games_terms_in_japanese():
    from games.tatamokatsu.data import RACE_LABELS

    assert [i18n.say(RACE_LABELS[i], "ja") for i in ("shout", "grab", "katana", "salute")] == [
        "「タタモカツ！」と叫ぶ", "Tのダイスをつかむ", "カタナ！", "お辞儀して「はい！」"]
    s = GAME.setup(["alice", "bob"], None, 0)
    assert i18n.say(GAME.pending(s)[0].prompt, "ja", {"alice": "あき"}) == "あき：ダイスを3個振ってください。"


def test_the_words_a_race_prompt_shows_are_race_words_in_each_language():
    """The prompt lists what to type in the reader's language, as /rules says (TK-3): タタモカツ, つかむ, カタナ,
    はい in Japanese; each is read back as its input."""
    from games.tatamokatsu.data import TO_TYPE

    for lang, words in (("ja", ["タタモカツ", "つかむ", "カタナ", "はい"]), ("en", ["tatamokatsu", "grab", "katana", "hai"])):
        shown = {i: i18n.say(w, lang) for i, w in TO_TYPE.items()}
        assert [shown[i] for i in ("shout", "grab", "katana", "salute")] == words
        assert all(word_to_input(w) == i for i, w in shown.items())


def test_no_japanese_text_of_the_game_says_keirei_the_military_salute():
    """The rulebook's salute is a 30° bow: お辞儀, never 敬礼 (a hand salute)."""
    po = (i18n.LOCALES / "ja" / "LC_MESSAGES" / "tatamokatsu.po").read_text(encoding="utf-8")
    assert "敬礼" not in po and po.count("お辞儀") >= 27


def test_a_race_time_reads_in_seconds_in_japanese_and_in_ms_in_english():
    """A reaction time of 1000 ms after the roll (TK-10) is "+1000 ms" in English and 「+1.0秒」 in Japanese, never
    「+1,000ミリ秒」; times keep every digit (250 ms: 0.25秒)."""
    s = GAME.setup(["alice", "bob"], None, 0)
    s = GAME.apply(s, Move(player="alice", option="roll", at_ms=0)).state
    if not s.anchored:
        s = GAME.apply(s, Move(player=None, option=OPEN, at_ms=s.roll_ms)).state
    out = GAME.apply(s, Move(player="bob", option="shout", at_ms=s.roll_ms + 1000))
    event = next(e for e in out.events if e.kind == "input")
    assert event.text.startswith("{@bob} ") and event.text.endswith(" (+1000 ms).")
    ja = i18n.say(event.text, "ja")
    assert ja.endswith("（+1.0秒）。") and "ミリ秒" not in ja
    assert [i18n.seconds(ms, "ja") for ms in (1000, 250, 1234, 12000, 0)] == ["1.0", "0.25", "1.234", "12.0", "0.0"]
