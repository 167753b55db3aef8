"""The bot: :class:`PlayBot` (a ``commands.Bot``) with its cogs, persistent components and timer dispatcher.

``setup_hook`` (run by ``login``; tests call :meth:`PlayBot.prepare` instead) opens the store when no service was
given, adds the cogs, registers the ``DynamicItem`` templates (buttons keep working after a restart), restores live
sessions and starts the one timer loop; when ``sync=True`` it syncs the slash commands (to ``DEV_GUILD_ID`` when
set, else globally) if they differ from the last synced ones (:mod:`.sync`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands
from discord.ext import commands

import renderers
from bot import i18n, logs, memory, metrics
from bot.ai_seats import AiSettings
from bot.config import Settings
from bot.i18n import refusal
from bot.sessions import SessionError, SessionService
from bot.store import Store
from games.core import T, Text

from . import ids, permissions
from .admin import Admin
from .answers import Answers
from .bookkeeping import Bookkeeper
from .components import DYNAMIC_ITEMS
from .delivery import Delivery
from .departures import Departures
from .images import Images
from .language import enter_interaction
from .lessons import Lessons, LessonSelect
from .links import Links
from .lobby import Lobby
from .mygames import MyGames
from .notify import Notify, StopDmsButton
from .places import Places
from .play import Play, is_moderator
from .prefs import ChannelPrefs
from .privacy import Privacy
from .races import Races
from .results import RematchButton, ReplayButton, Results
from .stand_in import StandIn
from .sync import sync_if_changed
from .table import Table
from .teaching import Teaching
from .timers import Timers
from .translator import CatalogueTranslator, strings_of

log = logging.getLogger(__name__)
_OURS = [re.compile(t) for t in ids.TEMPLATES]
DRAIN_S = 1.0
"""How long a stopping bot waits for the interactions and background work in flight (a move being committed, its
reply) after its gateway closed, before it cancels what is left (s)."""
CANCEL_S = 0.5
"""How long a stopping bot waits for its cancelled background tasks to clean up (s)."""
IN_FLIGHT = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item", "discord.py: on_",
             "pbc-bg:")
"""Name prefixes of the tasks that handle an interaction or event (discord.py's, and :meth:`PlayBot.spawn`'s)."""
IMAGE_WAIT_S = 0.05
"""How long a reply waits for its board image before going out without it (the image is then attached to the
same message by an edit as soon as it is ready)."""

GIL_SWITCH_S = 0.001
"""How long the event loop's thread may keep the GIL while another thread of the process waits for it (Python's
default is 5 ms): the store's thread handing back a committed move and the render pool's threads handing a board to
a worker and its image back each need it for microseconds, and wait no longer than this behind the loop's work."""


def _warm_renderers() -> None:
    try:
        renderers.warm()
    except Exception:  # a renderer that cannot warm still renders (slower) or fails per board, logged there
        log.exception("warming the renderers failed")


def intents(message_content: bool = True, members: bool = False) -> discord.Intents:
    """Guilds, guild messages, guild reactions and, when ``message_content``, the privileged Message Content intent
    (typed race words only: buttons and reactions work without it)."""
    i = discord.Intents.none()
    i.guilds = True
    i.guild_messages = True
    i.guild_reactions = True
    i.message_content = message_content
    i.members = members  # privileged, optional (Settings.members_intent): departures seen at once
    return i


OUTDATED = T("This command changed since your Discord app loaded it. Reload Discord (Ctrl+R, or restart the app) "
             "and try again.")


