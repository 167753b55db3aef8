"""Japanese names are understood (ARCHITECTURE.md "Text and languages"; bot.matching): ``/あそぶ ゲーム:タタリ`` and
the other titles and readings open their game, ``強さ:強い`` is a level, autocomplete of games, levels, rules topics
and ``/選ぶ`` options matches hiragana, katakana, full and half width and readings, and a refusal lists the games'
titles (not ids) and quotes what was typed at most 100 characters, so its reason is never cut off."""

from __future__ import annotations

import pytest

import games
from bot import i18n
from bot.ai_seats import level_of
from bot.matching import find_game
from tests.discord.harness import Harness


@pytest.mark.parametrize("typed,game_id", [
    ("タタリ", "tatari"), ("たたり", "tatari"), ("Tatari", "tatari"), ("ﾀﾀﾘ", "tatari"), ("ＴＡＴＡＲＩ", "tatari"),
    ("月見", "tsukimi"), ("つきみ", "tsukimi"), ("ツキミ", "tsukimi"),
    ("辰巳", "tatsumi"), ("たつみ", "tatsumi"),
    ("たたらばと森", "tataraba"), ("もり", "tataraba"), ("森", "tataraba"), ("Forest of Tataraba", "tataraba"),
    ("タタモカツ", "tatamokatsu"), ("たたもかつ", "tatamokatsu"), ("tatamokatsu", "tatamokatsu"),
])
def test_a_game_is_found_by_its_id_title_or_reading_in_either_language(typed, game_id):
    assert find_game(typed) is games.get(game_id)


@pytest.mark.parametrize("typed", ["たた", "chess", "", "t", "将棋"])
def test_a_name_that_fits_no_game_or_several_finds_none(typed):
    assert find_game(typed) is None


@pytest.mark.parametrize("typed,level", [("強い", "strong"), ("つよい", "strong"), ("ツヨイ", "strong"),
                                         ("Strong", "strong"), ("弱い", "easy"), ("普通", "normal"),
                                         ("ふつう", "normal"), ("ｅａｓｙ", "easy")])
def test_a_level_is_found_by_its_name_in_either_language(typed, level):
    assert level_of(typed) == level


