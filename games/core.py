"""The contract every game implements (ARCHITECTURE.md, "The contract every game implements").

Pure and synchronous: no I/O, no clock, no asyncio. Everything here is importable from ``games`` itself.

Shapes
------
- ``Game.setup(players, options, seed) -> State`` — ``State`` is a pydantic model (subclass of :class:`BaseState`)
  that round-trips exactly through JSON (``Game.load_state(state.model_dump_json()) == state``).
- ``Game.pending(state) -> list[Decision]`` — empty when the game is over.
- ``Game.apply(state, move) -> Outcome`` — never mutates ``state``; raises :class:`IllegalMove` (state unchanged).
- ``Game.result(state) -> Result | None``.

Player references in texts
--------------------------
Event texts, decision prompts and option labels name players as ``{@<player id>}`` (see :func:`player_ref`).
Adapters turn them into display names or mentions with :func:`format_text`; the engines never know names.

Texts are data (ARCHITECTURE.md, "Text and languages")
-------------------------------------------------------
Engines keep no language. Every text a person reads — option labels, prompts, events, statuses, refusals — is made
with :func:`T` (or :func:`N` when it counts something): a :class:`Text` that *is* its English wording (a ``str``, so
every adapter and test that reads English keeps working) and also carries its message id (the English template,
the gettext ``msgid``) and its arguments, so a presenter renders it in the table's language
(``bot.i18n.say``). Player references stay ``{@id}`` inside arguments; names are never translated. An English word
with a game's own sense takes a message context, :func:`Tc` / :func:`Nc` (``Tc("tatsumi seawell", "empty")``: the
same English, its own catalogue entry), since every domain's catalogue is merged into one.

Randomness (RULINGS C-1)
------------------------
Every random draw goes through the state's :class:`Rng` (a counter-based generator: ``seed`` + ``counter``, so the
whole generator is two integers in the JSON). Tests force outcomes through the same interface with :func:`force`:
queued values are returned by the next draws instead of random ones, each checked to be a legal outcome of that draw.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, ClassVar, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, WrapValidator

__all__ = [
    "BaseState",
    "CHOICE_SEP",
    "DICE_SEP",
    "Decision",
    "Event",
    "Game",
    "IllegalMove",
    "Millis",
    "Move",
    "Option",
    "Outcome",
    "Result",
    "Rng",
    "N",
    "Nc",
    "QUOTE_LIMIT",
    "SHORT_LABEL",
    "T",
    "Tc",
    "TIMEOUT",
    "Text",
    "TextField",
    "clip",
    "describe_options",
    "force",
    "format_text",
    "marker_keys",
    "player_ref",
    "plural",
    "ranking_text",
    "rank_by",
]

SHORT_LABEL = 40
"""Characters a button or select label may take (marker key and names included): one line on a phone."""

TIMEOUT = "timeout"
"""Option id of the system move the session sends when a decision's ``deadline_ms`` passes."""


# --------------------------------------------------------------------------------------------------------------
# Texts in any language

_FIELD = re.compile(r"\{(\w*)\}")


QUOTE_LIMIT = 100
"""Characters a refusal quotes of a free-text value at most (:meth:`Text.clipped`)."""


def clip(value: str, limit: int = QUOTE_LIMIT) -> str:
    """``value`` if it has at most ``limit`` characters, else its first ``limit - 1`` and "…"."""
    return value if len(value) <= limit else value[:limit - 1] + "…"


class Millis(int):
    """A duration in milliseconds as a text's argument: English shows the number (``+1000 ms``), a language that
    reads times in seconds shows seconds (ja ``+1.0秒``: ``bot.i18n.render``). Pickles and compares as its ``int``."""

    __slots__ = ()

    def __reduce__(self):
        return (Millis, (int(self),))


