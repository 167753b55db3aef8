"""What a lobby card or a board message says and shows: text, components, image.

Pure functions over :class:`bot.sessions.Update` plus display names, and :class:`Images` (rendering off the event
loop, cached per session version). Limits of Discord that shape the layout: 2000 characters of content, 5 action
rows a message, 5 buttons a row, 25 options a select menu, 80 characters a button label, 100 a select option label.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import math
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

import discord

import renderers
from bot import metrics, workers
from bot.ai_seats import ai_name, is_ai
from bot.sessions import Update
from bot.store import SessionRow
from games import Decision, Game, format_text, marker_keys
from games.ai import LEVELS
from games.core import BaseState, describe_options

from . import ids
from .components import (
    AddAiSelect,
    ChoiceButton,
    ChoiceSelect,
    FullBoardButton,
    GroupSelect,
    HelpButton,
    LobbyButton,
    RaceButton,
    RemoveAiSelect,
    TopicSelect,
)

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_MENU = 25
AI_LEVEL_TEXT = {
    "easy": "Random legal moves; avoids losing at once",
    "normal": "Greedy: the best-looking move now",
    "strong": "Searches ahead before each move",
}
"""One line per AI level (``games.ai.LEVELS``) for the "Add AI" menu, ``/rules`` and ``/help``."""
KEYCAPS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"]
"""Reactions that answer a race's option 1..10 (see :mod:`bot.discord.races`)."""


def mention(player: str) -> str:
    """``<@id>`` for a Discord user id; an AI seat by its name ("AI · Strong", never a ping, issue 14); offline
    ids (names) stay as they are."""
    if is_ai(player):
        return ai_name(player)
    return f"<@{player}>" if player.isdigit() else player


def display(names: dict[str, str], player: str) -> str:
    """A plain display name for labels and images (components cannot show mentions); an AI seat's is its name."""
    if is_ai(player):
        return ai_name(player)
    return names.get(player) or (f"player {player[-4:]}" if player.isdigit() else player)


def as_mentions(text: str) -> str:
    return format_text(text, mention)


def as_names(text: str, names: dict[str, str]) -> str:
    return format_text(text, lambda p: display(names, p))


def deciders(pending: list[Decision]) -> set[str]:
    """The players the pending decisions name (a race, ``player=None``, names nobody)."""
    return {d.player for d in pending if d.player}


def pings(pending: list[Decision], exclude: set[str] | frozenset[str] = frozenset()) -> discord.AllowedMentions:
    """Notify only the players the pending decisions name, minus ``exclude`` (the player who just clicked, players
    who muted their turn pings); mentions of anyone else in the text stay silent (issue 12)."""
    users = sorted(u for u in deciders(pending) - set(exclude) if u.isdigit())
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(u)) for u in users])


