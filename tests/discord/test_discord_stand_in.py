"""The AI stand-in at the Discord table (bot/service/stand_in.py): chosen on the AFK notice, the default when a
departed member's grace ends; it plays through the durable AI timers (across a restart), is marked on every board,
its owner takes the seat back with "I'm back"; forged presses are refused; the record ranks the absent player last
(Board Game Arena's rule for leavers) and rates the others as played."""

from __future__ import annotations

import copy
import io
import random

import pytest
from harness import Harness
from PIL import Image
from test_discord_departures import _gone
from test_discord_play import open_game, pending

from bot.config import Settings
from bot.discord import ids
from bot.discord.departures import DEPARTED
from bot.service.stand_in import STAND_INS, STOOD_IN
from bot.sessions import AI_MOVE

HOUR = 3_600_000


def no_render(state, names):
    return None


def settings(**kw) -> Settings:
    base = {"discord_token": None, "reminder_hours": 0, "afk_hours": 5, "ai_iterations": 3, "ai_pause_ms": 1500}
    return Settings(**{**base, **kw})


async def fire_ai(h: Harness) -> int:
    """Let the AI's pause pass and fire what is due; returns how many AI move timers were waiting."""
    timers = [t for t in await h.store.timers() if t.kind == AI_MOVE]
    if timers:
        h.now_ms = max(h.now_ms, min(t.due_ms for t in timers))
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
    return len(timers)


def live_board(h: Harness) -> dict:
    """The channel's latest board message as it stands now (edits included)."""
    return next(m for m in reversed(h.messages_in(None)) if m["content"].startswith("**Tatari**"))


def labels(message: dict) -> list[str]:
    return [c.get("label") for row in message.get("components", []) for c in row["components"]]


async def afk_notice(h: Harness):
    """Let the AFK limit pass and return the notice posted."""
    h.advance(5 * HOUR)
    start = len(h.fake.sent)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    return next(s for s in h.fake.sent[start:] if "has not played" in (s.content or ""))


async def test_the_ai_plays_an_idle_seat_across_a_restart_until_its_owner_is_back(database):
    async with Harness(database, settings=settings(), render=no_render) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        await open_game(h, [alice, bob, carol])
        sid = (await pending(h)).session.id
        assert (await pending(h)).pending[0].player == alice.sid
        notice = await afk_notice(h)
        assert notice.buttons()[:2] == ["🤖 The AI plays for alice", "Remove alice"]
        assert "let the AI play for them until they are back" in notice.content

        outsider = h.user(160, "dave")
        reply = await h.click(outsider, notice, 0)
        assert reply.ephemeral() and "Only the other players, the host or a moderator" in reply.text
        reply = await h.click(alice, notice, 0)
        assert reply.ephemeral() and "You cannot remove yourself" in reply.text
        forged = ids.seat(sid, (await pending(h)).session.version, 1, "ai")  # bob is not idle: not waited for
        reply = await h.click(carol, notice, 0, custom_id=forged)
        assert reply.ephemeral() and "The game is not waiting for" in reply.text
        assert STAND_INS not in (await h.store.session(sid)).meta

        taken = len(h.fake.sent)
        reply = await h.click(bob, notice, 0)
        board = live_board(h)  # the live board, edited in place
        assert f"🤖 <@{alice.sid}> · AI stand-in" in board["content"]
        assert "<@102> let the AI play for <@101> until they are back" in board["content"]
        assert labels(board)[-2:] == ["I'm back (alice)", "Remove alice"]
        row = await h.store.session(sid)
        assert row.meta[STAND_INS] == [alice.sid] and row.meta[STOOD_IN] == [alice.sid]
        assert [t.payload["player"] for t in await h.store.timers(sid) if t.kind == AI_MOVE] == [alice.sid]
        reply = await h.click(bob, notice, 0)  # twice: the board moved on
        assert reply.ephemeral()

        # while the AI plays for her, alice's own moves are refused: "I'm back" first
        reply = await h.slash(alice, "move", option=(await pending(h)).pending[0].options[0].id)
        assert reply.ephemeral() and "press “I'm back”" in reply.text

        await h.restart()  # the AI's timer is in the store: it plays after a restart
        moves = len(await h.store.moves(sid))
        assert await fire_ai(h) == 1
        after = await h.store.moves(sid)
        assert len(after) > moves and after[moves].player == alice.sid

        # the absent player is never pinged while the AI plays for her; no reminder or AFK limit for her seat
        for sent in h.fake.sent[taken:]:
            assert int(alice.sid) not in ((sent.data or {}).get("allowed_mentions") or {}).get("users", [])
        assert not [t for t in await h.store.timers(sid) if t.payload.get("player") == alice.sid
                    and t.kind != AI_MOVE]

        # forged "I'm back": bob on alice's button, an outsider with a forged id; nothing changes
        board = copy.deepcopy(live_board(h))  # as the players saw it (the fake edits messages in place)
        reply = await h.click(bob, board, "I'm back (alice)")
        assert reply.ephemeral() and f"Only <@{alice.sid}> can take their seat back" in reply.text
        reply = await h.click(outsider, board, "I'm back (alice)", custom_id=ids.seat(sid, 0, 0, "back"))
        assert reply.ephemeral() and "Only <@101> can take their seat back" in reply.text
        reply = await h.click(bob, board, "I'm back (alice)", custom_id=ids.seat(sid, 0, 1, "back"))
        assert reply.ephemeral() and "You are playing your seat yourself already" in reply.text
        reply = await h.click(outsider, board, "Remove alice")
        assert reply.ephemeral() and "Only the other players or a moderator" in reply.text
        assert (await h.store.session(sid)).meta[STAND_INS] == [alice.sid]

        reply = await h.click(alice, board, "I'm back (alice)")
        assert not reply.ephemeral()
        back = live_board(h)
        assert "<@101> is back and plays their seat again" in back["content"] and "AI stand-in" not in back["content"]
        assert not [c for c in labels(back) if "I'm back" in c]
        row = await h.store.session(sid)
        assert row.meta[STAND_INS] == [] and row.meta[STOOD_IN] == [alice.sid]
        assert not [t for t in await h.store.timers(sid) if t.kind == AI_MOVE and t.payload["player"] == alice.sid]
        reply = await h.click(alice, board, "I'm back (alice)")  # twice
        assert reply.ephemeral() and "You are playing your seat yourself already" in reply.text


