"""``/rules tatsumi <topic>`` texts, in our own words (topic -> text; ``""`` is the overview; rulebook
``tatsumi.md`` and RULINGS TM-1..TM-19)."""

from games.core import T, Tc

RULES_HELP: dict[str, str] = {
    "": T(
        "2-4 players; exactly 5 with void=true; exactly 1 with solo=true. Each turn: fly your dragon "
        "and either gather or offer, in either order. "
        "Rings you offer go onto your island and score; the richest island in fortune wins. "
        "The game ends after the round in which the 13th sand dollar is placed in a well or a ring cannot be "
        "placed. "
        "Options: colours=seat|choose|random (who plays which dragon), island and dragons "
        "(symmetric|asymmetric|choose), void, weather, solo."
    ),
    "first": T(
        "Your first turn: each button is one flight — your dragon flies like a chess queen from its start well and "
        "claims the top ring of the well it leaves (\"fly to b1, claim water from a1\"). Then you gather: the top "
        "rings of two unguarded wells next to where you landed. Nothing scores yet: rings wait in your holding "
        "until you offer them at a shrine within reach (front 2+2 rings, back 2+1). A good start lands where the "
        "rings a nearby shrine asks for are on top, and keeps to three elements (a fourth in holding overflows "
        "onto your island unscored). /hint shows the strong AI's choice and why."
    ),
    "fly": T(
        "Fly like a chess queen to another well; you may land on or fly over a depleted well (one with no ring left), "
        "but never into or past another dragon (in solo, nor a Tekitatsu or the maelstrom). "
        "You claim the top ring of the well you leave. If you cannot fly at all, your dragon is lifted to any "
        "unguarded well instead and claims no ring; the turn goes on."
    ),
    "gather": T(
        "Gather (symmetric dragon cards): take the top rings of two different unguarded wells next to you (north, east, south, west; a "
        "well holding a dragon, a Tekitatsu or the maelstrom is guarded), or the one ring if only one such well "
        "has a ring."
    ),
    "holding": T(
        "Rings wait in your holding, one slot per element. At the end of your turn, with all 4 elements held, "
        "you choose one element and all its rings go to your island unscored (overflow)."
    ),
    "offer": T(
        "Offer at a shrine within 1 well of it (more with Butterfly) with exactly the rings it asks: "
        "front 2+2 (fire: fire+wind, wind: wind+water, water: water+lightning, lightning: lightning+fire), "
        "back 2+1 with a scale icon (fire+water, water+wind, wind+lightning, lightning+fire). "
        "The tile flips after each offering. Offering at a back side puts a scale on the card above it."
    ),
    "island": T(
        "Island: a rift takes only its element; your first ring goes on a rift; later rings next to a ring. "
        "Each offered ring scores 1 per rift of its element you have encircled. A blessing space with a ring "
        "between two rings of one element frees a scale that you put on any summoning card."
    ),
    "cards": T(
        "Summoning cards: scoring cards pay when a scale lands (Jellyfish, Koi, Otter, Salamander, Water "
        "Strider, Lizard Claw, Turtle, Toad, Monkey, Dragonfly); lasting ones grow with your scales on them "
        "(Butterfly range, Swallows, Heron, Blackbird, Duck; Flying Fish sends its scale to another card)."
    ),
    "weather": T(
        "Weather (option weather=true; always in solo): a minor card (5 sand dollars) and a major card (8). "
        "Claiming its element in a turn puts a sand dollar from beside the card onto it; placing its element "
        "takes one off. With none left beside it, the card strikes: every island swaps one ring (major: two) of "
        "its element with a neighbour of another element (never onto or off a rift; the second swap may not "
        "undo the first). A depleted well takes a sand "
        "dollar you choose, taken off a card or from beside it; a card whose dollars are all in the sea is neutralised."
    ),
    "solo": T(
        "Solo (option solo=true, one player): each solo card places two Tekitatsu and the maelstrom, which "
        "guard their wells. After your turn each Tekitatsu washes away the top ring of its four neighbours, the "
        "card may flip a shrine, and the next card moves them. The end: 13 sand dollars, a ring you cannot "
        "place, or the 16th card played. Rank: 70+ safe, 80+ peaceful, 90+ feast, 100+ harmony, 110+, 120+. "
        "Any dragon with colours=choose, any island with island=choose, either card side with dragons=choose."
    ),
    "dragons": T(
        "Which dragon (option colours): seat (dealt in seat order: Karyu fire, Raijin lightning, Fujin wind, "
        "Mizuchi water; Kihaku 5th), choose (in seat order each player picks a dragon not yet taken; Kihaku only "
        "with the Void) or random. Start wells stay by seat. "
        "Dragon cards (option dragons: symmetric, asymmetric, or each player chooses at setup). Asymmetric "
        "gathering: Raijinsama two matching rings from the 8 wells around; Karyusama breath: the two nearest "
        "rings in a straight line, skipping empty wells, stopped by a dragon; Fujinsama dashes 1-2 wells in a "
        "line, claiming each well it leaves; Mizuchisama dives (claims the ring beneath), reemerges at a well "
        "topped by the same element, then claims a ring next to it; Kihakusama claims the edgemost rings of "
        "two ends of its row and column (empty edge wells skipped, a dragon on the edge blocks)."
    ),
    "islands": T(
        "Island boards (option island): symmetric (all play Tatsumi Island), asymmetric (each player is dealt "
        "one of six boards) or choose (in seat order each player picks a board not yet taken and its side). "
        "Arashima: inland ring in a row only after a perimeter ring in that row. Inyo: rings on light "
        "and dark spaces within one of each other (the eyes count for their own colour). Isuragi: an obelisk "
        "only once all its neighbours hold rings. Kogasu: the volcano centre touches nothing, any ring may go "
        "there. Mizukame: all 1-droplets, then 2s, then 3s. Raikou: each offering puts exactly one ring on a "
        "bolt if it can. Their blessings need two rings of a set element on marked spaces."
    ),
    "void": T(
        "The Void (option void=true) is for exactly 5 players: Kihaku, the 5th dragon, joins (the 5th seat's, "
        "or dealt or picked with colours=random or choose; the 5th seat starts on c3). Kihaku's player names its "
        "element at setup (for Dragonfly and ties); 4 extra rings, one per element, go on b2, d2, b4 and d4. "
        "The 24 Void Shrine cards are not played: the rulebook gives them no rules."
    ),
    "end": T(
        "The game ends after the round in which the 13th sand dollar is placed in a well, or in which a ring "
        "that must be placed cannot be (it stays in holding), so that everyone has played as often. "
        "Then Elemental Mastery — water 2 per ring of your largest water group, lightning 2 per group, wind "
        "1 per other element touching it, fire 5 per 3 fire rings. Ties: most rings of your dragon's element."
    ),
}

TOPIC_NAMES: dict[str, str] = {
    "first": Tc("rules topic", "first"),
    "fly": T("fly"),
    "gather": T("gather"),
    "holding": T("holding"),
    "offer": T("offer"),
    "island": T("island"),
    "cards": T("cards"),
    "weather": T("weather"),
    "solo": T("solo"),
    "dragons": T("dragons"),
    "islands": T("islands"),
    "void": T("void"),
    "end": T("end"),
}
"""Each topic of :data:`RULES_HELP` by its name (a :class:`~games.core.Text`): what ``/rules`` lists and its menus
show; the key stays what a player types."""
