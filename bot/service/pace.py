"""A game's pace: how often the player a game waits on is reminded, and by when their move is due.

A pace is chosen per game when its lobby opens (``/play … pace:``, kept in the session's ``meta["pace"]``):

========  ===================  ==================  =====================================================
pace      reminder every       move due after      meant for
========  ===================  ==================  =====================================================
``live``  5 min                15 min              everyone at the table together (Tatamokatsu's races)
``fast``  1 h                  6 h                 a game over an evening
``day``   12 h                 72 h                a move a day (the default of every game but Tatamokatsu)
``week``  48 h                 7 days              a move now and then
========  ===================  ==================  =====================================================

A game opened without a pace follows its channel's ``/settings`` (turn reminder, AFK limit; by default the bot's
``REMINDER_HOURS`` and ``AFK_HOURS``, 12 and 72: the ``day`` pace) — except a game with a pace of its own
(:data:`GAME_PACE`: Tatamokatsu is ``live``) in a channel that saved neither setting. Reminders repeat at the pace's interval until the
deadline, at most :data:`MAX_REMINDERS` per wait; what happens when the deadline passes belongs to whoever listens
for the deadline timer (the ``afk`` kind). A member away (:mod:`.away`) has their clock frozen: a wait that starts
while they are away is timed from the end of their time away.

Times are ms on the service clock. Pure: no store, no clock of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import T, Text

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
REMINDER = "reminder"
"""Timer kind of a wait's reminder (payload ``{"version", "player", "due"}``)."""
MOVE_DEADLINE = "afk"
"""Timer kind of a wait's deadline (payload ``{"version", "player"}``): what happens then is its listener's."""
MAX_REMINDERS = 3
"""Reminders of one wait at the most (the last one before the deadline)."""


@dataclass(frozen=True)
class Pace:
    """``name`` (``live``, ``fast``, ``day``, ``week``; ``channel`` for a channel's own settings), the interval of
    the reminders (``remind_ms``, 0 = none) and the time a move is due after the wait starts (``deadline_ms``,
    0 = never)."""

    name: str
    remind_ms: int
    deadline_ms: int

    def deadline(self, start_ms: int) -> int | None:
        """When a wait that started at ``start_ms`` is due (ms), or None without a deadline."""
        return start_ms + self.deadline_ms if self.deadline_ms > 0 else None

    def reminders(self, start_ms: int) -> list[int]:
        """The reminder times (ms) of a wait that started at ``start_ms``: every ``remind_ms``, before the deadline,
        at most :data:`MAX_REMINDERS`."""
        if self.remind_ms <= 0:
            return []
        due = self.deadline(start_ms)
        times = [start_ms + k * self.remind_ms for k in range(1, MAX_REMINDERS + 1)]
        return [t for t in times if due is None or t < due]


PACES: dict[str, Pace] = {
    "live": Pace("live", 5 * MINUTE_MS, 15 * MINUTE_MS),
    "fast": Pace("fast", HOUR_MS, 6 * HOUR_MS),
    "day": Pace("day", 12 * HOUR_MS, 72 * HOUR_MS),
    "week": Pace("week", 48 * HOUR_MS, 7 * DAY_MS),
}
"""Every pace a game may be given, by name."""
PACE_NAMES = tuple(PACES)
GAME_PACE: dict[str, str] = {"tatamokatsu": "live"}
"""A game's own pace when neither ``/play`` nor its channel chose one; the other games follow the channel's settings
(by default those of ``day``)."""
DEFAULT_PACE = "day"

PACE_WORDS: dict[str, Text] = {
    "live": T("live (reminder every 5 min, move due in 15 min)"),
    "fast": T("fast (reminder every hour, move due in 6 h)"),
    "day": T("day (reminder every 12 h, move due in 3 days)"),
    "week": T("week (reminder every 2 days, move due in 7 days)"),
}
"""Each pace in words, as ``/play``'s lobby card says it."""


def pace_named(name: str | None) -> str | None:
    """``name`` checked (lower case, trimmed); None for None. :class:`ValueError` with a :class:`Text` saying the
    choices when it names no pace."""
    if name is None:
        return None
    key = name.strip().lower()
    if key not in PACES:
        raise ValueError(T("There is no pace '{pace}'. Paces: {paces}.", pace=name, paces=", ".join(PACE_NAMES)))
    return key


def pace_of(meta: dict, game_id: str, channel: dict | None = None) -> Pace:
    """The pace of a game: ``meta["pace"]`` (chosen at ``/play``); else the game's own default
    (:data:`GAME_PACE`) unless its channel saved a turn reminder or AFK limit; else the channel's settings
    (``channel``: ``reminder_hours`` and ``afk_hours``, h, 0 = off — the bot's defaults, ``REMINDER_HOURS`` and
    ``AFK_HOURS``, under what the channel saved, ``channel["saved"]``); without them, ``day``."""
    chosen = meta.get("pace")
    if chosen in PACES:
        return PACES[chosen]
    channel = channel or {}
    saved = channel.get("saved") or {}
    if game_id in GAME_PACE and not ("reminder_hours" in saved or "afk_hours" in saved):
        return PACES[GAME_PACE[game_id]]
    if "reminder_hours" not in channel and "afk_hours" not in channel:
        return PACES[DEFAULT_PACE]
    return Pace("channel", int(float(channel.get("reminder_hours") or 0) * HOUR_MS),
                int(float(channel.get("afk_hours") or 0) * HOUR_MS))


@dataclass(frozen=True)
class Wait:
    """The clock of one player's wait: when it started (``start_ms``, after any time away), its reminders and its
    deadline (ms; None: no deadline)."""

    start_ms: int
    reminders: list[int]
    deadline: int | None


def plan_wait(pace: Pace, now_ms: int, away_until_ms: int | None = None) -> Wait:
    """The reminders and deadline of a wait starting at ``now_ms`` for a player away until ``away_until_ms`` (their
    clock starts when they are back)."""
    start = max(now_ms, away_until_ms or 0)
    return Wait(start, pace.reminders(start), pace.deadline(start))


__all__ = ["MOVE_DEADLINE", "REMINDER", "DAY_MS", "DEFAULT_PACE", "GAME_PACE", "HOUR_MS", "MAX_REMINDERS", "MINUTE_MS", "PACES", "PACE_NAMES",
           "PACE_WORDS", "Pace", "Wait", "pace_named", "pace_of", "plan_wait"]
