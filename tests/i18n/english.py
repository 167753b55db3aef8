"""The English words a Japanese text must not contain: every word of the catalogues' English message ids, less the
games' titles and the few Latin words Japanese tables keep (ARCHITECTURE.md "Text and languages")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

import games
from bot import i18n

KEPT = {"ai", "ms", "sen"}
"""English-looking words a Japanese text keeps: "AI", "ms", the currency "Sen" as printed on the cards."""


@cache
def english_words() -> frozenset[str]:
    """Every word of 3+ letters in the catalogues' English message ids (placeholders left out)."""
    found: set[str] = set()
    for pot in Path(i18n.LOCALES).glob("*.pot"):
        with pot.open("rb") as fh:
            for m in read_po(fh):
                for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
                    if msgid:
                        found |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w*\}", " ", msgid))}
    titles = {w.lower() for g in games.all() for w in re.findall(r"[A-Za-z]+", g.title)}
    return frozenset(found - titles - KEPT)


def english_left(text: str) -> list[str]:
    """The catalogue's English words in ``text``, once mentions, `code`, /commands, key=value options, URLs and
    custom emoji are taken out."""
    text = re.sub(r"<[@#:a]?[^<>]*>|`[^`]*`|https?://\S+|/[a-z][-a-z]*(?: \w+:\w+)*|\b\w+=\S+", " ", text)
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() in english_words()]


__all__ = ["english_left", "english_words"]
