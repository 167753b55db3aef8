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
AI_SEATS_LINE = T(
    "-# **AI players**: alone? `/play game ai:1 level:strong` seats AI players at once, or the host adds them with "
    "the lobby's Add AI menu (and removes them there before the start). Levels: {levels}.",
    levels=Text.join(T("; "), [Text.join(" — ", [lv, _AI_LEVEL_CLAUSE.get(lv, "")]) for lv in LEVELS]),
)
"""One line on AI seats under Discord's ``/rules`` and ``/help``."""
SANDBOX_HELP = T("""Commands: /play <game> [key=value …] [ai:<n> level:<easy|normal|strong>], /join, /leave, /start, /cancel,
/move <choice>, /board, /rules [game] [topic], /history, /resign, /abandon, /undo [no], /wait <ms>, /games, /help,
/stats [name] [game], /leaderboard <game>, /replay [#game] (writes an animated GIF).
A choice is its number in the last list, its id, or a chat word of the game.
{undo} Approve with /undo, refuse with /undo no.""", undo=UNDO_RULE)
"""The sandbox's ``/help`` (and the end of an unknown command's refusal)."""


TOPIC_LABELS = {
    "dice": T("dice"), "race": T("race"), "sums": T("sums"), "katana": T("katana"), "dragon": T("dragon"),
    "mistakes": T("mistakes"), "end": T("end"), "turn": T("turn"), "move": T("move"), "actions": T("actions"),
    "logging": T("logging"), "forest": T("forest"), "build": T("build"), "stop": T("stop"), "bust": T("bust"),
    "stash": T("stash"), "fly": T("fly"), "gather": T("gather"), "holding": T("holding"), "offer": T("offer"),
    "island": T("island"), "cards": T("cards"), "weather": T("weather"), "solo": T("solo"), "dragons": T("dragons"),
    "islands": T("islands"), "void": T("void"), "tiles": T("tiles"), "cost": T("cost"), "placing": T("placing"),
    "effects": T("effects"), "groups": T("groups"), "scoring": T("scoring"), "dark": T("dark"), "names": T("names"),
}
"""Each rules topic (a ``Game.rules_help`` key, what ``/rules topic:`` takes) as people read it: in English the key
itself, in Japanese the topic's name (ダイス, 早押し, …)."""


def topic_label(topic: str) -> str:
    """The rules topic ``topic`` as people read it (:data:`TOPIC_LABELS`; an unknown key as it is)."""
    return TOPIC_LABELS.get(topic, topic)


def clip(text: str, limit: int) -> str:
    """``text`` itself (a :class:`Text` stays translatable) when it has at most ``limit`` characters, else its
    first ``limit`` characters (English). Adapters clip again after translating (:data:`MAX_CONTENT`)."""
    return text if len(text) <= limit else str(text)[:limit]


def rules_command(game: Game, topic: str | None = None) -> str:
    """Discord's ``/rules game [topic]``: the overview (with the other topics and :data:`AI_SEATS_LINE`) or one
    topic, a :class:`Text`. :class:`SessionError` for a topic the game does not have."""
    help_ = game.rules_help
    if topic and topic not in help_:
        known = Text.join(", ", [t for t in help_ if t]) if any(help_) else T("none")
        raise SessionError(T("{game} has no rules topic '{topic}'. Topics: {known}.", game=game.title, topic=topic,
                             known=known))
    text: str = T("**{game}** — {topic}\n{text}", game=game.title, topic=topic_label(topic) if topic else T("overview"),
                  text=help_.get(topic or "", game.summary))
    others = [t for t in help_ if t and t != topic]
    if others:
        text = Text.join("\n", [text, T("More: /rules {game} topic: {topics}", game=game.id,
                                         topics=Text.join(T(", "), [topic_label(t) for t in others]))])
    if not topic:
        text = Text.join("\n", [clip(text, MAX_CONTENT - len(AI_SEATS_LINE) - 1), AI_SEATS_LINE])
    return clip(text, MAX_CONTENT)


def how_to_play(game: Game, topic: str = "") -> str:
    """The "How to play" button and its topic select: the overview (``Game.rules_help[""]``, else the summary) or
    one topic, a :class:`Text`."""
    help_ = game.rules_help
    text = T("**{game}** — {topic}\n{text}", game=game.title, topic=topic_label(topic) if topic else T("how to play"),
             text=help_.get(topic, game.summary if not topic else ""))
    return clip(text, MAX_CONTENT)


