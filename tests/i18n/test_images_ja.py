"""No English word drawn on any image of a Japanese table (ARCHITECTURE.md "Text and languages"): every string the
renderers draw is recorded (``ImageDraw.text``, which every text of every image goes through: the shared fonts'
masks, sprites, cards) while the boards of whole games of all five games (every player count; start, decision,
race, end and the full board, as the gallery picks them), the result, ``/stats`` and ``/leaderboard`` cards and the
replay's frames are drawn in Japanese, every cache of the renderers emptied first (a cached sprite draws nothing).

Allowed Latin: player ids (``p0`` … of the palettes' sample games), coordinates (``B2``, ``c1``, ``3-8`` have a
single letter), ruling ids (``TS-8``, ``FT-9``: cited by their ids in every language), "AI" (the seats' name in
Japanese too) and the single letters a board prints as marks both languages share: die names A, B, C and the
Tatamokatsu face "T" (TK rulebook; Japanese rules say ダイスA, 目T)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import ImageDraw

import games
import renderers
from bot import i18n, results
from bot.local.gallery import play
from bot.store import MoveRow
from bot.store.records import GameRecord, GameStats, PlayerStats, RecentResult, Seat, Standing
from games.ai import next_move
from games.core import Text
from renderers import common
from tests.i18n.english import english_words

JA = i18n.translator("ja")
NAMES = ["さくら", "ゆうき", "あきら", "はると", "みお"]
ALLOWED_WORDS = {"ai"}
"""Latin words of 2+ letters a Japanese image keeps: "AI" (how AI seats are named in Japanese too)."""
ALLOWED_LETTERS = {"tatamokatsu": {"A", "B", "C", "T"}}
"""Single Latin letters drawn alone that are marks, not words: Tatamokatsu's die names and its "T" face."""
UNTRANSLATED_TITLES = {w.lower() for g in games.all() if not isinstance(g.title, Text)
                       for w in re.findall(r"[A-Za-z]+", g.title)}
"""The titles of the games whose ``Game.title`` is not yet a :class:`games.core.Text` (the cards draw the title as
the game gives it): allowed on the cards only, and empty once every title is a Text."""
KEPT = re.compile(r"\bp\d\b|\b[A-Z]{2}-\d+\b|\b[A-Za-z]\d+(?:-[a-z]{1,2})?\b")
"""Player ids of sample games, ruling ids, coordinates (with a corner: ``B2-ne``)."""


def clear_caches() -> None:
    """Empty every cache of the renderers (sprites, layers, text masks), the palettes aside (their sample boards
    are drawn once per process, in whichever language; they hold colours only)."""
    for name, module in list(sys.modules.items()):
        if name == "renderers" or name.startswith("renderers."):
            for attr, value in vars(module).items():
                if hasattr(value, "cache_clear") and "palette" not in attr:
                    value.cache_clear()


@contextmanager
def recording() -> Iterator[list[str]]:
    """Every string drawn within the block, as drawn (in the image's language)."""
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    inside = []

    def text(self, xy, value, *args, **kwargs):
        if inside:  # a run of a mixed-script string, drawn by the shared font: the whole string was recorded
            return original(self, xy, value, *args, **kwargs)
        drawn.append(str(common.words(value)))
        inside.append(True)
        try:
            return original(self, xy, value, *args, **kwargs)
        finally:
            inside.pop()

    ImageDraw.ImageDraw.text = text
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original


def english_in(drawn: str, game_id: str = "", allowed: frozenset[str] = frozenset()) -> list[str]:
    """The English left in a drawn string: a word of 2+ Latin letters (not :data:`ALLOWED_WORDS` or ``allowed``),
    or a lone letter that is not one of the game's marks."""
    rest = KEPT.sub(" ", drawn)
    found = [w for w in re.findall(r"[A-Za-z]{2,}", rest)
             if w.lower() not in ALLOWED_WORDS and w.rstrip("…").lower() not in allowed
             and not any(t.startswith(w.rstrip("…").lower()) for t in allowed if drawn.endswith("…"))]
    found += [w for w in re.findall(r"[A-Za-z]+", rest) if w.lower() in english_words() and w not in found]
    if re.fullmatch(r"\W*[A-Za-z]\W*", rest) and rest.strip(" ()") not in ALLOWED_LETTERS.get(game_id, set()):
        found.append(rest.strip())
    return found


