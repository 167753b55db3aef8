"""Every answer a Japanese player meets (ARCHITECTURE.md "Text and languages"): in a ja server, a member whose
Discord client is Japanese issues every slash command of the bot's tree (walked at run time) with valid and
invalid inputs, every autocomplete, presses every lobby and board button and menu (as the wrong player, on a stale
board, out of turn), asks /help, /rules, /settings, /board (words:true too), /history, /undo, /kick, /resign,
/abandon, /stats, /leaderboard, /replay, /privacy and /forget-me. Every reply — content, embeds, button labels,
menu placeholders and options, attachment descriptions, autocomplete choice names — holds no English word of the
catalogues (:func:`tests.i18n.english.english_left`), the games' titles, names of people, `code` and /commands
aside."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import AppCommandOptionType as Kind

import games
from games.ai import LEVELS
from tests.discord.harness import Harness, Reply, Sent, User
from tests.i18n.english import english_left

PROPER = {"Discord", "English"}
"""Proper names a Japanese text keeps: Discord, and English as the language names itself (the language choice reads
"English（英語）", as language menus do)."""
OPTION_ID = re.compile(r"\b[a-z]+:[\w:-]+")
"""An option id as a player types it (``set:doll``, ``tile:1-2``): a value, like `code`."""
JUNK = "ぬぬぬ"
"""What a player types that names nothing (no English word of its own: a refusal may repeat it)."""


def japanese_left(text: str) -> list[str]:
    """The English words of ``text`` (:func:`english_left`), option ids and proper names aside."""
    return [w for w in english_left(OPTION_ID.sub(" ", text)) if w not in PROPER]


def texts_of(sent: Sent) -> list[tuple[str, str]]:
    """(where, text) of everything a member reads in one outgoing call."""
    out: list[tuple[str, str]] = []
    if sent.type == 8:  # autocomplete choices
        return [("choice", c.get("name") or "") for c in (sent.body.get("data") or {}).get("choices") or []]
    data = sent.data or {}
    out.append(("content", data.get("content") or ""))
    for e in data.get("embeds") or []:
        out += [("embed", e.get("title") or ""), ("embed", e.get("description") or "")]
        out += [("embed", f"{f.get('name', '')} {f.get('value', '')}") for f in e.get("fields") or []]
        out += [("embed", (e.get("footer") or {}).get("text") or ""), ("embed", (e.get("author") or {}).get("name") or "")]
    for row in data.get("components") or []:
        for c in row.get("components", []):
            out += [("label", c.get("label") or ""), ("placeholder", c.get("placeholder") or "")]
            out += [("option", f"{o.get('label', '')} {o.get('description') or ''}") for o in c.get("options") or []]
    out += [("alt text", a.get("description") or "") for a in data.get("attachments") or []]
    return [(w, t) for w, t in out if t.strip()]


class Reader:
    """Feeds inputs as a Japanese member and collects every English word any reply holds."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.found: dict[str, list[str]] = {}
        self.answers = 0

    def read(self, reply: Reply, what: str) -> Reply:
        for sent in reply:
            if sent.kind == "thread":
                continue
            self.answers += 1
            for where, text in texts_of(sent):
                left = japanese_left(text)
                if left:
                    self.found.setdefault(f"{what} [{where}] {text[:150]!r}", left)
        return reply

    async def slash(self, user: User, name: str, **options: Any) -> Reply:
        self.h.advance(61_000)  # past every per-member cooldown
        what = f"/{name} " + " ".join(f"{k}:{getattr(v, 'name', v)!s:.20}" for k, v in options.items())
        return self.read(await self.h.slash(user, name, **options), what)

    async def autocomplete(self, user: User, name: str, focused: str, **options: Any) -> list[dict]:
        self.h.advance(1_000)
        choices = await self.h.autocomplete(user, name, focused, **options)
        self.answers += 1
        for c in choices:
            left = japanese_left(c["name"])
            if left:
                self.found.setdefault(f"/{name} {focused}: autocomplete {c['name']!r}", left)
        return choices

    async def click(self, user: User, sent: Sent | dict, which: str | int, what: str, **kw: Any) -> Reply:
        self.h.advance(3_000)
        return self.read(await self.h.click(user, sent, which, **kw), f"press {what}")

    async def select(self, user: User, sent: Sent | dict, which: str | int, values: list[str], what: str) -> Reply:
        self.h.advance(3_000)
        return self.read(await self.h.select(user, sent, which, values), f"pick {what} {values}")

    def check(self) -> None:
        assert self.answers > 0
        assert self.found == {}, "\n".join(f"{k} -> {v}" for k, v in self.found.items())


