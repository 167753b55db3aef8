"""Result cards and replays: readable at 400 px wide, names in any script, nothing by colour alone; the replay
rebuilt from the seed and log, sampled to at most 30 s and 8 MB."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import games
import renderers.results as cards
from bot import results
from bot.sessions import replay
from bot.store import MoveRow
from bot.store.records import GameRecord, GameStats, PlayerStats, RecentResult, Seat, Standing
from games.ai import next_move
from renderers.animation import MAX_MS, animate, animate_within, frames_for, sample
from renderers.common import MIN_PHONE_TEXT, PHONE_WIDTH


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_card_text_is_readable_at_phone_width():
    """Readable on a phone: the smallest text of a card is at least MIN_PHONE_TEXT px once the
    card is shown 400 px wide."""
    smallest = min(cards.TITLE_PX, cards.SUB_PX, cards.HEAD_PX, cards.CELL_PX, cards.SMALL_PX)
    assert smallest * PHONE_WIDTH / cards.WIDTH >= MIN_PHONE_TEXT
    board = results.leaderboard_card(games.get("tatari"), [Standing(1, "1", "alice", 27.5, 7.1, 3, 2)])
    assert png(board).size[0] == cards.WIDTH


def test_names_in_any_script_draw_as_their_characters():
    """The fonts of renderers/common: CJK and emoji names draw as their glyphs, not as one "missing" box:
    two names of the same length in the same script draw differently; a long name is cut to 16 columns (a
    wide character counts 2, the "…" 1)."""
    def board(name):
        return png(results.leaderboard_card(games.get("tatari"), [Standing(1, "1", name, 27.5, 7.1, 3, 2)]))

    for one, other in (("花子", "太郎"), ("🐉", "🌸"), ("ボブ", "アキ")):
        a, b = board(one).convert("L"), board(other).convert("L")
        assert a.size == b.size and a.tobytes() != b.tobytes(), (one, other)
    assert cards.name("ああああああああああ") == "あああああああ…"


def test_summary_marks_winners_and_resigners_in_text_not_colour():
    """The summary's text says who won (★) and who resigned, with rating changes; the card gets
    the same marks (checked through the lines the card is drawn from)."""
    record = GameRecord(1, "tatari", "g", "c", {}, 5, 0, 125_000, 42, "finished", "alice wins.", True, [
        Seat(0, "a", "alice", score=0, rank=1, won=True, mu_before=25.0, sigma_before=8.3, mu_after=27.6,
             sigma_after=8.0),
        Seat(1, "b", "bob", rank=2, resigned=True, mu_before=25.0, sigma_before=8.3, mu_after=22.4,
             sigma_after=8.0),
    ])
    assert results.summary_lines(record) == ["1st alice ★ · 0 dolls left · rating 27.6 (+2.6)",
                                             "2nd bob · resigned · rating 22.4 (-2.6)"]
    img = png(results.summary_card(record))
    assert img.size[0] == cards.WIDTH and img.mode == "P"
    assert results.duration_text(125_000) == "2 min" and results.duration_text(90_061_000) == "1 d 1 h"


@pytest.mark.parametrize("game_id", [g.id for g in games.all()])
def test_summary_score_heading_is_drawn_whole(game_id):
    """The summary card's score column heading (what the game counts: "Fortune" in Tatsumi) fits its column in
    every language: not cut to "Fortu…"."""
    from bot.i18n import LANGUAGES, say

    xs = cards.column_edges(results.SUMMARY_WEIGHTS)
    width = xs[3] - xs[2] - 12
    for lang in LANGUAGES:
        heading = say(results.score_heading(game_id), lang)
        assert cards.fit(heading, cards.HEAD_PX, True, width) == heading, (lang, heading)


def test_stats_text_and_card():
    """Games, wins, win rate, average place, rating ± uncertainty, best score, recent results."""
    stats = PlayerStats("1", "alice", [GameStats("tatari", 4, 1, 2.25, 9, 1, 26.125, 7.5)],
                        [RecentResult("tatari", 9, 1, 3, 9, False, 1_764_547_200_000),
                         RecentResult("tatari", 8, 3, 3, None, True, 1_764_460_800_000)])
    assert results.stats_text(stats).split("\n") == [
        "Stats of alice",
        "Tatari: 4 games, 1 win (25%), average place 2.25, rating 26.1 ± 7.5, best 9 dolls left, 1 abandoned",
        "Recent: Tatari 1st of 3, 9 dolls left (2025-12-01); Tatari 3rd of 3 (resigned) (2025-11-30)"]
    assert png(results.stats_card(stats)).size[0] == cards.WIDTH


def test_sample_and_frames_for():
    """Replays: every board when they fit, else evenly spread with the first and the last."""
    assert sample(4, 10) == [0, 1, 2, 3]
    assert sample(10, 4) == [0, 3, 6, 9]
    frames = frames_for(1000)
    assert len(frames) == (MAX_MS - 3000) // 500 + 1 == 55 and frames[0] == 0 and frames[-1] == 999
    with pytest.raises(ValueError):
        sample(5, 1)


def test_animation_within_a_byte_budget():
    """``animate_within`` keeps an animation under its byte budget by dropping frames, then shrinking."""
    rng = random.Random(1)
    frames = []
    for _ in range(12):
        img = Image.effect_noise((300, 200), 80).convert("RGB")
        img.putpixel((rng.randrange(300), rng.randrange(200)), (255, 0, 0))
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        frames.append(buf.getvalue())
    full = animate(frames)
    small = animate_within(frames, max_bytes=len(full) // 3)
    assert len(small) <= len(full) // 3
    assert png(small).n_frames < 12
    with pytest.raises(ValueError):
        animate([])


def test_replay_of_a_long_game_lasts_at_most_30_s():
    """A whole Tatari game replayed from its seed and log (the states equal the session's own
    replay), sampled to at most 30 s (durations read back from the GIF) and under 8 MB."""
    game = games.get("tatari")
    players = ["alice", "bob", "carol"]
    state = game.begin(players, None, 11).state
    rng = random.Random(11)
    log = []
    while (m := next_move(game, state, {}, rng, now_ms=1000)) is not None:
        log.append(MoveRow(session_id=1, seq=len(log) + 1, player=m.player, option=m.option, at_ms=m.at_ms,
                           created_ms=0))
        state = game.apply(state, m).state
    states = results.replay_states(game, players, {}, 11, log)
    assert len(states) == len(log) + 1 > 60
    assert states[-1] == replay(game, players, {}, 11, log) == state
    gif = png(results.replay_gif(game, players, {}, 11, log))
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert gif.n_frames == 55 and sum(durations) <= MAX_MS and durations[-1] == 3000


def test_footer_wraps_at_spaces():
    """The summary's footer (the reason and the game's own account of its end) wraps at spaces and at "\\n"."""
    from renderers.common import font

    assert cards.wrap("alpha beta\ngamma", cards.SMALL_PX, 10_000) == ["alpha beta", "gamma"]
    narrow = font(cards.SMALL_PX).getlength("alpha beta") - 1
    assert cards.wrap("alpha beta\ngamma", cards.SMALL_PX, narrow) == ["alpha", "beta", "gamma"]
