"""The board in words: alt text for each board image and the whole board for a "Describe" button.

One module per game, ``renderers.words.<game id>``, with two pure functions (no bot, discord, asyncio or clock):

- ``alt_text(state, names, limit=ALT_LIMIT) -> str``: the image's alt text (a Discord attachment
  ``description``), at most ``limit`` characters, never empty. With a decision open it names every option by the key the board and the
  buttons show (:func:`games.marker_keys`: ``"3 · C3-n"``; an option without a place is named by its label) and the
  state the decision depends on; with none open, a short summary of the board. Too long a text loses its least
  important parts first (:func:`fit`); the option keys are never dropped.
- ``board_words(state, names) -> list[str]``: the whole board in words, as chunks of at most :data:`CHUNK_LIMIT`
  characters each (one ephemeral message per chunk), split between lines.

``names`` maps player ids to display names; a player without one is called "player N" (seat order), never by id.

Every piece is a :class:`games.core.Text` (domain ``renderers``): drawn or measured inside
:func:`renderers.common.translating`, it is said in that language (:func:`renderers.common.words`). There the
English-only tricks of the shared pieces (a label's common head or tail said once, a shared clause taken out of
the labels, an aside spliced into a parenthesis) are skipped: they work on the English wording.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from games import Decision, Game, format_text, marker_keys
from games.core import BaseState, T, Tc, Text
from renderers.common import TRANSLATE
from renderers.common import words as in_language

ALT_LIMIT = 1024
"""Discord's limit on an attachment description (characters)."""

CHUNK_LIMIT = 1900
"""Characters per message chunk of :func:`board_words` (Discord allows 2,000)."""


def _module(game_id: str):
    try:
        return importlib.import_module(f"renderers.words.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no words for {game_id!r}") from exc


def alt_text(state: BaseState, names: dict[str, str] | None = None, limit: int = ALT_LIMIT) -> str:
    """The alt text of ``state``'s board image (any game), ≤ ``limit`` characters (default :data:`ALT_LIMIT`);
    ``KeyError`` for a game without words."""
    return _module(state.game).alt_text(state, names or {}, limit)


def board_words(state: BaseState, names: dict[str, str] | None = None) -> list[str]:
    """The whole board of ``state`` in words: chunks of ≤ :data:`CHUNK_LIMIT` characters."""
    return _module(state.game).board_words(state, names or {})


# -- shared pieces -------------------------------------------------------------------------------------------------
def namer(state: BaseState, names: dict[str, str]) -> Callable[[str], str]:
    """Player id -> display name; "player N" (seat number from 1) for an id without a name."""
    seats = {p: i for i, p in enumerate(state.players)}

    def name(pid: str) -> str:
        got = names.get(pid)
        if got:
            return got
        return T("player {n}", n=seats[pid] + 1) if pid in seats else T("a player")

    return name


def words(text: str, name: Callable[[str], str]) -> str:
    """An engine text with its ``{@id}`` references turned into names; a :class:`Text` stays one (the references
    are replaced in its arguments and parts, which is where :func:`games.player_ref` puts them)."""
    if not isinstance(text, Text):
        return format_text(text, name)
    if text.parts:
        return Text.join(words(text.sep, name), [words(p, name) for p in text.parts])
    if "{@" not in text:
        return text
    args = {k: v if isinstance(v, int) else _named(v, name) for k, v in text.args.items()}
    return Text(text.msgid, args, plural=text.plural, count=text.count, context=text.context)


def _named(value, name: Callable[[str], str]):
    """An argument of a text with its references turned into names: a whole reference becomes the name itself
    (which may be a :class:`Text`, "player 2")."""
    if isinstance(value, Text):
        return words(value, name)
    if isinstance(value, str):
        whole = re.fullmatch(r"\{@([^{}]+)\}", value)
        return name(whole.group(1)) if whole else format_text(value, name)
    return value


def translating() -> bool:
    """Whether the pieces are being said in another language than English (:data:`renderers.common.TRANSLATE`)."""
    return TRANSLATE.get() is not None


