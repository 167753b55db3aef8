"""The parts the session service (:class:`bot.sessions.SessionService`, a facade of verbs) is composed of, each a
class given exactly what it needs (typed by a :class:`typing.Protocol` where an adapter supplies it):

- :mod:`.board` — :class:`~.board.Update`, the channel locks and the parsed states kept per session version;
- :mod:`.ledger` — the one write path of a move (its transaction, the deadlines, AI timers and record with it);
- :mod:`.deadlines` — decisions' deadline timers: scheduled with each move, fired as the system's timeout move;
- :mod:`.ai_turns` — AI seats: their planned timers and what firing them does;
- :mod:`.lobby` — opening, seating (people and AI seats), cancelling and starting a game;
- :mod:`.resignations` — a player resigns or is removed (also an idle one, after the channel's AFK limit);
- :mod:`.undo` — the undo rule (asks, votes, the take-back); the votes are kept where the adapter says
  (:class:`~.undo.UndoVotes`);
- :mod:`.timers` — the durable timers for an adapter's dispatcher and its own kinds, and the one
  :class:`~.timers.Timer` event every kind fires as;
- :mod:`.records` — ended games' records, ratings and standings, and the record written when a game ends;
- :mod:`.reads` — the sessions and move logs adapters read;
- :mod:`.privacy` — a member's games found, their data forgotten, old records pruned;
- :mod:`.members` — a member's live games across channels and servers (``/mygames``);
- :mod:`.notifications` — how a member is told (channel, direct message, both, off; muted games) and the digest
  of a game since their last move;
- :mod:`.pace` — a game's pace: its reminders and move deadline;
- :mod:`.away` — a member's time away, which freezes their reminders and deadlines.
- :mod:`.hints` — ``/hint`` (the strong AI's best options), the lobby's ``hints:`` and the unrated mark, a new
  table's first-contact line, the turning points of a finished game.
"""
