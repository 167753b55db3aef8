"""Tatari's fixed data: dice faces, shrines, doll counts (rulebook "Components" and "Setup"; RULINGS TA-1, TA-2, TA-9).

One place for the numbers the rules read, so that someone holding the printed game can check them at a glance.
"""

from __future__ import annotations

from games.core import T

FACES: tuple[str, ...] = ("1", "2", "3", "4", "doll", "double")
"""The six faces of a Tatari die (TA-2), as option ids use them (``set:<face>``)."""

FACE_VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "doll": 0, "double": 0}
"""What a face adds to the total (TA-2)."""

FACE_DOLLS = {"1": 0, "2": 0, "3": 0, "4": 0, "doll": 1, "double": 2}
"""How many dolls a face counts (TA-2)."""

FACE_LABEL = {"1": T("1"), "2": T("2"), "3": T("3"), "4": T("4"), "doll": T("doll"), "double": T("double-doll")}
"""A face as people read it (a :class:`games.core.Text`; equal to its English wording)."""

FACE_WORDS = {
    "1": "1", "2": "2", "3": "3", "4": "4", "doll": "doll", "double": "double", "doubledoll": "double",
    "one": "1", "two": "2", "three": "3", "four": "4",
    "人形": "doll", "にんぎょう": "doll", "ダブル人形": "double", "ダブル": "double",
}
"""Typed words (case, spaces and punctuation ignored) that name a face: ``Tatari.chat_word`` reads "1" as the face
1 and "double-doll" as the double-doll while a face is to be set aside; the Japanese names of the faces (人形,
ダブル人形) and full-width digits are read too."""

SHRINES: tuple[int, ...] = (7, 8, 9, 10)
"""The shrine boards that hold dolls; shrine 11 is the Shrine box (``TatariState.box``)."""

BOX = 11
"""The Shrine box's shrine number (rulebook "Components"): dolls there are out of play."""

TOTAL_DOLLS = 44
"""Cursed dolls in the box (rulebook "Components")."""

STASH_CAP = 10
"""Most dolls a stash holds; every doll past it goes to the Shrine box (TA-9)."""

DICE = 6
"""Dice in the Cursed box (rulebook "Components")."""


def stash_size(players: int) -> int:
    """Dolls dealt to each stash: 10, or 8 with five players (TA-1)."""
    return 8 if players == 5 else 10
