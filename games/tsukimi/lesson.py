"""The guided first game of Tsukimi (``/learn tsukimi``, :mod:`games.lessons`): the light side, seed 1, the learner's
white clan first against the Teacher's purple. Rules from the rulebook's "Choosing a Mochi Tile", "Placing a Mochi
Tile", "Applying a Mochi Tile Effect" and "End of the Game"."""

from games.core import T
from games.lessons import Lesson, Step

LESSON = Lesson(
    game="tsukimi",
    seed=1,
    options={"side": "light", "first": "white"},
    steps=(
        Step("choose_tile",
             T("Each turn you take a mochi tile from the circle around the moon. The two tiles next to the Temple "
               "tile (in the circle too) are free; a tile further away costs one rabbit per tile in between.\nTake "
               "blueberry 3: free and worth 3."),
             "tile:8",
             T("That tile costs rabbits from your reserve or scores less. Blueberry 3 is free and worth 3 points.")),
        Step("place_tile",
             T("Then you place it on the moon. The first tile may go anywhere; every later tile must touch one "
               "already placed.\nPlace it on B2, an inner space: tiles can later surround it."),
             "space:B2",
             T("An edge space has fewer neighbours. Put blueberry 3 on B2, inside the moon.")),
        Step("effects",
             T("A tile's lower part says what you do now: blueberry 3 places 1 rabbit on a corner of its space. A "
               "corner touches up to three spaces and counts for each.\nPlace it on B2-se (= C3-n)."),
             "place:C3-n",
             T("Ending now leaves B2 without a rabbit of yours. This lesson places it on B2-se (= C3-n), a corner "
               "that C3 and B3 will share.")),
        Step("choose_tile",
             T("Tiles never move; the two nearest the Temple are free. Purple now has 2 rabbits at "
               "your B2 to your 1.\nStrawberry 0 scores nothing but places 2 rabbits and moves 1: take it."),
             "tile:1",
             T("A tile's value is what it scores at the end; its effect is what you do now. You need rabbits at "
               "B2: strawberry 0 gives two and a move.")),
        Step("place_tile",
             T("Place strawberry 0 next to a placed tile. On C2 two of its corners are free corners of B2, so "
               "rabbits placed there count at your blueberry 3 too.\nPlace it on C2."),
             "space:C2",
             T("Only on C2 does the new tile share two free corners with B2, where purple leads 2 to 1.")),
        Step("effects",
             T("At the end, the clan with more rabbits on a tile's six corners claims it; a tie claims nothing.\n"
               "Place a rabbit on C2-n: it is also B2's south-west corner."),
             "place:C2-n",
             T("That corner is not one of B2's, where purple leads 2 to 1.")),
        Step("effects",
             T("Now 2 to 2 at B2: a tie, nobody would claim it.\nPlace the second rabbit on C2-ne (= B2-s): 3 to 2 "
               "for you."),
             "place:B2-s",
             T("Only a corner of B2 breaks the tie there; C2-ne (= B2-s) is one.")),
        Step("effects",
             T("Effects are optional. Your three rabbits stand on corners of B2: moving one away gives purple the "
               "lead back.\nEnd the turn."),
             "end",
             T("Moving a rabbit off B2 ties it again. Keep them: end the turn.")),
        Step("choose_tile",
             T("Purple answered on B2's last free corner: 3 to 3. The two tiles nearest the Temple are always free, "
               "and taken tiles leave gaps: sakura 5, the richest mochi, is free now.\nTake it."),
             "tile:17",
             T("Sakura 5 is worth the most of all and costs nothing this turn: take it.")),
    ),
    goal=T("Goal: when all 18 mochi are placed, each tile goes to the clan with more rabbits on its corners, and "
           "the most mochi points wins. Rabbits are few: put them on corners that count for several tiles."),
)
