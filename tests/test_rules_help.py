"""/rules texts: the topics are listed once, by the adapter, from the help's own keys — an overview never carries a
hand-kept "Topics:" list that could repeat or go stale — and the topics say what the rulings say."""

from __future__ import annotations

import re

import pytest

import games
from bot.rules_help import sandbox_rules as rules_text


@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_topics_are_listed_once_and_completely(game):
    g = games.get(game)
    assert "Topics:" not in g.rules_help.get("", "")
    text = str(rules_text(game))  # Text.count is its plural argument name
    assert text.count("Topics:") == 1
    listed = text.split("Topics:", 1)[1]
    for topic in (t for t in g.rules_help if t):
        assert topic in listed, topic


def test_tataraba_end_words_the_safety_stops_as_ft9():
    assert rules_text("tataraba", "end") == (
        "Forest of Tataraba — end: The game ends after the round in which an Eidai Tatara was built: a sole builder "
        "wins; several builders compare Sen, then material, else they share. If a Beech is needed and none is "
        "left, the game ends at once and all players compare Sen, then material. Two safety stops (ours, not the "
        "rulebook's), both announced and scored the same way: the round limit (lobby option round_limit, 60 rounds "
        "by default), and an exhausted forest, which stops the game only when it is certain that no player can "
        "ever build an Eidai Tatara or take another action that uses up a Beech; a player who could still move "
        "(onto their own Tatara, through other Tataras) and build is never stopped. When in doubt, play goes on."
    )
    assert games.get("tataraba").Options().round_limit == 60


def test_tatsumi_gather_fly_and_end_say_tm3_tm4_tm12():
    assert rules_text("tatsumi", "gather") == (
        "Tatsumi — gather: Gather (symmetric dragon cards): take the top rings of two different unguarded wells "
        "next to you (north, east, south, west; a well holding a dragon, a Tekitatsu or the maelstrom is guarded), "
        "or the one ring if only one such well has a ring."
    )
    assert rules_text("tatsumi", "fly") == (
        "Tatsumi — fly: Fly like a chess queen to another well; you may land on or fly over a depleted well (one "
        "with no ring left), but never into or past another dragon (in solo, nor a Tekitatsu or the maelstrom). You "
        "claim the top ring of the well you leave. If you cannot fly at all, your dragon is lifted to any unguarded "
        "well instead and claims no ring; the turn goes on."
    )
    assert "(never onto or off a rift; the second swap may not undo the first)" in rules_text("tatsumi", "weather")
    assert rules_text("tatsumi", "end").startswith(
        "Tatsumi — end: The game ends after the round in which the 13th sand dollar is placed in a well, or in "
        "which a ring that must be placed cannot be (it stays in holding), so that everyone has played as often. "
        "Then Elemental Mastery — "
    )


def test_tsukimi_effects_and_the_engine_say_ts9():
    words = "a tile's placing is all done before its move or all after it, never split around it"
    assert rules_text("tsukimi", "effects") == (
        "Tsukimi — effects: Place rabbits from your reserve on empty corners of the space you just filled; move one "
        "of your rabbits on the board to any empty corner. Every effect is optional and you choose the order, but "
        f"{words} (no place - move - place): once you have placed and then moved, the placing is over. 'end' skips "
        "whatever is left."
    )
    from games.tsukimi import rules

    assert words in " ".join(rules.__doc__.split())
    assert "Once the player has placed and then moved, the placing effect is over" in " ".join(rules.__doc__.split())


def test_tatamokatsu_end_says_a_roll_resolves_as_a_whole():
    assert rules_text("tatamokatsu", "end") == (
        "Tatamokatsu — end: The game ends when at most one player has fingers: the Samurai. A roll counts as a "
        "whole: its Katana and its sum (the count, the salute, the victim) are both played before the end is "
        "decided, so the last hands that lose their last fingers to the same roll share the win."
    )


def test_tatsumi_weather_says_off_a_card_never_from_on():
    text = rules_text("tatsumi", "weather")
    assert "from on" not in text
    assert text.endswith("A depleted well takes a sand dollar you choose, taken off a card or from beside it; a card "
                         "whose dollars are all in the sea is neutralised.")


@pytest.mark.parametrize("typed_words", [True, False])
def test_help_fits_600_characters_and_points_at_rules(typed_words):
    from bot.rules_help import MAX_HELP, help_command

    text = help_command(typed_words)
    assert MAX_HELP == 600 and len(text) <= 600, len(text)
    first, *_ = text.split("\n")
    assert first == "**Play-by-chat board games.** New to a game? `/learn game` teaches it step by step."
    assert "`/rules game`: how to play · `/rules`: commands, ratings, AI players." in text
    assert ("Typed race words are off" in text) is not typed_words
    for word in ("μ", "σ", "Plackett", "openskill"):
        assert word not in text


