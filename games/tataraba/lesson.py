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
               "furnace that wins. First place your Tatara (a furnace), your piece on it.\nPlace it on 1-5, between "
               "the Evergreens (the forest's first trees) of 1-6 and 1-8."),
             "tile:1-5",
             T("This lesson starts between the Evergreens of 1-6 and 1-8, which you will log: place your Tatara on "
               "1-5.")),
        Step("move",
             T("Each turn you first move 1 or 2 tiles (you must move), then take 2 actions on the tiles next to you. "
               "A Foot marker buys 1 extra tile.\nSpend yours to reach 1-9: it touches both Evergreens."),
             "tile:1-9",
             T("From there at most one Evergreen is next to you. 1-9 touches 1-6 and 1-8.")),
        Step("action",
             T("Your 2 actions, in any order: plant a young tree, log an adult (grown) tree next to you, or take a "
               "Foot marker. Evergreens are adult trees.\nLog first."),
             "log",
             T("Two Evergreens stand next to you, ready to log: log first.")),
        Step("log",
             T("A logged Evergreen gives 1 Sen (iron) or 1 building material, and leaves the game; a Tatara costs "
               "2 of each.\nTake 1 Sen from 1-6."),
             "sen:1-6",
             T("This lesson takes Sen from 1-6 and leaves 1-8 standing: take 1 Sen from 1-6.")),
        Step("action",
             T("A tile you cleared can be planted. Each round, shift cards name boards: young trees there grow "
               "into adults.\nPlant a tree."),
             "plant",
             T("Plant now: the tile you just cleared at 1-6 is free for a tree of yours.")),
        Step("plant",
             T("A Red Pine grows in one growth and gives 2 Sen when logged; a Cedar needs two growths and gives 3 "
               "material.\nPlant a Red Pine on 1-6."),
             "pine:1-6",
             T("Board 1 may grow soon: a Red Pine on 1-6 is ready after one growth, a Cedar after two.")),
        Step("move",
             T("Board 1's card came up: your pine grew into an adult tree. A move may pass over an adult tree (it "
               "counts 2 tiles) but never stop on one.\nMove to 2-7, next to the Evergreen at 2-4."),
             "tile:2-7",
             T("2-8 touches no adult tree you could log; 2-7 touches the Evergreen at 2-4.")),
        Step("action",
             T("Trees are what you live on: log the Evergreen at 2-4."),
             "log",
             T("An Evergreen stands next to you: log it.")),
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
    goal=T("Goal: be the first to build the Eidai Tatara (10 Sen and 10 material); the game ends after its round. "
           "You practised: move (a Foot marker buys a tile), log Evergreens for Sen or material, plant a Red Pine "
           "that grows when its board's card comes up, and take a Foot marker."),
)
