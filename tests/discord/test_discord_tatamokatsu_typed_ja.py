"""Tatamokatsu's typed race words in Japanese through Discord (TK-3): "はい" typed in the salute window counts as
the salute and its message gets the ✅ reaction at once, before the window closes; the spoken forms a Japanese player
types (はいっ！, はーい, ハイッ, お辞儀) count the same; a message that is no race word (灰, 肺, はいはい) gets no reaction
and changes nothing. A Japanese table's race prompt lists the words to type in Japanese."""

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
    roll,
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


@pytest.mark.parametrize("word", ["はいっ", "はいっ！", "はーい", "ハイッ", "お辞儀", "おじぎ", "はい〜"])
async def test_spoken_forms_of_hai_count_as_the_salute(h, word):
    alice, bob, carol, dave = await salute_window(h)
    h.advance(150)
    payload = message_payload(h, bob, word, h.now_ms)
    assert reactions_on(await feed_message(h, payload), int(payload["id"])) == [COUNTED]
    assert set((await state(h)).inputs[bob.sid]) == {"salute"}


async def test_words_that_only_sound_like_hai_cost_nothing_and_count_nothing(h):
    alice, bob, carol, dave = await salute_window(h)
    before = await moves(h)
    for word in ("灰", "肺", "たたも", "はいはい"):
        h.advance(100)
        reply = await h.say(bob, word)
        assert [s for s in reply if s.method == "PUT"] == [] and not reply.public()
    assert await moves(h) == before and (await state(h)).inputs == {}


@pytest.mark.parametrize("word,race_input", [("たたもかつっ", "shout"), ("タタモカツー", "shout"),
                                             ("tatamokatu", "shout"), ("かたなっ", "katana"), ("取る", "grab")])
async def test_spoken_race_words_count_in_the_race_window(h, word, race_input):
    """A roll of 5 · 5 · 6 (sum 16): each race word is accepted as its input (a wrong one is a mistake of TK-8,
    but it is read as that input, not ignored)."""
    alice, bob, carol, dave = await table(h)
    await roll(h, alice, "5", "5", "6")
    h.advance(100)
    payload = message_payload(h, bob, word, h.now_ms)
    assert reactions_on(await feed_message(h, payload), int(payload["id"])) == [COUNTED]
    assert set((await state(h)).inputs[bob.sid]) == {race_input}


async def test_a_japanese_tables_race_prompt_lists_the_words_to_type_in_japanese(h):
    alice, bob, carol, dave = await table(h)
    h.guild_locale = "ja"  # the server's language from here on: the roll's public board reads Japanese
    await force(h, "5", "5", "6")
    board = (await h.slash(alice, "board")).message(with_components=True)
    msg = (await h.click(alice, board, "Roll the dice")).message(public=True)  # her own buttons: her language
    content = msg.content
    assert "📣 `タタモカツ` · ✊ `つかむ` · 🗡 `カタナ` · 🙇 `はい`" in content
    assert "`shout`" not in content and "`salute`" not in content
