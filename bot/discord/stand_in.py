"""The AI stand-in at the Discord table (:mod:`bot.service.stand_in`): its buttons and its notices.

- The AFK notice (:meth:`bot.discord.admin.Admin.on_afk_timer_complete`) offers "🤖 The AI plays for X" first (the
  default) beside "Remove X": any other seated player still playing, or a moderator, chooses.
- A departed member still gone when the grace ends (:mod:`bot.discord.departures`): the AI plays their seat at once
  (the default), and the board says so; the others may still remove them with the board's "Remove X".
- Every board of a game with a stand-in marks the seat ("X · AI stand-in", :mod:`bot.board_text`) and carries
  "I'm back" for its owner (and "Remove X" for the others), :func:`bot.discord.present.seat_buttons`.

Every press is checked by the service (a forged id, a non-player, another player's "I'm back": an ephemeral
refusal, nothing changed).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.service.resignations import NotIdleYet
from bot.sessions import SessionError, Update
from games.core import T

from .notify import stamp

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)


class StandIn:
    """The stand-in's presses and its departure hook (``bot.stand_in``)."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot

    async def press(self, interaction: discord.Interaction, sid: int, ver: int, seat: int, action: str) -> None:
        """A :class:`SeatButton`: ``ai`` (take over the idle seat of board ``ver``), ``back`` or ``out``. A
        refusal is ephemeral and changes nothing."""
        service = self.bot.service
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        moderator = self.bot.is_moderator(interaction)
        try:
            if action == "ai":
                update = await service.stand_ins.take_over(channel, sid, ver, seat, user,
                                                           await self.bot.notify.idle_limit_ms(sid), moderator)
            elif action == "back":
                update = await service.stand_ins.take_back(channel, sid, seat, user)
            else:
                update = await service.stand_ins.remove(channel, sid, seat, user, moderator)
            await self.bot.table.send_board(update, interaction)
        except NotIdleYet as exc:  # when the seat becomes idle, as a Discord timestamp
            await self.bot.answers.refuse(interaction, exc.when(stamp(exc.due_ms, "R")))
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("stand-in press %s failed (session %s)", action, sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; nothing changed."))

    async def departed(self, session_id: int, player: str) -> Update | None:
        """The departure grace of ``player`` ended and they are still gone: the AI plays for them (posted, with the
        board's "Remove X" for the others). None when nothing changed."""
        update = await self.bot.service.stand_ins.take_over_departed(session_id, player)
        if update is not None:
            await self.bot.table.post(update)
        return update


__all__ = ["StandIn"]
