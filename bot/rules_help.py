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

from .ai_seats import LEVEL_NAMES, named
from .i18n import SOURCE, language
from .matching import find_game, find_topic
from .results import RATING_HELP
from .sessions import SessionError

MAX_CONTENT = 2000
"""Discord's message limit (characters)."""
UNDO_RULE = T("/undo: a seated player asks to take back the last move and the other players approve (one refusal "
              "closes the request; any move meanwhile cancels it). Alone with AI players, it is taken back at once.")
"""The undo rule (:meth:`bot.sessions.SessionService.ask_undo`), the same on Discord and in the sandbox."""
AI_LEVEL_TEXT = {
    "easy": T("Random legal moves; avoids losing at once"),
    "normal": T("Greedy: the best-looking move now"),
    "strong": T("Searches ahead before each move"),
}
"""One line per AI level (``games.ai.LEVELS``) for the "Add AI" menu, ``/rules`` and ``/help``."""
_AI_LEVEL_CLAUSE = {
    "easy": T("random legal moves; avoids losing at once"),
    "normal": T("greedy: the best-looking move now"),
    "strong": T("searches ahead before each move"),
}
""":data:`AI_LEVEL_TEXT` inside a sentence (lower case in English)."""
_COMMA = T(", ")
"""The separator of listed items (each language has its own comma)."""
_SEMICOLON = T("; ")
"""The separator of listed clauses."""


def ai_seats_line(lang: str | None = None) -> str:
    """One line on AI seats under Discord's ``/rules`` and ``/help``, its levels :func:`named` for ``lang``."""
    return T(
        "-# **AI players**: alone? `/play game ai:1 level:strong` seats AI players at once, or the host adds them "
        "with the lobby's Add AI menu (and removes them there before the start). Levels: {levels}.",
        levels=Text.join(_SEMICOLON, [Text.join(" — ", [named(LEVEL_NAMES.get(lv, lv), lv, lang), _AI_LEVEL_CLAUSE.get(lv, "")])
                               for lv in LEVELS]),
    )


LIVE_MARK = T("⚡ all here at once")
"""A live game's mark in ``/help``'s list of games (``Game.live``)."""


def live_line(game: Game) -> Text:
    """The line of a live game (``Game.live``) on its lobby card, ``/rules`` and ``/help``."""
    return T("⚡ {game} is a live game: all players must be in the channel together (every roll opens a race of a "
             "few seconds).", game=game.title)


STAND_IN_LINE = T(
    "-# **Away?** Once a player's move is due (the game's pace deadline; without a pace, the channel's /settings), "
    "the others may let the AI play for them (the AI stand-in, at the normal level; a member who left the server "
    "gets it when their grace ends); they take their seat back with “I'm back” on the board.")
"""One line on the AI stand-in (:mod:`bot.service.stand_in`) under Discord's ``/rules``."""
AI_SEATS_LINE = ai_seats_line()
"""One line on AI seats under Discord's ``/rules`` and ``/help``."""
SANDBOX_HELP = T("""New to a game? /learn <game> teaches it step by step (answer with /learn <number>).
Commands: /play <game> [key=value …] [ai:<n> level:<easy|normal|strong>] [hints:<on|off>], /join, /leave,
/start, /cancel, /move <choice>, /hint, /board, /rules [game] [topic], /history, /resign, /abandon, /undo [no],
/here (a live table's roll waits for you), /wait <ms>, /games, /mygames, /help, /stats [name] [game], /leaderboard <game>, /replay [#game] (writes an animated GIF).
A choice is its number in the last list, its id, or a chat word of the game.
{undo} Approve with /undo, refuse with /undo no.""", undo=UNDO_RULE)
"""The sandbox's ``/help`` (and the end of an unknown command's refusal)."""



def clip(text: str, limit: int) -> str:
    """``text`` itself (a :class:`Text` stays translatable) when it has at most ``limit`` characters, else its
    first ``limit`` characters (English). Adapters clip again after translating (:data:`MAX_CONTENT`)."""
    return text if len(text) <= limit else str(text)[:limit]


def topics_text(game: Game, topics: list[str], lang: str | None = None) -> str:
    """``topics`` (keys of ``game.rules_help``) listed for a reader of ``lang``: ``dice, stop`` in English,
    ``ダイス（`dice`）、ストップ（`stop`）`` otherwise (:func:`named`)."""
    if language(lang) == SOURCE:
        return Text.join(T(", "), topics)
    return Text.join(_COMMA, [named(game.topic_name(t), t, lang) for t in topics])


def rules_command(game: Game, topic: str | None = None, lang: str | None = None) -> str:
    """Discord's ``/rules game [topic]``: the overview (with the other topics and :func:`ai_seats_line`) or one
    topic, a :class:`Text`, its topics and levels listed for a reader of ``lang`` (:func:`topics_text`; None:
    English); the topic by its key or its name in any language (:func:`bot.matching.find_topic`).
    :class:`SessionError` for a topic the game does not have."""
    help_ = game.rules_help
    topic = (find_topic(game, topic) or topic) if topic else topic  # ダイス as well as dice
    if topic and topic not in help_:
        known = topics_text(game, [t for t in help_ if t], lang) if any(help_) else T("none")
        raise SessionError(T("{game} has no rules topic '{topic}'. Topics: {known}.", game=game.title, topic=topic,
                             known=known))
    text: str = T("**{game}** — {topic}\n{text}", game=game.title,
                  topic=game.topic_name(topic) if topic else T("overview"), text=help_.get(topic or "", game.summary))
    others = [t for t in help_ if t and t != topic]
    if others:
        text = Text.join("\n", [text, T("More: /rules {game} topic: {topics}", game=game.id,
                                         topics=topics_text(game, others, lang))])
    if not topic and game.live:
        text = Text.join("\n", [live_line(game), text])
    if not topic:
        line = ai_seats_line(lang)
        text = Text.join("\n", [clip(text, MAX_CONTENT - len(line) - 1), line])
    return clip(text, MAX_CONTENT)


