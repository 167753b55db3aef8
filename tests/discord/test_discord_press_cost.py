"""What one button press or one typed ``/move`` costs, counted (not timed): SQL statements through the whole input
(the move's commit and the bookkeeping after the reply), reads of the session row, how often the game's pending
decisions are computed and how often the board's text is built. A change that adds a round trip, a second read of the
row, a third ``pending`` or a second build of the board's text fails here."""

from __future__ import annotations

import traceback

import pytest
from harness import Harness
from test_discord_play import open_game, pending

import games
from bot import board_text
from bot.board_text import option_label
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


class Cost:
    """What the store and the engine did while it was counting: SQL statements (transaction control aside), reads
    of a session row, ``Game.pending`` calls (``"renderers"``: by the render worker's marker keys) and builds of a
    board's text."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.reads: list[str] = []
        self.computed: list[str] = []
        self.builds = 0

    @property
    def sql(self) -> list[str]:
        return [s for s in self.statements if s.split()[0] not in TRANSACTION_CONTROL]


async def counted(h, monkeypatch, act) -> Cost:
    """Run ``act()`` (an input and the bookkeeping after its reply) and count what it cost."""
    await h.bot.bookkeeper.drain()
    cost = Cost()
    await h.store.conn.set_trace_callback(cost.statements.append)
    store = h.store
    for name in ("session", "live_session", "last_session"):
        original = getattr(store, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            cost.reads.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(store, name, counting)
    game = games.get("tatari")
    original_pending = type(game).pending

    def counting_pending(self, state):
        cost.computed.append("renderers" if any("renderers" in f.filename for f in traceback.extract_stack()) else "")
        return original_pending(self, state)

    monkeypatch.setattr(type(game), "pending", counting_pending)
    original_build = board_text.build_board

    def counting_build(*args, **kwargs):
        cost.builds += 1
        return original_build(*args, **kwargs)

    monkeypatch.setattr(board_text, "build_board", counting_build)
    try:
        reply = await act()
        await h.bot.bookkeeper.drain()
    finally:
        await h.store.conn.set_trace_callback(None)
        monkeypatch.undo()
    assert reply.public() or [s for s in reply if s.kind in ("edit", "response")], reply.text
    return cost


def assert_cheap(cost: Cost) -> None:
    assert len(cost.sql) <= MAX_SQL, "\n".join(s[:90] for s in cost.sql) + f" reads={cost.reads}"
    assert len(cost.reads) <= MAX_ROW_READS, cost.reads
    # the board image derives its option markers from the state in the render worker: counted apart
    assert len([c for c in cost.computed if not c]) <= MAX_PENDING, cost.computed
    assert cost.computed.count("renderers") <= 1, cost.computed
    assert cost.builds == 1  # the board's text: built once, every form it may go out in taken from that build


async def test_one_press_costs_at_most_six_statements_one_row_read_and_two_pendings(h, monkeypatch):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {u.sid: u for u in (alice, bob)}
    await open_game(h, [alice, bob])
    update = await pending(h)
    d = update.pending[0]
    board = h.board()
    button = ids.choice(update.session.id, update.session.version, 0, 0)

    cost = await counted(h, monkeypatch, lambda: h.click(users[d.player], board, button))

    assert (await pending(h)).session.version == update.session.version + 1  # the press was applied
    assert_cheap(cost)


@pytest.mark.parametrize("typed", ["id", "label"])
async def test_a_typed_move_costs_what_a_press_costs(h, monkeypatch, typed):
    """``/move`` by its option id or by the label its button shows: the same bounds as a press."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {u.sid: u for u in (alice, bob)}
    await open_game(h, [alice, bob])
    update = await pending(h)
    d = update.pending[0]
    names = await h.bot.links.names(update.session.id)
    option = d.options[0].id if typed == "id" else option_label(d, 0, names)

    cost = await counted(h, monkeypatch, lambda: h.slash(users[d.player], "move", option=option))

    after = await pending(h)
    assert after.session.version == update.session.version + 1  # the move was applied
    assert (await h.store.moves(update.session.id))[-1].option == d.options[0].id
    assert_cheap(cost)
