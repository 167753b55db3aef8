"""``/rules`` help for Tsukimi, in our own words (topic -> text; ``""`` is the overview).

Sources: rulebook ``tsukimi.md``, RULINGS TS-1..TS-9.
"""

from games.core import T, Text

RULES_HELP: dict[str, Text] = {
    "": (T("Two clans, white and purple, place the 18 mochi tiles on the Moon. On your turn take a tile from "
         "the circle, put it on the board next to another tile, then use its effects to place or move "
         "rabbits on the corners (vertices) of the spaces. When all 18 are placed, whoever has more rabbits "
         "around a tile claims it; the most mochi points wins.")),
    "tiles": (T("18 mochi: strawberry, blueberry, carrot and matcha with values 0, 1, 2, 3, and two sakura worth "
              "5. Effects by value: 0 = place up to 2 rabbits and move 1; 1 = place up to 2; 2 = place up to 1 "
              "and move 1; 3 = place up to 1; sakura 5 = move 1.")),
    "cost": (T("The tiles and the Temple lie in a circle; taken tiles leave gaps and nothing moves. A tile costs "
             "one rabbit from your reserve (to the box) per mochi still lying between it and the Temple the "
             "shorter way round, so the two tiles nearest the Temple are free. You cannot take a tile you "
             "cannot pay for.")),
    "placing": (T("Put the tile on an empty space touching a placed tile (the first tile goes anywhere). "
                "Spaces are named by row A-E and position: A1-A3, B1-B4, C1-C5, D1-D4, E1-E3; C3 is the centre.")),
    "effects": (T("Place rabbits from your reserve on empty corners of the space you just filled; move one of "
                "your rabbits on the board to any empty corner. Every effect is optional and you choose the "
                "order, but a tile's placing is all done before its move or all after it, never split around it "
                "(no place - move - place): once you have placed and then moved, the placing is over. 'end' skips "
                "whatever is left.")),
    "groups": (T("If your tile makes a connected group of exactly 3 tiles of its flavour, discard one rival "
               "rabbit from the board (your choice). The same again for exactly 3 of its value (never 5). "
               "Both can happen. Do it before, between or after your effects; if your rival has no rabbit on "
               "the board, nothing happens.")),
    "scoring": (T("At the end, each tile goes to the clan with more rabbits on its 6 corners; a tie discards it. "
                "Most points wins; then most tiles claimed; then most rabbits left in reserve; then a shared win.")),
    "dark": (T("Dark side: each clan starts with 3 rabbits, the other 12 wait in the box. Placing a tile on a "
             "space with rabbit symbols recruits from the box: 2 on the corner spaces A1, A3, C1, C5, E1, E3; "
             "1 on B2, B3, C2, C4, D2, D3. Paid and discarded rabbits go to the box and can be recruited again.")),
    "names": (T("A corner is named by a space and a direction: n, ne, se, s, sw, nw, e.g. C3-n. One corner has up "
              "to three names (C3-n = B2-se = B3-sw); any of them is accepted. You may type a bare name when it "
              "names one choice: C4-s to place or move there, C3 for a space, 'sakura 5' for a tile.")),
}

TOPIC_NAMES: dict[str, str] = {
    "tiles": T("tiles"),
    "cost": T("cost"),
    "placing": T("placing"),
    "effects": T("effects"),
    "groups": T("groups"),
    "scoring": T("scoring"),
    "dark": T("dark"),
    "names": T("names"),
}
"""Each topic of :data:`RULES_HELP` by its name (a :class:`~games.core.Text`): what ``/rules`` lists and its menus
show; the key stays what a player types."""