@pytest.fixture
async def ja(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        users = [h.user(101, "あきら"), h.user(102, "ゆうき"), h.user(103, "さくら"), h.user(109, "もも", moderator=True)]
        for u in users:
            u.locale = "ja"
        yield h, Reader(h), users


def sample(kind: Kind) -> Any:
    return {Kind.string: JUNK, Kind.integer: 3, Kind.number: 2.0, Kind.boolean: True}.get(kind)


async def every_command(r: Reader, user: User, skip: tuple[str, ...] = ()) -> int:
    """Each command of the tree: bare, then each option alone (its choices, a sample value of its type)."""
    sent = 0
    for command in r.h.bot.tree.walk_commands():
        if command.name in skip or not hasattr(command, "parameters"):
            continue
        params = command.parameters
        required = {p.name: ("tatari" if p.name == "game" else sample(p.type)) for p in params if p.required
                    and p.type is not Kind.user}
        if any(p.required and p.type is Kind.user for p in params):
            required["player"] = user
        await r.slash(user, command.name, **required)
        sent += 1
        for p in params:
            if p.required:
                continue
            for value in [c.value for c in p.choices] or [sample(p.type)]:
                if value is None:
                    continue
                await r.slash(user, command.name, **{**required, p.name: value})
                sent += 1
    return sent


async def test_every_command_without_a_game_answers_in_japanese(ja):
    h, r, (akira, yuki, _, mod) = ja
    sent = await every_command(r, akira, skip=("forget-me", "settings", "play"))
    assert sent >= 30, sent
    await r.slash(akira, "settings")
    for reader in (akira, mod):
        await r.slash(reader, "settings", reminder_hours=6.0)
        await r.slash(reader, "settings", afk_hours=24.0)
        await r.slash(reader, "settings", race_window_seconds=10.0)
        await r.slash(reader, "settings", pings="off")
        await r.slash(reader, "settings", pings="turn")
        await r.slash(reader, "settings", language="ja")
        await r.slash(reader, "settings", reminder_hours=500.0)
        await r.slash(reader, "settings", race_window_seconds=0.0)
    for turn in ("on", "off", None):
        await r.slash(akira, "pings", turn=turn)
    await r.slash(akira, "help")
    await r.slash(akira, "rules")
    for g in games.all():
        await r.slash(akira, "rules", game=g.id)
        for topic in g.rules_help:
            if topic:
                await r.slash(akira, "rules", game=g.id, topic=topic)
        await r.slash(akira, "rules", game=g.id, topic=JUNK)
        await r.slash(akira, "leaderboard", game=g.id)
        await r.slash(akira, "stats", game=g.id)
        await r.slash(akira, "stats", member=yuki, game=g.id)
    await r.slash(akira, "rules", game=JUNK)
    await r.slash(akira, "leaderboard", game=JUNK)
    await r.slash(akira, "stats", game=JUNK)
    await r.slash(akira, "replay", game=JUNK)
    await r.slash(akira, "replay", game="#1")
    await r.slash(akira, "privacy")
    ask = (await r.slash(akira, "forget-me")).message()
    await r.click(akira, ask, 1, "keep my data")
    ask = (await r.slash(akira, "forget-me")).message()
    await r.click(yuki, ask, 0, "someone else's forget-me")
    await r.click(akira, ask, 0, "delete my data")
    r.check()


async def test_every_autocomplete_answers_in_japanese(ja):
    h, r, (akira, *_) = ja
    for typed in ("", "t", "た", "タ", "月", JUNK):
        for command in ("play", "rules", "leaderboard", "stats", "replay"):
            await r.autocomplete(akira, command, "game", game=typed)
    for g in games.all():
        choices = await r.autocomplete(akira, "rules", "topic", game=g.id, topic="")
        assert [c["value"] for c in choices] == [t for t in g.rules_help if t][:25]
        for typed in ("e", JUNK):
            await r.autocomplete(akira, "rules", "topic", game=g.id, topic=typed)
        await r.autocomplete(akira, "play", "options", game=g.id, options="")
        await r.autocomplete(akira, "play", "options", game=g.id, options="zz=1")
        levels = await r.autocomplete(akira, "play", "level", game=g.id, level="")
        assert [c["value"] for c in levels] == list(LEVELS)
    await r.autocomplete(akira, "move", "option", option="")
    r.check()


async def test_a_lobby_answers_in_japanese(ja):
    h, r, (akira, yuki, sakura, mod) = ja
    await r.slash(akira, "play", game=JUNK)
    await r.slash(akira, "play", game="tatari", options="zz=1")
    await r.slash(akira, "play", game="tatari", options="first=nobody")
    await r.slash(akira, "play", game="tatari", level="strong")
    await r.slash(akira, "play", game="tatari", ai=1, level=JUNK)
    await r.slash(akira, "play", game="tatari", ai=9)
    await r.slash(akira, "play", game="tsukimi", ai=3)
    for command in ("join", "leave", "start", "abandon", "undo", "resign", "board", "history"):
        await r.slash(yuki, command)
    await r.slash(yuki, "kick", player=akira)
    await r.slash(yuki, "move", option="1")
    card = (await r.slash(akira, "play", game="tatari")).message(public=True)
    await r.slash(yuki, "play", game="tsukimi")
    labels = card.buttons()
    await r.click(akira, card, labels[0], "Join as the host")
    await r.click(yuki, card, labels[1], "Leave before joining")
    await r.click(yuki, card, labels[0], "Join")
    await r.click(yuki, card, labels[0], "Join again")
    await r.click(yuki, card, labels[2], "Start as a guest")
    await r.click(yuki, card, labels[3], "Cancel as a guest")
    await r.slash(yuki, "start")
    await r.slash(yuki, "abandon")
    await r.slash(akira, "kick", player=sakura)
    how = (await r.click(sakura, card, labels[4], "How to play")).message()
    for topic in [t for t in games.get("tatari").rules_help if t] + ["-"]:
        await r.select(sakura, how, 0, [topic], "a rules topic")
    await r.select(sakura, how, 0, [JUNK], "no rules topic")
    await r.select(yuki, card, 5, ["strong"], "Add AI as a guest")
    added = (await r.select(akira, card, 5, ["easy"], "Add AI")).message()
    await r.select(akira, card, 5, [JUNK], "Add AI of no level")
    await r.select(yuki, added, 6, [added.components[6]["options"][0]["value"]], "Remove AI as a guest")
    await r.select(akira, added, 6, [added.components[6]["options"][0]["value"]], "Remove AI")
    await r.slash(sakura, "join")
    await r.slash(sakura, "leave")
    await r.slash(mod, "kick", player=yuki)
    await r.click(yuki, card, labels[0], "Join after a kick")
    await r.click(akira, card, labels[3], "Cancel")
    await r.click(yuki, card, labels[0], "Join a cancelled lobby")
    r.check()


async def started(h: Harness, r: Reader, host: User, guests: list[User], game: str = "tatari") -> Sent:
    card = (await r.slash(host, "play", game=game)).message(public=True)
    for g in guests:
        await r.click(g, card, card.buttons()[0], "Join")
    return (await r.click(host, card, card.buttons()[2], "Start")).message(public=True, with_components=True)


async def test_a_game_answers_in_japanese(ja):
    h, r, (akira, yuki, sakura, mod) = ja
    users = {u.sid: u for u in (akira, yuki)}
    board = await started(h, r, akira, [yuki])
    update = await h.bot.service.show(str(h.channel_id))
    d = update.pending[0]
    mover, other = users[d.player], (yuki if users[d.player] is akira else akira)
    buttons = [c for c in board.components if c.get("custom_id", "").startswith("pbc:c:")]
    await r.click(other, board, buttons[0]["custom_id"], "a choice out of turn")
    await r.click(sakura, board, buttons[0]["custom_id"], "a choice by an onlooker")
    for cid in [c["custom_id"] for c in board.components if c["type"] == 2 and not c["custom_id"].startswith("pbc:c:")]:
        await r.click(sakura, board, cid, f"board button {cid}")
    for command, kw in [("move", {"option": JUNK}), ("move", {"option": d.options[0].id}), ("undo", {}),
                        ("board", {}), ("board", {"words": True}), ("board", {"full": True}),
                        ("board", {"public": True}), ("history", {}), ("history", {"count": -1}),
                        ("history", {"count": 500}), ("join", {}), ("leave", {}), ("start", {}),
                        ("kick", {"player": akira}), ("abandon", {}), ("resign", {})]:
        await r.slash(sakura, command, **kw)
    assert await every_command(r, sakura, skip=("forget-me", "settings", "play")) >= 30  # an onlooker, mid-game
    await r.autocomplete(mover, "move", "option", option="")
    await r.autocomplete(other, "move", "option", option="")
    await r.autocomplete(mover, "move", "option", option=JUNK)
    await r.slash(other, "move", option=d.options[0].id)
    await r.slash(mover, "move", option=JUNK)
    await r.slash(mover, "undo")
    await r.slash(mover, "board", words=True)
    await r.slash(mover, "board", full=True)
    await r.slash(mover, "board", public=True, words=True)
    await r.slash(mover, "history")
    await r.slash(mover, "kick", player=sakura)
    await r.slash(yuki, "abandon")  # not the host, no moderator
    r.read(await h.choose(mover, d.options[0].id), "a legal choice")
    await r.click(mover, board, buttons[0]["custom_id"], "a choice on a stale board")
    await r.slash(mover, "history", count=3)
    ask = (await r.slash(mover, "undo")).message(public=True)
    await r.click(mover, ask, 0, "approve one's own undo")
    await r.click(sakura, ask, 0, "approve an undo as an onlooker")
    await r.click(other, ask, 1, "refuse an undo")
    await r.click(other, ask, 0, "approve a closed undo")
    ask = (await r.slash(mover, "undo")).message(public=True)
    await r.slash(other, "undo")
    await r.click(other, ask, 0, "approve an undo")
    update = await h.bot.service.show(str(h.channel_id))
    d = update.pending[0]
    r.read(await h.choose(users[d.player], d.options[0].id), "a legal choice")
    await r.slash(mod, "kick", player=sakura)
    await r.slash(mod, "settings", reminder_hours=1.0)
    h.advance(3_600_000 + 60_000)
    await h.bot.timers.fire_due(h.now_ms)
    r.read(Reply(h.fake.sent[-5:]), "a turn reminder")
    result = await r.slash(yuki, "resign")
    await r.slash(yuki, "resign")
    msg = result.message(public=True, result=True)
    await r.click(sakura, msg, 0, "Replay")
    for command, kw in [("stats", {}), ("stats", {"member": yuki}), ("stats", {"game": "tatari"}),
                        ("stats", {"public": True}), ("leaderboard", {"game": "tatari"}),
                        ("leaderboard", {"game": "tatari", "public": True}), ("replay", {}),
                        ("replay", {"game": "tatari"}), ("replay", {"public": True}), ("history", {}),
                        ("board", {}), ("undo", {})]:
        await r.slash(akira, command, **kw)
    await r.autocomplete(akira, "replay", "game", game="")
    r.check()


async def test_a_game_ended_by_a_moderator_and_a_kick_answers_in_japanese(ja):
    h, r, (akira, yuki, sakura, mod) = ja
    await started(h, r, akira, [yuki, sakura])
    await r.slash(akira, "kick", player=sakura)
    await r.slash(akira, "kick", player=mod)
    await r.slash(yuki, "abandon")
    await r.slash(mod, "abandon")
    await r.slash(mod, "abandon")
    card = (await r.slash(akira, "play", game="tatari", ai=2, level="strong")).message(public=True)
    r.read(await h.click(akira, card, card.buttons()[2]), "Start with AI seats")
    h.advance(120_000)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    await r.slash(akira, "undo")
    await r.slash(akira, "history")
    await r.slash(akira, "resign")
    await started(h, r, akira, [yuki])
    ask = (await r.slash(yuki, "forget-me")).message()
    r.read(await h.click(yuki, ask, 0), "delete my data while seated")
    await r.slash(akira, "history")
    r.check()


async def test_rules_topics_and_ai_levels_show_their_japanese_names_with_the_value_to_type(ja):
    h, r, (akira, yuki, *_) = ja
    overview = (await r.slash(akira, "rules", game="tatari"))[-1].content
    assert ("ほかの項目（/ルール（/rules） ゲーム:tatari 項目:…）：ダイス（`dice`）、ストップ（`stop`）、バースト（`bust`）、手元（`stash`）、"
            "ゲームの終わり（`end`）") in overview.splitlines()
    assert "強さ：弱い（`easy`） — " in overview and "。普通（`normal`） — " in overview
    assert (await r.slash(akira, "rules", game="tatari", topic="stash"))[-1].content.startswith("**タタリ** — 手元\n")
    topics = await r.autocomplete(akira, "rules", "topic", game="tatari", topic="")
    assert topics == [{"name": "ダイス", "value": "dice"}, {"name": "ストップ", "value": "stop"},
                      {"name": "バースト", "value": "bust"}, {"name": "手元", "value": "stash"},
                      {"name": "ゲームの終わり", "value": "end"}]
    assert await r.autocomplete(akira, "rules", "topic", game="tatari", topic="手") == [{"name": "手元", "value": "stash"}]
    assert await r.autocomplete(akira, "rules", "topic", game="tatari", topic="bu") == [{"name": "バースト", "value": "bust"}]
    levels = await r.autocomplete(akira, "play", "level", game="tatari", level="")
    assert [c["name"].split(" — ")[0] for c in levels] == ["弱い", "普通", "強い"]
    card = (await r.slash(akira, "play", game="tatari")).message(public=True)
    how = (await r.click(yuki, card, card.buttons()[4], "How to play")).message()
    (menu,) = [c for c in how.components if c["type"] == 3]
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("概要", "-"), ("ダイス", "dice"), ("ストップ", "stop"), ("バースト", "bust"), ("手元", "stash"),
        ("ゲームの終わり", "end")]
    picked = (await r.select(yuki, how, 0, ["bust"], "a rules topic"))[-1]
    assert picked.content.startswith("**タタリ** — バースト\n")
    bad = (await r.slash(akira, "settings", reminder_hours=500.0))[-1]
    assert bad.ephemeral and not english_left(bad.content) and "0から168" in bad.content
    r.check()