async def test_a_game_with_a_stand_in_is_rated_with_the_absent_player_last(database):
    async with Harness(database, settings=settings(), render=no_render) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        users = {u.sid: u for u in (alice, bob, carol)}
        await open_game(h, [alice, bob, carol])
        sid = (await pending(h)).session.id
        await h.click(bob, await afk_notice(h), 0)
        rng = random.Random(5)
        for _ in range(3000):
            row = await h.store.session(sid)
            if row.status != "active":
                break
            decision = (await pending(h)).pending[0]
            if decision.player == alice.sid:
                assert await fire_ai(h) == 1
            else:
                await h.choose(users[decision.player], rng.choice(decision.options).id, allow_move=False)
        record = await h.store.game_record(sid)
        assert record.outcome == "finished" and record.rated
        seats = {s.player_id: s for s in record.seats}
        assert seats[alice.sid].stand_in and seats[alice.sid].rank == 3 and not seats[alice.sid].won
        engine = [p for grp in (await h.store.session(sid)).meta["result"]["ranking"] for p in grp]
        others = [p for p in engine if p != alice.sid]  # the others keep their places as played
        assert [seats[p].rank for p in others] == [1, 2] or seats[others[0]].rank == seats[others[1]].rank == 1
        assert not seats[bob.sid].stand_in and seats[alice.sid].mu_after < seats[alice.sid].mu_before


