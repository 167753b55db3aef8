"""Results through the Discord harness: the result message (summary card, rating changes, Replay button),
``/stats``, ``/leaderboard``, ``/replay`` and the Replay button, with their refusals."""

from __future__ import annotations

import io
import random

import pytest
from harness import CHANNEL_ID, Harness
from openskill.models import PlackettLuce
from PIL import Image
from test_discord_play import open_game, play_turn

from bot.config import Settings
from bot.service.hints import turning_job, turning_lines

OTHER_CHANNEL = CHANNEL_ID + 5


def dolls_left(n: int) -> str:
    """A Tatari score as the results write it (``Game.score_words``, TA-10): the dolls left in the stash."""
    return f"{n} doll left" if n == 1 else f"{n} dolls left"


@pytest.fixture
async def h(database, tmp_path):
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=tmp_path)
    async with Harness(database, settings=settings) as harness:
        yield harness


async def resigned_game(h: Harness, winner, loser, turns: int = 2, channel_id=None):
    """A game of Tatari in which ``loser`` resigns after ``turns`` moves; returns the /resign reply."""
    users = {winner.sid: winner, loser.sid: loser}
    await open_game(h, [winner, loser], channel_id=channel_id)
    rng = random.Random(2)
    for _ in range(turns):
        await play_turn(h, users, rng, channel_id)
    return await h.slash(loser, "resign", channel_id=channel_id)


def result_message(reply):
    sent = reply.message(public=True, result=True)
    assert sent.content.startswith("🏁 ")
    return sent


