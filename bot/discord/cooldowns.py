"""Per-member (or per-channel) cooldowns on the session service's clock (ms), so tests drive them with a fake clock
and one bot's cooldowns never leak into another's (discord.py's cooldown decorators keep one mapping per command
class, on the monotonic clock)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

MAX_KEYS = 10_000
"""Keys kept at the most (the oldest forgotten first): memory stays bounded."""


class Cooldown:
    """One action at most every ``period_ms`` per key."""

    def __init__(self, period_ms: int, limit: int = MAX_KEYS) -> None:
        self.period_ms = period_ms
        self.limit = limit
        self._last: OrderedDict[Hashable, int] = OrderedDict()

    def wait_s(self, key: Hashable, now_ms: int) -> int:
        """Whole seconds ``key`` must still wait (0: it may act now, and the action is counted)."""
        last = self._last.get(key)
        if last is not None and now_ms - last < self.period_ms:
            return (self.period_ms - (now_ms - last) + 999) // 1000
        self._last[key] = now_ms
        self._last.move_to_end(key)
        while len(self._last) > self.limit:
            self._last.popitem(last=False)
        return 0

    def release(self, key: Hashable) -> None:
        """Un-count ``key``'s last action (it was refused after :meth:`wait_s` counted it)."""
        self._last.pop(key, None)
