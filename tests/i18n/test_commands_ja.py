"""Slash commands in Japanese (ARCHITECTURE.md "Text and languages"): ``python -m bot sync-commands --print`` shows
a ``ja`` entry in every command's, option's and choice's localisations, each within Discord's limits (names
``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase where cased; descriptions 1-100 characters); the translator gives no
localisation for English."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.discord.translator import CatalogueTranslator
from games.core import T

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def payloads() -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "bot", "sync-commands", "--print"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _valid_name(name: str) -> bool:
    return 1 <= len(name) <= 32 and all(unicodedata.category(c)[0] in "LN" or c in "-_" for c in name) \
        and name == name.lower()


def _walk(items: list[dict], found: list[tuple[str, dict]], where: str = "") -> None:
    for item in items:
        found.append((f"{where}/{item['name']}", item))
        _walk(item.get("options", []), found, f"{where}/{item['name']}")


def test_every_command_and_option_has_its_japanese_within_discords_limits(payloads):
    found: list[tuple[str, dict]] = []
    _walk(payloads, found)
    assert len(found) >= 40
    bad = []
    for where, item in found:
        names, descriptions = item.get("name_localizations") or {}, item.get("description_localizations") or {}
        if not _valid_name(names.get("ja", "")):
            bad.append(f"{where}: name {names.get('ja')!r}")
        if not 1 <= len(descriptions.get("ja", "")) <= 100:
            bad.append(f"{where}: description {descriptions.get('ja')!r}")
        for choice in item.get("choices", []):
            if not 1 <= len((choice.get("name_localizations") or {}).get("ja", "")) <= 100:
                bad.append(f"{where}: choice {choice['name']!r}")
    assert bad == []
    ja_names = [item["name_localizations"]["ja"] for _, item in found if "options" in item or item.get("type") == 1]
    assert "あそぶ" in ja_names and "待った" in ja_names


def test_the_settings_command_offers_the_two_languages(payloads):
    settings = next(p for p in payloads if p["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert [(c["value"], c["name_localizations"]["ja"]) for c in language["choices"]] == [
        ("en", "English（英語）"), ("ja", "日本語")]


async def test_english_clients_get_no_localisation_and_japanese_ones_the_catalogues():
    translator = CatalogueTranslator()
    name = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(app_commands.locale_str("play"), discord.Locale.american_english, name) is None
    assert await translator.translate(app_commands.locale_str("play"), discord.Locale.japanese, name) == "あそぶ"
    assert await translator.translate(app_commands.locale_str("no such"), discord.Locale.japanese, name) is None


def test_the_japanese_messages_name_commands_as_the_japanese_client_shows_them(payloads):
    """A Japanese reader's slash menu lists /あそぶ, /参加, …: every command a ja message names ("/参加 を使って
    ください") is one of those names, and each English command named in a message has its Japanese one."""
    import re

    from babel.messages.pofile import read_po

    from bot import i18n

    ja_names = {p["name_localizations"]["ja"]: p["name"] for p in payloads}
    named, english = set(), set()
    with (i18n.LOCALES / "ja" / "LC_MESSAGES" / "bot.po").open("rb") as fh:
        for m in read_po(fh, locale="ja"):
            text = m.string if isinstance(m.string, str) else "".join(m.string)
            named |= set(re.findall(r"/([\u3040-\u30ff\u4e00-\u9fff][\u3040-\u30ff\u4e00-\u9fffー]*)", text))
            english |= set(re.findall(r"(?<![\w/])/([a-z][-a-z]+)", text))
    assert named - set(ja_names) == set()
    assert {"あそぶ", "参加", "開始", "投了", "盤面", "選ぶ", "待った", "データ削除"} <= named
    sandbox_only = {"cancel", "wait", "games", "here"}  # the local sandbox's own commands (its help stays in English)
    assert english - set(ja_names.values()) - sandbox_only == set()


def test_a_japanese_text_naming_a_command_gives_its_english_name_in_brackets():
    """As ``/help`` does (「/あそぶ（/play）」): a member whose Discord client speaks English sees the commands by
    their English names, so every Japanese text of the bot that names a command glosses it, and never names it
    in English alone (「/join、/start」 in a lobby card reads 「/参加（/join）、/開始（/start）」). The sandbox's own
    lines (what is typed there) and /help's grouped glosses are their own form."""
    import re

    from babel.messages.pofile import read_po

    from bot import i18n

    with (i18n.LOCALES / "ja" / "LC_MESSAGES" / "commands.po").open("rb") as fh:
        names = {m.id: m.string for m in read_po(fh, locale="ja") if m.context == "command_name" and m.string}
    english = {ja: en for en, ja in names.items()}
    mention = re.compile(r"/(" + "|".join(sorted(map(re.escape, [*names, *english]), key=len, reverse=True))
                         + r")(?![\w-])")
    bad = []
    with (i18n.LOCALES / "ja" / "LC_MESSAGES" / "bot.po").open("rb") as fh:
        for m in read_po(fh, locale="ja"):
            said = m.string if isinstance(m.string, str) else ""
            if not m.id or "/wait" in said or "alice: /play" in said or "名前: /ヘルプ" in said or "コマンド一覧" in said \
                    or "チャットで遊ぶボードゲーム" in said:
                continue
            for found in mention.finditer(said):
                name, at = found.group(1), found.end()
                if name in names:  # English: only as the gloss itself
                    if said[found.start() - 1: found.start()] not in ("（", "・", "、"):
                        bad.append(said)
                    continue
                rest = said[at:]
                if said[:found.start()].count("`") % 2:  # inside `…`: the gloss follows the closing backquote
                    rest = rest[rest.index("`") + 1:]
                if not rest.startswith(f"（/{english[name]}）"):
                    bad.append(said)
    assert bad == []
    lobby = T("[{title} lobby] seats {n}: {names} (host {host}). {need} /join, /start", title="t", n=1, names="a",
              host="a", need="")
    assert i18n.say(lobby, "ja").endswith("/参加（/join）、/開始（/start）")
