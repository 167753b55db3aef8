"""A replay that cannot be drawn in time: the asker is told clearly, within :data:`REPLAY_WAIT_S`, that it is still
being drawn; the drawing goes on, is kept, and the next ask gets it at once (one build)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from harness import Harness
from test_discord_results import resigned_game, result_message

from bot import heavy
from bot.config import Settings
from bot.discord import results as discord_results


@pytest.fixture
async def h(tmp_path):
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=tmp_path)
    async with Harness(tmp_path / "bot.sqlite3", settings=settings) as harness:
        yield harness


async def test_a_replay_not_drawn_in_time_is_refused_clearly_then_sent_at_once(h, monkeypatch):
    gate = threading.Event()
    draw = heavy.draw_replay

    def slow_draw(*args):
        gate.wait(10)
        return draw(*args)

    monkeypatch.setattr(heavy, "draw_replay", slow_draw)
    monkeypatch.setattr(discord_results, "REPLAY_WAIT_S", 0.2)
    quota = h.bot.results.heavy
    quota._given = ThreadPoolExecutor(max_workers=1)
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    msg = result_message(await resigned_game(h, alice, bob))
    sid = int(msg.custom_ids()[0].rsplit(":", 1)[1])  # the Replay button's pbc:p:<session>
    try:
        late = await h.slash(alice, "replay", game=str(sid))
        assert [s.content for s in late if s.kind != "response"] == [
            f"The replay of game #{sid} is still being drawn; ask again in a minute and it comes at once."]
        assert late[-1].ephemeral and not late[-1].files
        again = await h.slash(alice, "replay", game=str(sid))  # still drawing: the member's one request goes on
        assert again[-1].content == "Busy — try again in 20 s (your last image is still being drawn)."
        gate.set()
        while quota.admitted:
            await asyncio.sleep(0.02)
        sent = await h.slash(alice, "replay", game=str(sid))
    finally:
        gate.set()
        quota._given.shutdown(wait=True)
    assert sent[-1].files and sent[-1].files[0][0] == f"replay-{sid}.gif"
    assert quota.jobs["replay"] == 1
