"""The guided first game of Forest of Tataraba (``/learn tataraba``, :mod:`games.lessons`): two players on boards
1-2-3 (FT-1), seed 1, the learner first against the Teacher. Rules from the rulebook's "Placing your first Tatara",
"Each Player's Turn" (moving, planting, logging, Foot markers), the lumber process chart and "Forest growth and
shift"."""

from games.core import T
from games.lessons import Lesson, Step

LESSON = Lesson(
    game="tataraba",
    seed=1,
    steps=(
        Step("place",
             T("Trees give Sen (iron money) and building material; 10 of each build the Eidai Tatara, the great "
               "furnace that wins. (The shift cards shown name boards whose trees grow; now they only inform.) Place "
               "your Tatara (a furnace) with your piece on it.\nPlace it on 1-5, between the Evergreens (the "
               "forest's first trees) of 1-6 and 1-8."),
             "tile:1-5",
             T("1-5 touches two Evergreens, 1-6 and 1-8, each worth Sen or material when logged (cut); most tiles "
               "touch one: place your Tatara on 1-5.")),
        Step("move",
             T("Each turn you first move 1 or 2 tiles (you must move), then take 2 actions on the tiles next to you. "
               "A move may pass over an adult (grown) tree, counting 2 tiles, but never stop on one; a Foot marker "
               "buys 1 extra tile.\nSpend yours to reach 1-9 over an Evergreen: it touches both."),
             "tile:1-9",
             T("From there at most one Evergreen is next to you. 1-9 touches 1-6 and 1-8.")),
        Step("action",
             T("Your 2 actions, in any order: plant a young tree, log an adult (grown) tree next to you, or take a "
               "Foot marker. Evergreens are adult trees.\nLog first."),
             "log",
             T("Log first: the tile it clears next to you is where you will plant.")),
        Step("log",
             T("A logged Evergreen gives 1 Sen (iron) or 1 building material, and leaves the game; a second Tatara "
               "costs 2 of each and gives you 3 actions a turn.\nTake 1 Sen from 1-6."),
             "sen:1-6",
             T("In a game either would do; this lesson takes Sen here and material later, and clears 1-6 to plant "
               "on: take 1 Sen from 1-6.")),
        Step("action",
             T("You plant on an empty tile next to you, like 1-6 that you just cleared. A tree you plant is yours: "
               "whoever logs it pays you 1 Sen. Each round the shift cards' boards grow (a 0 card: none).\nPlant a "
               "tree."),
             "plant",
             T("Plant now: a tree planted early has more growths before you come back to log it.")),
        Step("plant",
             T("A Red Pine grows in one growth and gives 2 Sen when logged; a Cedar needs two growths and gives 3 "
               "material. An adult Red Pine that grows again turns into a young Oak.\nPlant a Red Pine on 1-6."),
             "pine:1-6",
             T("Board 1 may grow soon: a Red Pine on 1-6 is ready after one growth, a Cedar after two.")),
        Step("move",
             T("Board 1's card came up: your pine grew into an adult tree, ready to log on a later turn.\nMove to "
               "2-7, next to the Evergreen at 2-4."),
             "tile:2-7",
             T("2-8 touches no adult tree you could log; 2-7 touches the Evergreen at 2-4.")),
        Step("action",
             T("Trees are what you live on: log the Evergreen at 2-4."),
             "log",
             T("Logging is how you earn: the Evergreen next to you is Sen or material now. Log it.")),
        Step("log",
             T("You hold 1 Sen and no material. Building material comes only from Evergreens (1) and Cedars (3).\n"
               "Take 1 material."),
             "mat:2-4",
             T("Sen also come from Red Pines, material does not: take the material.")),
        Step("action",
             T("You spent your only Foot marker; you may hold up to 4. Without one, adult trees can wall you in.\n"
               "Take a Foot marker."),
             "foot",
             T("With no Foot marker left your next move has no reserve: take one.")),
    ),
    goal=T("Goal: be the first to build the Eidai Tatara (10 Sen and 10 material); the game ends after that round "
           "(others may still build theirs in it; then the most Sen left wins). "
           "You practised: move (a Foot marker buys a tile), log Evergreens for Sen or material, plant a Red Pine "
           "that grows when its board's card comes up, and take a Foot marker."),
)
