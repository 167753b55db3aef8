"""Japanese tables end to end (ARCHITECTURE.md "Text and languages"): in a server whose preferred locale is ja, a
whole game of each game through the Discord adapter — lobby, every board, every button and menu, the result —
reads in Japanese: no English word of the catalogues is left in any public text, except the games' titles and
names of people, ids in backticks and slash commands (Discord shows those in the reader's client language)."""

from __future__ import annotations

import random

import pytest

import games
from bot.discord import ids
from bot.service.presence import held_people
from games.ai import greedy
from tests.discord.harness import Harness
from tests.i18n.english import english_left

NAMES = ["あきら", "ゆうき", "さくら", "ひかり", "れん"]
CASES = [("tatari", 3, None), ("tsukimi", 2, None), ("tatamokatsu", 3, None), ("tataraba", 2, None),
         ("tatsumi", 2, None), ("tatsumi", 1, None)]
MAX_MOVES = 1500
def public_texts(h: Harness) -> list[str]:
    out = []
    for sent in h.fake.sent:
        if sent.ephemeral or not sent.data:
            continue
        out.append(sent.data.get("content") or "")
        for row in sent.data.get("components") or []:
            for c in row.get("components", []):
                out += [c.get("label") or "", c.get("placeholder") or ""]
                out += [o.get("label", "") + " " + o.get("description", "") for o in c.get("options", [])]
        for a in sent.data.get("attachments") or []:
            out.append(a.get("description") or "")
    return [t for t in out if t]


@pytest.mark.parametrize("game_id,n,options", CASES)
async def test_a_whole_game_reads_in_japanese(tmp_path, game_id, n, options):
    async with Harness(tmp_path / "bot.sqlite3") as h:
        h.guild_locale = "ja"
        users = [h.user(101 + i, NAMES[i]) for i in range(n)]
        for u in users:
            u.locale = "ja"
        by_id = {u.sid: u for u in users}
        await h.bot.timers.stop()
        kw = {"game": game_id, **({"options": options} if options else {})}
        if n == 1:
            kw["ai"] = 1
        card = (await h.slash(users[0], "play", **kw)).message(public=True)
        for u in users[1:]:
            await h.click(u, card, card.buttons()[0])  # Join (whatever its label says)
        await h.click(users[0], card, card.buttons()[2])  # Start
        game, rng = games.get(game_id), random.Random(1)
        update = await h.bot.service.show(str(h.channel_id))
        sid = update.session.id
        for _ in range(MAX_MOVES):
            if update.session.status != "active":
                break
            d = update.pending[0]
            held = held_people(update.session, update.state, update.pending)
            if held:  # a live table's roll waits for players who missed a race: "I'm here" (bot.service.presence)
                for p in held:
                    await h.click(by_id[p], h.latest_with(("pbc:hr:",)), ids.here(sid))
            elif d.player is None and (not d.options or rng.random() < 0.5):
                h.now_ms = max(h.now_ms, d.deadline_ms)
                await h.bot.timers.fire_due(h.now_ms)
                await h.settle()
            elif d.player is not None and d.player not in by_id:  # an AI seat: its timer moves it
                h.now_ms += 60_000
                await h.bot.timers.fire_due(h.now_ms)
                await h.settle()
            else:
                player = by_id.get(d.player) or rng.choice(users)
                if d.player is None:
                    h.advance(rng.randint(20, 400))
                try:
                    await h.choose(player, greedy(game, update.state, d, rng), allow_move=True)
                except AssertionError:  # a race answered by typing or reacting only: its window closes instead
                    h.now_ms = max(h.now_ms, d.deadline_ms)
                    await h.bot.timers.fire_due(h.now_ms)
                    await h.settle()
            update = h.bot.service.view(await h.store.session(sid))
        assert update.session.status == "finished"
        left = {t[:120]: english_left(t) for t in public_texts(h)}
        assert {t: w for t, w in left.items() if w} == {}