def clip(lines: list[str], limit: int = MAX_CONTENT, head: int = 1, tail: int = 0) -> str:
    """Join ``lines`` within ``limit`` characters: when too long, the oldest lines after the first ``head`` (and
    before the last ``tail``) fold into one "… N earlier" line."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    top, body = lines[:head], lines[head:len(lines) - tail]
    bottom = lines[len(lines) - tail:] if tail else []
    dropped = 0
    while body and len("\n".join([*top, f"… {dropped} earlier", *body, *bottom])) > limit:
        body.pop(0)
        dropped += 1
    text = "\n".join([*top, f"… {dropped} earlier", *body, *bottom])
    return text[:limit]


# -- lobby ---------------------------------------------------------------------------------------------------------
def options_text(options: dict) -> str:
    return describe_options(options)


def lobby_text(row: SessionRow, game: Game, notes: list[str] = ()) -> str:
    """The lobby card: game, host, seats, options, what to do next."""
    seats = "\n".join(f"{i}. {mention(p)}{' (host)' if p == row.host else ''}" for i, p in enumerate(row.players, 1))
    lines = [as_mentions(n) for n in notes]
    if row.status == "lobby":
        counts = game.seat_counts(row.options) or [game.max_players]
        ready = len(row.players) in counts
        lines += [
            f"**{game.title}** lobby — {game.summary}".rstrip(" —"),
            f"Seats ({len(row.players)}/{counts[-1]}):",
            seats,
            f"Options: {options_text(row.options)}",
            game.lobby_need(len(row.players), row.options) + (
                f" The host, {mention(row.host)}, can press Start (or /start)." if ready
                else " Press Join or use /join." if len(row.players) < counts[0] else ""),
        ]
        if counts[-1] > 1 and len(row.players) < counts[-1]:
            lines.append("-# No one else around? The host can seat AI players with the Add AI menu.")
    elif row.status == "abandoned":
        lines.append(f"The {game.title} lobby is closed.")
    else:
        lines.append(f"**{game.title}** started with {', '.join(mention(p) for p in row.players)}: the board follows.")
    return clip(lines)


def lobby_view(row: SessionRow, game: Game | None = None) -> discord.ui.View | None:
    """Join / Leave / Start / Cancel, "How to play" (issue 12), and for the host (issue 14) "Add AI" (a select of
    the levels, when the table seats more than one) and "Remove AI" (a select of the AI seats, when there are)."""
    if row.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(row.id, action))
    view.add_item(HelpButton(row.game_id, row=1))
    if game is not None and max(game.seat_counts(row.options) or [game.max_players]) > 1:
        view.add_item(AddAiSelect(row.id, [discord.SelectOption(label=f"Add AI · {lv.capitalize()}", value=lv,
                                                                description=AI_LEVEL_TEXT.get(lv))
                                           for lv in LEVELS], row=2))
    bots = [p for p in row.players if is_ai(p)]
    if bots:
        view.add_item(RemoveAiSelect(row.id, [discord.SelectOption(label=f"Remove {ai_name(p)}", value=p)
                                              for p in bots[:MAX_MENU]], row=3))
    return view


# -- board ---------------------------------------------------------------------------------------------------------
def result_lines(update: Update) -> list[str]:
    res = update.result
    if res is None:
        return []
    lines = [f"🏁 **Game over.** {as_mentions(res.reason)}".rstrip()]
    for rank, group in enumerate(res.ranking, 1):
        who = ", ".join(
            f"{mention(p)}" + (f" ({res.scores[p]})" if p in res.scores else "") for p in group
        )
        lines.append(f"{rank}. {who}")
    return lines


def prompt_line(decision: Decision, reactions: dict[str, str] | None = None) -> str:
    """``reactions``: the game's emoji -> option id for this decision (``Game.reactions``); without them a race
    is answered by keycaps (option 1..10)."""
    who = "Anyone seated" if decision.player is None else None
    text = as_mentions(decision.prompt)
    if who:
        text = f"{who}: {text}"
    if decision.player is None and decision.options:  # a race: buttons, typed words or reactions (races.py)
        if reactions:
            text += " — press, type or react: " + " · ".join(f"{e} `{o}`" for e, o in reactions.items())
        else:
            text += " — press, type or react: " + " · ".join(
                f"{KEYCAPS[i]} `{o.id}`" for i, o in enumerate(decision.options[:len(KEYCAPS)]))
    return f"➡️ {text}"


def event_lines(update: Update) -> list[str]:
    """The bullet lines of ``update``'s events (a closed race window's line is not one: it heads the board)."""
    return [f"• {as_mentions(e.text)}" for e in update.events if e.kind != "window"]


HOW_TO_ANSWER = "-# Answer with the buttons below (or `/move`, which autocompletes); How to play explains the rules."


NO_IMAGE = ("-# The board image could not be attached here (the bot lacks Attach Files): the position is in words "
            "above, the options are numbered below.")
MAX_NUMBERED = 25
"""Options listed per decision in a text-only board (the rest: ``/move`` autocompletes them)."""


def numbered_lines(update: Update, names: dict[str, str]) -> list[str]:
    """The pending options as numbered text lines ("1. 3 · C3-n"), per decision, for a board without its image
    (issue 17 item 1): the buttons stay, the text alone is enough to follow and answer."""
    lines: list[str] = []
    for d in update.pending:
        for i in range(min(len(d.options), MAX_NUMBERED)):
            lines.append(f"`{i + 1}.` {option_label(d, i, names)}")
        if len(d.options) > MAX_NUMBERED:
            lines.append(f"… {len(d.options) - MAX_NUMBERED} more: `/move` autocompletes them.")
    return lines


def board_text(update: Update, with_status: bool = True, notes: list[str] = (), events: list[str] | None = None,
               first: bool = False, numbered: dict[str, str] | None = None) -> str:
    """The board message: title line, notes, events, the position in words (``Game.status``, also the text
    alternative to the image), then the result or the prompts of the pending decisions.

    ``events``: the event lines to show (default: those of ``update``; the live message of a turn passes every line
    of the turn so far — the oldest fold into "… N earlier" within Discord's 2000 characters, issue 12).
    ``first``: the first board of a game, which says in one line how to answer. ``numbered``: the players' display
    names — the board goes out without its image (issue 17 item 1), so its options are listed as numbered lines
    (:func:`numbered_lines`) under a note saying why."""
    game, row = update.game, update.session
    lines = [f"**{game.title}** · board v{row.version}"]
    # a closed race window first (one line: who was first and by how many ms, see bot/discord/races.py)
    lines += [f"⏱️ **{as_mentions(e.text)}**" for e in update.events if e.kind == "window"]
    lines += [as_mentions(n) for n in [*update.notes, *notes]]
    head = len(lines)
    lines += event_lines(update) if events is None else events
    tail: list[str] = []
    if with_status and update.state is not None and row.status == "active":
        status = game.status(update.state)
        if status:
            tail.append(f"-# {as_mentions(status)}")  # the board in words (small text)
    if update.result is not None:
        tail += result_lines(update)
    elif row.status == "abandoned":
        tail.append("The game was abandoned.")
    else:
        tail += [prompt_line(d, game.reactions(d)) for d in update.pending]
        if update.pending and not _fits(update.pending):
            tail.append("Too many choices for buttons: use `/move` (it autocompletes your options).")
        elif first and update.pending:
            tail.append(HOW_TO_ANSWER)
        if numbered is not None and update.pending:
            tail += numbered_lines(update, numbered)
    if numbered is not None:
        tail.append(NO_IMAGE)
    return clip(lines + tail, head=head, tail=len(tail))


def _fits(pending: list[Decision]) -> bool:
    """Whether components can offer every option of ``pending`` (else the text points at ``/move``)."""
    rows = 0
    for d in pending:
        n = len(d.options)
        if n == 0:
            continue
        pages = 1 if n <= MAX_BUTTONS else math.ceil(n / MAX_MENU)
        rows += pages if pages <= MAX_ROWS - rows else 1
        if pages > MAX_MENU:
            return False
    return rows <= MAX_ROWS


def option_label(d: Decision, index: int, names: dict[str, str], keys: dict[str, str] | None = None) -> str:
    """Option ``index`` of ``d`` as a button, select option or autocomplete entry shows it: prefixed with its board
    marker key when it has a place on the board (``games.marker_keys``, issue 13: "3 · C3-n")."""
    opt = d.options[index]
    label = as_names(opt.label, names) or opt.id
    key = (keys if keys is not None else marker_keys(d.options)).get(opt.id)
    return f"{key} · {label}" if key else label


def board_view(row: SessionRow, pending: list[Decision], names: dict[str, str],
               keys: list[str | None] | None = None,
               emoji: list[dict[str, str]] | None = None, extras: bool = True) -> discord.ui.View | None:
    """Components for ``pending``: a row of buttons for up to 5 options, one select per 25 options, or a two-step
    pick (a group select, then an ephemeral page of selects) when the rows run out; labels start with the option's
    board marker key (issue 13). ``keys[i]``: decision ``i``'s race key (``ids.race_key``): its buttons are race
    buttons (no version); ``emoji[i]``: option id -> emoji shown on its button (the game's reactions).
    ``extras``: a last row with "How to play" and "Full board" when a row is left (issue 12). A decision of an AI
    seat gets no components (issue 14: only that seat may answer it). None when nothing is pending (or only
    decisions without options)."""
    view = discord.ui.View(timeout=None)
    rows = 0
    sid, ver = row.id, row.version
    thinking = False  # a decision of an AI seat: no buttons (nobody else may answer it, issue 14)
    for di, d in enumerate(pending):
        n = len(d.options)
        if is_ai(d.player):
            thinking = True
            continue
        if n == 0 or rows >= MAX_ROWS:
            continue
        key = keys[di] if keys and di < len(keys) else None
        marks = emoji[di] if emoji and di < len(emoji) else {}
        markers = marker_keys(d.options)
        if key and n <= MAX_BUTTONS and all(ids.race(sid, key, o.id) for o in d.options):
            for oi, opt in enumerate(d.options):
                view.add_item(RaceButton(sid, key, opt.id, option_label(d, oi, names, markers), row=rows,
                                         emoji=marks.get(opt.id)))
            rows += 1
        elif n <= MAX_BUTTONS:
            for oi in range(n):
                view.add_item(ChoiceButton(sid, ver, di, oi, option_label(d, oi, names, markers), row=rows))
            rows += 1
        elif math.ceil(n / MAX_MENU) <= MAX_ROWS - rows:
            for page in range(math.ceil(n / MAX_MENU)):
                view.add_item(menu_for(row, di, d, page, names, row=rows))
                rows += 1
        elif math.ceil(n / MAX_MENU) <= MAX_MENU:
            groups = [
                discord.SelectOption(
                    label=f"{option_label(d, p * MAX_MENU, names, markers)[:45]} … "
                    f"{option_label(d, min(n, (p + 1) * MAX_MENU) - 1, names, markers)[:45]}"[:100],
                    value=str(p),
                )
                for p in range(math.ceil(n / MAX_MENU))
            ]
            view.add_item(GroupSelect(sid, ver, di, groups, placeholder=as_names(d.prompt, names), row=rows))
            rows += 1
    if not view.children and not (thinking and extras):
        return None
    if extras and rows < MAX_ROWS:
        view.add_item(HelpButton(row.game_id, row=rows))
        view.add_item(FullBoardButton(sid, row=rows))
    return view


def menu_for(session: SessionRow, di: int, d: Decision, page: int, names: dict[str, str],
             *, row: int | None = None) -> ChoiceSelect:
    """The select menu of options ``page*25 .. page*25+24`` of decision ``di`` (labels keyed as on the board)."""
    start = page * MAX_MENU
    markers = marker_keys(d.options)
    opts = [
        discord.SelectOption(label=option_label(d, start + i, names, markers)[:100] or o.id[:100],
                             value=str(start + i))
        for i, o in enumerate(d.options[start:start + MAX_MENU])
    ]
    placeholder = as_names(d.prompt, names)
    if len(d.options) > MAX_MENU:
        placeholder = f"({page + 1}/{math.ceil(len(d.options) / MAX_MENU)}) {placeholder}"
    return ChoiceSelect(session.id, session.version, di, page, opts, placeholder=placeholder, row=row)


def page_view(row: SessionRow, di: int, d: Decision, page: int, names: dict[str, str]) -> discord.ui.View:
    """Step two of a two-step pick: the select menu of page ``page`` (25 options) of decision ``di``."""
    view = discord.ui.View(timeout=None)
    view.add_item(menu_for(row, di, d, page, names, row=0))
    return view


# -- help ----------------------------------------------------------------------------------------------------------
def rules_text(game: Game, topic: str = "") -> str:
    """``/rules`` and the "How to play" button: the overview (``Game.rules_help[""]``, else the summary) or one
    topic, within 2000 characters."""
    help_ = game.rules_help
    text = f"**{game.title}** — {topic or 'how to play'}\n{help_.get(topic, game.summary if not topic else '')}"
    return text[:MAX_CONTENT]


def topics_view(game: Game, current: str = "") -> discord.ui.View | None:
    """A select of ``game``'s rules topics (the overview first), or None when it has none besides the overview."""
    topics = [t for t in game.rules_help if t][:MAX_MENU - 1]
    if not topics:
        return None
    view = discord.ui.View(timeout=None)
    opts = [discord.SelectOption(label="Overview", value="-", default=not current)] + [
        discord.SelectOption(label=t[:100], value=t[:100], default=t == current) for t in topics]
    view.add_item(TopicSelect(game.id, opts))
    return view


# -- images --------------------------------------------------------------------------------------------------------
MAX_POOL_BREAKS = 3
"""After this many broken process pools, render in threads instead."""
RENDER_NICE = 10
"""Render worker processes run at this lower priority, so that replies (the event loop) come first on a busy
machine; images take what is left."""


def _render_worker(nice: int) -> None:
    """Start of a render worker process: lower priority, then every renderer's palette built (issue 17: the first
    board of each game is as fast as the rest, not seconds late)."""
    workers.ignore_sigint()  # Ctrl-C reaches the whole group: the bot stops its workers
    try:
        os.nice(nice)
    except OSError:
        pass
    import renderers

    try:
        renderers.warm()
    except Exception:  # a renderer that cannot warm still renders (slower) or fails per board, logged there
        logging.getLogger(__name__).exception("warming the renderers failed in a render worker")


class Images:
    """Board images: ``renderers.render`` in a worker thread (a pool of one thread per core), cached per ``(session id, version)`` (the last one
    of each session). A game without a renderer (or a renderer that fails) gives None: the board goes out as text."""

    def __init__(self, render: Callable[[BaseState, dict[str, str] | None], bytes] | None = None,
                 workers: int | None = None, processes: bool = False) -> None:
        """``render(state, names)`` defaults to ``renderers.render``. ``workers``: pool size (default: one per core —
        more would only fight over the cores). ``processes``: render in worker processes, so that drawing never
        holds the event loop's GIL (``render`` must then be picklable: a module-level function)."""
        self._render = render or renderers.render
        self._workers = workers or os.cpu_count() or 2
        self._processes = processes
        self._pool = self._new_pool()
        # session id -> (version, PNG) of its newest board, least recently used first, at most IMAGE_CACHE_SIZE
        self._cache: OrderedDict[int, tuple[int, bytes | None]] = OrderedDict()
        self._missing: set[str] = set()
        self._latest: OrderedDict[int, int] = OrderedDict()  # session id -> the newest version asked for
        self._breaks = 0
        self._slots: asyncio.Semaphore | None = None

    def _new_pool(self) -> Executor:
        if self._processes:
            return ProcessPoolExecutor(max_workers=self._workers, mp_context=workers.quiet_spawn(),
                                       initializer=_render_worker, initargs=(RENDER_NICE,))
        return ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="render")

    def close(self, wait: bool = False) -> None:
        """Stop the workers (queued renders dropped); ``wait``: until they have exited (a clean stop)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)

    def has_renderer(self, game_id: str) -> bool:
        if game_id in self._missing:
            return False
        try:
            renderers.get(game_id)
        except KeyError:
            self._missing.add(game_id)
            return False
        return True

    async def png(self, row: SessionRow, state: BaseState | None, names: dict[str, str]) -> bytes | None:
        """PNG bytes of ``state`` for session ``row`` (None without a renderer, on a render error, or when a newer
        board of the session was asked for while this one waited for a worker: nobody needs it any more).

        At most one render per worker is in flight; the others wait here in order (so a backlog can skip the
        boards it no longer needs instead of rendering them)."""
        if state is None or not self.has_renderer(row.game_id):
            return None
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._workers)
        self._latest[row.id] = max(self._latest.get(row.id, row.version), row.version)
        _bound(self._latest, row.id)
        async with self._slots:
            if self._latest[row.id] > row.version:
                return None
            return await self._run(row, state, names)

    async def full_png(self, row: SessionRow, state: BaseState | None, names: dict[str, str]) -> bytes | None:
        """PNG bytes of the whole board of ``state`` (``renderers.render(full=True)``; a custom ``render`` is called
        as it is), not cached; None without a renderer or on a render error."""
        if state is None or not self.has_renderer(row.game_id):
            return None
        render = functools.partial(renderers.render, full=True) if self._render is renderers.render else self._render
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, render, state, {p: display(names, p) for p in state.players})
        except Exception:
            log.exception("full render failed for session %s (version %s)", row.id, row.version)
            return None

    async def _run(self, row: SessionRow, state: BaseState, names: dict[str, str]) -> bytes | None:
        pool = self._pool
        try:
            loop = asyncio.get_running_loop()
            with metrics.RENDER_SECONDS.time():
                data = await loop.run_in_executor(pool, self._render, state,
                                                  {p: display(names, p) for p in state.players})
        except BrokenExecutor:
            if pool is self._pool:  # a worker died: replace the pool; this board goes out as text
                self._breaks += 1
                if self._processes and self._breaks >= MAX_POOL_BREAKS:
                    self._processes = False  # workers keep dying (e.g. cannot import): render in threads
                    log.error("the render processes broke %d times; rendering in threads from now on", self._breaks)
                else:
                    log.error("the render pool broke (session %s); starting a new one", row.id)
                self._pool = self._new_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            data = None
        except Exception:
            log.exception("render failed for session %s (version %s)", row.id, row.version)
            data = None
        self._cache[row.id] = (row.version, data)
        _bound(self._cache, row.id)
        return data


IMAGE_CACHE_SIZE = 64
"""Sessions whose newest board image one process keeps (~50-150 KB each, so at most ~10 MB; least recently used
dropped: a finished board is re-rendered on the rare /board after the end)."""


def _bound(cache: OrderedDict, key) -> None:
    cache.move_to_end(key)
    while len(cache) > IMAGE_CACHE_SIZE:
        cache.popitem(last=False)


def png_file(data: bytes | None, session_id: int, version: int) -> discord.File | None:
    if data is None:
        return None
    return discord.File(io.BytesIO(data), filename=f"board-{session_id}-{version}.png")
