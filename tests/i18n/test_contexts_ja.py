"""Message contexts (gettext's ``msgctxt``): one English word with a game's own sense is its own catalogue entry
(``games.core.Tc``/``Nc``), so the merged catalogue keeps each sense's Japanese while the English is unchanged —
Forest of Tataraba's empty tile 空きマス, Tatsumi's empty seawell 枯れた井戸, Tatsumi's Tekitatsu off the board 盤外,
where a Tsukimi tile circle's "empty" stays 空 and a lobby option's "off" オフ."""

from __future__ import annotations

import pickle

from babel.messages.pofile import read_po
from PIL import Image

import games
from bot import catalogues, i18n
from games.core import Nc, T, Tc, Text, describe_options, player_ref
from games.tatsumi import solo
from renderers.common import translating
from renderers.common import words as in_language
from renderers.tatsumi import seaboard
from renderers.words import tataraba as tataraba_words
from renderers.words import tatsumi as tatsumi_words
from renderers.words import tsukimi as tsukimi_words
from renderers.words import words


def _boards(lang: str) -> tuple[str, str, str]:
    """The first words chunk of a fresh Forest of Tataraba board (tiles 1-2.. empty), a Tatsumi board with a1
    emptied (no sand dollar: the 13 were out) and b1 depleted with a sand dollar, and a Tsukimi board with an
    empty tile circle, in ``lang``."""
    tataraba = games.get("tataraba").setup(["p0", "p1"], None, 1)
    tatsumi = games.get("tatsumi").setup(["p0", "p1"], None, 1)
    tatsumi.wells[0], tatsumi.wells[1], tatsumi.sand_dollars = "", "", [1]
    tsukimi = games.get("tsukimi").setup(["p0", "p1"], None, 1)
    tsukimi.circle = [None] * len(tsukimi.circle)
    with translating(i18n.translator(lang)):
        return (tataraba_words.board_words(tataraba, {})[0], tatsumi_words.board_words(tatsumi, {})[0],
                tsukimi_words.board_words(tsukimi, {})[-1])


def test_one_english_word_reads_in_each_games_sense_in_japanese_and_the_same_in_english():
    tataraba, tatsumi, tsukimi = _boards("en")
    assert "; 1-2 empty; 1-3 empty;" in tataraba
    assert "Row 1: a1 empty, player 1's dragon here; b1 empty, a sand dollar; " in tatsumi
    assert tsukimi.endswith("Tile circle, clockwise: empty.")
    tataraba, tatsumi, tsukimi = _boards("ja")
    assert "。1-2 空きマス。1-3 空きマス。" in tataraba
    assert "1行目：a1 枯れた井戸、プレイヤー1の竜がここに。b1 枯れた井戸、カシパンあり。" in tatsumi
    assert tsukimi.endswith("タイルの輪（時計回り）：空。")

    empties = [T("empty"), Tc("tataraba tile", "empty"), Tc("tatsumi seawell", "empty")]
    assert [str(t) for t in empties] == [i18n.say(t, "en") for t in empties] == ["empty"] * 3
    assert [i18n.say(t, "ja") for t in empties] == ["空", "空きマス", "枯れた井戸"]


def test_the_solo_tekitatsu_off_the_board_is_not_a_settings_off():
    state = games.get("tatsumi").setup(["p0"], {"solo": True}, 1)
    state.solo.tekitatsu, state.solo.maelstrom = [-1, 3], -1
    status = solo.status(state)
    assert status == "solo card 1/16, Tekitatsu off d1, maelstrom off"
    assert i18n.say(status, "ja") == "ソロカード 1/16、テキタツ 盤外 d1、大渦 盤外"
    setting = describe_options({"void": False})
    assert setting == "void off" and i18n.say(setting, "ja") == "void オフ"


