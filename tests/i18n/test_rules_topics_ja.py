"""Rules topics in Japanese (ARCHITECTURE.md "Text and languages"): each game's ``/rules`` topic is named in the
reader's language on /rules, the How to play menu and the topic autocomplete, while ``/rules topic:`` still takes the
English key; English stays the key itself."""

from __future__ import annotations

import re

import games
from bot import i18n
from bot.rules_help import rules_command
from tests.discord.harness import Harness


def test_every_rules_topic_of_every_game_has_a_japanese_name():
    for game in games.all():
        for topic in [t for t in game.rules_help if t]:
            assert str(game.topic_name(topic)) == topic
            ja = i18n.say(game.topic_name(topic), "ja")
            assert ja != topic and not re.search(r"[A-Za-z]", ja), (game.id, topic, ja)


def test_rules_name_the_other_topics_in_japanese():
    text = rules_command(games.get("tatari"))
    assert "More: /rules tatari topic: dice, stop, bust, stash, end" in str(text)
    assert ("ほかの項目（/ルール（/rules） ゲーム:tatari 項目:…）：ダイス（`dice`）、ストップ（`stop`）、バースト（`bust`）、手元（`stash`）、"
            "ゲームの終わり（`end`）") in i18n.say(rules_command(games.get("tatari"), lang="ja"), "ja")
    assert i18n.say(rules_command(games.get("tatari"), "bust"), "ja").startswith("**")
    assert "— バースト\n" in i18n.say(rules_command(games.get("tatari"), "bust"), "ja")


async def test_the_topic_autocomplete_and_how_to_play_menu_read_in_japanese(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        reader = h.user(101, "あきら")
        reader.locale = "ja"
        found = await h.autocomplete(reader, "rules", "topic", game="tatari", topic="バー")
        assert found == [{"name": "バースト", "value": "bust"}]
        found = await h.autocomplete(reader, "rules", "topic", game="tatari", topic="bu")
        assert found == [{"name": "バースト", "value": "bust"}]
        reader.locale = "en-US"
        found = await h.autocomplete(reader, "rules", "topic", game="tatari", topic="bu")
        assert found == [{"name": "bust", "value": "bust"}]
        reader.locale = "ja"
        card = (await h.slash(reader, "play", game="tatari")).message(public=True)
        shown = (await h.click(reader, card, "遊び方")).message()
        menu = next(c for row in shown.data["components"] for c in row["components"] if c["type"] == 3)
        assert [o["label"] for o in menu["options"]] == ["概要", "ダイス", "ストップ", "バースト", "手元", "ゲームの終わり"]
        assert [o["value"] for o in menu["options"]] == ["-", "dice", "stop", "bust", "stash", "end"]


def test_a_topic_is_found_by_its_japanese_name_and_its_text_does_not_repeat_it():
    """「/ルール tatari ダイス」 opens the dice topic (its name as the refusal lists it, or a reading), and no
    Japanese topic text starts with its own name again (「飛行：飛行：」 read as a double label)."""
    import games
    from bot.i18n import say
    from bot.matching import find_topic
    from bot.rules_help import rules_command, sandbox_rules

    tatari = games.get("tatari")
    assert find_topic(tatari, "ダイス") == "dice" and find_topic(tatari, "ﾊﾞｰｽﾄ") == "bust"
    assert find_topic(tatari, "zzz") is None
    assert say(rules_command(tatari, "ダイス", "ja"), "ja").startswith("**タタリ** — ダイス\n")
    assert say(sandbox_rules("tataraba", "手番", "ja"), "ja").startswith("たたらばと森 — 手番：コマを移動し")
    for game in games.all():
        for key in (k for k in game.rules_help if k):
            name, text = say(game.topic_name(key), "ja"), say(game.rules_help[key], "ja")
            assert not text.startswith((f"{name}：", f"月の{name}：")), (game.id, key)
