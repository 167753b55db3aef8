"""Never silent: a board whose image Discord refuses goes out as text (the position in
words and numbered options, buttons kept); posts outside an interaction that Discord refuses are retried, then
logged once with the session id and surfaced at the next interaction in that channel; a deleted board message is
replaced by a new board at the next update."""

from __future__ import annotations

import logging
import time

import pytest
from harness import ALL_PERMS, Harness, http_error
from test_discord_play import open_game, pending
from test_discord_tatamokatsu_races import SHOUT, close, no_render, roll, table

import renderers
from bot.board_text import NO_IMAGE, numbered_lines
from bot.discord.delivery import CANNOT_POST
from bot.discord.present import as_mentions

ATTACH_FILES = 1 << 15
SEND_MESSAGES = 1 << 11
CHANNEL_POST = "/channels/{channel_id}/messages"


def refuse_files(calls: list):
    """A server where the bot lacks Attach Files: every call carrying a file is 403 Missing Permissions."""

    def refuse(kind, method, path, body, files):
        if files:
            calls.append((kind, method, path))
            return http_error(403, 50013, "Missing Permissions")
        return None

    return refuse


def refuse_channel_posts(calls: list, times: int, status: int = 403, code: int = 50013,
                         message: str = "Missing Permissions"):
    """The first ``times`` channel messages the bot posts (outside interactions) are refused."""

    def refuse(kind, method, path, body, files):
        if kind == "rest" and method == "POST" and path == CHANNEL_POST and len(calls) < times:
            calls.append(body.get("content", ""))
            return http_error(status, code, message)
        return None

    return refuse


def numbered(content: str) -> list[str]:
    return [line for line in content.split("\n") if line.startswith("`")]


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as harness:
        yield harness


async def test_board_whose_image_is_refused_arrives_as_text_with_its_buttons(h):
    """Discord answers 403 to every attachment (the bot lacks Attach Files although the
    interaction said otherwise): the first board and the next are posted as their text form — the game's status,
    the prompt and the options numbered — with the same buttons, and the game goes on."""
    refused: list = []
    h.fake.refuse = refuse_files(refused)
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    board = await open_game(h, [alice, bob])
    update = await pending(h)
    names = await h.bot.links.names(update.session.id)
    assert [c[:2] for c in refused] == [("webhook", "POST")]  # the board with its image, refused once
    assert not board.files and board.content == h.bot.table.live[update.session.id].text
    assert board.content.endswith(NO_IMAGE)
    assert numbered(board.content) == numbered_lines(update, names)
    assert numbered(board.content)[0] == f"`1.` {update.pending[0].options[0].label!s}"
    assert f"-# {as_mentions(update.game.status(update.state))}" in board.content.split("\n")
    assert len(board.custom_ids()) == len(update.pending[0].options) + 2  # every option, How to play, Full board
    d = update.pending[0]
    user = alice if d.player == alice.sid else bob
    reply = await h.choose(user, d.options[0].id, allow_move=False)
    after = await pending(h)
    assert after.session.version == update.session.version + 1  # the game went on
    shown = reply.message(public=True)
    assert not shown.files and shown.content.endswith(NO_IMAGE) and shown.custom_ids()
    assert numbered(shown.content) == numbered_lines(after, names)
    assert not any(s.files for s in reply)