async def test_the_english_rules_list_their_topics_and_levels_as_before(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        alice = h.user(101, "alice")
        overview = (await h.slash(alice, "rules", game="tatari"))[-1].content
        assert "More: /rules tatari topic: dice, stop, bust, stash, end" in overview.splitlines()
        assert ("Levels: easy — random legal moves; avoids losing at once; normal — greedy: the best-looking move now; "
                "strong — searches ahead before each move.") in overview
        topics = await h.autocomplete(alice, "rules", "topic", game="tatari", topic="s")
        assert topics == [{"name": "stop", "value": "stop"}, {"name": "bust", "value": "bust"},
                          {"name": "stash", "value": "stash"}]
        levels = await h.autocomplete(alice, "play", "level", game="tatari", level="s")
        assert levels == [{"name": "strong — Searches ahead before each move", "value": "strong"}]
        bad = (await h.slash(alice, "settings", reminder_hours=500.0))[-1]
        assert bad.content == "The option reminder_hours takes a number from 0 to 168."


GAMES = [("tatari", None), ("tsukimi", None), ("tatamokatsu", None), ("tataraba", None), ("tatsumi", None),
         ("tatsumi", "solo=true")]


@pytest.mark.parametrize("game_id,options", GAMES)
async def test_every_board_component_and_board_view_of_each_game_answers_in_japanese(ja, game_id, options):
    """A few turns of each game: each turn, every button and menu of the board pressed by an onlooker and by the
    player not asked; /board (words, full, public) and /history by each; then the move by its player."""
    import random

    from games.ai import greedy

    h, r, (akira, yuki, sakura, mod) = ja
    await h.bot.timers.stop()
    solo = options == "solo=true"
    seated = [akira] if solo else [akira, yuki]
    by_id = {u.sid: u for u in seated}
    card = (await r.slash(akira, "play", game=game_id, **({"options": options} if options else {}))).message(
        public=True)
    for u in seated[1:]:
        await r.click(u, card, card.buttons()[0], "Join")
    await r.click(akira, card, card.buttons()[2], "Start")
    game, rng = games.get(game_id), random.Random(3)
    pressed = 0
    for turn in range(4):
        update = await h.bot.service.show(str(h.channel_id))
        if update.session.status != "active":
            break
        d = update.pending[0]
        asked = by_id.get(d.player) or akira
        others = [u for u in (yuki, sakura) if u is not asked]
        board = h.latest_with()  # choices, menus or race buttons
        comps = [c for row in (board or {}).get("components", []) for c in row["components"] if c.get("custom_id")]
        pressed += len(comps) * len(others)
        for who in others:
            for c in comps:
                if c["type"] == 2:
                    await r.click(who, board, c["custom_id"], f"{game_id} {c.get('label')!r} by {who.name}")
                elif c["type"] == 3 and c.get("options"):
                    await r.select(who, board, c["custom_id"], [c["options"][0]["value"]],
                                   f"{game_id} menu {c.get('placeholder')!r} by {who.name}")
        for who in (asked, sakura):
            for kw in ({}, {"words": True}, {"full": True}, {"words": True, "full": True}):
                await r.slash(who, "board", **kw)
            await r.slash(who, "history")
            await r.autocomplete(who, "move", "option", option="")
        if turn == 0:
            await r.slash(asked, "board", public=True)
        if d.player is None:  # a race: its window closes
            h.now_ms = max(h.now_ms, d.deadline_ms)
            await h.bot.timers.fire_due(h.now_ms)
            await h.settle()
            continue
        r.read(await h.choose(asked, greedy(game, update.state, d, rng), allow_move=True), f"{game_id} a move")
    await r.slash(akira, "resign")
    assert pressed >= 4, pressed
    r.check()


async def test_idle_players_threads_and_missing_permissions_answer_in_japanese(ja):
    h, r, (akira, yuki, sakura, mod) = ja
    await r.slash(mod, "settings", afk_hours=1.0, reminder_hours=0.5)
    users = {u.sid: u for u in (akira, yuki)}
    await started(h, r, akira, [yuki])
    idle = users[(await h.bot.service.show(str(h.channel_id))).pending[0].player]
    other = yuki if idle is akira else akira
    start = len(h.fake.sent)
    for _ in range(3):
        h.advance(40 * 60_000)
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
    r.read(Reply(h.fake.sent[start:]), "a reminder and the AFK notice")
    notice = h.latest_with(("pbc:k:",))
    assert notice is not None, [s.content[:60] for s in h.fake.sent[start:]]
    kick = next(c["custom_id"] for row in notice["components"] for c in row["components"]
                if c.get("custom_id", "").startswith("pbc:k:"))
    await r.click(idle, notice, kick, "remove oneself as idle")
    await r.click(sakura, notice, kick, "remove an idle player as an onlooker")
    await r.slash(other, "kick", player=idle)
    await r.click(other, notice, kick, "remove an idle player")
    await r.click(other, notice, kick, "remove an idle player again")
    await r.slash(mod, "abandon")
    card = (await r.slash(akira, "play", game="tsukimi", thread=True))
    thread_id = int(next(s for s in card if s.kind == "thread").message["id"])
    r.read(await h.slash(akira, "play", game="tsukimi", thread=True, channel_id=thread_id, channel_type=11),
           "/play thread:true in a thread")
    r.read(await h.slash(yuki, "play", game="tsukimi", thread=True), "a second thread at once")
    h.app_permissions = 1 << 10  # View Channel only
    r.read(await h.slash(sakura, "play", game="tatari"), "/play without the bot's permissions")
    r.read(await h.slash(sakura, "play", game="tatari", thread=True), "/play thread:true without permissions")
    r.read(await h.slash(sakura, "board"), "/board without permissions")
    r.check()


WRONG = {Kind.string: [12, True, "x" * 6000], Kind.integer: ["lots", 1.5, 10**30, -(10**30)],
         Kind.number: ["NaN", True, 1e308, -1e308], Kind.boolean: ["yes", 2], Kind.user: ["not a snowflake", 0]}
"""Values no Discord client sends for an option of each type (a stale or forged payload)."""


async def test_malformed_options_are_refused_in_japanese(ja):
    """What a stale client or a forged payload sends — a value of another type, out of range, an unknown option,
    a required option missing — is refused in the reader's language, the option named as their client shows it."""
    h, r, (akira, yuki, *_) = ja
    await started(h, r, akira, [yuki])
    sent = 0
    for command in h.bot.tree.walk_commands():
        params = getattr(command, "parameters", [])
        payloads = [[{"name": "zzz_unknown", "type": 3, "value": "x"}]]
        if any(p.required for p in params):
            payloads.append([])
        for p in params:
            payloads += [[{"name": p.name, "type": p.type.value, "value": v}] for v in WRONG.get(p.type, [])]
        for options in payloads:
            data = {"id": str(10_000 + hash(command.name) % 10_000), "name": command.name, "type": 1,
                    "options": options}
            h.advance(61_000)
            reply = await h._feed(h.bot._connection.parse_interaction_create, h._interaction(akira, 2, data))
            assert reply and all(s.ephemeral or s.type == 8 for s in reply if s.message is not None), command.name
            r.read(reply, f"/{command.name} {options!r:.60}")
            sent += 1
    assert sent >= 60, sent
    r.check()
