"""``/hint`` and ``hints:`` in the sandbox: the hint for the typer's open decision, refused to a player not to move
and in a lobby of two people (hints off by default), the unrated line on the boards after a hint, the first-turn
rules topics."""

from __future__ import annotations

import re

import pytest

from bot.ai_seats import AiSettings
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store


@pytest.fixture
async def chat(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    svc = SessionService(store, seeds=lambda: 12345, ai=AiSettings(iterations=3))
    yield LocalChat(svc, None)
    await store.close()


async def say(chat, *lines):
    out = []
    for line in lines:
        out += await chat.line(line)
    return out


async def test_hint_for_the_typer_alone_and_the_boards_say_unrated(chat):
    out = await say(chat, "alice: /play tatari ai:1")
    assert out[-1] == "New to Tatari? Learn it first (`/learn tatari`)."
    await say(chat, "alice: /start")
    out = await say(chat, "bob: /hint")
    assert out == ["! bob: You are not playing in this game: a hint is only for a player's own decision."]
    out = await say(chat, "alice: /hint")
    assert out[0].startswith("💡 **Hint** — alice: set aside one face (estimated chance of winning; ")
    assert [line[:3] for line in out[1:-1]] == [f"{i}. " for i in range(1, len(out) - 1)]
    assert out[-1] == "-# A hint was used: this game is unrated now (the board and the result say so)."
    out = await say(chat, "alice: /board")
    assert "💡 Hint used by alice: this game is unrated." in out
    d = (await chat.service.show("table")).pending[0]
    out = await say(chat, f"alice: {d.options[0].id.removeprefix('set:')}")  # a move: said once, not again
    assert out and not any("unrated" in line for line in out)
    out = await say(chat, "alice: /hint")  # asked again: the game was unrated already, nothing more to say
    assert not out[-1].startswith("-#")


async def test_hints_off_between_people_and_on_when_the_lobby_says(chat):
    await say(chat, "alice: /play tatari", "bob: /join", "alice: /start")
    out = await say(chat, "alice: /hint")
    assert out == ["! alice: Hints are off in this game: its lobby set hints:off (the default when two or more "
                   "people play, so a rated game stays fair)."]
    await say(chat, "alice: /abandon")
    out = await say(chat, "alice: /play tatari hints:on", "bob: /join", "alice: /start", "bob: /hint")
    assert out[-1] == "! bob: It is not your turn: a hint is only for the decision you have to make now."
    assert (await say(chat, "alice: /hint"))[0].startswith("💡 **Hint**")
    out = await say(chat, "carol: /play tatari hints:maybe", "#x carol: /play tatari hints:maybe")
    assert out[-1] == "! carol: hints: is on or off, not 'maybe'."


@pytest.mark.parametrize("game", ["tatsumi", "tataraba"])
async def test_rules_have_a_first_turn_topic(chat, game):
    out = await say(chat, f"alice: /rules {game} first")
    assert "/hint shows the strong AI's choice and why." in out[0]


async def test_replay_tells_the_turning_points(tmp_path):
    """A whole game played by numbers, then /replay: the animation and the game's three turning points, one line
    each, as :func:`games.turning.turning_points` finds them."""
    store = await Store.open(tmp_path / "db.sqlite3")
    chat = LocalChat(SessionService(store, seeds=lambda: 7), tmp_path / "out", images=False)
    await say(chat, "alice: /play tatari", "bob: /join", "alice: /start")
    for _ in range(2000):
        d = (await chat.service.show("table")).pending[0]
        typed = d.options[0].id.removeprefix("set:") if d.kind == "select" else "1"
        if any(line.startswith("[game over]") for line in await say(chat, f"{d.player}: {typed}")):
            break
    out = await say(chat, "alice: /replay")
    await store.close()
    assert out[0].startswith("Replay of #1 Tatari") and out[1] == "**Turning points:**"
    assert len(out) == 5 and all(re.fullmatch(r"-# move \d+ · (alice|bob) chose .+: \d+ % -> \d+ %", x)
                                 for x in out[2:]), out
