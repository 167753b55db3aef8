"""The adapter's own data per session and per member, through the store's adapter-data API
(:class:`bot.store.adapter.AdapterData`; this module runs no SQL).

Per session, kept apart from ``sessions.meta`` because writing it must not bump the session version (the buttons
of the board just posted carry that version). Shape of ``data`` (JSON):

- ``names``: player id -> display name (captured when they open/join; used on buttons and board images);
- ``board``: ``[channel id, message id]`` of the latest board message (its components are removed when a newer one
  is posted) — ids only, never discord.py objects;
- ``lobby``: ``[channel id, message id]`` of the lobby card;
- ``undo``: ``{"version": int, "by": player id, "yes": [player ids]}`` — an undo vote in progress.

Per member: ``{"mute_turn_pings": bool}`` (``/pings turn:off``).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.store import Store

MAX_NAMES = 1024
"""Sessions whose display names are cached at the most (bounded memory)."""


class Links:
    """Read and merge the adapter data of sessions (one JSON object per session id)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # this process is the only writer of names; the most recently used MAX_NAMES sessions' are cached
        self._names: OrderedDict[int, dict[str, str]] = OrderedDict()

    async def get(self, session_id: int) -> dict[str, Any]:
        return await self.store.session_data(session_id)

    async def update(
        self, session_id: int, merge: dict[str, dict] | None = None, db=None,
        **changes: Any,
    ) -> dict[str, Any]:
        """Set ``changes`` in the session's data (a value None deletes the key) and merge each ``merge[key]`` dict
        into the dict at ``key``, in one transaction (``db``'s when given); returns the new data."""
        if db is None:
            async with self.store.transaction() as tx:
                return await self.store.update_session_data(tx, session_id, changes, merge)
        return await self.store.update_session_data(db, session_id, changes, merge)

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

    # -- undo requests (the service's undo rule keeps them here: ``SessionService(undo_votes=…)``) ------------------
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
        async def write(db) -> None:
            await self.store.clear_session_timers(db, session_ids, timer_kinds)
            await self.store.add_timers(db, timer_rows)
            await self.store.set_board_links(db, link_rows)

        await self.store.atomically(write)

    # -- per channel -------------------------------------------------------------------------------------------
    async def channel_settings(self, channel_id: str) -> dict:
        """The settings stored for ``channel_id`` (``/settings``), without defaults."""
        return await self.store.channel_settings(channel_id)

    async def save_channel_settings(self, channel_id: str, settings: dict) -> None:
        await self.store.save_channel_settings(channel_id, settings)

    # -- per member ---------------------------------------------------------------------------------------------
    async def muted(self, players: list[str] | set[str]) -> set[str]:
        """Which of ``players`` muted their turn pings (``/pings turn:off``)."""
        return {p for p, data in (await self.store.players_data(players)).items() if data.get("mute_turn_pings")}

    async def set_muted(self, player: str, muted: bool) -> None:
        """Mute (or unmute) ``player``'s turn pings, in every channel."""
        await self.store.update_player_data(player, {"mute_turn_pings": bool(muted)})
