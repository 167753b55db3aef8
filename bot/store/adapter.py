"""The chat adapter's own small data: :class:`AdapterData`, the methods of :class:`bot.store.base.Store` over the
``discord_sessions`` (migration 2) and ``discord_players`` (migration 3) tables. The adapter (``bot/discord/links.py``)
reads and writes its data only through these methods, never with its own SQL.

- Per session, one JSON object (``data``), kept apart from ``sessions.meta`` because writing it must not bump the
  session version (the buttons of the board just posted carry that version): display names, message ids of the
  board and lobby card, an undo vote in progress — its shape is the adapter's (see ``bot/discord/links.py``).
- Per member, one JSON object, e.g. ``{"mute_turn_pings": true}``.

A read-merge-write locks the row it merges into (PostgreSQL ``SELECT … FOR UPDATE``; an SQLite write transaction holds
the file), so two processes merging into one session's data at once keep both changes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any

from .rows import now_ms

_BOARD_LINKS = {
    "sqlite": "INSERT INTO discord_sessions (session_id, data, updated_ms) VALUES (?1, json_object('board', json(?2)),"
              " ?3) ON CONFLICT(session_id) DO UPDATE SET data = json_set(data, '$.board', json(?2)), updated_ms = ?3",
    "postgresql": "INSERT INTO discord_sessions (session_id, data, updated_ms) VALUES (?, jsonb_build_object('board',"
                  " ?::jsonb)::text, ?) ON CONFLICT (session_id) DO UPDATE SET data = jsonb_set(discord_sessions.data"
                  "::jsonb, '{board}', excluded.data::jsonb -> 'board')::text, updated_ms = excluded.updated_ms",
}
"""Per dialect: set ``data.board`` of one session in one statement, keeping the rest of its data."""


def merged(data: dict[str, Any], changes: dict[str, Any], merge: dict[str, dict] | None) -> dict[str, Any]:
    """``data`` with ``changes`` set (a value None deletes the key) and each ``merge[key]`` dict merged into the dict
    at ``key`` (a new dict; ``data`` is not changed)."""
    out = dict(data)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    for key, value in (merge or {}).items():
        out[key] = {**out.get(key, {}), **value}
    return out


PLAYER_CACHE_S = 30.0
"""How long (s) this process trusts a member's data it read (:meth:`AdapterData.players_data`)."""
PLAYER_CACHE_SIZE = 10_000
"""Members' data kept at most; the cache starts afresh beyond it."""