MAX_HELP = 600
"""Characters ``/help`` takes at most: one screen on a phone; the rest is in ``/rules`` (:func:`guide`)."""
TYPED_WORDS_OFF = T("-# Typed race words are off on this bot: use the race buttons or reactions.")
"""The line ``/help`` and ``/rules`` add when the bot cannot read typed race words."""


def help_command(typed_words: bool) -> str:
    """Discord's ``/help``, at most :data:`MAX_HELP` characters: how to start and answer, where the rest is
    (``/rules`` alone: commands, results, ratings, AI players; ``/rules game``: a game), and the games with every
    player count they allow (``Game.seats_summary``, from the lobby's own ``Game.seat_counts``). ``typed_words``:
    whether the bot reads typed race words (the Message Content intent). A :class:`Text`."""
    lines: list[str] = [T(
        "**Play-by-chat board games**, one game per channel or thread.\n"
        "`/play game` opens a lobby; players `/join`, the host `/start`s; answer with the buttons.\n"
        "`/rules game`: how to play · `/rules`: every command, results, ratings and AI players.")]
    lines += [Text.join(" · ", [Text.join("", ["• **", g.title, f"** `{g.id}`"]), g.seats_summary()])
              for g in games.all()]
    if not typed_words:
        lines.append(TYPED_WORDS_OFF)
    return Text.join("\n", lines)


def _rules_of(game_id: str) -> str:
    """"`/rules tatari`": the command that shows one game's rules, as the reader's client names it."""
    return T("`/rules {game}`", game=game_id)


def guide(typed_words: bool) -> str:
    """Discord's ``/rules`` without a game: every command, results and ratings (:data:`RATING_HELP`), AI seats
    (:data:`AI_SEATS_LINE`) and the games (``/rules game`` for each); at most :data:`MAX_CONTENT` characters; a
    :class:`Text`."""
    text: str = T(
        "**Play-by-chat board games** — the commands. One game per channel or thread.\n"
        "`/play game [options] [thread]` open a lobby · `/join` `/leave` `/start` · "
        "`/move option` (or the buttons) · `/board [public] [full]` · `/history` · `/undo` (the others approve) · "
        "`/resign` · `/pings` (your own turn pings) · moderators: `/abandon`, `/kick` (or the host), `/settings`\n"
        "Results: `/stats [member] [game]` · `/leaderboard game` · `/replay [game]` (only you see them; "
        "`public:true` posts them) · every result has a Replay button.\n{ratings}\n{ai}\n"
        "How to play: {rules}",
        ratings=RATING_HELP, ai=AI_SEATS_LINE, rules=Text.join(" · ", [_rules_of(g.id) for g in games.all()]))
    if not typed_words:
        text = Text.join("\n", [text, T(
            "-# Typed race words are off on this bot: use the race buttons or reactions. (Its owner can turn them on "
            "with the Message Content intent in the Discord developer portal.)")])
    return clip(text, MAX_CONTENT)


def sandbox_rules(game_id: str | None = None, topic: str | None = None) -> str:
    """The sandbox's ``/rules [game] [topic]``: the game list, a game's overview and topics, or one topic (a
    :class:`Text`). :class:`SessionError` for an unknown game or topic."""
    if not game_id:
        return T("Which game? {games}", games=Text.join(", ", [Text.join(": ", [g.id, g.summary])
                                                               for g in games.all()]))
    try:
        game = games.get(game_id.lower())
    except KeyError:
        raise SessionError(T("There is no game called '{game}'. /games lists them.", game=game_id)) from None
    helps = game.rules_help
    if topic:
        text = helps.get(topic.lower())
        if text is None:
            raise SessionError(T("No topic '{topic}' for {game}. Topics: {topics}.", topic=topic, game=game.title,
                                 topics=Text.join(", ", [k for k in helps if k])))
        return T("{game} — {topic}: {text}", game=game.title, topic=topic, text=text)
    topics = [k for k in helps if k]
    overview = helps.get("", game.summary)
    if topics:
        return T("{game}: {text} Topics: {topics}.", game=game.title, text=overview, topics=Text.join(", ", topics))
    return T("{game}: {text}", game=game.title, text=overview)


__all__ = ["AI_LEVEL_TEXT", "AI_SEATS_LINE", "MAX_HELP", "SANDBOX_HELP", "UNDO_RULE", "clip", "guide",
           "help_command", "how_to_play", "rules_command", "sandbox_rules", "topic_label", "TOPIC_LABELS"]
