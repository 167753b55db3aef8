"""Tatamokatsu races through Discord (RULINGS TK-10): buttons, reactions and typed words on one clock,
the window anchored at the roll message, durable windows across a restart, one result message per window, and the
acceptance cases TK-A..TK-F played through the harness (dice forced through the stored state, C-1)."""

from __future__ import annotations

import itertools
import json

import pytest
from harness import DISCORD_EPOCH_MS, Harness, Reply, iso
from test_discord_play import open_game

import games
from bot.discord.play import snowflake_ms

EXTRAS = ["How to play", "Full board"]  # the last row of every board
SHOUT, GRAB, KATANA, SALUTE = "Shout Tatamokatsu!", "Grab the T die", "Katana!", "Salute: Hai!"
E_SHOUT, E_GRAB, E_KATANA, E_SALUTE = "\N{CHEERING MEGAPHONE}", "\N{RAISED FIST}", "\N{DAGGER KNIFE}", \
    "\N{PERSON BOWING DEEPLY}"


def no_render(state, names):
    return None  # board images are not what these tests look at (and keep them fast)


@pytest.fixture
async def h(database):
    async with Harness(database, render=no_render) as harness:
        yield harness


def lag(h: Harness, ms: int) -> None:
    """Every snowflake from now on is ``ms`` older than its delivery (a gateway delay of ``ms``)."""
    seq = itertools.count(1_000)
    h.snowflake = lambda: ((h.now_ms - ms - DISCORD_EPOCH_MS) << 22) | (next(seq) & 0x3FFFFF)


def message_payload(h: Harness, user, content: str, created_ms: int) -> dict:
    """A MESSAGE_CREATE created at ``created_ms`` on Discord's clock (delivered whenever it is fed)."""
    mid = ((created_ms - DISCORD_EPOCH_MS) << 22) | 77
    return {
        "id": str(mid), "channel_id": str(h.channel_id), "guild_id": str(h.guild_id), "author": user.payload(),
        "member": {k: v for k, v in user.member(h.now_ms).items() if k != "user"}, "content": content,
        "timestamp": iso(created_ms), "edited_timestamp": None, "tts": False, "mention_everyone": False,
        "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": False, "type": 0,
        "flags": 0, "components": [],
    }


async def feed_message(h: Harness, payload: dict) -> Reply:
    return await h._feed(h.bot._connection.parse_message_create, json.loads(json.dumps(payload)))


async def table(h: Harness, n: int = 4, options: str | None = None):
    users = [h.user(101 + i, name) for i, name in enumerate(["alice", "bob", "carol", "dave", "erin"][:n])]
    await open_game(h, users, game="tatamokatsu", options=options)
    return users


async def state(h: Harness):
    return (await h.bot.service.show(str(h.channel_id))).state


async def force(h: Harness, *faces: str, fingers: dict[str, int] | None = None):
    """Queue the next dice in the stored state (C-1) and post a fresh board (its Roll button is current)."""
    row = await h.store.live_session(str(h.channel_id))
    s = games.force(h.bot.service.state_of(row), *faces)
    if fingers:
        s.fingers.update(fingers)
    await h.store.update_session(row.id, row.version, state=s.model_dump_json())


async def roll(h: Harness, roller, *faces: str, fingers: dict[str, int] | None = None):
    """Force ``faces``, press Roll; returns the roll message (a Sent) and its Discord time (the window's start)."""
    await force(h, *faces, fingers=fingers)
    board = (await h.slash(roller, "board")).message(with_components=True)  # ephemeral, with the roller's buttons
    reply = await h.click(roller, board, "Roll the dice")
    msg = reply.message(public=True)
    return msg, snowflake_ms(int(msg.message["id"]))


