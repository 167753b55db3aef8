"""A lobby at a Japanese table (ARCHITECTURE.md "Text and languages"): the card, its buttons and menus, the notes
of who joined, the lobby's refusals (in the reader's language) and the start line read in Japanese; the English
card stays word for word what it was (tests/discord/test_discord_lobby.py)."""

from __future__ import annotations

import re

import games
from bot import i18n
from tests.discord.harness import Harness


def _latin_words(text: str) -> list[str]:
    """ASCII words of 3+ letters left once mentions, `code` and /commands are taken out."""
    text = re.sub(r"<[@#:a]?[^<>]*>|`[^`]*`|/[a-z][-a-z]*", " ", text)
    return re.findall(r"[A-Za-z]{3,}", text)


async def test_a_japanese_lobby_card_its_buttons_and_refusals_read_in_japanese(tmp_path):
    title = i18n.say(games.get("tatari").title, "ja")
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        alice.locale = bob.locale = "ja"
        card = (await h.slash(alice, "play", game="tatari")).message(public=True)
        lines = card.content.splitlines()
        assert lines[0] == f"<@101>が{title}のロビーを開きました。"
        assert lines[1].startswith(f"**{title}** のロビー — ")
        assert lines[2:5] == ["席（1/5）：", "1. <@101>（ホスト）", "オプション：`first=host`"]
        assert lines[-1] == "-# 相手がいないときは、ホストが「AIを追加」メニューでAIプレイヤーを席に着けられます。"
        assert card.buttons() == ["参加", "退出", "開始", "中止", "遊び方"]
        menu = next(c for c in card.components if c["type"] == 3)
        assert menu["placeholder"] == "AIを追加…"
        assert [o["label"] for o in menu["options"]] == ["AIを追加（弱い）", "AIを追加（普通）", "AIを追加（強い）"]

        joined = (await h.click(bob, card, 0)).message()
        assert joined.content.splitlines()[0] == "<@102>が参加しました（2/5）。"
        assert "2. <@102>" in joined.content.splitlines()
        again = (await h.click(bob, card, 0)).message()
        assert again.ephemeral and again.content == "すでに席に着いています。ホストが /開始（/start） するのをお待ちください。"
        not_host = (await h.click(bob, card, 2)).message()
        assert not_host.ephemeral and not_host.content == "ゲームを開始できるのはホストの<@101>だけです。"

        with_ai = (await h.select(alice, card, 5, ["strong"])).message()
        assert "3. AI（強い）" in with_ai.content.splitlines()
        removal = [c for c in with_ai.components if c["type"] == 3][-1]
        assert removal["placeholder"] == "AIを外す…"
        assert [o["label"] for o in removal["options"]] == ["AI（強い）を外す"]

        started = await h.click(alice, card, 2)
        edited = [s for s in started if s.kind in ("response", "edit", "edit_original") and "開始しました" in s.content]
        assert edited and edited[0].content == f"**{title}** を <@101>、<@102>、AI（強い） で開始しました。盤面はこの下に続きます。"
        for sent in [card, joined, again, not_host, with_ai, edited[0]]:
            texts = [sent.content] + [c.get("label") or c.get("placeholder") or "" for c in sent.components]
            assert [w for t in texts for w in _latin_words(t) if w not in ("Tatari",)] == []


async def test_the_english_lobby_card_is_unchanged(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        alice = h.user(101, "alice")
        card = (await h.slash(alice, "play", game="tatari")).message(public=True)
        lines = card.content.splitlines()
        assert lines[0] == "<@101> opened a lobby for Tatari."
        assert lines[2:5] == ["Seats (1/5):", "1. <@101> (host)", "Options: first host"]
        assert lines[-1] == "-# No one else around? The host can seat AI players with the Add AI menu."
        assert card.buttons() == ["Join", "Leave", "Start", "Cancel", "How to play"]


async def test_an_undo_request_at_a_japanese_table_reads_in_japanese(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        alice.locale = bob.locale = "ja"
        users = {u.sid: u for u in (alice, bob)}
        card = (await h.slash(alice, "play", game="tatari")).message(public=True)
        await h.click(bob, card, 0)
        await h.click(alice, card, 2)
        early = (await h.slash(bob, "undo")).message()
        assert early.ephemeral and early.content == "まだ「待った」できる手がありません。"
        d = (await h.bot.service.show(str(h.channel_id))).pending[0]
        mover = users[d.player]
        other = bob if mover is alice else alice
        await h.choose(mover, d.options[0].id)
        ask = (await h.slash(mover, "undo")).message(public=True)
        assert ask.content == (f"↩️ <@{mover.sid}>が直前の手の「待った」を求めています。<@{other.sid}>：認めますか？"
                               "（その間に手が進むと依頼は取り消されます）")
        assert ask.buttons() == ["「待った」を認める", "断る"]
        own = (await h.click(mover, ask, 0)).message()
        assert own.ephemeral and own.content == "頼んだのはあなたです。ほかのプレイヤーの判断を待ちましょう。"
        done = await h.click(other, ask, 0)
        assert "↩️ 全員が認めました。直前の手を取り消します。" in done.text
        assert f"<@{mover.sid}>が直前の手を取り消しました（<@{mover.sid}>：{d.options[0].id}）。" in done.text


async def test_plays_autocomplete_reads_in_the_readers_language(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        reader = h.user(101, "alice")
        reader.locale = "ja"
        levels = await h.autocomplete(reader, "play", "level", game="tatari", level="s")
        assert levels == [{"name": "強い — 毎回、先の展開を読んでから選ぶ", "value": "strong"}]
        levels = await h.autocomplete(reader, "play", "level", game="tatari", level="強")
        assert levels == [{"name": "強い — 毎回、先の展開を読んでから選ぶ", "value": "strong"}]
        reader.locale = "en-US"
        levels = await h.autocomplete(reader, "play", "level", game="tatari", level="s")
        assert levels == [{"name": "strong — Searches ahead before each move", "value": "strong"}]
