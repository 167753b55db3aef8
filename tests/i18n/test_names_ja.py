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
        assert "2. AI・強い" in card.content.splitlines()
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
