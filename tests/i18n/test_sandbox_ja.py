"""The sandbox at a Japanese table (``python -m bot sandbox --locale ja``): its refusals name the commands as a
Japanese Discord client does (/参加, /開始), so it takes those names too, beside the English ones."""

from __future__ import annotations

import pytest

from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store


@pytest.fixture
async def chat(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    yield LocalChat(SessionService(store, seeds=lambda: 7), None, images=False, lang="ja")
    await store.close()


async def test_japanese_command_names_work_in_a_japanese_sandbox(chat):
    assert (await chat.line("alice: /あそぶ tatari"))[0].startswith("aliceがタタリのロビーを開きました。")
    refused = await chat.line("bob: /開始")
    assert any("ゲームを開始できるのはホストの" in line for line in refused), refused
    joined = await chat.line("bob: /参加")
    assert any("bobが参加しました（2/5）。" in line for line in joined), joined
    again = await chat.line("bob: /参加")
    assert any("すでに席に着いています。ホストが /開始（/start） するのをお待ちください。" in line for line in again), again
    started = await chat.line("alice: /開始")
    assert (await chat.service.store.live_session("table")).status == "active", started
    assert any("/参加" in line for line in await chat.line("carol: /ヘルプ"))  # the help names the commands as it takes them


async def test_the_rules_list_reads_as_japanese_lines(chat):
    """``/ルール`` without a game: one line a game, 「• タタリ（tatari）：…」, never summaries run together with
    「。、」 or ASCII commas; each game's own ``/ルール`` neither."""
    import re

    import games

    out = "\n".join(await chat.line("alice: /ルール"))
    assert out.startswith("どのゲームですか？ /ルール（/rules） <ゲーム> で選んでください：\n• タタモカツ（tatamokatsu）：")
    assert out.count("\n• ") == len(games.all())
    for game in games.all():
        out += "\n".join(await chat.line(f"alice: /ルール {game.id}"))
    assert not re.findall(r"[、。][、。]|[^\x00-\x7f], ", out), out
