"""The board image pipeline (bot/discord/images.py): every waiting render keeps what it needs, however many tables
wait; a render nobody needs any more is skipped, never an error."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

import games
from bot.discord import images as images_mod
from bot.discord.images import IMAGE_CACHE_SIZE, Images
from bot.i18n import speaking
from bot.store import SessionRow

STATE = games.get("tatari").setup(["a", "b"], None, 1)


class GatedRender:
    """A render that holds its worker until :meth:`open` (so renders pile up behind it), then returns ``b"png"``;
    ``drawn`` counts the boards drawn."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.drawn = 0

    def __call__(self, state, names) -> bytes:
        self.gate.wait(10)
        self.drawn += 1
        return b"png"

    def open(self) -> None:
        self.gate.set()


def row(session_id: int, version: int) -> SessionRow:
    return SessionRow(id=session_id, channel_id=str(session_id), game_id="tatari", status="active", host="a",
                      players=["a", "b"], seed=1, version=version)


async def waiting(tasks: list[asyncio.Task]) -> None:
    """Let every task reach the render slots (all but those handed to the pool then wait there)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_more_waiting_tables_than_the_cache_holds_each_get_their_image(caplog):
    render = GatedRender()
    pipeline = Images(render, workers=1)
    tables = IMAGE_CACHE_SIZE + 20
    caplog.set_level(logging.INFO)
    try:
        tasks = [asyncio.ensure_future(pipeline.png(row(sid, 3), STATE, {})) for sid in range(1, tables + 1)]
        await waiting(tasks)
        render.open()
        got = await asyncio.gather(*tasks)
    finally:
        pipeline.close(wait=True)
    assert got == [b"png"] * tables
    assert render.drawn == tables
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert pipeline._latest == {} and pipeline._waiting == {}  # nothing kept once every render is done
    assert len(pipeline._cache) == IMAGE_CACHE_SIZE


async def test_a_board_superseded_while_it_waits_is_skipped_not_drawn(caplog):
    render = GatedRender()
    pipeline = Images(render, workers=1)
    caplog.set_level(logging.INFO)
    try:
        # the one worker's renders in hand (the one it draws, the next at hand): other tables'
        busy = [asyncio.ensure_future(pipeline.png(row(10 + i, 1), STATE, {}))
                for i in range(images_mod.RENDERS_PER_WORKER)]
        old = asyncio.ensure_future(pipeline.png(row(2, 4), STATE, {}))
        new = asyncio.ensure_future(pipeline.png(row(2, 5), STATE, {}))
        await waiting([*busy, old, new])
        render.open()
        assert await asyncio.gather(*busy, old, new) == [b"png"] * len(busy) + [None, b"png"]
        # a board older than the one drawn is not drawn again; the newest comes from the cache
        assert await pipeline.png(row(2, 4), STATE, {}) is None
        assert await pipeline.png(row(2, 5), STATE, {}) == b"png"
    finally:
        pipeline.close(wait=True)
    assert render.drawn == images_mod.RENDERS_PER_WORKER + 1
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_board_drawn_ahead_of_its_move_is_drawn_once():
    """Images.ahead starts drawing a move's board while the move is being stored; the board's own Images.board then
    waits for that drawing: one render, one look-up of the names, the image and alt text it drew."""
    render = GatedRender()
    pipeline = Images(render, workers=1)
    asked: list[int] = []

    async def names() -> dict[str, str]:
        asked.append(1)
        return {"a": "Ann", "b": "Bo"}

    try:
        pipeline.ahead(row(1, 2), STATE, names, [])
        shown = asyncio.ensure_future(pipeline.board(row(1, 2), STATE, {"a": "Ann", "b": "Bo"}, pending=[]))
        await waiting([shown])
        render.open()
        drawn = await shown
    finally:
        pipeline.close(wait=True)
    assert drawn.png == b"png" and drawn.alt and "Ann" in drawn.alt
    assert render.drawn == 1 and asked == [1] and pipeline._ahead == {}


async def test_a_board_drawn_ahead_of_a_move_not_stored_is_forgotten():
    """Images.withdraw (the move was not stored: another process wrote that version first): a drawing still
    running is stopped and a drawn one forgotten, so the version the other move makes is drawn anew."""
    render = GatedRender()
    pipeline = Images(render, workers=1)

    async def names() -> dict[str, str]:
        return {}

    try:
        pipeline.ahead(row(1, 2), STATE, names, [])  # still drawing when withdrawn
        running = list(pipeline._ahead.values())
        await waiting(running)
        pipeline.withdraw(row(1, 2))
        await asyncio.wait(running)
        assert pipeline._ahead == {} and running[0].cancelled()
        render.open()
        pipeline.ahead(row(1, 3), STATE, names, [])  # drawn when withdrawn
        await asyncio.wait(list(pipeline._ahead.values()))
        assert pipeline._cache[1][0][0] == 3 and pipeline._alts[1][0][0] == 3
        pipeline.withdraw(row(1, 3))
        assert 1 not in pipeline._cache and 1 not in pipeline._alts
        assert (await pipeline.board(row(1, 3), STATE, {})).png == b"png"  # the other move's version 3
    finally:
        pipeline.close(wait=True)
    assert render.drawn == 3  # the stopped one's worker thread finished its render: its image was not kept


@pytest.fixture
def small_cache(monkeypatch):
    monkeypatch.setattr(images_mod, "IMAGE_CACHE_SIZE", 2)


async def test_finished_boards_are_bounded_while_every_waiting_one_is_kept(small_cache):
    render = GatedRender()
    pipeline = Images(render, workers=1)
    try:
        tasks = [asyncio.ensure_future(pipeline.png(row(sid, 1), STATE, {})) for sid in range(1, 6)]
        await waiting(tasks)
        assert sorted(pipeline._latest) == [1, 2, 3, 4, 5]  # more than the cache holds: all kept while waiting
        render.open()
        assert await asyncio.gather(*tasks) == [b"png"] * 5
    finally:
        pipeline.close(wait=True)
    assert list(pipeline._cache) == [4, 5]


async def test_the_alt_text_is_drawn_with_the_image_in_the_worker_and_kept_for_the_board(monkeypatch):
    """The alt text comes from the render worker with the image (no second hop through a thread), in the table's
    language, and a later ask for the same board's alt text is answered from it."""
    from bot.discord.images import board_alt
    from bot.i18n import speaking

    game = games.get("tatari")
    pending = game.pending(STATE)
    names = {"a": "アリス", "b": "Bob"}
    pipeline = Images(lambda state, shown: b"png", workers=1)
    try:
        with speaking("ja"):
            drawn = await pipeline.board(row(7, 2), STATE, names, first=True, pending=pending)
            expected = board_alt(STATE, names, True, pending)

            async def no_thread(*args, **kwargs):
                raise AssertionError("the alt text was computed again")

            monkeypatch.setattr(asyncio, "to_thread", no_thread)
            again = await pipeline.alt(row(7, 2), STATE, names, first=True, pending=pending)
    finally:
        pipeline.close(wait=True)
    assert drawn.png == b"png"
    assert drawn.alt == expected and again == expected
    assert drawn.alt.startswith("タタリ、") and "アリス" in drawn.alt


