"""The slash command tree as Discord would receive it at sync: every command guild-only, described, valid."""

from __future__ import annotations

import re

from harness import Harness

NAME = re.compile(r"^[-_\w]{1,32}$")
EXPECTED = {"play", "join", "leave", "start", "move", "board", "rules", "history", "resign", "abandon", "kick", "undo",
            "settings", "pings", "help", "stats", "leaderboard", "replay", "privacy", "forget-me", "mygames", "notify", "away",
            "learn", "hint"}


async def test_command_payloads_are_valid(database):
    async with Harness(database) as h:
        payloads = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    assert {p["name"] for p in payloads} == EXPECTED
    for p in payloads:
        assert NAME.match(p["name"]) and p["name"] == p["name"].lower()
        assert 1 <= len(p["description"]) <= 100, p["name"]
        assert p.get("contexts") == [0] or p.get("dm_permission") is False, p["name"]  # guild only
        opts = p.get("options", [])
        assert len(opts) <= 25
        for o in opts:
            assert NAME.match(o["name"]) and 1 <= len(o["description"]) <= 100, (p["name"], o["name"])
            assert not (o.get("autocomplete") and o.get("choices")), (p["name"], o["name"])
    move = next(p for p in payloads if p["name"] == "move")
    assert move["options"][0]["autocomplete"] is True
