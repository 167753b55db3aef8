"""A typed choice is resolved in one place for Discord's ``/move`` and the sandbox's (``bot.board_text.typed_choice``):
by the game's chat word, a listed number, an option's id, or (with display names) its label as its button says it."""

from __future__ import annotations

import pytest

from bot.board_text import typed_choice
from bot.sessions import SessionError
from games.core import Decision, Option, T

OWN = Decision(player="alice", kind="pick", prompt=T("Pick"), options=[
    Option(id="take:1", label=T("take {@bob}'s card")), Option(id="shrine:8", label=T("go to the shrine"),
                                                                locus="shrine:8")])
RACE = Decision(player=None, kind="race", prompt=T("Shout"), options=[Option(id="salute", label=T("Salute"))])
NAMES = {"alice": "Alice", "bob": "Bobby"}


def word(text: str) -> str | None:
    return {"hai": "salute", "one": "take:1"}.get(text)


@pytest.mark.parametrize(("typed", "option"), [
    ("take:1", "take:1"), ("  TAKE:1 ", "take:1"),  # the id, case and spaces aside
    ("take Bobby's card", "take:1"),  # the label, players by their display names
    ("1 · go to the shrine", "shrine:8"),  # the label keyed as its button shows it
    ("salute", "salute"),  # a seated player's race option
    ("nothing like it", "nothing like it"),  # names no option: the engine refuses it
])
def test_discord_move_by_id_or_label(typed, option):
    assert typed_choice([OWN, RACE], "alice", typed, seated=True, names=NAMES) == option


def test_an_unseated_player_does_not_answer_a_race_and_labels_without_names_name_players_by_id():
    assert typed_choice([RACE], "carol", "Salute", seated=False, names=NAMES) == "Salute"
    assert typed_choice([OWN], "alice", "take Bobby's card", seated=True) == "take Bobby's card"
    assert typed_choice([OWN], "alice", "take bob's card", seated=True) == "take:1"  # the sandbox: names are ids


TILES = Decision(player="alice", kind="place", prompt=T("Place"), options=[
    Option(id="tile:1-2", label=T("1-2")), Option(id="tile:1-3", label=T("1-3 (no Foot marker)")),
    Option(id="sen:1-6", label=T("{tree} at {tile}: {got}", tree=T("Evergreen"), tile="1-6", got=T("{n} Sen", n=1))),
    Option(id="mat:1-6", label=T("{tree} at {tile}: {got}", tree=T("Evergreen"), tile="1-6",
                                 got=T("{n} material", n=1)))])


@pytest.mark.parametrize(("typed", "option"), [
    ("１－２", "tile:1-2"),  # full width, as a Japanese keyboard types it
    ("1-3", "tile:1-3"),  # the id's tail when no other option ends so
    ("1-6", "1-6"),  # sen:1-6 and mat:1-6 both end so: no guess, the engine refuses it
    ("1-6の常緑樹：銭1", "sen:1-6"),  # the label in Japanese (the table's language need not be the typist's)
])
def test_a_typed_label_in_any_language_and_width_or_a_unique_id_tail(typed, option):
    assert typed_choice([TILES], "alice", typed, seated=True) == option


def test_the_sandbox_chat_word_first_then_the_listed_number():
    assert typed_choice([OWN, RACE], "alice", "hai", seated=True, word=word, numbers=[]) == "salute"
    assert typed_choice([OWN], "alice", "2", seated=True, word=word, numbers=["shrine:8", "take:1"]) == "take:1"
    assert typed_choice([OWN], "alice", "2", seated=True, word=word, numbers=[]) == "shrine:8"  # its own decision
    assert typed_choice([RACE], "alice", "1", seated=True, word=word, numbers=[]) == "salute"  # else the race
    with pytest.raises(SessionError, match="Choose a number from 1 to 2."):
        typed_choice([OWN], "alice", "3", seated=True, word=word, numbers=[])
    with pytest.raises(SessionError, match="Nothing is waiting for you now."):
        typed_choice([], "alice", "1", seated=True, word=word, numbers=[])


def test_numbers_are_no_choice_on_discord():
    assert typed_choice([OWN], "alice", "2", seated=True, names=NAMES) == "2"