async def test_a_waiting_board_render_goes_before_a_waiting_lookup():
    """The pool's slots (one per worker) go to the boards waiting — a reply may wait for them — before any lookup
    (the whole board: "Full board", ``/board full:true``) that waits, whichever came first."""
    slots = images_mod.Slots(1)
    order: list[str] = []
    release = asyncio.Event()

    async def render(name: str, board: bool) -> None:
        async with slots.held(board=board):
            order.append(name)
            if name == "first":
                await release.wait()

    first = asyncio.create_task(render("first", True))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(render(n, b)) for n, b in (("lookup 1", False), ("board 1", True),
                                                             ("lookup 2", False), ("board 2", True))]
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["first"] and slots.waiting == 4
    release.set()
    await asyncio.gather(first, *waiting)
    assert order == ["first", "board 1", "board 2", "lookup 1", "lookup 2"]
    assert slots.waiting == 0


class CountedRender:
    """A render that counts its drawings (``calls``: the names it drew with) and fails while ``failing``."""

    def __init__(self) -> None:
        self.calls: list[dict[str, str]] = []
        self.failing = False

    def __call__(self, state, names) -> bytes:
        self.calls.append(names)
        if self.failing:
            raise RuntimeError("no image")
        return f"png {len(self.calls)}".encode()


