"""``/rules`` texts for Tatari, in our own words (topic -> short help; "" is the overview)."""

from __future__ import annotations

from games.core import T, Text

RULES_HELP: dict[str, Text] = {
    "": (
        T("Get rid of all your cursed dolls. On your turn you roll six dice and set aside every die of one face, "
        "again and again, never a face you already set aside. From a total of 7 you may stop: the total names a "
        "shrine and the doll faces you set aside say how many dolls that shrine should hold. You win when your "
        "turn comes round and your stash is empty.")
    ),
    "dice": (
        T("Faces 1-4 add to the total; a doll counts 1 doll, a double-doll 2 dolls. Six dice, six faces. To set a face "
        "aside, press it or type the face itself: 1, 2, 3, 4, doll or double-doll.")
    ),
    "stop": (
        T("Total 7-10: the shrine of that number is brought to the number of dolls you counted — you put dolls in "
        "if it holds fewer, you take the difference if it holds more. Total 11+: the counted dolls leave your "
        "stash for the Shrine box. If a 1 is among your set-aside dice, you must then give one doll from your "
        "stash to another player of your choice (once, however many 1s; nothing if your stash is empty).")
    ),
    "bust": (
        T("If no die of the roll shows a new face, or all six dice are set aside with a total under 7, you bust: "
        "take every doll from the fullest shrine (your pick on a tie).")
    ),
    "stash": (
        T("Nobody holds more than 10 dolls: any doll past 10 goes to the Shrine box at once — a doll given to a player "
        "who holds 10, or taken from a shrine beyond 10, leaves the game.")
    ),
    "end": T("The game ends when a player starts a turn with no dolls: they win. Others rank by dolls left."),
}

TOPIC_NAMES: dict[str, str] = {
    "dice": T("dice"),
    "stop": T("stop"),
    "bust": T("bust"),
    "stash": T("stash"),
    "end": T("end"),
}
"""Each topic of :data:`RULES_HELP` by its name (a :class:`~games.core.Text`): what ``/rules`` lists and its menus
show; the key stays what a player types."""
