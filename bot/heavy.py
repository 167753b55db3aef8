"""Expensive drawing kept away from moves: replay animations and result, ``/stats`` and ``/leaderboard`` cards are
drawn in worker processes (never on the event loop, never in the bot's own threads), admitted under quotas, and
each finished game's replay is built once and kept on disk.

- :class:`Heavy` is what adapters call: :meth:`Heavy.admit` (quotas, raises :class:`Busy` with the line to show),
  :meth:`Heavy.card` and :meth:`Heavy.replay` (the work, in the pool);
- the pools (one for replays, one for cards, so a result card never waits behind replays): ``spawn`` worker
  processes at a lower priority (as the AI search pool of :func:`bot.ai_seats.search_pool`
  and the board render workers), :data:`WORKER_TASKS` jobs per worker before it is replaced (a worker's memory
  returns to the system), shut down after :data:`IDLE_S` without work (memory returns after a burst), replaced when
  a worker dies;
- :class:`ReplayCache`: the GIFs of finished games, one file each under ``IMAGES_DIR/replays``, least recently used
  removed beyond ``REPLAY_CACHE_MB``.

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
import multiprocessing
import os
import re
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from games.core import N, T, Text

from .i18n import language, say, table_lang
from .sessions import SessionError
from .store import MoveRow

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
"""Jobs a worker process runs before it is replaced by a fresh one (memory of the drawing libraries returns)."""
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
def _worker_start(nice: int, warm: bool) -> None:
    """Start of a worker: lower priority, the games imported and, for replays (``warm``), every board renderer
    warmed (the first replay not seconds late; cards need only the results renderer)."""
    try:
        os.nice(nice)
    except OSError:
        pass
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


def seat_name(seat) -> str:
    """:func:`bot.results.seat_name` (imported when used: the results module draws, workers import it lazily)."""
    from .results import seat_name as named

    return named(seat)


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


ALT_LIMIT = 1024
"""Discord's limit on an attachment ``description`` (alt text), characters."""


