"""Tatsumi in Japanese (I18N.md): whole games — 2 to 4 players, the Void's 5, solo, weather, the dragons' and
islands' setup choices — played through the engine, every prompt, option label, event, status, result reason and
refusal rendered in ja by ``bot.i18n.say``: each is a ``Text`` (a plain ``str`` would be a text that escaped
translation) and no English word is left in it."""

from __future__ import annotations

import random

import pytest

import games
from bot import i18n
from games.core import IllegalMove, Move
from tests.i18n.ja_texts import ENGLISH, NAMES, untranslated

LOBBY_WORDS = {"void", "true", "solo", "colours", "seat", "choose", "random", "island", "dragons", "symmetric",
               "asymmetric", "weather"}
"""Lobby option names and values kept in Latin in help and setup refusals (the player types them)."""


def play(players: int, options: dict, seed: int, max_moves: int = 3000):
    """Yield (what, text, allowed words) for every text of one whole game: events, status, prompts, labels,
    refusals (another player's move, an unlisted option, a move after the end), the result reason."""
    game = games.get("tatsumi")
    ids = [f"p{i}" for i in range(players)]
    outcome = game.begin(ids, options, seed)
    state, rng = outcome.state, random.Random(seed)
    for e in outcome.events:
        yield "event", e.text, set()
    for _ in range(max_moves):
        yield "status", game.status(state), set()
        pending = game.pending(state)
        if not pending:
            break
        d = pending[0]
        yield "prompt", d.prompt, set()
        option_words = {w for o in d.options for w in ENGLISH.findall(o.id)} | {"nope"}
        for o in d.options:
            yield "label", o.label, set()
        refusals = [Move(player=d.player, option="nope")]
        if players > 1:
            refusals.append(Move(player=next(p for p in ids if p != d.player), option=d.options[0].id))
        for move in refusals:
            with pytest.raises(IllegalMove) as exc:
                game.apply(state, move)
            yield "refusal", exc.value.args[0], option_words
        choice = game.greedy(state, d, rng) if rng.random() < 0.7 else None
        outcome = game.apply(state, Move(player=d.player, option=choice or rng.choice(d.options).id))
        state = outcome.state
        for e in outcome.events:
            yield "event", e.text, set()
    result = game.result(state)
    assert result is not None, "the game did not end"
    yield "reason", result.reason, set()
    with pytest.raises(IllegalMove) as exc:
        game.apply(state, Move(player=ids[0], option="x"))
    yield "refusal", exc.value.args[0], set()


TABLES = [
    (2, {}, 1),
    (3, {}, 2),
    (4, {}, 3),
    (1, {"solo": True}, 4),
    (1, {"solo": True, "colours": "choose", "island": "choose", "dragons": "choose"}, 5),
    (5, {"void": True}, 6),
    (5, {"void": True, "weather": True, "colours": "random", "dragons": "asymmetric"}, 7),
    (3, {"weather": True, "island": "asymmetric"}, 8),
    (4, {"colours": "choose", "island": "choose", "dragons": "choose", "weather": True}, 9),
    (2, {"dragons": "asymmetric", "island": "asymmetric"}, 10),
]


@pytest.mark.parametrize("players,options,seed", TABLES)
def test_a_whole_game_reads_in_japanese_with_no_english_left(players, options, seed):
    texts = list(play(players, options, seed))
    assert len(texts) > 200
    assert untranslated(texts) == []


def test_the_game_speaks_its_own_japanese_terms():
    """The glossary's terms reach the table: the title, rings, wells, sand dollars, fortune."""
    game = games.get("tatsumi")
    assert i18n.say(game.title, "ja") == "辰巳"
    ja = [i18n.say(t, "ja", NAMES) for _, t, _ in play(2, {}, 1)]
    assert any(t.startswith("あきら：飛行と、採取か奉納") for t in ja)
    assert any("カシパン" in t for t in ja) and any("リング" in t for t in ja) and any("福" in t for t in ja)
    solo = [i18n.say(t, "ja", NAMES) for what, t, _ in play(1, {"solo": True}, 4) if what == "reason"]
    assert solo and "ソロランク" in solo[0]


def test_rules_help_lobby_lines_and_seat_refusals_read_in_japanese():
    game = games.get("tatsumi")
    texts = [("help", text, LOBBY_WORDS | {"AI"}) for text in game.rules_help.values()]  # /hint's strong AI
    for options in ({}, {"solo": True}, {"void": True}, {"solo": True, "void": True}):
        texts += [("lobby", line, set()) for n in range(0, 7) if (line := game.lobby_need(n, options))]
        for n in range(1, 6):
            try:
                game.check_seats(n, options)
            except ValueError as exc:
                texts.append(("seats", exc.args[0], LOBBY_WORDS))
    assert untranslated(texts) == []
    assert i18n.say(game.lobby_need(5, {"void": True}), "ja") == "開始できます（ちょうど5人）。"


def test_the_check_sees_english_when_a_translation_is_missing(monkeypatch):
    """Without the catalogue the same game reads in English and every text is reported: the test can fail."""
    from babel.support import NullTranslations

    monkeypatch.setattr(i18n, "translations", lambda lang: NullTranslations())
    texts = list(play(1, {"solo": True}, 4))
    assert len(untranslated(texts)) > len(texts) // 2


def test_the_result_reason_names_the_winner_and_their_fortune_in_japanese():
    """TM-12: a whole 2-player game's result reason says who won with how much fortune, not only the rule."""
    game = games.get("tatsumi")
    state, rng = game.begin(["p0", "p1"], {}, 3).state, random.Random(3)
    while game.pending(state):
        d = game.pending(state)[0]
        state = game.apply(state, Move(player=d.player, option=rng.choice(d.options).id)).state
    r = game.result(state)
    top = max(p.fortune for p in state.seats)
    names = {"p0": "ありさ", "p1": "ぼたん"}
    winners = "、".join(names[p] for p in r.winners)
    assert i18n.say(r.reason, "ja", names).endswith(f"{state.round}ラウンドを終えて、福{top}で{winners}の勝ち。")
    rounds = "1 round" if state.round == 1 else f"{state.round} rounds"
    assert i18n.say(r.reason, "en", names).startswith(f"Most fortune after {rounds}: "
                                                      f"{', '.join(names[p] for p in r.winners)} with {top}; ")
