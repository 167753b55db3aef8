"""Expensive drawing kept away from moves: replay animations and result, ``/stats`` and ``/leaderboard`` cards are
drawn in worker processes (never on the event loop, never in the bot's own threads), admitted under quotas, and
each finished game's replay is built once and kept on disk.

- :class:`Heavy` is what adapters call: :meth:`Heavy.admit` (quotas, raises :class:`Busy` with the line to show),
  :meth:`Heavy.card` and :meth:`Heavy.replay` (the work, in the pool);
- the pools (one for replays, one for cards, so a result card never waits behind replays): worker processes of
  :func:`bot.workers.pool` at a lower priority (as the AI search and board render pools), :data:`WORKER_TASKS`
  jobs per worker before the pool is replaced (a worker's memory returns to the system), shut down after :data:`IDLE_S`
  without work (memory returns after a burst), replaced when a worker dies, stopped at once when the bot stops;
- :class:`ReplayCache`: the GIFs of finished games, one file each under ``IMAGES_DIR/replays``, least recently used
  removed beyond ``REPLAY_CACHE_MB`` for the folder as a whole; :func:`drop_replays` deletes a game's files (a
  forgotten member's games, pruned games).

Quotas (per bot process; one :class:`Heavy` per bot): a member has at most :data:`MEMBER_AT_ONCE` request drawing
and :data:`MEMBER_PER_MINUTE` per minute; a server :data:`SERVER_AT_ONCE` and :data:`SERVER_PER_MINUTE`; the whole
bot at most :data:`QUEUE` requests admitted (drawing or waiting for a worker). A replay already kept costs nothing
and needs no admission. Result cards (the bot's own, when a game ends) are never refused.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from pathlib import Path

from games.core import T

from .i18n import language, table_lang
from .sessions import SessionError
from .store import MoveRow
from .workers import Pool
from .workers import pool as pool_of

log = logging.getLogger(__name__)

MEMBER_AT_ONCE = 1
"""Requests of one member being drawn (or waiting for a worker) at the same time."""
MEMBER_PER_MINUTE = 4
"""Requests of one member admitted per 60 s."""
SERVER_AT_ONCE = 3
"""Requests of one server being drawn (or waiting) at the same time."""
SERVER_PER_MINUTE = 30
"""Requests of one server admitted per 60 s."""
QUEUE = 6
"""Requests admitted for the whole bot (drawing or waiting for a worker); beyond, "busy"."""
BUSY_S = 20
"""The wait a refusal names when the bot or a server is at its limit of requests at once, s."""
WINDOW_MS = 60_000
WORKER_TASKS = 25
"""Jobs per worker process before the lane's pool is replaced by a fresh one (memory of the drawing libraries
returns): after ``WORKER_TASKS x workers`` jobs the pool takes no new job, finishes its running ones and ends. Not
``max_tasks_per_child``: on Python 3.11 a worker retired so can leave queued jobs unrun for ever and hang the
interpreter's exit (CPython gh-115634, fixed in 3.13)."""
IDLE_S = 30.0
"""The workers stop after this many seconds without work (their memory returns); the next request starts one."""
WORKER_NICE = 10
"""Worker processes run at this lower priority: replies to moves come first on a busy machine."""
JOB_TIMEOUT_S = 120.0
"""A job not answered by then raises ``TimeoutError`` (workers that cannot start, a stuck drawing): the caller
answers without the image instead of waiting for ever."""
MAX_KEYS = 10_000
"""Members (and servers) whose recent requests are remembered at the most (oldest forgotten first)."""


class Busy(SessionError):
    """A request refused by a quota; ``str()`` is the ephemeral line ("Busy — try again in 20 s (…)."),
    ``wait_s`` the whole seconds named in it."""

    def __init__(self, wait_s: int, reason: str) -> None:
        self.wait_s = wait_s
        super().__init__(T("Busy — try again in {wait} s ({reason}).", wait=wait_s, reason=reason))


@dataclass(frozen=True)
class BusyWords:
    """What a quota refusal (:class:`Busy`) says is busy, per kind of work: ``queue`` the bot's queue full,
    ``server_now(n)`` / ``member_now`` the server's or the member's at-once limit, ``member_minute(n)`` /
    ``server_minute(n)`` the per-minute limits (``n`` the limit)."""

    queue: Callable[[], str]
    server_now: Callable[[int], str]
    member_now: Callable[[], str]
    member_minute: Callable[[int], str]
    server_minute: Callable[[int], str]


