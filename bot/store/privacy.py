"""One member's data forgotten, and old finished games pruned: :class:`PrivacyData`, a part of
:class:`bot.store.base.Store` (shared SQL, ``?`` placeholders, both backends).

Where a member's Discord id, display name, rating or preference is stored (``PRIVACY.md`` lists the same for
operators):

- ``sessions``: ``host``, ``players`` (JSON list), ``state`` (the game's JSON state: seats, hands, scores, texts with
  ``{@id}`` references), ``options`` and ``meta`` (JSON: AI plans, the stored result);
- ``moves``: ``player`` and ``option`` (some option ids name a player, e.g. Tatamokatsu's ``victim:<id>``);
- ``timers``: ``payload`` (``reminder``, ``afk`` and ``departed`` timers name the player they are about);
- ``finished_games``: ``result`` (JSON: winners, ranking, scores, the reason text);
- ``game_records``: ``reason`` and ``options``; ``game_seats``: ``player_id``, ``display_name`` and the rating
  before and after the game (``mu_*``, ``sigma_*``);
- ``ratings``: one row per (server, game) with ``player_id`` and ``display_name``;
- ``discord_sessions``: ``data`` (JSON: ``names`` id -> display name, an undo vote's ``by`` and ``yes``);
- ``discord_players``: the member's preferences (``mute_turn_pings``);
- ``channel_settings`` and ``bot_meta``: no member data is written there; they are scanned all the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

import games

FORMER_NAME = "a former player"
"""The display name a forgotten member's seats keep."""
FORMER_PREFIX = "former-"
"""The player id a forgotten member's seat gets in each session: ``former-<n>`` (``n`` their seat number, 1-based;
another free number when they were not seated). One id per session, so their games cannot be linked to each other
or to them."""
SNOWFLAKE_DIGITS = 15
"""A JSON number equal to the member's id is theirs only when the id is that long (a Discord snowflake): a short
offline id such as ``7`` would hit scores and counts."""
PERSONAL_TIMERS = ("reminder", "afk", "departed")
"""Timer kinds that exist only for the player they name: deleted, not anonymised."""


def is_former(player_id: str | None) -> bool:
    """Whether ``player_id`` is a forgotten member's seat (``former-<n>``)."""
    return bool(player_id) and player_id.startswith(FORMER_PREFIX) and player_id[len(FORMER_PREFIX):].isdigit()


def _token(user_id: str) -> re.Pattern[str]:
    """``user_id`` as a whole token: not part of a longer id, word or number (``{@id}``, ``victim:id`` match)."""
    return re.compile(rf"(?<![0-9A-Za-z_]){re.escape(user_id)}(?![0-9A-Za-z_])")


@dataclass
class Scrubber:
    """Replaces one member's id by a pseudonym in strings (as a whole token), dict keys and JSON values (numbers
    equal to a snowflake id too)."""

    user_id: str
    pseudonym: str
    pattern: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        self.pattern = _token(self.user_id)

    def text(self, value: str | None) -> str | None:
        return None if value is None else self.pattern.sub(self.pseudonym, value)

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and len(self.user_id) >= SNOWFLAKE_DIGITS and self.user_id.isdigit() \
                and value == int(self.user_id):
            return self.pseudonym
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value

    def json(self, text: str | None) -> str | None:
        """A JSON text with the id replaced (the text itself when it does not hold the id)."""
        if text is None or not self.holds(text):
            return text
        return json.dumps(self.value(json.loads(text)), ensure_ascii=False)

    def holds(self, text: str | None) -> bool:
        return text is not None and self.pattern.search(text) is not None


@dataclass
class Forgotten:
    """What :meth:`PrivacyData.forget_user` changed: table -> rows anonymised and rows deleted; ``sessions`` the ids
    of the sessions touched (adapters drop what they cache of them)."""

    user_id: str
    anonymised: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    sessions: list[int] = field(default_factory=list)

    def count(self, table: str, *, deleted: bool = False, n: int = 1) -> None:
        into = self.deleted if deleted else self.anonymised
        into[table] = into.get(table, 0) + n

    def lines(self) -> list[str]:
        """One line per table, e.g. ``game_seats: 3 rows anonymised``; ``nothing stored`` when none."""
        tables = sorted(set(self.anonymised) | set(self.deleted))
        out = []
        for t in tables:
            parts = [f"{n} row{'s' if n != 1 else ''} {what}" for n, what in
                     ((self.anonymised.get(t, 0), "anonymised"), (self.deleted.get(t, 0), "deleted")) if n]
            out.append(f"{t}: {', '.join(parts)}")
        return out or ["nothing stored"]

    @property
    def total(self) -> int:
        return sum(self.anonymised.values()) + sum(self.deleted.values())


