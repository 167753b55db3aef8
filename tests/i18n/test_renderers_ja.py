"""Boards, cards and words drawn for a Japanese table (``renderers.render(..., translate=bot.i18n.translator("ja"))``):
every game's decision board draws in Japanese at the English size, Tatsumi's card texts and decision header (no
spaces to break at) stay inside their lines, the result cards translate their headings, and the shared pieces of the
board in words are said in Japanese. Here, not in tests/renderers: these tests need the bot's catalogues."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import games
import renderers
from bot import i18n
from games.core import Move, T, Text
from games.tatsumi import data as D
from renderers import common
from renderers import words as W
from renderers.tatsumi import cards, decision

JA = i18n.translator("ja")
SETUPS = [("tatari", 3, None), ("tsukimi", 2, None), ("tatamokatsu", 3, None), ("tataraba", 2, None),
          ("tatsumi", 2, None), ("tatsumi", 1, {"solo": True})]


def decision_state(game_id: str, n: int, options, seed: int = 3, moves: int = 6):
    """A state a few random legal moves into a game, with a decision open."""
    game = games.get(game_id)
    rng = random.Random(seed)
    state = game.begin([f"p{i}" for i in range(n)], options, seed).state
    for _ in range(moves):
        pending = [d for d in game.pending(state) if d.player is not None]
        if not pending:
            break
        d = pending[0]
        state = game.apply(state, Move(player=d.player, option=rng.choice(d.options).id)).state
    assert game.pending(state)
    return state


@pytest.mark.parametrize(("game_id", "n", "options"), SETUPS, ids=lambda v: str(v))
def test_decision_board_draws_in_japanese_at_the_english_size(game_id, n, options):
    state = decision_state(game_id, n, options)
    names = {"p0": "さくら", "p1": "alice"}
    english = renderers.render(state, names=names)
    japanese = renderers.render(state, names=names, translate=JA)
    en, ja = Image.open(io.BytesIO(english)), Image.open(io.BytesIO(japanese))
    assert ja.size == en.size
    assert japanese != english  # its words were translated
    assert renderers.render(state, names=names) == english  # and the English board is drawn as before


@pytest.mark.parametrize("card", sorted(D.CARD_TEXT))
def test_tatsumi_card_text_in_japanese_is_broken_between_characters_within_the_card(card):
    width = cards.CARD_W - 10
    fnt = common.font(cards.CARD_TEXT_PX)
    with common.translating(JA):
        said = str(common.words(D.CARD_TEXT[card]))
        lines = cards.wrap(D.CARD_TEXT[card], width)
    assert said != str(D.CARD_TEXT[card])
    assert all(fnt.getlength(line) <= width for line in lines), lines
    assert "".join(lines) == said.replace(" ", "")  # nothing lost
    assert not any(line[0] in common.NO_LINE_START for line in lines[1:]), lines
    assert len(lines) <= 3, lines  # the card shows three lines
    for before, after in zip(lines, lines[1:], strict=False):  # never inside a word: 終え|ると, 1種に|つき
        assert not (common._hiragana(before[-1]) and common._hiragana(after[0])), lines


def test_english_card_text_still_wraps_at_spaces():
    assert cards.wrap("one two three four five six seven", 60) == ["one two", "three four", "five six", "seven"]


def test_tatsumi_header_lines_of_a_long_japanese_prompt_fit():
    prompt = "あなたの竜を別の井戸へ飛ばすか、となりの守られていない井戸から二つのリングを採取してください。"
    lines = decision._lines(prompt, decision.HEADER_PX, 300)
    fnt = common.font(decision.HEADER_PX, True)
    assert len(lines) >= 2 and all(fnt.getlength(line) <= 300 for line in lines), lines
    assert "".join(lines) == prompt


def test_tatsumi_cards_in_japanese_are_cached_apart_from_english():
    card = sorted(D.CARD_TEXT)[0]
    english = cards.card_face(card).tobytes()
    with common.translating(JA):
        japanese = cards.card_face(card).tobytes()
        tile = cards.shrine_tile("F", "front").tobytes()
    assert japanese != english
    assert cards.card_face(card).tobytes() == english
    assert cards.shrine_tile("F", "front").tobytes() != tile


def test_result_cards_translate_their_headings():
    from bot import results
    from bot.store.records import PlayerStats

    stats = PlayerStats(player_id="u1", name="alice", games=[], recent=[])
    english = results.stats_card(stats, "alice")
    assert results.stats_card(stats, "alice", lang="ja") != english
    assert results.stats_card(stats, "alice", lang="en") == english


def test_shared_pieces_of_the_words_in_japanese():
    state = decision_state("tatsumi", 2, None)
    name = W.namer(state, {})
    assert name("p0") == "player 1" and isinstance(name("p0"), Text)
    assert i18n.say(name("p0"), "ja") == "プレイヤー1"
    assert i18n.say(W.listing([T("fire"), T("water"), T("wind")]), "ja") == "火、水と風"
    with common.translating(JA):
        parts = W.decision_parts(games.get("tatsumi"), state, name)
        said = [i18n.say(form, "ja") for part in parts for form in part.forms() if form]
    assert any(text.startswith("選択肢：") for text in said), said
    assert not any("Options" in text or "decides" in text for text in said), said


def test_text_drawn_straight_with_pillow_is_in_the_images_language():
    """``ImageDraw.text`` splits what it draws into lines; a :class:`Text` without a line break stays itself, so a
    board label drawn straight with Pillow (Tatari's "Shrine box") comes out in Japanese."""
    from PIL import Image, ImageDraw

    from bot.i18n import translator
    from games.core import T
    from renderers.common import font, translating

    def drawn(text, translate=None) -> bytes:
        image = Image.new("L", (300, 40))
        with translating(translate):
            ImageDraw.Draw(image).text((5, 5), text, font=font(16), fill=255)
        return image.tobytes()

    assert drawn(T("Shrine box"), translator("ja")) == drawn("成仏の祠") != drawn("Shrine box")
    assert drawn(T("Shrine box")) == drawn("Shrine box")
    assert T("a\\nb").split("\\n") == ["a", "b"] and T("ab").split("\\n")[0].msgid == "ab"


class _Chars:
    """A font in which every character is 10 px wide: where a line breaks is then exact."""

    @staticmethod
    def getlength(text: str) -> float:
        return 10.0 * len(text)


@pytest.mark.parametrize("text,lines", [
    ("ハッピーエンドです。", ["ハッ", "ピーエ", "ンドで", "す。"]),  # ー never starts a line: ピ goes with it
    ("あいうっかり", ["あい", "うっか", "り"]),  # nor a small っ
    ("ごは「おにぎり」", ["ごは", "「おに", "ぎり」"]),  # 「 never ends a line
    ("おにぎ」です", ["おに", "ぎ」で", "す"]),  # 」 never starts one
    ("あいう、えお", ["あい", "う、", "えお"]),  # after 、 is a phrase boundary
    ("手番を終える", ["手番を", "終える"]),  # so is hiragana before kanji: never 手番を終|える
])
def test_japanese_breaks_between_characters_as_jis_x_4051_allows(text, lines):
    assert common.break_lines(text, 30, _Chars()) == lines


def test_one_line_breaking_rule_serves_every_renderer():
    """The line-start list and the breaking itself are defined once (renderers/common.py); the wrappers of the
    Tatsumi cards and header and of the result cards call it."""
    import ast
    from pathlib import Path

    root = Path(renderers.__file__).parent
    defined = sorted(f"{p.relative_to(root)}:{node.targets[0].id if isinstance(node, ast.Assign) else node.name}"
                     for p in root.rglob("*.py") for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                     if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                         and node.targets[0].id in ("NO_LINE_START", "NO_LINE_END"))
                     or (isinstance(node, ast.FunctionDef) and node.name == "break_lines"))
    assert defined == ["common.py:NO_LINE_END", "common.py:NO_LINE_START", "common.py:break_lines"]
    from renderers import results

    assert results.wrap("ハッピーエンド", results.SMALL_PX, common.font(results.SMALL_PX).getlength("ハッピ") + 1)[1][0] != "ー"
