"""A member's data deleted on request, and old finished games pruned (``PRIVACY.md``; Discord's Developer Policy
asks an app to publish what it keeps and to delete a user's data on request).

- :func:`forget_member` — the rule: every live game of the member first resigns them (the session service's
  ``resign`` verb, so the table gets the usual resignation line) or, in a lobby, they leave it; then the store forgets
  them (:meth:`bot.store.Store.forget_user`, one transaction: every place it looks is listed there).
- :func:`prune_records` — finished and abandoned games older than ``RECORDS_DAYS`` days are deleted (0 = kept for
  ever).
- :data:`forget_user_command` — ``python -m bot forget-user USER_ID``.
- :data:`PRIVACY_TEXT` — what ``/privacy`` answers.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import click

from games.core import N, T, Text

from .service.privacy import DAY_MS, prune_records
from .sessions import SessionError, SessionService, Update
from .store import Store, StoreError
from .store.privacy import Forgotten

log = logging.getLogger(__name__)

MAX_RECORDS_DAYS = 36_500
"""The largest ``RECORDS_DAYS`` (100 years)."""

PRIVACY_TEXT = T("""\
**What this bot stores about you**, and why:
• Your Discord user id and display name in each game you join: to seat you, show the board and record the result.
• Your moves and the games' states: so a game survives restarts and can be replayed (`/replay`).
• Finished games, your seats' ranks and scores, and your rating per game per server: for `/stats` and `/leaderboard`.
• Your preference whether you get turn pings (`/pings`), and timers for reminders about your turn.
Nothing else: no messages are kept (typed race words are read and dropped), no e-mail, no IP address.

**How long**: live games until they end; finished games {keep}; ratings and preferences until you delete them.

**How to delete it**: `/forget-me` deletes your ratings and preferences and removes your id and name from every \
game (your seats stay as "a former player", so the other players' records are unchanged). In a running game you are \
resigned first. The bot's operator can do the same for you (`python -m bot forget-user`); ask them, they are the \
contact for this data.""", keep="{keep}")


def privacy_text(records_days: int) -> str:
    """The ``/privacy`` answer for a deployment keeping finished games ``records_days`` days (0: for ever)."""
    keep = T("for ever (the operator may set a limit)") if not records_days else \
        N("for {n} day, then they are deleted", "for {n} days, then they are deleted", n=records_days)
    return Text(PRIVACY_TEXT.msgid, {"keep": keep})


@dataclass
class Forgetting:
    """What :func:`forget_member` did: the updates of the live games the member was resigned from or left (to post
    to their tables), the games where that was refused (channel id, reason), and what the store removed."""

    updates: list[Update] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    forgotten: Forgotten | None = None

    def lines(self) -> list[str]:
        """What was done, one line each (the CLI prints them)."""
        out = []
        for u in self.updates:
            what = "left the lobby" if u.session.status in ("lobby", "abandoned") and u.state is None else "resigned"
            out.append(f"session {u.session.id} ({u.session.game_id}, channel {u.session.channel_id}): {what}")
        out += [f"channel {ch}: not resigned ({why})" for ch, why in self.refused]
        if self.forgotten is not None:
            out += self.forgotten.lines()
        return out


async def forget_member(service: SessionService, user_id: str) -> Forgetting:
    """Forget member ``user_id`` (a Discord id, or an offline name): resign them from each active game they still
    play (``SessionService.resign``), take them out of each lobby (``leave``), then
    :meth:`bot.store.Store.forget_user` while the channels of those games are locked in this process (no move of
    this process slips in between). A resignation the game refuses is reported in :attr:`Forgetting.refused` and the
    member is forgotten all the same (their seat stays, as a former player). The session service's cache of the
    sessions touched is dropped. Raises :class:`ValueError` for an empty id."""
    user_id = str(user_id).strip()
    if not user_id:
        raise ValueError("no user id given")
    done = Forgetting()
    live = await service.privacy.live_games(user_id)
    for row in live:
        try:
            if row.status == "lobby":
                done.updates.append(await service.leave(row.channel_id, user_id))
            elif user_id not in await service.reads.resigned(row.id):
                done.updates.append(await service.resign(row.channel_id, user_id))
        except SessionError as exc:
            done.refused.append((row.channel_id, str(exc)))
    done.forgotten = await service.privacy.erase(user_id, [row.channel_id for row in live])
    log.info("forgot member %s: %s", user_id, "; ".join(done.lines()))
    return done


@click.command("forget-user")
@click.argument("user_id")
@click.option("--db", default=None, help="The store (default: DATABASE_URL, else DATABASE_PATH).")
def forget_user_command(user_id: str, db: str | None) -> None:
    """Delete or anonymise everything stored about member USER_ID (their Discord user id): a running game resigns
    them first, their seats stay as "a former player", their ratings and preferences are deleted. Prints what was
    removed; exit 2 for an id that is not a Discord user id, 5 when the store cannot be used."""
    from .config import load_settings

    user_id = user_id.strip()
    if not (user_id.isdigit() and 15 <= len(user_id) <= 20):
        click.echo(f"USER_ID must be a Discord user id (15 to 20 digits), not {user_id!r}.", err=True)
        raise SystemExit(2)

    async def main() -> Forgetting:
        store = await Store.open(db or load_settings().database())
        try:
            return await forget_member(SessionService(store), user_id)
        finally:
            await store.close()

    try:
        done = asyncio.run(main())
    except StoreError as exc:
        click.echo(f"The store cannot be used: {exc}.", err=True)
        raise SystemExit(5) from None
    for line in done.lines():
        click.echo(line)
    click.echo(f"forgot {user_id}")


__all__ = ["DAY_MS", "MAX_RECORDS_DAYS", "PRIVACY_TEXT", "Forgetting", "forget_member", "forget_user_command",
           "privacy_text", "prune_records"]