async def close(h: Harness) -> Reply:
    """Let the window's durable timer fire (the dispatcher's tick at the deadline)."""
    s = await state(h)
    h.now_ms = max(h.now_ms, s.deadline_ms + h.bot.timers.grace())
    start = len(h.fake.sent)
    assert await h.bot.timers.fire_due(h.now_ms) >= 1
    await h.settle()
    return Reply(h.fake.sent[start:])


def posts(reply: Reply) -> list:
    """The new public messages of a reply (not the edits that strip an old board's buttons)."""
    return [s for s in reply.public() if s.kind != "edit"]


def at(h: Harness, t0: int, ms: int) -> None:
    h.now_ms = t0 + ms


def fingers(s, users) -> list[int]:
    return [s.fingers[u.sid] for u in users]


async def moves(h: Harness):
    row = await h.store.live_session(str(h.channel_id)) or await h.store.last_session(str(h.channel_id))
    return [(m.player, m.option, m.at_ms) for m in await h.store.moves(row.id)]


# -- the roll message: buttons, reactions, the window anchored at its snowflake (TK-10) --------------------------
async def test_roll_message_gets_reactions_buttons_and_anchors_the_window(h):
    alice, bob, carol, dave = await table(h)
    msg, t_msg = await roll(h, alice, "1/10", "1/10", "6")
    assert {SHOUT, GRAB, KATANA, SALUTE} <= set(msg.buttons())
    # race buttons carry no board version; the help row is there too
    assert all(cid.startswith(("pbc:r:", "pbc:h:", "pbc:f:")) for cid in msg.custom_ids())
    sid = (await h.store.live_session(str(h.channel_id))).id
    assert [c for c in msg.custom_ids() if not c.startswith("pbc:r:")] == ["pbc:h:tatamokatsu", f"pbc:f:{sid}"]
    for e in (E_SHOUT, E_GRAB, E_KATANA, E_SALUTE):
        assert e in msg.content
    puts = [s for s in h.fake.sent if s.method == "PUT" and "/reactions/" in s.path]
    assert len(puts) == 4 and all(msg.message["id"] in s.path for s in puts)
    s = await state(h)
    assert s.window_open_ms == s.roll_ms == t_msg and s.deadline_ms == t_msg + 8000 and s.anchored
    log = await moves(h)
    assert log[-2][:2] == (alice.sid, "roll") and log[-2][2] <= t_msg
    assert log[-1] == (None, "open", t_msg)  # logged like any move: replay is exact
    row = await h.store.live_session(str(h.channel_id))
    timers = await h.store.timers(row.id)
    assert [t.due_ms for t in timers if t.kind == "deadline"] == [t_msg + 8000]


async def test_whole_race_buttons_reactions_and_typed_words_mixed(h):
    """TK-A through Discord: bob's button at +1200, carol's reaction at +1350, dave types at +1500; ONE result
    message says bob was first by 150 ms; bob strikes."""
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    at(h, t0, 1200)
    reply = await h.click(bob, msg, SHOUT)
    assert not reply.public() and reply.ephemeral() and "+1200 ms" in reply.text  # counted, told only to bob
    at(h, t0, 1350)
    assert not (await h.react(carol, int(msg.message["id"]), E_SHOUT)).public()
    at(h, t0, 1500)
    assert not (await h.say(dave, "Tatamokatsu!")).public()
    s = await state(h)
    assert s.inputs == {bob.sid: {"shout": t0 + 1200}, carol.sid: {"shout": t0 + 1350},
                        dave.sid: {"shout": t0 + 1500}}
    reply = await close(h)
    public = posts(reply)
    assert len(public) == 1  # ONE message after the window (the old board only loses its buttons)
    first_line = public[0].content.splitlines()[1]
    assert first_line == "⏱️ **<@102> shouted first (+1200 ms), 150 ms ahead of <@103>.**"
    await h.choose(bob, "attack", allow_move=False)
    s = await state(h)
    assert fingers(s, users) == [4, 5, 4, 4]