def problems(drawn: list[str], where: str, game_id: str = "", allowed: frozenset[str] = frozenset()) -> list[str]:
    return sorted({f"{where}: {english_in(s, game_id, allowed)} in {s!r}" for s in drawn
                   if english_in(s, game_id, allowed)})


def test_the_check_finds_english_and_keeps_names_coordinates_and_ruling_ids():
    assert english_in("tie 0-0") == ["tie"]
    assert english_in("matcha") == ["matcha"]
    assert english_in("W") == ["W"]
    assert english_in("ROLLER", "tatamokatsu") == ["ROLLER"]
    assert english_in("T", "tatamokatsu") == []
    assert english_in("p0（白）：手持ち0 · B2-ne · c1 · 3-8（TS-8） AI") == []


@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_every_board_of_whole_games_draws_no_english_in_japanese(game):
    g = games.get(game)
    found: list[str] = []
    for n in range(g.min_players, g.max_players + 1):
        for seed in (1, 2):
            picks = play(g, n, seed + n)
            if picks is None:
                continue
            picks.pop("moves")
            names = {f"p{i}": NAMES[i] for i in range(n)}
            for label, state in [*picks.items(), ("full", picks["decision"]), ("full end", picks["end"])]:
                clear_caches()
                with recording() as drawn:
                    renderers.render(state, names, full=label.startswith("full"), translate=JA)
                assert drawn, f"{game} {n}p {label}: nothing drawn"
                found += problems(drawn, f"{game} {n}p seed {seed} {label}", game)
    assert not found, "\n".join(found)


def finished(game_id: str, n: int, seed: int = 3):
    """A random-legal whole game: (players, moves as logged, final state, result)."""
    g = games.get(game_id)
    players = [f"p{i}" for i in range(n)]
    state = g.begin(players, None, seed).state
    rng, moves = random.Random(seed), []
    while (move := next_move(g, state, {}, rng)) is not None:
        moves.append(MoveRow(session_id=1, seq=len(moves) + 1, player=move.player, option=move.option,
                             at_ms=move.at_ms, created_ms=0))
        state = g.apply(state, move).state
    return players, moves, state, g.result(state)


@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_result_card_and_replay_frames_draw_no_english_in_japanese(game):
    g = games.get(game)
    players, moves, state, result = finished(game, 2 if g.min_players <= 2 else g.min_players)
    ranking = [p for group in result.ranking for p in group] if result is not None else players
    seats = [Seat(i, p, NAMES[i], score=None, rank=k + 1, won=k == 0, mu_before=25.0, sigma_before=8.3,
                  mu_after=26.0 - k, sigma_after=8.0) for k, (i, p) in enumerate((players.index(p), p)
                                                                                for p in ranking)]
    record = GameRecord(1, game, "g", "c", {}, 3, 0, 125_000, len(moves), "finished",
                        result.reason if result is not None else "", True, seats)
    clear_caches()
    with recording() as drawn:
        results.summary_card(record, g.status(state), lang="ja")
    found = problems(drawn, f"{game} summary card", allowed=frozenset(UNTRANSLATED_TITLES))
    clear_caches()
    with recording() as drawn:
        results.replay_gif(g, players, {}, 3, moves, dict(zip(players, NAMES, strict=False)), lang="ja")
    found += problems(drawn, f"{game} replay frames", game)
    assert not found, "\n".join(found)


def test_stats_and_leaderboard_cards_draw_no_english_in_japanese():
    stats = PlayerStats("1", "さくら", [GameStats(g.id, 3, 1, 1.67, 12, 1, 26.0, 7.5) for g in games.all()],
                        [RecentResult(g.id, 7, 1 + k % 3, 3, 4 if k % 2 else None, k == 2, 1_700_000_000_000)
                         for k, g in enumerate(games.all())] + [RecentResult("tatari", 8, None, 2, None, True, 0)])
    clear_caches()
    with recording() as drawn:
        results.stats_card(stats, lang="ja")
        for g in games.all():
            results.leaderboard_card(g, [Standing(1, "1", "さくら", 27.5, 7.1, 3, 2),
                                         Standing(2, "ai:normal:2", "AI", 25.0, 6.0, 4, 1)], lang="ja")
    found = problems(drawn, "stats and leaderboard cards", allowed=frozenset(UNTRANSLATED_TITLES))
    assert not found, "\n".join(found)


