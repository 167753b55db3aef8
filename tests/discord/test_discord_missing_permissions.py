"""Never silent without permissions: without Attach Files the result message goes out as text (ranking, rating
changes, the Replay button); without Send Messages a board posted by a timer (an AI move) fails, the previous
board keeps its buttons, and the next interaction in the channel — whose answer needs no Send Messages — shows the
missed board publicly with one line on what is missing."""

from __future__ import annotations

import json
import random

from harness import ALL_PERMS, Harness
from openskill.models import PlackettLuce
from test_discord_ai_seats import card_of, fire_ai, settings
from test_discord_ai_seats import no_render as no_board_image
from test_discord_failed_posts import ATTACH_FILES, SEND_MESSAGES, refuse_channel_posts, refuse_files
from test_discord_play import open_game, play_turn
from test_discord_results import dolls_left, result_message

from bot.config import Settings
from bot.discord import ids
from bot.discord.delivery import CANNOT_POST

CHOICES = ("pbc:c:", "pbc:m:", "pbc:g:")


def choices(message: dict) -> list[str]:
    return [c.get("custom_id", "") for row in message["components"] for c in row["components"]
            if c.get("custom_id", "").startswith(CHOICES)]


async def test_result_message_without_attach_files_is_text_with_ranking_ratings_and_replay(tmp_path):
    """Discord refuses every file (403 Missing Permissions: no Attach Files): the result message still goes
    out, as text — the title, one line per seat with the rating after and its change — with its Replay button,
    and no card."""
    st = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=tmp_path)
    async with Harness(tmp_path / "bot.sqlite3", settings=st) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        users = {alice.sid: alice, bob.sid: bob}
        await open_game(h, [alice, bob])
        refused: list = []  # Attach Files taken away once the game runs
        h.fake.refuse = refuse_files(refused)
        h.app_permissions = ALL_PERMS & ~ATTACH_FILES
        rng = random.Random(2)
        for _ in range(2):
            await play_turn(h, users, rng)
        reply = await h.slash(bob, "resign")
        msg = result_message(reply)
        sid = (await h.store.channel_records(str(h.channel_id)))[0][0]
        score = {s.player_id: s.score for s in (await h.store.game_record(sid)).seats}
        model = PlackettLuce()
        (a,), (b,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
        assert msg.kind == "message" and not msg.files
        lines = msg.content.split("\n")
        assert lines[-1] == "🔔 <@101>, <@102>: the game is over."  # after the turning points, the end's one ping
        assert lines[:3] == [
            "🏁 **Tatari** — result",
            f"1st alice ★ · {dolls_left(score[alice.sid])} · rating {a.mu:.1f} ({a.mu - 25:+.1f})",
            f"2nd bob · resigned · rating {b.mu:.1f} ({b.mu - 25:+.1f})",
        ]
        assert msg.buttons() == ["Replay", "Rematch"] and msg.custom_ids() == [ids.replay(sid), ids.rematch(sid)]
        assert ("rest", "POST", "/channels/{channel_id}/messages") in refused  # the card was tried, refused
        press = await h.click(alice, msg, "Replay")  # the button works
        assert press and all(s.ephemeral for s in press)


async def ai_to_move(h: Harness, alice, rng: random.Random):
    """Alice plays until the AI is to move; returns the row."""
    row = await h.store.live_session(str(h.channel_id))
    for _ in range(50):
        update = await h.bot.service.show(str(h.channel_id))
        if update.pending[0].player != alice.sid:
            return update.session
        await h.choose(alice, rng.choice(update.pending[0].options).id, allow_move=False)
    raise AssertionError(f"the AI never came to move in session {row.id}")


async def test_ai_move_without_send_messages_leaves_the_board_and_the_next_interaction_shows_it(tmp_path):
    """Send Messages is taken away while the AI is to move: its move is stored, the board of it is refused at
    every try (403), the previous board keeps its buttons (not retired), and nothing is posted. Alice's next
    interaction, ``/board``, is answered by that board, publicly, with alice's choices and one line saying Send
    Messages is missing; her private copy follows; the old board is retired once the new one is out; pressing
    the new board plays the move; and the line is not repeated."""
    async with Harness(tmp_path / "bot.sqlite3", settings=settings(), render=no_board_image) as h:
        alice = h.user(101, "alice")
        card = await card_of(h, alice, game="tsukimi", ai=1, level="easy")
        await h.click(alice, card, "Start")
        row = await ai_to_move(h, alice, random.Random(4))
        old = h.bot.table.live[row.id]
        tries: list = []
        h.fake.refuse = refuse_channel_posts(tries, times=100)
        h.app_permissions = ALL_PERMS & ~SEND_MESSAGES
        for _ in range(20):  # the AI's moves (its same-turn boards are edits), until alice is to move
            before = json.loads(json.dumps(h.fake.messages[old.message_id]))
            start = len(h.fake.sent)
            await fire_ai(h)
            if (await h.bot.service.show(str(h.channel_id))).pending[0].player == alice.sid:
                break
        after = await h.store.session(row.id)
        assert after.version > row.version  # the AI's moves are stored
        assert len(tries) == 3 and f"board v{after.version}" in tries[0]  # the new turn's board, 3 tries
        assert not [s for s in h.fake.sent[start:] if s.message is not None]  # nothing posted, nothing retired
        assert h.fake.messages[old.message_id] == before and before["components"]  # it keeps its buttons
        assert h.bot.table.live[row.id].message_id == old.message_id
        # the next interaction: its answer is the missed board, publicly
        reply = await h.slash(alice, "board")
        shown = reply[0]
        assert shown.kind == "response" and not shown.ephemeral
        assert f"board v{after.version}" in shown.content
        assert choices(shown.message) and all(f":{row.id}:{after.version}:" in c for c in choices(shown.message))
        lines = shown.content.split("\n")
        assert [line for line in lines if "can't post" in line or "Send Messages" in line] == [
            CANNOT_POST.format(lacking="Send Messages", it="it")]
        assert h.bot.table.live[row.id].message_id == int(shown.message["id"])
        assert [s.kind for s in reply[1:]] == ["followup", "edit"]
        assert reply[1].ephemeral  # the /board copy
        assert reply[2].method == "PATCH" and str(old.message_id) in reply[2].path and not reply[2].custom_ids()
        assert not h.fake.messages[old.message_id]["components"]
        # the board works, and the line is said once
        h.advance(1000)
        update = await h.bot.service.show(str(h.channel_id))
        assert h.board()["id"] == shown.message["id"]
        press = await h.choose(alice, update.pending[0].options[0].id, allow_move=False)
        assert (await h.store.session(row.id)).version > update.session.version
        assert "can't post" not in press.text
