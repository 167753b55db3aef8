"""``run(settings) -> int``: the entry point of ``python -m bot run`` (wired by ``bot/__main__.py``).

Exit codes: 0 clean stop, 2 no token, 3 token rejected by Discord (``LoginFailure``, at once), 4 privileged intents
refused even without Message Content, 5 the store cannot be used (cannot be opened, migrated or checked at start —
before Discord is contacted — or its file was deleted or replaced while running), 6 the HTTP listener cannot start
(``HTTP_PORT`` in use, ``HTTP_HOST`` not resolvable), 1 anything else. Every start-up failure ends the process within
seconds with one line on stderr, the store closed.

SIGTERM and SIGINT (Ctrl-C) stop the bot cleanly (:class:`Stop`): exit 0, no traceback.

Message Content is optional: refused, the bot starts again without it (typed race words off, said in the log and in
``/help``). Discord unreachable at start (DNS, TLS, refused connections, 5xx) is retried with backoff, one warning
line per failed try (:class:`StartTries`: also the 5xx answers discord.py itself tries again) and no HTTP session
left open. The exit codes are decided in one place (:func:`exit_code`). The token and every interaction or webhook
token are never logged: a filter masks them in every log record, at every level.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import sys

import aiohttp
import discord
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, wait_exponential_jitter

from bot import event_loop, health, heavy, metrics, workers
from bot.ai_seats import AiSettings, search_pool
from bot.config import Settings, load_settings
from bot.store import Store, StoreError

from . import sync as command_sync
from .bot import PlayBot, make_bot
from .images import Images

log = logging.getLogger("bot.discord")

NO_MESSAGE_CONTENT = (
    "The Message Content intent is not enabled for this bot: starting without it. Typed race words (\"hai!\") are "
    "off; buttons and reactions work. To turn them on: Discord developer portal -> your application -> Bot -> "
    "Privileged Gateway Intents -> Message Content, then restart the bot."
)


class Redact(logging.Filter):
    """Masks ``secret`` (the bot token) and every interaction or webhook token (``/interactions/<id>/<token>``,
    ``/webhooks/<id>/<token>``: each lets anyone answer as the bot) wherever they would appear in a log line, at
    every level (discord.py logs request URLs at DEBUG)."""

    URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+")

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = self.URL_TOKEN.sub(r"\1[token]", message)
        if self.secret:
            masked = masked.replace(self.secret, "[token]")
        if masked != message:
            record.msg = masked
            record.args = ()
        return True


class QuietVoice(logging.Filter):
    """Drops discord.py's "voice will NOT be supported" warnings: the bot uses no voice (PyNaCl, davey)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


UNREACHABLE = (aiohttp.ClientConnectionError, asyncio.TimeoutError, discord.DiscordServerError, OSError)
"""Failures that mean Discord cannot be reached now (DNS, TLS, refused connections, 5xx): retried with backoff."""

RETRY_MAX_S = 300
"""The longest wait between two tries to reach Discord (s); the waits double from 1 s with jitter."""

SLEEP = asyncio.sleep
"""How the retries wait (tests replace it)."""


def _describe(exc: BaseException | None) -> str:
    if isinstance(exc, discord.HTTPException) and getattr(exc.response, "status", None):
        return f"{type(exc).__name__}: {exc.response.status} {exc.response.reason}"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})
"""The statuses discord.py's ``HTTPClient.request`` itself tries again (5 tries, waiting 1 + 2 * try s) before it
raises ``DiscordServerError``."""
DISCORD_PY_TRIES = 5


