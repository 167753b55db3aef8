"""What a player types for a game, an AI level, a rules topic or an option, matched as a reader of either language
writes it (ARCHITECTURE.md, "Text and languages").

- :func:`~games.spelling.fold`: the form two spellings are compared in — Unicode NFKC (full-width ``ＴＡＴＡＲＩ``
  and half-width ``ﾀﾀﾘ`` become their plain forms), case folded, katakana as hiragana (``タタリ`` -> ``たたり``),
  spaces, ``・`` and punctuation dropped.
- :func:`names_of`: every name a thing answers to, folded: its id, its English and Japanese names and the readings
  of a name written in kanji (:data:`READINGS`: ``月見`` is also ``つきみ``).
- :func:`matches` (autocomplete: what was typed is in one of the names) and :func:`find_game` (``/play game:``,
  ``/rules game:``: exactly one game answers to it).
"""

from __future__ import annotations

from collections.abc import Iterable

import games
from games import Game
from games.spelling import fold

from .i18n import LANGUAGES, say

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
    return not needle or any(n.startswith(needle) if prefix else needle in n for n in names)


def find_game(typed: str) -> Game | None:
    """The one game ``typed`` names: its id (``tatari``), its title in any language (``Tatari``, ``タタリ``,
    ``たたり``, ``月見``, ``辰巳``, ``たたらばと森``) or a reading (``つきみ``, ``たつみ``), else the one game whose names
    contain it (``もり``, ``森``; one Latin letter is too little); None when no game or more than one does
    (``たた``)."""
    try:
        return games.get(typed)
    except KeyError:
        pass
    needle = fold(typed)
    if not needle:
        return None
    named = [(g, names_of(g.id, g.title)) for g in games.all()]
    exact = [g for g, names in named if needle in names]
    if len(exact) == 1:
        return exact[0]
    partial = [g for g, names in named if any(needle in n for n in names)]
    return partial[0] if len(partial) == 1 and (len(needle) >= 2 or not needle.isascii()) else None


__all__ = ["READINGS", "find_game", "fold", "matches", "names_of"]
