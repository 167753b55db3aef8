"""Every rules and help text the adapters show — one home: Discord's ``/rules``, its How to play button and ``/help``,
and the sandbox's ``/rules`` and ``/help``. The per-game rule texts themselves are ``Game.rules_help`` and
``Game.summary`` (``games/<game>/help.py``); this module only frames them. Texts are at most :data:`MAX_CONTENT`
characters (Discord's message limit); ``{@id}`` refs are not used here.
"""

from __future__ import annotations

import games
from games import Game
from games.ai import LEVELS
from games.core import T, Text

from .results import RATING_HELP
from .sessions import SessionError

MAX_CONTENT = 2000
"""Discord's message limit (characters)."""
UNDO_RULE = ("/undo: a seated player asks to take back the last move and the other players approve (one refusal "
             "closes the request; any move meanwhile cancels it). Alone with AI players, it is taken back at once.")
"""The undo rule (:meth:`bot.sessions.SessionService.ask_undo`), the same on Discord and in the sandbox."""
AI_LEVEL_TEXT = {
    "easy": "Random legal moves; avoids losing at once",
    "normal": "Greedy: the best-looking move now",
    "strong": "Searches ahead before each move",
}
"""One line per AI level (``games.ai.LEVELS``) for the "Add AI" menu, ``/rules`` and ``/help``."""
_AI_LEVEL_LINE = {
    "easy": T("random legal moves; avoids losing at once"),
    "normal": T("greedy: the best-looking move now"),
    "strong": T("searches ahead before each move"),
}
AI_SEATS_LINE = T(
    "-# **AI players**: alone? `/play game ai:1 level:strong` seats AI players at once, or the host adds them with "
    "the lobby's Add AI menu (and removes them there before the start). Levels: {levels}.",
    levels=Text.join("; ", [Text.join(" — ", [lv, _AI_LEVEL_LINE.get(lv) or AI_LEVEL_TEXT.get(lv, "").lower()])
                            for lv in LEVELS]))
"""One line on AI seats under Discord's ``/rules`` and ``/help``."""
SANDBOX_HELP = f"""Commands: /play <game> [key=value …] [ai:<n> level:<easy|normal|strong>], /join, /leave, /start, /cancel,
/move <choice>, /board, /rules [game] [topic], /history, /resign, /abandon, /undo [no], /wait <ms>, /games, /help,
/stats [name] [game], /leaderboard <game>, /replay [#game] (writes an animated GIF).
A choice is its number in the last list, its id, or a chat word of the game.
{UNDO_RULE} Approve with /undo, refuse with /undo no."""
"""The sandbox's ``/help`` (and the end of an unknown command's refusal)."""


def rules_command(game: Game, topic: str | None = None) -> str:
    """Discord's ``/rules game [topic]``: the overview (with the other topics and :data:`AI_SEATS_LINE`) or one
    topic, a :class:`~games.core.Text` (the adapter says it in the reader's language; a text too long for
    :data:`MAX_CONTENT` is cut, in English). :class:`SessionError` for a topic the game does not have."""
    help_ = game.rules_help
    if topic and topic not in help_:
        known = ", ".join(t for t in help_ if t) or T("none")
        raise SessionError(T("{game} has no rules topic '{topic}'. Topics: {known}.", game=game.title, topic=topic,
                             known=known))
    parts: list = [T("**{game}** — {topic}", game=game.title, topic=topic or T("overview")),
                   help_.get(topic or "", game.summary)]
    others = [t for t in help_ if t and t != topic]
    if others:
        parts.append(T("More: /rules {game} topic: {topics}", game=game.id, topics=", ".join(others)))
    if not topic:
        parts.append(AI_SEATS_LINE)
    text = Text.join("\n", parts)
    if len(text) <= MAX_CONTENT:
        return text
    if topic:  # too long: cut as before (in English)
        return str(text)[:MAX_CONTENT]
    head = "\n".join(parts[:-1])
    return f"{head[:MAX_CONTENT - len(AI_SEATS_LINE) - 1]}\n{AI_SEATS_LINE}"[:MAX_CONTENT]


