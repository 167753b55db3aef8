"""Ended games' records for adapters (``/stats``, ``/leaderboard``, ``/replay``, the results card) without handing
out the store, and the record written in the transaction that ends a game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from games import Result

from ..store import SessionRow
from ..store.records import GameRecord
from .hints import HINTED_META
from .stand_in import stood_in

DisplayNames = Callable[[int], Awaitable[dict[str, str]]]
"""Session id -> {player id: display name} at the game's end, for its record (the Discord adapter's
:meth:`bot.discord.links.Links.names`; offline none: the ids are the names)."""


class RecordStore(Protocol):
    """What :class:`Records` needs of the store (:class:`bot.store.Store` has it: :mod:`bot.store.records`)."""

    async def record_game(self, db, **fields: Any) -> GameRecord: ...
    async def game_record(self, session_id: int) -> Any: ...
    async def channel_records(self, channel_id: str, game_id: str | None = None, limit: int = 25) -> list: ...
    async def leaderboard(self, guild_id: str | None, game_id: str) -> list: ...
    async def player_stats(self, guild_id: str | None, player: str, game_id: str | None = None) -> Any: ...
    async def player_by_name(self, guild_id: str | None, name: str) -> str | None: ...


class Records:
    """The records of ended games (seats, ranks, ratings per game per server: :mod:`bot.store.records`)."""

    def __init__(self, store: RecordStore, clock: Callable[[], int], names: DisplayNames | None = None) -> None:
        self._store = store
        self._clock = clock
        self._names = names

    async def game_record(self, session_id: int) -> Any:
        """The record of ended game ``session_id`` (``GameRecord``), or None."""
        return await self._store.game_record(session_id)

    async def channel_records(self, channel_id: str, game_id: str | None = None, limit: int = 25) -> list:
        """The channel's ended games (of ``game_id`` when given), newest first, at most ``limit``: ``(session id,
        game id, ended ms, outcome)``."""
        return await self._store.channel_records(channel_id, game_id=game_id, limit=limit)

    async def leaderboard(self, guild_id: str | None, game_id: str) -> list:
        """The standings (``Standing``) of ``game_id`` in ``guild_id`` (None: offline), best first."""
        return await self._store.leaderboard(guild_id, game_id)

    async def player_stats(self, guild_id: str | None, player: str, game_id: str | None = None) -> Any:
        """``player``'s games, wins and ratings in ``guild_id`` (one game, or all; ``PlayerStats``), or None."""
        return await self._store.player_stats(guild_id, player, game_id)

    async def player_by_name(self, guild_id: str | None, name: str) -> str | None:
        """The player id recorded in ``guild_id`` under display name (or id) ``name``, newest first; None if none."""
        return await self._store.player_by_name(guild_id, name)

    async def names(self, row: SessionRow) -> dict[str, str]:
        """Display names of ``row``'s players for its record (none offline: the ids stand)."""
        if self._names is None:
            return {}
        return dict(await self._names(row.id))

    async def record(self, db, row: SessionRow, moves: int, result: Result | None, resigned: set[str],
                     names: dict[str, str]) -> GameRecord:
        """Record the game of ``row`` that ends now (``result`` None: abandoned, unrated; a game in which a hint
        was used, unrated too), in the ending transaction ``db``."""
        return await self._store.record_game(
            db, session_id=row.id, game_id=row.game_id, guild_id=row.guild_id, channel_id=row.channel_id,
            options=row.options, seed=row.seed, players=row.players,
            started_ms=int(row.meta.get("started_ms", row.created_ms)), ended_ms=self._clock(), moves=moves,
            result=result, resigned=resigned, names=names, stood_in=stood_in(row),
            rated=not row.meta.get(HINTED_META))


__all__ = ["DisplayNames", "RecordStore", "Records"]
