"""How a member is told that a game waits on them: the route they chose, the games they muted, and the digest a
direct message carries.

Per member (kept with the member's data, ``Store.players_data`` / ``update_player_data``):

- ``notify``: ``channel`` (the turn ping in the game's channel, the default), ``dm`` (a direct message instead),
  ``both`` or ``off``; a member who turned their turn pings off (``/pings turn:off``, ``mute_turn_pings``) and
  chose no route is ``off``;
- ``muted_games``: session ids of games the member muted (no ping, no direct message for them);
- ``dm_closed``: Discord refused a direct message (error 50007): their turns go to the channel until they choose
  ``dm`` or ``both`` again; ``dm_note``: they have not been told yet (one ephemeral note at their next
  interaction, in whichever process it comes to: kept in the store, so it also survives a restart).

The digest of a direct message: the event lines of a game since that player's last move, rebuilt by replaying the
move log (the state is never stored per move), the first :data:`DIGEST_LINES` of them, ending with a "…" line when
there were more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import Event, Move
from games.core import T, Text, player_ref

from ..store import SessionRow
from ..store.records import RESIGN_MOVE

ROUTES = ("channel", "dm", "both", "off")
"""How a member may be told that a game waits on them."""
DIGEST_LINES = 6
"""Event lines a direct message carries at the most (the first since the player's last move)."""
MORE = "…"


@dataclass(frozen=True)
class MemberPrefs:
    """One member's choices: ``route`` (:data:`ROUTES`), ``muted`` (session ids), ``away_until`` (ms or None),
    ``dm_closed`` (Discord refused their direct messages), ``dm_note`` (they are owed the note saying so)."""

    route: str = "channel"
    muted: frozenset[int] = field(default_factory=frozenset)
    away_until: int | None = None
    dm_closed: bool = False
    dm_note: bool = False

    @classmethod
    def of(cls, data: dict[str, Any]) -> MemberPrefs:
        route = data.get("notify")
        if route not in ROUTES:
            route = "off" if data.get("mute_turn_pings") else "channel"
        away = data.get("away_until")
        return cls(route, frozenset(int(s) for s in data.get("muted_games", [])),
                   int(away) if away is not None else None, bool(data.get("dm_closed")), bool(data.get("dm_note")))

    def in_channel(self, session_id: int) -> bool:
        """Whether a game's turn pings this member in its channel (also when their direct messages are closed)."""
        if session_id in self.muted or self.route == "off":
            return False
        return self.route in ("channel", "both") or (self.route == "dm" and self.dm_closed)

    def by_dm(self, session_id: int) -> bool:
        """Whether a game's turns reach this member by direct message."""
        return session_id not in self.muted and self.route in ("dm", "both") and not self.dm_closed

    def away(self, now_ms: int) -> bool:
        """Whether the member is away at ``now_ms``."""
        return self.away_until is not None and now_ms < self.away_until


class Notifications:
    """The members' notification choices over a :class:`bot.store.Store`."""

    def __init__(self, store) -> None:
        self.store = store

    async def prefs(self, players: list[str] | set[str] | frozenset[str]) -> dict[str, MemberPrefs]:
        """Player id -> their :class:`MemberPrefs` (the defaults for a member who chose nothing)."""
        data = await self.store.players_data(sorted(players))
        return {p: MemberPrefs.of(data.get(p, {})) for p in players}

    async def of(self, player: str) -> MemberPrefs:
        return (await self.prefs([player]))[player]

    async def choose(self, player: str, route: str) -> MemberPrefs:
        """Set ``player``'s route (one of :data:`ROUTES`; :class:`ValueError` otherwise). Choosing ``dm`` or
        ``both`` tries direct messages again after Discord refused them."""
        if route not in ROUTES:
            raise ValueError(T("There is no such choice: {choices}.", choices=", ".join(ROUTES)))
        changes: dict[str, Any] = {"notify": route}
        if route in ("dm", "both"):
            changes.update(dm_closed=None, dm_note=None)
        return MemberPrefs.of(await self.store.update_player_data(player, changes))

    async def mute(self, player: str, session_id: int, muted: bool) -> MemberPrefs:
        """Mute (or unmute) one game for ``player``."""
        data = await self.store.players_data([player])
        games = set(int(s) for s in data.get(player, {}).get("muted_games", []))
        games = games | {session_id} if muted else games - {session_id}
        return MemberPrefs.of(await self.store.update_player_data(player, {"muted_games": sorted(games) or None}))

    async def dm_refused(self, player: str) -> bool:
        """Discord refused a direct message to ``player`` (50007): their turns go to the channel, and they are told
        once at their next interaction. Returns True the first time (the channel ping falls back once)."""
        data = (await self.store.players_data([player])).get(player, {})
        if data.get("dm_closed"):
            return False
        await self.store.update_player_data(player, {"dm_closed": True, "dm_note": True})
        return True

    async def owes_note(self, player: str) -> bool:
        """Whether ``player`` is to be told that their direct messages are closed (the member's data as this
        process last read it, at most ``PLAYER_CACHE_S`` old: no statement at most interactions)."""
        return (await self.of(player)).dm_note

    async def take_note(self, player: str) -> bool:
        """Whether ``player`` is still to be told that their direct messages are closed, cleared in the same
        transaction: True once, whichever process asks."""
        return await self.store.take_player_flag(player, "dm_note")


def replayed(game, row: SessionRow, moves: list) -> list[tuple[Any, list[Event]]]:
    """``row``'s game replayed from its log: each move with the events it caused, the opening's first (move None).
    A resignation that ended the game closes the list."""
    opening = game.begin(list(row.players), row.options, row.seed)
    state, out = opening.state, [(None, list(opening.events))]
    for m in moves:
        if m.option == RESIGN_MOVE:
            outcome = game.resign(state, m.player)
            if outcome is None:
                out.append((m, [Event(kind="resign", text=T("{player} resigns. The game ends.",
                                                          player=player_ref(m.player)))]))
                break
        else:
            outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
        state = outcome.state
        out.append((m, list(outcome.events)))
    return out


def digest(game, row: SessionRow, moves: list, player: str, limit: int = DIGEST_LINES) -> list[Text | str]:
    """The event texts of ``row``'s game since ``player``'s last move (all of them when they have not moved): the
    first ``limit``, then a "…" line when some were left out."""
    steps = replayed(game, row, moves)
    last = max((i for i, (m, _) in enumerate(steps) if m is not None and m.player == player), default=0)
    texts = [e.text for _, events in steps[last + 1:] for e in events if e.text]
    return [*texts[:limit], MORE] if len(texts) > limit else texts


__all__ = ["DIGEST_LINES", "MORE", "ROUTES", "MemberPrefs", "Notifications", "digest", "replayed"]
