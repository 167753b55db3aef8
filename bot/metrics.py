"""The bot's Prometheus metrics (prometheus-client), served at ``/metrics`` by :mod:`bot.health`.

Every metric object lives here; the call sites elsewhere are one line each:

- ``bot_moves_committed_total{game}`` — moves the session service committed (``bot.service.ledger.Ledger.commit``);
- ``bot_interaction_seconds{kind}`` — from an interaction's creation at Discord (its snowflake time) to the end of
  its handling (slash commands: ``app_command_completion`` and the tree's error handler);
- ``bot_render_seconds`` — one board image rendered in a worker (``Images._run``);
- ``bot_pool_queue{pool}`` — work waiting for a worker: ``render`` (boards queued for a render slot), ``ai`` (AI
  searches submitted and not yet running);
- ``bot_failed_posts_total`` — posts outside interactions that failed every try (``Delivery``);
- ``bot_rate_limit_waits_total`` — waits for Discord's rate limits (discord.py's warnings, :func:`watch_rate_limits`);
- ``bot_shards_connected`` / ``bot_shards`` — gateway shards connected / run by this process;
- ``bot_live_sessions{game}`` — live sessions (lobby or active) of this process's shards, per game, read from the
  store at each scrape (:func:`refresh`).

This module imports neither discord nor the store: the session service may use it.
"""

from __future__ import annotations

import logging
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry()
"""The bot's own registry (nothing of the process's default collectors)."""

MOVES = Counter("bot_moves_committed", "Moves committed to the store", ["game"], registry=REGISTRY)
INTERACTION_SECONDS = Histogram(
    "bot_interaction_seconds", "From an interaction's creation at Discord to the end of its handling (s)", ["kind"],
    buckets=(0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 15), registry=REGISTRY)
RENDER_SECONDS = Histogram("bot_render_seconds", "Rendering one board image (s)",
                           buckets=(0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2), registry=REGISTRY)
POOL_QUEUE = Gauge("bot_pool_queue", "Work waiting for a worker of a pool", ["pool"], registry=REGISTRY)
FAILED_POSTS = Counter("bot_failed_posts", "Posts outside interactions that failed every try", registry=REGISTRY)
RATE_LIMIT_WAITS = Counter("bot_rate_limit_waits", "Waits for Discord's rate limits", registry=REGISTRY)
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


class RateLimitCounter(logging.Filter):
    """Counts discord.py's rate-limit warnings (``discord.http``: "We are being rate limited", "Global rate limit
    has been hit") into :data:`RATE_LIMIT_WAITS`; lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and "rate limit" in str(record.msg).lower():
            RATE_LIMIT_WAITS.inc()
        return True


def watch_rate_limits() -> None:
    """Count discord.py's rate-limit waits (once per process)."""
    http = logging.getLogger("discord.http")
    if not any(isinstance(f, RateLimitCounter) for f in http.filters):
        http.addFilter(RateLimitCounter())


def watch_pools(images: Any = None, ai: Any = None) -> None:
    """Read the queues of the render pool (``bot.discord.present.Images``: renders waiting for a slot) and of the
    AI search executor (``AiSettings.executor``: searches submitted, not yet running) at each scrape."""
    if images is not None:
        POOL_QUEUE.labels(pool="render").set_function(lambda: _waiting(getattr(images, "_slots", None)))
    executor = getattr(ai, "executor", None)
    if executor is not None:
        POOL_QUEUE.labels(pool="ai").set_function(lambda: _pending(executor))


def _waiting(semaphore: Any) -> float:
    waiters = getattr(semaphore, "_waiters", None) or ()
    return float(len(waiters))


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