@pytest.mark.parametrize("hours", [24])
async def test_a_departed_member_is_played_by_the_ai_and_may_be_removed(database, monkeypatch, hours):
    async with Harness(database, settings=settings(afk_hours=0, departure_grace_hours=hours),
                       render=no_render) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        await open_game(h, [alice, bob, carol])
        row = (await pending(h)).session
        _gone(h, monkeypatch, alice.sid)
        assert await h.bot.departures.noticed(row, alice.sid)
        await h.settle()
        assert any("the AI plays for them in 24 h unless they return" in (s.content or "") for s in h.fake.sent)
        assert [t.payload for t in await h.store.timers(row.id) if t.kind == DEPARTED] == [{"player": alice.sid}]
        h.advance(hours * HOUR)
        start = len(h.fake.sent)
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
        text = "\n".join(s.content or "" for s in h.fake.sent[start:])
        assert "<@101> left the server: the AI plays for them until they are back" in text
        assert (await h.store.session(row.id)).meta[STAND_INS] == [alice.sid]
        assert await fire_ai(h) == 1  # the game goes on
        assert (await h.store.moves(row.id))[-1].player == alice.sid
        board = live_board(h)
        reply = await h.click(carol, board, "Remove alice")
        assert reply.public() and "resigns" in reply.text
        assert (await h.store.moves(row.id))[-1].option == "__resign__"
        assert (await h.store.session(row.id)).status == "active"


@pytest.mark.parametrize(("pace", "hours", "said"), [("fast", 6, "6 h"), ("week", 7 * 24, "7 d")])
async def test_a_paced_game_offers_the_stand_in_at_its_pace_deadline_not_the_channels_afk_hours(database, pace, hours,
                                                                                                said):
    """A ``fast`` game (move due in 6 h) or a ``week`` game (in 7 days) in a channel whose AFK limit is 72 h: the
    notice comes at the pace's deadline and says it as a duration, and "The AI plays for X" is taken then (the idle
    limit is the game's pace, bot/service/pace.py)."""
    async with Harness(database, settings=settings(afk_hours=72), render=no_render) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        card = (await h.slash(alice, "play", game="tatari", pace=pace)).message(public=True)
        await h.click(bob, card, "Join")
        await h.click(alice, card, "Start")
        sid = (await pending(h)).session.id
        h.advance(hours * HOUR - 1000)
        start = len(h.fake.sent)
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
        assert not [s for s in h.fake.sent[start:] if "has not played" in (s.content or "")]
        h.advance(1000)
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
        notice = next(s for s in h.fake.sent[start:] if "has not played" in (s.content or ""))
        assert notice.content.startswith(f"💤 alice has not played for {said}. <@102>:")
        await h.click(bob, notice, "🤖 The AI plays for alice")
        assert (await h.store.session(sid)).meta[STAND_INS] == [alice.sid]


class NamesSeen:
    """A render function for the harness that keeps the names each board image was drawn with (a blank PNG)."""

    def __init__(self) -> None:
        self.names: list[dict] = []

    def __call__(self, state, names=None, **_kw) -> bytes:
        self.names.append(dict(names or {}))
        buf = io.BytesIO()
        Image.new("P", (8, 8)).save(buf, format="PNG")
        return buf.getvalue()


@pytest.mark.parametrize(("lang", "marked"), [("en", "alice · AI stand-in"), ("ja", "alice · AIの代打ち")])
async def test_the_stand_in_seat_is_named_on_the_board_image_its_alt_text_and_the_board_text(database, lang, marked):
    seen = NamesSeen()
    async with Harness(database, settings=settings(), render=seen) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        await open_game(h, [alice, bob, carol])
        await h.settle()
        assert seen.names[-1] == {"101": "alice", "102": "bob", "103": "carol"}
        notice = await afk_notice(h)
        if lang == "ja":  # the table speaks Japanese from here
            await h.slash(h.user(190, "mod", moderator=True), "settings", language="ja")
        start = len(h.fake.sent)
        await h.click(bob, notice, 0)
        await h.settle()
        assert seen.names[-1] == {"101": "🤖 " + marked, "102": "bob", "103": "carol"}  # the mark, then the words
        alts = [a["description"] for s in h.fake.sent[start:] for a in (s.data or {}).get("attachments") or []
                if isinstance(a.get("id"), int)]
        assert alts and marked in alts[-1] and "🤖" not in alts[-1], alts
        board = next(m for m in reversed(h.messages_in(None)) if "🤖 <@101>" in m["content"])
        assert f"🤖 <@101> · {marked.split(' · ')[1]}" in board["content"]
        await h.click(alice, copy.deepcopy(board), 0,
                      custom_id=ids.seat((await pending(h)).session.id, 0, 0, "back"))
        await h.settle()
        assert seen.names[-1] == {"101": "alice", "102": "bob", "103": "carol"}  # back: her own name again
