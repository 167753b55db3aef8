"""A board's text has one builder (``bot.board_text.board_lines``), used by the Discord board message
(``present.BoardText``) and by the sandbox's plain-text board (the transcripts) alike. The message's live form marks
each pending decision with "➡️ " (the players' cue, and what the bench looks for), and its retired form — the text
an earlier board keeps once the turn has passed on — is the live text without those prompts and the how-to line."""

from __future__ import annotations

import random

import pytest
from harness import Harness
from test_discord_play import open_game, pending, play_turn

import bot.board_text
from bot.discord.present import BoardText, as_mentions
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store
from games import format_text

PROMPT = "➡️ "
HOW_TO = "-# Answer with the buttons below (or `/move`, which autocompletes); How to play explains the rules."


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as harness:
        yield harness


async def test_the_first_board_prompts_with_the_marker_and_says_how_to_answer(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    first = await open_game(h, [alice, bob])
    update = await pending(h)
    [d] = update.pending
    lines = first.content.split("\n")
    assert lines[0] == f"**Tatari** · board v{update.session.version}"
    assert lines[-2:] == [f"{PROMPT}{as_mentions(d.prompt)}", HOW_TO]
    board = BoardText(update, first=True)
    live = board.form().split("\n")
    assert live[-2:] == lines[-2:]
    assert board.form(retired=True).split("\n") == live[:-2]


async def test_a_board_whose_turn_passed_keeps_its_text_without_the_prompts(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {u.sid: u for u in (alice, bob)}
    await open_game(h, [alice, bob])
    board_id = h.board()["id"]
    start = (await pending(h)).pending[0].player
    rng = random.Random(3)
    for _ in range(40):
        await play_turn(h, users, rng)
        if h.board()["id"] != board_id:
            break
    assert h.board()["id"] != board_id and (await pending(h)).pending[0].player != start
    seen = [s.message for s in h.fake.sent if s.message is not None and s.message["id"] == board_id]
    last_live = next(m["content"] for m in reversed(seen) if m["components"])
    retired = h.fake.messages[int(board_id)]
    assert retired["components"] == []
    assert any(line.startswith(PROMPT) for line in last_live.split("\n"))
    assert retired["content"].split("\n") == [line for line in last_live.split("\n")
                                              if not line.startswith(PROMPT) and line != HOW_TO]


async def test_the_discord_board_and_the_sandbox_take_the_prompt_wording_from_one_builder(h, tmp_path, monkeypatch):
    """Changing the prompt wording in ``bot.board_text`` changes a Discord board and a transcript line alike."""
    monkeypatch.setattr(bot.board_text, "prompt_text", lambda d, name, lang=None: f"«{format_text(d.prompt, name)}»")
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    first = await open_game(h, [alice, bob])
    [d] = (await pending(h)).pending
    assert first.content.split("\n")[-2:] == [f"{PROMPT}«{as_mentions(d.prompt)}»", HOW_TO]

    store = await Store.open(tmp_path / "sandbox.sqlite3")
    try:
        chat = LocalChat(SessionService(store, seeds=lambda: 1), None)
        for line in ("alice: /play tatari", "bob: /join"):
            await chat.line(line)
        out = await chat.line("alice: /start")
        [d] = (await chat.service.show("table")).pending
        assert out[-2] == f"«{format_text(d.prompt, lambda p: p)}»"
        assert out[-1].startswith(f"  {d.player}: 1) ")
    finally:
        await store.close()
