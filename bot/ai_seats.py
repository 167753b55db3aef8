"""AI seats at a table: their player ids, names, settings, and the search run off the loop.

An AI seat is a player id ``ai:<level>:<n>`` (``level`` one of :data:`games.ai.LEVELS`, ``n`` = 1, 2, … per level
in one lobby). Such an id can never be a Discord user id (those are digits only) and is never pinged: adapters show
it as :func:`ai_name` ("AI · Strong", "AI · Strong 2"). The session service (``bot/sessions.py``) plays these seats
through durable timers: ``ai_move`` (a decision that names the seat, due after :attr:`AiSettings.pause_ms`) and
``ai_race`` (the seat's input to an open race, due at its reaction time). The search itself is :func:`think`, a
module-level function so that a process pool can run it.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

import games
from games import ai as game_ai
from games.core import BaseState, Decision, T, Text

from .i18n import SOURCE, language, reader_lang, say
from .matching import fold, names_of
from .workers import Pool
from .workers import pool as worker_pool

AI_PREFIX = "ai:"
DEFAULT_LEVEL = "normal"
"""The level of AI seats added without one (``/play … ai:2``)."""
DEFAULT_PAUSE_MS = 1500
"""How long an AI seat waits before it moves (ms): a human-like pause, so the table can follow the board."""


def ai_id(level: str, number: int) -> str:
    """The player id of AI seat ``number`` (1, 2, …) of ``level``: ``ai_id("strong", 2) == "ai:strong:2"``."""
    return f"{AI_PREFIX}{level}:{number}"


def is_ai(player: str | None) -> bool:
    """Whether ``player`` is an AI seat's id (``ai:<level>:<n>``)."""
    if not player or not player.startswith(AI_PREFIX):
        return False
    parts = player.split(":")
    return len(parts) == 3 and parts[1] in game_ai.LEVELS and parts[2].isascii() and parts[2].isdigit()


def ai_level(player: str) -> str:
    """The level of AI seat ``player`` (``"ai:strong:2"`` -> ``"strong"``); ``ValueError`` for a person's id."""
    if not is_ai(player):
        raise ValueError(f"{player!r} is not an AI seat")
    return player.split(":")[1]


LEVEL_NAMES = {"easy": T("Easy"), "normal": T("Normal"), "strong": T("Strong")}
"""Each AI level as people read it (:data:`games.ai.LEVELS`)."""


def named(name: str, key: str, lang: str | None = None) -> str:
    """A rules topic or AI level as a reader of ``lang`` finds it: in English its key (``strong``), else its name
    and the key to type (``強い（`strong`）``); a :class:`Text` in ``lang``'s shape (None: English)."""
    if language(lang) == SOURCE:
        return key
    return T("{name} (`{key}`)", name=name, key=key)


def levels_text(lang: str | None = None) -> str:
    """The AI levels listed for a reader of ``lang`` (:func:`named`): ``easy, normal, strong`` in English."""
    if language(lang) == SOURCE:
        return ", ".join(game_ai.LEVELS)
    return Text.join(T(", "), [named(LEVEL_NAMES.get(lv, lv), lv, lang) for lv in game_ai.LEVELS])


def ai_name(player: str, lang: str | None = None) -> str:
    """How an AI seat is shown (boards, lobby cards, /history, mentions), in ``lang`` (None: the current table's,
    :func:`bot.i18n.table_lang`): ``"AI · Strong"`` for the first of its level, ``"AI · Strong 2"`` for the
    second, … Never a mention."""
    _, level, number = player.split(":")
    name = LEVEL_NAMES.get(level) or level.capitalize()
    if number != "1":
        return say(T("AI · {level} {number}", level=name, number=number), lang)
    return say(T("AI · {level}", level=name), lang)


def level_of(text: str | None) -> str:
    """A level typed by a person (``"Strong"``, ``" easy "``, ``"強い"``, ``"つよい"``; None: :data:`DEFAULT_LEVEL`)
    in its canonical form (``strong``): its id or its name in any language (:func:`bot.matching.names_of`).
    ``ValueError`` naming the known levels when it is none of them."""
    if text is None or not text.strip():
        return DEFAULT_LEVEL
    found = [lv for lv in game_ai.LEVELS if fold(text) in names_of(lv, LEVEL_NAMES.get(lv, lv))]
    if len(found) != 1:
        raise ValueError(T("There is no AI level '{level}'. Levels: {levels}.", level=text.strip()[:20],
                           levels=levels_text(reader_lang())))
    return found[0]


