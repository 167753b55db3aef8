"""The translation catalogues (bot/locales, gettext kept with Babel; ARCHITECTURE.md "Text and languages"): every
text of the source has its Japanese, with the same placeholders and the glossary's terms, compiled; texts are
made with literal message ids so extraction sees them; the renderer fills, counts and nests exactly."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import catalogues, i18n
from bot.discord.bot import command_strings
from games.core import N, T, Text, player_ref

ROOT = Path(__file__).resolve().parents[2]


def test_every_text_has_its_japanese_with_the_same_placeholders_and_compiled():
    """The slash commands' strings come from the bot's own command tree (built offline here, by the caller)."""
    assert catalogues.problems(command_strings(), "ja") == []


def test_an_entry_the_source_no_longer_uses_is_reported(tmp_path):
    """``i18n check`` names a catalogue entry no ``T()`` of the source makes any more (``i18n update`` drops it)."""
    source = tmp_path / "games" / "tatsumi" / "senses.py"
    source.parent.mkdir(parents=True)
    source.write_text('from games.core import T\nA = T("Flying Fish")\n', encoding="utf-8")
    unused = [p for p in catalogues.problems([], "ja", root=tmp_path) if p.startswith("tatsumi: unused:")]
    assert "tatsumi: unused: '+1 per inland ring': run python -m bot i18n update" in unused
    assert not any("'Flying Fish'" in p for p in unused)


WANTED = {"T": 1, "N": 2, "Tc": 2, "Nc": 3}
"""How many leading arguments of each text maker are extracted (context, message ids): they must be literals."""


def test_texts_are_made_with_literal_message_ids():
    """Babel extracts only literal strings: ``T(f"…")``, ``T(name)`` or ``Tc(ctx, "…")`` would never reach the
    catalogue."""
    bad = []
    for folder in catalogues.SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in WANTED:
                    wanted = WANTED[node.func.id]
                    args = node.args[:wanted]
                    if len(args) < wanted or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                      for a in args):
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bad == []


def test_english_is_the_text_itself_and_japanese_comes_from_the_catalogue(monkeypatch):
    class Fake:
        def gettext(self, msgid):
            return {"{player} continues.": "{player}は続ける。"}.get(msgid, msgid)

        def ngettext(self, singular, plural, n):
            return {"{n} doll": "人形{n}体"}.get(singular, singular if n == 1 else plural)

    monkeypatch.setattr(i18n, "translations", lambda lang: Fake())
    text = T("{player} continues.", player=player_ref("alice"))
    assert text == "{@alice} continues."
    assert i18n.say(text, "ja", {"alice": "あきら"}) == "あきらは続ける。"
    assert i18n.say(text, "en-US", {"alice": "Alice"}) == "Alice continues."
    dolls = N("{n} doll", "{n} dolls", n=1234)
    assert dolls == "1234 dolls" and i18n.say(dolls, "ja") == "人形1,234体"
    assert N("{n} doll", "{n} dolls", n=1) == "1 doll"
    joined = Text.join(" · ", [text, "bob"])
    assert joined == "{@alice} continues. · bob"
    assert i18n.say(joined, "ja", lambda p: p.upper()) == "ALICEは続ける。 · bob"


def test_a_text_keeps_its_message_id_through_the_contract_models_and_pickling():
    import pickle

    from games.core import Event, Option

    label = T("Stop: put {n} on shrine {t}", n=2, t=8)
    option = Option(id="stop", label=label)
    assert option.label.msgid == "Stop: put {n} on shrine {t}" and option.label.args == {"n": 2, "t": 8}
    assert pickle.loads(pickle.dumps(option)).label.msgid == label.msgid
    assert Event(kind="x", text=label).model_dump()["text"] == "Stop: put 2 on shrine 8"


def test_a_placeholder_without_its_argument_is_refused():
    with pytest.raises(ValueError, match="no value for"):
        T("{player} continues.")


@pytest.mark.parametrize("locale,lang", [("ja", "ja"), ("en-US", "en"), ("en-GB", "en"), (None, "en"),
                                         ("fr", "en"), ("ja_JP", "ja")])
def test_any_locale_reads_one_of_the_bots_languages(locale, lang):
    assert i18n.language(locale) == lang


def test_a_japanese_count_uses_the_languages_one_plural_form():
    """ja has one plural form (Babel's plural rule for ja): 200 moves is the same form as 1 move."""
    moves = N("{n} move.", "{n} moves.", n=200)
    assert moves == "200 moves." and i18n.say(moves, "ja") == "200手。"
    assert i18n.say(N("{n} move.", "{n} moves.", n=1), "ja") == "1手。"


@pytest.mark.parametrize("sentence,register", [
    ("お辞儀しても何も失いません", "polite"), ("手番を終えます", "polite"), ("勝ちです", "polite"),
    ("手番を終えてください", "polite"), ("建てた者が勝つ", "plain"), ("伐採できない", "plain"),
    ("1歩だ", "plain"), ("何をどこに植林する", "plain"), ("カタナ", None), ("ゾロ目でないのにカタナ", None),
])
def test_a_japanese_sentence_is_polite_plain_or_neither(sentence, register):
    assert catalogues.register_of(sentence) == register


def test_every_games_rules_and_refusals_speak_desu_masu():
    """STYLE.md: です・ます for /rules and refusals in all five games; ``i18n check`` prints the count per game and
    names any plain sentence as a problem."""
    found = catalogues.registers("ja")
    assert sorted(found) == ["tatamokatsu", "tataraba", "tatari", "tatsumi", "tsukimi"]
    for game, kinds in found.items():
        assert kinds["rules"]["plain"] == [] and kinds["refusals"]["plain"] == [], game
        assert len(kinds["rules"]["polite"]) >= 10, game
    assert catalogues.register_lines("ja")[0].startswith("tatamokatsu: rules ")


def test_a_plain_form_rules_sentence_is_a_problem(tmp_path, monkeypatch):
    """``i18n check`` reads each game's rules (``games/<game>/help.py``) and refusals in their Japanese: a sentence
    in plain form (続ける) beside a polite one (振ります) is one problem, named with its game and kind."""
    source = tmp_path / "games" / "tatari" / "help.py"
    source.parent.mkdir(parents=True)
    source.write_text('from games.core import T\nROLL = T("You roll.")\nGO = T("You go on.")\n', encoding="utf-8")
    locales = tmp_path / "locales"
    po = locales / "ja" / "LC_MESSAGES" / "tatari.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid "You roll."\nmsgstr "振ります。"\n\nmsgid "You go on."\nmsgstr "続ける。"\n', encoding="utf-8")
    catalogues.glossary()  # the real glossary's terms (read once, before the catalogues move)
    monkeypatch.setattr(i18n, "LOCALES", locales)
    monkeypatch.setattr(catalogues, "LOCALES", locales)
    catalogues.compile_catalogues(["ja"])
    found = catalogues.problems([], "ja", root=tmp_path)
    assert found == ["tatari: plain form in its rules (です・ます wanted): '続ける'"]
    assert catalogues.register_lines("ja", root=tmp_path) == [
        "tatari: rules 1 polite, 1 plain; refusals 0 polite, 0 plain"]
