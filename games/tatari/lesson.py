"""The guided first game of Tatari (``/learn tatari``, :mod:`games.lessons`): seed 1, the learner first against the
Teacher. Rules from the rulebook's "How to Play" (select dice, choose your fate, failure to break the curse, stop)
and "End of Game"."""

from games.core import T
from games.lessons import Lesson, Step

LESSON = Lesson(
    game="tatari",
    seed=1,
    options={"first": "host"},
    steps=(
        Step("select",
             T("Each roll, you set aside ONE face: every die showing it. Numbers add up to your total; doll faces "
               "count the dolls you may give away.\nYou need a total of 7 or more to stop. Set aside the two 4s."),
             "set:4",
             T("That face adds little to your total. The two 4s make 8 at once: enough to stop.")),
        Step("fate",
             T("With 7 or more you may stop: the shrine of your total then gets dolls from you until it holds as many "
               "as you rolled — or, holding more, gives you the difference.\nYou rolled no doll yet: continue."),
             "continue",
             T("Stopping now, with 0 dolls rolled, makes you TAKE the doll of shrine 8. Roll on for doll faces.")),
        Step("select",
             T("A face set aside can't be set aside again; a roll with no new face busts you.\nTake the "
               "double-doll: 2 dolls, and your total stays 8."),
             "set:double",
             T("A number moves your total to a shrine that is empty for you. The double-doll gives you 2 dolls "
               "to place on shrine 8.")),
        Step("fate",
             T("Shrine 8 holds 1 doll and you rolled 2: stopping puts 1 of your dolls there.\nEach roll with fewer "
               "dice risks a bust (you take the fullest shrine). Stop."),
             "stop",
             T("Three dice, three faces already aside: a bust would give you the fullest shrine. Stop and shed a "
               "doll safely.")),
        Step("select",
             T("You must take all dice of the face you choose. The Teacher just busted and took the dolls of "
               "shrine 8.\nTake the three dolls."),
             "set:doll",
             T("Three 1s give only 3 points and no doll. Three doll dice are 3 dolls to give away.")),
        Step("select",
             T("Doll and double-doll are different faces. Your total is 0 and you need 7 to stop.\nTake the 4."),
             "set:4",
             T("With a total of 0 and few dice left you need numbers, or you bust.")),
        Step("fate",
             T("A die that shows the only face left to take is set aside for you. Total 7, 3 dolls: shrine 7 "
               "holds 1, so 2 of your dolls go there.\nOne die left: stop."),
             "stop",
             T("One die left and half its faces already aside: a bust makes you take the fullest shrine.")),
    ),
    goal=T("Goal: have no dolls left when your turn starts. Stop on a shrine holding fewer dolls than you rolled to "
           "give yours away; busting makes you take the fullest shrine."),
)
