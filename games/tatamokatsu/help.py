"""``/rules`` texts for Tatamokatsu, in our own words (topic -> short help; "" is the overview)."""

from __future__ import annotations

from games.core import T, Text

RULES_HELP: dict[str, Text] = {
    "": (
        T("2-5 players, one hand of five fingers each. Players take turns rolling three dice; after each roll everyone "
        "has a few seconds (8 by default) to react. Wrong reactions and bad sums cost fingers, a Tatamokatsu can "
        "win one back. The last player with fingers is the Samurai.")
    ),
    "dice": (
        T("Dice A and B show 1-6 and two '1 or 10' faces. Die C shows 1-6, one '1 or 10' face and the Tatamokatsu "
        "face T. The roller decides what each '1 or 10' counts, but never so that the sum is 10 or 17 (those only "
        "count when someone shouts). The roller counts once the reaction window has closed; a roller who does not "
        "choose in time gets the lowest sum.")
    ),
    "race": (
        T("After a roll, press or react: shout Tatamokatsu (type 'tatamokatsu'), grab the T die, Katana, salute "
        "(type 'hai'). Only the time of each press counts, to the millisecond. If the dice can make 10 or 17, the "
        "first shout wins: strike every opponent (each loses one) or recover one finger. If T shows, the first "
        "grab wins the same choice. Equal times roll off with a die.")
    ),
    "sums": (
        T("With no winning shout: under 10 the roller loses a finger; 11 to 16 everyone must salute (Hai!) in time "
        "or lose one; above 17 the roller picks who loses one; exactly 10 or 17 does nothing.")
    ),
    "katana": (
        T("Three identical faces: everyone with fingers must Katana. Whoever did not loses one; if all did, the "
        "slowest loses one. This comes on top of the sum.")
    ),
    "dragon": (
        T("Lost all your fingers? Stay sharp: when T shows, be the first to grab it and you are back with all five "
        "(dragon resurrection). Grabbing is the only thing you can still do.")
    ),
    "mistakes": (
        T("Each mistake costs a finger: shouting when the dice cannot make 10 or 17, grabbing when no T shows, a "
        "Katana without triples. On a T roll a shout neither wins nor costs: the grab wins it. A salute that "
        "comes when none is owed costs nothing.")
    ),
    "end": (
        T("The game ends when at most one player has fingers: the Samurai. A roll counts as a whole: its Katana and "
        "its sum (the count, the salute, the victim) are both played before the end is decided, so the last hands "
        "that lose their last fingers to the same roll share the win.")
    ),
}

TOPIC_NAMES: dict[str, str] = {
    "dice": T("dice"),
    "race": T("race"),
    "sums": T("sums"),
    "katana": T("katana"),
    "dragon": T("dragon"),
    "mistakes": T("mistakes"),
    "end": T("end"),
}
"""Each topic of :data:`RULES_HELP` by its name (a :class:`~games.core.Text`): what ``/rules`` lists and its menus
show; the key stays what a player types."""