def how_to_play(game: Game, topic: str = "") -> str:
    """The "How to play" button and its topic select: the overview (``Game.rules_help[""]``, else the summary) or
    one topic, a :class:`~games.core.Text` (cut to :data:`MAX_CONTENT` in English when longer)."""
    help_ = game.rules_help
    text = Text.join("\n", [T("**{game}** — {topic}", game=game.title, topic=topic or T("how to play")),
                            help_.get(topic, game.summary if not topic else "")])
    return text if len(text) <= MAX_CONTENT else text[:MAX_CONTENT]


MAX_HELP = 600
"""Characters ``/help`` takes at most: one screen on a phone; the rest is in ``/rules`` (:func:`guide`)."""
TYPED_WORDS_OFF = T("-# Typed race words are off on this bot: use the race buttons or reactions.")
"""The line ``/help`` and ``/rules`` add when the bot cannot read typed race words."""


def help_command(typed_words: bool) -> str:
    """Discord's ``/help``, at most :data:`MAX_HELP` characters: how to start and answer, where the rest is
    (``/rules`` alone: commands, results, ratings, AI players; ``/rules game``: a game), and the games with every
    player count they allow (``Game.seats_summary``, from the lobby's own ``Game.seat_counts``). ``typed_words``:
    whether the bot reads typed race words (the Message Content intent)."""
    parts: list = [T("**Play-by-chat board games**, one game per channel or thread.\n"
                     "`/play game` opens a lobby; players `/join`, the host `/start`s; answer with the buttons.\n"
                     "`/rules game`: how to play · `/rules`: every command, results, ratings and AI players.")]
    parts += [Text.join(" · ", [Text.join(" ", [Text.join("", ["• **", g.title, "**"]), f"`{g.id}`"]),
                                g.seats_summary()]) for g in games.all()]
    gamelist = Text.join("\n", parts[1:])
    text = Text.join("\n", [parts[0], gamelist])
    if not typed_words:
        text = Text.join("\n", [text, TYPED_WORDS_OFF])
    return text


def guide(typed_words: bool) -> str:
    """Discord's ``/rules`` without a game: every command, results and ratings (:data:`RATING_HELP`), AI seats
    (:data:`AI_SEATS_LINE`) and the games (``/rules game`` for each); at most :data:`MAX_CONTENT` characters."""
    text = (
        "**Play-by-chat board games** — the commands. One game per channel or thread.\n"
        "`/play game [options] [thread]` open a lobby · `/join` `/leave` `/start` · "
        "`/move option` (or the buttons) · `/board [public] [full]` · `/history` · `/undo` (the others approve) · "
        "`/resign` · `/pings` (your own turn pings) · moderators: `/abandon`, `/kick` (or the host), `/settings`\n"
        "Results: `/stats [member] [game]` · `/leaderboard game` · `/replay [game]` (only you see them; "
        "`public:true` posts them) · every result has a Replay button.\n" + RATING_HELP + "\n" + AI_SEATS_LINE + "\n"
        "How to play: " + " · ".join(f"`/rules {g.id}`" for g in games.all())
    )
    if not typed_words:
        text += ("\n" + TYPED_WORDS_OFF + " (Its owner can turn them on with the Message Content intent in the "
                 "Discord developer portal.)")
    return text[:MAX_CONTENT]


def sandbox_rules(game_id: str | None = None, topic: str | None = None) -> str:
    """The sandbox's ``/rules [game] [topic]``: the game list, a game's overview and topics, or one topic.
    :class:`SessionError` for an unknown game or topic."""
    if not game_id:
        return "Which game? " + ", ".join(f"{g.id}: {g.summary}" for g in games.all())
    try:
        game = games.get(game_id.lower())
    except KeyError:
        raise SessionError(f"There is no game called '{game_id}'. /games lists them.") from None
    helps = game.rules_help
    if topic:
        text = helps.get(topic.lower())
        if text is None:
            raise SessionError(f"No topic '{topic}' for {game.title}. Topics: {', '.join(k for k in helps if k)}.")
        return f"{game.title} — {topic}: {text}"
    topics = ", ".join(k for k in helps if k)
    return f"{game.title}: {helps.get('', game.summary)}" + (f" Topics: {topics}." if topics else "")


__all__ = ["AI_LEVEL_TEXT", "AI_SEATS_LINE", "MAX_HELP", "SANDBOX_HELP", "UNDO_RULE", "guide", "help_command",
           "how_to_play",
           "rules_command", "sandbox_rules"]