def test_help_and_rules_say_each_games_counts_from_seat_counts():
    """/help's counts are Game.seats_summary, built from Game.seat_counts alone (the lobby's own limits)."""
    from bot.rules_help import help_command

    text = help_command(True)
    assert "• **Tsukimi** `tsukimi` · exactly 2 players" in text
    assert ("• **Tatsumi** `tatsumi` · 2-4 players; exactly 5 players with void=true; exactly 1 player with "
            "solo=true") in text
    assert "• **Tatari** `tatari` · 2-5 players" in text
    tatsumi = games.get("tatsumi")
    assert tatsumi.seat_options() == [("void=true", [5]), ("solo=true", [1])]
    assert tatsumi.more_seats() == "a table opened with void=true seats 5"
    assert tatsumi.more_seats({"void": True}) == ""
    assert games.get("tatari").seat_options() == [] and games.get("tatari").more_seats() == ""
    # the rules texts that state counts state the same ones
    for g in games.all():
        for low, high in re.findall(r"(\d)-(\d) players", g.rules_help.get("", "")):
            assert list(range(int(low), int(high) + 1)) == g.seat_counts(), g.id


def test_rules_without_a_game_has_the_commands_and_ratings_in_words():
    from bot.rules_help import guide

    text = guide(False)
    assert len(text) <= 2000
    assert "/stats" in text and "/leaderboard" in text and "/replay" in text
    assert "ordered by rating (a conservative estimate: your skill less three times its uncertainty" in text
    assert "μ" not in text and "Plackett" not in text
    assert "How to play: " + " · ".join(f"`/rules {g.id}`" for g in games.all()) in text


def test_tataraba_move_says_the_tatara_pass_is_offered_with_or_without_foot_markers_ft11():
    """RULINGS FT-10, FT-11: walled in by other players' Tataras (alone or with adult trees) the pass is offered
    whether or not the player holds Foot markers."""
    assert ("If other players' Tataras wall you in (alone or with adult trees), you may pass through one of them "
            "onto an open tile beyond as 1 step, then go on as usual; this pass is offered whether or not you hold "
            "Foot markers, beside the moves that spend them.") in rules_text("tataraba", "move")


def test_tatamokatsu_mistakes_say_a_shout_on_a_t_roll_costs_nothing_tk13():
    assert rules_text("tatamokatsu", "mistakes") == (
        "Tatamokatsu — mistakes: Each mistake costs a finger: shouting when the dice cannot make 10 or 17, grabbing "
        "when no T shows, a Katana without triples. On a T roll a shout neither wins nor costs: the grab wins it. A "
        "salute that comes when none is owed costs nothing.")


def test_rules_away_line_says_the_idle_limit_is_the_games_pace_deadline_in_both_languages():
    """/rules' stand-in line: a seat is idle at its game's pace deadline (the channel's /settings without a pace),
    never "the AFK limit"."""
    from bot.i18n import say
    from bot.rules_help import guide

    assert ("-# **Away?** Once a player's move is due (the game's pace deadline; without a pace, the channel's "
            "/settings), the others may let the AI play for them") in guide(False)
    assert "AFK" not in guide(False)
    assert ("-# **留守にするとき**：手番の期限を過ぎると、ほかのプレイヤーはその人の席をAIに任せられます") in say(guide(False), "ja")
    assert "ペースがなければチャンネルの /設定（/settings）で決まります。" in say(guide(False), "ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_a_games_title_heads_its_rules_once(game, lang):
    """The adapters put the title before the overview ("Forest of Tataraba: 2-4 players. …"); the overview itself
    never starts with it again (not "Forest of Tataraba: Forest of Tataraba (2-4 players)")."""
    from bot.i18n import say
    from bot.rules_help import how_to_play, rules_command

    g = games.get(game)
    title = say(g.title, lang)
    assert not say(g.rules_help.get("", g.summary), lang).startswith(title)
    sandbox = say(rules_text(game), lang)
    assert sandbox.startswith(title) and not sandbox[len(title):].lstrip(":： ").startswith(title)
    for text in (rules_command(g, lang=lang), how_to_play(g)):
        shown = say(text, lang)
        head, _, body = shown.partition("\n")
        assert title in head and not body.startswith(title), shown[:120]


def test_the_sandbox_help_starts_with_the_lesson():
    from bot.rules_help import SANDBOX_HELP

    assert str(SANDBOX_HELP).startswith("New to a game? /learn <game> teaches it step by step (answer with /learn "
                                        "<number>).\nCommands: /play")
