"""The slash command tree as Discord would receive it at sync: every command described and valid, guild-only but for
a member's own commands (/mygames, /away, /notify), which also work in a direct message with the bot."""

from __future__ import annotations

import re

from harness import Harness

NAME = re.compile(r"^[-_\w]{1,32}$")
EXPECTED = {"play", "join", "leave", "start", "move", "board", "rules", "history", "resign", "abandon", "kick", "undo",
            "settings", "pings", "help", "stats", "leaderboard", "replay", "privacy", "forget-me", "mygames", "notify", "away",
            "learn", "hint"}
IN_DMS = {"mygames", "away", "notify"}


async def test_command_payloads_are_valid(database):
    async with Harness(database) as h:
        payloads = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    assert {p["name"] for p in payloads} == EXPECTED
    for p in payloads:
        assert NAME.match(p["name"]) and p["name"] == p["name"].lower()
        assert 1 <= len(p["description"]) <= 100, p["name"]
        if p["name"] in IN_DMS:  # a guild or a direct message with the bot, never a group DM
            assert p.get("contexts") == [0, 1], p["name"]
        else:
            assert p.get("contexts") == [0] or p.get("dm_permission") is False, p["name"]  # guild only
        opts = p.get("options", [])
        assert len(opts) <= 25
        for o in opts:
            assert NAME.match(o["name"]) and 1 <= len(o["description"]) <= 100, (p["name"], o["name"])
            assert not (o.get("autocomplete") and o.get("choices")), (p["name"], o["name"])
    move = next(p for p in payloads if p["name"] == "move")
    assert move["options"][0]["autocomplete"] is True
