"""Channel settings over the bot's defaults, cached per channel (bounded memory); stored through
:mod:`bot.discord.links`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bot import PlayBot

MAX_CHANNELS = 4096
"""Channels whose settings are cached at the most (bounded memory)."""


class ChannelPrefs:
    """``reminder_hours``, ``afk_hours`` (h, 0 = off), ``race_window_ms`` (ms), ``pings`` (``turn``: the player
    whose turn starts is notified | ``off``) and ``language`` (``en`` | ``ja``; None: the server's preferred
    locale, :mod:`bot.discord.language`) of each channel, over :meth:`defaults` (``bot.settings``)."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        self._cache: dict[str, dict[str, float]] = {}

    def defaults(self) -> dict[str, float]:
        s = self.bot.settings
        return {"reminder_hours": s.reminder_hours, "afk_hours": s.afk_hours, "race_window_ms": s.race_window_ms,
                "pings": "turn", "language": None}

    async def get(self, channel_id: str) -> dict[str, float]:
        """The channel's settings over the defaults (cached; :meth:`save` updates the cache); ``saved``: those the
        channel saved itself (a game's pace follows them, :func:`bot.service.pace.pace_of`)."""
        cached = self._cache.get(channel_id)
        if cached is None:
            saved = await self.bot.links.channel_settings(channel_id)
            cached = {**self.defaults(), **saved, "saved": saved}
            self._cache[channel_id] = cached
            while len(self._cache) > MAX_CHANNELS:  # the oldest channel first (dicts keep insertion order)
                self._cache.pop(next(iter(self._cache)))
        return cached

    def cached(self, channel_id: str) -> dict[str, float]:
        """The channel's settings if cached, else the defaults (no store read)."""
        return self._cache.get(channel_id) or self.defaults()

    async def save(self, channel_id: str, changes: dict[str, float]) -> dict[str, float]:
        """Store ``changes`` over the channel's settings; returns them all."""
        stored = {**await self.bot.links.channel_settings(channel_id), **changes}
        await self.bot.links.save_channel_settings(channel_id, stored)
        self._cache.pop(channel_id, None)
        return await self.get(channel_id)

    def forget(self, channel_id: str) -> None:
        self._cache.pop(channel_id, None)


__all__ = ["MAX_CHANNELS", "ChannelPrefs"]
