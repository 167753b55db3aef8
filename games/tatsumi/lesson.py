"""The guided first game of Tatsumi (``/learn tatsumi``, :mod:`games.lessons`): the rulebook's "Getting Started" —
symmetric Tatsumi islands and symmetric dragons, no weather, no Void — two players, seed 1, the learner's Karyu first
against the Teacher. Rules from "Game Turn" (fly, gathering, holding, offering), "Ring Placement" and "Elemental
Rifts"; RULINGS TM-3..TM-9."""

from games.core import T
from games.lessons import Lesson, Step

LESSON = Lesson(
    game="tatsumi",
    seed=1,
    options={"island": "symmetric", "dragons": "symmetric", "void": False, "weather": False},
    steps=(
        Step("turn",
             T("Each turn you fly, then gather or offer (either order). A fly is a queen move to another well; you "
               "claim the top ring of the well you leave (lightning from a1).\nFly to b2."),
             "fly:b2",
             T("Fly to b2: water and lightning lie next to it, what the west water shrine asks for.")),
        Step("turn",
             T("Gathering takes the top rings of two wells orthogonally next to you. The water shrine (west edge) "
               "takes 2 water + 2 lightning.\nGather water from a2."),
             "gather:a2",
             T("The water shrine asks for water and lightning, not wind: gather water from a2.")),
        Step("gather",
             T("Rings of one element share a holding slot; more than 3 elements overflow at the turn's end.\nGather "
               "lightning from c2: with a1's you hold 2 lightning and 1 water."),
             "gather:c2",
             T("Wind is a third element and nothing for the water shrine: gather lightning from c2.")),
        Step("turn",
             T("A shrine stands at the middle of an edge; you offer from a well beside it. Leaving b2 you claim its "
               "water, your second.\nFly to a3, beside the west shrine."),
             "fly:a3",
             T("Offer from a well beside the west shrine (a2, a3 or a4): this lesson flies to a3.")),
        Step("turn",
             T("An offering moves the shrine's rings from your holding onto your island, and each ring scores "
               "fortune at once.\nYou hold 2 water + 2 lightning: offer at the water shrine."),
             "offer:water",
             T("Your action this turn is better spent offering: the rings score fortune now.")),
        Step("place",
             T("The first ring goes on a rift of its element; every later ring goes next to a ring on the island.\n"
               "Place water on the water rift C1."),
             "water@C1",
             T("This lesson starts at C1: the lightning rifts B1 and D3 lie close by, so all four rings can score.")),
        Step("place",
             T("Each ring scores 1 fortune per rift of its element you have encircled.\nPlace lightning on B1, a "
               "lightning rift next to C1."),
             "lightning@B1",
             T("On B1 the ring encircles a lightning rift: every later lightning ring scores 1 more.")),
        Step("place",
             T("A ring off a rift scores too: 1 per water rift encircled.\nPlace water on C2: it leads to the "
               "lightning rift D3."),
             "water@C2",
             T("C2 touches D3, your second lightning rift: place the water there.")),
        Step("place",
             T("Lightning on D3 encircles your second lightning rift: this ring scores 2.\nHeal rifts of one "
               "element and each ring of it is worth more."),
             "lightning@D3",
             T("D3 is a lightning rift: +2 there, +1 anywhere else.")),
    ),
    goal=T("Goal: the most fortune when the 13th sand dollar is placed (or a ring cannot be placed). Offer to heal "
           "rifts for fortune now, unlock blessings, and shape your island for the end: water groups, lightning "
           "groups, wind beside other elements, fire in sets of 3."),
)
