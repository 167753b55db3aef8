"""What /metrics counts beside the service's own metrics: the waits discord.py makes ahead of a 429 (an empty
bucket), errors by kind, and gateway latency and servers per shard."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord.http

from bot import metrics


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels or None) or 0.0


async def test_a_request_held_back_by_an_empty_bucket_is_a_rate_limit_wait():
    metrics.watch_rate_limits()
    metrics.watch_rate_limits()  # once per process: not wrapped twice
    waits, seconds = value("bot_rate_limit_waits_total"), value("bot_rate_limit_wait_seconds_total")
    bucket = discord.http.Ratelimit(None)
    bucket.update(SimpleNamespace(headers={"X-Ratelimit-Limit": "1", "X-Ratelimit-Remaining": "1",
                                           "X-Ratelimit-Reset-After": "0.05"}))
    async with bucket:  # the bucket's last token: discord.py sleeps until its reset, without a warning
        assert value("bot_rate_limit_waits_total") == waits
    assert value("bot_rate_limit_waits_total") == waits + 1
    assert value("bot_rate_limit_wait_seconds_total") > seconds
    async with bucket:  # reset, limits not told again (no response headers yet): no sleep, nothing counted
        pass
    assert value("bot_rate_limit_waits_total") == waits + 1


def test_errors_are_counted_by_exception_type_once_each():
    logger = logging.getLogger("bot.test.errors")
    metrics.watch_errors()
    metrics.watch_errors()  # once per process: a line is counted once
    root = logging.getLogger()
    try:
        before = value("bot_errors_total", kind="KeyError"), value("bot_errors_total", kind="error")
        try:
            raise KeyError("x")
        except KeyError:
            logger.exception("a failure")
        logger.error("a plain error line")
        logger.warning("not an error")
        assert (value("bot_errors_total", kind="KeyError"), value("bot_errors_total", kind="error")) == (
            before[0] + 1, before[1] + 1)
    finally:
        for handler in [h for h in root.handlers if isinstance(h, metrics.ErrorCounter)]:
            root.removeHandler(handler)


def test_gateway_latency_and_servers_per_shard():
    guilds = [SimpleNamespace(shard_id=0), SimpleNamespace(shard_id=1), SimpleNamespace(shard_id=1)]
    bot = SimpleNamespace(latencies=[(0, 0.125), (1, float("inf"))], guilds=guilds)
    metrics.watch_gateway(bot)
    assert value("bot_gateway_latency_seconds", shard="0") == 0.125
    assert metrics.REGISTRY.get_sample_value("bot_gateway_latency_seconds", {"shard": "1"}) is None  # no heartbeat yet
    assert (value("bot_guilds", shard="0"), value("bot_guilds", shard="1")) == (1, 2)