async def test_reaction_received_later_but_mapped_earlier_wins(h):
    """One clock (TK-10): with a 300 ms gateway delay, carol's reaction received at +1250 counts at +950 on
    Discord's clock, ahead of bob's button pressed at +1000 (received at +1300)."""
    lag(h, 300)
    alice, bob, carol, dave = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    assert h.bot.races.clock.delay() == 300
    at(h, t0, 1250)
    await h.react(carol, int(msg.message["id"]), E_SHOUT)  # received after bob pressed (+1000), mapped before
    at(h, t0, 1300)
    await h.click(bob, msg, SHOUT)  # pressed at +1000 on Discord's clock
    s = await state(h)
    assert s.inputs == {bob.sid: {"shout": t0 + 1000}, carol.sid: {"shout": t0 + 950}}
    # the deadline is on Discord's clock: locally it passes 300 ms later, and the timer waits for that
    h.now_ms = s.deadline_ms
    assert h.bot.timers.grace() == 300 and await h.bot.timers.fire_due(h.now_ms) == 0
    reply = await close(h)
    assert "<@103> shouted first (+950 ms), 50 ms ahead of <@102>" in reply.message(public=True).content
    assert (await state(h)).winner == carol.sid


async def test_inputs_arriving_out_of_order(h):
    """A typed shout created at +900 but delivered at +1500, after bob's button at +1000: the message's snowflake
    counts, so carol wins; a message created before the roll message existed does not count."""
    alice, bob, carol, dave = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    at(h, t0, 1000)
    await h.click(bob, msg, SHOUT)
    at(h, t0, 1500)
    await feed_message(h, message_payload(h, carol, "tatamokatsu", t0 + 900))
    await feed_message(h, message_payload(h, dave, "tatamokatsu", t0 - 5))  # before the window opened
    s = await state(h)
    assert s.inputs == {bob.sid: {"shout": t0 + 1000}, carol.sid: {"shout": t0 + 900}}
    reply = await close(h)
    assert "<@103> shouted first (+900 ms), 100 ms ahead of <@102>" in reply.text


async def test_window_closes_across_a_restart(database):
    h = Harness(database, render=no_render)
    await h.open()
    try:
        await _window_closes_across_a_restart(h)
    finally:
        await h.close()


async def _window_closes_across_a_restart(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "2", "3", "4")
    at(h, t0, 400)
    await h.click(carol, msg, SHOUT)  # a mistake: no Tatamokatsu (TK-8)
    old = h.bot
    await h.restart()
    assert h.bot is not old
    at(h, t0, 700)
    reply = await h.click(bob, msg, KATANA)  # the old message's race buttons still work after the restart
    assert reply.ephemeral() and "+700 ms" in reply.text
    at(h, t0, 900)
    await h.react(dave, int(msg.message["id"]), E_SALUTE)  # reactions on the roll message too (board link)
    assert (await state(h)).inputs[dave.sid] == {"salute": t0 + 900}
    reply = await close(h)
    text = reply.message(public=True).content
    # TK-11: mistakes are listed as mistakes, never as "first"
    assert "⏱️ **Mistakes: <@103> shouted (+400 ms) and <@102> did a Katana (+700 ms).**" in text
    s = await state(h)
    assert fingers(s, users) == [4, 4, 4, 5]  # alice: sum 9; carol: mistake; bob: Katana without triples


async def test_bots_and_players_not_seated_are_ignored(h):
    alice, bob, carol, dave = await table(h)
    robot, eve = h.user(199, "robot", bot=True), h.user(150, "eve")
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    before = await moves(h)
    at(h, t0, 300)
    assert not await h.say(robot, "tatamokatsu")
    assert not await h.react(robot, int(msg.message["id"]), E_SHOUT)
    assert not await h.click(robot, msg, SHOUT)  # no answer at all
    assert not await h.say(eve, "tatamokatsu")
    assert not await h.react(eve, int(msg.message["id"]), E_SHOUT)  # no reply for reactions
    reply = await h.click(eve, msg, SHOUT)
    assert reply.ephemeral() and "not playing" in reply.text and not reply.public()
    assert await moves(h) == before and (await state(h)).inputs == {}


