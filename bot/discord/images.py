"""Board images: rendered off the event loop (worker processes at a lower priority, else threads), cached per
session version, and the ``discord.File`` a board message carries, with its alt text (:func:`board_alt`: what the
decision needs, in words — ARCHITECTURE.md "Text and languages")."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import os
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from typing import NamedTuple

import discord

import games
import renderers
import renderers.words
from bot import memory, metrics, workers
from bot.service.stand_in import stand_in_label, stand_ins
from bot.store import SessionRow
from games.core import BaseState, T
from renderers.common import translating

from ..i18n import say, speaking, table_lang, translator
from .present import display

log = logging.getLogger(__name__)

MAX_POOL_BREAKS = 3
"""After this many broken process pools, render in threads instead."""
RENDER_NICE = 10
"""Render worker processes run at this lower priority, so that replies (the event loop) come first on a busy
machine; images take what is left."""


def _render_worker() -> None:
    """Start of a render worker process (after :func:`bot.workers.pool`'s own: SIGINT ignored, lower priority):
    every renderer's palette built (the first board of each game is as fast as the rest, not seconds late)."""
    try:
        renderers.warm()
    except Exception:  # a renderer that cannot warm still renders (slower) or fails per board, logged there
        logging.getLogger(__name__).exception("warming the renderers failed in a render worker")


class Drawn(NamedTuple):
    """A board image and its alt text (:func:`board_alt`), drawn together in a render worker; both None when there
    is no image (no renderer, a render error, or a board nobody needs any more)."""

    png: bytes | None
    alt: str | None


NOT_DRAWN = Drawn(None, None)


def draw(render: Callable[[BaseState, dict[str, str]], bytes], state: BaseState, names: dict[str, str], lang: str,
         first: bool, pending: list | None, drawn: dict[str, str] | None = None) -> Drawn:
    """Run in a render worker: the board image of ``state`` (``render(state, display names)``, the names of
    ``drawn`` when given, else of ``names``) and its alt text (:func:`board_alt` with ``names``, in ``lang``: the
    worker has no table of its own) — the words are pure Python, kept off the event loop's process with the
    drawing. Raises what ``render`` raises."""
    with speaking(lang):
        png = render(state, {p: display(drawn or names, p) for p in state.players})
        return Drawn(png, board_alt(state, names, first, pending))


STAND_IN_MARK = "🤖 "
"""Drawn before the name of a seat the AI stand-in plays on a board image: a name cut to its room (``…``) keeps it."""


def seat_names(row: SessionRow, names: dict[str, str], lang: str | None = None, drawn: bool = False) -> dict[str, str]:
    """``names`` (player id -> display name) as the alt text (``drawn``: the board image) names the seats: a seat
    the AI stand-in plays as "X · AI stand-in" (:func:`bot.service.stand_in.stand_in_label`, in ``lang``; None:
    the table's), on the image after :data:`STAND_IN_MARK`; only while the game runs."""
    standing = stand_ins(row) if row.status == "active" else []
    if not standing:
        return names
    mark = STAND_IN_MARK if drawn else ""
    return {**names, **{p: mark + say(stand_in_label(p), lang, lambda q: display(names, q)) for p in standing}}


def drawn_names(row: SessionRow, state: BaseState, names: dict[str, str], lang: str | None = None) -> dict[str, str]:
    """Player id -> the name a board image of ``state`` shows (:func:`seat_names` with ``drawn``, each
    :func:`display`-ed), in ``state``'s seat order, in ``lang`` (None: the table's)."""
    drawn = seat_names(row, names, lang, drawn=True)
    return {p: display(drawn, p) for p in state.players}


class Slots:
    """At most ``n`` renders handed to ``workers`` workers at once (default: ``n``; :data:`RENDERS_PER_WORKER` each
    for :class:`Images`), the others waiting here in order: a board's render (a reply may be waiting for it) before
    any lookup's (the whole board: "Full board", ``/board full:true``; answered within their own budget), so a lookup
    never delays a reply's image — neither waiting (boards go first) nor running: a lookup is handed over only while
    a worker is idle and lookups hold fewer than ``workers - 1`` slots (with ``workers`` > 1), so it never queues in
    the pool ahead of a board and one worker is always a board's."""

    def __init__(self, n: int, workers: int | None = None) -> None:
        self._n = self._free = n
        self._workers = n if workers is None else workers
        self._lookup_cap = max(1, self._workers - 1)
        self._lookups = 0  # slots held by (or handed to) lookups
        self._waiting: tuple[deque[asyncio.Future], deque[asyncio.Future]] = (deque(), deque())  # boards, lookups

    @property
    def waiting(self) -> int:
        """Renders waiting for a slot."""
        return sum(1 for queue in self._waiting for f in queue if not f.done())

    def _lookup_may_start(self) -> bool:
        return self._lookups < self._lookup_cap and self._n - self._free < self._workers

    @contextlib.asynccontextmanager
    async def held(self, board: bool) -> AsyncIterator[None]:
        """Hold a slot while the body runs (``board``: a board's render, else a lookup's)."""
        queue = self._waiting[0 if board else 1]
        if self._free and not any(self._waiting[: 1 if board else 2]) and (board or self._lookup_may_start()):
            self._free -= 1
            self._lookups += not board
        else:
            turn = asyncio.get_running_loop().create_future()
            queue.append(turn)
            try:
                await turn  # the slot is counted as this render's when it is handed over (:meth:`_release`)
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # the slot was handed over just now: pass it on
                    self._release(board)
                elif turn in queue:  # (a release may have dropped it already)
                    queue.remove(turn)
                raise
        try:
            yield
        finally:
            self._release(board)

    def _release(self, board: bool) -> None:
        """A slot held by a board's render (``board``) or a lookup's is let go: handed to the first board waiting,
        else to the first lookup waiting when a lookup may start now, else freed."""
        self._lookups -= not board
        self._free += 1
        for queue, lookup in zip(self._waiting, (False, True), strict=True):
            if lookup and not self._lookup_may_start():
                break
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    self._free -= 1
                    self._lookups += lookup
                    return
        # (lookups waiting while no worker is idle, or at their cap, wait on: the slot is kept for a board)


RENDERS_PER_WORKER = 2
"""Renders handed to the pool at once per worker (:class:`Slots`): a worker that finishes one finds the next at hand
instead of idling until the event loop hands it over. At 200-250 moves/s the event loop answers late: with one each,
the two render workers used 0.7 of the two cores while 0.4 stood idle and boards waited about a second for a worker;
with two each (``bench/bench_discord.py`` at a mean wait of 0.3 s, runs side by side) 303 -> 335 and 263 -> 277
moves/s, 1320 -> 1758 and 1180 -> 1302 boards with their image."""


class Images:
    """Board images: ``renderers.render`` in a worker thread (a pool of one thread per core), cached per ``(session id, version)`` (the last one
    of each session). A game without a renderer (or a renderer that fails) gives None: the board goes out as text."""

    def __init__(self, render: Callable[[BaseState, dict[str, str] | None], bytes] | None = None,
                 workers: int | None = None, processes: bool = False) -> None:
        """``render(state, names)`` defaults to ``renderers.render``. ``workers``: pool size (default: one per core —
        more would only fight over the cores). ``processes``: render in worker processes, so that drawing never
        holds the event loop's GIL (``render`` must then be picklable: a module-level function)."""
        self._render = render or renderers.render
        self._workers = workers or os.cpu_count() or 2
        self._processes = processes
        memory.limit_arenas()  # before the render threads start: they share malloc's arenas (bot.memory)
        self._pool = self._new_pool()
        # session id -> ((version, language), PNG, the names drawn: player id -> name) of its newest board,
        # least recently used first, at most IMAGE_CACHE_SIZE
        self._cache: OrderedDict[int, tuple[tuple[int, str], bytes | None, dict[str, str]]] = OrderedDict()
        self._missing: set[str] = set()
        # session id -> the newest version asked for, while a render of the session waits or runs (so never more
        # entries than renders in hand: the cache's bound applies to finished work only)
        self._latest: dict[int, int] = {}
        self._waiting: dict[int, int] = {}  # session id -> its renders waiting or running
        self._breaks = 0
        self._slots: Slots | None = None
        # session id -> ((version, first), alt text) of its newest board, least recently used first
        self._alts: OrderedDict[int, tuple[tuple[int, bool], str | None]] = OrderedDict()
        # (session id, version, language) -> the drawing of a board started before its move was stored (:meth:`ahead`)
        self._ahead: dict[tuple[int, int, str], asyncio.Future] = {}
        # session id -> ((version, language, names drawn), its whole board: PNG or None) of its newest whole board
        # looked up (:meth:`full_png`), least recently used first, at most IMAGE_CACHE_SIZE
        self._full: OrderedDict[int, tuple[tuple[int, str, dict[str, str]], asyncio.Future]] = OrderedDict()

    def _new_pool(self) -> Executor:
        if self._processes:
            return workers.pool(self._workers, nice=RENDER_NICE, start=_render_worker)
        return ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="render")

    @property
    def slots(self) -> Slots:
        """The pool's slots: :data:`RENDERS_PER_WORKER` per worker (made on first use, in the event loop)."""
        if self._slots is None:
            self._slots = Slots(RENDERS_PER_WORKER * self._workers, workers=self._workers)
        return self._slots

    @property
    def in_processes(self) -> bool:
        """Whether boards are drawn in worker processes (each warms the renderers itself: this process need not)."""
        return self._processes

    def start(self) -> None:
        """Start every render worker now (each warms the renderers as it starts, :func:`_render_worker`: a few
        seconds of CPU), so that they are ready by the first move instead of starting with it; returns at once. Threads need
        no start."""
        if self._processes:
            for _ in range(self._workers):  # a job each: the pool starts a worker per job it cannot hand to one
                self._pool.submit(int)

    def close(self, wait: bool = False) -> None:
        """Stop the workers (queued renders dropped); ``wait``: until they have exited (a clean stop: a render
        still running after :data:`bot.workers.STOP_GRACE_S` is ended, its board goes out as text)."""
        if wait and isinstance(self._pool, workers.Pool):
            self._pool.stop()
        else:
            self._pool.shutdown(wait=wait, cancel_futures=True)

    def _renderer(self, lang: str | None, full: bool = False) -> Callable[..., bytes]:
        """What draws a board in a worker: ``renderers.render`` drawing its texts in ``lang`` (None: the table's)
        and, with ``full``, the whole board; a custom ``render`` as it is."""
        if self._render is not renderers.render:
            return self._render
        return functools.partial(renderers.render, full=full, translate=translator(lang))

    def has_renderer(self, game_id: str) -> bool:
        if game_id in self._missing:
            return False
        try:
            renderers.get(game_id)
        except KeyError:
            self._missing.add(game_id)
            return False
        return True

    async def png(self, row: SessionRow, state: BaseState | None, names: dict[str, str]) -> bytes | None:
        """PNG bytes of ``state`` for session ``row`` (:meth:`board`'s image)."""
        return (await self.board(row, state, names)).png

    async def board(self, row: SessionRow, state: BaseState | None, names: dict[str, str], first: bool = False,
                    pending: list | None = None) -> Drawn:
        """The image of ``state`` for session ``row`` and its alt text (:func:`board_alt` with ``first`` and
        ``pending``), drawn together in a worker; :data:`NOT_DRAWN` without a renderer, on a render error, or when a
        newer board of the session was asked for or drawn meanwhile: nobody needs it any more — skipped, not drawn.

        At most :data:`RENDERS_PER_WORKER` renders per worker are in flight; the others wait here in order (so a
        backlog can skip the boards it no longer needs instead of rendering them). Any number of sessions may wait:
        what a waiting render needs is kept until it is done, whatever :data:`IMAGE_CACHE_SIZE` says. A board whose
        drawing :meth:`ahead` started (while its move was stored) is that drawing, not a second one."""
        if state is None or not self.has_renderer(row.game_id):
            return NOT_DRAWN
        ahead = self._ahead.get((row.id, row.version, table_lang())) if not first else None
        if ahead is not None and not ahead.cancelled():
            return await asyncio.shield(ahead)  # the same board, drawn since before its move was stored
        return await self._board(row, state, names, first, pending)

    def ahead(self, row: SessionRow, state: BaseState, names: Callable[[], Awaitable[dict[str, str]]],
              pending: list) -> None:
        """Start drawing the board of ``row`` (a move's new version, ``state`` and ``pending``; the players'
        display names from ``names()``) before the move is stored: the image and the store's write overlap. The
        :meth:`board` of the same board (not a game's first) then waits for this drawing instead of starting its
        own; :meth:`withdraw` drops it when the move was not stored after all. Returns at once."""
        if not self.has_renderer(row.game_id):
            return
        key = (row.id, row.version, table_lang())
        if key in self._ahead:
            return

        async def draw() -> Drawn:
            try:
                return await self._board(row, state, await names(), False, pending)
            except Exception:
                log.exception("board v%s of session %s could not be drawn ahead", row.version, row.id)
                return NOT_DRAWN

        drawing = asyncio.ensure_future(draw())
        self._ahead[key] = drawing

        def done(_: asyncio.Future) -> None:
            if self._ahead.get(key) is drawing:
                del self._ahead[key]

        drawing.add_done_callback(done)

    def forget(self, session_id: int) -> None:
        """Session ``session_id`` ended: its board image, alt text and whole board looked up are dropped (a render of
        it still running keeps what it needs)."""
        for cache in (self._cache, self._alts, self._full):
            cache.pop(session_id, None)

    def withdraw(self, row: SessionRow) -> None:
        """The move that made version ``row.version`` of session ``row.id`` was not stored: its drawing started
        by :meth:`ahead` is stopped, and its image and alt text, if drawn already, forgotten (another move may
        make that version yet)."""
        for key in [k for k in self._ahead if k[:2] == (row.id, row.version)]:
            self._ahead.pop(key).cancel()
        for cache in (self._cache, self._alts):
            cached = cache.get(row.id)
            if cached is not None and cached[0][0] == row.version:
                del cache[row.id]

    async def _board(self, row: SessionRow, state: BaseState, names: dict[str, str], first: bool,
                     pending: list | None) -> Drawn:
        lang = table_lang()
        cached = self._cache.get(row.id)
        if cached is not None:
            if cached[0] == (row.version, lang):
                png = cached[1]
                return Drawn(png, await self.alt(row, state, names, first, pending) if png is not None else None)
            if cached[0][0] > row.version:
                return NOT_DRAWN  # a newer board of the session is drawn already
        sid = row.id
        self._latest[sid] = max(self._latest.get(sid, row.version), row.version)
        self._waiting[sid] = self._waiting.get(sid, 0) + 1
        try:
            async with self.slots.held(board=True):
                if self._latest[sid] > row.version:
                    return NOT_DRAWN
                return await self._run(row, state, names, lang, first, pending)
        finally:
            left = self._waiting.pop(sid) - 1
            if left:
                self._waiting[sid] = left
            else:
                del self._latest[sid]

    async def drawing(self, state: BaseState, names: dict[str, str], lang: str, pending: list | None = None) -> Drawn:
        """The image of a ``state`` that is no session's (a lesson's step, :mod:`bot.discord.lessons`) and its alt
        text (:func:`board_alt` with ``pending``), in ``lang``, drawn in a worker as a board is; not cached.
        :data:`NOT_DRAWN` without a renderer or on a render error (logged): the step goes out as text."""
        if not self.has_renderer(state.game):
            return NOT_DRAWN
        render = self._renderer(lang)
        try:
            with metrics.RENDER_SECONDS.time():
                return await asyncio.get_running_loop().run_in_executor(self._pool, draw, render, state, names, lang,
                                                                        False, pending)
        except Exception:
            log.exception("render of a %s lesson board failed", state.game)
            return NOT_DRAWN

    async def alt(self, row: SessionRow, state: BaseState | None, names: dict[str, str],
                  first: bool = False, pending: list | None = None) -> str | None:
        """The alt text of ``state``'s board image (:func:`board_alt`, the seats named as :func:`seat_names` does),
        cached per ``(session id, version, first)``: the one drawn with the image (:meth:`board`), else computed in
        a thread (a few ms of pure Python: the event loop serves other tables meanwhile)."""
        key = (row.version, first, table_lang())
        cached = self._alts.get(row.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = await asyncio.to_thread(board_alt, state, seat_names(row, names), first, pending)
        self._alts[row.id] = (key, text)
        _bound(self._alts, row.id)
        return text

    async def full_png(self, row: SessionRow, state: BaseState | None, names: dict[str, str]) -> bytes | None:
        """PNG bytes of the whole board of ``state`` (``renderers.render(full=True)``; a custom ``render`` is called
        as it is), in the table's language (a private board: the reader's); None without a renderer or on a render
        error. Where the decision's view is the whole board (:func:`renderers.shows_whole`: Tatari, Tatamokatsu, a
        game over), it is the board image of the same version, language and names when that is drawn (or being
        drawn ahead of its move, :meth:`ahead`): nothing is drawn twice. Else drawn once per ``(session, version,
        language, names)``: the players of a table looking up the same board (one after the other, or at once) get
        the same drawing; the newest of each session is kept (at most :data:`IMAGE_CACHE_SIZE` sessions), a failed
        one is drawn again on the next look."""
        if state is None or not self.has_renderer(row.game_id):
            return None
        shown = drawn_names(row, state, names)
        if renderers.shows_whole(state):
            png = await self._board_drawn(row, shown)
            if png is not None:
                return png
        key = (row.version, table_lang(), shown)
        held = self._full.get(row.id)
        if held is not None and held[0] == key:
            self._full.move_to_end(row.id)
            drawing = held[1]
        else:
            drawing = asyncio.ensure_future(self._full_png(row, state, shown))
            self._full[row.id] = (key, drawing)
            _bound(self._full, row.id)
        png = await asyncio.shield(drawing)  # a look given up (its interaction timed out) leaves it to the others
        if png is None and self._full.get(row.id, (None, None))[1] is drawing:
            del self._full[row.id]
        return png

    async def _board_drawn(self, row: SessionRow, shown: dict[str, str]) -> bytes | None:
        """The board image of ``row``'s version in the table's language with the names ``shown``
        (:func:`drawn_names`) when it is drawn (waiting for its drawing started by :meth:`ahead`); else None."""
        lang = table_lang()
        ahead = self._ahead.get((row.id, row.version, lang))
        if ahead is not None:
            await asyncio.wait([ahead])  # (withdrawn meanwhile: nothing drawn; a look given up leaves it running)
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == (row.version, lang) and cached[2] == shown:
            return cached[1]
        return None

    async def _full_png(self, row: SessionRow, state: BaseState, shown: dict[str, str]) -> bytes | None:
        render = self._renderer(None, full=True)
        try:
            async with self.slots.held(board=False):  # after the boards waiting for a slot
                return await asyncio.get_running_loop().run_in_executor(self._pool, render, state, shown)
        except Exception:
            log.exception("full render failed for session %s (version %s)", row.id, row.version)
            return None

    async def _run(self, row: SessionRow, state: BaseState, names: dict[str, str], lang: str, first: bool,
                   pending: list | None) -> Drawn:
        pool = self._pool
        # the image speaks the table's language (a private copy: the reader's)
        render = self._renderer(lang)
        shown = drawn_names(row, state, names, lang)
        try:
            loop = asyncio.get_running_loop()
            with metrics.RENDER_SECONDS.time():
                drawn = await loop.run_in_executor(pool, draw, render, state, seat_names(row, names, lang), lang, first,
                                                   pending, shown)
        except BrokenExecutor:
            if pool is self._pool:  # a worker died: replace the pool; this board goes out as text
                self._breaks += 1
                if self._processes and self._breaks >= MAX_POOL_BREAKS:
                    self._processes = False  # workers keep dying (e.g. cannot import): render in threads
                    log.error("the render processes broke %d times; rendering in threads from now on", self._breaks)
                else:
                    log.error("the render pool broke (session %s); starting a new one", row.id)
                self._pool = self._new_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            drawn = NOT_DRAWN
        except Exception:
            log.exception("render failed for session %s (version %s)", row.id, row.version)
            drawn = NOT_DRAWN
        cached = self._cache.get(row.id)
        if cached is None or cached[0][0] <= row.version:  # a newer board drawn meanwhile stays
            self._cache[row.id] = ((row.version, lang), drawn.png, shown)
            _bound(self._cache, row.id)
            if drawn.png is not None:
                self._alts[row.id] = ((row.version, first, lang), drawn.alt)
                _bound(self._alts, row.id)
        return drawn


IMAGE_CACHE_SIZE = 256
"""Sessions whose newest board image (with its alt text, and its whole board looked up) one process keeps, least
recently used dropped: boards of 17-61 KB (Tatari's 28 KB), so at most ~16 MB. A board is looked up ("Full board",
``/board``) within seconds of its move: with 200 tables moving every 5 s, 64 kept the board of a third of the lookups
only. A session's are dropped when it ends (:meth:`Images.forget`): a finished board is drawn again on the rare
``/board`` after the end."""


def _bound(cache: OrderedDict, key) -> None:
    cache.move_to_end(key)
    while len(cache) > IMAGE_CACHE_SIZE:
        cache.popitem(last=False)


WORDS_HINT = T("The whole board in words: /board words:true.")
"""Ends the alt text of a game's first board: where a screen-reader user finds the whole board."""


def board_alt(state: BaseState | None, names: dict[str, str], first: bool = False,
              pending: list | None = None) -> str | None:
    """The alt text of ``state``'s board image (:func:`renderers.words.alt_text`, players by their display names):
    at most :data:`renderers.words.ALT_LIMIT` (1,024) characters; ``first`` (the game's first board): followed by
    :data:`WORDS_HINT` (the words fitted in the room left). A game without words, or words that fail (logged), get "<game title>
    board."; None without a state."""
    if state is None:
        return None
    try:
        shown = {p: display(names, p) for p in state.players}
        known = renderers.words.knowing(state, pending) if pending is not None else contextlib.nullcontext()
        with translating(translator()), known:  # in the table's language (the context is the caller's)
            if first:
                hint = say(WORDS_HINT)
                limit = renderers.words.ALT_LIMIT - 1 - len(hint)
                text = renderers.words.alt_text(state, shown, limit)
                return text + ("" if text.endswith(("。", "！", "？")) else " ") + hint  # no space after 。
            return renderers.words.alt_text(state, shown)
    except Exception:
        log.exception("alt text of a %s board failed", state.game)
        try:
            return say(T("{game} board.", game=games.get(state.game).title))
        except KeyError:
            return say(T("The board."))


def board_words(state: BaseState, names: dict[str, str]) -> list[str]:
    """The whole board of ``state`` in words (:func:`renderers.words.board_words`, players by their display names):
    messages of at most :data:`renderers.words.CHUNK_LIMIT` (1,900) characters each. A game without words gets
    one line saying so."""
    try:
        with translating(translator()):  # in the language of the context (the reader's, for a private board)
            return renderers.words.board_words(state, {p: display(names, p) for p in state.players})
    except KeyError:
        return [say(T("{game} has no board in words yet; the board image's text says the decision.",
                      game=games.get(state.game).title))]


def png_file(data: bytes | None, session_id: int, version: int, alt: str | None = None) -> discord.File | None:
    """The board image as an attachment ``board-<session>-<version>.png`` whose ``description`` (alt text) is
    ``alt`` (:func:`board_alt`; cut to 1,024 characters); None without ``data``."""
    return image_file(data, f"board-{session_id}-{version}.png", alt)


def image_file(data: bytes | None, filename: str, alt: str | None = None) -> discord.File | None:
    """``data`` (PNG) as an attachment named ``filename`` whose ``description`` is ``alt`` (cut to 1,024
    characters); None without ``data``."""
    if data is None:
        return None
    return discord.File(io.BytesIO(data), filename=filename,
                        description=alt[:renderers.words.ALT_LIMIT] if alt else None)
