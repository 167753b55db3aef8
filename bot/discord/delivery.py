"""Posts made outside an interaction, never silent.

Race results, reminders, AFK notices, boards of timers and departures are posted to a channel with no interaction to
answer. When Discord refuses such a post (403 Missing Permissions / Missing Access, 5xx), it is tried again in the
background with backoff (:data:`ATTEMPTS` tries, :data:`WAIT` between them: a few tries over tens of seconds; the
event loop and the other channels never wait on it). If every try fails:

- ONE log record (WARNING) per session names it, with the session id — not one per try;
- the next interaction in that channel that the bot answers (a press, a command) gets one ephemeral line naming what
  could not be posted and the permissions the bot lacks there (:data:`bot.discord.permissions.NEEDED`, read from
  the interaction's ``app_permissions``), or Discord's error when no permission is missing;
- a board that could not be posted (``board=True``) is instead shown by that interaction's answer, publicly, with
  one line on what is missing (:meth:`Delivery.boards`, :meth:`Delivery.cannot_post`; ``Answers.missed``).

Board edits and the boards that catch up after a failed answer to an interaction go through :meth:`Delivery.post`
too (``bot.discord.table``).

Both memories are bounded (:data:`MAX_KEYS` sessions and channels, the oldest forgotten first) and a session's
entries are dropped when it ends (:meth:`Delivery.forget`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    RetryError,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from bot import metrics
from bot.i18n import reader_lang, say
from games.core import T, Text

from . import permissions

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

ATTEMPTS = 3
"""Tries of a post outside an interaction (the first included)."""
WAIT = wait_exponential_jitter(multiplier=5, exp_base=3, max=30, jitter=2)
"""Waits between tries (tenacity): about 5 s, then 15 s — the post gives up some 20-25 s after its first try."""
MAX_KEYS = 4096
"""Sessions (logged once) and channels (notices waiting) remembered at the most."""
POST_NEEDS = ("view_channel", "send_messages", "read_message_history")
"""Permissions a post in a channel needs (plus Send Messages in Threads in a thread, Attach Files for an image)."""


@dataclass
class Undelivered:
    """A post that could not be made: what it was (in words), its session, the permissions it needs
    (``discord.Permissions`` flag names) and Discord's answer to the last try."""

    what: str
    session_id: int | None
    needs: tuple[str, ...]
    error: str
    board: bool = False
    """A board of the session (shown by the channel's next interaction instead of a line about it)."""


def retryable(exc: BaseException) -> bool:
    """Discord refused or failed (403, 5xx, 429 beyond discord.py's own waits) or could not be reached (a network
    error, a timeout): worth another try. A 404 (the channel or message is gone) is not: :mod:`.places` abandons
    games whose place is gone."""
    if isinstance(exc, discord.HTTPException):
        return not isinstance(exc, discord.NotFound)
    return isinstance(exc, OSError | aiohttp.ClientError)


def describe(exc: BaseException) -> str:
    """Discord's answer in a few words ("403 Missing Access")."""
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.text or type(exc).__name__}".strip()
    return type(exc).__name__


CANNOT_POST = "⚠️ I can't post in this channel: I need {lacking}. A moderator can grant {it}; until then boards " \
              "come as answers to your presses and commands."
"""The line under a missed board shown by an interaction's answer (``lacking``: the permissions, "Send
Messages"), in English; :func:`cannot_post_text` says it in any language."""


def cannot_post_text(lacking: list) -> Text:
    """:data:`CANNOT_POST` for the permissions ``lacking`` (texts of :data:`bot.discord.permissions.LABELS`)."""
    return T("⚠️ I can't post in this channel: I need {lacking}. A moderator can grant {it}; until then boards "
             "come as answers to your presses and commands.", lacking=Text.join(T(", "), lacking),
             it=T("it") if len(lacking) == 1 else T("them"))


