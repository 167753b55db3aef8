"""The shared engine texts of games/core.py in Japanese (I18N.md, domain ``core``): lobby lines, seat counts,
lobby options, rankings and find_decision's refusals are Texts whose English is unchanged and whose ja has no
English left."""

from __future__ import annotations

import pytest

import games
from bot import i18n
from games.core import IllegalMove, Move, Result, Text, describe_options, ranking_text, seats_text


def test_seat_counts_and_lobby_lines_in_english_and_japanese():
    assert (seats_text([2, 3, 4]), seats_text([5]), seats_text([1]), seats_text([2, 4])) == (
        "2-4 players", "exactly 5 players", "exactly 1 player", "2 or 4 players")
    assert [i18n.say(seats_text(c), "ja") for c in ([2, 3, 4], [5], [1], [2, 4])] == [
        "2〜4人", "ちょうど5人", "ちょうど1人", "2または4人"]
    game = games.get("tataraba")
    lines = [game.lobby_need(n) for n in (1, 2, 4, 5)]
    assert lines == ["Needs 1 more player (2-4 players).", "Ready to start (2-4 players, or wait for up to 4).",
                     "Ready to start (2-4 players).",
                     "Too many seats for these options: Forest of Tataraba needs 2-4 players."]
    assert [i18n.say(line, "ja") for line in lines] == [
        "あと1人必要です（2〜4人）。", "開始できます（2〜4人。4人まで待つこともできます）。", "開始できます（2〜4人）。",
        "この設定では席が多すぎます：たたらばと森は2〜4人で遊びます。"]
    assert all(isinstance(line, Text) for line in lines)


def test_lobby_options_read_in_japanese():
    text = describe_options({"void": False, "island": "choose"})
    assert text == "void off · island choose" and i18n.say(text, "ja") == "void オフ · island choose"
    assert describe_options({}) == "defaults" and i18n.say(describe_options({}), "ja") == "既定"


def test_a_ranking_keeps_names_and_translates_standings():
    result = Result(winners=["a"], ranking=[["a"], ["b", "c"]], scores={"a": 1234, "b": 0, "c": 0})
    line = ranking_text(result, {"a": "Ann", "b": "ぼぶ", "c": "ちえ"}.get)
    assert line == "1. Ann (1234); 2. ぼぶ (0), ちえ (0)"
    assert i18n.say(line, "ja") == "1位 Ann（1,234）／2位 ぼぶ（0）、ちえ（0）"


def test_find_decision_refusals_read_in_japanese():
    game = games.get("tataraba")
    state = game.setup(["p0", "p1"], None, 1)
    refusals = []
    for move in (Move(player="p1", option="tile:1-2"), Move(player="p0", option="nope")):
        with pytest.raises(IllegalMove) as exc:
            game.apply(state, move)
        refusals.append(exc.value.args[0])
    assert all(isinstance(r, Text) for r in refusals)
    assert str(refusals[0]) == "It is not your turn: waiting for {@p0}."
    assert i18n.say(refusals[0], "ja", {"p0": "あきら"}) == "あなたの番ではありません：あきらを待っています。"
    assert i18n.say(refusals[1], "ja").startswith("「nope」は今は選べません。選べるのは：1-2／1-3／")
    assert str(refusals[1]).startswith("'nope' is not a choice now. Choose one of: 1-2; 1-3; ")


def test_a_refusals_list_of_choices_is_cut_where_one_choice_ends_not_at_a_comma_inside_one():
    """Japanese labels hold 、 (「飛んで、集めるか捧げる」): the choices a refusal lists are set apart by 「／」
    (``games.core.CHOICE_SEP``), so the list reads as as many choices as there are — Tatsumi's own check and
    Tsukimi's short list alike."""
    from games.tatsumi import rules as tatsumi_rules

    game = games.get("tatsumi")
    state = game.setup(["p0", "p1"], None, 1)
    with pytest.raises(IllegalMove) as exc:
        game.apply(state, Move(player=tatsumi_rules.decider(state).id, option="nope"))
    said = i18n.say(exc.value.args[0], "ja")
    listed = said.split("選べるのは：", 1)[1].removesuffix("。")
    labels = [i18n.say(label, "ja") for _, label in tatsumi_rules.choices(state)]
    assert listed.split("／") == labels and any("、" in label for label in labels)


def test_a_message_id_used_by_several_domains_has_one_japanese():
    """The bot merges every domain's catalogue into one, so a message id shared by two domains ("The game is
    over.", "nothing", "off") must read the same in both, or one silently replaces the other. A message with a
    context (the slash commands' ``command_name`` "start"; an engine's ``Tc("tatsumi off the board", "off")``,
    盤外 where a setting's "off" is オフ) is another message."""
    from babel.messages.pofile import read_po

    seen: dict = {}
    for po in sorted((i18n.LOCALES / "ja" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            for m in read_po(fh, locale="ja"):
                if m.id:
                    seen.setdefault((m.context, m.id), {})[po.stem] = m.string if isinstance(m.string, str) else tuple(m.string)
    assert {k: v for k, v in seen.items() if len(set(v.values())) > 1} == {}


@pytest.mark.parametrize("game_id", ["tatari", "tsukimi", "tatamokatsu", "tataraba", "tatsumi"])
def test_a_refusal_lists_the_options_labels_never_their_ids(game_id):
    """What a player reads back after a wrong answer names the choices as the buttons do (their labels), never
    the ids the engine keeps (``set:4``, ``tile:1-2``, ``to:A2-n``)."""
    game = games.get(game_id)
    state = game.setup(["p0", "p1"], None, 1)
    d = game.pending(state)[0]
    with pytest.raises(IllegalMove) as exc:
        game.apply(state, Move(player=d.player or "p0", option="nope", at_ms=0))
    said = i18n.say(exc.value.args[0], "ja")
    first = d.options[0]
    assert i18n.say(first.short or first.label, "ja") in said
    assert not [o.id for o in d.options if o.id in said and o.id not in (o.label, o.short)], said
