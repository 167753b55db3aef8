"""The lobby through real interactions: /play, Join / Leave / Start / Cancel buttons, /join, refusals."""

from __future__ import annotations

import pytest
from harness import Harness


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


async def test_lobby_flow(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    reply = await h.slash(alice, "play", game="tatari")
    card = reply.message(public=True)
    assert "Tatari" in card.content and "<@101>" in card.content
    assert card.buttons() == ["Join", "Leave", "Start", "Cancel", "How to play"]

    reply = await h.click(bob, card, "Join")
    assert reply[-1].type == 7 and "<@102>" in reply[-1].content  # the card is edited in place
    reply = await h.click(bob, card, "Join")
    assert reply.ephemeral() and "already seated" in reply.text

    reply = await h.slash(carol, "join")
    assert "<@103>" in reply.message(public=True).content
    reply = await h.click(carol, card, "Leave")
    assert "<@103>" not in reply[-1].content.split("Seats")[1]

    reply = await h.click(bob, card, "Start")
    assert reply.ephemeral() and "Only the host" in reply.text

    reply = await h.click(alice, card, "Start")
    board = reply.message(public=True, with_components=True)
    assert "Tatari" in board.content and board.custom_ids()
    row = await h.store.live_session(str(h.channel_id))
    assert row.status == "active" and row.players == ["101", "102"]


async def test_missing_permission_is_explained(h):
    from types import SimpleNamespace

    import discord

    alice = h.user(101, "alice")
    h.fake.fail_next.append(discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                              {"message": "Missing Access", "code": 50001}))
    reply = await h.slash(alice, "play", game="tatari")
    assert reply.ephemeral() and "missing a permission" in reply.text
    reply = await h.slash(alice, "board")  # the lobby exists: its card can be shown again
    assert reply.message(public=True).buttons() == ["Join", "Leave", "Start", "Cancel", "How to play"]
