"""The bot's Prometheus metrics (prometheus-client), served at ``/metrics`` by :mod:`bot.health`.

Every metric object lives here; the call sites elsewhere are one line each:

- ``bot_moves_committed_total{game}`` — moves the session service committed (``bot.service.ledger.Ledger.commit``);
- ``bot_interaction_seconds{kind}`` — from an interaction's creation at Discord (its snowflake time) to the end of
  its handling (slash commands: ``app_command_completion`` and the tree's error handler);
- ``bot_render_seconds`` — one board image rendered in a worker (``Images._run``);
- ``bot_pool_queue{pool}`` — work waiting for a worker: ``render`` (boards queued for a render slot), ``ai`` (AI
  searches submitted and not yet running);
- ``bot_failed_posts_total`` — posts outside interactions that failed every try (``Delivery``);
- ``bot_rate_limit_waits_total`` — waits for Discord's rate limits: the 429s discord.py warns about and the waits it
  makes ahead of them when a bucket is empty (``bot_rate_limit_wait_seconds_total``: their length; both
  :func:`watch_rate_limits`);
- ``bot_errors_total{kind}`` — log records at ERROR or above, by exception type (``error`` without one;
  :func:`watch_errors`);
- ``bot_shards_connected`` / ``bot_shards`` — gateway shards connected / run by this process;
- ``bot_gateway_latency_seconds{shard}`` / ``bot_guilds{shard}`` — each shard's heartbeat latency and servers, at each
  scrape (:func:`watch_gateway`);
- ``bot_live_sessions{game}`` — live sessions (lobby or active) of this process's shards, per game, read from the
  store at each scrape (:func:`refresh`);
- ``process_*`` — the process's memory, CPU time, open files and start time (prometheus-client's
  ``ProcessCollector``), and ``bot_worker_resident_bytes``: the resident memory of its worker processes together.

This module imports neither discord nor the store: the session service may use it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections import Counter as Tally
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest

from . import memory

REGISTRY = CollectorRegistry()
"""The bot's own registry: its metrics and the process collector."""
ProcessCollector(registry=REGISTRY)

MOVES = Counter("bot_moves_committed", "Moves committed to the store", ["game"], registry=REGISTRY)
INTERACTION_SECONDS = Histogram(
    "bot_interaction_seconds", "From an interaction's creation at Discord to the end of its handling (s)", ["kind"],
    buckets=(0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 15), registry=REGISTRY)
RENDER_SECONDS = Histogram("bot_render_seconds", "Rendering one board image (s)",
                           buckets=(0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2), registry=REGISTRY)
POOL_QUEUE = Gauge("bot_pool_queue", "Work waiting for a worker of a pool", ["pool"], registry=REGISTRY)
FAILED_POSTS = Counter("bot_failed_posts", "Posts outside interactions that failed every try", registry=REGISTRY)
RATE_LIMIT_WAITS = Counter("bot_rate_limit_waits", "Waits for Discord's rate limits (429s and waits ahead of them)",
                           registry=REGISTRY)
RATE_LIMIT_WAIT_SECONDS = Counter("bot_rate_limit_wait_seconds", "Time requests waited for an empty rate-limit "
                                  "bucket before they were sent (s)", registry=REGISTRY)
ERRORS = Counter("bot_errors", "Log records at ERROR or above, by exception type", ["kind"], registry=REGISTRY)
GATEWAY_LATENCY = Gauge("bot_gateway_latency_seconds", "Heartbeat latency of each gateway shard (s)", ["shard"],
                        registry=REGISTRY)
GUILDS = Gauge("bot_guilds", "Servers of each gateway shard", ["shard"], registry=REGISTRY)
WORKER_MEMORY = Gauge("bot_worker_resident_bytes", "Resident memory of this process's worker processes together",
                      registry=REGISTRY)
SHARDS_CONNECTED = Gauge("bot_shards_connected", "Gateway shards of this process that are connected",
                         registry=REGISTRY)
SHARDS = Gauge("bot_shards", "Gateway shards this process runs", registry=REGISTRY)
LIVE_SESSIONS = Gauge("bot_live_sessions", "Live sessions (lobby or active) per game", ["game"], registry=REGISTRY)


def move_committed(game_id: str) -> None:
    """A move of ``game_id`` was committed."""
    MOVES.labels(game=game_id).inc()


def interaction_done(kind: str, seconds: float) -> None:
    """An interaction of ``kind`` (``command``, ``component``) was handled ``seconds`` after its creation."""
    INTERACTION_SECONDS.labels(kind=kind).observe(max(0.0, seconds))


