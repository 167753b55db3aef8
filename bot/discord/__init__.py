"""The Discord adapter (ARCHITECTURE.md, "The Discord adapter").

Slash commands and components turn into :class:`bot.sessions.SessionService` calls; the table keeps one live message
per turn (board image, the turn's events, the pending decisions as buttons or select menus, "How to play" and "Full
board"): a press by the player who keeps deciding edits it in place, a new message (pinging only the player whose
turn starts) is posted when the decision passes on or a race opens (issue 12; ``Play.send_board``). Modules:

- ``bot.py`` — :class:`PlayBot` (intents, ``setup_hook``: cogs, dynamic items, the timer dispatcher);
- ``ids.py`` — the ``custom_id`` formats of every component (session id and board version inside);
- ``links.py`` — the adapter's per-session data (message ids, display names, undo votes) in the store;
- ``present.py`` — texts, components and images of a lobby or board;
- ``components.py`` — the persistent ``DynamicItem`` templates (buttons and selects survive restarts);
- ``lobby.py``, ``play.py``, ``admin.py``, ``races.py`` — the cogs (slash commands, button handlers, typed
  race inputs and reactions);
- ``bookkeeping.py`` — after-reply writes of posted boards (board ids, reminder/AFK timers), batched;
- ``delivery.py`` — posts outside an interaction (race results, reminders, AFK notices, timers' boards, thread
  lobby cards): retried with backoff, logged once per session and surfaced at the channel's next interaction when
  they keep failing (issue 17);
- ``answers.py`` — answering within the 3 s counted from an interaction's snowflake (defer first when late);
- ``timers.py`` — the one dispatcher loop (deadlines, turn reminders, AFK limits);
- ``runner.py`` — ``run(settings) -> int`` for ``python -m bot run``.

Tests drive all of it offline through ``tests/discord/harness.py`` (real gateway payloads into discord.py's
``ConnectionState``, REST and interaction responses recorded); other games can be played through it too
(``Harness.choose(user, option_id)``).
"""
