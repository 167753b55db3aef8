"""The lobby: a game opened in a channel, people and AI seats seated and unseated, the lobby cancelled, the game
dealt. Every verb one store transaction under the channel's lock, rerun when another process wrote the session
between its read and its write (:func:`rerun_when_stale`)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from games.core import N, T, Text, player_ref

from ..ai_seats import is_ai, level_of, new_ai_ids
from ..i18n import refusal
from ..refusals import SessionError
from ..store import StaleVersion
from .ai_turns import AiPlanner
from .board import Locks, Rows, States, Update, game_of
from .deadlines import Deadlines
from .hints import HINTS_META, NEW_TABLE_META
from .pace import pace_named

NewTable = Callable[[str | None, str, list[str]], Awaitable[bool]]
"""(server id, game id, seated players) -> whether nobody seated has finished that game there."""

STALE_RETRIES = 3
"""How many times a verb that re-checks everything it needs is run again when another process wrote the session
between its read and its write (``StaleVersion``: shards on one PostgreSQL)."""


def rerun_when_stale(verb):
    """Run a lobby or ending verb again on the session as it now stands when another process changed it between
    the read and the write (``StaleVersion``; the verb's own checks run again, so a lobby that filled up or a game
    that started meanwhile is refused with its usual message). After :data:`STALE_RETRIES` tries: a
    :class:`SessionError` saying so. Nothing is written by a try that lost the race."""

    @functools.wraps(verb)
    async def run(self, *args, **kwargs):
        for _ in range(STALE_RETRIES):
            try:
                return await verb(self, *args, **kwargs)
            except StaleVersion:
                continue
        raise SessionError(T("This game changed several times while your request was handled; please try again."))

    return run


_OR = T(" or ")
"""The last separator of listed alternatives."""


def option_problems(exc: ValidationError) -> str:
    """What is wrong with a game's options, one clause per pydantic error joined by ``; ``, each a :class:`Text`
    (``first: Input should be 'host' or 'random'``): a value outside the choices, a number out of its bounds, text
    for a number or true/false, or the game's own validator's words (a :class:`Text` when it raised one); any
    other error keeps pydantic's English."""
    clauses = []
    for e in exc.errors():
        field = ".".join(map(str, e["loc"])) or "options"
        kind, ctx = e.get("type", ""), e.get("ctx") or {}
        error = ctx.get("error")
        if kind in ("literal_error", "enum"):
            expected = [str(v) for v in e.get("ctx", {}).get("expected", "").replace("'", "").replace(" or ", ", ")
                        .split(", ") if v]
            clause = T("{field}: Input should be {values}", field=field,
                       values=Text.join(_OR, [f"`{v}`" for v in expected]))
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            bound = {"greater_than_equal": "ge", "less_than_equal": "le", "greater_than": "gt", "less_than": "lt"}[kind]
            limit = str(ctx.get(bound))
            clause = {"ge": T("{field}: Input should be greater than or equal to {limit}", field=field, limit=limit),
                      "le": T("{field}: Input should be less than or equal to {limit}", field=field, limit=limit),
                      "gt": T("{field}: Input should be greater than {limit}", field=field, limit=limit),
                      "lt": T("{field}: Input should be less than {limit}", field=field, limit=limit)}[bound]
        elif kind in ("int_parsing", "int_type", "int_from_float"):
            clause = T("{field}: Input should be a valid integer", field=field)
        elif kind in ("float_parsing", "float_type"):
            clause = T("{field}: Input should be a valid number", field=field)
        elif kind in ("bool_parsing", "bool_type"):
            clause = T("{field}: Input should be a valid boolean", field=field)
        elif kind == "value_error" and isinstance(error, ValueError) and error.args and isinstance(error.args[0], Text):
            clause = T("{field}: {problem}", field=field, problem=error.args[0])
        else:
            clause = f"{field}: {e['msg']}"
        clauses.append(clause)
    return Text.join(T("; "), clauses)


