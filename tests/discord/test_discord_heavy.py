"""Expensive drawing through the Discord harness: replays and cards are drawn in worker processes, never in the
bot's process; quotas refuse with one exact ephemeral line and nothing else sent; a finished game's replay is
built once and kept for every later request."""

from __future__ import annotations

import io

import pytest
from harness import GUILD_ID, Harness
from PIL import Image
from test_discord_results import resigned_game, result_message

from bot import results
from bot.config import Settings


@pytest.fixture
async def h(database, tmp_path):
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=tmp_path)
    async with Harness(database, settings=settings) as harness:
        yield harness


def refused(reply, text: str) -> bool:
    """``reply`` is one ephemeral answer with exactly ``text`` and no file."""
    return len(reply) == 1 and reply[0].ephemeral and reply[0].content == text and not reply[0].files


async def test_nothing_is_drawn_in_the_bot_process(h, monkeypatch):
    """The summary card, /stats, /leaderboard and /replay all carry their images while every drawing function of
    the bot's own process raises: they were drawn by the worker processes."""
    def in_the_bot(*_args, **_kwargs):
        raise AssertionError("drawn in the bot's process")

    for name in ("replay_gif", "stats_card", "leaderboard_card", "summary_card"):
        monkeypatch.setattr(results, name, in_the_bot)
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    msg = result_message(await resigned_game(h, alice, bob))
    assert msg.files[0][0].startswith("result-") and msg.files[0][1].startswith(b"\x89PNG")
    for reply in (await h.slash(alice, "stats"), await h.slash(alice, "leaderboard", game="tatari")):
        assert reply[0].type == 5 and reply[-1].files[0][1].startswith(b"\x89PNG")
    gif = (await h.click(bob, msg, "Replay"))[-1]
    assert Image.open(io.BytesIO(gif.files[0][1])).format == "GIF"
    assert h.bot.results.heavy.jobs == {"summary": 1, "stats": 1, "leaderboard": 1, "replay": 1,
                                         "turning": 2}  # the result's and the replay's turning points


async def test_a_finished_games_replay_is_built_once(h, tmp_path):
    """Two requests at the same moment and one later get the same GIF from one build, kept on disk under
    IMAGES_DIR/replays."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    msg = result_message(await resigned_game(h, alice, bob))
    start = len(h.fake.sent)
    for user in (alice, bob):  # both presses arrive before either is answered
        h.bot._connection.parse_interaction_create(h._interaction(user, 3, {
            "custom_id": msg.custom_ids()[0], "component_type": 2}, message=msg.message))
    await h.settle()
    later = await h.slash(alice, "replay", public=True)
    gifs = [s.files[0][1] for s in [*h.fake.sent[start:]] if s.files]
    assert len(gifs) == 3 and len(set(gifs)) == 1
    assert h.bot.results.heavy.jobs["replay"] == 1
    assert not later[-1].ephemeral and later[-1].files[0][0].startswith("replay-")
    kept = list((tmp_path / "replays").glob("*.gif"))
    assert len(kept) == 1 and kept[0].read_bytes() == gifs[0]


async def test_quotas_refuse_with_one_exact_line(h):
    """Per member: one request at a time and 4 a minute; per server: 3 at a time; the bot: 6 admitted in all.
    Each refusal is one ephemeral line naming the wait, nothing drawn; a minute later the member is served."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await resigned_game(h, alice, bob)
    quota = h.bot.results.heavy
    for _ in range(4):
        assert (await h.slash(alice, "stats"))[-1].files
    drawn = quota.jobs["stats"]
    reply = await h.slash(alice, "stats")
    assert refused(reply, "Busy — try again in 60 s (at most 4 images a minute per member).")
    h.advance(45_000)
    reply = await h.slash(alice, "leaderboard", game="tatari", public=True)
    assert refused(reply, "Busy — try again in 15 s (at most 4 images a minute per member).")
    h.advance(15_000)
    assert (await h.slash(alice, "stats"))[-1].files
    assert quota.jobs["stats"] == drawn + 1

    with quota.admit(bob.id, GUILD_ID):  # bob's earlier request still being drawn
        reply = await h.slash(bob, "stats", public=True)
        assert refused(reply, "Busy — try again in 20 s (your last image is still being drawn).")
    with quota.admit(201, GUILD_ID), quota.admit(202, GUILD_ID), quota.admit(203, GUILD_ID):
        reply = await h.slash(carol, "leaderboard", game="tatari")
        assert refused(reply, "Busy — try again in 20 s (this server has 3 images being drawn).")
        msg = result_message(await resigned_game(h, carol, bob))
        reply = await h.click(carol, msg, "Replay")  # the button too, before any "thinking…"
        assert refused(reply, "Busy — try again in 20 s (this server has 3 images being drawn).")
    tickets = [quota.admit(300 + i, 1_000 + i) for i in range(6)]
    reply = await h.slash(carol, "stats")
    assert refused(reply, "Busy — try again in 20 s (many images are being drawn right now).")
    for t in tickets:
        t.release()
    assert quota.admitted == 0 and (await h.slash(carol, "stats"))[-1].files
