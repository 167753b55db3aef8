"""The offline tools in Japanese (ARCHITECTURE.md "Text and languages", "Offline adapters"): the sandbox's and
``script``'s replies to every command, with valid and invalid input, and ``demo --locale ja``'s game log read in
Japanese — no English word of the catalogues, option ids (``[set:doll]``, what a player types), `code`, /commands and
names aside; the English replies stay what they were."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from bot.__main__ import cli
from bot.local.chat import LocalChat
from bot.local.demo import NAMES
from bot.sessions import SessionService
from bot.store import Store
from tests.i18n.english import english_left

TYPED = re.compile(r"\[[^\]\s]*\]|\b[a-z]+:[\w:-]+|^>>> .*$|\S+\.(?:png|gif)\b")
"""What the replies quote as typed: option ids in brackets (``[roll]``), ids (``set:doll``), an echoed input line;
and the files written (``…/replay-1.gif``)."""
JUNK = "ぬぬぬ"

TRANSCRIPT = [
    "あきら: /help", "あきら: /games", "あきら: /rules", "あきら: /rules tatari", "あきら: /rules tatari dice",
    f"あきら: /rules tatari {JUNK}", f"あきら: /rules {JUNK}", "あきら: /rules tsukimi", "あきら: /rules tatsumi islands",
    "あきら: /board", "あきら: /move 1", "あきら: /history", "あきら: /undo", "あきら: /resign", "あきら: /abandon",
    "あきら: /join", "あきら: /leave", "あきら: /start", "あきら: /cancel", "あきら: /stats", "あきら: /leaderboard tatari",
    f"あきら: /leaderboard {JUNK}", "あきら: /leaderboard", "あきら: /replay", f"あきら: /{JUNK}", JUNK, "あきら +99999999999999: 1",
    "あきら: /play", f"あきら: /play {JUNK}", "あきら: /play tatari zz=1", "あきら: /play tatari first=nobody",
    "あきら: /play tatari zz", "あきら: /play tatari level:strong", f"あきら: /play tatari ai:1 level:{JUNK}",
    "あきら: /play tatari ai:99", "あきら: /play tatari ai:9", "あきら: /play tatari", "ゆうき: /start", "ゆうき: /join",
    "ゆうき: /join", "さくら: /join", "さくら: /leave", "あきら: /play tsukimi", "あきら: /start", "あきら: /board",
    "ゆうき: 1", "ゆうき: 99", "あきら: /move", f"あきら: /move {JUNK}", "あきら: 1", "あきら: /history", "あきら: /undo",
    "ゆうき: /undo no", "あきら: 1", "あきら: /undo", "ゆうき: /undo", "あきら: /undo no", "あきら: /wait 1000",
    f"あきら: /wait {JUNK}", "さくら: /resign", "さくら: /abandon", "ゆうき: /resign", "あきら: /stats", "あきら: /stats ゆうき",
    "あきら: /stats あきら tatari", "あきら: /stats さくら", f"あきら: /stats {JUNK} {JUNK}", "あきら: /stats さくら tatari",
    "あきら: /leaderboard tatari", "あきら: /replay", "あきら: /replay #1", "あきら: /replay #99", f"あきら: /replay {JUNK}",
    "あきら: /play tatamokatsu ai:2 level:strong", "あきら: /start", "あきら: /board", "あきら: /wait 20000",
    "あきら: /history", "あきら: /abandon", "あきら: /play tataraba ai:1", "あきら: /start", "あきら: /board", "あきら: 1",
    "あきら: /resign", "あきら: /play tatsumi solo=true", "あきら: /start", "あきら: /board", "あきら: /resign",
]


def english_in(lines: list[str], names: list[str] = ()) -> dict[str, list[str]]:
    """Each line with English words left, and the words (``names``, of people, aside)."""
    found = {}
    for line in lines:
        left = [w for w in english_left(TYPED.sub(" ", line)) if w not in names]
        if left:
            found[line[:160]] = left
    return found


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    yield store
    await store.close()


async def test_every_sandbox_reply_reads_in_japanese(store, tmp_path):
    chat = LocalChat(SessionService(store, seeds=lambda: 12345), tmp_path / "img", images=False, lang="ja")
    out = []
    for line in TRANSCRIPT:
        out += await chat.line(line)
    assert len(out) > 150
    assert "ほかの項目" not in "\n".join(out)
    assert "タタリ：呪いの人形をすべて手放しましょう。" in "\n".join(out)
    assert any(line.endswith("項目：ダイス（`dice`）、ストップ（`stop`）、バースト（`bust`）、手元（`stash`）、ゲームの終わり（`end`）。")
               for line in out), [line for line in out if "項目" in line]
    assert any(line.startswith("タタリ — ダイス：") for line in out)
    assert "! あきら: 「ぬぬぬ」というAIの強さはありません。強さ：弱い（`easy`）、普通（`normal`）、強い（`strong`）。" in out
    assert any(line.startswith("[ゲーム終了] ") for line in out)
    assert any(line.startswith("[タタモカツ ロビー] 席 3：あきら、AI（強い）、AI（強い）2") for line in out), out
    assert english_in(out) == {}


async def test_the_english_sandbox_replies_are_unchanged(store, tmp_path):
    chat = LocalChat(SessionService(store, seeds=lambda: 12345), tmp_path / "img", images=False)
    out = []
    for line in ["alice: /rules tatari dice", "alice: /rules tatari nope", "alice: /play tatari ai:1 level:ultra",
                 "alice: /play tatari zz=1", "alice: /stats", "alice: /undo no", "alice: /play tatari ai:1",
                 "alice: /start", "alice: /resign"]:
        out += await chat.line(line)
    assert out[:6] == [
        "Tatari — dice: Faces 1-4 add to the total; a doll counts 1 doll, a double-doll 2 dolls. Six dice, six faces. "
        "To set a face aside, press it or type the face itself: 1, 2, 3, 4, doll or double-doll.",
        "! alice: No topic 'nope' for Tatari. Topics: dice, stop, bust, stash, end.",
        "! alice: There is no AI level 'ultra'. Levels: easy, normal, strong.",
        "! alice: Tatari has no option 'zz'. Options: first.",
        "! alice: You have no recorded games yet.",
        "! alice: No undo request is open: /undo asks for one.",
    ]
    assert "[game over] alice resigns. The game ends." in out or any(line.startswith("[game over] ") for line in out)
    assert any(line.startswith("Ranking: 1. AI · Normal") for line in out), out  # an AI seat by its name


@pytest.mark.parametrize("game_id,n", [("tatari", 3), ("tsukimi", 2), ("tatamokatsu", 3), ("tataraba", 2),
                                       ("tatsumi", 2)])
def test_a_demo_game_log_reads_in_japanese(tmp_path, game_id, n):
    result = CliRunner().invoke(cli, ["demo", game_id, "--players", str(n), "--locale", "ja", "--no-images",
                                      "--db", str(tmp_path / "demo.sqlite3")])
    assert result.exit_code == 0, (result.output, result.exception)
    lines = result.output.splitlines()
    assert any(line.startswith("順位：1位 ") for line in lines), lines[-5:]
    assert english_in(lines, NAMES) == {}


def test_a_demo_refusal_reads_in_japanese(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "tatsumi", "--players", "1", "--locale", "ja", "--no-images",
                                      "--db", str(tmp_path / "demo.sqlite3")])
    assert result.exit_code == 1
    message = result.output.removeprefix("Error: ").strip()  # click's own prefix
    assert message.startswith("辰巳は、このオプションではAIプレイヤー1人で遊べません：") and "`solo=true`" not in message
    assert english_in([message]) == {}
