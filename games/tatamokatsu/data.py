"""Tatamokatsu's fixed data: dice, input ids, numbers (rulebook "Game Material"; RULINGS TK-1, TK-2).

One place for the numbers the rules code reads, so that someone holding the printed game can check them at a glance.
"""

from __future__ import annotations

from games.core import T, Tc

FINGERS = 5
"""Fingers on the one hand each player uses (TK-1)."""

ONE_OR_TEN = "1/10"
"""The "1 or 10" face: counts 1 or 10, as the roller fixes it (rulebook "Game Material", TK-6)."""

TATAMOKATSU_FACE = "T"
"""The Tatamokatsu face of die C (TK-2): no value; its roll is a grab race (TK-5)."""

NUMBER_FACES = ("1", "2", "3", "4", "5", "6")

DIE_AB = NUMBER_FACES + (ONE_OR_TEN, ONE_OR_TEN)
"""Faces of the two identical dice A and B: 1-6 and two "1 or 10" faces (TK-2). Eight faces, one draw each."""

DIE_C = NUMBER_FACES + (ONE_OR_TEN, TATAMOKATSU_FACE)
"""Faces of die C: 1-6, one "1 or 10" face and the Tatamokatsu face (TK-2)."""

DICE = (DIE_AB, DIE_AB, DIE_C)
"""The three dice in roll order (A, B, C)."""

DIE_NAMES = ("A", "B", "C")

ROLLOFF_DIE = NUMBER_FACES
"""A tie roll-off uses plain 1-6 values (TK-4: "roll-off with 1-6 dice, reroll ties")."""

TATAMOKATSU_SUMS = (10, 17)
"""Sums that make a Tatamokatsu (rulebook "Tatamokatsu (10 or 17)", TK-4)."""

# Race inputs: the option ids the chat adapter sends for reactions, buttons and typed words (TK-3).
SHOUT = "shout"  # typed "tatamokatsu"
GRAB = "grab"  # grab the die showing the Tatamokatsu face
KATANA = "katana"  # hit the table with the side of the hand
SALUTE = "salute"  # typed "hai"
RACE_INPUTS = (SHOUT, GRAB, KATANA, SALUTE)

RACE_LABELS = {
    SHOUT: T("Shout Tatamokatsu!"),
    GRAB: T("Grab the T die"),
    KATANA: T("Katana!"),
    SALUTE: T("Salute: Hai!"),
}

TYPED_WORDS = {
    "tatamokatsu": SHOUT, "tatamokatu": SHOUT, "たたもかつ": SHOUT,
    "hai": SALUTE, "はい": SALUTE, "おじぎ": SALUTE, "お辞儀": SALUTE,
    "katana": KATANA, "かたな": KATANA, "刀": KATANA,
    "grab": GRAB, "つかむ": GRAB, "掴む": GRAB, "ぐらぶ": GRAB, "とる": GRAB, "取る": GRAB,
}
"""Chat words that stand for a race input, in their normal form (``word_to_input``: Unicode NFKC, case folded,
katakana as hiragana, spaces and punctuation dropped, every long-vowel mark and wave dash dropped, a trailing small
tsu dropped): so "Hai", "ＨＡＩ", "はい", "ハイッ", "はーい" and "ﾊｲ" are all ``hai``'s salute, "タタモカツー" and
"tatamokatu" (typed with the IME off) the shout, "カタナっ" and "刀" the Katana, "取る" the grab and "お辞儀" the
salute (TK-3). Anything else is no race word: "灰", "肺", "たたも" and "はいはい" are not."""

TO_TYPE = {
    SHOUT: Tc("tatamokatsu word to type", "tatamokatsu"),
    GRAB: Tc("tatamokatsu word to type", "grab"),
    KATANA: Tc("tatamokatsu word to type", "katana"),
    SALUTE: Tc("tatamokatsu word to type", "hai"),
}
"""The word a race prompt shows for each input, in the reader's language (ja: タタモカツ, つかむ, カタナ, はい):
one of :data:`TYPED_WORDS` in every language (a test checks)."""

REACTIONS = {"\N{CHEERING MEGAPHONE}": SHOUT, "\N{RAISED FIST}": GRAB, "\N{DAGGER KNIFE}": KATANA,
             "\N{PERSON BOWING DEEPLY}": SALUTE}
"""Suggested reaction emoji per race input, for the chat adapter (a suggestion: the adapter owns its UI)."""

OPEN = "open"
"""The system input (``Move(None, "open", at_ms=T)``) that moves the open race window to start at ``T``: the time the
roll message appeared (RULINGS TK-10; the chat adapter sends it right after posting the roll, see ``Game.opening``)."""

# Player decisions
ROLL = "roll"
ROLL_WORDS = {"roll": ROLL, "ふる": ROLL, "振る": ROLL, "だいすをふる": ROLL, "だいすを振る": ROLL, "さいをふる": ROLL}
"""Chat words for the roller's roll, in :data:`TYPED_WORDS`' normal form ("振る", "ふる", "ダイスを振る")."""
HERE = "here"  # a player marked missing says they are at the table again (presence, TatamokatsuOptions.presence)
ATTACK = "attack"  # TK-4: every opponent with fingers loses one
RECOVER = "recover"  # TK-4: the winner recovers one (max 5)
FIX_PREFIX = "fix:"  # fix:1, fix:10, fix:1+10 … (TK-6)
VICTIM_PREFIX = "victim:"  # victim:<player id> (sum above 17)

DEFAULT_WINDOW_MS = 8000
"""Default reaction window (TK-3): 8 s."""

MIN_WINDOW_MS = 1000
MAX_WINDOW_MS = 60000
MAX_TIE_TOLERANCE_MS = 2000