async def test_board_without_attach_files_permission_is_text_at_once(h):
    """Attach Files is taken away mid-game and the press says so (``app_permissions``): the next
    board is its text form at once (no refused call first)."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await open_game(h, [alice, bob])
    refused: list = []
    h.fake.refuse = refuse_files(refused)
    h.app_permissions = ALL_PERMS & ~ATTACH_FILES
    update = await pending(h)
    d = update.pending[0]
    reply = await h.choose(alice if d.player == alice.sid else bob, d.options[0].id, allow_move=False)
    after = await pending(h)
    shown = reply.message(public=True)
    assert refused == [] and not shown.files
    assert numbered(shown.content) == numbered_lines(after, await h.bot.links.names(after.session.id))
    assert shown.content.endswith(NO_IMAGE) and shown.custom_ids()


async def test_late_image_refused_turns_the_board_into_text(tmp_path):
    """A render slower than the reply's wait is attached by an edit; when Discord refuses that
    edit, the board's text is replaced by its text form (numbered options) instead — no "background task failed"."""

    def slow(state, names):
        time.sleep(0.3)
        return renderers.render(state, names=names)

    async with Harness(tmp_path / "bot.sqlite3", render=slow, image_wait_s=0.01) as h:
        refused: list = []
        h.fake.refuse = refuse_files(refused)
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        await h.settle()
        update = await pending(h)
        names = await h.bot.links.names(update.session.id)
        live = h.bot.table.live[update.session.id]
        assert refused and all(method == "PATCH" for _, method, _ in refused)
        content = h.fake.messages[live.message_id]["content"]
        assert content == live.text and content.endswith(NO_IMAGE)
        assert numbered(content) == numbered_lines(update, names)
        assert h.fake.messages[live.message_id]["components"]  # the buttons stay


async def test_race_result_whose_image_is_refused_is_posted_as_text(h):
    """A post outside an interaction: the race result (the window's timer) is a channel
    message; Discord refuses its image, so it is posted as text at once."""
    refused: list = []
    alice, bob, carol, dave = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    h.now_ms = t0 + 1000
    await h.click(bob, msg, SHOUT)
    h.fake.refuse = refuse_files(refused)
    reply = await close(h)
    result = [s for s in reply.public() if s.kind == "message"]
    assert [c[:2] for c in refused] == [("rest", "POST")]
    assert len(result) == 1 and not result[0].files and result[0].content.endswith(NO_IMAGE)
    assert "shouted first (+1000 ms)" in result[0].content and result[0].custom_ids()


async def test_race_result_refused_three_times_is_logged_once_and_shown_by_the_next_press(tmp_path, caplog):
    """The race result is refused (403 Missing Permissions: Send Messages taken away) at every
    try: three tries, ONE warning naming the session, nothing at ERROR; the race message keeps its buttons; the
    next press in the channel answers with the missed board, publicly, and one line naming the missing
    permission; once only."""
    caplog.set_level(logging.DEBUG, logger="bot")
    async with Harness(tmp_path / "bot.sqlite3", render=no_render) as h:
        alice, bob, carol, dave = await table(h)
        msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
        h.now_ms = t0 + 1000
        await h.click(bob, msg, SHOUT)
        sid = (await h.store.live_session(str(h.channel_id))).id
        tries: list = []
        h.fake.refuse = refuse_channel_posts(tries, times=10)
        h.app_permissions = ALL_PERMS & ~SEND_MESSAGES
        caplog.clear()
        reply = await close(h)
        assert not [s for s in reply.public() if s.kind == "message"]
        assert len(tries) == 3 and all("shouted first (+1000 ms)" in t for t in tries)
        update = await pending(h)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert f"(session {sid})" in warnings[0].getMessage() and warnings[0].name == "bot.discord.delivery"
        assert "background task failed" not in caplog.text
        # the race message keeps its buttons; the next press in that channel (an interaction's answer needs no
        # Send Messages) shows the missed board publicly, as the new live board, with one line on what is missing
        assert h.fake.messages[int(msg.message["id"])]["components"]
        h.fake.refuse = None
        press = await h.click(carol, msg, SHOUT)
        shown = press[0]
        assert shown.kind == "response" and not shown.ephemeral and shown.custom_ids()
        assert f"board v{update.session.version}" in shown.content
        assert CANNOT_POST.format(lacking="Send Messages", it="it") in shown.content.split("\n")
        assert h.bot.table.live[sid].message_id == int(shown.message["id"])
        assert [s.kind for s in press[1:]] == ["edit"] and not press[1].custom_ids()  # the race message retired
        # ... once
        again = await h.click(carol, msg, SHOUT)
        assert len(again) == 1 and again[0].ephemeral and "can't post" not in again.text


