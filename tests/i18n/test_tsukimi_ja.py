"""Tsukimi in Japanese: whole games (both sides of the Moon, several seeds, greedy and random clans) read in ja
have every prompt, option label, event, status, result reason and refusal (typed answers that the rules refuse,
with their hints) as a Text and no English word in their Japanese; the /rules help too."""

from __future__ import annotations

import random

import pytest
from ja_play import JaReader

import games
from bot import i18n
from games.core import Move
from games.tsukimi.board import SPACES, VERTICES

GAME = games.get("tsukimi")
CORNERS = ("n", "ne", "se", "s", "sw", "nw")
TYPED = ("end", "back", "to", "place", "move", "discard", "tile", "space")
"""Option ids a player types (the hints show them as they are to be typed back) and the corner names of vertices."""
EXAMPLES = ("matcha", "sakura", "strawberry", "blueberry", "carrot")
"""Tile names a player types: the refusals show them as examples of what to type (with their Japanese)."""
WRONG = ("tile:99", "tile:matcha 9", "pumpkin 2", "Z9", "space:Z9", "vertex:Q1-n", "place:Z1-n", "sakura 5",
         "end", "back", "to:A1-n", "C3", "A1-n", "move:A1-n", "discard:C3-n", "matcha 0")


def play(side: str, seed: int, reader: JaReader) -> None:
    rng = random.Random(seed)
    state = GAME.setup(["alice", "bob"], {"side": side}, seed)
    for _ in range(3000):
        reader.read(GAME.status(state), "status")
        pending = GAME.pending(state)
        if not pending:
            break
        d = pending[0]
        reader.decision(d)
        listed = {o.id for o in d.options}
        for typed in rng.sample(WRONG, 4) + [rng.choice(VERTICES), rng.choice(SPACES)]:
            if typed not in listed:
                reader.refusal(GAME, state, Move(player=d.player, option=typed))
        pick = GAME.greedy(state, d, rng) if rng.random() < 0.7 else None
        out = GAME.apply(state, Move(player=d.player, option=pick or rng.choice(d.options).id))
        reader.events(out.events)
        state = out.state
    else:
        raise AssertionError("no end")
    reader.result(GAME.result(state))


@pytest.mark.parametrize("side", ["light", "dark"])
def test_whole_games_read_in_japanese_are_texts_without_english(side):
    reader = JaReader(allowed=CORNERS + TYPED + EXAMPLES)
    for seed in range(2):
        play(side, seed, reader)
    assert reader.problems == []
    assert reader.count > 500


def test_the_rules_help_and_summary_read_in_japanese():
    reader = JaReader(allowed=CORNERS + TYPED + EXAMPLES)
    reader.help(GAME)
    assert reader.problems == [] and len(reader.lines) == 1 + len(GAME.rules_help)


def test_the_games_terms_in_japanese():
    from games.tsukimi.data import tile_text

    s = GAME.setup(["alice", "bob"], None, 2)
    d = GAME.pending(s)[0]
    assert i18n.say(d.prompt, "ja", {"alice": "あき"}) == (
        "あき：餅タイルを1枚取ってください（手持ち：うさぎ15匹。コストは箱へ）。")
    assert i18n.say(tile_text(13), "ja") == "抹茶0" and str(tile_text(13)) == "matcha 0"
    assert i18n.say(GAME.status(s), "ja", {"alice": "あき", "bob": "ぼぶ"}) == (
        "月見（表側）、タイル1/18 · 白のあき：現在0点、手持ちうさぎ15匹 · 紫のぼぶ：現在0点、手持ちうさぎ15匹 · 手番：あき")


@pytest.mark.parametrize("typed,option", [("終わり", "end"), ("おわり", "end"), ("オワリ", "end"), ("終了", "end"),
                                          ("戻る", "back"), ("もどる", "back"), ("ﾓﾄﾞﾙ", "back"), (" END ", "end")])
def test_end_and_back_may_be_typed_in_japanese(typed, option):
    from games.tsukimi.answers import normalise

    assert normalise(typed) == option


def test_a_vertex_name_has_one_width_and_the_languages_brackets():
    """A vertex is named in half-width letters and digits in every language (C3-n, never Ｃ３); its other names
    stand in the language's brackets: 「C3-n（= B2-se = B3-sw）」 in Japanese, "C3-n (= B2-se = B3-sw)" in English."""
    import re

    from games.tsukimi.board import vertex_label

    name = r"[A-E][1-5]-(?:n|ne|se|s|sw|nw)"
    ja = re.compile(rf"{name}(?:（= {name}(?: = {name})*）)?")
    for v in VERTICES:
        said = i18n.say(vertex_label(v), "ja")
        assert ja.fullmatch(said), said
    assert i18n.say(vertex_label("C3-n", "B2-se"), "ja") == "B2-se（= C3-n = B3-sw）"
    assert vertex_label("C3-n", "B2-se") == "B2-se (= C3-n = B3-sw)"