def listing(items: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return Text.join("", items)
    return Text.join(T(" and "), [Text.join(T(", "), items[:-1]), items[-1]])


@dataclass
class Part:
    """One piece of an alt text: ``full`` text, a ``short`` fallback, ``shorter`` ones after it (each shorter than
    the one before), and its ``rank`` (higher is shortened later). A part below rank :data:`KEEP` may be dropped
    once its shortest form does not fit either."""

    full: str
    short: str = ""
    rank: int = 0
    shorter: tuple[str, ...] = ()

    def forms(self) -> list[str]:
        """Its forms, fullest first, ending with "" when it may be dropped."""
        out = list(dict.fromkeys(f for f in (self.full, self.short, *self.shorter) if f))
        if self.rank < KEEP or not out:
            out.append("")
        return out


_AFTER_FULL_STOP = re.compile(r"([。！？]) ")


def fit(parts: list[Part], limit: int = ALT_LIMIT) -> str:
    """Join ``parts`` (each in the current language: :func:`renderers.common.words`) with spaces within ``limit``
    characters. Parts are shortened lowest rank first (the later of
    equal ranks first), one form at a time, until the text fits; then, highest rank first, each part gets back the
    fullest form that still fits (so a long option list shortened to its keys leaves room for the board's state
    again). A text still too long is cut at a word with "…"."""
    forms = [[str(in_language(f)) for f in p.forms()] for p in parts]  # measured as they will read
    level = [0] * len(parts)

    def joined() -> str:  # Japanese sentences follow their 。 with no space
        return _AFTER_FULL_STOP.sub(r"\1", " ".join(t for t in (f[i] for f, i in zip(forms, level, strict=True)) if t))

    order = sorted(range(len(parts)), key=lambda i: (parts[i].rank, -i))
    for i in order:
        while len(joined()) > limit and level[i] < len(forms[i]) - 1:
            level[i] += 1
        if len(joined()) <= limit:
            break
    for i in reversed(order):
        while level[i] > 0:
            level[i] -= 1
            if len(joined()) > limit:
                level[i] += 1
                break
    text = joined()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if text[limit - 1] != " ":  # inside a word: cut before it
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + "…"


KEEP = 100
"""Parts of this rank or higher are shortened but never dropped (the decision and its option keys)."""


def join_labels(labels: Sequence[str]) -> str:
    """Labels of options that share one marker key, as one phrase: a common head up to ": " is said once
    (``"an adult Evergreen at 2-9: 1 Sen, or 1 material"``), so is a common tail from a space
    (``"Red Pine or Cedar at 4-6"``); else ``"a, or b"``."""
    labels = list(dict.fromkeys(labels))
    if len(labels) == 1:
        return labels[0]
    if translating():
        return Text.join(T(", or "), labels)
    head = labels[0]
    for lab in labels[1:]:
        while not lab.startswith(head):
            head = head[:-1]
    cut = head.rfind(": ")
    if cut > 0 and all(len(lab) > cut + 2 for lab in labels):
        return labels[0][: cut + 2] + ", or ".join(lab[cut + 2:] for lab in labels)
    tail = labels[0]
    for lab in labels[1:]:
        while not lab.endswith(tail):
            tail = tail[1:]
    cut = tail.find(" ")
    if cut >= 0 and len(tail) - cut > 3 and all(len(lab) > len(tail) - cut for lab in labels):
        tail = tail[cut:]
        heads = [lab[: len(lab) - len(tail)] for lab in labels]
        if all(h and "," not in h for h in heads):
            return " or ".join(heads) + tail
    return Text.join(T(", or "), labels)


def with_extra(text: str, extra: str) -> str:
    """``text`` with the state of its place: ``"1-9 (1 Foot marker)"`` + ``"empty"`` -> ``"1-9 (1 Foot marker;
    empty)"``, ``"B2"`` + ``"empty"`` -> ``"B2 (empty)"``; nothing added when ``text`` says it already."""
    if not extra or extra.lower() in text.lower():
        return text
    if text.endswith(")") and "(" in text and not translating():
        return f"{text[:-1]}; {extra!s})"  # English only (not translating)
    return T("{text} ({extra})", text=text, extra=extra)


def option_entries(decision: Decision, name: Callable[[str], str],
                   where: Callable[[str], str] | None = None) -> tuple[list[str], list[str]]:
    """The options of ``decision`` as the buttons name them, options sharing a marker key joined:
    ``(full, short)`` entries. Full: ``"2 · Red Pine or Cedar at 4-6 (empty)"`` (:func:`join_labels`;
    ``where(locus)`` adds the place's state, :func:`with_extra`); short: the same without the place's state.
    An option without a place is named by its label."""
    full, short, _common, _note = _entries(decision, name, where)
    return full, short


def shared_tail(labels: Sequence[str]) -> tuple[str, str]:
    """The clause that at least three labels beginning with the same lower-case word all end with:
    ``(word, tail)``, e.g. ``("fly", ", claim water from c1")`` of ``"fly to a1, claim water from c1"``,
    ``"fly to b1, claim water from c1"``, … (said once: "every fly also: claim water from c1");
    ``("", "")`` when there is none."""
    by_word: dict[str, list[str]] = {}
    for lab in labels:
        by_word.setdefault(lab.split(" ", 1)[0], []).append(lab)
    best = ("", "")
    for word, group in by_word.items():
        if len(group) < 3 or not (word.isalpha() and word.islower()):  # a verb ("fly"), not a name or a number
            continue
        tail = group[0]
        for lab in group[1:]:
            while tail and not lab.endswith(tail):
                tail = tail[1:]
        cut = tail.find(", ")
        if cut < 0 or len(tail) - cut < 8 or any(len(lab) <= len(tail) - cut for lab in group):
            continue
        if len(group) > len(by_word.get(best[0], [])):
            best = (word, tail[cut:])
    return best


def _labels(decision: Decision, name: Callable[[str], str]) -> tuple[dict[str, str], str]:
    """Each option's label in words, a clause every option of one kind ends with taken out (:func:`shared_tail`),
    and the note that says it once (``"every fly also: claim water from c1"``, "" without one)."""
    keys = marker_keys(decision.options)
    labels = {o.id: words(o.label, name) for o in decision.options}
    if translating():
        return labels, ""
    word, tail = shared_tail([labels[o.id] for o in decision.options if o.id in keys])
    if not tail:
        return labels, ""
    for o in decision.options:
        lab = labels[o.id]
        if o.id in keys and lab.startswith(word + " ") and lab.endswith(tail):
            labels[o.id] = lab[: len(lab) - len(tail)]
    return labels, T("every {word} also: {clause}", word=word, clause=tail[2:])


def _entries(decision: Decision, name: Callable[[str], str], where: Callable[[str], str] | None
             ) -> tuple[list[str], list[str], str, str]:
    """:func:`option_entries`, the state every keyed option shares ("" when they differ: when all of at least two
    keyed options share it, it is said once instead of after each) and the note of a clause said once
    (:func:`_labels`)."""
    keys = marker_keys(decision.options)
    labels, note = _labels(decision, name)
    groups: dict[str, list] = {}
    order: list[str] = []
    for opt in decision.options:
        key = keys.get(opt.id) or labels[opt.id] or opt.id
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(opt)
    rows = []  # (key, joined labels or None without a place, extra)
    for key in order:
        opts = groups[key]
        if opts[0].id not in keys:
            rows.append((key, None, ""))
            continue
        label = join_labels([labels[o.id] for o in opts])
        extra = where(opts[0].locus) if where is not None else ""
        rows.append((key, label, "" if extra.lower() in label.lower() else extra))  # said already: not again
    extras = {extra for _, label, extra in rows if label is not None}
    keyed = sum(label is not None for _, label, _ in rows)
    common = extras.pop() if len(extras) == 1 and keyed >= 2 else ""
    full, short = [], []
    for key, label, extra in rows:
        if label is None:
            full.append(key)
            short.append(key)
            continue
        full.append(Text.join(" · ", [key, label if common else with_extra(label, extra)]))
        short.append(Text.join(" · ", [key, label]))
    return full, short, common, note


def _first_labels(decision: Decision, name: Callable[[str], str], bare: bool = False) -> list[str]:
    """Each marker key with its first option's label only (``"2 · Red Pine at 4-6 …"``), or the label of an option
    without a place. ``bare``: keyed labels without their parenthesised asides (``"B1-n (= A1-sw)"`` -> ``"B1-n"``)."""
    keys = marker_keys(decision.options)
    labels, _note = _labels(decision, name)
    seen: dict[str, list[str]] = {}
    for opt in decision.options:
        key = keys.get(opt.id) or labels[opt.id] or opt.id
        label = labels[opt.id] if opt.id in keys else ""
        seen.setdefault(key, []).append(re.sub(r" \([^()]*\)", "", label) if bare and not translating() else label)
    return [key if not labels[0] else Text.join("", [key, " · ", labels[0], " …" if len(labels) > 1 else ""])
            for key, labels in seen.items()]


KNOWN_PENDING: ContextVar[tuple[BaseState, list[Decision]] | None] = ContextVar("known_pending", default=None)
"""``(state, its pending decisions)`` when the caller has them already (the bot's update): the words then do not
ask the rules again (:func:`knowing`)."""


@contextmanager
def knowing(state: BaseState, pending: list[Decision]) -> Iterator[None]:
    """Within the block, ``state``'s pending decisions are ``pending`` (computed once by the caller)."""
    token = KNOWN_PENDING.set((state, pending))
    try:
        yield
    finally:
        KNOWN_PENDING.reset(token)


def pending_of(game: Game, state: BaseState) -> list[Decision]:
    """``game.pending(state)``, or the decisions the caller already has (:func:`knowing`)."""
    known = KNOWN_PENDING.get()
    return known[1] if known is not None and known[0] is state else game.pending(state)


def decision_parts(game: Game, state: BaseState, name: Callable[[str], str],
                   where: Callable[[str], str] | None = None) -> list[Part]:
    """Parts naming every pending decision: who answers and what (the prompt), then its options (rank
    :data:`KEEP`: never dropped; shortened step by step — without their places' state, first labels only, without
    their asides, the keys alone)."""
    parts: list[Part] = []
    for d in pending_of(game, state):
        prompt = words(d.prompt, name)
        if prompt != prompt.rstrip():
            prompt = prompt.rstrip()
        if prompt and prompt[-1] not in ".?!:" and str(in_language(prompt))[-1:] not in "。？！：":
            prompt = T("{text}.", text=prompt)
        who = "" if d.player is None or name(d.player) in prompt else T("{player} decides.", player=name(d.player))
        parts.append(Part(Text.join(" ", [who, prompt]) if who else prompt, rank=KEEP + 2))
        if not d.options:
            continue
        full, short, common, note = _entries(d, name, where)
        keys = marker_keys(d.options)
        only_keys = list(dict.fromkeys(keys.get(o.id) or words(o.label, name) or o.id for o in d.options))
        parts.append(Part(_options(full, note, common), _options(short, note), KEEP + 1,
                          (_options(_first_labels(d, name), note), _options(_first_labels(d, name, bare=True), note),
                           _options(only_keys, sep=", "))))
    return [p for p in parts if p.full or p.short]


def _options(listed: Sequence[str], note: str = "", common: str = "", sep: str = Tc("words options", "; ")) -> Text:
    """``"Options (note; all: common): a; b."``, each aside only when given."""
    options = Text.join(sep, listed)
    if note and common:
        return _end(T("Options ({note}; all: {common}): {options}", note=note, common=common, options=options))
    if common:
        return _end(T("Options (all: {common}): {options}", common=common, options=options))
    if note:
        return _end(T("Options ({note}): {options}", note=note, options=options))
    return _end(T("Options: {options}", options=options))


def _end(text: str) -> str:
    return text if text[-1:] in ".?!" else T("{text}.", text=text)


def chunks(lines: Sequence[str], limit: int | None = None) -> list[str]:
    """``lines`` joined by newlines into chunks of at most ``limit`` characters (default :data:`CHUNK_LIMIT`, read
    at each call; a longer line is cut at words)."""
    limit = limit or CHUNK_LIMIT
    lines = [in_language(line) for line in lines]  # measured as read
    out: list[str] = []
    cur = ""
    for line in lines:
        while len(line) > limit:
            head = line[:limit].rsplit(" ", 1)[0] or line[:limit]
            lines_rest = line[len(head):].lstrip()
            if cur:
                out.append(cur)
                cur = ""
            out.append(head)
            line = lines_rest
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur:
        out.append(cur)
    return out or [in_language(T("The board is empty."))]
