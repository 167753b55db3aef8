"""A member's games across channels and servers (``/mygames``; the sandbox's too).

:meth:`MemberGames.of` lists every lobby and running game a member is seated in and still playing (never a game
they resigned from, never another member's game), each with whom it waits on, since when, the deadline of that wait
(the earliest deadline timer of the players it waits on) and whether an undo request waits for the member's vote.
A live table's decision held by seated people marked missing (Tatamokatsu's roll, :func:`.presence.held_people`)
waits on them, not on the player it names: it is theirs (listed first, with their deadline), and the roller's game
waits on others.
Order: the games waiting on the member first, the oldest wait first; then the others, oldest wait first; lobbies
last. Which servers the member still shares with the bot is the adapter's to decide (``keep``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from games import Game

from ..ai_seats import is_ai
from ..store import SessionRow
from .pace import MOVE_DEADLINE
from .presence import held_people


@dataclass(frozen=True)
class MemberGame:
    """One of a member's games: ``row``, ``game``, ``waits_on`` (the players its decisions name; every seated
    player still playing for a decision anyone may answer; the missing people holding a live table's decision; the
    host of a lobby), ``mine`` (it waits on the member), ``since_ms`` (when the wait began: the last move, the start
    or the last undo; a lobby's opening), ``deadline_ms`` (None: no deadline), ``undo_vote`` (an undo request waits
    for the member's vote) and ``held`` (``waits_on`` are people marked missing holding a decision: they answer it
    with "I'm here" or any input of theirs)."""

    row: SessionRow
    game: Game
    waits_on: list[str]
    mine: bool
    since_ms: int
    deadline_ms: int | None
    undo_vote: bool
    held: bool = False

    @property
    def lobby(self) -> bool:
        return self.row.status == "lobby"


class MemberGames:
    """A member's games: ``store`` finds the sessions they are seated in; ``service`` (the facade,
    :class:`bot.sessions.SessionService`) reads each; ``deadline_kind``: the timer kind of a wait's deadline
    (payload ``{"player": id}``)."""

    def __init__(self, store, service, deadline_kind: str = MOVE_DEADLINE) -> None:
        self._store = store
        self.service = service
        self.deadline_kind = deadline_kind

    async def of(self, player: str, keep: Callable[[SessionRow], Awaitable[bool]] | None = None) -> list[MemberGame]:
        """``player``'s games (the order: this module's docstring); ``keep(row)`` drops a game when False (a server
        the member is no longer in)."""
        out = []
        for row in await self._store.member_sessions(player):
            if keep is not None and not await keep(row):
                continue
            entry = await self._entry(row, player)
            if entry is not None:
                out.append(entry)
        out.sort(key=lambda g: (g.lobby, not g.mine, g.since_ms, g.row.id))
        return out

    async def _entry(self, row: SessionRow, player: str) -> MemberGame | None:
        game = self.service.game(row.game_id)
        if row.status == "lobby":
            return MemberGame(row, game, [row.host], False, row.created_ms, None, False)
        resigned = await self.service.reads.resigned(row.id)
        if player in resigned:
            return None
        state = self.service.states.state_of(row)
        pending = self.service.states.pending_of(row, state)
        playing = [p for p in row.players if p not in resigned]
        waits = held_people(row, state, pending)
        held = bool(waits)
        for d in [] if held else pending:
            for p in ([d.player] if d.player else playing):
                if p not in waits:
                    waits.append(p)
        since = await self.service.waiting_since(row)
        deadlines = [t.due_ms for t in await self.service.timers.of(row.id)
                     if t.kind == self.deadline_kind and str(t.payload.get("player")) in waits]
        vote = await self.service.pending_undo(row.id)
        undo = bool(vote and vote.get("version") == row.version and player != vote.get("by")
                    and player not in vote.get("yes", []) and not is_ai(player))
        return MemberGame(row, game, waits, player in waits, since, min(deadlines, default=None), undo, held)


__all__ = ["MemberGame", "MemberGames"]