def outdated_options(interaction: discord.Interaction) -> bool:
    """True when a slash command's payload does not fit the command as this bot defines it (an option of an
    unknown name or another type, a required option missing): a client still using an older registration. Such
    payloads once reached the callbacks with raw values and ended in tracebacks."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return False
    data: Any = interaction.data or {}
    given = {o.get("name"): o.get("type") for o in data.get("options", []) or []}
    params = {p.name: p for p in command.parameters}
    for name, kind in given.items():
        param = params.get(name)
        if param is None or kind != param.type.value:
            return True
    return any(p.required and p.name not in given for p in command.parameters)


_SNOWFLAKE_TYPES = {
    AppCommandOptionType.user: ("users",), AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",), AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}


def shown_name(name: str, place: str, locale: Any) -> str:
    """A parameter's or choice's ``name`` as the client of ``locale`` shows it (its ``commands`` catalogue entry,
    ``place`` a :class:`app_commands.TranslationContextLocation` name: ``"parameter_name"``), else ``name``."""
    lang = i18n.language(locale)
    return name if lang == i18n.SOURCE else i18n.translations(lang).pgettext(place, name)


def malformed_option(interaction: discord.Interaction) -> Text | None:
    """Why a slash command's option values cannot come from Discord's own client, or None: a value of another JSON
    type than its option type (text for a number, a number for text, anything but true/false for a boolean), a
    number out of its range or not finite, a text longer or shorter than allowed, a member, channel or role
    missing from the payload's resolved data. Discord checks these before it sends an interaction; a forged or
    replayed payload is refused here with one line (such values once reached the callbacks and ended in
    tracebacks)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    data: Any = interaction.data or {}
    options = data.get("options", []) or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its own options
        options = options[0].get("options", []) or []
    resolved = data.get("resolved") or {}
    params = {p.name: p for p in command.parameters}
    for option in options:
        param = params.get(option.get("name"))
        if param is None:
            continue
        name, value, kind = shown_name(param.display_name, "parameter_name", interaction.locale), option.get("value"), param.type
        if kind is AppCommandOptionType.string:
            if not isinstance(value, str):
                return T("The option {name} takes text.", name=name)
            low, high = param.min_value, param.max_value
            if (low is not None and len(value) < low) or (high is not None and len(value) > high) or len(value) > 6000:
                return T("The option {name} takes {low} to {high} characters.", name=name, low=low or 0,
                         high=high or 6000)
        elif kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
            number_types = (int,) if kind is AppCommandOptionType.integer else (int, float)
            if isinstance(value, bool) or not isinstance(value, number_types) or not math.isfinite(value):
                return T("The option {name} takes a whole number.", name=name) if number_types == (int,) else \
                    T("The option {name} takes a number.", name=name)
            low, high = param.min_value, param.max_value
            if (low is not None and value < low) or (high is not None and value > high) or abs(value) > 2**53:
                return T("The option {name} takes a number from {low} to {high}.", name=name, low=format(low, "g"),
                         high=format(high, "g")) if None not in (low, high) \
                    else T("The option {name} is out of range.", name=name)
        elif kind is AppCommandOptionType.boolean:
            if not isinstance(value, bool):
                return T("The option {name} takes true or false.", name=name)
        elif kind in _SNOWFLAKE_TYPES:
            found = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
            if not found.isdigit() or not any(found in (resolved.get(k) or {}) for k in _SNOWFLAKE_TYPES[kind]):
                return T("Discord did not send who or what {name} is; pick it again from the list.", name=name)
        if param.choices and value not in [c.value for c in param.choices]:
            return T("The option {name} takes one of: {values}.", name=name,
                     values=Text.join(T(", "), [shown_name(c.name, "choice_name", interaction.locale)
                                                for c in param.choices]))
    return None


def typed_text(interaction: discord.Interaction) -> bool:
    """Whether an autocomplete's focused option carries what a member can type: text (Discord sends what is typed
    so far as text, whatever the option's type)."""
    data: Any = interaction.data or {}
    options = data.get("options", []) or []
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options", []) or []
    focused = next((o for o in options if o.get("focused")), None)
    return focused is None or isinstance(focused.get("value"), str)


PRIVATE_ANSWERS = frozenset({"history", "rules", "help", "settings", "pings", "privacy", "forget-me"})
"""Commands answered only to the member who used them (a deferred one "thinks" ephemerally)."""


def answered_privately(interaction: discord.Interaction) -> bool:
    """Whether a command's answer is ephemeral: :data:`PRIVATE_ANSWERS`, ``/board`` unless ``public:true``, and
    ``/play thread:true`` (the lobby goes to the new thread; the member is told where)."""
    data: Any = interaction.data or {}
    name = data.get("name")
    options = {o.get("name"): o.get("value") for o in data.get("options", []) or []}
    if name == "board":
        return not options.get("public")
    if name == "play":
        return bool(options.get("thread"))
    return name in PRIVATE_ANSWERS