async def test_a_whole_board_looked_up_again_is_drawn_once_per_version_language_and_names(caplog):
    """"Full board" and ``/board full:true``: the players of a table looking up the same board, one after the other
    or at once, get one drawing; a new version, another language or renamed seats draw anew; a drawing that failed
    is drawn again on the next look."""
    render = CountedRender()
    pipeline = Images(render, workers=1)
    names = {"a": "Ann", "b": "Bo"}
    try:
        at_once = await asyncio.gather(*(pipeline.full_png(row(1, 3), STATE, names) for _ in range(3)))
        again = await pipeline.full_png(row(1, 3), STATE, names)
        assert at_once == [b"png 1"] * 3 and again == b"png 1" and len(render.calls) == 1
        assert await pipeline.full_png(row(1, 4), STATE, names) == b"png 2"
        with speaking("ja"):
            assert await pipeline.full_png(row(1, 4), STATE, names) == b"png 3"
        assert await pipeline.full_png(row(1, 4), STATE, {**names, "b": "Bob"}) == b"png 4"
        assert render.calls[-1] == {"a": "Ann", "b": "Bob"}
        render.failing = True
        caplog.set_level(logging.ERROR)
        assert await pipeline.full_png(row(2, 1), STATE, names) is None
        render.failing = False
        assert await pipeline.full_png(row(2, 1), STATE, names) == b"png 6"
    finally:
        pipeline.close(wait=True)
    assert len(render.calls) == 6
    assert [r.message for r in caplog.records] == ["full render failed for session 2 (version 1)"]


async def test_a_whole_board_looked_up_is_the_board_image_where_the_decisions_view_is_the_whole_board():
    """Tatari's decision's view is the whole board (``renderers.shows_whole``): "Full board" on a drawn board, or on
    one being drawn ahead of its move, is that image, not a second drawing — unless the names or the language
    differ. Tsukimi's close-up is not the whole board: its whole board is drawn."""
    render = CountedRender()
    pipeline = Images(render, workers=1)
    names = {"a": "Ann", "b": "Bo"}
    try:
        board = await pipeline.png(row(1, 3), STATE, names)
        assert board == b"png 1"
        assert await pipeline.full_png(row(1, 3), STATE, names) == b"png 1" and len(render.calls) == 1

        async def names_later() -> dict[str, str]:
            await asyncio.sleep(0.01)
            return names

        pipeline.ahead(row(1, 4), STATE, names_later, pending=[])
        assert await pipeline.full_png(row(1, 4), STATE, names) == b"png 2" and len(render.calls) == 2
        with speaking("ja"):
            assert await pipeline.full_png(row(1, 4), STATE, names) == b"png 3"
        assert await pipeline.full_png(row(1, 4), STATE, {**names, "b": "Bob"}) == b"png 4"
        assert render.calls[-1] == {"a": "Ann", "b": "Bob"}

        tsukimi = games.get("tsukimi").setup(["a", "b"], None, 1)
        moon = row(2, 1).model_copy(update={"game_id": "tsukimi"})
        assert await pipeline.png(moon, tsukimi, names) == b"png 5"
        assert await pipeline.full_png(moon, tsukimi, names) == b"png 6"
    finally:
        pipeline.close(wait=True)
    assert len(render.calls) == 6