def test_a_message_id_in_two_domains_has_one_japanese():
    """The domains' catalogues are merged into one (:func:`bot.i18n.translations`): a message id two domains share
    (a board's one-letter mark, "none") must read the same in both, or one game draws the other's word (Tataraba's
    Tatara mark "T" once drew Tatsumi's テ)."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for po in sorted(Path(i18n.LOCALES).glob("ja/LC_MESSAGES/*.po")):
        with po.open("rb") as fh:
            for m in read_po(fh):
                if not m.id or not m.string or m.context:  # a message with a context is looked up by both
                    continue
                key, said = str(m.id), str(m.string)
                if key in seen and seen[key][1] != said:
                    clashes.append(f"{key!r}: {seen[key][0]} {seen[key][1]!r}, {po.stem} {said!r}")
                seen.setdefault(key, (po.stem, said))
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_a_japanese_board_drawn_after_an_english_one_is_the_same_as_drawn_first(game):
    """The renderers' caches (sprites, static layers) are keyed by the image's language: an English board drawn
    first in a process leaves no English sprite or layer on the Japanese board drawn next, and the reverse."""
    g = games.get(game)
    picks = play(g, g.min_players if g.min_players > 1 else 2, 4)
    names = {f"p{i}": NAMES[i] for i in range(5)}
    for state in (picks["decision"], picks["end"]):
        for full in (False, True):
            clear_caches()
            japanese = renderers.render(state, names, full=full, translate=JA)
            clear_caches()
            english = renderers.render(state, names, full=full)
            assert renderers.render(state, names, full=full, translate=JA) == japanese
            assert renderers.render(state, names, full=full, translate=i18n.translator("ja")) == japanese
            assert renderers.render(state, names, full=full) == english


OPTION_SETUPS = [("tsukimi", 2, {"side": "dark"}), ("tatsumi", 3, {"island": "asymmetric", "dragons": "asymmetric"}),
                 ("tatsumi", 2, {"weather": True}), ("tatsumi", 4, {"island": "choose", "dragons": "choose"})]
"""Lobby options the gallery does not show: the dark side of the Moon (recruit numbers), Tatsumi's six island
boards (their reminders), asymmetric dragon cards, the weather module and the choosing decisions."""


@pytest.mark.parametrize(("game", "n", "options"), OPTION_SETUPS, ids=lambda v: str(v))
def test_boards_with_lobby_options_draw_no_english_in_japanese(game, n, options):
    g = games.get(game)
    found: list[str] = []
    for seed in (1, 2, 3):
        state = g.begin([f"p{i}" for i in range(n)], options, seed).state
        rng, k = random.Random(seed), 0
        names = {f"p{i}": NAMES[i] for i in range(n)}
        while True:
            move = next_move(g, state, {}, rng)
            if k % 7 == 0 or move is None:
                for full in (False, True):
                    clear_caches()
                    with recording() as drawn:
                        renderers.render(state, names, full=full, translate=JA)
                    found += problems(drawn, f"{game} {options} seed {seed} move {k} full={full}", game)
            if move is None:
                break
            state = g.apply(state, move).state
            k += 1
    assert not found, "\n".join(found)


def test_a_replay_is_kept_per_language():
    """A Japanese table's replay is drawn in Japanese and kept apart from the English one; English keys are those
    kept before replays had a language (no English replay is rebuilt)."""
    from bot.heavy import replay_key

    args = (12, "tatari", 99, ["101", "102"], 30, {"101": "alice"})
    kept = json.dumps(["tatari", 99, ["101", "102"], 30, [["101", "alice"]]]).encode()
    assert replay_key(*args) == replay_key(*args, "en") == "12-" + hashlib.sha256(kept).hexdigest()[:16]
    assert replay_key(*args, "ja") != replay_key(*args)
    players, moves, _, _ = finished("tatari", 2)
    english = results.replay_gif(games.get("tatari"), players, {}, 3, moves[:12])
    japanese = results.replay_gif(games.get("tatari"), players, {}, 3, moves[:12], lang="ja")
    assert english != japanese
    with i18n.speaking("ja"):  # no language given: the current table's
        assert results.replay_gif(games.get("tatari"), players, {}, 3, moves[:12]) == japanese