async def test_result_message_carries_summary_ratings_and_replay(h):
    """The game's end posts a result message: ranking (the resigner last), the rating
    after and its change (openskill's numbers), the game's turning points, the summary card and a Replay button."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    reply = await resigned_game(h, alice, bob)
    msg = result_message(reply)
    model = PlackettLuce()
    (a,), (b,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    sid = (await h.store.channel_records(str(CHANNEL_ID)))[0][0]
    score = {s.player_id: s.score for s in (await h.store.game_record(sid)).seats}
    row = await h.store.session(sid)
    turning = turning_job("tatari", row.players, row.options, row.seed, await h.store.moves(sid))
    assert turning  # the game's turning points follow the ranking, players by their names
    assert msg.content.split("\n") == [
        "🏁 **Tatari** — result",
        f"1st alice ★ · {dolls_left(score[alice.sid])} · rating {a.mu:.1f} ({a.mu - 25:+.1f})",
        f"2nd bob · resigned · rating {b.mu:.1f} ({b.mu - 25:+.1f})",
        *turning_lines(turning, {alice.sid: "alice", bob.sid: "bob"}),
        "🔔 <@101>, <@102>: the game is over.",  # the end reaches each seated player once (their route: the channel)
    ]
    assert msg.body["allowed_mentions"]["users"] == [101, 102]
    assert score[bob.sid] is None  # Tatari scores only the players still in the game
    assert msg.buttons() == ["Replay", "Rematch"]
    ((name, png),) = msg.files
    assert name.startswith("result-") and Image.open(io.BytesIO(png)).size[0] == 800


async def test_stats_command(h):
    """/stats (own, a member's, one game), ephemeral unless public; no games and unknown
    games answered clearly and ephemerally."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await resigned_game(h, alice, bob)
    reply = await h.slash(alice, "stats")
    thinking, sent = reply
    assert thinking.type == 5 and thinking.ephemeral  # deferred: the card is drawn in a worker process
    assert sent.ephemeral and sent.files and sent.content.startswith("Stats of alice\nTatari: 1 game, 1 win (100%), "
                                                                     "average place 1.00, rating ")
    assert "Recent: Tatari 1st of 2" in sent.content
    reply = await h.slash(alice, "stats", member=bob, game="tatari", public=True)
    thinking, sent = reply
    assert thinking.type == 5 and not thinking.ephemeral
    assert not sent.ephemeral and sent.content.startswith("Stats of bob\nTatari: 1 game, 0 wins (0%), average "
                                                          "place 2.00")
    assert "2nd of 2 (resigned)" in sent.content
    reply = await h.slash(alice, "stats", member=carol)
    assert reply.ephemeral() and reply.text == "carol has no recorded games in this server yet."
    reply = await h.slash(carol, "stats")
    assert reply.ephemeral() and reply.text == "You have no recorded games in this server yet."
    reply = await h.slash(alice, "stats", game="tsukimi")
    assert reply.ephemeral() and reply.text == "You have no recorded games of Tsukimi in this server yet."
    reply = await h.slash(alice, "stats", game="chess")
    assert reply.ephemeral() and "no game called 'chess'" in reply.text


async def test_leaderboard_command(h):
    """/leaderboard game: the server's top by rating (a conservative estimate) with games played; ephemeral unless public;
    a game without rated games and an unknown game answered clearly."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await resigned_game(h, alice, bob)
    await resigned_game(h, alice, carol)
    _thinking, sent = await h.slash(bob, "leaderboard", game="tatari")
    lines = sent.content.split("\n")
    assert sent.ephemeral and sent.files and lines[0] == "Tatari — top 3 of this server (by rating, a conservative estimate)"
    assert [line.split(" — ")[0] for line in lines[1:]] == ["1. alice", "2. bob", "3. carol"] or \
        [line.split(" — ")[0] for line in lines[1:]] == ["1. alice", "2. carol", "3. bob"]
    assert lines[1].endswith("· 2 games, 2 wins")
    _thinking, sent = await h.slash(bob, "leaderboard", game="tatari", public=True)
    assert not sent.ephemeral
    reply = await h.slash(bob, "leaderboard", game="tsukimi")
    assert reply.ephemeral() and reply.text.startswith("No rated games of Tsukimi in this server yet")
    reply = await h.slash(bob, "leaderboard", game="chess")
    assert reply.ephemeral() and "no game called 'chess'" in reply.text


async def test_replay_button_and_command(h):
    """The Replay button and /replay send an animated GIF of the game rebuilt from its log
    (deferred first); /replay knows only this channel's games: another channel's id, an unknown id, a word and
    a channel without games are refused ephemerally."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    msg = result_message(await resigned_game(h, alice, bob))
    sid = (await h.store.channel_records(str(CHANNEL_ID)))[0][0]
    reply = await h.click(bob, msg, "Replay")
    assert reply[0].type == 5  # deferred: the animation is built off the event loop
    gif = reply[-1]
    assert gif.ephemeral and gif.content.startswith(f"🎞️ Replay of #{sid} Tatari (3 moves")
    ((name, data),) = gif.files
    im = Image.open(io.BytesIO(data))
    assert name == f"replay-{sid}.gif" and im.format == "GIF" and im.n_frames == 4 and len(data) < 8 * 2**20
    reply = await h.slash(alice, "replay", public=True)
    assert not reply[-1].ephemeral and reply[-1].files[0][0] == f"replay-{sid}.gif"
    choices = await h.autocomplete(alice, "replay", "game", game="")
    assert [c["value"] for c in choices] == [str(sid)] and choices[0]["name"].startswith(f"#{sid} Tatari · ")
    reply = await h.slash(alice, "replay", game=f"#{sid}")
    assert reply[-1].files
    reply = await h.slash(alice, "replay", channel_id=OTHER_CHANNEL, game=str(sid))
    assert reply.ephemeral() and reply.text == (f"Game #{sid} did not end in this channel: /replay lists the games "
                                                "of this channel.")
    reply = await h.slash(alice, "replay", game="999")
    assert reply.ephemeral() and "Game #999 did not end in this channel" in reply.text
    reply = await h.slash(alice, "replay", game="latest")
    assert reply.ephemeral() and "'latest' is not a game of this channel" in reply.text
    reply = await h.slash(alice, "replay", channel_id=OTHER_CHANNEL)
    assert reply.ephemeral() and reply.text.startswith("No game has ended in this channel yet")


async def test_help_says_how_ratings_treat_ai_seats(h):
    """/help points at /rules; /rules without a game names the result commands and says AI seats are rated as
    their level."""
    reply = await h.slash(h.user(101, "alice"), "help")
    assert reply.text.startswith("**Play-by-chat board games.** New to a game? `/learn game` teaches it step by step.")
    assert "`/rules`: commands, ratings, AI players" in reply.text
    reply = await h.slash(h.user(101, "alice"), "rules")
    assert "/stats" in reply.text and "/leaderboard" in reply.text and "/replay" in reply.text
    assert "AI seats are rated as their level" in reply.text and "resigns ranks last" in reply.text
