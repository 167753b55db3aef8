"""The guided first game of Tatsumi (``/learn tatsumi``, :mod:`games.lessons`): the rulebook's "Getting Started" —
symmetric Tatsumi islands and symmetric dragons, no weather, no Void — two players, seed 1, the learner's Karyu first
against the Teacher. Rules from "Game Turn" (fly, the seaboard, gathering, holding, offering), "Ring Placement" and
"Elemental Rifts"; RULINGS TM-3..TM-9, TM-12. Each word of the game is told in a few words where it first comes up;
the recap names only what the lesson practised."""

from games.core import T
from games.lessons import Lesson, Step, leads_to, one_of

LESSON = Lesson(
    game="tatsumi",
    seed=1,
    options={"island": "symmetric", "dragons": "symmetric", "void": False, "weather": False},
    steps=(
        Step("turn",
             T("Goal: the most fortune (points) at the game's end. The sea is 5x5 wells, each a stack of rings in four elements; your dragon is the ◆ on a1. Each "
               "turn it flies, and gathers or offers (either order). A fly goes straight or diagonally to another "
               "well; you claim the top ring of the well you leave.\nFly to b2."),
             "fly:b2",
             T("From b2 you can gather both water (a2) and lightning (c2), the rings you will offer. Fly to b2.")),
        Step("turn",
             T("Gathering claims the top ring of a well straight next to you (not diagonal), then of a second one: "
               "two rings, one at a time. Each shrine asks for a set of rings: the water shrine (the WATER tile) for "
               "2 water + 2 lightning.\nGather water from a2 or lightning from c2."),
             "gather:a2",
             T("Wind (b1, b3) is nothing for the water shrine: gather water from a2 or lightning from c2."),
             also=one_of("gather:c2")),
        Step("gather",
             T("The rings you claim wait in your holding (at the image's foot), one slot per element. Hold at most 3 "
               "elements at your turn's end: with more, one element's rings leave it without scoring.\nGather from "
               "the other of a2 and c2: you then hold 2 lightning and 1 water."),
             "gather:c2",
             T("The water shrine does not take wind: gather from the other of a2 and c2."),
             also=one_of("gather:a2")),
        Step("turn",
             T("You offer at a shrine from a well next to it (diagonals count). The water shrine stands at the sea's "
               "west edge, beside a2, a3 and a4 (a phone draws its tile top left). Leaving b2 you claim its water, "
               "your second.\nFly to a2 or a3."),
             "fly:a3",
             T("The water shrine is reached only from a2, a3 and a4, on the sea's west edge: fly to a2 or a3."),
             also=leads_to("offer:water")),
        Step("turn",
             T("An offering moves exactly the shrine's rings from your holding onto your island, a board of your own "
               "(the next image), and each ring scores fortune at once.\nYou hold 2 water + 2 lightning: offer at "
               "the water shrine."),
             "offer:water",
             T("Gathering would spend this turn's action: offer, and the rings score fortune now.")),
        Step("place",
             T("The shrine turned to its back: it now asks for another set. Your island has rifts: spaces marked "
               "with an element that take only its rings. Your first ring goes on a rift; every later ring next to a "
               "ring already there.\nPlace water on the water rift C1."),
             "water@C1",
             T("From C1 the lightning rifts B1 and D3 lie close by, so each of your four rings can score: place "
               "water on C1.")),
        Step("place",
             T("A ring on a rift encircles (heals) it. Each ring scores 1 fortune per rift of its element you have "
               "encircled, its own included.\nPlace lightning on B1, a lightning rift next to C1."),
             "lightning@B1",
             T("On B1 the ring encircles a lightning rift: every later lightning ring scores 1 more.")),
        Step("place",
             T("A ring off a rift scores too: water scores 1 per water rift you have encircled.\nPlace water on C2: "
               "it leads to the lightning rift D3."),
             "water@C2",
             T("Place the water on C2: it touches D3, the other lightning rift, for your last ring.")),
        Step("place",
             T("Lightning on D3 encircles your second lightning rift: this ring scores 2, and so will every later "
               "lightning ring.\nPlace lightning on D3."),
             "lightning@D3",
             T("D3 is a lightning rift: +2 there, +1 anywhere else.")),
    ),
    goal=T("Goal: the most fortune when the game ends, after the round in which the 13th well runs empty (an "
           "emptied well gets a sand dollar). You "
           "practised: fly and claim, gather two rings, offer at a shrine next to you, and place rings on rifts — "
           "each rift you heal makes its element's rings score more."),
)