IMAGE_WORDS = BusyWords(
    queue=lambda: T("many images are being drawn right now"),
    server_now=lambda n: T("this server has {n} images being drawn", n=n),
    member_now=lambda: T("your last image is still being drawn"),
    member_minute=lambda n: T("at most {n} images a minute per member", n=n),
    server_minute=lambda n: T("at most {n} images a minute per server", n=n),
)
"""The quota words of drawings (replays, stats cards, full boards): :meth:`Heavy.admit`'s default."""
HINT_WORDS = BusyWords(
    queue=lambda: T("the AI is thinking for many players right now"),
    server_now=lambda n: T("the AI is thinking for {n} requests of this server", n=n),
    member_now=lambda: T("the AI is still thinking about your last request"),
    member_minute=lambda n: T("at most {n} hints or images a minute per member", n=n),
    server_minute=lambda n: T("at most {n} hints or images a minute per server", n=n),
)
"""The quota words of ``/hint`` (it searches under the same quotas as the drawings, so a minute's limit counts
both)."""


@dataclass(frozen=True)
class Quotas:
    """The limits of :class:`Heavy` (defaults: the module's constants)."""

    member_at_once: int = MEMBER_AT_ONCE
    member_per_minute: int = MEMBER_PER_MINUTE
    server_at_once: int = SERVER_AT_ONCE
    server_per_minute: int = SERVER_PER_MINUTE
    queue: int = QUEUE


class _Recent:
    """When each key's last requests were admitted (ms), the last ``limit`` per key, ``MAX_KEYS`` keys at most."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._times: OrderedDict[Hashable, deque[int]] = OrderedDict()

    def wait_ms(self, key: Hashable, now_ms: int) -> int:
        """How long ``key`` must wait before one more fits in the window (0: now)."""
        times = self._times.get(key)
        if times is None or len(times) < self.limit:
            return 0
        return max(0, times[0] + WINDOW_MS - now_ms)

    def add(self, key: Hashable, now_ms: int) -> None:
        times = self._times.setdefault(key, deque(maxlen=self.limit))
        times.append(now_ms)
        self._times.move_to_end(key)
        while len(self._times) > MAX_KEYS:
            self._times.popitem(last=False)

    def __len__(self) -> int:
        return len(self._times)


class Ticket:
    """An admitted request (see :meth:`Heavy.admit`): use it as a context manager around the work; leaving it frees
    the request's place in the at-once limits."""

    def __init__(self, heavy: Heavy, member: str | None, server: str | None) -> None:
        self.heavy, self.member, self.server = heavy, member, server
        self._held = True

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def release(self) -> None:
        if self._held:
            self._held = False
            self.heavy._release(self)


# -- work done in the worker processes -------------------------------------------------------------------------------
def _worker_start(warm: bool) -> None:
    """Start of a worker (after :func:`bot.workers.pool`'s own: SIGINT ignored, lower priority): the games imported
    and, for replays (``warm``), every board renderer warmed (the first replay not seconds late; cards need only the
    results renderer)."""
    import games
    import renderers

    games.all()
    if not warm:
        return
    try:
        renderers.warm()
    except Exception:  # a renderer that cannot warm still draws (slower) or fails per job, logged there
        logging.getLogger(__name__).exception("warming the renderers failed in a drawing worker")


CARDS = {"stats": "stats_card", "leaderboard": "leaderboard_card", "summary": "summary_card"}
"""Card kinds -> the :mod:`bot.results` function that draws them."""


def draw_card(kind: str, *args, lang: str | None = None) -> bytes:
    """PNG bytes of the card ``kind`` (:data:`CARDS`) drawn by :mod:`bot.results` (a leaderboard's first argument is
    the game's id) in ``lang`` (None: English). Runs in a worker process."""
    import games

    from . import results

    if kind == "leaderboard":
        args = (games.get(args[0]), *args[1:])
    return getattr(results, CARDS[kind])(*args, lang=lang)


def draw_card_in(lang: str, kind: str, *args) -> bytes:
    """:func:`draw_card` with its texts in ``lang`` (the table's or the reader's language, told by the bot process:
    a worker has no table of its own). Runs in a worker process."""
    from .i18n import speaking

    with speaking(lang):
        return draw_card(kind, *args)


