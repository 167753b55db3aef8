"""The optional HTTP listener of ``python -m bot run`` (``HTTP_PORT``; off when unset), on aiohttp:

- ``GET /healthz`` — 200 ``ok`` while the process runs (a liveness probe);
- ``GET /readyz`` — 200 ``ready`` when every shard of this process is connected to the gateway and the store
  answers within :data:`STORE_TIMEOUT_S`; else 503 with one line per reason (``shards connected 0 of 1``,
  ``store not answering: …``, ``stopping``);
- ``GET /metrics`` — :mod:`bot.metrics` in Prometheus's text format.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from . import metrics

log = logging.getLogger(__name__)

STORE_TIMEOUT_S = 2.0
"""How long ``/readyz`` waits for the store to answer (s)."""


def shards_connected(bot: Any) -> tuple[int, int]:
    """(connected, run) gateway shards of ``bot`` (a discord.py client; None: (0, 1))."""
    if bot is None:
        return 0, 1
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:
        return sum(1 for s in shards.values() if not s.is_closed()) if bot.is_ready() else 0, len(shards)
    total = len(getattr(bot, "shard_ids", None) or []) or 1
    ws = getattr(bot, "ws", None)
    return (1 if ws is not None and ws.open and bot.is_ready() and not bot.is_closed() else 0), total


async def store_problem(store: Any) -> str | None:
    """None when ``store`` answers a trivial query in time, else why not."""
    try:
        await asyncio.wait_for(store.get_meta("ready-check"), STORE_TIMEOUT_S)
    except TimeoutError:
        return f"store not answering within {STORE_TIMEOUT_S:g} s"
    except Exception as exc:  # any failure of the store means not ready; the reason is shown
        return f"store not answering: {type(exc).__name__}: {exc}"
    return None


def app(store: Any, bot: Any) -> web.Application:
    """The listener's routes. ``bot``: a callable returning the running bot (or None before it exists)."""

    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        client = bot()
        problems = []
        if client is not None and getattr(client, "_stopping", None) is not None:
            problems.append("stopping")
        connected, total = shards_connected(client)
        if connected < total:
            problems.append(f"shards connected {connected} of {total}")
        problem = await store_problem(store)
        if problem:
            problems.append(problem)
        if problems:
            return web.Response(status=503, text="".join(p + "\n" for p in problems))
        return web.Response(text="ready\n")

    async def scrape(request: web.Request) -> web.Response:
        client = bot()
        connected, total = shards_connected(client)
        if client is not None:
            metrics.watch_gateway(client)
        metrics.SHARDS.set(total)
        metrics.SHARDS_CONNECTED.set(connected)
        try:
            await asyncio.wait_for(metrics.refresh(store), STORE_TIMEOUT_S)
        except Exception as exc:  # the other metrics are still worth serving
            log.warning("metrics: live sessions not read: %s", exc)
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    application = web.Application()
    application.add_routes([web.get("/healthz", healthz), web.get("/readyz", readyz), web.get("/metrics", scrape)])
    return application


class ListenerError(OSError):
    """The listener cannot start: ``str()`` is the line to show (the address, and why: in use, not resolvable)."""


async def start(settings: Any, store: Any, stop: Any) -> web.AppRunner:
    """Serve :func:`app` on ``settings.http_host:settings.http_port``; ``stop.bot`` is the running bot. Returns the
    runner (``await runner.cleanup()`` stops it). :class:`ListenerError` when the address cannot be listened on
    (the port in use, the host not resolvable or not this machine's); nothing is left open then."""
    runner = web.AppRunner(app(store, lambda: stop.bot), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.http_host, settings.http_port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ListenerError(f"The HTTP listener cannot start on {settings.http_host}:{settings.http_port} "
                            f"({reason}): free the port or change HTTP_PORT / HTTP_HOST.") from None
    log.info("HTTP listener on http://%s:%d (/healthz, /readyz, /metrics)", settings.http_host, settings.http_port)
    return runner
