"""Rematch (bot/service/rematch.py): every finished game's result carries a Rematch button that opens a lobby for the
same table in the same channel — same game, options, pace and AI seats, the presser hosting — which each other player
of that game joins with one press; it expires like any lobby; nobody else can use it."""

from __future__ import annotations

from harness import Harness

from bot.config import Settings
from bot.discord import ids
from bot.discord.lobby import LOBBY_EXPIRY
from bot.service.rematch import REMATCH_OF


def no_render(state, names):
    return None


async def finished_game(h: Harness, alice, bob) -> int:
    """A Tatari game of alice, bob and an easy AI, ended by both people resigning; its session id."""
    card = (await h.slash(alice, "play", game="tatari", ai=1, level="easy")).message(public=True)
    await h.click(bob, card, "Join")
    await h.click(alice, card, "Start")
    sid = (await h.store.live_session(str(h.channel_id))).id
    await h.store.update_session(sid, meta={**(await h.store.session(sid)).meta, "pace": "day"})
    await h.slash(bob, "resign")
    await h.slash(alice, "resign")
    await h.settle()
    assert (await h.store.session(sid)).status == "finished"
    return sid


async def test_rematch_opens_the_same_table_and_each_player_joins_with_one_press(database):
    settings = Settings(discord_token=None, reminder_hours=0, afk_hours=0, lobby_hours=2, ai_pause_ms=1500,
                        ai_iterations=3)
    async with Harness(database, settings=settings, render=no_render) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        sid = await finished_game(h, alice, bob)
        result = next(m for m in reversed(h.messages_in(None)) if ids.rematch(sid) in
                      [c.get("custom_id") for row in m.get("components", []) for c in row["components"]])
        assert "result" in result["content"]

        reply = await h.click(carol, result, ids.rematch(sid))  # not a player of that game
        assert reply.ephemeral() and "Only the players of that game can ask for a rematch" in reply.text
        reply = await h.click(carol, result, ids.rematch(sid), custom_id=ids.rematch(sid + 7))  # a forged id
        assert reply.ephemeral() and await h.store.live_session(str(h.channel_id)) is None

        reply = await h.click(bob, result, ids.rematch(sid))
        card = reply.message(public=True)
        assert "<@102> asks for a rematch: the same game, options and AI players." in card.content
        assert "<@101>: press Join (or Rematch) to play again." in card.content
        last, lobby = await h.store.session(sid), await h.store.live_session(str(h.channel_id))
        assert (lobby.status, lobby.game_id, lobby.host, lobby.options) == ("lobby", "tatari", bob.sid, last.options)
        assert lobby.players == [bob.sid, "ai:easy:1"] and lobby.meta[REMATCH_OF] == sid
        assert lobby.meta["pace"] == "day"
        assert [t.due_ms for t in await h.store.timers(lobby.id) if t.kind == LOBBY_EXPIRY] == [h.now_ms + 2 * 3_600_000]

        reply = await h.click(alice, result, ids.rematch(sid))
        assert reply.ephemeral() and "You joined the rematch" in reply.text
        assert (await h.store.live_session(str(h.channel_id))).players == [bob.sid, "ai:easy:1", alice.sid]
        assert "3. <@101>" in h.fake.messages[int(card.message["id"])]["content"]  # the card shows her
        reply = await h.click(alice, result, ids.rematch(sid))
        assert reply.ephemeral() and "You are already seated" in reply.text
        reply = await h.click(bob, card, "Start")
        assert (await h.store.live_session(str(h.channel_id))).status == "active"
        reply = await h.click(alice, result, ids.rematch(sid))  # the channel is busy with the rematch itself
        assert reply.ephemeral() and "already running here" in reply.text