def draw_replay(path: str, game_id: str, players: Sequence[str], options: dict, seed: int,
                moves: Sequence[MoveRow], names: dict[str, str] | None, lang: str = "en") -> int:
    """Write the replay GIF of a game (:func:`bot.results.replay_gif`, its boards' words in ``lang``) to ``path``
    (whole or not at all: written aside, then renamed); returns its size in bytes. Runs in a worker process."""
    import games

    from . import results

    data = results.replay_gif(games.get(game_id), players, options, seed, moves, names, lang=lang)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return len(data)


# -- the replay files -------------------------------------------------------------------------------------------------
class ReplayCache:
    """Replay GIFs on disk: ``<dir>/<key>.gif`` (``key`` from :func:`replay_key`: the session id first), at most
    ``max_bytes`` in the folder as a whole, least recently used (oldest modification time: a hit touches its file)
    removed first. The folder is the truth, not a per-process index: processes sharing it keep one bound between
    them, and a file another process removed is simply drawn again. The folder is listed when a replay is added
    (once per replay drawn, beside seconds of drawing)."""

    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.dir = Path(directory)
        self.max_bytes = max_bytes
        self.total = 0
        """Bytes in the folder after the last :meth:`put` (or ``len()``)."""

    def path(self, key: str) -> Path:
        return self.dir / f"{key}.gif"

    def get(self, key: str) -> Path | None:
        """The file of ``key`` (marked most recently used), or None."""
        path = self.path(key)
        try:
            os.utime(path)
        except OSError:  # never drawn, or removed (the bound, a forgotten member, another process)
            return None
        return path

    def put(self, key: str, size: int) -> None:
        """``key``'s file was written (``size`` bytes): remove the least recently used files of the folder beyond
        the bound (never the one just written)."""
        self._evict(keep=key)

    def _files(self) -> list[tuple[float, str, int]]:
        """(modification time, key, size) of every replay in the folder, oldest first."""
        found = []
        for p in self.dir.glob("*.gif"):
            try:
                st = p.stat()
            except OSError:  # removed meanwhile
                continue
            found.append((st.st_mtime, p.stem, st.st_size))
        return sorted(found)

    def _evict(self, keep: str | None = None) -> int:
        files = self._files()
        total = sum(size for _, _, size in files)
        left = len(files)
        for _, key, size in files:
            if total <= self.max_bytes:
                break
            if key == keep:
                continue
            try:
                self.path(key).unlink()
            except FileNotFoundError:  # another process removed it first
                pass
            total -= size
            left -= 1
        self.total = total
        return left

    def __len__(self) -> int:
        return self._evict()


def drop_replays(directory: Path, session_ids: Iterable[int]) -> int:
    """Delete every replay file of ``session_ids`` in ``directory`` (each language and set of names: keys begin
    with the session id, :func:`replay_key`), whichever process drew them; returns how many were deleted."""
    wanted = {str(int(sid)) for sid in session_ids}
    deleted = 0
    if not wanted:
        return 0
    for path in Path(directory).glob("*.gif"):
        if path.stem.split("-", 1)[0] in wanted:
            try:
                path.unlink()
                deleted += 1
            except FileNotFoundError:  # another process deleted it first
                pass
    return deleted


def replay_key(session_id: int, game_id: str, seed: int, players: Sequence[str], moves: int,
               names: dict[str, str] | None, lang: str = "en") -> str:
    """The cache key of a finished game's replay: its id and a digest of everything the animation shows (a
    database swapped under the same directory never serves another game's replay), its language among them
    (English keys are those kept before boards had a language)."""
    shown = [game_id, seed, list(players), moves, sorted((names or {}).items())]
    digest = hashlib.sha256(json.dumps(shown if lang == "en" else [*shown, lang]).encode()).hexdigest()[:16]
    return f"{session_id}-{digest}"