async def test_play_opens_a_game_named_in_japanese_with_a_japanese_level(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        alice = h.user(101, "alice")
        alice.locale = "ja"
        reply = await h.slash(alice, "play", game="たたり", ai=1, level="強い")
        card = reply.message(public=True)
        assert card.content.splitlines()[0] == "<@101>がタタリのロビーを開きました。"
        assert "2. AI（強い）" in card.content.splitlines()
        row = await h.store.live_session(str(h.channel_id))
        assert row.game_id == "tatari"


async def test_a_refusal_of_an_unknown_game_lists_titles_and_quotes_at_most_100_characters(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        alice = h.user(101, "alice")
        alice.locale = "ja"
        reply = await h.slash(alice, "play", game="y" * 3000)
        text = reply.message().content
        assert reply.ephemeral() and text.count("y") == 99 and "y…" in text
        titles = "、".join(i18n.say(g.title, "ja") for g in games.all())
        assert text.endswith(f"ゲーム：{titles}。") or titles in text
        assert "tatari" not in text
        alice.locale = "en-US"
        text = (await h.slash(alice, "play", game="chess")).message().content
        assert text == ("There is no game called 'chess'. Games: "
                        + ", ".join(str(g.title) for g in games.all()) + ".")
        assert await h.store.live_session(str(h.channel_id)) is None


async def test_autocomplete_matches_kana_width_and_readings(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        reader = h.user(101, "あきら")
        reader.locale = "ja"

        async def game_values(typed):
            return [c["value"] for c in await h.autocomplete(reader, "play", "game", game=typed)]

        assert await game_values("つきみ") == ["tsukimi"]
        assert await game_values("ツキ") == ["tsukimi"]
        assert await game_values("たつみ") == ["tatsumi"]
        assert await game_values("もり") == ["tataraba"]
        assert sorted(await game_values("ﾀﾀ")) == ["tatamokatsu", "tataraba", "tatari"]
        assert await game_values("ＴＳＵＫＩ") == ["tsukimi"]
        levels = await h.autocomplete(reader, "play", "level", game="tatari", level="つよ")
        assert [c["value"] for c in levels] == ["strong"]
        topics = await h.autocomplete(reader, "rules", "topic", game="たたり", topic="ばーすと")
        assert topics == [{"name": "バースト", "value": "bust"}]
        topics = await h.autocomplete(reader, "rules", "topic", game="tatari", topic="ﾊﾞｰｽﾄ")
        assert topics == [{"name": "バースト", "value": "bust"}]


@pytest.mark.parametrize("typed,label", [
    ("みず", "水の祠"), ("ミズ", "水の祠"), ("ｽｲ", "水の祠"), ("ずのほこ", "水の祠"), ("ほこら", "祠8"),
    ("てばん", "手番を終える"), ("じょうりょくじゅ", "常緑樹を伐採する"), ("ばっさい", "常緑樹を伐採する"),
    ("にんぎょう", "ダブル人形"), ("ひび", "火々"),
])
def test_kana_finds_a_label_written_in_kanji_by_its_reading(typed, label):
    from bot.matching import fold, matches

    assert matches(typed, {fold(label)})


@pytest.mark.parametrize("typed,label", [("みずの", "火の祠"), ("ひみず", "水の祠"), ("しゅう", "水")])
def test_a_reading_of_other_kanji_finds_nothing(typed, label):
    from bot.matching import fold, matches

    assert not matches(typed, {fold(label)})


def test_every_kanji_of_every_label_and_topic_has_its_reading():
    """The reading table (bot/readings.py, data) covers each kanji of the Japanese option labels met in a few
    random games of each game and of every rules topic's name."""
    import random
    import re

    from bot.readings import READINGS
    from games.core import TIMEOUT, Move

    seen: set[str] = set()
    for g in games.all():
        seen.update(i18n.say(g.topic_name(t), "ja") for t in g.rules_help if t)
        for n in sorted({2, min(4, g.max_players)}):
            rng, state = random.Random(n), g.setup([f"p{i}" for i in range(n)], None, n)
            for _ in range(300):
                pending = g.pending(state)
                if not pending or not pending[0].options:
                    break
                seen.update(i18n.say(o.short or o.label, "ja") for d in pending for o in d.options)
                seen.update(i18n.say(o.label, "ja") for d in pending for o in d.options)
                d = pending[0]
                at = getattr(state, "now_ms", 0) or 0
                try:
                    state = g.apply(state, Move(player=d.player or state.players[0], option=rng.choice(d.options).id,
                                                at_ms=at + 50)).state
                except Exception:
                    if d.deadline_ms is None:
                        break
                    state = g.apply(state, Move(player=None, option=TIMEOUT, at_ms=d.deadline_ms)).state
    kanji = {ch for label in seen for ch in re.findall(r"[\u4e00-\u9fff]", label)}
    assert len(kanji) > 40 and sorted(kanji - set(READINGS)) == []


async def test_autocomplete_of_options_and_topics_matches_kanji_readings(tmp_path):
    """「/選ぶ」: typing the kana reading of a kanji of an option's label finds that option; 「/ルール」 topics too."""
    from bot.readings import READINGS

    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        alice.locale = bob.locale = "ja"
        await h.slash(alice, "play", game="tsukimi")
        await h.slash(bob, "join")
        await h.slash(alice, "start")
        update = await h.bot.service.show(str(h.channel_id))
        d = update.pending[0]
        me = alice if d.player == alice.sid else bob
        for option in d.options:
            label = i18n.say(option.label, "ja")
            kanji = next((ch for ch in label if ch in READINGS), None)
            if kanji is None:
                continue
            reading = READINGS[kanji][0]  # 桜 (a sakura tile): さくら
            choices = [c["value"] for c in await h.autocomplete(me, "move", "option", option=reading)]
            assert option.id in choices and len(choices) < len(d.options), (label, reading)
            break
        else:
            raise AssertionError("no option label in kanji")
        topics = await h.autocomplete(alice, "rules", "topic", game="tataraba", topic="ばっさい")
        assert topics == [{"name": "伐採", "value": "logging"}]
        topics = await h.autocomplete(alice, "rules", "topic", game="tataraba", topic="てばん")
        assert [t["value"] for t in topics] == ["first", "turn"]