async def test_turn_reminder_refused_twice_is_posted_at_the_third_try(tmp_path, caplog):
    """A reminder refused by Discord (503) is tried again in the background and posted at the
    third try; nothing is logged at WARNING and nothing waits for the next interaction."""
    from bot.config import Settings

    caplog.set_level(logging.WARNING)
    settings = Settings(discord_token=None, reminder_hours=2, afk_hours=0)
    async with Harness(tmp_path / "bot.sqlite3", settings=settings, render=no_render) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        tries: list = []
        h.fake.refuse = refuse_channel_posts(tries, times=2, status=503, code=0, message="Service Unavailable")
        h.advance(2 * 3_600_000)
        start = len(h.fake.sent)
        assert await h.bot.timers.fire_due(h.now_ms) == 1
        await h.settle()
        posted = [s for s in h.fake.sent[start:] if s.kind == "message"]
        assert len(tries) == 2 and len(posted) == 1 and posted[0].content.startswith("⏰ ")
        assert posted[0].content == tries[0]
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert h.bot.delivery.pending(str(h.channel_id)) == []


async def test_deleted_board_message_is_replaced_by_a_new_board(tmp_path, caplog):
    """A member deletes the live board; the next update that would edit it (404 Unknown Message)
    posts a new board with the buttons instead, and nothing is logged as failed."""
    caplog.set_level(logging.WARNING)
    async with Harness(tmp_path / "bot.sqlite3", render=no_render) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        users = {alice.sid: alice, bob.sid: bob}
        await open_game(h, [alice, bob])
        replaced = 0
        for _ in range(40):
            update = await pending(h)
            if update.session.status != "active":
                break
            live = h.bot.table.live[update.session.id]
            h.delete_message(live.message_id)
            d = update.pending[0]
            reply = await h.slash(users[d.player], "move", option=d.options[0].id)
            after = await pending(h)
            if after.session.status != "active":
                break
            new = reply.message(public=True, with_components=True)
            assert int(new.message["id"]) == h.bot.table.live[after.session.id].message_id != live.message_id
            assert int(new.message["id"]) in h.fake.messages
            if set(d.player for d in after.pending) == {d.player}:  # the same player: an edit was due
                replaced += 1
                assert "/board to see it" not in reply.text
        assert replaced >= 2
        assert "background task failed" not in caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_thread_lobby_card_is_retried_then_the_lobby_opens(h):
    """``/play thread:true`` — the lobby card in the new thread is refused twice (503) and posted
    at the third try; the thread keeps its lobby."""
    alice = h.user(101, "alice")
    tries: list = []
    h.fake.refuse = refuse_channel_posts(tries, times=2, status=503, code=0, message="Service Unavailable")
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    thread = next(s for s in reply if s.kind == "thread")
    tid = thread.message["id"]
    cards = [s for s in reply if s.kind == "message"]
    assert len(tries) == 2 and len(cards) == 1 and cards[0].channel_id == int(tid)
    assert (await h.store.live_session(tid)).status == "lobby"
    assert reply.ephemeral()[-1].content == f"The Tatari lobby is open in <#{tid}>."


async def test_thread_lobby_card_refused_at_every_try_removes_the_thread_and_says_why(h):
    """The card is refused at every try (403): the thread and its lobby are removed and the
    member is told in one ephemeral line, with Discord's answer (no permission is missing on the interaction)."""
    alice = h.user(101, "alice")
    tries: list = []
    h.fake.refuse = refuse_channel_posts(tries, times=10)
    reply = await h.slash(alice, "play", game="tatari", thread=True)
    tid = next(s for s in reply if s.kind == "thread").message["id"]
    assert len(tries) == 3
    assert await h.store.live_session(tid) is None
    assert [s for s in reply if s.method == "DELETE" and s.path.endswith(f"/channels/{tid}")]
    assert reply.ephemeral()[-1].content == (
        "I could not post the Tatari lobby in the new thread (Discord answered 403 Missing Permissions), so I "
        "removed the thread. Ask a moderator to check my permissions in this channel's threads, or /play here "
        "without thread.")