# -- the service -----------------------------------------------------------------------------------------------------
class Heavy:
    """Admission, the worker pool and the replay files (see the module docstring).

    ``clock()``: ms (the session service's clock, so tests drive the per-minute quotas); ``workers``: worker
    processes (``Settings.heavy_processes``); ``executor``: a given pool instead (tests; never closed here)."""

    def __init__(self, cache_dir: Path, cache_mb: float = 256, *, clock: Callable[[], int],
                 workers: int = 1, quotas: Quotas | None = None, executor: Executor | None = None,
                 idle_s: float = IDLE_S) -> None:
        self.clock = clock
        self.quotas = quotas or Quotas()
        self.cache = ReplayCache(cache_dir, int(cache_mb * 1_048_576))
        self.workers = max(1, workers)
        self.idle_s = idle_s
        self._given = executor
        self._members = _Recent(self.quotas.member_per_minute)
        self._servers = _Recent(self.quotas.server_per_minute)
        self._member_now: dict[str, int] = {}
        self._server_now: dict[str, int] = {}
        self.admitted = 0
        self.jobs: dict[str, int] = {}
        """Jobs sent to the pool, by kind ("replay", "stats", …): what tests count."""
        self._building: dict[str, asyncio.Future] = {}
        self._idle: asyncio.TimerHandle | None = None

    # -- admission ----------------------------------------------------------------------------------------------
    def admit(self, member: int | str, server: int | str | None, words: BusyWords = IMAGE_WORDS) -> Ticket:
        """Admit one request of ``member`` in ``server``, or raise :class:`Busy` naming the wait (in ``words``: a
        drawing's, or :data:`HINT_WORDS`): the bot at :attr:`Quotas.queue`, the server or the member at its
        at-once limit (20 s), or their per-minute limit (the seconds until the oldest of the last minute's
        requests leaves it)."""
        q, now = self.quotas, self.clock()
        member, server = str(member), str(server) if server is not None else None
        if self.admitted >= q.queue:
            raise Busy(BUSY_S, words.queue())
        if server is not None and self._server_now.get(server, 0) >= q.server_at_once:
            raise Busy(BUSY_S, words.server_now(q.server_at_once))
        if self._member_now.get(member, 0) >= q.member_at_once:
            raise Busy(BUSY_S, words.member_now())
        wait = self._members.wait_ms(member, now)
        if wait:
            raise Busy(math.ceil(wait / 1000), words.member_minute(q.member_per_minute))
        wait = self._servers.wait_ms(server, now) if server is not None else 0
        if wait:
            raise Busy(math.ceil(wait / 1000), words.server_minute(q.server_per_minute))
        self._members.add(member, now)
        self._member_now[member] = self._member_now.get(member, 0) + 1
        if server is not None:
            self._servers.add(server, now)
            self._server_now[server] = self._server_now.get(server, 0) + 1
        self.admitted += 1
        return Ticket(self, member, server)

    def _release(self, ticket: Ticket) -> None:
        self.admitted -= 1
        for counts, key in ((self._member_now, ticket.member), (self._server_now, ticket.server)):
            if key is not None:
                left = counts.get(key, 0) - 1
                if left > 0:
                    counts[key] = left
                else:
                    counts.pop(key, None)

    # -- the work -----------------------------------------------------------------------------------------------
    async def card(self, kind: str, *args, lang: str | None = None) -> bytes:
        """PNG bytes of the card ``kind`` (:data:`CARDS`: ``"stats"`` (stats, name), ``"leaderboard"`` (game id,
        standings), ``"summary"`` (record, details)), drawn in a worker, its texts in ``lang`` (None: the current
        table's). Errors of the drawing are raised."""
        return await self._run(kind, draw_card_in, language(lang) if lang is not None else table_lang(), kind, *args)

    def loaded(self) -> bool:
        """Whether every card worker is busy now (then optional work such as turning points is skipped)."""
        return WORKERS["card"].running >= self.workers and self._given is None

    async def turning_points(self, game_id: str, players: Sequence[str], options: dict, seed: int,
                             moves: Sequence[MoveRow]) -> list | None:
        """The turning points of a finished game (:func:`bot.service.hints.turning_job`), computed in a card
        worker within its CPU budget; None when that budget ran out. Errors of the computation are raised."""
        from .service.hints import turning_job

        return await self._run("turning", turning_job, game_id, list(players), options, seed, list(moves))

    def kept_replay(self, key: str) -> Path | None:
        """The replay file of ``key`` when it was built already (see :func:`replay_key`), else None."""
        return self.cache.get(key)

    async def replay(self, key: str, game_id: str, players: Sequence[str], options: dict, seed: int,
                     moves: Sequence[MoveRow], names: dict[str, str] | None, lang: str | None = None) -> Path:
        """The replay GIF file of a finished game (:func:`draw_replay`), its boards' words in ``lang`` (None: the
        current table's; ``key`` from :func:`replay_key` with the same language): the kept file when there is
        one, else built in a worker once (requests arriving meanwhile wait for the same build) and kept."""
        lang = language(lang) if lang is not None else table_lang()
        path = self.cache.get(key)
        if path is not None:
            return path
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(self._build(key, game_id, players, options, seed, moves, names, lang))
            self._building[key] = building
            building.add_done_callback(lambda _f: self._building.pop(key, None))
        return await asyncio.shield(building)

    async def _build(self, key: str, *args) -> Path:
        path = self.cache.path(key)
        self.cache.dir.mkdir(parents=True, exist_ok=True)
        size = await self._run("replay", draw_replay, str(path), *args)
        self.cache.put(key, size)
        return path

    async def _run(self, kind: str, fn, *args):
        self.jobs[kind] = self.jobs.get(kind, 0) + 1
        if self._given is not None:
            return await asyncio.get_running_loop().run_in_executor(self._given, fn, *args)
        lane = WORKERS["replay" if kind == "replay" else "card"]
        return await lane.run(self.workers, self.idle_s, kind, fn, *args)

    def warm_replays(self) -> None:
        """Start the replay workers in the background unless they run (a replay is likely soon: a game just ended
        with its Replay button), so that a first replay does not wait for a worker to start and warm the renderers;
        never waits. They stop after their idle time like any."""
        if self._given is None:
            WORKERS["replay"].warm(self.workers, self.idle_s)

    def close(self) -> None:
        """Nothing of this bot is left drawing: the shared workers stop after their idle time (a given executor
        is left to its owner)."""