async def test_stale_and_duplicated_inputs_apply_once(h):
    alice, bob, carol, dave = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    at(h, t0, 500)
    payload = message_payload(h, carol, "Tatamokatsu", t0 + 500)
    await feed_message(h, payload)
    await feed_message(h, payload)  # the gateway delivered it twice
    at(h, t0, 600)
    await h.react(bob, int(msg.message["id"]), E_SHOUT)
    await h.react(bob, int(msg.message["id"]), E_SHOUT)
    at(h, t0, 700)
    await h.click(dave, msg, SHOUT)
    at(h, t0, 800)
    await h.click(dave, msg, SHOUT)  # a double press: the earlier time stays
    log = await moves(h)
    assert [m[:2] for m in log].count((carol.sid, "shout")) == 1
    assert [m[:2] for m in log].count((bob.sid, "shout")) == 1
    s = await state(h)
    assert s.inputs == {bob.sid: {"shout": t0 + 600}, carol.sid: {"shout": t0 + 500}, dave.sid: {"shout": t0 + 700}}
    await close(h)
    await h.choose(carol, "recover", allow_move=False)
    n = len(await moves(h))
    reply = await h.click(bob, msg, SHOUT)  # a button of a race that is over
    assert reply.ephemeral() and "out of date" in reply.text and not reply.public()
    assert not await h.react(bob, int(msg.message["id"]), E_GRAB)  # a reaction on an old race's message
    assert len(await moves(h)) == n


# -- the acceptance cases through Discord ------------------------------------------------------------------------
async def test_tk_a_first_shout_wins_and_strikes(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    at(h, t0, 1200)
    await h.say(bob, "tatamokatsu")
    at(h, t0, 1350)
    await h.click(carol, msg, SHOUT)
    reply = await close(h)
    assert "<@102> shouted first (+1200 ms), 150 ms ahead of <@103>" in reply.text
    await h.choose(bob, "attack", allow_move=False)
    s = await state(h)
    assert fingers(s, users) == [4, 5, 4, 4] and s.total is None  # no sum effect


async def test_tk_b_wrong_shout_and_sum_under_10(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "2", "3", "4")
    at(h, t0, 500)
    await h.react(carol, int(msg.message["id"]), E_SHOUT)
    await close(h)
    assert fingers(await state(h), users) == [4, 5, 4, 5]


async def test_tk_c_katana_and_salute(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "4", "4", "4")
    at(h, t0, 900)
    await h.click(alice, msg, KATANA)
    at(h, t0, 1500)
    await h.react(bob, int(msg.message["id"]), E_KATANA)
    at(h, t0, 2000)
    await h.say(dave, "Katana!")
    reply = await close(h)
    salute_board = reply.message(public=True)
    assert (await state(h)).phase == "salute" and salute_board.buttons() == [SALUTE, *EXTRAS]
    h.advance(300)
    await h.say(alice, "hai")
    h.advance(100)
    await h.react(carol, int(salute_board.message["id"]), E_SALUTE)
    h.advance(100)
    await h.click(dave, salute_board, SALUTE)
    reply = await close(h)
    assert len(posts(reply)) == 1
    assert fingers(await state(h), users) == [5, 4, 4, 5]


async def test_tk_d_dragon_resurrection(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "2", "5", "T", fingers={dave.sid: 0})
    at(h, t0, 700)
    await h.react(dave, int(msg.message["id"]), E_GRAB)
    at(h, t0, 800)
    await h.click(bob, msg, GRAB)
    reply = await close(h)
    assert "<@104> grabbed the T die first (+700 ms), 100 ms ahead of <@102>" in reply.text
    assert fingers(await state(h), users) == [5, 5, 5, 5]


async def test_tk_e_roller_fixes_the_die_and_picks_a_victim(h):
    alice, bob, carol, dave = users = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "3", "5")
    assert not {"1 (sum 9)", "10 (sum 18)"} & set(msg.buttons())  # TK-11: no count during the race
    reply = await close(h)
    assert "Nobody reacted in time." in reply.text
    board = reply.message(public=True)
    assert {"1 (sum 9)", "10 (sum 18)"} <= set(board.buttons())  # the count opens at the close (TK-11)
    reply = await h.click(bob, board, "10 (sum 18)")  # only the roller counts the dice
    assert reply.ephemeral() and reply.text == "It is not your turn: waiting for <@101>."
    await h.click(alice, board, "10 (sum 18)")
    update = await h.bot.service.show(str(h.channel_id))
    assert update.pending[0].kind == "victim" and update.pending[0].player == alice.sid
    assert [o.id for o in update.pending[0].options] == [f"victim:{u.sid}" for u in (bob, carol, dave)]
    await h.choose(alice, f"victim:{carol.sid}", allow_move=False)
    assert fingers(await state(h), users) == [5, 5, 4, 5]


