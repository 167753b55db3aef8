"""What a player types for a game, an AI level, a rules topic or an option, matched as a reader of either language
writes it (ARCHITECTURE.md, "Text and languages").

- :func:`~games.spelling.fold`: the form two spellings are compared in — Unicode NFKC (full-width ``ＴＡＴＡＲＩ``
  and half-width ``ﾀﾀﾘ`` become their plain forms), case folded, katakana as hiragana (``タタリ`` -> ``たたり``),
  spaces, ``・`` and punctuation dropped.
- :func:`names_of`: every name a thing answers to, folded: its id, its English and Japanese names and the readings
  of a name written in kanji (:data:`READINGS`: ``月見`` is also ``つきみ``).
- :func:`matches` (autocomplete: what was typed is in one of the names, or in a kana reading of a name written in
  kanji: :func:`reads_as`, 「みず」 finds 「水」, from the table of :mod:`bot.readings`) and :func:`find_game`
  (``/play game:``, ``/rules game:``: exactly one game answers to it).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TypeVar

import games
from games import Game
from games.spelling import fold

from .i18n import LANGUAGES, say
from .readings import READINGS as KANJI_READINGS
from .readings import REPEAT

Thing = TypeVar("Thing")

READINGS: dict[str, tuple[str, ...]] = {
    "Tsukimi": ("つきみ",),
    "Tatsumi": ("たつみ",),
    "Forest of Tataraba": ("たたらばともり", "もり"),
    "Easy": ("よわい",),
    "Normal": ("ふつう",),
    "Strong": ("つよい",),
}
"""The kana readings of the Japanese names written in kanji (月見, 辰巳, たたらばと森, 弱い, 普通, 強い), by English
name: a player may type either."""


def names_of(key: str, name: str) -> set[str]:
    """Every folded name of a thing with id ``key`` and name ``name`` (a :class:`~games.core.Text` or a plain
    string): the id, the name in each language, and the readings of its English wording."""
    out = {fold(key), *(fold(say(name, lang)) for lang in LANGUAGES)}
    out.update(fold(r) for r in READINGS.get(str(name), ()))
    return out - {""}


def matches(typed: str, names: Iterable[str], *, prefix: bool = False) -> bool:
    """Whether what was typed (folded) is part of one of ``names`` (folded already: :func:`names_of`; ``もり`` in
    ``たたらばともり``), or with ``prefix`` starts one (a short list such as the AI levels: ``s`` finds ``strong``,
    not ``easy``); nothing typed matches everything."""
    needle = fold(typed)
    return not needle or any(n.startswith(needle) if prefix else needle in n for n in names) or any(
        reads_as(needle, n, prefix=prefix) for n in names)


def _spellings(name: str) -> tuple[tuple[str, ...], ...]:
    """``name`` (folded) as the ways each character may be read: a kanji of :data:`bot.readings.READINGS` by its
    readings, 々 as the kanji before it, any other character as itself."""
    out: list[tuple[str, ...]] = []
    for ch in name:
        out.append(out[-1] if ch == REPEAT and out else KANJI_READINGS.get(ch, (ch,)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def reads_as(needle: str, name: str, *, prefix: bool = False) -> bool:
    """Whether ``needle`` (folded kana) is part of ``name`` (folded) read aloud, each kanji by one of its
    readings (:func:`_spellings`): ``reads_as("みず", "水の祠")``, ``reads_as("ずのほこ", "水の祠")``; with
    ``prefix``, only from the start of ``name``. False for a name without kanji in the table (plain
    :func:`matches` covers it)."""
    chars = _spellings(name)
    if not needle or all(len(c) == 1 and c[0] in name for c in chars):
        return False

    @functools.cache
    def rest(i: int, at: int) -> bool:  # needle[at:] continues from character i on
        if at == len(needle):
            return True
        if i == len(chars):
            return False
        left = needle[at:]
        return any(left.startswith(r) and rest(i + 1, at + len(r)) or r.startswith(left) for r in chars[i])

    starts = range(1) if prefix else range(len(chars))
    return any(needle.startswith(r[k:]) and rest(i + 1, len(r) - k) or r[k:].startswith(needle)
               for i in starts for r in chars[i] for k in (range(1) if prefix else range(len(r))))


def find_game(typed: str) -> Game | None:
    """The one game ``typed`` names: its id (``tatari``), its title in any language (``Tatari``, ``タタリ``,
    ``たたり``, ``月見``, ``辰巳``, ``たたらばと森``) or a reading (``つきみ``, ``たつみ``), else the one game whose names
    contain it (``もり``, ``森``; one Latin letter is too little); None when no game or more than one does
    (``たた``)."""
    try:
        return games.get(typed)
    except KeyError:
        pass
    return _the_one(typed, [(g, names_of(g.id, g.title)) for g in games.all()])


def find_topic(game: Game, typed: str) -> str | None:
    """The rules topic of ``game`` (a ``Game.rules_help`` key) that ``typed`` names: its key (``dice``), its name
    in any language (``ダイス``, ``Dice``, folded as :func:`find_game` folds), else the one topic whose names contain
    it; None when no topic or more than one does."""
    if typed in game.rules_help:
        return typed
    return _the_one(typed, [(t, names_of(t, game.topic_name(t))) for t in game.rules_help if t])


def _the_one(typed: str, named: list[tuple[Thing, set[str]]]) -> Thing | None:
    """The one thing of ``named`` (thing, its folded names: :func:`names_of`) that ``typed`` (folded) names
    exactly, else the one whose names contain it (one Latin letter is too little); None when none or several do."""
    needle = fold(typed)
    if not needle:
        return None
    exact = [x for x, names in named if needle in names]
    if len(exact) == 1:
        return exact[0]
    partial = [x for x, names in named if any(needle in n for n in names)]
    return partial[0] if len(partial) == 1 and (len(needle) >= 2 or not needle.isascii()) else None


__all__ = ["READINGS", "find_game", "find_topic", "fold", "matches", "names_of", "reads_as"]
