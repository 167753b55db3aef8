"""The guided first game of Tatamokatsu (``/learn tatamokatsu``, :mod:`games.lessons`): seed 7, the learner rolls
first against the Teacher, who sends no race inputs (the learner meets each race at their own pace; the window's
length is the default). Rules: the rulebook's sum ranges and special actions, RULINGS TK-3..TK-9."""

from games.core import T
from games.lessons import Lesson, Step

LESSON = Lesson(
    game="tatamokatsu",
    seed=7,
    steps=(
        Step("race",
             T("After every roll, everyone races. If the dice can make 10 or 17, it is a Tatamokatsu: the first to "
               "shout wins it. A \"1/10\" face counts 1 or 10: 10 + 1 + 6 = 17.\nShout Tatamokatsu!"),
             "shout",
             T("10 + 1 + 6 = 17 is a Tatamokatsu: shout it. The other inputs answer other rolls, and a wrong one "
               "costs you a finger.")),
        Step("tatamokatsu",
             T("Each player plays with one hand of five fingers; who keeps fingers longest wins.\nThe Tatamokatsu's "
               "winner makes every opponent lose a finger or recovers one: strike."),
             "attack",
             T("You still have all five fingers: recovering one changes nothing. Strike the Teacher.")),
        Step("race",
             T("The Teacher's roll had nothing to race for; its count of 21 cost you a finger. Now your roll shows "
               "triples: everyone must do a Katana, and the last (or anyone who doesn't) loses a finger.\nKatana!"),
             "katana",
             T("Three identical faces call for a Katana; there is no 10 or 17 to shout."),
             wait=1),
        Step("fix",
             T("The roller counts each 1/10 die. Under 10 the roller loses a finger; above 17 the roller picks who "
               "loses one; 11 to 16 calls a salute: who doesn't say Hai in time loses a finger.\nCount 12."),
             "fix:1+1+10",
             T("3 would cost you a finger. This step practises the salute (11 to 16): count 12.")),
        Step("salute",
             T("Sum 12: salute now. Saluting at the wrong time costs nothing; not saluting here costs a finger.\n"
               "Salute: Hai!"),
             "salute",
             T("Say Hai in time, or lose a finger.")),
        Step("fix",
             T("The Teacher has one finger left; the last player with fingers is the Samurai.\nCount 23: above "
               "17 you choose who loses a finger."),
             "fix:10+10",
             T("5 would cost you a finger and 14 would call a salute everyone can answer. 23 takes the Teacher's "
               "last finger.")),
    ),
    goal=T("Goal: be the Samurai, the last player with fingers. You practised: shout at 10 or 17, the Katana on "
           "triples, counting your roll, and saluting from 11 to 16; mistakes cost a finger."),
)
