"""The adapter's own data per session, in the ``discord_sessions`` table (store migration 2).

Kept apart from ``sessions.meta`` because writing it must not bump the session version (the buttons of the board
just posted carry that version). Shape of ``data`` (JSON):

- ``names``: player id -> display name (captured when they open/join; used on buttons and board images);
- ``board``: ``[channel id, message id]`` of the latest board message (its components are removed when a newer one
  is posted) — ids only, never discord.py objects;
- ``lobby``: ``[channel id, message id]`` of the lobby card;
- ``undo``: ``{"version": int, "by": player id, "yes": [player ids]}`` — an undo vote in progress.

Per member, the ``discord_players`` table (store migration 3): ``{"mute_turn_pings": bool}`` (``/settings
``/pings turn:off``).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from bot.store import Store, now_ms

MAX_NAMES = 1024
"""Sessions whose display names are cached at the most (bounded memory)."""


class Links:
    """Read and merge the adapter data of sessions (one JSON object per session id)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # this process is the only writer of names; the most recently used MAX_NAMES sessions' are cached
        self._names: OrderedDict[int, dict[str, str]] = OrderedDict()

    async def get(self, session_id: int) -> dict[str, Any]:
        cur = await self.store.conn.execute("SELECT data FROM discord_sessions WHERE session_id = ?", (session_id,))
        row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def update(
        self, session_id: int, merge: dict[str, dict] | None = None, db=None,
        **changes: Any,
    ) -> dict[str, Any]:
        """Set ``changes`` in the session's data (a value None deletes the key) and merge each ``merge[key]`` dict
        into the dict at ``key``, in one transaction (``db``'s when given); returns the new data."""
        if db is None:
            async with self.store.transaction() as tx:
                return await self._update(tx, session_id, merge, changes)
        return await self._update(db, session_id, merge, changes)

    async def _update(self, db, session_id: int, merge: dict | None, changes: dict) -> dict:
        cur = await db.execute("SELECT data FROM discord_sessions WHERE session_id = ?", (session_id,))
        row = await cur.fetchone()
        data = json.loads(row[0]) if row else {}
        for key, value in changes.items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        for key, value in (merge or {}).items():
            data[key] = {**data.get(key, {}), **value}
        await db.execute(
            "INSERT INTO discord_sessions (session_id, data, updated_ms) VALUES (?, ?, ?)"
            " ON CONFLICT(session_id) DO UPDATE SET data = excluded.data, updated_ms = excluded.updated_ms",
            (session_id, json.dumps(data), now_ms()),
        )
        return data

    async def names(self, session_id: int) -> dict[str, str]:
        """Player id -> display name (cached in memory)."""
        names = self._names.get(session_id)
        if names is None:
            names = dict((await self.get(session_id)).get("names", {}))
        self._cache(session_id, names)
        return names

    def _cache(self, session_id: int, names: dict[str, str]) -> None:
        self._names[session_id] = names
        self._names.move_to_end(session_id)
        while len(self._names) > MAX_NAMES:
            self._names.popitem(last=False)

    def forget(self, session_id: int) -> None:
        """A session ended: drop its cached names (read again from the store if ever needed)."""
        self._names.pop(session_id, None)

    async def add_name(self, session_id: int, player: str, name: str) -> None:
        """Remember ``player``'s display name for buttons and images."""
        data = await self.update(session_id, merge={"names": {player: name}})
        self._cache(session_id, dict(data.get("names", {})))

    # -- undo requests (the service's undo rule keeps them here: ``SessionService.undo_votes``) ------------------
    async def get_undo(self, session_id: int) -> dict | None:
        """The open undo request of ``session_id`` (``{"version", "by", "yes"}``) or None."""
        return (await self.get(session_id)).get("undo")

    async def put_undo(self, session_id: int, vote: dict | None) -> None:
        """Open, update (``vote``) or close (None) the undo request of ``session_id``."""
        await self.update(session_id, undo=vote)

    async def save_boards(self, session_ids: list[int], timer_kinds: list[str], timer_rows: list[tuple],
                          link_rows: list[tuple]) -> None:
        """The bookkeeping of boards just posted, in one transaction: the ``timer_kinds`` timers of
        ``session_ids`` replaced by ``timer_rows`` (``(session_id, channel_id, kind, due_ms, payload JSON,
        created_ms)``) and each session's latest board (``link_rows``: ``(session_id, data JSON, updated_ms)``)."""
        async with self.store.transaction() as db:
            await self.store.clear_session_timers(db, session_ids, timer_kinds)
            await self.store.add_timers(db, timer_rows)
            await self.store.set_board_links(db, link_rows)

    # -- per channel -------------------------------------------------------------------------------------------
    async def channel_settings(self, channel_id: str) -> dict:
        """The settings stored for ``channel_id`` (``/settings``), without defaults."""
        return await self.store.channel_settings(channel_id)

    async def save_channel_settings(self, channel_id: str, settings: dict) -> None:
        await self.store.save_channel_settings(channel_id, settings)

    # -- per member ---------------------------------------------------------------------------------------------
    async def muted(self, players: list[str] | set[str]) -> set[str]:
        """Which of ``players`` muted their turn pings (``/pings turn:off``)."""
        players = [p for p in players if p]
        if not players:
            return set()
        cur = await self.store.conn.execute(
            f"SELECT player_id, data FROM discord_players WHERE player_id IN ({','.join('?' * len(players))})",
            players)
        return {pid for pid, data in await cur.fetchall() if json.loads(data).get("mute_turn_pings")}

    async def set_muted(self, player: str, muted: bool) -> None:
        """Mute (or unmute) ``player``'s turn pings, in every channel."""
        async with self.store.transaction() as db:
            cur = await db.execute("SELECT data FROM discord_players WHERE player_id = ?", (player,))
            row = await cur.fetchone()
            data = {**(json.loads(row[0]) if row else {}), "mute_turn_pings": bool(muted)}
            await db.execute(
                "INSERT INTO discord_players (player_id, data, updated_ms) VALUES (?, ?, ?)"
                " ON CONFLICT(player_id) DO UPDATE SET data = excluded.data, updated_ms = excluded.updated_ms",
                (player, json.dumps(data), now_ms()))
