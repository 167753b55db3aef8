"""A live table's presence (Tatamokatsu's races, ``Game.held_by``): a decision that waits for players marked missing
is refused to a person while any of them is a person (AI seats and seats the AI stand-in plays never hold a table),
and an AI seat's roll waits the same way (:mod:`bot.service.ai_turns` plans no move for a held decision), so no race
opens while a seated person is marked missing. A missing player says "I'm here" with one press (the engine's
``here`` input, logged like any move, so a replay re-derives every mark). While a decision is held, the wait is the
missing people's (:func:`waited_on`): their reminders and move deadline, then the AFK notice offering the others the
AI stand-in or the removal, as for any idle player. The rules of a race are the engine's
(``TatamokatsuOptions.presence``)."""

from __future__ import annotations

from games import Decision, player_ref
from games.core import BaseState, T, Text

from ..refusals import NOT_SEATED, SessionError
from ..store import SessionRow
from .board import Locks, Rows, States, Update, game_of
from .stand_in import ai_players

HERE = "here"
"""The engine's input of a player marked missing who is at the table again (``games.tatamokatsu``)."""


def held_people(row: SessionRow, state: BaseState | None, pending: list[Decision]) -> list[str]:
    """The people (neither AI seats nor stood in for) the pending decisions of ``row`` wait for
    (``Game.held_by``), in seat order, each once."""
    if state is None:
        return []
    game = game_of(row.game_id)
    played = ai_players(row)
    held = [p for d in pending for p in game.held_by(state, d) if p not in played]
    return list(dict.fromkeys(held))


def waited_on(row: SessionRow, state: BaseState | None, pending: list[Decision]) -> list[str]:
    """The people the game waits on now, in order, each once: the missing people that hold its decisions
    (:func:`held_people`) when any do, else the people the decisions name (neither AI seats nor stood in for)."""
    held = held_people(row, state, pending)
    if held:
        return held
    played = ai_players(row)
    return [p for p in dict.fromkeys(d.player for d in pending if d.player) if p not in played]


def check_held(row: SessionRow, state: BaseState, pending: list[Decision], player: str | None) -> None:
    """:class:`SessionError` when ``player`` answers a decision of theirs that waits for missing people (other
    than ``player``: their own input ends their mark)."""
    if player is None:
        return
    game = game_of(row.game_id)
    played = ai_players(row)
    for d in pending:
        if d.player != player:
            continue
        waiting = [p for p in game.held_by(state, d) if p != player and p not in played]
        if waiting:
            raise SessionError(T("Waiting for {players}: they missed the last race. They were pinged; this opens as "
                                 "soon as they answer or press “I'm here”.",
                                 players=Text.join(T(", "), [player_ref(p) for p in waiting])))


class Presence:
    """"I'm here" over the channel ``locks``, the running ``rows``, the parsed ``states`` and the ``ledger``'s
    ``apply`` (one move, one transaction)."""

    def __init__(self, locks: Locks, rows: Rows, states: States, apply) -> None:
        self.lock = locks
        self.rows = rows
        self.states = states
        self.apply = apply

    async def here(self, channel_id: str, session_id: int, player: str) -> Update:
        """``player`` of the running session ``session_id`` is at the table again (the engine's ``here``).
        Refused (nothing stored): another channel's or an ended game, someone not seated, a player not marked
        missing (the engine's words)."""
        async with self.lock(channel_id):
            row = await self.rows.on_board(channel_id, session_id)
            if player not in row.players:
                raise SessionError(NOT_SEATED)
            return await self.apply(row, self.states.state_of(row), player, HERE, None)


__all__ = ["HERE", "Presence", "check_held", "held_people", "waited_on"]