def _clip(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` within ``limit`` characters, cut at a word with "…" when longer."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _change(before: float | None, after: float | None) -> str:
    """A rating change in words: ``"rating 27.1, up 2.1"``, ``"rating 22.9, down 2.1"``; "" when unrated."""
    if before is None or after is None:
        return ""
    delta, rating, by = after - before, f"{after:.1f}", f"{abs(after - before):.1f}"
    if delta > 0.05:
        return T("rating {rating}, up {by}", rating=rating, by=by)
    if delta < -0.05:
        return T("rating {rating}, down {by}", rating=rating, by=by)
    return T("rating {rating}, unchanged", rating=rating)


def ranking_words(record, names: dict[str, str] | None = None) -> Text:
    """A recorded game's seats best first, in words: ``"1st alice (won), 4 Sen, rating 27.1, up 2.1; 2nd bob,
    …"``; ``names`` (player id -> display name) before the recorded names."""
    from . import results

    out = []
    for s in record.ranked:
        who = (names or {}).get(s.player_id) or seat_name(s)
        place = results.ordinal_text(s.rank) if s.rank else T("unranked")
        bits: list = [T("{place} {name} (won)", place=place, name=who) if s.won else
                      T("{place} {name}", place=place, name=who)]
        if s.score is not None:
            bits.append(results.score_text(record.game_id, s.score))
        if s.resigned:
            bits.append(T("resigned"))
        change = _change(s.mu_before, s.mu_after)
        if change:
            bits.append(change)
        out.append(Text.join(T(", "), bits))
    return Text.join(T("; "), out)


def card_alt(kind: str, *args, names: dict[str, str] | None = None, lang: str | None = None) -> str:
    """The alt text (≤ :data:`ALT_LIMIT` characters) of the card :func:`draw_card` draws from the same ``args``:
    ``"summary"`` (record, details): the game, its ranking with scores and rating changes, its numbers and how it
    ended; ``"stats"`` (stats, name): each game's record and the recent results; ``"leaderboard"`` (game id,
    standings): each place with rating, games and wins. Computed in the bot process (cheap text). ``lang``: the
    reader's language (None: the current table's, :func:`bot.i18n.say`)."""
    import games

    from . import results

    if kind == "summary":
        record, details = args[0], (args[1] if len(args) > 1 else "")
        title = results._title(record.game_id)

        def shown(text: str) -> str:
            return games.format_text(text, lambda p: (names or {}).get(p) or next(
                (seat_name(s) for s in record.seats if s.player_id == p), p))

        status = T("abandoned") if record.outcome == "abandoned" else T("game over")
        numbers = T("{moves}, {length}, {seats}, {rated}", moves=N("{n} move", "{n} moves", n=record.moves),
                    length=results.duration_text(record.ended_ms - record.started_ms),
                    seats=N("{n} seat", "{n} seats", n=len(record.seats)),
                    rated=T("rated") if record.rated else T("not rated"))
        reason, told = shown(say(record.reason, lang)).strip(), shown(say(details, lang)).strip()
        if reason:  # the game's account of its end often repeats the reason: said once
            told = told.replace(say(T("Game over: {reason}", reason=reason), lang), "").replace(reason, "")
        told = re.sub(r"\s*[|·]\s*", say(T("; "), lang), told).strip(" ;.。；")
        stop = say(T("."), lang)
        ending = ("" if stop == "。" else " ").join(t.rstrip(".。") + stop for t in (reason, told) if t)
        return _clip(say(T("Result card of {game}, {status}: {ranking}. {numbers}. {ending}", game=title,
                           status=status, ranking=ranking_words(record, names), numbers=numbers, ending=ending),
                         lang).strip())
    if kind == "stats":
        stats, label = args[0], (args[1] if len(args) > 1 else None)
        lines = say(results.stats_text(stats, label), lang).split("\n")
        return _clip(say(T("Stats card of {who}: {lines}.", who=label or stats.name,
                           lines=say(T(". "), lang).join(lines[1:])), lang))
    if kind == "leaderboard":
        game_id, standings = args[0], args[1]
        places = Text.join(T("; "), [T(
            "{place} {name}, rating {rating}, {games}, {wins}", place=results.ordinal_text(s.place),
            name=seat_name(s) + (" (AI)" if s.is_ai and not seat_name(s).startswith("AI") else ""),
            rating=results.rating_text(s.mu, s.sigma), games=N("{n} game", "{n} games", n=s.games),
            wins=N("{n} win", "{n} wins", n=s.wins)) for s in standings])
        return _clip(say(T("Leaderboard card of {game}, top {n} of this server, ordered by rating minus three times "
                           "its uncertainty: {places}.", game=results._title(game_id), n=len(standings),
                           places=places), lang))
    raise KeyError(kind)


def replay_alt(record, names: dict[str, str] | None = None, lang: str | None = None) -> str:
    """The alt text (≤ :data:`ALT_LIMIT` characters) of a game's replay animation: the game replayed (its boards
    from the deal to the end), its players and their ranking with rating changes."""
    from . import results

    title = results._title(record.game_id)
    players = ", ".join((names or {}).get(s.player_id) or seat_name(s) for s in record.seats)
    args = {"sid": str(record.session_id), "game": title, "moves": N("{n} move", "{n} moves", n=record.moves),
            "date": results.date_text(record.ended_ms), "players": players, "ranking": ranking_words(record, names)}
    if record.outcome == "abandoned":
        text = T("Animated replay of game #{sid}, {game}: its boards from the deal abandoned, {moves}, {date}. "
                 "Players: {players}. Ranking: {ranking}.", **args)
    else:
        text = T("Animated replay of game #{sid}, {game}: its boards from the deal to the end, {moves}, {date}. "
                 "Players: {players}. Ranking: {ranking}.", **args)
    return _clip(say(text, lang))


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
    """Replay GIFs on disk: ``<dir>/<key>.gif``, at most ``max_bytes`` in all (least recently used removed first).
    The index is read from the directory once (oldest first by modification time) and kept in memory; a hit touches
    the file, so the order survives a restart."""

    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.dir = Path(directory)
        self.max_bytes = max_bytes
        self._index: OrderedDict[str, int] | None = None
        self.total = 0

    def _load(self) -> OrderedDict[str, int]:
        if self._index is None:
            self.dir.mkdir(parents=True, exist_ok=True)
            found = []
            for p in self.dir.glob("*.gif"):
                try:
                    st = p.stat()
                except OSError:
                    continue
                found.append((st.st_mtime, p.stem, st.st_size))
            self._index = OrderedDict((key, size) for _, key, size in sorted(found))
            self.total = sum(self._index.values())
            self._evict()
        return self._index

    def path(self, key: str) -> Path:
        return self.dir / f"{key}.gif"

    def get(self, key: str) -> Path | None:
        """The file of ``key`` (marked most recently used), or None."""
        index = self._load()
        if key not in index:
            return None
        path = self.path(key)
        try:
            os.utime(path)
        except OSError:  # removed behind our back
            self.total -= index.pop(key)
            return None
        index.move_to_end(key)
        return path

    def put(self, key: str, size: int) -> None:
        """``key``'s file was written (``size`` bytes): index it and remove the least recently used beyond the cap
        (never the one just written)."""
        index = self._load()
        self.total += size - index.pop(key, 0)
        index[key] = size
        self._evict()

    def _evict(self) -> None:
        index = self._index or OrderedDict()
        while self.total > self.max_bytes and len(index) > 1:
            key, size = index.popitem(last=False)
            self.total -= size
            try:
                self.path(key).unlink()
            except OSError:
                pass

    def __len__(self) -> int:
        return len(self._load())


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
    def admit(self, member: int | str, server: int | str | None) -> Ticket:
        """Admit one request of ``member`` in ``server``, or raise :class:`Busy` naming the wait: the bot at
        :attr:`Quotas.queue`, the server or the member at its at-once limit (20 s), or their per-minute limit
        (the seconds until the oldest of the last minute's requests leaves it)."""
        q, now = self.quotas, self.clock()
        member, server = str(member), str(server) if server is not None else None
        if self.admitted >= q.queue:
            raise Busy(BUSY_S, T("many images are being drawn right now"))
        if server is not None and self._server_now.get(server, 0) >= q.server_at_once:
            raise Busy(BUSY_S, T("this server has {n} images being drawn", n=q.server_at_once))
        if self._member_now.get(member, 0) >= q.member_at_once:
            raise Busy(BUSY_S, T("your last image is still being drawn"))
        wait = self._members.wait_ms(member, now)
        if wait:
            raise Busy(math.ceil(wait / 1000), T("at most {n} images a minute per member", n=q.member_per_minute))
        wait = self._servers.wait_ms(server, now) if server is not None else 0
        if wait:
            raise Busy(math.ceil(wait / 1000), T("at most {n} images a minute per server", n=q.server_per_minute))
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

    def close(self) -> None:
        """Nothing of this bot is left drawing: the shared workers stop after their idle time (a given executor
        is left to its owner)."""


class Workers:
    """The drawing worker processes of this process, shared by every :class:`Heavy` (tests open many bots): started
    on demand, stopped :data:`IDLE_S` after the last job, replaced when one dies."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.running = 0
        self._idle: asyncio.TimerHandle | None = None

    async def run(self, workers: int, idle_s: float, kind: str, fn, *args):
        """``fn(*args)`` in a worker process (at most ``workers`` of them)."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_worker_start, initargs=(WORKER_NICE, kind == "replay"),
                                            max_tasks_per_child=WORKER_TASKS)
        pool = self.pool
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


WORKERS = {"replay": Workers(), "card": Workers()}
"""This process's drawing workers, in two lanes: replays (seconds each) never hold up the cards (a game's result
card waits for no one's replay)."""


__all__ = ["BUSY_S", "CARDS", "Busy", "Heavy", "Quotas", "ReplayCache", "Ticket", "WORKERS", "Workers", "draw_card", "draw_replay",
           "replay_key"]
