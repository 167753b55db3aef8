"""/rules texts ("Everywhere"): the topics are listed once, by the adapter, from the help's own keys —
an overview never carries a hand-kept "Topics:" list that could repeat or go stale."""

from __future__ import annotations

import pytest

import games
from bot.rules_help import sandbox_rules as rules_text


@pytest.mark.parametrize("game", [g.id for g in games.all()])
def test_topics_are_listed_once_and_completely(game):
    g = games.get(game)
    assert "Topics:" not in g.rules_help.get("", "")
    text = rules_text(game)
    assert text.count("Topics:") == 1
    listed = text.split("Topics:", 1)[1]
    for topic in (t for t in g.rules_help if t):
        assert topic in listed, topic