class Delivery:
    """Retries of posts outside an interaction, and the notices of those that failed (see the module)."""

    retryable = staticmethod(retryable)
    describe = staticmethod(describe)

    def __init__(self, bot: PlayBot, attempts: int = ATTEMPTS, wait: Any = WAIT) -> None:
        self.bot = bot
        self.attempts = attempts
        self.wait = wait  # tests: tenacity.wait_none()
        self._logged: OrderedDict[int | str, None] = OrderedDict()
        self._notices: OrderedDict[str, dict[str, Undelivered]] = OrderedDict()

    # -- posting ------------------------------------------------------------------------------------------------
    def needs(self, channel_id: str) -> tuple[str, ...]:
        """The permissions a post in ``channel_id`` needs (Send Messages in Threads too in a thread)."""
        channel = self.bot.get_channel(int(channel_id)) if channel_id.isdigit() else None
        return (*POST_NEEDS, "send_messages_in_threads") if isinstance(channel, discord.Thread) else POST_NEEDS

    async def send(self, post: Callable[[], Awaitable[Any]], *, what: str, channel_id: str,
                   session_id: int | None, needs: tuple[str, ...] | None = None, board: bool = False) -> bool:
        """Try ``post()`` once now; when Discord refuses it (:func:`retryable`), try again in the background
        (:meth:`later`) and return False. Other errors are raised. ``board``: ``what`` is a board (see
        :meth:`boards`)."""
        try:
            await post()
            return True
        except Exception as exc:
            if not retryable(exc):
                raise
            log.debug("post of %s in channel %s failed (try 1): %s", what, channel_id, describe(exc))
            self.later(post, what=what, channel_id=channel_id, session_id=session_id,
                       needs=needs or self.needs(channel_id), tried=True, board=board)
            return False

    async def insist(self, post: Callable[[], Awaitable[Any]], *, what: str, channel_id: str) -> None:
        """Call ``post()`` until it succeeds, at most :attr:`attempts` times with :attr:`wait` between tries, in the
        caller's own task (a deferred interaction waiting on it: a thread's lobby card). Raises the last error."""
        async for attempt in AsyncRetrying(stop=stop_after_attempt(self.attempts), wait=self.wait,
                                           retry=retry_if_exception(retryable), reraise=True):
            with attempt:
                if attempt.retry_state.attempt_number > 1:
                    log.debug("post of %s in channel %s: try %d", what, channel_id,
                              attempt.retry_state.attempt_number)
                await post()

    def later(self, post: Callable[[], Awaitable[Any]], *, what: str, channel_id: str, session_id: int | None,
              needs: tuple[str, ...] = POST_NEEDS, tried: bool = False, board: bool = False) -> None:
        """Post in the background through :meth:`post` (``tried``: the first try was made already and failed)."""
        self.bot.spawn(self.post(post, what=what, channel_id=channel_id, session_id=session_id, needs=needs,
                                 tried=tried, board=board), f"post {what!s} (session {session_id})")  # a task's name, for logs

    async def post(self, post: Callable[[], Awaitable[Any]], *, what: str, channel_id: str,
                   session_id: int | None, needs: tuple[str, ...] = POST_NEEDS, tried: bool = False,
                   notify: bool = True, board: bool = False) -> bool:
        """Call ``post()`` until it succeeds, at most :attr:`attempts` times (one fewer when ``tried``), waiting
        :attr:`wait` between tries; a non-retryable error (404, a bug) ends it at once and is logged. Returns
        whether it was posted. Never raises (but for cancellation). When every try failed: :meth:`failed`
        (``notify``), else one log line at INFO."""
        attempts = max(1, self.attempts - (1 if tried else 0))
        retrying = AsyncRetrying(stop=stop_after_attempt(attempts), wait=self.wait,
                                 retry=retry_if_exception(retryable), reraise=False,
                                 before_sleep=lambda s: log.debug("post of %s in channel %s failed (try %d): %s",
                                                                  what, channel_id, s.attempt_number,
                                                                  s.outcome and s.outcome.exception()))
        if tried:  # the wait after the first try, made by the caller
            await asyncio.sleep(self.wait(RetryCallState(retrying, None, (), {})))
        try:
            async for attempt in retrying:
                with attempt:
                    await post()
            return True
        except RetryError as exc:
            if notify:
                self.failed(what, channel_id, session_id, needs, exc.last_attempt.exception(), board=board)
            else:
                log.info("%s not made in channel %s (session %s): %s", what, channel_id, session_id,
                         describe(exc.last_attempt.exception()))
        except discord.NotFound as exc:
            log.info("%s not posted in channel %s (session %s): %s", what, channel_id, session_id, describe(exc))
        except Exception:
            log.exception("posting %s in channel %s failed (session %s)", what, channel_id, session_id)
        return False

    # -- failures -----------------------------------------------------------------------------------------------
    def failed(self, what: str, channel_id: str, session_id: int | None, needs: tuple[str, ...],
               exc: BaseException | None, *, board: bool = False) -> None:
        """Every try of ``what`` failed: log it (once per session) and keep a notice for the channel's next
        interaction."""
        metrics.FAILED_POSTS.inc()
        error = describe(exc) if exc is not None else "no answer"
        key: int | str = session_id if session_id is not None else f"channel {channel_id}"
        if key not in self._logged:
            self._remember(self._logged, key, None)
            log.warning("could not post %s in channel %s (session %s) after %d tries: %s", what, channel_id,
                        session_id, self.attempts, error)
        notices = self._notices.get(channel_id) or {}
        notices[what] = Undelivered(what, session_id, needs, error, board)
        self._remember(self._notices, channel_id, notices)

    @staticmethod
    def _remember(table: OrderedDict, key: Any, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > MAX_KEYS:
            table.popitem(last=False)

    def pending(self, channel_id: str) -> list[Undelivered]:
        """The notices waiting for ``channel_id``'s next interaction."""
        return list((self._notices.get(channel_id) or {}).values())

    def has_boards(self, channel_id: str) -> bool:
        """Whether a board of ``channel_id`` could not be posted (see :meth:`boards`)."""
        return any(n.board for n in (self._notices.get(channel_id) or {}).values())

    def boards(self, channel_id: str) -> list[Undelivered]:
        """Take the boards of ``channel_id`` that could not be posted (the caller shows the current board instead);
        the other notices stay for :meth:`surface`."""
        notices = self._notices.get(channel_id)
        if not notices:
            return []
        boards = [n for n in notices.values() if n.board]
        if boards:
            rest = {k: n for k, n in notices.items() if not n.board}
            if rest:
                self._notices[channel_id] = rest
            else:
                self._notices.pop(channel_id)
        return boards

    def cannot_post(self, notices: list[Undelivered], granted: discord.Permissions | None) -> str:
        """The one line under a missed board: the permissions ``granted`` lacks (:data:`CANNOT_POST`), or
        Discord's answer when none is missing."""
        needs = tuple(dict.fromkeys(p for n in notices for p in n.needs))
        lacking = permissions.missing(granted, needs) if granted is not None else []
        if lacking:
            return say(cannot_post_text(lacking))
        return say(T("⚠️ I could not post this board in the channel (Discord answered {error}).",
                     error=str(notices[-1].error)))

    def notice(self, notices: list[Undelivered], granted: discord.Permissions | None) -> str:
        """The ephemeral line: what could not be posted, and the permissions ``granted`` lacks (or the error)."""
        whats = Text.join(T(", "), [n.what for n in notices[:3]])
        if len(notices) > 3:
            whats = T("{whats} and {n} more", whats=whats, n=len(notices) - 3)
        needs = tuple(dict.fromkeys(p for n in notices for p in n.needs))
        lacking = permissions.missing(granted, needs) if granted is not None else []
        lang = reader_lang()  # an ephemeral line
        if lacking:
            return say(T("⚠️ I could not post {whats} in this channel: I am missing {lacking} here. Ask a moderator to "
                         "grant {it} to me; /board shows where the game stands.", whats=whats,
                         lacking=Text.join(T(", "), lacking), it=T("it") if len(lacking) == 1 else T("them")), lang)
        return say(T("⚠️ I could not post {whats} in this channel (Discord answered {error}). /board shows where the "
                     "game stands.", whats=whats, error=str(notices[-1].error)), lang)

    async def surface(self, interaction: discord.Interaction | None) -> None:
        """After ``interaction`` was answered: its channel's waiting notices, as one ephemeral follow-up (once)."""
        if interaction is None or interaction.channel_id is None:
            return
        channel = str(interaction.channel_id)
        notices = self._notices.pop(channel, None)
        if not notices:
            return
        text = self.notice(list(notices.values()), getattr(interaction, "app_permissions", None))
        try:
            await interaction.followup.send(text[:2000], ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("notice of failed posts in channel %s not shown: %s", channel, describe(exc))

    def forget(self, session_id: int, channel_id: str | None = None) -> None:
        """A session ended: drop what is remembered of it (its notices stay for the channel's next interaction)."""
        self._logged.pop(session_id, None)


__all__ = ["ATTEMPTS", "CANNOT_POST", "POST_NEEDS", "Delivery", "Undelivered"]