def new_ai_ids(players: Sequence[str], level: str, count: int) -> list[str]:
    """``count`` fresh AI seat ids of ``level`` for a table seating ``players``: the lowest numbers not taken."""
    taken = {p for p in players if is_ai(p)}
    out: list[str] = []
    n = 1
    while len(out) < count:
        candidate = ai_id(level, n)
        if candidate not in taken:
            out.append(candidate)
        n += 1
    return out


@dataclass
class AiSettings:
    """How the session service plays AI seats.

    - ``pause_ms``: the wait before an AI seat moves (ms, ``Settings.ai_pause_ms``);
    - ``budget_ms``: the strong level's thinking time per move (ms, at most ``games.ai.MAX_BUDGET_MS``);
    - ``iterations``: when set, an iteration budget instead of a time budget (deterministic: tests);
    - ``executor``: where :func:`think` runs (a process pool in production; None: the loop's default thread pool).
      Never the event loop itself."""

    pause_ms: int = DEFAULT_PAUSE_MS
    budget_ms: int = game_ai.DEFAULT_BUDGET_MS
    iterations: int | None = None
    executor: Executor | None = None


def ai_rng(seed: int, *parts: object) -> random.Random:
    """The ``random.Random`` of one AI decision: seeded by the game's seed and what the decision is (version,
    player, race), so the same position gives the same answer (tests, and a re-planned race keeps its reaction)."""
    return random.Random(":".join(map(str, (seed, *parts))))


def think(game_id: str, state_json: str, decision_index: int, player: str, level: str, seed_text: str,
          budget_ms: int, iterations: int | None) -> str:
    """The option id the AI playing seat ``player`` answers pending decision ``decision_index`` of the stored state
    with (``games.ai.choose`` at ``level``: an AI seat's own, or the stand-in's for an absent person). Runs in a
    worker (thread or process): a time budget of
    ``budget_ms`` (capped at ``games.ai.MAX_BUDGET_MS``) measured by ``time.perf_counter`` from here, or
    ``iterations`` playouts when given. ``IndexError`` when that decision is not pending."""
    game, state, decision = stored_decision(game_id, state_json, decision_index)
    rng = random.Random(seed_text)
    return game_ai.choose(game, state, decision, player, level, rng, seat_budget(budget_ms, iterations))


def stored_decision(game_id: str, state_json: str, decision_index: int) -> tuple[games.Game, BaseState, Decision]:
    """The game, the stored state and its pending decision ``decision_index``. ``IndexError`` when that decision
    is not pending."""
    game = games.get(game_id)
    state = game.load_state(state_json)
    return game, state, game.pending(state)[decision_index]


def seat_budget(budget_ms: int, iterations: int | None) -> game_ai.Budget:
    """An AI seat's search budget: ``iterations`` playouts when given, else ``budget_ms`` (1 ..
    ``games.ai.MAX_BUDGET_MS``) of ``time.perf_counter`` from now."""
    if iterations is not None:
        return game_ai.Budget(iterations=iterations)
    return game_ai.Budget.from_ms(max(budget_ms, 1), time.perf_counter)


def _load_games() -> None:
    """Start of a search worker (after :func:`bot.workers.pool`'s own: SIGINT ignored): every game imported now,
    so the first AI move does not wait for it."""
    games.all()


def search_pool(workers: int | None = None) -> Pool:
    """Worker processes for :func:`think` (``spawn``: no state of the bot is copied): half the cores by default,
    so searches of several channels run side by side while replies and board images keep the rest."""
    count = workers or max(1, (os.cpu_count() or 2) // 2)
    pool = worker_pool(count, start=_load_games)
    pool.submit(int)  # start a worker now (they start on demand): the first AI move finds it ready
    return pool


def race_opened_ms(state: object) -> int | None:
    """When the open race window of ``state`` opened (ms; Tatamokatsu's ``window_open_ms``, RULINGS TK-10), or None
    for a game whose state does not say: AI seats then let its races pass."""
    value = getattr(state, "window_open_ms", None)
    return value if isinstance(value, int) else None


__all__ = ["AI_PREFIX", "DEFAULT_LEVEL", "DEFAULT_PAUSE_MS", "AiSettings", "ai_id", "ai_level", "ai_name", "ai_rng",
           "is_ai", "level_of", "new_ai_ids", "race_opened_ms", "search_pool", "seat_budget", "stored_decision", "think"]