class StartTries:
    """One warning line per failed try to reach Discord at start, whoever tries again: discord.py by itself after a
    500/502/504/524 answer (seen through an aiohttp trace, :data:`RETRIED_BY_DISCORD_PY`), or :func:`login`'s
    backoff after any failure in :data:`UNREACHABLE` (tenacity). The tries are numbered from 1 across both."""

    def __init__(self) -> None:
        self.failed = 0
        self.in_a_row = 0  # 5xx answers discord.py got in this login try (it raises after the 5th)
        self.active = True

    def watch(self, bot: PlayBot) -> None:
        """Follow ``bot``'s HTTP answers (the trace is added before the first try makes the HTTP session)."""
        trace = bot.http.http_trace or aiohttp.TraceConfig()
        try:
            trace.on_request_end.append(self._answered)
        except RuntimeError:  # a trace an earlier HTTP session froze: only the backoff's lines then
            return
        bot.http.http_trace = trace

    async def _answered(self, session, context, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        if not self.active or status not in RETRIED_BY_DISCORD_PY:
            return
        self.in_a_row += 1
        if self.in_a_row >= DISCORD_PY_TRIES:  # discord.py gives up: the backoff's line (:meth:`backoff`) says it
            return
        self.failed += 1
        log.warning("Discord is unreachable (DiscordServerError: %d %s); trying again in %d s (try %d)", status,
                    params.response.reason, 1 + 2 * (self.in_a_row - 1), self.failed)

    def backoff(self, state: RetryCallState) -> None:
        """tenacity's ``before_sleep``: the line of a failed :func:`login` try."""
        exc = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0
        self.failed += 1
        self.in_a_row = 0
        log.warning("Discord is unreachable (%s); trying again in %.0f s (try %d)", _describe(exc), wait,
                    self.failed)


async def login(bot: PlayBot, token: str) -> None:
    """``bot.login(token)``, retried with exponential backoff while Discord is unreachable (:data:`UNREACHABLE`),
    one warning line per try (:class:`StartTries`) and no traceback; a rejected token (``LoginFailure``) is raised
    at once. The HTTP session of a failed try is closed before the next (no "Unclosed client session")."""
    tries = StartTries()
    tries.watch(bot)
    try:
        async for attempt in AsyncRetrying(
            retry=retry_if_exception_type(UNREACHABLE),
            wait=wait_exponential_jitter(initial=1, max=RETRY_MAX_S),
            before_sleep=tries.backoff,
            sleep=lambda s: SLEEP(s),
            reraise=True,
        ):
            with attempt:
                try:
                    await bot.login(token)
                except BaseException:
                    await bot.http.close()  # this try's session and connector; the next try makes new ones
                    bot.http.connector = discord.utils.MISSING
                    raise
    finally:
        tries.active = False


NO_TOKEN = "DISCORD_TOKEN is not set: put it in the environment or in .env (see .env.example)."


def _fail(line: str, code: int) -> int:
    print(line, file=sys.stderr)
    return code


def exit_code(main, lost: list[StoreError] | None = None, *, refused: str | None = None,
              loop: str = "uvloop") -> int:
    """``main()`` run on the event loop ``loop`` (:func:`bot.event_loop.run`: uvloop where installed, else
    asyncio's) and the process exit code of the module docstring, each failure said in one line on
    stderr: 5 a :class:`StoreError` (raised, or the first of ``lost``: the store failed while running), 6 the HTTP
    listener cannot start (:class:`bot.health.ListenerError`), 3 the token
    rejected, 4 the privileged intents refused, 1 a refused request when ``refused`` names what was asked (``"the
    commands"``), else 1 any error (logged with its traceback), 0 a clean end or a Ctrl-C before the loop's signal
    handlers were installed."""
    try:
        event_loop.run(main(), loop)
        if lost:
            raise lost[0]
    except StoreError as exc:
        return _fail(f"The store cannot be used: {exc}.", 5)
    except health.ListenerError as exc:
        return _fail(str(exc), 6)
    except discord.LoginFailure:
        return _fail("Discord rejected the token (LoginFailure): check DISCORD_TOKEN in the environment or .env.", 3)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the bot's gateway intents (PrivilegedIntentsRequired) even without Message "
                     "Content: check the Privileged Gateway Intents in the developer portal (Bot tab).", 4)
    except discord.HTTPException as exc:
        if refused is None:
            log.exception("the bot stopped with an error")
            return 1
        return _fail(f"Discord refused {refused}: {exc.status} {exc.text or exc}", 1)
    except KeyboardInterrupt:  # a Ctrl-C before the loop's handlers were installed
        return 0
    except Exception:
        log.exception("the bot stopped with an error")
        return 1
    return 0


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that stop the bot cleanly (a supervisor's stop, Ctrl-C)."""


def stop_workers(ai_pool: workers.Pool | None) -> None:
    """Stop the AI search pool and the drawing workers (:data:`bot.heavy.WORKERS`) within
    :data:`bot.workers.STOP_GRACE_S` each (:meth:`bot.workers.Pool.stop`); blocking (run off the event loop). A
    search ended so makes no move (the AI seat's timer fires again at the next start); a drawing ended so posts
    no image."""
    if ai_pool is not None:
        ai_pool.stop()
    for lane in heavy.WORKERS.values():
        lane.stop()


def run(settings: Settings | None = None) -> int:
    """Run the bot until stopped; returns the process exit code (see the module docstring)."""
    settings = settings or load_settings()
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not logging.getLogger().handlers:  # ``python -m bot run`` configures logging already
        discord.utils.setup_logging(level=getattr(logging, str(settings.log_level).upper(), logging.INFO), root=True)
    redact = Redact(token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    if not token:
        return _fail(NO_TOKEN, 2)

    lost: list[StoreError] = []
    for handler in logging.getLogger().handlers:
        handler.addFilter(QuietVoice())
    logging.getLogger("discord.client").addFilter(QuietVoice())
    metrics.watch_rate_limits()
    metrics.watch_errors()
    stop = Stop()

    async def serve(store: Store, message_content: bool) -> None:
        # boards render in worker processes at a lower priority: replies first on a busy machine; AI seats search
        # in worker processes too, when AI_PROCESSES is on
        pool = search_pool() if settings.ai_processes else None
        try:
            await serve_with(store, message_content, AiSettings(executor=pool))
        finally:  # the workers exit before the store closes (nothing leaks), a search in flight is ended
            await asyncio.to_thread(stop_workers, pool)

    async def serve_with(store: Store, message_content: bool, ai: AiSettings) -> None:
        images = Images(processes=True)
        async with make_bot(settings, store, ai=ai, sync=settings.syncs_commands(),
                            images=images, message_content=message_content) as bot:
            metrics.watch_pools(images=images, ai=ai)

            def failed(exc: StoreError) -> None:
                lost.append(exc)
                log.critical("%s", exc)
                asyncio.get_running_loop().create_task(bot.close())

            store.on_failure = failed
            stop.bot = bot
            if stop.requested:
                return
            if not await stop.unless_stopped(login(bot, token)):
                return
            await bot.connect(reconnect=True)

    async def main() -> None:
        stop.install()
        store = await Store.open(settings.database())  # first: a bad store fails in seconds, not after login
        try:
            store.lease_ms = settings.timer_lease_ms
            log.info("store: %s; shards %s of %d; event loop %s", store.backend, settings.shard_ids or "all",
                     settings.shard_count, event_loop.describe(settings.event_loop))
            server = await health.start(settings, store, stop) if settings.http_port else None
            try:
                try:
                    await serve(store, message_content=True)
                except discord.PrivilegedIntentsRequired:
                    log.warning(NO_MESSAGE_CONTENT)
                    await serve(store, message_content=False)
            finally:
                if server is not None:
                    await server.cleanup()
        finally:  # on every path: the store's thread would keep the process alive
            await store.close()
            if stop.requested:
                log.info("stopped cleanly (%s)", stop.requested)

    return exit_code(main, lost, loop=settings.event_loop)


class Stop:
    """SIGTERM and SIGINT, caught on the event loop: the first closes the bot (:meth:`PlayBot.close`: the gateway
    first, the moves in flight finish, then the workers and the store) and the run returns 0; a second one while
    stopping is only logged. :attr:`requested` names the signal once one came."""

    def __init__(self) -> None:
        self.bot: PlayBot | None = None
        self.requested: str | None = None
        self._event: asyncio.Event | None = None

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        for sig in STOP_SIGNALS:
            try:
                loop.add_signal_handler(sig, self.signal, sig)
            except (NotImplementedError, RuntimeError):  # not the main thread (tests), or Windows
                pass

    def signal(self, sig: signal.Signals) -> None:
        if self.requested:
            log.warning("%s: already stopping", sig.name)
            return
        self.requested = sig.name
        log.info("%s: stopping (gateway closed, moves in flight finish, then the workers and the store)", sig.name)
        if self._event is not None:
            self._event.set()
        if self.bot is not None:
            asyncio.get_running_loop().create_task(self.bot.close())

    async def unless_stopped(self, work) -> bool:
        """Run the coroutine ``work`` unless a stop comes first (then it is cancelled); True when it ran to the end."""
        task = asyncio.ensure_future(work)
        waiter = asyncio.ensure_future(self._event.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            return False
        task.result()
        return True


def sync_commands(settings: Settings, *, guild_id: int | None = None, clear_guild: int | None = None,
                  print_only: bool = False) -> int:
    """``python -m bot sync-commands``: sync the slash commands now (globally, or a copy to ``guild_id``), remove
    those of ``clear_guild``, or (``print_only``) print the JSON payloads without contacting Discord. Records the
    synced tree's hash in the store (the bot's start then skips an unchanged tree). Exit codes as :func:`run`."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not print_only and not token:
        return _fail(NO_TOKEN, 2)
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact(token))

    async def main() -> None:
        store = await Store.open(":memory:" if print_only else settings.database())
        bot = make_bot(settings, store, sync=False)
        try:
            await bot.prepare(start=False)
            if print_only:
                if guild_id is not None:
                    bot.tree.copy_global_to(guild=discord.Object(id=guild_id))
                print(json.dumps(await command_sync.payloads(bot.tree, guild_id), indent=2, ensure_ascii=False))
                return
            await login(bot, token)
            if clear_guild is not None:
                await command_sync.clear(bot.tree, store, clear_guild)
                print(f"removed the slash commands of guild {clear_guild}")
            else:
                count = await command_sync.sync(bot.tree, store, guild_id)
                print(f"synced {count} commands to guild {guild_id}" if guild_id is not None else
                      f"synced {count} global commands (they can take up to an hour to appear everywhere)")
        finally:
            await bot.close()
            await store.close()

    return exit_code(main, refused="the commands", loop=settings.event_loop)