async def test_a_render_cancelled_while_it_waits_for_a_slot_leaves_the_slot_to_the_next():
    slots = images_mod.Slots(1)
    order: list[str] = []
    release = asyncio.Event()

    async def render(name: str) -> None:
        async with slots.held(board=True):
            order.append(name)
            if name == "first":
                await release.wait()

    first = asyncio.create_task(render("first"))
    await asyncio.sleep(0)
    gone, after = asyncio.create_task(render("gone")), asyncio.create_task(render("after"))
    await asyncio.sleep(0)
    gone.cancel()
    release.set()  # the slot is handed on in the same turn as the cancellation arrives
    await asyncio.gather(first, after, gone, return_exceptions=True)
    assert order == ["first", "after"] and gone.cancelled()

    async def again() -> None:
        async with slots.held(board=False):
            order.append("again")

    await asyncio.wait_for(again(), 1)  # the slot came back (a lost one would leave this waiting)
    assert order == ["first", "after", "again"] and slots.waiting == 0


def test_start_brings_up_every_render_worker_before_the_first_board():
    """:meth:`Images.start` (the bot's ``setup_hook``) starts one process per worker at once, each warming the
    renderers while the gateway connects, so the first boards after a restart do not wait for them; then the pool
    draws boards as ever and stops cleanly."""
    pipeline = Images(workers=2, processes=True)
    try:
        pipeline.start()
        processes = pipeline._pool._processes
        assert len(processes) == 2
        drawn = asyncio.run(pipeline.board(row(1, 1), STATE, {"a": "Ann", "b": "Bo"}))
        assert drawn.png is not None and drawn.png.startswith(b"\x89PNG") and drawn.alt
        assert len(processes) == 2  # the board went to a started worker: no third one
    finally:
        pipeline.close(wait=True)


async def test_each_worker_has_its_next_board_at_hand():
    """RENDERS_PER_WORKER renders per worker are handed to the pool at once (a worker that finishes one starts the
    next without waiting for the event loop); the rest wait in the slots, where a superseded one can be skipped."""
    render = GatedRender()
    pipeline = Images(render, workers=1)
    try:
        tasks = [asyncio.ensure_future(pipeline.png(row(sid, 1), STATE, {})) for sid in range(1, 5)]
        await waiting(tasks)
        assert images_mod.RENDERS_PER_WORKER == 2
        assert pipeline.slots.waiting == 2 and pipeline.slots._free == 0
        render.open()
        assert await asyncio.gather(*tasks) == [b"png"] * 4
    finally:
        pipeline.close(wait=True)
    assert pipeline.slots.waiting == 0 and pipeline.slots._free == 2


def held_renders(slots, *names: str):
    """Renders named ``names`` that hold a slot of ``slots`` until released: (the names running now, in the order
    they started; name -> the event that releases it; ``render(name, board)``, the coroutine of one)."""
    running: list[str] = []
    release = {name: asyncio.Event() for name in names}

    async def render(name: str, board: bool) -> None:
        async with slots.held(board=board):
            running.append(name)
            await release[name].wait()
            running.remove(name)

    return running, release, render


async def test_a_lookup_starts_only_on_an_idle_worker():
    """Four slots over two workers: while both workers have a board, a "Full board" lookup waits even though slots
    are free (in the pool it would queue ahead of the boards that come next); it starts once a worker is idle, and a
    board that comes meanwhile still goes first."""
    slots = images_mod.Slots(4, workers=2)
    running, release, render = held_renders(slots, "board 1", "board 2", "board 3", "lookup")

    boards = [asyncio.create_task(render(n, True)) for n in ("board 1", "board 2")]
    await asyncio.sleep(0)
    lookup = asyncio.create_task(render("lookup", False))
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["board 1", "board 2"] and slots.waiting == 1 and slots._free == 2
    boards.append(asyncio.create_task(render("board 3", True)))  # a board never waits behind the lookup
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["board 1", "board 2", "board 3"] and slots.waiting == 1
    for name in ("board 1", "board 2"):
        release[name].set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["board 3", "lookup"] and slots.waiting == 0
    release["board 3"].set()
    release["lookup"].set()
    await asyncio.gather(*boards, lookup)
    assert slots._free == 4 and slots._lookups == 0


