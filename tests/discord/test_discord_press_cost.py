"""What one button press costs, counted (not timed): SQL statements through the whole press (the move's commit
and the bookkeeping after the reply), reads of the session row, and how often the game's pending decisions are
computed. A change that adds a round trip, a second read of the row or a third ``pending`` fails here."""

from __future__ import annotations

import traceback

import pytest
from harness import Harness
from test_discord_play import open_game, pending

import games
from bot.discord import ids

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK")
"""Not counted: the statements that open and close the move's and the bookkeeping's transactions."""
MAX_SQL = 6
MAX_ROW_READS = 1
MAX_PENDING = 2
"""``Game.pending`` by the service and the engine: the move's check (``Game.apply``) and the next board."""


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as harness:
        yield harness


async def test_one_press_costs_at_most_six_statements_one_row_read_and_two_pendings(h, monkeypatch):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {u.sid: u for u in (alice, bob)}
    await open_game(h, [alice, bob])
    update = await pending(h)
    d = update.pending[0]
    board = h.board()
    button = ids.choice(update.session.id, update.session.version, 0, 0)
    await h.bot.bookkeeper.drain()

    statements: list[str] = []
    await h.store.conn.set_trace_callback(statements.append)
    reads: list[str] = []
    store = h.store
    for name in ("session", "live_session", "last_session"):
        original = getattr(store, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            reads.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(store, name, counting)
    game = games.get("tatari")
    computed: list[int] = []
    original_pending = type(game).pending

    def counting_pending(self, state):
        computed.append("renderers" if any("renderers" in f.filename for f in traceback.extract_stack()) else "")
        return original_pending(self, state)

    monkeypatch.setattr(type(game), "pending", counting_pending)

    reply = await h.click(users[d.player], board, button)
    await h.bot.bookkeeper.drain()
    await h.store.conn.set_trace_callback(None)
    monkeypatch.undo()

    assert reply.public() or [s for s in reply if s.kind in ("edit", "response")], reply.text
    assert (await pending(h)).session.version == update.session.version + 1  # the press was applied
    statements = [s for s in statements if s.split()[0] not in TRANSACTION_CONTROL]
    assert len(statements) <= MAX_SQL, statements
    assert len(reads) <= MAX_ROW_READS, reads
    # the board image derives its option markers from the state in the render worker: counted apart
    assert len([c for c in computed if not c]) <= MAX_PENDING, computed
    assert computed.count("renderers") <= 1, computed