class Text(str):
    """A text for people: its English wording (the ``str`` value) plus how to say it in any language.

    - ``msgid``: the message id, the English template with ``{name}`` placeholders (Python brace format), as it
      stands in the gettext catalogue (``bot/locales``). ``""`` for a joined text (see :meth:`join`).
    - ``args``: placeholder name -> value. An ``int`` is a number (a presenter formats it by the locale), a
      :class:`Text` is translated in turn, any other ``str`` is kept as it is (player references ``{@id}``, ids,
      the games' proper names).
    - ``plural``: the English plural template when the message counts something (:func:`N`); ``count`` names the
      argument that chooses the form (``ngettext``).
    - ``context``: the gettext message context (``msgctxt``) when one English word has another sense in a game
      (:func:`Tc`, :func:`Nc`: ``Tc("tatsumi seawell", "empty")`` is another message than ``T("empty")``, with
      its own Japanese, and the same English); None for most texts.
    - ``parts``/``sep``: a joined text's pieces (each translated) and separator (a :class:`Text` or a plain str).

    ``Text("x", {}) == "x"``: comparisons, hashing and ``str`` methods see the English wording. A text cannot lose
    its language on the way: ``text + "…"`` and ``"…" + text`` are joined texts (each piece still translated);
    formatting one (an f-string, ``format()``, ``str.format``) raises ``TypeError``, since the result could only be
    English — make it a placeholder of :func:`T` or :meth:`join` it instead (``f"{text!s}"`` or ``str(text)`` is
    the English on purpose: logs, ids, the English-only CLI). ``str.join`` and slicing give plain English too: a
    test walks the player-facing source for them around ``T()``/``N()`` results. ``ValueError`` when a placeholder
    has no argument.
    """

    __slots__ = ("msgid", "args", "plural", "count", "parts", "sep", "context")
    msgid: str
    args: dict[str, Any]
    plural: str | None
    count: str | None
    context: str | None
    parts: tuple[Any, ...]
    sep: Any

    def __new__(cls, msgid: str, args: dict[str, Any] | None = None, *, plural: str | None = None,
                count: str | None = None, parts: Sequence[Any] = (), sep: Any = "", context: str | None = None) -> Text:
        args = dict(args or {})
        if parts:
            english = str(sep).join(str(p) for p in parts)
        else:
            template = msgid
            if plural is not None:
                if count is None or not isinstance(args.get(count), int):
                    raise ValueError(f"plural text {msgid!r} needs an int argument named by count")
                template = msgid if args[count] == 1 else plural
            english = fill(template, {k: str(v) for k, v in args.items()})
        self = super().__new__(cls, english)
        self.msgid, self.args, self.plural, self.count = msgid, args, plural, count
        self.parts, self.sep, self.context = tuple(parts), sep, context
        return self

    @classmethod
    def join(cls, sep: str | Text, parts: Iterable[Any]) -> Text:
        """``sep`` between ``parts`` (texts or plain strings), each translated when shown:
        ``Text.join("; ", [T("a"), T("b")]) == "a; b"``."""
        return cls("", parts=tuple(parts) or ("",), sep=sep)

    def split(self, sep: str | None = None, maxsplit: int = -1) -> list[str]:
        """As ``str.split``, except that a text with no ``sep`` in it stays itself (one piece keeping its message
        id: Pillow splits every text it draws into lines, and a line must still be translatable)."""
        if sep is not None and sep not in str(self):
            return [self]
        return super().split(sep, maxsplit)

    def __add__(self, other: Any) -> Text:
        """``text + "x"``: the two joined, this text still translated (:meth:`join`)."""
        if not isinstance(other, str):
            return NotImplemented
        return Text.join("", [self, other])

    def __radd__(self, other: Any) -> Text:
        """``"x" + text`` (Python asks the text first, a ``str`` subclass): joined, this text still translated."""
        if not isinstance(other, str):
            return NotImplemented
        return Text.join("", [other, self])

    def __format__(self, spec: str) -> str:
        """Refused (``TypeError``): an f-string or ``format`` around a text could only keep its English."""
        raise TypeError(f"formatting the text {str(self)!r} would drop its translation: make it a placeholder of "
                        "T(...) or Text.join it (f'{text!s}' or str(text) for the English on purpose: logs, ids)")

    def clipped(self, limit: int = QUOTE_LIMIT) -> Text:
        """This text with every plain-string value (what a player typed, an id) cut to at most ``limit`` characters
        (:func:`clip`), nested texts clipped in turn: how a refusal quotes a value, so that the reason after it is
        never cut off (a 3,000-character ``/play game:`` value)."""
        def one(value: Any) -> Any:
            if isinstance(value, Text):
                return value.clipped(limit)
            return clip(value, limit) if isinstance(value, str) else value

        if self.parts:
            return Text("", parts=[one(p) for p in self.parts], sep=one(self.sep))
        return Text(self.msgid, {k: one(v) for k, v in self.args.items()}, plural=self.plural, count=self.count,
                    context=self.context)

    def __reduce__(self):  # pickling (worker processes) keeps the message id
        return (_rebuild_text, (self.msgid, self.args, self.plural, self.count, self.parts, self.sep, self.context))

    def __repr__(self) -> str:
        return f"Tc({self.context!r}, {str(self)!r})" if self.context else f"T({str(self)!r})"