def how_to_play(game: Game, topic: str = "") -> str:
    """The "How to play" button and its topic select: the overview (``Game.rules_help[""]``, else the summary) or
    one topic, a :class:`Text`."""
    help_ = game.rules_help
    text = T("**{game}** — {topic}\n{text}", game=game.title,
             topic=game.topic_name(topic) if topic else T("how to play"),
             text=help_.get(topic, game.summary if not topic else ""))
    return clip(text, MAX_CONTENT)


MAX_HELP = 600
"""Characters ``/help`` takes at most: one screen on a phone; the rest is in ``/rules`` (:func:`guide`)."""
TYPED_WORDS_OFF = T("-# Typed race words are off: use buttons or reactions.")
"""The line ``/help`` and ``/rules`` add when the bot cannot read typed race words."""


def help_command(typed_words: bool) -> str:
    """Discord's ``/help``, at most :data:`MAX_HELP` characters: the lesson first (``/learn game``, in the first
    line: a newcomer's way in), how to start and answer, where the rest is (``/rules`` alone: commands, results, ratings, AI players; ``/rules game``: a game), and the games with every
    player count they allow (``Game.seats_summary``, from the lobby's own ``Game.seat_counts``). ``typed_words``:
    whether the bot reads typed race words (the Message Content intent). A :class:`Text`."""
    lines: list[str] = [T(
        "**Play-by-chat board games.** New to a game? `/learn game` teaches it step by step.\n"
        "`/play game` opens a lobby; players `/join`, the host `/start`s; answer with buttons.\n"
        "`/rules game`: how to play · `/rules`: commands, ratings, AI players.")]
    lines += [Text.join(" · ", [Text.join("", ["• **", g.title, f"** `{g.id}`"]), g.seats_summary(),
                                 *([LIVE_MARK] if g.live else [])])
              for g in games.all()]
    if not typed_words:
        lines.append(TYPED_WORDS_OFF)
    return Text.join("\n", lines)


def _rules_of(game_id: str) -> str:
    """"`/rules tatari`": the command that shows one game's rules, as the reader's client names it."""
    return T("`/rules {game}`", game=game_id)


def guide(typed_words: bool, lang: str | None = None) -> str:
    """Discord's ``/rules`` without a game: every command, results and ratings (:data:`RATING_HELP`), AI seats
    (:func:`ai_seats_line` for a reader of ``lang``) and the games (``/rules game`` for each); at most
    :data:`MAX_CONTENT` characters; a :class:`Text`."""
    text: str = T(
        "**Play-by-chat board games** — the commands. One game per channel or thread.\n"
        "`/play game [options] [thread]` open a lobby · `/join` `/leave` `/start` · "
        "`/move option` (or the buttons) · `/board [public] [full]` · `/history` · `/undo` (the others approve) · "
        "`/resign` · `/pings` (your own turn pings) · moderators: `/abandon`, `/kick` (or the host), `/settings`\n"
        "Results: `/stats [member] [game]` · `/leaderboard game` · `/replay [game]` (only you see them; "
        "`public:true` posts them) · every result has a Replay button.\n{ratings}\n{ai}\n{stand_in}\n"
        "How to play: {rules}",
        ratings=RATING_HELP, ai=ai_seats_line(lang), stand_in=STAND_IN_LINE, rules=Text.join(" · ", [_rules_of(g.id) for g in games.all()]))
    if not typed_words:
        text = Text.join("\n", [text, T(
            "-# Typed race words are off on this bot: use the race buttons or reactions. (Its owner can turn them on "
            "with the Message Content intent in the Discord developer portal.)")])
    return clip(text, MAX_CONTENT)


def sandbox_rules(game_id: str | None = None, topic: str | None = None, lang: str | None = None) -> str:
    """The sandbox's ``/rules [game] [topic]``: the game list, a game's overview and topics, or one topic (a
    :class:`Text`), its topics listed for a reader of ``lang`` (:func:`topics_text`; None: English).
    :class:`SessionError` for an unknown game or topic."""
    if not game_id:
        each = [T("• {title} ({game}): {summary}", title=g.title, game=g.id, summary=g.summary) for g in games.all()]
        return T("Which game? /rules <game>, one of:\n{games}", games=Text.join("\n", each))
    game = find_game(game_id)
    if game is None:
        raise SessionError(T("There is no game called '{game}'. /games lists them.", game=game_id))
    helps = game.rules_help
    if topic:
        key = find_topic(game, topic)
        if key is None:
            raise SessionError(T("No topic '{topic}' for {game}. Topics: {topics}.", topic=topic, game=game.title,
                                 topics=topics_text(game, [k for k in helps if k], lang)))
        return T("{game} — {topic}: {text}", game=game.title, topic=game.topic_name(key), text=helps[key])
    topics = [k for k in helps if k]
    overview = helps.get("", game.summary)
    if topics:
        return T("{game}: {text} Topics: {topics}.", game=game.title, text=overview,
                 topics=topics_text(game, topics, lang))
    return T("{game}: {text}", game=game.title, text=overview)


__all__ = ["AI_LEVEL_TEXT", "AI_SEATS_LINE", "ai_seats_line", "topics_text", "MAX_HELP", "SANDBOX_HELP", "STAND_IN_LINE", "live_line", "UNDO_RULE", "clip", "guide",
           "help_command", "how_to_play", "rules_command", "sandbox_rules"]