def handled_after(interaction: discord.Interaction) -> float:
    """Seconds from the interaction's creation at Discord (its snowflake time) to now."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


class PlayTree(app_commands.CommandTree):
    """Turns a :class:`SessionError` raised by a command into its ephemeral message; anything else is logged
    (with the channel's session id when there is one) and answered with a short apology."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Refuse a slash command whose options do not fit its definition (see :func:`outdated_options`)."""
        logs.about(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
        i18n.READER.set(i18n.language(interaction.locale))  # a refusal before any database work: the reader's
        if interaction.type is discord.InteractionType.application_command and outdated_options(interaction):
            raise app_commands.CheckFailure(OUTDATED)
        bot: PlayBot = interaction.client  # type: ignore[assignment]
        if interaction.type is discord.InteractionType.application_command:
            problem = malformed_option(interaction)
            if problem is not None:
                raise app_commands.CheckFailure(problem)
        if interaction.type is discord.InteractionType.autocomplete and not typed_text(interaction):
            await interaction.response.autocomplete([])  # nothing to offer for what no client types
            return False
        if interaction.type is discord.InteractionType.application_command:  # before any database work
            await bot.answers.in_budget(interaction, ephemeral=answered_privately(interaction))
        else:  # autocomplete: the options' labels in the table's language
            await enter_interaction(bot, interaction)
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        metrics.interaction_done("command", handled_after(interaction))
        original = getattr(error, "original", error)
        bot: PlayBot = interaction.client  # type: ignore[assignment]
        if isinstance(original, SessionError):
            await bot.answers.refuse(interaction, str(original))
        elif isinstance(original, discord.Forbidden):
            lacking = permissions.missing(interaction.app_permissions)
            missing = Text.join(T(", "), lacking) if lacking else \
                T("Discord answered {status} {text}", status=str(original.status), text=original.text)
            await bot.answers.refuse(interaction, T("I am missing a permission in this channel ({missing}). Ask a "
                                                    "moderator, then /board.", missing=missing))
        elif isinstance(error, app_commands.NoPrivateMessage):
            await bot.answers.refuse(interaction, T("Use this in a server channel or thread."))
        elif isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            await bot.answers.refuse(interaction, refusal(error) or T("That input does not work here."))
        else:
            sid = None
            try:
                row = await bot.service.reads.live_session(str(interaction.channel_id))
                sid = row.id if row else None
            except Exception:
                pass
            name = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed in channel %s (session %s)", name, interaction.channel_id, sid,
                      exc_info=original)
            await bot.answers.refuse(interaction, T("Something went wrong on our side. /board shows where things "
                                                    "stand."))


class PlayBot(commands.Bot):
    """The Discord bot. ``store`` may be given (tests, benchmarks; ``clock``, ``seeds`` and ``ai`` then go to its
    session service); otherwise ``setup_hook`` opens the store of the settings and owns it. The session service
    is built with the adapter's own data (:class:`Links`: undo votes, display names) passed in."""

    play: Play
    lobby: Lobby
    admin: Admin
    races: Races
    places: Places
    departures: Departures
    teaching: Teaching
    results: Results
    notify: Notify
    mygames: MyGames

    def __init__(self, settings: Settings, store: Store | None = None, *, clock: Callable[[], int] | None = None,
                 seeds: Callable[[], int] | None = None, ai: AiSettings | None = None, sync: bool = False,
                 images: Images | None = None, image_wait_s: float = IMAGE_WAIT_S,
                 message_content: bool = True, **client_options: Any) -> None:
        super().__init__(
            **client_options,
            command_prefix=commands.when_mentioned,
            intents=intents(message_content, members=bool(getattr(settings, "members_intent", False))),
            help_command=None,
            tree_cls=PlayTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.service: SessionService = None  # type: ignore[assignment]
        self.links: Links = None  # type: ignore[assignment]
        self.store: Store = None  # type: ignore[assignment]
        self._owns_store = store is None
        self._service_options = {k: v for k, v in (("clock", clock), ("seeds", seeds), ("ai", ai)) if v is not None}
        if store is not None:
            self._serve(store)
        self.sync_commands = sync
        self.images = images or Images()
        self.image_wait_s = image_wait_s
        self.timers = Timers(self)
        self.table = Table(self)  # the live board messages
        self.answers = Answers(self)  # every answer to a player (refusals, news, stale presses, the 3 s budget)
        self.prefs = ChannelPrefs(self)
        self.bookkeeper = Bookkeeper(self)
        self.delivery = Delivery(self)  # posts outside interactions: retried, surfaced when they fail
        self._tasks: set[asyncio.Task] = set()
        self._prepared = False
        self._serving = True
        self._stopping: asyncio.Task | None = None

    is_moderator = staticmethod(is_moderator)

    async def setup_hook(self) -> None:
        await self.prepare()
        if self._serving and self.images.in_processes:
            self.images.start()  # the workers warm while the gateway connects, not with the first boards
        elif self._serving:
            # boards drawn here: the first board of each game would otherwise wait for its renderer's palette
            # (seconds); a daemon thread: a bot stopped meanwhile exits at once instead of waiting for it. Boards
            # drawn in worker processes: they warm themselves, this process keeps none of it (~270 MB of fonts and
            # sprites, seconds of CPU that held the gateway's heartbeats back)
            threading.Thread(target=_warm_renderers, name="warm-renderers", daemon=True).start()
        if self.sync_commands:
            await self.sync_tree()

    async def prepare(self, start: bool = True) -> None:
        """Everything ``setup_hook`` does except syncing commands (safe to call once without a login).
        ``start=False``: the cogs and the command tree only — no session restored, no timer or bookkeeping loop
        (``python -m bot sync-commands``)."""
        if self._prepared:
            return
        self._prepared = True
        self._serving = start
        if self.service is None:
            store = await Store.open(self.settings.database())
            shards = getattr(self, "shard_ids", None)
            store.serve_shards(self.shard_count or 1, shards)
            self._serve(store)
        # AI seats: the pause before an AI moves and its thinking budget come from the settings
        ai = self.service.ai
        ai.pause_ms = int(getattr(self.settings, "ai_pause_ms", ai.pause_ms))
        ai.budget_ms = int(getattr(self.settings, "ai_budget_ms", ai.budget_ms))
        ai.iterations = getattr(self.settings, "ai_iterations", ai.iterations)
        self.play, self.lobby, self.admin, self.races = Play(self), Lobby(self), Admin(self), Races(self)
        self.places, self.departures, self.results = Places(self), Departures(self), Results(self)
        self.stand_in = StandIn(self)  # the AI stand-in's buttons and the departure's default
        self.notify, self.mygames, self.teaching = Notify(self), MyGames(self), Teaching(self)
        for cog in (self.play, self.lobby, self.admin, self.races, self.places, self.departures, self.results,
                    self.notify, self.mygames, self.teaching):
            await self.add_cog(cog)
        await self.add_cog(Lessons(self))  # /learn
        await self.add_cog(Privacy(self))  # /privacy, /forget-me, pruning old games (sets self.privacy)
        self.add_dynamic_items(*DYNAMIC_ITEMS, ReplayButton, RematchButton, StopDmsButton, LessonSelect)
        await self.tree.set_translator(CatalogueTranslator())  # command names and descriptions in ja as well
        if not start:
            return
        restored = await self.play.restore()
        log.info("restored %d live sessions", restored)
        await self.lobby.restore()  # lobbies open without an expiry timer get one
        self.timers.start()
        self.bookkeeper.start()
        memory.freeze_heap()  # what start-up built lives as long as the bot: out of every collection (bot.memory)
        memory.space_collections()  # a move's objects mostly die young: fewer, larger collections (bot.memory)
        sys.setswitchinterval(GIL_SWITCH_S)

    def _serve(self, store: Store) -> None:
        """The session service over ``store``, with this adapter's data: the names a finished game is recorded
        with, and open undo requests (kept with each session's data, so they survive a restart)."""
        self.store = store
        self.links = Links(store)
        self.service = SessionService(store, undo_votes=self.links, display_names=self.links.names,
                                      **self._service_options)
        # a move's board is drawn while the move is being stored (Table.draw_ahead)
        self.service.ledger.before_commit = lambda row, state, pending: self.table.draw_ahead(row, state, pending)
        self.service.ledger.not_committed = lambda row: self.images.withdraw(row)

    async def sync_tree(self) -> None:
        """Sync the slash commands when they changed since the last sync (one process of a deployment does it:
        ``Settings.syncs_commands``); to ``DEV_GUILD_ID`` when set, else globally."""
        guild_id = self.settings.dev_guild_id or None
        synced = await sync_if_changed(self.tree, self.store, guild_id)
        if synced is None:
            return
        if guild_id:
            log.info("synced %d commands to guild %s", synced, guild_id)
        else:
            log.info("synced %d global commands (they can take a while to appear)", synced)

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str) -> asyncio.Task:
        """Run ``coro`` in the background; failures are logged with ``what`` (which names the session)."""
        task = asyncio.create_task(coro, name=f"pbc-bg: {what}")
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed: %s", what, exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def idle(self) -> None:
        """Wait for the background tasks and the queued bookkeeping (tests)."""
        while True:
            await self.bookkeeper.drain()
            if not self._tasks:
                return
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: a message is never a command (``@bot hello`` is ignored quietly). Typed race inputs
        are heard by the races cog's own listener."""

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        metrics.interaction_done("command", handled_after(interaction))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction as it arrives: noted for stale ``/move`` checks (:mod:`.freshness`); a component of
        ours whose ``custom_id`` matches no template (forged or from an old version) is refused."""
        self.table.floors.saw(interaction.id)
        if await self.notify.owes_note(str(interaction.user.id)):  # told once that their direct messages are closed
            self.spawn(self.notify.note(interaction), f"note on closed direct messages to {interaction.user.id}")
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        if custom_id.startswith(ids.PREFIX) and not any(p.fullmatch(custom_id) for p in _OURS):
            await self.answers.refuse(interaction, T("This button is not valid any more. Use /board for the current "
                                                         "one."))

    def is_closed(self) -> bool:
        """True from the moment :meth:`close` begins (discord.py then does not reconnect the closed gateway)."""
        return self._stopping is not None or super().is_closed()

    async def close(self) -> None:
        """Stop in order, once (later calls wait for the first): close the gateway (no new interactions), stop the
        timer loop, let the interactions and background work in flight finish (at most :data:`DRAIN_S`; their
        replies still go out), flush the bookkeeping, cancel what is left, close the HTTP session, stop the render
        workers and close an owned store."""
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop(), name="bot-stop")
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        await self._close_gateway()
        await self.timers.stop()
        await self._drain(DRAIN_S)
        await self.bookkeeper.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:  # their own clean-up (an AI search gives its timer back) before the store closes
            await asyncio.wait(list(self._tasks), timeout=CANCEL_S)
        await super().close()
        await asyncio.to_thread(self.images.close, True)
        if self._owns_store and self.service is not None:
            await self.service.close()
        memory.thaw_heap()

    async def _close_gateway(self) -> None:
        shards = getattr(self, "shards", None)
        if isinstance(shards, dict):  # AutoShardedBot: each shard's connection
            await asyncio.gather(*(s.disconnect() for s in shards.values()), return_exceptions=True)
        elif self.ws is not None and self.ws.open:
            await self.ws.close(code=1000)

    async def _drain(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for the tasks handling interactions and events (:data:`IN_FLIGHT`)."""
        me = asyncio.current_task()
        busy = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                and t.get_name().startswith(IN_FLIGHT)]
        if busy:
            log.info("stopping: waiting for %d interactions and tasks in flight", len(busy))
            _, late = await asyncio.wait(busy, timeout=timeout_s)
            if late:
                log.warning("stopping: %d tasks still running after %.0f s are cancelled", len(late), timeout_s)


