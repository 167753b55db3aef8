"""Alt text of every decision in whole games (renderers.words): each option the player can pick is named by the key
the board and the buttons show (``games.marker_keys``: ``"3 · …"``), or by its label when it has no place; at most
1,024 characters (Discord's attachment description); never a player id. ``board_words`` chunks fit a message."""

from __future__ import annotations

import random
import re

import pytest

import games
from games import format_text, marker_keys
from games.ai import greedy, play
from renderers.words import KEEP, Part, alt_text, board_words, fit, join_labels, shared_tail, with_extra

TABLES = [("tatari", 3), ("tatamokatsu", 3), ("tsukimi", 2), ("tataraba", 2), ("tataraba", 4), ("tatsumi", 1),
          ("tatsumi", 3)]
OPTIONS = {("tatsumi", 1): {"solo": True}}
IDS = ["p1001", "p1002", "p1003", "p1004", "p1005"]


def _names(players):
    return {p: f"Player{i + 1}" for i, p in enumerate(players)}


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_every_option_key_is_in_the_alt_text_of_every_decision(game_id, n):
    game = games.get(game_id)
    players = IDS[:n]
    names = _names(players)
    state = game.setup(players, OPTIONS.get((game_id, n)), seed=3)
    seen = 0

    def check(before, move, after, events):
        nonlocal seen
        decisions = [d for d in game.pending(before) if d.options]
        text = alt_text(before, names)
        assert text and len(text) <= 1024
        assert not any(p in text for p in players), text
        for d in decisions[:1]:
            keys = marker_keys(d.options)
            for opt in d.options:
                if opt.id in keys:  # the marker key as a whole token ("3 · C3-n", or bare "3" in a long list)
                    assert re.search(rf"(?<![\d.]){keys[opt.id]}(?![\d])", text), (opt.id, keys[opt.id], text)
                else:
                    want = format_text(opt.label, lambda p: names.get(p, p))
                    assert want in text, (opt.id, want, text)
            seen += 1

    end = play(game, state, {p: greedy for p in players}, random.Random(3), on_step=check)
    assert seen > 5
    chunks = board_words(end, names)
    assert chunks and all(0 < len(c) <= 1900 for c in chunks)
    assert not any(p in c for c in chunks for p in players)


def test_fit_shortens_the_least_important_first_and_gives_room_back():
    """Lowest rank first, one form at a time; then, highest rank first, the fullest form that still fits (here the
    board's state comes back once the options are short enough)."""
    parts = [Part("HEAD", rank=90), Part("Options: " + "x" * 40 + ".", "Options: short.", KEEP + 1, ("Options: k.",)),
             Part("State: " + "s" * 10 + ".", rank=50)]
    assert fit(parts, 100) == "HEAD Options: " + "x" * 40 + ". State: ssssssssss."
    assert fit(parts, 50) == "Options: " + "x" * 40 + "."  # the options' detail outranks the rest
    assert fit(parts, 40) == "HEAD Options: short. State: ssssssssss."  # shortened: room for the rest again
    assert fit(parts, 25) == "HEAD Options: short."
    assert fit(parts, 15) == "Options: short."
    assert fit(parts, 11) == "Options: k."
    assert fit([Part("a b c d e f", rank=KEEP)], 6) == "a b c…"


