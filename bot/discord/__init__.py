"""The Discord adapter (ARCHITECTURE.md, "The Discord adapter").

Slash commands and components turn into :class:`bot.sessions.SessionService` calls — the service makes every check
and words every refusal (``press``, ``act``, ``ask_undo``/``vote_undo``, …) — and the table keeps one live message
per turn (board image, the turn's events, the pending decisions as buttons or select menus, "How to play" and "Full
board"): a press by the player who keeps deciding edits it in place, a new message (pinging only the player whose
turn starts) is posted when the decision passes on or a race opens (``Table.send_board``); every other answer
(refusals, news of what was done, stale presses) is ``bot.answers``'. Modules:

- ``bot.py`` — :class:`PlayBot` (intents, ``setup_hook``: cogs, dynamic items, the timer dispatcher; the command
  tree's error answers);
- ``table.py`` — the live board message of each session (post, edit in place, retire, catch up; private boards):
  cogs use ``bot.table``;
- ``answers.py`` — every answer to a player: refusals (``refuse``), news of what was done (``tell``, ``counted``),
  any message (``send``), stale presses, the board a channel missed, and the 3 s budget counted from an
  interaction's snowflake (defer first when late, slow renders): cogs use ``bot.answers``;
- ``edits.py`` — REST edits of board messages after the interaction was answered (the latest content per message,
  in order, retried);
- ``present.py`` — texts and components of a lobby or board; ``BoardText`` is the Discord form of
  :func:`bot.board_text.build_board`, which alone decides what a board says (built once per board; its forms —
  with or without the image, live or retired — are parameters);
- ``images.py`` — board images, rendered off the event loop and cached per board version;
- ``ids.py`` — the ``custom_id`` formats of every component (session id and board version inside);
- ``components.py`` — the persistent ``DynamicItem`` templates (buttons and selects survive restarts);
- ``lobby.py``, ``play.py``, ``admin.py``, ``races.py``, ``results.py``, ``places.py``, ``departures.py`` — the cogs
  (lobbies; moves, boards, rules and help; undo, idle players, kick, settings; typed race inputs and reactions;
  stats, leaderboards and replays; channels and threads that go; members who leave);
- ``timers.py`` — the one dispatcher loop: a due timer fires as the ``on_<kind>_timer_complete`` event of the cog
  that owns its kind, every kind with one :class:`bot.service.timers.Timer`;
- ``links.py`` — the adapter's own data (message ids, display names, undo requests, channel settings, turn-ping
  mutes): the one module that talks to the store;
- ``prefs.py`` — channel settings over the defaults, cached;
- ``bookkeeping.py`` — after-reply writes of posted boards (board ids, reminder/AFK timers), batched;
- ``delivery.py`` — posts outside an interaction (race results, reminders, AFK notices, timers' boards, thread
  lobby cards): retried with backoff, logged once per session and surfaced at the channel's next interaction when
  they keep failing;
- ``freshness.py`` — which typed ``/move`` came too late (sent before the board it acts on was shown);
- ``cooldowns.py`` — per-member and per-channel cooldowns on the service clock;
- ``permissions.py`` — the channel permissions the bot needs, and which are missing;
- ``language.py`` — whose language: the channel's for a table's public messages and images, the reader's for an
  ephemeral answer, noted for the task that handles an interaction or a timer;
- ``lessons.py`` — the cog of ``/learn``: a guided first game (:mod:`bot.service.lessons`) in a new thread of the
  learner's, or as ephemeral steps; its option selects carry the steps done, so nothing is stored;
- ``privacy.py`` — the cog of ``/privacy`` and ``/forget-me`` (confirmed by buttons), and the daily pruning of old
  finished games;
- ``mygames.py`` — the cog of ``/mygames`` (a member's games across servers, :mod:`bot.service.members`) and
  ``/away`` (:mod:`bot.service.away`);
- ``notify.py`` — ``/notify``, direct messages (one per turn, the Stop button, closed DMs), reminders, a wait's
  timers and its lines on the board, the end of a game, a lobby about to close;
- ``stand_in.py`` — the AI stand-in's buttons ("The AI plays for X", "I'm back", "Remove X") and the departure's
  default (:mod:`bot.service.stand_in`);
- ``teaching.py`` — the cog of ``/hint`` (the strong AI's advice, :mod:`bot.service.hints`);
- ``translator.py`` — slash commands in each user's client language (the ``commands`` catalogue domain);
- ``sync.py`` — the slash commands as Discord receives them, synced only when they changed;
- ``runner.py`` — ``run(settings) -> int`` for ``python -m bot run``.

The rules and help texts every adapter shows are :mod:`bot.rules_help`.

Tests drive all of it offline through ``tests/discord/harness.py`` (real gateway payloads into discord.py's
``ConnectionState``, REST and interaction responses recorded); other games can be played through it too
(``Harness.choose(user, option_id)``).
"""