class ShardedPlayBot(PlayBot, commands.AutoShardedBot):
    """:class:`PlayBot` as an ``AutoShardedBot`` running the shards ``shard_ids`` of ``shard_count``:
    one gateway connection per shard in one process; its store serves those shards' guilds only (sessions
    restored, timers fired). Build with :func:`make_bot`."""


def make_bot(settings: Settings, store: Store | None = None, **kwargs: Any) -> PlayBot:
    """The bot for ``settings``: a :class:`ShardedPlayBot` of ``SHARD_IDS`` out of ``SHARD_COUNT`` when the
    deployment has more than one shard, else a plain :class:`PlayBot`. A given ``store`` is limited to those
    shards."""
    shards = settings.shards()
    if settings.shard_count > 1:
        ids = shards if shards is not None else list(range(settings.shard_count))
        if store is not None:
            store.serve_shards(settings.shard_count, ids)
        return ShardedPlayBot(settings, store, shard_count=settings.shard_count, shard_ids=ids, **kwargs)
    return PlayBot(settings, store, **kwargs)


def command_strings() -> list[tuple[str, str, str]]:
    """Every string of the bot's own slash commands, ``(msgid, place, where)``
    (:func:`bot.discord.translator.strings_of`), from the command tree built offline (an in-memory store, no
    Discord): what ``python -m bot i18n update|check`` gives :mod:`bot.catalogues`."""

    async def main() -> list[tuple[str, str, str]]:
        store = await Store.open(":memory:")
        bot = make_bot(Settings(_env_file=None), store, sync=False)
        try:
            await bot.prepare(start=False)
            return strings_of(bot.tree)
        finally:
            await bot.close()
            await store.close()

    return asyncio.run(main())
