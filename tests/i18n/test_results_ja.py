"""The adapters' own texts at a Japanese table (ARCHITECTURE.md "Text and languages"): a game's result message,
``/stats``, ``/leaderboard``, the busy refusal of a drawing, ``/privacy`` and ``/forget-me``, refusals of ``/board`` and
``/replay`` — each in Japanese for a ja server and reader, with no English word of the catalogues left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n
from bot.discord.delivery import cannot_post_text
from bot.discord.permissions import LABELS
from bot.heavy import Busy
from bot.results import duration_text, ordinal_text
from tests.discord.harness import Harness
from tests.i18n.english import english_left as catalogue_words

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
PROPER = {"Discord"}


def english_left(text: str) -> list[str]:
    """The catalogues' English words left in ``text``, proper names (Discord) aside."""
    return [w for w in catalogue_words(text) if w not in PROPER]


async def ja_harness(tmp_path):
    h = Harness(tmp_path / "bot.sqlite3")
    await h.__aenter__()
    h.guild_locale = "ja"
    return h


async def finished_game(h: Harness):
    """A Tatari game of あきら and ゆうき at a ja table, ended by ゆうき's /resign; returns (users, result message)."""
    akira, yuki = h.user(101, "あきら"), h.user(102, "ゆうき")
    for u in (akira, yuki):
        u.locale = "ja"
    card = (await h.slash(akira, "play", game="tatari")).message(public=True)
    await h.click(yuki, card, card.buttons()[0])  # Join
    await h.click(akira, card, card.buttons()[2])  # Start
    reply = await h.slash(yuki, "resign")
    return (akira, yuki), reply.message(public=True, result=True)


def is_japanese(text: str) -> bool:
    return bool(JAPANESE.search(text)) and english_left(text) == []


async def test_a_result_message_at_a_japanese_table_is_japanese(tmp_path):
    h = await ja_harness(tmp_path)
    try:
        _, msg = await finished_game(h)
        lines = msg.content.split("\n")
        assert lines[0] == "🏁 **タタリ** — 結果"
        assert lines[1].startswith("1位 あきら ★ · ") and "レーティング " in lines[1]
        assert lines[2].startswith("2位 ゆうき · 投了 · レーティング ")
        assert all(is_japanese(line) for line in lines), [english_left(line) for line in lines]
        assert msg.buttons() == ["リプレイ", "もう一戦"]
        (alt,) = [a.get("description") for a in msg.data.get("attachments") or []]
        assert alt.startswith("タタリの結果カード、"), alt
        assert english_left(alt) == [], english_left(alt)
    finally:
        await h.__aexit__(None, None, None)


async def test_stats_and_leaderboard_for_a_japanese_reader(tmp_path):
    h = await ja_harness(tmp_path)
    try:
        (akira, _), _ = await finished_game(h)
        sent = (await h.slash(akira, "stats"))[-1]
        assert sent.ephemeral and sent.content.startswith("あきらの戦績\n")
        assert "1戦1勝（勝率100%）、平均順位 1.00、レーティング " in sent.content
        assert "最近：" in sent.content and "2人中1位" in sent.content
        assert english_left(sent.content) == [], english_left(sent.content)
        sent = (await h.slash(akira, "leaderboard", game="tatari"))[-1]
        assert sent.ephemeral and "このサーバーの上位2人" in sent.content
        assert "1. あきら — " in sent.content and "1戦1勝" in sent.content
        assert english_left(sent.content) == [], english_left(sent.content)
    finally:
        await h.__aexit__(None, None, None)


async def test_refusals_of_results_and_boards_are_japanese(tmp_path):
    h = await ja_harness(tmp_path)
    try:
        akira = h.user(101, "あきら")
        akira.locale = "ja"
        (sent,) = await h.slash(akira, "stats")
        assert sent.ephemeral and sent.content == "このサーバーでのあなたのゲームの記録はまだありません。"
        (sent,) = await h.slash(akira, "replay")
        assert sent.ephemeral and sent.content.startswith("このチャンネルで終わったゲームはまだありません。")
        (sent,) = await h.slash(akira, "replay", game="abc")
        assert sent.ephemeral and sent.content.startswith("「abc」はこのチャンネルのゲームではありません。")
    finally:
        await h.__aexit__(None, None, None)


async def test_privacy_and_forget_me_for_a_japanese_reader(tmp_path):
    h = await ja_harness(tmp_path)
    try:
        akira = h.user(101, "あきら")
        akira.locale = "ja"
        (sent,) = await h.slash(akira, "privacy")
        assert sent.ephemeral and sent.content.startswith("**このボットが保存するあなたの情報**")
        assert "終わったゲームは無期限（運営者が期限を設けることがあります）。" in sent.content
        assert english_left(sent.content) == [], english_left(sent.content)
        ask = (await h.slash(akira, "forget-me")).message()
        assert ask.content.startswith("あなたのレーティングと設定を削除し") and ask.buttons() == ["データを削除する", "削除しない"]
        kept = await h.click(akira, ask, "削除しない")
        assert [s.content for s in kept] == ["何も削除しませんでした。"]
    finally:
        await h.__aexit__(None, None, None)


