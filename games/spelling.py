"""How a typed word is compared with the words a game or the bot knows, whatever script or width it was typed in
(Tatamokatsu's race words, game titles, levels, topics and options).

Pure: the standard library's Unicode tables only.
"""

from __future__ import annotations

import unicodedata

_KATAKANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
"""Katakana -> hiragana (ァ..ヶ to ぁ..ゖ: the two scripts' tables are 0x60 apart)."""


def fold(text: str) -> str:
    """``text`` in the form spellings are compared in: Unicode NFKC (full-width ``ＨＡＩ`` and half-width ``ﾊｲ``
    become their plain forms), case folded, katakana as hiragana (``ハイ`` -> ``はい``), only letters and digits kept
    (spaces, ``・`` and punctuation dropped; the long-vowel mark ``ー`` is a letter and stays):
    ``fold("Ｔａｔａ ＲＩ！") == "tatari"``, ``fold("ﾀﾀﾘ") == fold("タタリ") == "たたり"``."""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_KATAKANA)
    return "".join(ch for ch in folded if ch.isalnum())


__all__ = ["fold"]
