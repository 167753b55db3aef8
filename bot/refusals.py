"""Refusals: the errors a service verb raises and the wordings every adapter shows (Discord, the sandbox and the
transcripts meet the same texts). ``str(exc)`` of a :class:`SessionError` is what a person reads."""

from __future__ import annotations

from collections.abc import Iterable

from games import Decision, player_ref
from games.core import T, Text


class SessionError(Exception):
    """A refused request. ``str(exc)`` says what is wrong and what to do instead; nothing was stored. Raised with a
    :class:`games.core.Text`, ``str(exc)`` is that text (its message id kept: the adapter says it in the reader's
    language). A value quoted in the text (what a player typed: a game, an option) is cut to at most
    :data:`games.core.QUOTE_LIMIT` characters (:meth:`games.core.Text.clipped`), so the reason stays readable."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], Text):
            args = (args[0].clipped(), *args[1:])
        super().__init__(*args)

    def __str__(self) -> str:
        first = self.args[0] if self.args else ""
        return first if isinstance(first, str) else super().__str__()


class StaleBoard(SessionError):
    """A move answered an older version of the board than the stored one."""


class UndoOutOfDate(SessionError):
    """An undo vote on a request that no longer stands (a move was made, or the request was refused)."""


NOT_SEATED = T("You are not playing in this game. Wait for the next one, or /play in another channel.")
"""The refusal of a move, a press or an undo vote by someone who is not seated."""
STALE_TEXT = T("This board is out of date — here is the current one.")
"""The refusal of a press or move on a board that is no longer the current one (:class:`StaleBoard`)."""
NOT_THIS_CHANNEL = T("This button does not belong to a game in this channel.")
NOT_STARTED = T("The game has not started yet: the host can /start it.")
GAME_OVER = T("This game is over. Start a new one with /play.")
UNDO_OUT_OF_DATE = T("This undo request is out of date: the game moved on.")
LEFT_GAME = T("You have left this game: you can no longer act in it.")
"""The refusal of anything a player who resigned or was removed tries in that game (a move, a press, a vote, a
removal)."""
IDLE_PLAYED = T("They have played since: nothing to do.")
"""The refusal of "remove the idle player" on a notice of an older board version."""
IDLE_WHO = T("Only the other players, the host or a moderator can remove an idle player.")


def not_your_turn(decisions: Iterable[Decision]) -> str:
    """The one refusal of a move, press or typed input by a seated player while others decide: ``It is not your
    turn: waiting for {@p}.`` (the wording of ``Game.find_decision``)."""
    waiting = Text.join(T(", "), [player_ref(p) for p in dict.fromkeys(d.player for d in decisions if d.player)])
    return T("It is not your turn: waiting for {waiting}.", waiting=waiting)