class AdapterData:
    """The chat adapter's data per session and per member (needs the store's ``conn``, ``transaction``,
    ``dialect`` and ``_for_update``)."""

    conn: Any
    dialect: str
    _for_update: str
    transaction: Callable[[], AbstractAsyncContextManager[Any]]

    # -- per session ----------------------------------------------------------------------------------------------
    async def session_data(self, session_id: int) -> dict[str, Any]:
        """The adapter's data of session ``session_id`` ({} when it has none)."""
        cur = await self.conn.execute("SELECT data FROM discord_sessions WHERE session_id = ?", (session_id,))
        row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def update_session_data(self, db, session_id: int, changes: dict[str, Any],
                                  merge: dict[str, dict] | None = None) -> dict[str, Any]:
        """Change session ``session_id``'s data inside ``db``'s transaction (:func:`merged`: ``changes`` set, None
        deleting a key, ``merge`` dicts merged in), its row locked from the read to the write; returns the new
        data. The session must exist (foreign key)."""
        lock = f"SELECT data FROM discord_sessions WHERE session_id = ?{self._for_update}"
        row = await (await db.execute(lock, (session_id,))).fetchone()
        if row is None:  # the first write: a row to lock, whoever inserts it first
            await db.execute("INSERT INTO discord_sessions (session_id, data, updated_ms) VALUES (?, '{}', ?)"
                             " ON CONFLICT (session_id) DO NOTHING", (session_id, now_ms()))
            row = await (await db.execute(lock, (session_id,))).fetchone()
        data = merged(json.loads(row[0]), changes, merge)
        await db.execute("UPDATE discord_sessions SET data = ?, updated_ms = ? WHERE session_id = ?",
                         (json.dumps(data), now_ms(), session_id))
        return data

    async def set_board_links(self, db, rows: list[tuple[int, str, int]]) -> None:
        """Set ``data.board`` for rows of ``(session_id, board JSON, updated_ms)`` in ``db``'s transaction, one
        statement per row in the backend's dialect, keeping the rest of each session's data."""
        if rows:
            await db.executemany(_BOARD_LINKS[self.dialect], rows)

    # -- per member -----------------------------------------------------------------------------------------------
    def _players_cache(self) -> dict[str, tuple[float, dict[str, Any]]]:
        cache = self.__dict__.get("_player_data")
        if cache is None or len(cache) > PLAYER_CACHE_SIZE:
            cache = self.__dict__["_player_data"] = {}
        return cache

    def forget_player_data(self, player: str | None = None) -> None:
        """Drop ``player``'s cached data (everyone's when None): after a write outside :meth:`update_player_data`."""
        if player is None:
            self._players_cache().clear()
        else:
            self._players_cache().pop(player, None)

    async def players_data(self, players: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Player id -> the adapter's data of that member, for those of ``players`` that have any. Read at most
        every :data:`PLAYER_CACHE_S` seconds per member in this process (a move reads its players' notification
        choices; this process's own writes update the cache at once, another process's show within that time)."""
        players = [p for p in players if p]
        if not players:
            return {}
        cache, now = self._players_cache(), time.monotonic()
        fresh = {p: cache[p][1] for p in players if p in cache and now - cache[p][0] < PLAYER_CACHE_S}
        missing = [p for p in players if p not in fresh]
        if missing:
            cur = await self.conn.execute(
                f"SELECT player_id, data FROM discord_players WHERE player_id IN ({','.join('?' * len(missing))})",
                missing)
            found = {pid: json.loads(data) for pid, data in await cur.fetchall()}
            for p in missing:
                cache[p] = (now, found.get(p, {}))
                fresh[p] = cache[p][1]
        return {p: dict(d) for p, d in fresh.items() if d}

    async def update_player_data(self, player: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Set ``changes`` in ``player``'s data (a value None deletes the key) in one transaction; returns the new
        data."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO discord_players (player_id, data, updated_ms) VALUES (?, '{}', ?)"
                             " ON CONFLICT (player_id) DO NOTHING", (player, now_ms()))
            cur = await db.execute(f"SELECT data FROM discord_players WHERE player_id = ?{self._for_update}",
                                   (player,))
            data = merged(json.loads((await cur.fetchone())[0]), changes, None)
            await db.execute("UPDATE discord_players SET data = ?, updated_ms = ? WHERE player_id = ?",
                             (json.dumps(data), now_ms(), player))
        self._players_cache()[player] = (time.monotonic(), data)
        return dict(data)

    async def take_player_flag(self, player: str, key: str) -> bool:
        """Whether ``player``'s data has ``key`` set (truthy), deleting it in the same transaction, the member's row
        locked from the read to the write: of two processes taking the same flag, one gets True."""
        async with self.transaction() as db:
            cur = await db.execute(f"SELECT data FROM discord_players WHERE player_id = ?{self._for_update}",
                                   (player,))
            row = await cur.fetchone()
            data = json.loads(row[0]) if row else {}
            if not data.get(key):
                self._players_cache()[player] = (time.monotonic(), data)
                return False
            data = merged(data, {key: None}, None)
            await db.execute("UPDATE discord_players SET data = ?, updated_ms = ? WHERE player_id = ?",
                             (json.dumps(data), now_ms(), player))
        self._players_cache()[player] = (time.monotonic(), data)
        return True


__all__ = ["AdapterData", "merged"]
