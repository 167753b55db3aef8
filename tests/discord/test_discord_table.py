"""The table in the channel, through the real discord.py stack: one live message per turn (a press by the
deciding player updates it in place; a new message only when the decision passes to another player or a race opens),
pings only for the player whose turn starts, ``/board`` ephemeral by default (public with a cooldown; never a ping,
never a timer), ``/board`` and ``/history`` after the end, races untouched by other inputs, "How to play" one click
away, and option labels keyed like the board's markers."""

from __future__ import annotations

import random

import fakegame
import pytest
from harness import Harness, Sent
from test_discord_play import open_game, pending, play_turn
from test_discord_tatamokatsu_races import E_SHOUT, SHOUT, no_render, roll, table

import games
from bot.board_text import HOW_TO_ANSWER, option_label
from bot.config import Settings
from bot.discord.play import BOARD_COOLDOWN_MS
from bot.discord.present import board_view, clip
from bot.store import SessionRow
from games import Decision, Option


@pytest.fixture
async def h(database):
    settings = Settings(discord_token=None, reminder_hours=2, afk_hours=5)
    async with Harness(database, settings=settings) as harness:
        yield harness


def created(reply) -> list[Sent]:
    """The public messages a reply created (not edits, not the component's own update)."""
    return [s for s in reply if not s.ephemeral and (s.kind in ("message", "followup") or (
        s.kind == "response" and s.type == 4))]


def pinged(sent: Sent) -> set[str]:
    allowed = sent.data.get("allowed_mentions") or {}
    assert "users" not in (allowed.get("parse") or []), allowed  # every board names whom it may notify
    return {str(u) for u in allowed.get("users") or []}


async def same_turn_press(h: Harness, users: dict, rng: random.Random):
    """Press until a press leaves the decision with the same player (Tatari: set aside, then continue)."""
    for _ in range(50):
        before = await pending(h)
        player = before.pending[0].player
        board_id = h.board()["id"]
        reply = await play_turn(h, users, rng)
        after = await pending(h)
        if after.session.status == "active" and after.pending[0].player == player:
            return before, after, board_id, reply
    raise AssertionError("no press kept the turn")


async def test_a_press_within_the_turn_edits_the_live_message(h):
    """While the same player keeps deciding, the press's own update edits the board message in place
    (image, text, components); nothing is posted, nobody is pinged; the turn's events accumulate."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    rng = random.Random(3)
    before, after, board_id, reply = await same_turn_press(h, users, rng)
    assert created(reply) == []
    [update] = [s for s in reply if s.kind == "response"]
    assert update.type == 7 and update.message["id"] == board_id  # the component interaction's own update
    assert update.files and update.files[0][1].startswith(b"\x89PNG")
    assert f"board v{after.session.version}" in update.content
    choices = [c for c in update.custom_ids() if c.startswith(("pbc:c:", "pbc:m:", "pbc:g:"))]
    assert choices and all(f":{after.session.version}:" in c for c in choices)
    assert pinged(update) == set()
    # a second press in the same turn: the lines of both presses are on the one message
    lines_first = [line for line in update.content.split("\n") if line.startswith("• ")]
    reply = await play_turn(h, users, rng)
    if (await pending(h)).pending and (await pending(h)).pending[0].player == before.pending[0].player:
        second = [s for s in reply if s.kind == "response"][0]
        assert second.message["id"] == board_id and created(reply) == []
        assert all(line in second.content for line in lines_first)


async def test_the_next_turn_is_a_new_message_that_pings_only_the_next_player(h):
    """When the decision passes to another player, a new board is posted; it notifies that player
    only (never the clicker, whose name in the events stays silent); the previous board keeps its image and text
    but loses its components and prompt."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    rng = random.Random(5)
    for _ in range(60):
        before = await pending(h)
        clicker = before.pending[0].player
        old_id = h.board()["id"]
        reply = await play_turn(h, users, rng)
        after = await pending(h)
        if after.pending and after.pending[0].player != clicker:
            break
    else:
        raise AssertionError("the turn never passed")
    [new] = created(reply)
    nxt = after.pending[0].player
    assert pinged(new) == {nxt} and f"<@{nxt}>" in new.content
    assert new.message["id"] != old_id and new.custom_ids()
    [retire] = [s for s in reply if s.kind == "response"]
    assert retire.type == 7 and retire.message["id"] == old_id and not retire.components
    old = h.fake.messages[int(old_id)]
    assert old["attachments"] and not old["components"] and "➡️" not in old["content"]
    # the next player's own press never pings them
    reply = await play_turn(h, users, rng)
    assert all(nxt not in pinged(s) for s in created(reply))


