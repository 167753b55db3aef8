"""Leaving a running game: a player resigns (or is removed by the host, a moderator or a departure), and an idle
player is removed once the game's idle limit (its pace's move deadline, or the channel's /settings) has passed since
the board was dealt. Each resignation is logged as a move (``RESIGN``), so replay reproduces it; a game that cannot
go on without the player ends and the others share the win."""

from __future__ import annotations

from collections.abc import Callable

from games import Event, IllegalMove, Move, Result, player_ref
from games.core import T

from ..ai_seats import is_ai
from ..i18n import refusal
from ..refusals import IDLE_PLAYED, IDLE_WHO, LEFT_GAME, SessionError
from ..results import duration_text
from ..store import SessionRow
from ..store.records import RESIGN_MOVE as RESIGN
from .board import Locks, Rows, States, Update, game_of
from .ledger import Ledger
from .presence import waited_on
from .reads import Reads
from .stand_in import ai_players
from .undo import UNDONE_MS


def resign_result(players: list[str], resigner: str) -> Result:
    """The result when a game that cannot go on without ``resigner`` ends: the others share the win."""
    others = [p for p in players if p != resigner]
    return Result(
        winners=others,
        ranking=[others, [resigner]] if others else [[resigner]],
        scores={},
        reason=T("{player} resigned.", player=player_ref(resigner)),
    )


