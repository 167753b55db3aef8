"""Rematch: the same table again with one press.

The Rematch button of a finished game's result opens a lobby in the same channel (or thread) with the same game,
options, pace (``meta["pace"]``) and AI seats (the same ids, so the same levels); the presser hosts. Each other
person of that game joins it with one press of the same button (or the card's Join). It is an ordinary lobby: it
expires like any other, and the host starts it. The lobby's ``meta["rematch_of"]`` names the game it repeats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games import player_ref
from games.core import T, Text

from ..ai_seats import is_ai
from ..refusals import NOT_THIS_CHANNEL, SessionError

if TYPE_CHECKING:
    from .board import Locks, States, Update
    from .lobby import Lobby
    from .reads import Reads

REMATCH_OF = "rematch_of"
"""Key in a lobby's ``meta``: the session id of the finished game it is a rematch of."""
CARRIED = ("pace",)
"""The keys of a game's ``meta`` its rematch keeps (its pace)."""


class Rematch:
    """The Rematch verb over the service's ``store``, channel ``locks``, stored sessions (``reads``), parsed
    ``states`` and its ``lobby`` part (opening and joining)."""

    def __init__(self, store: Any, locks: Locks, reads: Reads, states: States, lobby: Lobby) -> None:
        self.store = store
        self.lock = locks
        self.reads = reads
        self.states = states
        self.lobby = lobby

    async def press(self, channel_id: str, session_id: int, by: str, guild_id: str | None = None
                    ) -> tuple[Update, bool]:
        """Rematch of finished session ``session_id`` pressed by ``by`` in ``channel_id``: opens the lobby with
        ``by`` as host (``(update, True)``), or joins ``by`` to the rematch lobby already open (``(update,
        False)``). Refused (:class:`SessionError`, nothing stored): another channel's game, a game that did not
        finish, someone who did not play it, a channel busy with another lobby or game, a rematch lobby that is
        full or where ``by`` is seated already."""
        last = await self.reads.session(session_id)
        if last is None or last.channel_id != channel_id:
            raise SessionError(NOT_THIS_CHANNEL)
        if last.status != "finished":
            raise SessionError(T("Only a finished game can be played again."))
        if by not in last.players or is_ai(by):
            raise SessionError(T("Only the players of that game can ask for a rematch; /play opens a new one."))
        live = await self.reads.live_session(channel_id)
        if live is not None and live.status == "lobby" and live.meta.get(REMATCH_OF) == last.id:
            return await self.lobby.join(channel_id, by), False
        update = await self.lobby.open_lobby(channel_id, last.game_id, by, dict(last.options),
                                             guild_id=guild_id or last.guild_id)
        ai_seats = [p for p in last.players if is_ai(p)]
        meta = {**update.session.meta, **{k: last.meta[k] for k in CARRIED if k in last.meta}, REMATCH_OF: last.id}
        async with self.lock(channel_id):
            row = update.session
            await self.store.update_session(row.id, row.version, players=[by, *ai_seats], meta=meta)
            row = await self.store.session(row.id)
        others = [p for p in last.players if p != by and not is_ai(p)]
        notes = [T("{player} asks for a rematch: the same game, options and AI players.", player=player_ref(by))]
        if others:
            notes.append(T("{players}: press Join (or Rematch) to play again.",
                           players=Text.join(T(", "), [player_ref(p) for p in others])))
        return self.states.view(row, notes=notes), True


__all__ = ["CARRIED", "REMATCH_OF", "Rematch"]