async def test_board_by_an_outsider_is_ephemeral_pings_nobody_and_leaves_timers(h):
    """/board is ephemeral for anyone; an outsider gets no buttons; nobody is pinged, the live board
    keeps its components, the reminder and AFK timers are untouched (an idle player cannot postpone removal)."""
    alice, bob, mallory = h.user(101, "alice"), h.user(102, "bob"), h.user(199, "mallory")
    await open_game(h, [alice, bob])
    update = await pending(h)
    timers = [(t.id, t.kind, t.due_ms) for t in await h.store.timers(update.session.id)]
    assert {k for _, k, _ in timers} == {"reminder", "afk"}
    live = h.board()
    h.advance(3_600_000)
    for who in (mallory, alice, bob):
        start = len(h.fake.sent)
        reply = await h.slash(who, "board")
        assert reply.public() == [] and len(reply.ephemeral()) == 1, reply.text
        board = reply.ephemeral()[0]
        assert board.files and pinged(board) == set()
        mine = who.sid == update.pending[0].player
        assert bool([c for c in board.custom_ids() if c.startswith("pbc:c:")]) == mine, who.name
        assert all(s.ephemeral for s in h.fake.sent[start:])  # the live board is not touched
    assert h.board() == live
    assert [(t.id, t.kind, t.due_ms) for t in await h.store.timers(update.session.id)] == timers
    # the player whose decision it is can answer from their private board: the live message is updated
    decider = alice if update.pending[0].player == alice.sid else bob
    private = (await h.slash(decider, "board")).ephemeral()[0]
    cid = next(c for c in private.custom_ids() if c.startswith("pbc:c:"))
    reply = await h.click(decider, private, cid)
    assert (await pending(h)).session.version == update.session.version + 1
    assert any(s.kind == "edit" and s.message["id"] == live["id"] for s in reply) or created(reply)


async def test_board_public_by_a_seated_player_with_a_cooldown(h):
    """Public:true is for seated players, once a minute per channel; it pings nobody and does not
    become the live board (no components)."""
    alice, bob, mallory = h.user(101, "alice"), h.user(102, "bob"), h.user(199, "mallory")
    await open_game(h, [alice, bob])
    live = h.board()
    reply = await h.slash(mallory, "board", public=True)
    assert reply.public() == [] and "Only the players" in reply.text
    reply = await h.slash(bob, "board", public=True)
    [shown] = created(reply)
    assert shown.files and not shown.custom_ids() and pinged(shown) == set()
    assert h.board() == live
    h.advance(BOARD_COOLDOWN_MS - 1000)
    reply = await h.slash(alice, "board", public=True)
    assert reply.public() == [] and "again in 1 s" in reply.text
    h.advance(1000)
    assert created(await h.slash(alice, "board", public=True))


async def test_board_full_and_the_full_board_button(h):
    """The whole board is offered beside the decision's view: /board full:true and the "Full board"
    button, both ephemeral."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    board = await open_game(h, [alice, bob])
    assert "Full board" in board.buttons() and "How to play" in board.buttons()
    reply = await h.click(bob, board, "Full board")
    assert reply.public() == [] and reply.ephemeral()[0].files
    reply = await h.slash(bob, "board", full=True)
    assert reply.public() == [] and reply.ephemeral()[0].files


async def test_how_to_play_on_the_lobby_card_and_the_board(h):
    """"How to play" answers ephemerally with the game's overview (``rules_help[""]``) and a topic
    select; picking a topic edits that answer. The first board says in one line how to answer; later ones do not."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    tatari = games.get("tatari")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    reply = await h.click(bob, card, "How to play")
    [answer] = reply.ephemeral()
    assert reply.public() == [] and tatari.rules_help[""][:60] in answer.content
    topics = [o["value"] for o in answer.components[0]["options"]]
    assert topics[0] == "-" and set(topics[1:]) == {t for t in tatari.rules_help if t}
    reply = await h.select(bob, answer, 0, ["bust"])
    [edited] = [s for s in reply if s.kind == "response"]
    assert edited.type == 7 and tatari.rules_help["bust"][:60] in edited.content
    await h.click(bob, card, "Join")
    first = (await h.click(alice, card, "Start")).message(public=True, with_components=True)
    assert HOW_TO_ANSWER in first.content and "How to play" in first.buttons()
    rng, posted = random.Random(1), []
    while not posted:
        posted = created(await play_turn(h, {alice.sid: alice, bob.sid: bob}, rng))
    assert all(HOW_TO_ANSWER not in s.content for s in posted)  # the next turns' boards do not repeat it
    reply = await h.click(bob, card, "How to play")  # the card's button still answers after the start
    assert tatari.rules_help[""][:60] in reply.text


