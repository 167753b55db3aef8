"""``/privacy`` and ``/forget-me`` through the real discord.py stack (the harness), on both backends: the confirm
buttons, a press by anyone else refused ephemerally with nothing changed, ``Keep it`` changing nothing, and a
confirmed press resigning the member from the running game (the usual line on the table) and removing every trace of
their id and display name; ``RECORDS_DAYS`` prunes old games when the bot starts."""

from __future__ import annotations

import sys
from pathlib import Path

from harness import Harness
from test_discord_play import open_game, pending

from bot.config import Settings
from bot.discord.privacy import ASK, KEPT, NOT_YOURS
from bot.privacy import DAY_MS, privacy_text
from bot.sessions import RESIGN

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))
from test_privacy import cells_holding  # noqa: E402

ALICE, BOB, CAROL = 100000000000000001, 100000000000000002, 100000000000000003


async def test_privacy_says_what_is_kept_and_for_how_long(database):
    async with Harness(database) as h:
        reply = await h.slash(h.user(ALICE, "Alice Liddell"), "privacy")
        (sent,) = reply
        assert sent.ephemeral and sent.content == privacy_text(0)
        assert "finished games for ever (the operator may set a limit)" in sent.content
    assert "for 30 days, then they are deleted" in privacy_text(30)


async def test_forget_me_confirms_refuses_others_and_forgets(database):
    async with Harness(database) as h:
        alice, bob, carol = h.user(ALICE, "Alice Liddell"), h.user(BOB, "Bob Marley"), h.user(CAROL, "Carol King")
        await open_game(h, [alice, bob, carol])
        sid = (await pending(h)).session.id
        ask = (await h.slash(alice, "forget-me")).message()
        assert ask.ephemeral and ask.content == ASK and ask.buttons() == ["Delete my data", "Keep it"]

        refused = await h.click(bob, ask, "Delete my data")
        assert [(s.ephemeral, s.content) for s in refused] == [(True, NOT_YOURS)]
        kept = await h.click(alice, ask, "Keep it")
        assert [(s.kind, s.content, s.components) for s in kept] == [("response", KEPT, [])]
        row = await h.store.session(sid)
        assert row.players == [str(ALICE), str(BOB), str(CAROL)] and row.status == "active"
        assert await cells_holding(h.store, "Alice Liddell")

        done = await h.click(alice, ask, "Delete my data")
        answer = [s for s in done if s.kind == "edit_original"]
        # the session, her resignation move, the adapter's names, the timers of her wait (reminders and deadline: deleted)
        assert [(s.content, s.components) for s in answer] == [
            ("Done: your data is deleted (6 rows).\nYou were resigned from or left 1 game.", [])]
        board = done.message(public=True)
        assert f"<@{ALICE}> resigns" in board.content
        row = await h.store.session(sid)
        assert row.status == "active" and row.players == ["former-1", str(BOB), str(CAROL)]
        assert await h.store.players_with_move(sid, RESIGN) == {"former-1"}
        assert all(f":{sid}:{row.version}:" in c for c in board.custom_ids() if c.startswith("pbc:c:"))
        assert await cells_holding(h.store, str(ALICE), "Alice Liddell") == []
        after = await pending(h)
        assert {d.player for d in after.pending} <= {str(BOB), str(CAROL)}


async def test_records_days_prunes_old_games_at_start(database):
    async with Harness(database) as h:
        alice, bob = h.user(ALICE, "Alice Liddell"), h.user(BOB, "Bob Marley")
        await open_game(h, [alice, bob])
        old = (await pending(h)).session.id
        await h.slash(alice, "abandon")
        h.advance(31 * DAY_MS)
        await open_game(h, [alice, bob])
        recent = (await pending(h)).session.id
        await h.slash(alice, "abandon")
        h.advance(DAY_MS)
        h.settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, records_days=30)
        await h.restart()
        assert await h.store.game_record(old) is None and await h.store.session(old) is None
        assert (await h.store.game_record(recent)).outcome == "abandoned"