class ErrorCounter(logging.Handler):
    """Counts log records at ERROR or above into :data:`ERRORS` by their exception's type (``error`` without one).
    A handler of the root logger (:func:`watch_errors`): it sees every logger's records, each once."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[0] if record.exc_info else None
        ERRORS.labels(kind=exc.__name__ if exc is not None else "error").inc()


def watch_errors() -> None:
    """Count the error log lines of every logger (once per process)."""
    root = logging.getLogger()
    if not any(isinstance(h, ErrorCounter) for h in root.handlers):
        root.addHandler(ErrorCounter())


class RateLimitCounter(logging.Filter):
    """Counts discord.py's rate-limit warnings (``discord.http``: "We are being rate limited", "Global rate limit
    has been hit") into :data:`RATE_LIMIT_WAITS`; lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and "rate limit" in str(record.msg).lower():
            RATE_LIMIT_WAITS.inc()
        return True


def watch_rate_limits() -> None:
    """Count discord.py's rate-limit waits (once per process): its 429 warnings, and its pre-emptive waits — a
    request that takes a bucket's last token makes discord.py sleep until the bucket resets
    (``discord.http.Ratelimit._refresh``) while later requests of the bucket queue behind it, without a log line at
    INFO or above."""
    http = logging.getLogger("discord.http")
    if not any(isinstance(f, RateLimitCounter) for f in http.filters):
        http.addFilter(RateLimitCounter())
    import discord.http

    limit = discord.http.Ratelimit
    if not getattr(limit._refresh, "counted", False):
        limit._refresh = _counted(limit._refresh)


def _counted(refresh):
    """``Ratelimit._refresh`` that counts its sleep until the bucket's reset in :data:`RATE_LIMIT_WAITS` and its
    length in :data:`RATE_LIMIT_WAIT_SECONDS`."""

    @functools.wraps(refresh)
    async def counted(self) -> None:
        if self.reset_after <= 0:  # a bucket whose limits are not known yet: no sleep
            return await refresh(self)
        RATE_LIMIT_WAITS.inc()
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            await refresh(self)
        finally:
            RATE_LIMIT_WAIT_SECONDS.inc(max(0.0, loop.time() - start))

    counted.counted = True
    return counted


def watch_gateway(bot: Any) -> None:
    """Read each shard's latency and server count of ``bot`` (a discord.py client) at each scrape."""
    GATEWAY_LATENCY.clear()
    GUILDS.clear()
    latencies = getattr(bot, "latencies", None) or [(getattr(bot, "shard_id", None) or 0, bot.latency)]
    servers = Tally(g.shard_id or 0 for g in bot.guilds)
    for shard, latency in latencies:
        if latency == latency and latency != float("inf"):  # not NaN / inf: a heartbeat was answered
            GATEWAY_LATENCY.labels(shard=str(shard)).set(latency)
        GUILDS.labels(shard=str(shard)).set(servers.get(shard, 0))


WORKER_MEMORY.set_function(lambda: float(memory.children_resident_bytes()))


def watch_pools(images: Any = None, ai: Any = None) -> None:
    """Read the queues of the render pool (``bot.discord.present.Images``: renders waiting for a slot) and of the
    AI search executor (``AiSettings.executor``: searches submitted, not yet running) at each scrape. Held weakly:
    a stopped bot's pools are freed (their semaphores released) whatever the metrics still read."""
    if images is not None:
        seen = weakref.ref(images)
        POOL_QUEUE.labels(pool="render").set_function(lambda: _waiting(getattr(seen(), "_slots", None)))
    executor = getattr(ai, "executor", None)
    if executor is not None:
        pool = weakref.ref(executor)
        POOL_QUEUE.labels(pool="ai").set_function(lambda: _pending(pool()))


def _waiting(slots: Any) -> float:
    return float(getattr(slots, "waiting", 0))


def _pending(executor: Any) -> float:
    items = getattr(executor, "_pending_work_items", None) or {}
    running = sum(1 for w in items.values() if getattr(w, "future", None) is not None and w.future.running())
    return float(max(0, len(items) - running))


async def refresh(store: Any) -> None:
    """Read what the store holds for the gauges (live sessions per game of this process's shards)."""
    counts: dict[str, int] = {}
    for row in await store.live_sessions():
        counts[row.game_id] = counts.get(row.game_id, 0) + 1
    LIVE_SESSIONS.clear()
    for game, n in counts.items():
        LIVE_SESSIONS.labels(game=game).set(n)


def exposition() -> bytes:
    """The metrics in Prometheus's text format."""
    return generate_latest(REGISTRY)
