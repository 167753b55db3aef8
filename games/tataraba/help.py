"""``/rules`` help for Forest of Tataraba, in our own words (topic -> text; ``""`` is the overview; rulebook
``tataraba.md`` and RULINGS FT-1..FT-10)."""

from games.core import T, Tc
from games.tataraba.data import DEFAULT_ROUND_LIMIT

RULES_HELP: dict[str, str] = {  # each a T(): /rules reads them in the table's language
    "": T(
        "2-4 players. You lead an iron-making tribe in a forest of 3x3-tile boards. Plant Red "
        "Pines (iron: Sen) and Cedars (building material), log adult trees, and be the first to pay 10 Sen and 10 "
        "material for an Eidai Tatara. Tiles are named board-cell, e.g. 2-5 is the centre of board 2."
    ),
    "first": T(
        "Your first decision places your first Tatara, with your Player piece on it, on a tile of your choice. Pick "
        "a spot next to adult trees you can log soon (Red Pine 2 Sen, Cedar 3 material) with open tiles around to "
        "plant on: Sen and material are all you collect — 2 and 2 for your second Tatara (then 3 actions a turn), "
        "10 and 10 for the Eidai Tatara. The shift cards shown before the first round only inform (nothing grows "
        "yet). Then each turn: move 1-2 steps, take 2 actions (plant, log, or a Foot marker). /hint shows the strong "
        "AI's choice and why."
    ),
    "turn": T(
        "On your turn: move your piece (you must move), then take 2 actions (3 once you built your second Tatara), "
        "then optionally a special action (build a Tatara and/or the Eidai Tatara, each once a game), then end. "
        "After everyone played, shift cards are revealed, the forest grows, and the start passes to the left."
    ),
    "move": T(
        "Move 1-2 steps, plus 1 step per Foot marker you spend (up to 4 a turn; you hold at most 4). Entering a tile "
        "with an adult tree costs 2 steps and you cannot stop there; young trees cost 1. You may pass other "
        "pieces but not stop on them; other players' Tataras block you; your own are free. You cannot end where you "
        "started. Each option shows the Foot markers it costs. If other players' Tataras wall you in (alone or with "
        "adult trees), you may pass through one of them onto an open tile beyond as 1 step, then go on as usual; "
        "this pass is offered whether or not you hold Foot markers, beside the moves that spend them. If nothing is "
        "reachable you stay."
    ),
    "actions": T(
        "Actions (any mix): plant a Red Pine or Cedar from your supply, lying young, on an empty neighbouring tile "
        "(no tree, Tatara or piece); log an adult tree next to you; or take a Foot marker (with 4 it is a skip)."
    ),
    "logging": T(
        "Logging: Evergreen 1 Sen or 1 material (removed for good); Red Pine 2 Sen; Oak 1 Sen; Cedar 1 Sen or 3 "
        "material; Beech cannot be logged. Another player's tree costs you 1 Sen paid to them first. A logged Red "
        "Pine, Oak or Cedar lies down young again (Cedar on its '1' side)."
    ),
    "forest": T(
        "Growth: each revealed shift card 1-6 runs one step on that board (0 does nothing; two equal cards, two "
        "steps). Young trees stand up (Cedar goes 1 -> 2 -> adult); adult Red Pine becomes a young Oak of the same "
        "colour; adult Oak and Cedar become young Beech. Evergreens never change; Beeches only grow. The revealed "
        "cards stay out until the deck runs out, then they are reshuffled."
    ),
    "build": T(
        "Special actions, after your normal actions, on any empty tile: a Tatara for 2 Sen and 2 material (3 "
        "actions a turn from your next turn) and the Eidai Tatara for 10 Sen and 10 material (the game ends when "
        "the round's turns are done)."
    ),
    "end": T(
        "The game ends after the round in which an Eidai Tatara was built: a sole builder wins; several builders "
        "compare Sen, then material, else they share. If a Beech is needed and none is left, the game ends at once "
        "and all players compare Sen, then material. Two safety stops (ours, not the rulebook's), both announced "
        "and scored the same way: the round limit (lobby option round_limit, "
        "{rounds} rounds by default), and an exhausted forest, which stops the game only when it is "
        "certain that no player can ever build an Eidai Tatara or take another action that uses up a Beech; a "
        "player who could still move (onto their own Tatara, through other Tataras) and build is never stopped. "
        "When in doubt, play goes on.",
        rounds=DEFAULT_ROUND_LIMIT,
    ),
}

TOPIC_NAMES: dict[str, str] = {
    "first": Tc("rules topic", "first"),
    "turn": T("turn"),
    "move": T("move"),
    "actions": T("actions"),
    "logging": T("logging"),
    "forest": T("forest"),
    "build": T("build"),
    "end": T("end"),
}
"""Each topic of :data:`RULES_HELP` by its name (a :class:`~games.core.Text`): what ``/rules`` lists and its menus
show; the key stays what a player types."""