def _like(user_id: str) -> str:
    """A LIKE pattern (``ESCAPE '\\'``) for text containing ``user_id``."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", user_id) + "%"


_HAS = "LIKE ? ESCAPE '\\'"


def _state_json(game_id: str, state: dict) -> str:
    """A scrubbed state in the form the session service stores (``model_dump_json`` of the game's state), so it
    still replays exactly; plain JSON for a game no longer known."""
    try:
        game = games.get(game_id)
    except KeyError:
        return json.dumps(state, ensure_ascii=False)
    return game.load_state(state).model_dump_json()


class PrivacyData:
    """Forgetting a member and pruning old games (needs the store's ``conn``, ``transaction`` and
    ``_for_update``)."""

    conn: Any
    _for_update: str
    transaction: Callable[[], AbstractAsyncContextManager[Any]]
    session: Callable[[int], Any]

    async def member_live_sessions(self, user_id: str) -> list[Any]:
        """Every lobby and active session ``user_id`` is seated in (whatever the shard), oldest first."""
        cur = await self.conn.execute(
            f"SELECT id FROM sessions WHERE status IN ('lobby', 'active') AND (host = ? OR players {_HAS})"
            " ORDER BY id", (user_id, _like(user_id)))
        rows = [await self.session(r[0]) for r in await cur.fetchall()]
        return [r for r in rows if r is not None and user_id in r.players]

    async def forget_user(self, user_id: str) -> Forgotten:
        """Delete or anonymise everything stored about member ``user_id``, in ONE transaction (every place is listed
        in this module's docstring):

        - in each session that names them, their id becomes ``former-<n>`` (:data:`FORMER_PREFIX`) everywhere —
          host, seats, state, moves, timers, result, record, seats' rows, adapter data — and their display name
          :data:`FORMER_NAME`; the session's version is bumped (every process re-reads it);
        - their seats' rating before and after each game is cleared; every other seat, record and rating is left
          byte for byte as it was;
        - their ratings rows, their preferences (``discord_players``) and the ``reminder``/``afk``/``departed``
          timers about them are deleted.

        Resigning them from live games first is the caller's rule (:func:`bot.privacy.forget_member`). Returns
        what changed (:class:`Forgotten`); forgetting twice changes nothing the second time."""
        user_id = str(user_id)
        if not user_id or is_former(user_id):
            raise ValueError(f"{user_id!r} is not a member's id")
        report = Forgotten(user_id)
        like = _like(user_id)
        async with self.transaction() as db:
            sessions = await self._sessions_naming(db, user_id, like)
            report.sessions = sorted(sessions)
            pseudonyms = {sid: Scrubber(user_id, _pseudonym(user_id, players)) for sid, players in
                          sessions.items()}
            loose = Scrubber(user_id, FORMER_PREFIX + "0")
            await self._forget_sessions(db, user_id, like, pseudonyms, report)
            await self._forget_moves(db, user_id, like, pseudonyms, report)
            await self._forget_timers(db, like, pseudonyms, loose, report)
            await self._forget_results(db, like, pseudonyms, report)
            await self._forget_seats(db, user_id, like, pseudonyms, report)
            await self._forget_adapter(db, like, pseudonyms, report)
            for table, key in (("ratings", "player_id"), ("discord_players", "player_id")):
                cur = await db.execute(f"DELETE FROM {table} WHERE {key} = ?", (user_id,))
                if cur.rowcount:
                    report.count(table, deleted=True, n=cur.rowcount)
            for table, key, col in (("ratings", "guild_id, game_id, player_id", "display_name"),
                                    ("channel_settings", "channel_id", "settings"), ("bot_meta", "key", "value")):
                await self._scrub_column(db, table, key, col, like, loose, report)
        self.forget_player_data(user_id)
        return report

    async def _sessions_naming(self, db, user_id: str, like: str) -> dict[int, list[str]]:
        """Session id -> its seats, for every session any row of which names ``user_id`` (rows locked)."""
        cur = await db.execute(
            f"SELECT id FROM sessions WHERE host = ? OR players {_HAS} OR state {_HAS} OR meta {_HAS}"
            f" OR options {_HAS}"
            f" UNION SELECT session_id FROM moves WHERE player = ? OR option {_HAS}"
            f" UNION SELECT session_id FROM timers WHERE session_id IS NOT NULL AND payload {_HAS}"
            f" UNION SELECT session_id FROM finished_games WHERE result {_HAS}"
            f" UNION SELECT session_id FROM game_seats WHERE player_id = ? OR display_name {_HAS}"
            f" UNION SELECT session_id FROM game_records WHERE reason {_HAS} OR options {_HAS}"
            f" UNION SELECT session_id FROM discord_sessions WHERE data {_HAS}",
            (user_id, like, like, like, like, user_id, like, like, like, user_id, like, like, like, like))
        ids = sorted({r[0] for r in await cur.fetchall()})
        out: dict[int, list[str]] = {}
        for sid in ids:
            cur = await db.execute(f"SELECT players FROM sessions WHERE id = ?{self._for_update}", (sid,))
            row = await cur.fetchone()
            out[sid] = json.loads(row[0]) if row else []
        return out

    async def _forget_sessions(self, db, user_id: str, like: str, scrub: dict[int, Scrubber],
                               report: Forgotten) -> None:
        cur = await db.execute(
            "SELECT id, game_id, host, players, options, state, meta FROM sessions WHERE id IN"
            f" ({', '.join('?' * len(scrub)) or 'NULL'})", list(scrub))
        for sid, game_id, host, players, options, state, meta in await cur.fetchall():
            s = scrub[sid]
            if not any(s.holds(v) for v in (host, players, options, state, meta)):
                continue
            new_state = state
            if s.holds(state):
                new_state = _state_json(game_id, s.value(json.loads(state)))
            await db.execute(
                "UPDATE sessions SET host = ?, players = ?, options = ?, state = ?, meta = ?, version = version + 1"
                " WHERE id = ?",
                (s.text(host), s.json(players), s.json(options), new_state, s.json(meta), sid))
            report.count("sessions")

    async def _forget_moves(self, db, user_id: str, like: str, scrub: dict[int, Scrubber],
                            report: Forgotten) -> None:
        cur = await db.execute(f"SELECT session_id, seq, player, option FROM moves WHERE player = ? OR option {_HAS}",
                               (user_id, like))
        rows = [(scrub[sid].text(player), scrub[sid].text(option), sid, seq)
                for sid, seq, player, option in await cur.fetchall()
                if scrub[sid].holds(player) or scrub[sid].holds(option)]
        if rows:
            await db.executemany("UPDATE moves SET player = ?, option = ? WHERE session_id = ? AND seq = ?", rows)
            report.count("moves", n=len(rows))

    async def _forget_timers(self, db, like: str, scrub: dict[int, Scrubber], loose: Scrubber,
                             report: Forgotten) -> None:
        cur = await db.execute(f"SELECT id, session_id, kind, payload FROM timers WHERE payload {_HAS}", (like,))
        for tid, sid, kind, payload in await cur.fetchall():
            s = scrub.get(sid, loose)
            if not s.holds(payload):
                continue
            if kind in PERSONAL_TIMERS and str(json.loads(payload).get("player")) == s.user_id:
                await db.execute("DELETE FROM timers WHERE id = ?", (tid,))
                report.count("timers", deleted=True)
            else:
                await db.execute("UPDATE timers SET payload = ? WHERE id = ?", (s.json(payload), tid))
                report.count("timers")

    async def _forget_results(self, db, like: str, scrub: dict[int, Scrubber], report: Forgotten) -> None:
        cur = await db.execute(f"SELECT session_id, result FROM finished_games WHERE result {_HAS}", (like,))
        for sid, result in await cur.fetchall():
            if scrub[sid].holds(result):
                await db.execute("UPDATE finished_games SET result = ? WHERE session_id = ?",
                                 (scrub[sid].json(result), sid))
                report.count("finished_games")
        cur = await db.execute(
            f"SELECT session_id, reason, options FROM game_records WHERE reason {_HAS} OR options {_HAS}",
            (like, like))
        for sid, reason, options in await cur.fetchall():
            s = scrub[sid]
            if s.holds(reason) or s.holds(options):
                await db.execute("UPDATE game_records SET reason = ?, options = ? WHERE session_id = ?",
                                 (s.text(reason), s.json(options), sid))
                report.count("game_records")

    async def _forget_seats(self, db, user_id: str, like: str, scrub: dict[int, Scrubber],
                            report: Forgotten) -> None:
        cur = await db.execute("SELECT session_id, seat FROM game_seats WHERE player_id = ?", (user_id,))
        rows = [(scrub[sid].pseudonym, FORMER_NAME, sid, seat) for sid, seat in await cur.fetchall()]
        if rows:
            await db.executemany(
                "UPDATE game_seats SET player_id = ?, display_name = ?, mu_before = NULL, sigma_before = NULL,"
                " mu_after = NULL, sigma_after = NULL WHERE session_id = ? AND seat = ?", rows)
            report.count("game_seats", n=len(rows))
        cur = await db.execute(f"SELECT session_id, seat, display_name FROM game_seats WHERE display_name {_HAS}"
                               " AND player_id <> ?", (like, user_id))
        for sid, seat, name in await cur.fetchall():
            if scrub[sid].holds(name):
                await db.execute("UPDATE game_seats SET display_name = ? WHERE session_id = ? AND seat = ?",
                                 (scrub[sid].text(name), sid, seat))
                report.count("game_seats")

    async def _forget_adapter(self, db, like: str, scrub: dict[int, Scrubber], report: Forgotten) -> None:
        cur = await db.execute(f"SELECT session_id, data FROM discord_sessions WHERE data {_HAS}", (like,))
        for sid, data in await cur.fetchall():
            s = scrub[sid]
            if not s.holds(data):
                continue
            value = json.loads(data)
            names = value.get("names") if isinstance(value, dict) else None
            if isinstance(names, dict) and s.user_id in names:
                names[s.user_id] = FORMER_NAME  # their display name goes; the scrub renames the key
            await db.execute("UPDATE discord_sessions SET data = ? WHERE session_id = ?",
                             (json.dumps(s.value(value), ensure_ascii=False), sid))
            report.count("discord_sessions")

    async def _scrub_column(self, db, table: str, key: str, col: str, like: str, s: Scrubber,
                            report: Forgotten) -> None:
        """Replace the id in ``table.col`` (rows found by ``LIKE``; ``key`` the primary key's columns)."""
        keys = [k.strip() for k in key.split(",")]
        cur = await db.execute(f"SELECT {key}, {col} FROM {table} WHERE {col} {_HAS}", (like,))
        for row in await cur.fetchall():
            *ids, value = row
            if not s.holds(value):
                continue
            where = " AND ".join(f"{k} = ?" for k in keys)
            await db.execute(f"UPDATE {table} SET {col} = ? WHERE {where}", (s.text(value), *ids))
            report.count(table)

    async def prune_records(self, before_ms: int) -> list[int]:
        """Delete every finished or abandoned session that ended before ``before_ms`` (wall-clock ms: its record's
        end, else its last change), with its moves, timers, result, record, seats and adapter data (foreign keys
        ``ON DELETE CASCADE``), in one transaction; ratings stay. Lobbies and running games are never touched.
        Returns the ids of the sessions deleted (their replay files go too: :func:`bot.privacy.prune_records`)."""
        async with self.transaction() as db:
            cur = await db.execute(
                "SELECT id FROM sessions WHERE status IN ('finished', 'abandoned') AND COALESCE((SELECT r.ended_ms"
                " FROM game_records r WHERE r.session_id = sessions.id), updated_ms) < ? ORDER BY id", (before_ms,))
            ids = [int(r[0]) for r in await cur.fetchall()]
            if ids:
                await db.execute(f"DELETE FROM sessions WHERE id IN ({','.join('?' * len(ids))})", ids)
            return ids


def _pseudonym(user_id: str, players: list[str]) -> str:
    """``former-<seat number>`` for a seated member, else the first ``former-<n>`` no seat of the session uses."""
    n = players.index(user_id) + 1 if user_id in players else len(players) + 1
    while FORMER_PREFIX + str(n) in players:
        n += 1
    return f"{FORMER_PREFIX}{n}"


__all__ = ["FORMER_NAME", "FORMER_PREFIX", "PERSONAL_TIMERS", "Forgotten", "PrivacyData", "Scrubber", "is_former"]
