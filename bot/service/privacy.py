"""A member's data as the service sees it: their live games found, their data forgotten while those channels are
locked, and old finished games pruned (``PRIVACY.md``; the rule that resigns them first is
:func:`bot.privacy.forget_member`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from contextlib import AsyncExitStack
from typing import Protocol

from ..store import SessionRow, now_ms
from ..store.privacy import Forgotten
from .board import Locks

log = logging.getLogger(__name__)

DAY_MS = 86_400_000


class PrivacyStore(Protocol):
    """What :class:`Privacy` needs of the store (:class:`bot.store.Store` has it: :mod:`bot.store.privacy`)."""

    async def member_live_sessions(self, user_id: str) -> list[SessionRow]: ...
    async def forget_user(self, user_id: str) -> Forgotten: ...
    async def prune_records(self, before_ms: int) -> int: ...


class Privacy:
    """A member's games and data over the store, the channel ``locks``, and ``forget`` (drop what the service
    keeps in memory of a session)."""

    def __init__(self, store: PrivacyStore, locks: Locks, forget: Callable[[int], None]) -> None:
        self._store = store
        self._lock = locks
        self._forget = forget

    async def live_games(self, user_id: str) -> list[SessionRow]:
        """The lobbies and running games ``user_id`` is seated in."""
        return await self._store.member_live_sessions(user_id)

    async def erase(self, user_id: str, channels: Iterable[str]) -> Forgotten:
        """:meth:`bot.store.Store.forget_user` while ``channels`` are locked in this process (no move of this
        process slips in between); the service's memory of the sessions touched is dropped."""
        async with AsyncExitStack() as locks:
            for channel in sorted(set(channels)):
                await locks.enter_async_context(self._lock(channel))
            forgotten = await self._store.forget_user(user_id)
        for sid in forgotten.sessions:
            self._forget(sid)
        return forgotten

    async def prune(self, records_days: int, now: int | None = None) -> int:
        """:func:`prune_records` on the service's store."""
        return await prune_records(self._store, records_days, now)


async def prune_records(store: PrivacyStore, records_days: int, now: int | None = None) -> int:
    """Delete the finished and abandoned games that ended more than ``records_days`` days (of 24 h) before ``now``
    (wall-clock ms; default the store's clock). 0 keeps every game (returns 0). Returns how many were deleted."""
    if records_days <= 0:
        return 0
    deleted = await store.prune_records((now_ms() if now is None else now) - records_days * DAY_MS)
    if deleted:
        log.info("pruned %d finished games older than %d days", deleted, records_days)
    return deleted


__all__ = ["DAY_MS", "Privacy", "PrivacyStore", "prune_records"]