def _rebuild_text(msgid, args, plural, count, parts, sep, context=None) -> Text:
    return Text(msgid, args, plural=plural, count=count, parts=parts, sep=sep, context=context)


def fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (no other brace syntax: a player reference
    ``{@id}`` inside a value is left for :func:`format_text`). ``ValueError`` for a placeholder without a value."""

    def one(m: re.Match) -> str:
        try:
            return values[m.group(1)]
        except KeyError:
            raise ValueError(f"no value for {{{m.group(1)}}} in {template!r}") from None

    return _FIELD.sub(one, template)


def placeholders(template: str) -> set[str]:
    """The ``{name}`` placeholders of a template: ``placeholders("{n} dolls on {shrine}") == {"n", "shrine"}``."""
    return set(_FIELD.findall(template))


def T(msgid: str, **args: Any) -> Text:
    """A translatable text: ``T("{player} continues.", player=player_ref(p))``. ``msgid`` must be a literal (the
    catalogue's extraction reads it from the source)."""
    return Text(msgid, args)


def N(singular: str, plural: str, count: str = "n", **args: Any) -> Text:
    """A translatable text that counts: ``N("{n} doll", "{n} dolls", n=3) == "3 dolls"``; ``count`` names the
    argument (an int) that picks singular or plural (each language has its own plural rules in its catalogue)."""
    return Text(singular, args, plural=plural, count=count)


def Tc(context: str, msgid: str, **args: Any) -> Text:
    """:func:`T` with a message context (gettext's ``pgettext``), for an English word that has another sense in
    this game than elsewhere: ``Tc("tatsumi seawell", "empty") == "empty"`` (the English is the same), but its
    Japanese is its own (枯れた井戸, where a Tsukimi tile circle's ``T("empty")`` is 空). ``context`` and ``msgid``
    must be literals (extracted as ``msgctxt`` and ``msgid``); name the context by the game and the thing meant."""
    return Text(msgid, args, context=context)


def Nc(context: str, singular: str, plural: str, count: str = "n", **args: Any) -> Text:
    """:func:`N` with a message context (gettext's ``npgettext``): ``Nc("ctx", "{n} tile", "{n} tiles", n=2)``."""
    return Text(singular, args, plural=plural, count=count, context=context)


def _keep_text(value: Any, handler: Callable[[Any], Any]) -> Any:
    return value if isinstance(value, Text) else handler(value)


TextField = Annotated[str, WrapValidator(_keep_text)]
"""A pydantic ``str`` field that keeps a :class:`Text` as it is (plain pydantic would copy it into a bare ``str``
and lose its message id). JSON gets the English wording."""


class IllegalMove(ValueError):
    """A move the rules do not allow now. ``str(exc)`` is one sentence a player can read; ``exc.text`` the same as
    a :class:`Text` when the engine made it with :func:`T` (a presenter translates it)."""

    def __init__(self, message: str = "", *args: Any) -> None:
        if isinstance(message, Text):  # a typed value is quoted at most QUOTE_LIMIT characters
            message = message.clipped()
        super().__init__(message, *args)
        self.text: str = message

    def __str__(self) -> str:  # the message itself: a Text stays a Text through str(exc) and f"{exc}"
        return self.text if isinstance(self.text, str) else super().__str__()


class Option(BaseModel):
    """One answer to a decision: ``id`` is what a move sends, ``label`` what a person reads.

    ``locus`` is the place on the board the option refers to, or None: a short id in the game's own terms that the
    game's renderer knows how to find (e.g. Tsukimi ``vertex:C3-n``, ``space:B2``; Tatsumi ``well:3-4``,
    ``island:alice:0,1``, ``shrine:fire``; Tataraba ``tile:0:5``; Tatari ``shrine:8``). Options with a locus are
    shown on the board with a numbered marker and the adapters' buttons, menus and autocomplete start with the same
    key (:func:`marker_keys`), so a player picks by looking, never by reading coordinates.

    ``short`` is what a button says when ``label`` is longer than a button should be (:data:`SHORT_LABEL`
    characters with the marker key ``"12 · "`` and players' names): the choice itself, in the same words, with the
    rest (the place the marker shows, the reason, the exact count) left to ``label``, which adapters show next to it
    (a select option's description, a line of the message). Player references work as in ``label``; adapters
    shorten names with an ellipsis to fit, never the words. None: ``label`` is short enough.
    """

    model_config = ConfigDict(frozen=True)
    id: str
    label: TextField
    locus: str | None = None
    short: TextField | None = None


class Decision(BaseModel):
    """What the game waits for.

    ``player`` is the player id who must answer, or None when anyone seated may (a race). ``deadline_ms`` is None,
    or the time (ms, the clock the moves' ``at_ms`` use) at which the session sends
    ``Move(player=None, option=TIMEOUT, at_ms=deadline_ms)``. ``options`` may be empty for a race whose answers are
    free-form inputs listed in ``inputs`` (e.g. ``shout``, ``grab``).
    """

    player: str | None
    kind: str
    prompt: TextField
    options: list[Option] = Field(default_factory=list)
    deadline_ms: int | None = None

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None


class Move(BaseModel):
    """A player's answer: ``player`` id (None for the system's timeout), ``option`` id, ``at_ms`` (ms) or None."""

    model_config = ConfigDict(frozen=True)
    player: str | None
    option: str
    at_ms: int | None = None


class Event(BaseModel):
    """Something that happened, structured (``kind``, ``data``) with a one-line ``text`` for the channel."""

    kind: str
    text: TextField
    data: dict[str, Any] = Field(default_factory=dict)


class Result(BaseModel):
    """The end of a game: ``winners`` (player ids), ``ranking`` (groups of player ids, best first; a group shares a
    rank), ``scores`` (player id -> the game's score: dolls left, fortune, points …), ``reason`` (one line),
    ``standings`` (player id -> where they stand in the game's own terms, for rankings, when the bare score would
    mislead: Tataraba ``"Eidai Tatara, 0 Sen, 5 material"``; empty: the score says it)."""

    winners: list[str]
    ranking: list[list[str]]
    scores: dict[str, int] = Field(default_factory=dict)
    reason: TextField = ""
    standings: dict[str, TextField] = Field(default_factory=dict)


StateT = TypeVar("StateT", bound="BaseState")


class Outcome(BaseModel):
    """The result of :meth:`Game.apply`: the new ``state`` (the game's State model) and the ``events``."""

    state: Any
    events: list[Event] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------------------------
# Randomness


_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


class Rng(BaseModel):
    """The seeded generator of one game (RULINGS C-1): draw ``n`` is ``splitmix64(seed, n)``.

    ``forced`` holds values queued by :func:`force`; each draw takes the first queued value when there is one
    (``pick``: an element of the sequence; ``shuffled``: a full permutation of the items). A forced value that is
    not a possible outcome of the draw raises ``ValueError`` — a test bug, never a player's.
    """

    seed: int
    counter: int = 0
    forced: list[Any] = Field(default_factory=list)

    def _next(self) -> int:
        self.counter += 1
        return _splitmix64((self.seed * 0x100000001B3 + self.counter) & _MASK64)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def pick(self, seq: Sequence[Any]) -> Any:
        """One element of ``seq`` (a die roll is ``pick(FACES)``)."""
        if self.forced:
            value = self.forced.pop(0)
            if value not in seq:
                raise ValueError(f"forced value {value!r} is not one of {list(seq)!r}")
            return value
        return seq[self.below(len(seq))]

    def shuffled(self, items: Iterable[Any]) -> list[Any]:
        """A new list with ``items`` in random order (Fisher-Yates), or the forced permutation."""
        items = list(items)
        if self.forced:
            value = list(self.forced.pop(0))
            if sorted(map(repr, value)) != sorted(map(repr, items)):
                raise ValueError(f"forced order {value!r} is not a permutation of {items!r}")
            return value
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


class BaseState(BaseModel):
    """Fields every game state has: ``game`` id, ``players`` (ids in seat order, RULINGS C-2) and the ``rng``."""

    game: str
    players: list[str]
    rng: Rng


def force(state: StateT, *values: Any) -> StateT:
    """Return a copy of ``state`` whose next random draws return ``values`` in order (C-1, for tests).

    A die is forced by its face (``force(s, "4", "doll")``), a shuffle by the whole new order.
    """
    new = state.model_copy(deep=True)
    new.rng.forced.extend(values)
    return new


# --------------------------------------------------------------------------------------------------------------
# Texts

_REF = re.compile(r"\{@([^{}]+)\}")


def player_ref(player: str) -> str:
    """The placeholder for ``player`` in texts: ``{@alice}``."""
    return "{@" + player + "}"


def format_text(text: str, name: Callable[[str], str] | dict[str, str]) -> str:
    """Replace every ``{@id}`` in ``text`` by ``name(id)`` (or ``name[id]``, falling back to the id)."""
    if isinstance(name, dict):
        mapping = name
        return _REF.sub(lambda m: mapping.get(m.group(1), m.group(1)), text)
    return _REF.sub(lambda m: name(m.group(1)), text)


def describe_options(options: dict[str, Any]) -> str:
    """Lobby options as people read them: ``{"void": False, "island": "choose"}`` -> ``"void off · island choose"``
    (booleans as on/off, underscores as spaces); ``"defaults"`` when there are none."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return T("on") if v else T("off")
        return str(v)

    if not options:
        return T("defaults")
    return Text.join(" · ", [T("{option} {value}", option=k.replace("_", " "), value=value(v))
                             for k, v in options.items()])


def plural(n: int, word: str, many: str | None = None) -> str:
    """A count with its noun in the right number, for every game's texts: ``plural(1, "finger")`` -> ``"1 finger"``,
    ``plural(0, "finger")`` -> ``"0 fingers"``; ``many`` spells an irregular plural (``plural(2, "die", "dice")``)
    or a noun that stays the same (``plural(4, "Sen", "Sen")``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def ranking_text(result: Result, name: Callable[[str], str]) -> str:
    """A result's ranking on one line, each player by ``name(id)``: with the standing the game gives
    (``"1. bob — Eidai Tatara, 0 Sen, 0 material; 2. alice — 4 Sen, 2 material"``), else with the score (``"1. alice (2); 2. bob (0)"``),
    else the name alone; players sharing a rank share its number."""

    def one(p: str) -> str:
        if p in result.standings:
            return T("{player} — {standing}", player=name(p), standing=result.standings[p])
        return T("{player} ({score})", player=name(p), score=result.scores[p]) if p in result.scores else name(p)

    return Text.join(Tc("ranking places", "; "), [T("{rank}. {players}", rank=i, players=Text.join(T(", "), [one(p) for p in grp]))
                            for i, grp in enumerate(result.ranking, 1)])


OR = T(" or ")
"""The word between two alternatives ("void=true seats 5 or solo=true seats 1")."""
SEMICOLON = T("; ")
"""Between the parts of a list of clauses."""
DICE_SEP = Tc("between dice", " · ")
"""Between the faces of a roll (``"2 · 4 · double-doll"``; Japanese lists them with 「、」)."""

CHOICE_SEP = Tc("between choices", "; ")
"""Between the options a refusal lists ("Choose one of: fly to b1, claim lightning from a1; gather wind from b1"):
a label may hold a comma, so the list does not cut at one (Japanese: 「／」, its labels hold 、)."""


def seats_text(counts: Sequence[int]) -> str:
    """``[2, 3, 4]`` -> "2-4 players", ``[5]`` -> "exactly 5 players", ``[1]`` -> "exactly 1 player"."""
    if len(counts) == 1:
        return N("exactly {n} player", "exactly {n} players", n=counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return T("{low}-{high} players", low=counts[0], high=counts[-1])
    return T("{counts} or {last} players", counts=", ".join(map(str, counts[:-1])), last=counts[-1])


def marker_keys(options: Sequence[Option]) -> dict[str, str]:
    """Option id -> marker key ("1", "2", …) for the options of one decision that have a ``locus``.

    Keys are given to distinct loci in the order they first appear, so options sharing a place share a key (the
    renderer draws one marker there). Options without a locus get no key. The renderer and every adapter call this
    same function on the same option list, so the key on the board and on the button always agree.
    """
    keys: dict[str, str] = {}
    by_locus: dict[str, str] = {}
    for opt in options:
        if opt.locus is None:
            continue
        key = by_locus.setdefault(opt.locus, str(len(by_locus) + 1))
        keys[opt.id] = key
    return keys


def rank_by(players: Sequence[str], key: Callable[[str], Any]) -> list[list[str]]:
    """Group ``players`` by ``key`` ascending (the smallest key ranks first); equal keys share a rank."""
    groups: list[list[str]] = []
    last: Any = object()
    for p in sorted(players, key=key):
        k = key(p)
        if groups and k == last:
            groups[-1].append(p)
        else:
            groups.append([p])
        last = k
    return groups


# --------------------------------------------------------------------------------------------------------------
# The game contract


class Game:
    """One game's rules. Subclass, set the class attributes, implement the four verbs.

    Class attributes: ``id``, ``title``, ``min_players``, ``max_players``, ``Options`` (a pydantic model whose
    fields all have defaults), ``State`` (the pydantic state model), ``summary`` (one line for help lists) and
    ``rules_help`` (topic -> short help in our own words, used by ``/rules``; key ``""`` is the overview).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    State: ClassVar[type[BaseState]]
    summary: ClassVar[str] = ""
    rules_help: ClassVar[dict[str, str]] = {}
    rules_topics: ClassVar[dict[str, str]] = {}
    """Each ``rules_help`` topic by its name (a :class:`Text`: ``{"dice": T("dice")}``), what ``/rules`` lists and
    its menus show in the reader's language; the key stays what a player types (:meth:`topic_name`)."""
    score_unit: ClassVar[str] = ""
    """What ``Result.scores`` count when a bare number would read as points (Tataraba: ``"Sen"``): results and
    ``/stats`` then write ``"4 Sen"`` instead of ``"score 4"``. ``""``: a plain score."""
    lower_score_wins: ClassVar[bool] = False
    """True when ``Result.scores`` rank fewer first (Tatari's dolls left, TA-10): a player's best score is then
    the lowest (``/stats``)."""
    live: ClassVar[bool] = False
    """True for a game played in real time (Tatamokatsu's races): every player must be in the channel together;
    adapters say so (lobby card, ``/rules``, ``/help``) and ping every seated person at the start."""

    def held_by(self, state: Any, decision: Decision) -> list[str]:
        """The players ``decision`` waits for before it may be answered (a live table's presence: Tatamokatsu's
        roll while someone is marked missing), in seat order; [] for most games and decisions. The session refuses
        the answer of a person while anyone listed is a person (AI seats never hold a table)."""
        return []

    def score_words(self, score: int) -> Text | None:
        """A recorded score in the game's own words when it counts pieces a player still holds rather than points
        (Tatari: ``"3 dolls left"``; Tatamokatsu: ``"2 fingers left"``), else None (results then use
        :attr:`score_unit` or a plain score)."""
        return None

    def score_heading(self) -> Text | None:
        """What a result card's score column is headed when :meth:`score_words` names the scores (Tatari:
        ``"Dolls"``), else None ("Score")."""
        return None

    # -- the contract ------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: BaseModel | dict | None, seed: int) -> BaseState:
        raise NotImplementedError

    def pending(self, state: BaseState) -> list[Decision]:
        raise NotImplementedError

    def apply(self, state: BaseState, move: Move) -> Outcome:
        raise NotImplementedError

    def result(self, state: BaseState) -> Result | None:
        raise NotImplementedError

    def begin(self, players: list[str], options: BaseModel | dict | None, seed: int) -> Outcome:
        """Set the game up and say what setup did: ``Outcome(state, events)``. ``state`` equals
        ``setup(players, options, seed)``; ``events`` are what the table sees happen while dealing (a first roll,
        revealed cards, a random first player). Sessions call this, post the events and keep them in ``/history``.
        The default: :meth:`setup` and no events; a game whose setup does something visible overrides it."""
        return Outcome(state=self.setup(players, options, seed), events=[])

    # -- optional hooks with defaults ---------------------------------------------------------------------------
    def resign(self, state: BaseState, player: str) -> Outcome | None:
        """Remove ``player`` from the game if its rules allow play to go on; None means "the game cannot go on
        without them" and the session ends it with the resigner last (see ``bot.sessions``)."""
        return None

    def greedy(self, state: BaseState, decision: Decision, rng: Any) -> str | None:
        """A simple strategy's option id for ``decision``, or None to fall back to a random legal option.
        ``rng`` is a ``random.Random`` owned by the caller."""
        return None

    def chat_word(self, text: str) -> str | None:
        """The option id a typed chat message stands for (e.g. Tatamokatsu's "hai" -> ``salute``), or None.
        Adapters try it on plain messages; the default knows no words."""
        return None

    def status(self, state: BaseState) -> str:
        """A short text summary of the position (scores, whose turn) for chat and logs."""
        return ""

    def typed_words(self, decision: Decision) -> dict[str, Text]:
        """Option id -> the word a player types for it (a text, in the reader's language), for the options of
        ``decision`` that have one (:meth:`chat_word` reads it back): what a race prompt lists beside each reaction.
        The default knows none (the prompt shows the option id)."""
        return {}

    def reactions(self, decision: Decision) -> dict[str, str]:
        """Emoji -> option id of ``decision``: reactions a chat adapter adds to the message showing the decision and
        maps back to moves (a real-time race's inputs, e.g. Tatamokatsu's shout). The default offers none."""
        return {}

    def opening(self, state: BaseState) -> str | None:
        """The option id of a system move (``player=None``) an adapter sends right after posting the board, timed
        by that message (``at_ms`` = when it appeared), for a window that opens when its message appears
        (Tatamokatsu, RULINGS TK-10: "the window opens at the snowflake time of the roll message"). The move is
        logged like any other, so replay stays exact. None (the default): nothing waits on it."""
        return None

    def race_key(self, state: BaseState, decision: Decision) -> str | None:
        """A short name of ``decision`` that stays the same for as long as it is pending, whatever answers come
        in (a race's inputs do not end it), and differs from any later decision's: an adapter keys the buttons of
        such a decision by it instead of by the board version, so one player's input does not make the others'
        buttons stale. None: tie the buttons to the board version. The default names a race (``player=None``)
        with a deadline by its kind and deadline."""
        if decision.player is None and decision.deadline_ms is not None:
            return f"{decision.kind}@{decision.deadline_ms}"
        return None

    # -- helpers ------------------------------------------------------------------------------------------------
    def options(self, options: BaseModel | dict | None) -> BaseModel:
        """Validate lobby options into ``self.Options`` (``pydantic.ValidationError`` on bad values)."""
        if options is None:
            return self.Options()
        if isinstance(options, self.Options):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        return self.Options.model_validate(options)

    def load_state(self, data: str | bytes | dict) -> BaseState:
        """Parse a stored state (JSON text or a dict)."""
        if isinstance(data, dict):
            return self.State.model_validate(data)
        return self.State.model_validate_json(data)

    def seat_counts(self, options: Any = None) -> list[int]:
        """The numbers of players a table with ``options`` may start with, ascending (for lobbies: "needs 2-4").
        Default: ``min_players..max_players``; a game whose options change it overrides (Tatsumi: solo, Void)."""
        return list(range(self.min_players, self.max_players + 1))

    def seat_options(self, options: Any = None) -> list[tuple[str, list[int]]]:
        """Which one-option changes of ``options`` seat a different number of players: ``[(option, counts), …]``,
        ``option`` as typed in ``/play`` (``"void=true"``, ``"solo=true"``) and ``counts`` its :meth:`seat_counts`,
        most seats first. Tried: the other value of each boolean option and of each ``Literal`` one; an option
        whose change fits no table (``[]``) or changes nothing is left out. Lobbies and ``/help`` derive every
        player count from :meth:`seat_counts` this way, so no text repeats them by hand."""
        opts = self.options(options)
        now = self.seat_counts(opts)
        found: list[tuple[str, list[int]]] = []
        for name, field in type(opts).model_fields.items():
            current = getattr(opts, name)
            if field.annotation is bool or isinstance(current, bool):
                values: tuple[Any, ...] = (not current,)
            else:
                values = tuple(v for v in get_args(field.annotation) if v != current)
                if not values or not all(isinstance(v, str) for v in values):
                    continue
            for value in values:
                try:
                    other = self.options({**opts.model_dump(), name: value})
                except ValueError:
                    continue
                counts = self.seat_counts(other)
                if counts and counts != now:
                    typed = str(value).lower() if isinstance(value, bool) else str(value)
                    found.append((f"{name}={typed}", counts))
        return sorted(found, key=lambda oc: -oc[1][-1])

    @classmethod
    def topic_name(cls, topic: str) -> str:
        """The name of the rules topic ``topic`` (a key of ``rules_help``): its :attr:`rules_topics` text, else the
        key itself."""
        return cls.rules_topics.get(topic) or topic

    def seats_summary(self) -> str:
        """Every player count a table of this game may have, from :meth:`seat_counts` and :meth:`seat_options`:
        ``"2-4 players; exactly 5 with void=true; exactly 1 with solo=true"``, ``"exactly 2 players"``."""
        parts = [seats_text(self.seat_counts())]
        for option, counts in self.seat_options():
            parts.append(T("{seats} with {option}", seats=seats_text(counts), option=option))
        return Text.join(SEMICOLON, parts)

    def more_seats(self, options: Any = None) -> str:
        """For a full lobby: the options that would seat more players than ``options`` do, as one clause
        (``"a table opened with void=true seats 5"``), or ``""`` when none does (:meth:`seat_options`)."""
        now = max(self.seat_counts(options) or [self.max_players])
        more = [(o, c[-1]) for o, c in self.seat_options(options) if c[-1] > now]
        if not more:
            return ""
        each = [T("{option} seats {n}", option=o, n=n) for o, n in more]
        return T("a table opened with {options}", options=Text.join(OR, each))

    def lobby_need(self, seated: int, options: Any = None) -> str:
        """One line for a lobby with ``seated`` players: how many more are needed, or that it may start, from
        :meth:`seat_counts` (e.g. "Needs 1 more player (2-4 players).", "Ready to start (2-4 players)."). ``""``
        when the options fit no table at all (setup explains why at start)."""
        counts = self.seat_counts(options)
        if not counts:
            return ""
        span = seats_text(counts)
        if seated in counts:
            if seated < counts[-1]:
                return T("Ready to start ({span}, or wait for up to {most}).", span=span, most=counts[-1])
            return T("Ready to start ({span}).", span=span)
        if seated < counts[0]:
            need = counts[0] - seated
            return N("Needs {n} more player ({span}).", "Needs {n} more players ({span}).", n=need, span=span)
        return T("Too many seats for these options: {game} needs {span}.", game=self.title, span=span)

    def check_players(self, players: list[str]) -> None:
        """Raise ``ValueError`` unless ``players`` fits ``min_players..max_players`` and has no repeats."""
        if len(set(players)) != len(players):
            raise ValueError(T("a player is seated twice"))
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(T("{game} needs {low}-{high} players, not {n}", game=self.title, low=self.min_players,
                               high=self.max_players, n=len(players)))

    def find_decision(self, state: BaseState, move: Move) -> tuple[Decision, Option | None]:
        """The pending decision ``move`` answers and the chosen option, or :class:`IllegalMove` with a reason.

        Accepts a move from the decision's player (or anyone for ``player=None`` decisions) whose option is listed,
        and the system timeout (``player=None``, option ``timeout``) for a decision with a deadline.
        """
        decisions = self.pending(state)
        if not decisions:
            raise IllegalMove(T("The game is over."))
        if move.option == TIMEOUT and move.player is None:
            for d in decisions:
                if d.deadline_ms is not None:
                    return d, None
            raise IllegalMove(T("Nothing is waiting on a deadline."))
        mine = [d for d in decisions if d.player is None or d.player == move.player]
        if not mine:
            waiting = Text.join(T(", "), [player_ref(d.player) for d in decisions if d.player])
            raise IllegalMove(T("It is not your turn: waiting for {players}.", players=waiting))
        for d in mine:
            opt = d.option(move.option)
            if opt is not None:
                return d, opt
        listed = Text.join(CHOICE_SEP, [o.short or o.label for d in mine for o in d.options])  # what a player reads
        raise IllegalMove(T("'{option}' is not a choice now. Choose one of: {choices}.", option=move.option,
                            choices=listed))
