"""Forest of Tataraba in Japanese (I18N.md): whole games played through the engine, every prompt, option label,
event, status, result reason, standing and refusal rendered in ja by ``bot.i18n.say``: each is a ``Text`` (a plain
``str`` would be a text that escaped translation) and no English word is left in it."""

from __future__ import annotations

import random

import pytest

import games
from bot import i18n
from games.core import IllegalMove, Move
from tests.i18n.ja_texts import ENGLISH, NAMES, untranslated

OPTIONS_WORDS = {"round_limit", "round", "limit", "AI"}
"""Lobby option names kept in Latin in the rules help (the player types them), and "AI" (the strong AI of /hint:
Japanese says AI too, as the AI seats' names do)."""


def play(game_id: str, players: int, options: dict, seed: int, max_moves: int = 4000):
    """Yield (what, text, allowed words) for every text of one whole game: events, status, prompts, labels,
    refusals (another player's move, an unlisted option, a move after the end), result reason and standings."""
    game = games.get(game_id)
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
        other = next(p for p in ids if p != d.player) if players > 1 else "zz"
        for move in (Move(player=other, option=d.options[0].id), Move(player=d.player, option="nope")):
            with pytest.raises(IllegalMove) as exc:
                game.apply(state, move)
            yield "refusal", exc.value.args[0], option_words
        choice = game.greedy(state, d, rng) if rng.random() < 0.6 else None
        outcome = game.apply(state, Move(player=d.player, option=choice or rng.choice(d.options).id))
        state = outcome.state
        for e in outcome.events:
            yield "event", e.text, set()
    result = game.result(state)
    assert result is not None, "the game did not end"
    yield "reason", result.reason, set()
    for standing in result.standings.values():
        yield "standing", standing, set()
    with pytest.raises(IllegalMove) as exc:
        game.apply(state, Move(player=ids[0], option="x"))
    yield "refusal", exc.value.args[0], set()


@pytest.mark.parametrize("players,options,seed", [(2, {}, 1), (3, {}, 2), (4, {}, 3), (2, {"round_limit": 2}, 4),
                                                  (4, {"layout": "12/34/56"}, 5)])
def test_a_whole_game_reads_in_japanese_with_no_english_left(players, options, seed):
    texts = list(play("tataraba", players, options, seed))
    assert len(texts) > 100
    assert untranslated(texts) == []


def test_the_game_speaks_its_own_japanese_terms():
    """The glossary's terms reach the table: the title, a move's Foot markers, Sen, the trees."""
    game = games.get("tataraba")
    assert i18n.say(game.title, "ja") == "たたらばと森"
    assert i18n.say(game.summary, "ja").startswith("移ろう森で木を植林")
    ja = [i18n.say(t, "ja", NAMES) for _, t, _ in play("tataraba", 2, {}, 1)]
    assert any("足マーカー" in t for t in ja) and any("銭" in t for t in ja) and any("永代たたら" in t for t in ja)
    assert "ラウンド1：あきらから開始。" in ja


def test_rules_help_and_lobby_lines_read_in_japanese():
    game = games.get("tataraba")
    texts = [("help", text, OPTIONS_WORDS) for text in game.rules_help.values()]
    texts += [("lobby", game.lobby_need(n), set()) for n in range(0, 6)]
    from games.tataraba.board import layout_for

    for players, layout in ((2, ""), (2, "12x"), (2, "1/1"), (2, "12/34"), (3, "12/3.4/5"), (5, "")):
        try:
            layout_for(players, layout)
        except ValueError as exc:
            texts.append(("layout", exc.args[0], set()))
    assert len(texts) == len(game.rules_help) + 6 + 5
    assert untranslated(texts) == []
    assert i18n.say(game.lobby_need(1), "ja") == "あと1人必要です（2〜4人）。"
    assert "既定60ラウンド" in i18n.say(game.rules_help["end"], "ja")


def test_the_check_sees_english_when_a_translation_is_missing(monkeypatch):
    """Without the catalogue the same game reads in English and every text is reported: the test can fail."""
    from babel.support import NullTranslations

    monkeypatch.setattr(i18n, "translations", lambda lang: NullTranslations())
    texts = list(play("tataraba", 2, {"round_limit": 2}, 4))
    assert len(untranslated(texts)) > len(texts) // 2


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_the_end_header_says_who_won_and_is_never_cut(players, seed):
    """The end board's header line ("Game over: … won.") fits beside the title in either language with the
    longest names, never cut with "…" (the reason with every score stays in the end panel below)."""
    from games.ai import greedy, next_move
    from renderers import common
    from renderers import tataraba as R

    game = games.get("tataraba")
    state = game.setup([f"p{i}" for i in range(players)], None, seed)
    rng = random.Random(seed)
    while game.pending(state):
        state = game.apply(state, next_move(game, state, {p: greedy for p in state.players}, rng)).state
    names = {f"p{i}": name for i, name in enumerate(("髙橋さくらさくらさくら", "Alexandra-Katharina", "山﨑",
                                                     "Бори́с Ива́нович"))}
    winners = game.result(state).winners
    for lang in ("ja", "en"):
        with common.translating(i18n.translator(lang)):
            line = str(common.words(R.header_line(state, names)))
            assert R.fit_line(line, 18, R.HEADER_ROOM) == line, line
        assert all(common.display_name(w, names, 18) in line for w in winners), line
    assert i18n.say(R.header_line(state, names), "ja").startswith("ゲーム終了：")