class Lobby:
    """The lobby verbs over the store, the service ``clock`` (ms) and ``seeds`` (a new game's seed), the channel
    ``locks``, the live ``rows``, the parsed ``states``, the ``deadlines`` and AI ``planner`` a game's start
    writes, and ``new_table`` (whether a table is new to its game: noted in the lobby's meta for its card's
    first-contact line, :func:`bot.service.hints.learn_line`)."""

    async def _table_meta(self, meta: dict, guild_id: str | None, game_id: str, players: list[str]) -> dict:
        """``meta`` with whether the table seating ``players`` is new to ``game_id`` (:data:`NEW_TABLE_META`)."""
        if self.new_table is None:
            return meta
        return {**meta, NEW_TABLE_META: await self.new_table(guild_id, game_id, players)}

    def __init__(self, store: Any, clock: Callable[[], int], seeds: Callable[[], int], locks: Locks, rows: Rows,
                 states: States, deadlines: Deadlines, planner: AiPlanner, new_table: NewTable | None = None) -> None:
        self.new_table = new_table
        self.store = store
        self.clock = clock
        self.seeds = seeds
        self.lock = locks
        self.rows = rows
        self.states = states
        self.deadlines = deadlines
        self.planner = planner

    @rerun_when_stale
    async def add_ai(self, channel_id: str, by: str, level: str | None = None, count: int = 1) -> Update:
        """Seat ``count`` AI players of ``level`` (default ``normal``) in the lobby — the host only. Refused (nothing
        changes) for no lobby, a running game, someone else than the host, an unknown level, or too few free
        seats."""
        try:
            level = level_of(level)
        except ValueError as exc:
            raise SessionError(refusal(exc)) from None
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            game = game_of(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("The game is running: AI players are added in the lobby, before /start."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can add AI players.", host=player_ref(row.host)))
            seats = max(game.seat_counts(row.options) or [game.max_players])
            free = seats - len(row.players)
            if count < 1:
                raise SessionError(T("Add at least one AI player."))
            if free <= 0:
                raise SessionError(N("The lobby is full ({n} player with these options): no seat for an AI.",
                                     "The lobby is full ({n} players with these options): no seat for an AI.",
                                     n=seats))
            if count > free:
                raise SessionError(N("Only {n} seat is free: {ais} AI players do not fit.",
                                     "Only {n} seats are free: {ais} AI players do not fit.", n=free, ais=count))
            added = new_ai_ids(row.players, level, count)
            players = row.players + added
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        notes = [T("{player} joined ({seated}/{seats}).", player=player_ref(p),
                   seated=len(row.players) - len(added) + i, seats=seats)
                 for i, p in enumerate(added, 1)]
        return self.states.view(row, notes=notes)

    @rerun_when_stale
    async def remove_ai(self, channel_id: str, by: str, player: str) -> Update:
        """Take AI seat ``player`` out of the lobby — the host only, before the start. Refused (nothing changes)
        for no lobby, a running game, someone else than the host, or a player who is not an AI seat here."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game is running: AI players can only be removed in the lobby."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can remove AI players.", host=player_ref(row.host)))
            if not is_ai(player) or player not in row.players:
                raise SessionError(T("That is not an AI player of this lobby."))
            players = [p for p in row.players if p != player]
            await self.store.update_session(row.id, row.version, players=players)
            row = await self.store.session(row.id)
        return self.states.view(row, notes=[T("{by} removed {player}.", by=player_ref(by), player=player_ref(player))])

    async def open_lobby(
        self, channel_id: str, game_id: str, host: str, options: dict | None = None, guild_id: str | None = None,
        ai_seats: int = 0, ai_level: str | None = None, pace: str | None = None, hints: bool | None = None,
    ) -> Update:
        """Open a lobby for ``game_id`` with ``host`` seated, and ``ai_seats`` AI players of ``ai_level`` (default
        ``normal``; ``/play <game> ai:<n> [level:<level>]``); ``pace`` (:mod:`bot.service.pace`) is kept in the
        session's ``meta["pace"]``; ``hints``: the lobby's ``hints:`` (None: the default,
        :func:`bot.service.hints.hints_default`). Refused (nothing stored) when the channel is busy, the game
        unknown, an option invalid or unknown, the level or pace unknown, or the AI seats do not fit."""
        game = game_of(game_id)
        if is_ai(host):
            raise SessionError(T("An AI player cannot open a lobby."))
        try:
            level = level_of(ai_level)
            pace = pace_named(pace)
        except ValueError as exc:
            raise SessionError(refusal(exc)) from None
        fields = game.Options.model_fields
        unknown = [k for k in (options or {}) if k not in fields]
        if unknown:
            if fields:
                raise SessionError(T("{game} has no option '{option}'. Options: {options}.", game=game.title,
                                     option=unknown[0], options=Text.join(T(", "), fields)))
            raise SessionError(T("{game} has no option '{option}'. {game} has no options.", game=game.title,
                                 option=unknown[0]))
        try:
            opts = game.options(options or {}).model_dump(mode="json")
        except ValidationError as exc:
            raise SessionError(T("Those options do not work for {game}: {problems}.", game=game.title,
                                 problems=option_problems(exc))) from None
        seats = max(game.seat_counts(opts) or [game.max_players])
        if ai_seats < 0 or 1 + ai_seats > seats:
            free = seats - 1
            raise SessionError(T("{game} seats {players} with these options: room for {ais} beside you, not {asked}.",
                                 game=game.title, players=N("{n} player", "{n} players", n=seats),
                                 ais=N("{n} AI player", "{n} AI players", n=free), asked=ai_seats))
        players = [host, *new_ai_ids([host], level, ai_seats)]
        async with self.lock(channel_id):
            busy = await self.store.live_session(channel_id)
            if busy is not None:
                busy_title = game_of(busy.game_id).title
                if busy.status == "lobby":
                    raise SessionError(T("A game of {game} is already gathering players here. Finish it, /resign, "
                                         "or ask the host to /abandon it — or play in another channel or thread.",
                                         game=busy_title))
                raise SessionError(T("A game of {game} is already running here. Finish it, /resign, or ask the host "
                                     "to /abandon it — or play in another channel or thread.", game=busy_title))
            try:
                meta = {} if hints is None else {HINTS_META: hints}
                if pace:
                    meta["pace"] = pace
                meta = await self._table_meta(meta, guild_id, game_id, players)
                row = await self.store.create_session(channel_id, game_id, host, opts, self.seeds(), guild_id,
                                                      players=players, meta=meta)
            except self.store.integrity_errors:
                raise SessionError(T("A game is already open here.")) from None
        notes = [T("{player} opened a lobby for {game}.", player=player_ref(host), game=game.title)]
        notes += [T("{player} joined ({seated}/{seats}).", player=player_ref(p), seated=i, seats=seats)
                  for i, p in enumerate(players[1:], 2)]
        return self.states.view(row, notes=notes)

    @rerun_when_stale
    async def join(self, channel_id: str, player: str) -> Update:
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            game = game_of(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("This game has already started; wait for the next one."))
            if player in row.players:
                raise SessionError(T("You are already seated. Wait for the host to /start."))
            if is_ai(player):
                raise SessionError(T("AI players are seated by the host (Add AI), not by /join."))
            seats = max(game.seat_counts(row.options) or [game.max_players])
            if len(row.players) >= seats:
                more = game.more_seats(row.options)
                if more:
                    raise SessionError(N("The lobby is full ({n} player with these options; {more}). Wait for the next "
                                         "game.", "The lobby is full ({n} players with these options; {more}). Wait "
                                         "for the next game.", n=seats, more=more))
                raise SessionError(N("The lobby is full ({n} player with these options). Wait for the next game.",
                                     "The lobby is full ({n} players with these options). Wait for the next game.",
                                     n=seats))
            players = row.players + [player]
            meta = await self._table_meta(row.meta, row.guild_id, row.game_id, players)
            await self.store.update_session(row.id, row.version, players=players, meta=meta)
            row = await self.store.session(row.id)
        return self.states.view(row, notes=[T("{player} joined ({seated}/{seats}).", player=player_ref(player),
                                                 seated=len(players), seats=seats)])

    @rerun_when_stale
    async def leave(self, channel_id: str, player: str) -> Update:
        """Leave a lobby. A host who leaves hands the lobby to the next person seated (never an AI seat); the last
        person out closes it."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game has started: use /resign to leave it."))
            if player not in row.players:
                raise SessionError(T("You are not seated in this lobby."))
            players = [p for p in row.players if p != player]
            notes = [T("{player} left.", player=player_ref(player))]
            people = [p for p in players if not is_ai(p)]
            if not people:  # AI seats never host: the last person out closes the lobby
                await self.store.update_session(row.id, row.version, players=players, status="abandoned")
                notes.append(T("The lobby is closed."))
            else:
                host = row.host if row.host != player else people[0]
                if host != row.host:
                    notes.append(T("{player} is now the host.", player=player_ref(host)))
                meta = await self._table_meta(row.meta, row.guild_id, row.game_id, players)
                await self.store.update_session(row.id, row.version, players=players, host=host, meta=meta)
            row = await self.store.session(row.id)
        return self.states.view(row, notes=notes)

    @rerun_when_stale
    async def cancel(self, channel_id: str, by: str, moderator: bool = False) -> Update:
        """Close a lobby (the host, or a moderator)."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            if row.status != "lobby":
                raise SessionError(T("The game has started: use /abandon to end it."))
            if by != row.host and not moderator:
                raise SessionError(T("Only the host, {host}, can cancel the lobby.", host=player_ref(row.host)))
            await self.store.update_session(row.id, row.version, status="abandoned")
            row = await self.store.session(row.id)
        return self.states.view(row, notes=[T("{player} cancelled the lobby.", player=player_ref(by))])

    @rerun_when_stale
    async def start(self, channel_id: str, by: str) -> Update:
        """Deal the game (``Game.setup`` with the lobby's seed) — the host only, with enough players."""
        async with self.lock(channel_id):
            row = await self.rows.live(channel_id)
            game = game_of(row.game_id)
            if row.status != "lobby":
                raise SessionError(T("The game is already running."))
            if by != row.host:
                raise SessionError(T("Only the host, {host}, can start the game.", host=player_ref(row.host)))
            if len(row.players) < game.min_players:
                need = game.min_players - len(row.players)
                raise SessionError(T("{game} needs at least {least} players: {need} more must /join first (or the "
                                     "host adds AI players).", game=game.title, least=game.min_players, need=need))
            try:
                opening = game.begin(list(row.players), row.options, row.seed)
                state = opening.state
            except ValueError as exc:  # e.g. options that do not fit this many players (checked at setup)
                why = refusal(exc)
                if str(why).endswith("."):  # the engine's sentence, its full stop kept (translated as a whole)
                    raise SessionError(T("{game} cannot start: {problem} Change the seats (/join, /leave), or cancel "
                                         "the lobby and /play again with other options.", game=game.title,
                                         problem=why)) from None
                raise SessionError(T("{game} cannot start: {problem}. Change the seats (/join, /leave), or cancel "
                                     "the lobby and /play again with other options.", game=game.title,
                                     problem=why)) from None
            pending = game.pending(state)
            plan = self.planner.plan(row, game, state, pending)
            async with self.store.transaction() as db:
                await self.store.lock_session(db, row.id, row.version)
                await self.store.update_session(
                    row.id, row.version, db=db, status="active", state=state.model_dump_json(),
                    meta={**self.planner.with_plans(row.meta, plan), "started_ms": self.clock()},
                )
                await self.deadlines.schedule(db, row, pending)
                await self.planner.schedule(db, row, plan)
            row = await self.store.session(row.id)
            self.states.remember(row.id, row.version, state, pending)
        return self.states.view(row, events=opening.events, notes=[T("{game} begins!", game=game.title)])


__all__ = ["STALE_RETRIES", "Lobby", "option_problems", "rerun_when_stale"]