async def test_tk_f_seventeen_is_never_offered(h):
    alice, bob, carol, dave = await table(h)
    msg, t0 = await roll(h, alice, "1/10", "1/10", "6")
    assert [b for b in msg.buttons() if "(sum" in b] == []  # TK-11: no count while the race is on
    reply = await close(h)
    fix = [b for b in reply.message(public=True).buttons() if "(sum" in b]
    assert fix == ["1+1 (sum 8)", "10+10 (sum 26)"]


# -- the opening input in the engine, and replay ---------------------------------------------------------------
def test_open_input_moves_the_window_once():
    from games import IllegalMove, Move

    g = games.get("tatamokatsu")
    s = games.force(g.setup(["a", "b", "c"], None, 1), "1/10", "1/10", "6")
    s = g.apply(s, Move(player="a", option="roll", at_ms=1000)).state
    assert g.opening(s) == "open" and g.race_key(s, g.pending(s)[0]) == "race.1"
    s = g.apply(s, Move(player="b", option="shout", at_ms=1010)).state  # before the message existed
    s = g.apply(s, Move(player="c", option="shout", at_ms=1200)).state
    with pytest.raises(IllegalMove):
        g.apply(s, Move(player=None, option="open", at_ms=999))  # never before the roll
    out = g.apply(s, Move(player=None, option="open", at_ms=1100))
    s = out.state
    assert (s.roll_ms, s.window_open_ms, s.deadline_ms, s.anchored) == (1100, 1100, 9100, True)
    assert s.inputs == {"c": {"shout": 1200}}
    assert out.events[0].data["dropped"] == [{"player": "b", "input": "shout", "at_ms": 1010}]
    assert g.opening(s) is None and g.race_key(s, g.pending(s)[0]) == "race.1"
    with pytest.raises(IllegalMove):
        g.apply(s, Move(player=None, option="open", at_ms=1150))  # once a roll
    with pytest.raises(IllegalMove):
        g.apply(s, Move(player="b", option="shout", at_ms=1050))  # outside the moved window
    with pytest.raises(IllegalMove):
        g.apply(s, Move(player=None, option="nonsense", at_ms=1150))


