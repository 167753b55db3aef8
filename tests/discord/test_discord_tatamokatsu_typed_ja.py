"""Tatamokatsu's typed race words in Japanese through Discord (TK-3): "はい" typed in the salute window counts as
the salute and its message gets the ✅ reaction at once, before the window closes; a message that is no race word
gets no reaction and changes nothing."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from harness import Harness
from test_discord_tatamokatsu_races import (
    close,
    feed_message,
    force,
    message_payload,
    moves,
    no_render,
    state,
    table,
)

from bot.discord.races import COUNTED


@pytest.fixture
async def h(database):
    async with Harness(database, render=no_render) as harness:
        yield harness


def reactions_on(reply, message_id: int) -> list[str]:
    """The emoji the bot added (PUT …/reactions/<emoji>/@me) to ``message_id`` in ``reply``."""
    out = []
    for s in reply:
        path = unquote(s.path or "")
        if s.method == "PUT" and f"/messages/{message_id}/reactions/" in path:
            out.append(path.split("/reactions/")[1].split("/")[0])
    return out


async def salute_window(h: Harness):
    """Four players; alice rolls 5 · 5 · 6 (sum 16) and the race closes: the salute window is open."""
    users = await table(h)
    await force(h, "5", "5", "6")
    board = (await h.slash(users[0], "board")).message(with_components=True)
    await h.click(users[0], board, "Roll the dice")
    await close(h)
    assert (await state(h)).phase == "salute"
    return users


async def test_hai_in_japanese_counts_as_the_salute_and_gets_its_check_mark_at_once(h):
    alice, bob, carol, dave = await salute_window(h)
    before = len(await moves(h))
    h.advance(200)
    payload = message_payload(h, bob, "はい", h.now_ms)
    reply = await feed_message(h, payload)
    assert reactions_on(reply, int(payload["id"])) == [COUNTED]  # at once: the window is still open
    assert [s for s in reply if s.method == "PUT"] != [] and not reply.public()  # no message while it is open
    s = await state(h)
    assert s.phase == "salute" and set(s.inputs[bob.sid]) == {"salute"}
    assert (await moves(h))[before:] == [(bob.sid, "salute", s.inputs[bob.sid]["salute"])]


async def test_katakana_and_half_width_hai_count_too(h):
    alice, bob, carol, dave = await salute_window(h)
    for user, word in ((alice, "ハイ"), (carol, "ﾊｲ！")):
        h.advance(100)
        payload = message_payload(h, user, word, h.now_ms)
        assert reactions_on(await feed_message(h, payload), int(payload["id"])) == [COUNTED]
    s = await state(h)
    assert {p for p in s.inputs if "salute" in s.inputs[p]} == {alice.sid, carol.sid}


async def test_a_word_that_is_no_race_word_gets_no_reaction_and_changes_nothing(h):
    alice, bob, carol, dave = await salute_window(h)
    before = await moves(h)
    h.advance(200)
    for word in ("こんにちは", "hello", "はいはい"):
        reply = await h.say(bob, word)
        assert [s for s in reply if s.method == "PUT"] == [] and not reply.public()
    assert await moves(h) == before and (await state(h)).inputs == {}