def test_a_text_keeps_its_context_through_names_joins_pickling_and_the_image_translator():
    text = Tc("tatsumi seawell", "empty")
    assert text.context == "tatsumi seawell" and T("empty").context is None and text == T("empty")
    assert pickle.loads(pickle.dumps(text)).context == "tatsumi seawell"
    joined = Text.join(" ", [Tc("tatsumi off the board", "off"), "c5"])
    assert pickle.loads(pickle.dumps(joined)).parts[0].context == "tatsumi off the board"
    assert i18n.say(joined, "ja") == i18n.translator("ja")(joined) == "盤外 c5"
    named = words(T("{player}: {well}", player=player_ref("p0"), well=text), {"p0": "Ann"}.get)
    assert named == "Ann: empty" and named.args["well"].context == "tatsumi seawell"
    named = words(Tc("tatsumi off the board", "{player} off", player=player_ref("p0")), {"p0": "Ann"}.get)
    assert named == "Ann off" and named.context == "tatsumi off the board" and named.args == {"player": "Ann"}
    counted = Nc("tatsumi seawell", "{n} empty well", "{n} empty wells", n=2)
    assert counted == "2 empty wells" and counted.context == "tatsumi seawell" and counted.plural == "{n} empty wells"


def test_a_counted_text_with_a_context_is_looked_up_by_its_context(monkeypatch):
    class Fake:
        def gettext(self, msgid):
            return {"empty": "空"}.get(msgid, msgid)

        def pgettext(self, context, msgid):
            return {("tatsumi seawell", "empty"): "枯れた井戸"}.get((context, msgid), msgid)

        def ngettext(self, singular, plural, n):
            return singular if n == 1 else plural

        def npgettext(self, context, singular, plural, n):
            return {("tatsumi seawell", "{n} well"): "枯れた井戸{n}つ"}.get((context, singular),
                                                                        singular if n == 1 else plural)

    monkeypatch.setattr(i18n, "translations", lambda lang: Fake())
    assert i18n.say(T("empty"), "ja") == "空" and i18n.say(Tc("tatsumi seawell", "empty"), "ja") == "枯れた井戸"
    assert i18n.say(Nc("tatsumi seawell", "{n} well", "{n} wells", n=1234), "ja") == "枯れた井戸1,234つ"
    assert i18n.say(Nc("other", "{n} well", "{n} wells", n=2), "ja") == "2 wells"


def test_a_context_is_extracted_to_the_template_and_checked_in_the_catalogue(tmp_path):
    source = tmp_path / "games" / "tatsumi" / "senses.py"
    source.parent.mkdir(parents=True)
    source.write_text('from games.core import Nc, T, Tc\n'
                      'A = T("empty")\n'
                      'B = Tc("tatsumi seawell", "empty")\n'
                      'C = Nc("tatsumi seawell", "{n} well", "{n} wells", n=2)\n'
                      'D = Tc("tatsumi nowhere", "empty")\n', encoding="utf-8")
    template = catalogues.extract([], tmp_path)["tatsumi"]
    assert {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in template if m.id} == {
        (None, "empty"), ("tatsumi nowhere", "empty"), ("tatsumi seawell", ("{n} well", "{n} wells")),
        ("tatsumi seawell", "empty")}
    # the real catalogue has the seawell's entry (and no plain "empty" of Tatsumi's); a context it lacks is its own
    # untranslated message, whatever the same msgid has in another context
    problems = sorted(p for p in catalogues.problems([], "ja", root=tmp_path)
                      if p.startswith("tatsumi:") and ": unused:" not in p)
    assert problems == ["tatsumi: untranslated: 'empty'", "tatsumi: untranslated: 'empty' (context 'tatsumi nowhere')",
                        "tatsumi: untranslated: '{n} well' (context 'tatsumi seawell')"]
    with (i18n.LOCALES / "tatsumi.pot").open("rb") as fh:
        pot = read_po(fh)
    assert pot.get("empty", context="tatsumi seawell") is not None
    assert pot.get("off", context="tatsumi off the board") is not None and pot.get("off") is None


def test_the_seaboard_writes_an_emptied_well_in_the_images_language(monkeypatch):
    """After the 13th sand dollar a well emptied has no sand dollar: its cell says so in the table's language."""
    state = games.get("tatsumi").setup(["p0", "p1"], None, 1)
    state.wells[0] = ""
    drawn = []
    real = seaboard.label

    def spy(img, xy, text, *args, **kwargs):
        drawn.append(str(in_language(text)))
        return real(img, xy, text, *args, **kwargs)

    monkeypatch.setattr(seaboard, "label", spy)
    for lang in ("en", "ja"):
        with translating(i18n.translator(lang)):
            seaboard.well_image.cache_clear()
            seaboard.draw_wells(Image.new("RGB", (1400, 1400)), state)
    assert [t for t in drawn if t in ("empty", "枯れた井戸")] == ["empty", "枯れた井戸"]
