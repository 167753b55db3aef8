"""Which typed ``/move`` came too late: one sent before the board it would act on was shown is stale.

A ``/move`` carries no board version (buttons do), so two identical ``/move continue`` delivered together (a laggy
phone) would both apply, the second to a board its sender never saw. Both sides are on Discord's clock: every
interaction's snowflake is the time Discord created it. When a move commits, every interaction this process has
already received was created before the new board existed; :class:`BoardFloors` keeps, per session, the newest
snowflake received by then (the board's *floor*). A ``/move`` whose snowflake is not above the floor of the version it
would act on was issued before that board could be seen: it is refused as stale and nothing is stored.

Kept in memory (bounded, oldest sessions evicted first): after a restart there is no floor and nothing is refused.
"""

from __future__ import annotations

from collections import OrderedDict

MAX_SESSIONS = 10_000
"""How many sessions' floors are kept (least recently committed evicted first)."""


class BoardFloors:
    """``saw(snowflake)`` on every interaction as it arrives; ``committed(sid, version)`` right after a move of
    session ``sid`` commits as ``version`` (before any ``await``); ``stale(sid, version, snowflake)`` for a
    ``/move`` about to act on ``version``."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.seen = 0
        self.limit = limit
        self._floors: OrderedDict[int, tuple[int, int]] = OrderedDict()

    def saw(self, snowflake: int) -> None:
        """Note an interaction (any kind, any channel) the moment it arrives."""
        if snowflake > self.seen:
            self.seen = snowflake

    def committed(self, sid: int, version: int) -> None:
        """Session ``sid`` now shows ``version``: nothing received so far was sent after seeing it."""
        self._floors[sid] = (version, self.seen)
        self._floors.move_to_end(sid)
        while len(self._floors) > self.limit:
            self._floors.popitem(last=False)

    def stale(self, sid: int, version: int, snowflake: int) -> bool:
        """True when an interaction created at ``snowflake`` cannot have seen board ``version`` of ``sid``."""
        floor = self._floors.get(sid)
        return floor is not None and floor[0] == version and snowflake <= floor[1]

    def forget(self, sid: int) -> None:
        self._floors.pop(sid, None)
