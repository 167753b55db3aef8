"""Whose language (ARCHITECTURE.md "Text and languages"): a table's public messages use the channel's language —
``/settings language:``, else the server's preferred locale — and an ephemeral answer uses the reader's own Discord
locale; /settings shows the language and only channel managers change it."""

from __future__ import annotations

from tests.discord.harness import Harness


async def _lobby_and_board(h: Harness):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari")).message()
    await h.click(bob, card, card.buttons()[0])  # Join, whatever the table's language calls it
    board = (await h.click(alice, card, card.buttons()[2])).message()  # Start
    return alice, bob, board


async def test_a_channel_set_to_japanese_gets_its_boards_in_japanese(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        mod = h.user(100, "mod", moderator=True)
        saved = await h.slash(mod, "settings", language="ja")
        assert saved.message().ephemeral
        _, _, board = await _lobby_and_board(h)
        assert board.content.startswith("**タタリ** · 盤面 v") or board.content.startswith("**Tatari** · 盤面 v")


async def test_the_servers_preferred_locale_is_the_default_and_a_setting_overrides_it(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        _, _, board = await _lobby_and_board(h)
        assert "盤面 v" in board.content.splitlines()[0]
    async with Harness(tmp_path / "other.sqlite3") as h:
        h.guild_locale = "ja"
        mod = h.user(100, "mod", moderator=True)
        await h.slash(mod, "settings", language="en")
        _, _, board = await _lobby_and_board(h)
        assert board.content.splitlines()[0].startswith("**Tatari** · board v")


async def test_an_ephemeral_answer_is_in_the_readers_language_whatever_the_channels(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        alice, bob, board = await _lobby_and_board(h)
        carol = h.user(103, "carol")
        carol.locale = "ja"
        answer = (await h.slash(carol, "board")).message()
        assert answer.ephemeral and "盤面 v" in answer.content.splitlines()[0]
        public = (await h.slash(alice, "board", public=True)).message()
        assert "board v" in public.content.splitlines()[0]


async def test_only_channel_managers_change_the_language(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        bob = h.user(102, "bob")
        refused = (await h.slash(bob, "settings", language="ja")).message()
        assert refused.ephemeral and "Manage Channels" in refused.content
        _, _, board = await _lobby_and_board(h)
        assert board.content.splitlines()[0].startswith("**Tatari** · board v")


async def test_settings_say_the_language_and_answer_in_the_readers(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        mod = h.user(100, "mod", moderator=True)
        shown = (await h.slash(mod, "settings")).message()
        assert "language English (the server's)." in shown.content
        mod.locale = "ja"
        saved = (await h.slash(mod, "settings", language="ja")).message()
        assert saved.ephemeral and saved.content.startswith("保存しました。このチャンネルの設定：")
        assert "言語 日本語。" in saved.content and "早押しの受付時間" in saved.content


async def test_a_command_refused_before_it_runs_answers_in_the_readers_language(tmp_path):
    """An option of a type the command no longer has (an outdated client) is refused in the reader's language."""
    async with Harness(tmp_path / "bot.sqlite3") as h:
        mod = h.user(100, "mod", moderator=True)
        mod.locale = "ja"
        refused = (await h.slash(mod, "settings", reminder_hours=12)).message()
        assert refused.ephemeral and refused.content.startswith("このコマンドは Discord アプリが読み込んだ後に変更されました。")
        mod.locale = "en-US"
        refused = (await h.slash(mod, "settings", reminder_hours=12)).message()
        assert refused.content.startswith("This command changed since your Discord app loaded it.")
