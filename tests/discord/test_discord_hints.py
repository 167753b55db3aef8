"""``/hint`` at the Discord table: the strong AI's best options for the member whose decision is open (ephemeral,
the AI seat's own choice first), never for a member not to move, off by default when two people play (a rated game
never changes silently), and a hinted game recorded unrated with its board and result saying so; the lobby's
``hints:`` and its first-contact line."""

from __future__ import annotations

import random

import pytest
from harness import Harness

import games
from bot.config import Settings
from bot.service.hints import HINTED_META
from games import ai as game_ai

ITERATIONS = 3


def no_render(state, names):
    return None


@pytest.fixture
async def h(database):
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, ai_iterations=ITERATIONS,
                        ai_pause_ms=1500)
    async with Harness(database, settings=settings, render=no_render) as harness:
        yield harness


async def live(h: Harness):
    return await h.store.live_session(str(h.channel_id))


async def test_hint_gives_the_strong_ais_own_choice_first_and_unrates_the_game(h):
    """Against an AI seat hints are on by default: alice's /hint answers only her, its first option is what a
    strong AI seat plays there (same seed, same budget), the game is noted hinted without moving the board's
    version, the next board says it is unrated, and the game is recorded unrated when it ends."""
    alice = h.user(101, "alice")
    card = (await h.slash(alice, "play", game="tatari", ai=1)).message(public=True)
    assert "\nHints: on (/hint; a hinted game is unrated)\nNew to Tatari? Learn it first (`/learn tatari`).\n" in card.content
    await h.slash(alice, "start")
    row = await live(h)
    game = games.get("tatari")
    state = game.load_state(row.state)
    decision = next(d for d in game.pending(state) if d.player == alice.sid)
    assert len(decision.options) > 1
    version = row.version

    reply = await h.slash(alice, "hint")
    answer = reply.message(public=False)
    assert answer.ephemeral and answer.content.startswith("💡 **Hint**")
    lines = answer.content.split("\n")
    options = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
    assert 1 <= len(options) <= 3
    strong = game_ai.choose(game, state, decision, alice.sid, "strong",
                            random.Random(f"{row.seed}:{version}:{alice.sid}"),
                            game_ai.Budget(iterations=ITERATIONS))
    assert options[0].startswith(f"1. **{decision.option(strong).label}** — ")
    assert "this game is unrated now" in lines[-1]
    await h.settle()
    row = await live(h)
    assert row.version == version and row.meta[HINTED_META] == [alice.sid]
    await h.slash(alice, "move", option=strong)  # the next board says the game is unrated
    await h.settle()
    board = [s for s in h.fake.sent if s.content.startswith("**Tatari**")][-1]
    assert "💡 Hint used by <@101>: this game is unrated." in board.content

    await h.slash(alice, "resign")
    await h.settle()
    sid, _game, _ended, outcome = (await h.store.channel_records(str(h.channel_id), limit=1))[0]
    record = await h.store.game_record(sid)
    assert outcome == "finished" and len(record.ranked) == 2 and not record.rated
    result = [s for s in h.fake.sent if "— result" in s.content][-1]
    assert "💡 Hint used by" in result.content and "Not rated (fewer" not in result.content


async def test_hint_refused_to_a_member_not_to_move_and_in_a_rated_game(h):
    """Two people: hints are off by default (the card says so) and /hint is refused, nothing noted; with
    ``hints:true`` a member whose decision is not open is refused, and one who is not seated too."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    assert "Hints: on" in card.content  # alone in the lobby so far
    await h.slash(bob, "join")
    await h.slash(alice, "start")
    reply = await h.slash(alice, "hint")
    assert reply.message(public=False).ephemeral and "Hints are off in this game" in reply.text
    assert HINTED_META not in (await live(h)).meta
    await h.slash(alice, "abandon")
    await h.settle()

    await h.slash(alice, "play", game="tatari", hints=True)
    await h.slash(bob, "join")
    await h.slash(alice, "start")
    row = await live(h)
    game = games.get("tatari")
    waiting = next(p for p in row.players if not any(d.player == p for d in game.pending(game.load_state(row.state))))
    reply = await h.slash(h.user(int(waiting), waiting), "hint")
    assert "It is not your turn" in reply.text
    reply = await h.slash(carol, "hint")
    assert "You are not playing in this game" in reply.text
    assert HINTED_META not in (await live(h)).meta


async def test_a_japanese_member_reads_the_hint_and_its_refusals_in_japanese(h):
    """The hint is an ephemeral answer: in the reader's Discord language (ja), its reasons in the game's Japanese
    terms; a refusal too."""
    alice = h.user(101, "alice")
    alice.locale = "ja"
    await h.slash(alice, "play", game="tatari", ai=1)
    await h.slash(alice, "start")
    reply = await h.slash(alice, "hint")
    text = reply.message(public=False).content
    assert text.startswith("💡 **ヒント** — ") and "推定勝率" in text and "強いAIの選択が先頭です" in text
    assert "ヒントを使ったため、このゲームはレーティング対象外になりました" in text
    assert "Hint" not in text and "chance" not in text
    bob = h.user(102, "bob")
    bob.locale = "ja"
    reply = await h.slash(bob, "hint")
    assert reply.text.strip() == "あなたはこのゲームに参加していません。ヒントはプレイヤー自身の選択にだけ使えます。"


async def test_hints_are_asked_under_the_members_quota(h):
    """/hint runs under the drawing workers' per-member quota: the fifth in one minute is refused with the wait,
    nothing searched."""
    alice = h.user(101, "alice")
    await h.slash(alice, "play", game="tatari", ai=1)
    await h.slash(alice, "start")
    for _ in range(4):
        assert "💡 **Hint**" in (await h.slash(alice, "hint")).text
    reply = await h.slash(alice, "hint")
    assert reply.text.startswith("Busy — try again in ") and reply.text.endswith(
        " s (at most 4 hints or images a minute per member).")
    alice.locale = "ja"
    reply = await h.slash(alice, "hint")
    assert reply.text == "混み合っています。60秒後にもう一度お試しください（1人につきヒントか画像は1分に4回まで）。"
