"""What the games' whole-game Japanese tests check each text for: a :class:`games.core.Text` (not a plain str that
escaped conversion), no English word left in its Japanese, and a button label no longer than it may be."""

from __future__ import annotations

import re

from bot import i18n
from games.core import Text

NAMES = {f"p{i}": name for i, name in enumerate(("あきら", "ゆき", "はると", "さくら", "れん"))}
ENGLISH = re.compile(r"[A-Za-z]{2,}")
LABEL_MAX = 40
"""A button label in ja is at most this long (I18N.md), or no longer than its English."""


def english_words(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The ASCII words of 2+ letters in ``text`` that are not ``allowed`` (option ids, lobby option syntax)."""
    return [w for w in ENGLISH.findall(text) if w not in allowed]


def untranslated(texts) -> list[str]:
    """Each ``(what, text, allowed words)`` whose text is not a Text, whose ja rendering still has English words, or
    whose label is too long for a button, as one line."""
    bad = []
    for what, text, allowed in texts:
        if not isinstance(text, Text):
            bad.append(f"{what}: plain str {text!r}")
            continue
        ja = i18n.say(text, "ja", NAMES)
        if english_words(ja, allowed):
            bad.append(f"{what}: {ja!r}")
        if what == "label" and len(ja) > max(LABEL_MAX, len(i18n.say(text, "en", NAMES))):
            bad.append(f"label longer than {LABEL_MAX} characters: {ja!r}")
    return bad