async def test_a_game_through_discord_replays_exactly_with_its_opening_inputs(h):
    """No forced dice: the seed and the move log (rolls, opening inputs, race inputs, timeouts) rebuild the state."""
    from bot.sessions import replay

    users = await table(h, 3)
    by_id = {u.sid: u for u in users}
    for _ in range(4):
        update = await h.bot.service.show(str(h.channel_id))
        if update.session.status != "active":
            break
        d = update.pending[0]
        if d.kind == "roll":
            msg = (await h.click(by_id[d.player], h.board(), "Roll the dice")).message(public=True)
            t0 = snowflake_ms(int(msg.message["id"]))
            at(h, t0, 250)
            await h.react(users[1], int(msg.message["id"]), E_SALUTE)
            at(h, t0, 400)
            await h.say(users[2], "hai")
            await close(h)
        elif d.player is None:
            await close(h)
        else:
            await h.slash(by_id[d.player], "move", option=d.options[0].id)
    row = await h.store.live_session(str(h.channel_id)) or await h.store.last_session(str(h.channel_id))
    log = await h.store.moves(row.id)
    assert any(m.player is None and m.option == "open" for m in log)
    assert replay(h.bot.service.game("tatamokatsu"), row.players, row.options, row.seed, log) == \
        h.bot.service.state_of(row)


async def test_a_crash_before_the_opening_input_is_repaired_on_restart(database):
    """The roll was committed and its message posted, but the process died before the opening input: on start-up
    the window opens at the last board message's time (its id is in the adapter's links)."""
    h = Harness(database, render=no_render)
    await h.open()
    try:
        alice, bob, carol, dave = await table(h)
        channel = str(h.channel_id)
        await h.bot.service.act(channel, alice.sid, "roll", at_ms=h.now_ms)  # committed, never posted
        row = await h.store.live_session(channel)
        h.advance(120)
        posted = h.snowflake()  # the roll message, posted 120 ms later; the crash came before the opening input
        await h.bot.links.update(row.id, board=[channel, str(posted)])
        assert (await state(h)).anchored is False
        await h.restart()
        s = await state(h)
        assert s.anchored and s.window_open_ms == snowflake_ms(posted) and s.deadline_ms == s.window_open_ms + 8000
        at(h, s.window_open_ms, 300)
        await h.react(bob, posted, E_SHOUT)  # reactions on that message count
        assert (await state(h)).inputs == {bob.sid: {"shout": s.window_open_ms + 300}}
    finally:
        await h.close()


async def test_every_timer_kind_fires_as_one_timer_event(h):
    """The dispatcher hands every ``on_<kind>_timer_complete`` listener the same :class:`Timer`: a race's deadline
    (with the update of the timeout move it produced) and a turn reminder alike (TK-10: the window closes at its
    deadline)."""
    from bot.discord.timers import REMINDER
    from bot.sessions import DEADLINE, Timer
    from games import TIMEOUT

    heard: list[Timer] = []

    async def listen(timer):
        heard.append(timer)

    h.bot.add_listener(listen, "on_deadline_timer_complete")
    h.bot.add_listener(listen, "on_reminder_timer_complete")
    alice, *_ = await table(h)
    _msg, t_msg = await roll(h, alice, "1/10", "1/10", "6")
    row = await h.store.live_session(str(h.channel_id))
    await h.bot.service.timers.clear(row.id, [REMINDER])
    await close(h)
    [deadline] = heard
    assert type(deadline) is Timer and deadline.kind == DEADLINE and deadline.due_ms == t_msg + 8000
    assert (deadline.channel_id, deadline.session_id) == (str(h.channel_id), row.id)
    assert deadline.update is not None and deadline.update.session.version == row.version + 1
    assert (await moves(h))[-1] == (None, TIMEOUT, t_msg + 8000)  # the timeout move the update reports
    after = await h.store.live_session(str(h.channel_id))
    await h.bot.service.timers.clear(row.id, [REMINDER])
    await h.bot.service.timers.add(row.channel_id, REMINDER, h.now_ms, {"version": after.version, "player": "x"},
                                   session_id=row.id)
    assert await h.bot.timers.fire_due(h.now_ms) == 1
    reminder = heard[1]
    assert type(reminder) is Timer and reminder.kind == REMINDER and reminder.update is None
    assert (reminder.channel_id, reminder.session_id, reminder.due_ms) == (str(h.channel_id), row.id, h.now_ms)
    assert reminder.payload == {"version": after.version, "player": "x"}