class Resignations:
    """Resigning and removing idle players over the service ``clock`` (ms), the channel ``locks``, the live
    ``rows``, the parsed ``states``, the stored sessions (``reads``) and the ``ledger`` that commits the move."""

    def __init__(self, clock: Callable[[], int], locks: Locks, rows: Rows, states: States, reads: Reads,
                 ledger: Ledger) -> None:
        self.clock = clock
        self.lock = locks
        self.rows = rows
        self.states = states
        self.reads = reads
        self.ledger = ledger

    async def resign(self, channel_id: str, player: str, by: str | None = None) -> Update:
        """``player`` leaves a running game: ``Game.resign`` when the game can go on without them, else the game
        ends and the others share the win. Logged as a move (``RESIGN``). ``by``: who removes them (the host or a
        moderator with /kick, ``"departure"`` for a member who left the server), None when they resign themselves.

        One check for every game: a player who has already resigned (or been removed) is no longer playing and
        cannot resign, be removed again, or remove anyone (:class:`SessionError`; nothing is stored) — before this,
        a second resignation in Tatamokatsu ended the game for everyone."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            if row.status == "lobby":
                raise SessionError(T("The game has not started yet: use /leave to leave the lobby."))
            return await self.resign_row(row, player, by, await self.reads.resigned(row.id))

    async def remove_idle(self, channel_id: str, session_id: int, version: int, seat: int, by: str,
                          idle_after_ms: int, moderator: bool = False) -> Update:
        """The "remove the idle player" press: the player of ``seat`` (index into the seats) of board ``version``
        of session ``session_id`` is removed (their resignation, :meth:`resign`) by ``by``. ``idle_after_ms``: the
        game's idle limit (ms; 0 = off: its pace's move deadline, or the channel's /settings). ``moderator``: ``by``
        manages the channel.

        Refused (:class:`SessionError`, nothing stored), in this order: not this channel's running game; the idle
        limit off; another board version (:data:`IDLE_PLAYED`); a seat that names nobody, an AI seat, or a player
        who already left; a player the game does not wait for; ``by`` who left the game; ``by`` the idle player
        themselves (/resign is theirs); ``by`` neither a seated player still playing nor a moderator
        (:data:`IDLE_WHO`); the idle limit not yet passed since the board was dealt (the last move, the start or the
        last undo: :meth:`waiting_since`; :class:`NotIdleYet`)."""
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            idle, resigned = await self.idle_seat(row, version, seat, by, idle_after_ms, moderator)
            return await self.resign_row(row, idle, by, resigned)

    async def idle_seat(self, row: SessionRow, version: int, seat: int, by: str, idle_after_ms: int,
                        moderator: bool = False) -> tuple[str, set[str]]:
        """The checks of an action on the idle player of ``seat`` of running session ``row`` (under the channel's
        lock): :meth:`remove_idle` and the AI stand-in (:mod:`bot.service.stand_in`). Returns the idle player and
        who has left the game; :class:`SessionError` in the order :meth:`remove_idle` gives."""
        if idle_after_ms <= 0:
            raise SessionError(T("Idle players are not removed in this channel (its AFK limit is off: /settings)."))
        if row.version != version:
            raise SessionError(IDLE_PLAYED)
        if not 0 <= seat < len(row.players):
            raise SessionError(T("This button is not valid. Use the buttons of the latest notice."))
        idle = row.players[seat]
        if is_ai(idle):
            raise SessionError(T("AI players never idle: they move on their own."))
        resigned = await self.reads.resigned(row.id)
        if idle in resigned:
            raise SessionError(T("{player} has already left this game.", player=player_ref(idle)))
        state = self.states.state_of(row)
        if idle not in waited_on(row, state, self.states.pending_of(row, state)):
            raise SessionError(T("The game is not waiting for {player}: nothing to do.", player=player_ref(idle)))
        if by in resigned:
            raise SessionError(LEFT_GAME)
        if by == idle:
            raise SessionError(T("You cannot remove yourself: /resign leaves the game."))
        if by not in row.players and not moderator:
            raise SessionError(IDLE_WHO)
        due = await self.waiting_since(row) + idle_after_ms
        now = self.clock()
        if now < due:
            raise NotIdleYet(idle, idle_after_ms, due, now)
        return idle, resigned

    async def waiting_since(self, row: SessionRow) -> int:
        """When (ms, the service clock) ``row``'s board version was dealt: the time of the last move, the start of
        the game, or the last undo, whichever came last."""
        moves = await self.reads.moves(row.id) if row.move_count else []
        times = [int(row.meta.get("started_ms", row.created_ms)), int(row.meta.get(UNDONE_MS, 0))]
        if moves and moves[-1].at_ms is not None:
            times.append(int(moves[-1].at_ms))
        return max(times)

    async def resign_row(self, row: SessionRow, player: str, by: str | None, resigned: set[str]) -> Update:
        """:meth:`resign` on the running session ``row`` (under the channel's lock); ``resigned``: who has left."""
        if player not in row.players:
            raise SessionError(T("You are not playing in this game."))
        if player in resigned:
            if by is None or by == player:
                raise SessionError(T("You have already left this game."))
            raise SessionError(T("{player} has already left this game.", player=player_ref(player)))
        if by is not None and by != player and by in resigned:
            raise SessionError(LEFT_GAME)
        game = game_of(row.game_id)
        state = self.states.state_of(row)
        try:
            outcome = game.resign(state, player)
        except IllegalMove as exc:
            raise SessionError(refusal(exc)) from None
        move = Move(player=player, option=RESIGN, at_ms=self.clock())
        playing = [p for p in row.players if p != player and p not in resigned]
        if outcome is not None and playing and all(p in ai_players(row) for p in playing):
            # no person is left: AI seats do not play on alone; they share the win
            events = [*outcome.events, Event(kind="resign", text=T("{player} resigns: only AI players are left, so the "
                                                                 "game ends.", player=player_ref(player)))]
            ranking = [playing, [player], *([sorted(resigned)] if resigned else [])]
            result = Result(winners=playing, ranking=ranking, scores={},
                            reason=T("{player} resigned; only AI players were left.", player=player_ref(player)))
            return await self.ledger.commit(row, game, move, outcome.state, events, result=result)
        if outcome is not None:
            return await self.ledger.commit(row, game, move, outcome.state, outcome.events)
        result = resign_result(row.players, player)
        events = [Event(kind="resign", text=T("{player} resigns. The game ends.", player=player_ref(player)))]
        return await self.ledger.commit(row, game, move, state, events, result=result)


class NotIdleYet(SessionError):
    """The refusal of an action on an idle seat (the removal, the AI stand-in) before the seat is idle: ``player``,
    the game's idle limit ``limit_ms`` (its pace's deadline, or the channel's /settings) and when the seat becomes
    idle, ``due_ms`` (ms, the service clock). ``str(exc)`` says when as a wait from ``now_ms`` ("in 12 min");
    an adapter with its own way to show a moment says :meth:`when` (Discord: a ``<t:…:R>`` timestamp)."""

    def __init__(self, player: str, limit_ms: int, due_ms: int, now_ms: int) -> None:
        self.player, self.limit_ms, self.due_ms = player, limit_ms, due_ms
        super().__init__(self.when(T("in {wait}", wait=duration(due_ms - now_ms))))

    def when(self, moment: str) -> str:
        """The refusal with ``moment`` (when the seat becomes idle) in it (a :class:`games.core.Text`)."""
        return T("{player} is not idle yet: this game's idle limit is {limit}; they become idle {when}.",
                 player=player_ref(self.player), limit=duration(self.limit_ms), when=moment)


def duration(ms: int) -> str:
    """``ms`` for people (a :class:`games.core.Text`), as :func:`bot.results.duration_text` words it: under a day
    rounded up to the second or minute (``40 s``, ``12 min``, ``3 h 20 min``; never ``0 s``), from a day in days
    and hours (``3 d``, ``1 d 12 h``)."""
    s = max(1, -(-ms // 1000))
    return duration_text(1000 * (s if s < 60 else -(-s // 60) * 60))


__all__ = ["NotIdleYet", "Resignations", "duration", "resign_result"]