def test_busy_refusals_ordinals_lengths_and_permissions_read_in_japanese(tmp_path):
    from bot.heavy import Heavy, Quotas

    heavy = Heavy(Path(tmp_path), 1, clock=lambda: 0, quotas=Quotas(member_at_once=1))
    with heavy.admit(1, 9):
        try:
            heavy.admit(1, 9)
        except Busy as exc:
            assert str(exc) == "Busy — try again in 20 s (your last image is still being drawn)."
            assert i18n.say(i18n.refusal(exc), "ja") == "混み合っています。20秒後にもう一度お試しください（前の画像をまだ描画中です）。"
        else:
            raise AssertionError("not refused")
    assert [str(ordinal_text(n)) for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "21st"]
    assert [i18n.say(ordinal_text(n), "ja") for n in (1, 2, 3, 4, 11, 21)] == ["1位", "2位", "3位", "4位", "11位", "21位"]
    assert [i18n.say(duration_text(ms), "ja") for ms in (45_000, 840_000, 7_500_000, 273_600_000)] == [
        "45秒", "14分", "2時間5分", "3日4時間"]
    line = cannot_post_text([LABELS["send_messages"]])
    assert str(line).startswith("⚠️ I can't post in this channel: I need Send Messages. A moderator can grant it;")
    assert i18n.say(line, "ja").startswith("⚠️ このチャンネルに投稿できません。「メッセージを送信」の権限が必要です。モデレーターがこの権限を")


def test_cards_are_drawn_in_the_language_the_worker_is_told(monkeypatch):
    """``draw_card_in`` (the worker's entry) draws a card's title, headers and footer in the language given."""
    from bot import results
    from bot.heavy import draw_card_in
    from bot.store.records import Standing

    drawn = []
    monkeypatch.setattr(results, "card", lambda *args: drawn.append(args) or b"")
    standings = [Standing(1, "1", "あきら", 27.5, 7.1, 3, 2)]
    draw_card_in("ja", "leaderboard", "tatari", standings)
    draw_card_in("en", "leaderboard", "tatari", standings)
    (title, subtitle, (section,), footer), english = drawn
    assert (title, subtitle, footer) == ("タタリ — ランキング", "このサーバーの上位1人 · レーティング順",
                                         "レーティング：実力 ± 不確かさ · 控えめな推定値の順")
    assert section.headers == ["#", "プレイヤー", "レーティング", "対戦数", "勝数"] and section.rows[0][0] == "1位"
    assert english[0] == "Tatari — leaderboard" and english[3].startswith("Rating: skill")


def test_an_ai_levels_leaderboard_line_is_named_in_the_tables_language():
    """A leaderboard line of an AI level (rating key ``ai:normal``, recorded as "AI · Normal") reads "AI（普通）" in ja."""
    import games
    from bot.results import leaderboard_text
    from bot.store.records import Standing

    standings = [Standing(1, "1", "あきら", 27.6, 8.1, 1, 1), Standing(2, "ai:normal", "AI · Normal", 22.4, 8.1, 1, 0)]
    with i18n.speaking("ja"):
        ja = i18n.say(leaderboard_text(games.get("tatari"), standings), "ja")
    assert ja.splitlines()[2] == "2. AI（普通） — 22.4 ± 8.1 · 1戦0勝"
    text = leaderboard_text(games.get("tatari"), standings)
    assert str(text).splitlines()[2] == "2. AI · Normal — 22.4 ± 8.1 · 1 game, 0 wins"


@pytest.mark.parametrize("game_id,heading,ja_heading,line,ja_line", [
    ("tatari", "Dolls", "人形", "1st あきら ★ · 0 dolls left", "1位 あきら ★ · 人形残り0体"),
    ("tatamokatsu", "Fingers", "指", "1st あきら ★ · 2 fingers left", "1位 あきら ★ · 指残り2本"),
    ("tatsumi", "Fortune", "福", "1st あきら ★ · 2 fortune", "1位 あきら ★ · 福2点"),
    ("tsukimi", "Score", "得点", "1st あきら ★ · score 2", "1位 あきら ★ · 2点"),
])
def test_a_result_names_what_its_scores_count(monkeypatch, game_id, heading, ja_heading, line, ja_line):
    """Tatari's score is the dolls left (fewest wins, TA-10), Tatamokatsu's the fingers left and Tatsumi's the
    fortune (TM-12): the result lines
    and the card's score column say so instead of calling them points; points games keep "score"."""
    from bot import results
    from bot.store.records import GameRecord, Seat

    record = GameRecord(1, game_id, "g", "c", {}, 5, 0, 60_000, 12, "finished", "", True,
                        [Seat(0, "a", "あきら", score=0 if game_id == "tatari" else 2, rank=1, won=True)])
    assert [str(x) for x in results.summary_lines(record)] == [line]
    assert [i18n.say(x, "ja") for x in results.summary_lines(record)] == [ja_line]
    drawn = []
    monkeypatch.setattr(results, "card", lambda *args: drawn.append(args) or b"")
    for lang in ("en", "ja"):
        with i18n.speaking(lang):
            results.summary_card(record)
    assert [args[2][0].headers[2] for args in drawn] == [heading, ja_heading]