async def test_lookups_never_hold_every_worker():
    """Two workers: two "Full board" lookups run one at a time, so a board that comes meanwhile starts at once in
    the other worker (a reply waiting for its image never waits behind lookups); one worker: a lookup may use it
    (a board waiting still goes first)."""
    slots = images_mod.Slots(2)
    running, release, render = held_renders(slots, "lookup 1", "lookup 2", "board")

    lookups = [asyncio.create_task(render(n, False)) for n in ("lookup 1", "lookup 2")]
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["lookup 1"] and slots.waiting == 1
    board = asyncio.create_task(render("board", True))
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["lookup 1", "board"]
    release["board"].set()
    await board
    assert running == ["lookup 1"] and slots.waiting == 1  # the freed worker stays a board's
    release["lookup 1"].set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == ["lookup 2"]
    release["lookup 2"].set()
    await asyncio.gather(*lookups)
    assert slots.waiting == 0 and slots._free == 2 and slots._lookups == 0

    alone = images_mod.Slots(1)
    async with alone.held(board=False):
        assert alone._free == 0
    assert alone._free == 1 and alone._lookups == 0


async def test_the_bot_starts_its_render_workers_as_it_sets_up(tmp_path):
    """``setup_hook`` (before the gateway connects) starts the render workers of a bot that draws in processes;
    a bot that draws in threads warms the renderers in a thread of its own instead, and starts nothing."""
    from harness import Harness

    started: list[Images] = []

    class Recorded(Images):
        def __init__(self, processes: bool) -> None:
            super().__init__(lambda state, shown: b"png", workers=1)
            self.processes = processes

        @property
        def in_processes(self) -> bool:
            return self.processes

        def start(self) -> None:
            started.append(self)

    for processes in (True, False):
        h = Harness(tmp_path / f"{processes}.sqlite3", images=lambda p=processes: Recorded(p))
        await h.open()
        try:
            h.bot.sync_commands = False
            await h.bot.setup_hook()
        finally:
            await h.close()
    assert [s.processes for s in started] == [True]


async def test_a_move_s_board_is_drawn_while_the_move_is_stored_and_only_once(tmp_path):
    """The bot hands each move's board to the render workers before the move's transaction starts
    (Ledger.before_commit -> Table.draw_ahead): while the store writes it, the drawing of its new version is under
    way; the board the move's answer shows is that drawing (one render a move, the answer with its image)."""
    import random

    from harness import Harness
    from test_discord_play import open_game, play_turn

    drawn: list[int] = []

    def render(state, names) -> bytes:
        drawn.append(1)
        return b"\x89PNG-board"

    async with Harness(tmp_path / "bot.sqlite3", render=render) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        store, real = h.bot.service.store, h.bot.service.store.commit_move
        seen: list[list[tuple]] = []

        async def commit_move(row, *args, **kwargs):
            seen.append([key[:2] for key in h.bot.images._ahead])
            return await real(row, *args, **kwargs)

        store.commit_move = commit_move
        sid = (await store.live_session(str(h.channel_id))).id
        for _ in range(3):
            version = (await store.live_session(str(h.channel_id))).version
            before = len(drawn)
            reply = await play_turn(h, {u.sid: u for u in (alice, bob)}, random.Random(version))
            await h.settle()
            assert seen[-1] == [(sid, version + 1)]  # its drawing started before the write
            assert len(drawn) - before == 1
            assert [name for name, _ in reply.message(public=True).files] == [f"board-{sid}-{version + 1}.png"]