class Workers:
    """The drawing worker processes of this process, shared by every :class:`Heavy` (tests open many bots): started
    on demand, stopped :data:`IDLE_S` after the last job, replaced when one dies."""

    def __init__(self) -> None:
        self.pool: Pool | None = None
        self.running = 0
        self.jobs = 0  # given to the current pool
        self._idle: asyncio.TimerHandle | None = None

    def _start(self, workers: int, kind: str) -> Pool:
        if self.pool is not None and self.jobs >= WORKER_TASKS * workers:  # retired: its running jobs finish
            retired, self.pool = self.pool, None
            retired.shutdown(wait=False)
        if self.pool is None:
            self.pool = pool_of(workers, nice=WORKER_NICE, start=_worker_start, args=(kind == "replay",))
            self.jobs = 0
        self.jobs += 1
        return self.pool

    def warm(self, workers: int, idle_s: float) -> None:
        """Start a worker now (with nothing to do), unless the pool runs; stopped after ``idle_s`` unless work
        comes."""
        if self.pool is not None:
            return
        self._start(workers, "replay").submit(os.getpid)
        if self.running == 0:
            self._idle = asyncio.get_running_loop().call_later(idle_s, self.stop_idle)

    async def run(self, workers: int, idle_s: float, kind: str, fn, *args):
        """``fn(*args)`` in a worker process (at most ``workers`` of them)."""
        pool = self._start(workers, kind)
        self.running += 1
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        try:
            return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(pool, fn, *args), JOB_TIMEOUT_S)
        except BrokenExecutor:
            if pool is self.pool:
                log.error("a drawing worker died (%s); starting new ones", kind)
                self.pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            self.running -= 1
            if self.running == 0 and self.pool is not None:
                self._idle = asyncio.get_running_loop().call_later(idle_s, self.stop_idle)

    def stop_idle(self) -> None:
        """Stop the workers when no job runs (their memory returns to the system)."""
        self._idle = None
        if self.running == 0 and self.pool is not None:
            pool, self.pool = self.pool, None
            pool.shutdown(wait=False)

    def stop(self) -> None:
        """Stop the workers now, whatever they draw (a bot that stops: :meth:`bot.workers.Pool.stop`); blocking.
        A job stopped so raises to its caller, whose image is then not posted."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.stop()


WORKERS = {"replay": Workers(), "card": Workers()}
"""This process's drawing workers, in two lanes: replays (seconds each) never hold up the cards (a game's result
card waits for no one's replay)."""


__all__ = ["BUSY_S", "CARDS", "Busy", "Heavy", "Quotas", "ReplayCache", "Ticket", "WORKERS", "Workers", "draw_card",
           "draw_replay", "drop_replays", "replay_key"]