def test_labels_of_one_key_are_said_once():
    assert join_labels(["an adult Evergreen at 2-9: 1 Sen", "an adult Evergreen at 2-9: 1 material"]) == \
        "an adult Evergreen at 2-9: 1 Sen, or 1 material"
    assert join_labels(["Red Pine at 4-6", "Cedar at 4-6"]) == "Red Pine or Cedar at 4-6"
    assert join_labels(["fly to b1, claim fire from a1", "gather fire from b1"]) == \
        "fly to b1, claim fire from a1, or gather fire from b1"
    assert join_labels(["B2", "B2"]) == "B2"
    assert with_extra("1-9 (1 Foot marker)", "empty") == "1-9 (1 Foot marker; empty)"
    assert with_extra("B2", "empty") == "B2 (empty)"
    assert with_extra("carol's adult Red Pine at 4-2: 2 Sen", "carol's adult Red Pine") == \
        "carol's adult Red Pine at 4-2: 2 Sen"


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_a_long_option_list_keeps_each_place_name(game_id, n):
    """However long a decision's option list, each keyed option keeps its place's name in the alt text (its label
    without asides: ``"B1-n"`` of ``"B1-n (= A1-sw)"``) beside its key, or its whole phrase when options share a
    key — never the keys alone."""
    game = games.get(game_id)
    players = IDS[:n]
    names = _names(players)
    longest = 0

    def check(before, move, after, events):
        nonlocal longest
        text = alt_text(before, names)
        for d in game.pending(before):
            keys = marker_keys(d.options)
            shared = {k for k in keys.values() if list(keys.values()).count(k) > 1}
            for opt in d.options:
                if opt.id in keys and keys[opt.id] not in shared:
                    label = format_text(opt.label, lambda p: names.get(p, p))
                    said = re.search(r"Options \(every (\w+) also: ([^;)]+)", text)  # a clause said once
                    if said and label.startswith(said[1] + " ") and label.endswith(", " + said[2]):
                        label = label[: -len(", " + said[2])]
                    bare = re.sub(r" \([^()]*\)", "", label)
                    assert f"{keys[opt.id]} · {label}" in text or f"{keys[opt.id]} · {bare}" in text, (
                        opt.id, label, text)
            longest = max(longest, len(d.options))

    play(game, game.setup(players, OPTIONS.get((game_id, n)), seed=3), {p: greedy for p in players},
         random.Random(3), on_step=check)
    assert longest >= 4


def test_tsukimi_moving_a_rabbit_lists_every_empty_vertex_by_name():
    """The longest Tsukimi list (a rabbit moving to any empty vertex: ~49 options) still names each vertex."""
    game = games.get("tsukimi")
    players = IDS[:2]
    seen = []

    def check(before, move, after, events):
        for d in game.pending(before):
            if d.kind == "move_to" and len(d.options) > 40:
                seen.append(alt_text(before, _names(players)))

    play(game, game.setup(players, None, seed=1), {p: greedy for p in players}, random.Random(1), on_step=check)
    assert seen
    assert "Options: 1 · A1-n; 2 · A2-n; 3 · A3-n; 4 · A1-nw; 5 · A1-ne" in seen[0], seen[0]
    assert all(f"{i} · " in seen[0] for i in range(1, 45)), seen[0]


def test_a_clause_every_option_of_a_kind_ends_with_is_said_once():
    """Tatsumi's flights all claim the ring of the well left (TM rules): "every fly also: claim water from c1"."""
    labels = ["fly to a1, claim water from c1", "fly to b1, claim water from c1", "gather wind from b1",
              "fly to d1, claim water from c1"]
    assert shared_tail(labels) == ("fly", ", claim water from c1")
    assert shared_tail(labels[:2]) == ("", "")  # fewer than three
    assert shared_tail(["fly to a1, claim water from c1", "fly to b1, claim fire from c1", "fly to d1, x"]) == \
        ("", "")


TATAMOKATSU_RACE_RULES = ("Shout if the sum can be 10 or 17; grab the T die if it shows; Katana if all three dice "
                          "match; salute (Hai) at 11 to 16.")


def test_the_alt_text_of_a_tatamokatsu_race_says_what_each_input_answers():
    """A race board's alt text states the race rules in these exact words (rulebook "Sum Ranges", "Special
    Actions"; RULINGS TK-1..TK-9) — a screen reader has no other way to know when to shout, grab, Katana or salute;
    a roll's board does not repeat them."""
    game = games.get("tatamokatsu")
    players = IDS[:3]
    names = _names(players)
    phases: dict[str, int] = {}

    def check(before, move, after, events):
        if not game.pending(before):
            return
        text = alt_text(before, names)
        racing = before.phase in ("race", "salute")
        assert (TATAMOKATSU_RACE_RULES in text) is racing, (before.phase, text)
        phases[before.phase] = phases.get(before.phase, 0) + 1

    play(game, game.setup(players, None, seed=3), {p: greedy for p in players}, random.Random(3), on_step=check)
    assert phases.get("race") and phases.get("roll"), phases