async def test_first_board_shows_setup_events(database):
    """With ``Game.begin``, the start Update carries setup's events; the first board shows them."""
    async with Harness(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        first = await open_game(h, [alice, bob], game="tatsumi")
        update = await pending(h)
        game = games.get("tatsumi")
        opening = game.begin(list(update.session.players), update.session.options, update.session.seed)
        for e in opening.events:
            assert e.text.split("{")[0][:20] in first.content
        assert "Tatsumi begins!" in first.content


async def test_ping_mode_off_and_a_muted_player(h):
    """/settings pings:off (moderators) silences turn pings in the channel; /pings turn:off (any
    member, stored per member) silences that member's."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    mod = h.user(150, "mod", moderator=True)
    reply = await h.slash(bob, "settings", pings="off")
    assert "Only members with Manage" in reply.text
    reply = await h.slash(bob, "pings", turn="off")
    assert reply.text == "Saved. Your turn pings: off, in every channel."
    assert await h.bot.links.muted([bob.sid, alice.sid]) == {bob.sid}
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    sid = (await pending(h)).session.id
    rng = random.Random(2)

    async def play(turns: int) -> list[set[str]]:
        seen: list[set[str]] = []
        for _ in range(turns):
            if (await h.store.session(sid)).status != "active":
                break
            seen += [pinged(s) for s in created(await play_turn(h, users, rng))]
        return seen

    seen = await play(40)
    assert {alice.sid} in seen and all(bob.sid not in p for p in seen)
    reply = await h.slash(mod, "settings", pings="off")
    assert "pings off" in reply.text
    await h.slash(bob, "pings", turn="on")
    seen = await play(40)
    assert seen and all(p == set() for p in seen)


async def test_board_and_history_after_the_end(database):
    """After the game ended, /board shows the final board and result, /history the whole game."""
    fakegame.register()
    try:
        async with Harness(database) as h:
            alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
            await open_game(h, [alice, bob], game="racer", options="n=3 rounds=1 window_ms=1000")
            await h.click(alice, h.board(), "Number 2")
            h.advance(200)
            row = await h.store.live_session(str(h.channel_id))
            await h.say(bob, "shout")
            assert (await h.store.session(row.id)).status == "finished"
            reply = await h.slash(carol, "board")
            [board] = reply.ephemeral()
            assert reply.public() == [] and "Game over" in board.content and not board.custom_ids()
            reply = await h.slash(carol, "history")
            assert "picks Number 2" in reply.text and "wins the race" in reply.text
    finally:
        fakegame.unregister()


@pytest.mark.parametrize("restart", [False, True])
async def test_a_race_keeps_its_buttons_whatever_else_happens(database, restart):
    """During a race window (also after a restart inside it), /board (private or public), /history,
    /move of a race option that does not end it and chatter never strip the roll message's buttons nor add
    reactions to another message."""
    async with Harness(database, render=no_render) as h:
        alice, bob, carol, dave = await table(h)
        msg, _ = await roll(h, alice, "1/10", "1/10", "6")
        race_id = msg.message["id"]
        if restart:
            await h.restart()
        start = len(h.fake.sent)
        await h.slash(bob, "board")
        await h.slash(carol, "board", public=True)
        await h.slash(dave, "history")
        await h.say(carol, "nice roll")
        await h.slash(bob, "move", option="salute")
        after = h.fake.sent[start:]
        assert not [s for s in after if s.kind in ("edit", "edit_original") and race_id in s.path]
        assert not [s for s in after if "reactions" in s.path]
        race = h.fake.messages[int(race_id)]
        assert SHOUT in [c.get("label") for row in race["components"] for c in row["components"]]
        assert E_SHOUT in race["content"]


def test_labels_start_with_the_board_marker_key():
    """Options with a ``locus`` get the key ``games.marker_keys`` gives them on buttons and select
    options ("2 · C3-n"); options sharing a place share a key; options without one keep their label."""
    d = Decision(player="1", kind="place", prompt="Place", options=[
        Option(id="a", label="C3-n", locus="C3"), Option(id="b", label="D1-s", locus="D1"),
        Option(id="c", label="C3-e", locus="C3"), Option(id="pass", label="Pass")])
    assert [option_label(d, i, {}) for i in range(4)] == ["1 · C3-n", "2 · D1-s", "1 · C3-e", "Pass"]
    row = SessionRow(id=1, channel_id="1", guild_id=None, game_id="tatari", status="active", host="1",
                     players=["1"], options={}, seed=1, state=None, version=3, move_count=0, meta={},
                     created_ms=0, updated_ms=0)
    view = board_view(row, [d], {})
    labels = [getattr(item.item, "label", None) for item in view.children]
    assert labels[:4] == ["1 · C3-n", "2 · D1-s", "1 · C3-e", "Pass"]
    big = Decision(player="1", kind="place", prompt="Place", options=[
        Option(id=f"o{i}", label=f"spot {i}", locus=f"L{i}") for i in range(24)])
    [select] = [item for item in board_view(row, [big], {}).children if hasattr(item, "item")
                and getattr(item.item, "options", None)]
    assert [o.label for o in select.item.options][:2] == ["1 · spot 0", "2 · spot 1"]


def test_old_event_lines_fold_into_n_earlier():
    """The live message stays within Discord's 2000 characters; the oldest event lines fold into
    "… N earlier", the title, the status and the prompt stay."""
    lines = ["**Game** · board v9"] + [f"• event {i} " + "x" * 80 for i in range(40)] + ["-# status", "➡️ prompt"]
    text = clip(lines, head=1, tail=2)
    assert len(text) <= 2000
    out = text.split("\n")
    assert out[0] == lines[0] and out[-2:] == ["-# status", "➡️ prompt"]
    dropped = int(out[1].split()[1])
    assert out[1] == f"… {dropped} earlier" and out[2] == lines[1 + dropped] and out[-3] == lines[40]

