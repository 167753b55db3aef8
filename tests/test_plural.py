"""The one plural helper every game's texts use for counts (``games.plural``)."""

from __future__ import annotations

from games import plural
from games.core import seats_text
from games.tatari.rules import dice_text, dolls_text


def test_plural_forms():
    assert [plural(n, "finger") for n in (0, 1, 2)] == ["0 fingers", "1 finger", "2 fingers"]
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"
    assert plural(4, "Sen", "Sen") == "4 Sen" and plural(1, "round") == "1 round"
    assert (dolls_text(1), dolls_text(0), dice_text(1), dice_text(6)) == ("1 doll", "0 dolls", "1 die", "6 dice")
    assert seats_text([1]) == "exactly 1 player" and seats_text([5]) == "exactly 5 players"
