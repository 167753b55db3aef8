"""Lobbies say the truth about seats (TM-17): "needs 2-4", "exactly 1" in solo, "exactly 5" with the
Void — from ``Game.seat_counts`` — and a lobby is full at the most its options allow."""

from __future__ import annotations

import pytest

import games
from bot.sessions import SessionError, SessionService
from bot.store import Store
from games.core import seats_text


def test_seats_text():
    assert seats_text([2, 3, 4]) == "2-4 players"
    assert seats_text([5]) == "exactly 5 players"
    assert seats_text([1]) == "exactly 1 player"
    assert seats_text([2, 4]) == "2 or 4 players"


@pytest.mark.parametrize(("game", "options", "seated", "line"), [
    ("tatari", {}, 1, "Needs 1 more player (2-5 players)."),
    ("tatari", {}, 3, "Ready to start (2-5 players, or wait for up to 5)."),
    ("tsukimi", {}, 2, "Ready to start (exactly 2 players)."),
    ("tatsumi", {}, 1, "Needs 1 more player (2-4 players)."),
    ("tatsumi", {"solo": True}, 1, "Ready to start (exactly 1 player)."),
    ("tatsumi", {"void": True}, 4, "Needs 1 more player (exactly 5 players)."),
    ("tatsumi", {}, 5, "Too many seats for these options: Tatsumi needs 2-4 players."),
])
def test_lobby_need_line(game, options, seated, line):
    assert games.get(game).lobby_need(seated, options) == line


async def test_a_lobby_is_full_at_what_its_options_allow(database):
    store = await Store.open(database)
    service = SessionService(store, clock=lambda: 1_000)
    try:
        await service.open_lobby("c1", "tatsumi", "p1", {"solo": True})
        with pytest.raises(SessionError, match=r"^The lobby is full \(1 player with these options; a table opened with solo=false seats "
                           r"4\)\. Wait for the next game\.$"):
            await service.join("c1", "p2")
        await service.open_lobby("c2", "tatsumi", "p1")
        for p in ("p2", "p3", "p4"):
            await service.join("c2", p)
        with pytest.raises(SessionError, match=r"^The lobby is full \(4 players with these options; a table opened with void=true seats "
                           r"5\)\. Wait for the next game\.$"):
            await service.join("c2", "p5")
        await service.open_lobby("c3", "tatsumi", "p1", {"void": True})
        for p in ("p2", "p3", "p4", "p5"):
            update = await service.join("c3", p)
        assert update.notes[-1].endswith("joined (5/5).")
    finally:
        await store.close()
