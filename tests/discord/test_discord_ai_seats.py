"""AI seats at the Discord table: the lobby's Add AI / Remove AI and ``/play … ai:<n>`` with
every refusal, a whole Tsukimi game against the AI, a restart while the AI is to move, a stale AI search dropped,
an AI race input judged by its ``at_ms``, and an AI seat never mentioned as ``<@…>``."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import Executor, Future

import pytest
from harness import Harness
from test_discord_tatamokatsu_races import force

from bot.config import Settings
from bot.discord import ids
from bot.discord.play import snowflake_ms
from bot.sessions import AI_MOVE, AI_RACE, replay
from games.ai import MIN_REACTION_MS

PAUSE_MS = 1500


def no_render(state, names):
    return None  # images are looked at in test_ai_seat_names_on_the_board_image; here they would only be slow


def settings(**kw) -> Settings:
    """Harness settings with a small iteration budget for the AI (deterministic, fast)."""
    return Settings(discord_token=None, reminder_hours=12, afk_hours=0, ai_iterations=3, ai_pause_ms=PAUSE_MS, **kw)


@pytest.fixture
async def h(database):
    async with Harness(database, settings=settings(), render=no_render) as harness:
        yield harness


def never_pinged(h: Harness) -> None:
    """No message ever mentions an AI seat as a user (``<@ai…>``) or shows its raw id, and no allowed_mentions
    names anything but a Discord id."""
    for s in h.fake.sent:
        text = s.content
        assert "<@ai" not in text and not re.search(r"\bai:(easy|normal|strong):\d", text), text
        allowed = (s.data or {}).get("allowed_mentions") or {}
        assert all(str(u).isdigit() for u in allowed.get("users", [])), allowed


async def card_of(h: Harness, user, channel_id=None, **options):
    return (await h.slash(user, "play", channel_id=channel_id, **options)).message(public=True)


async def players(h: Harness, channel_id=None) -> list[str]:
    return (await h.store.live_session(str(channel_id or h.channel_id))).players


async def fire_ai(h: Harness) -> None:
    """Let the AI's pause pass and the dispatcher fire what is due (the search runs off the loop; settle waits)."""
    timers = [t for t in await h.store.timers() if t.kind in (AI_MOVE, AI_RACE)]
    assert timers, "no AI timer is waiting"
    h.now_ms = max(h.now_ms, min(t.due_ms for t in timers))
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()


# -- item 1: seats in the lobby ----------------------------------------------------------------------------------
async def test_add_and_remove_ai_in_the_lobby_with_every_refusal(h):
    """The host adds AI seats with the card's Add AI menu (named by level, numbered when two
    share one) and removes them before the start; a non-host, an unknown level, a full lobby and a running game
    are refused ephemerally and change nothing."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = await card_of(h, alice, game="tatari")
    sid = (await h.store.live_session(str(h.channel_id))).id
    assert ids.add_ai(sid) in card.custom_ids() and ids.remove_ai(sid) not in card.custom_ids()
    menu = next(c for c in card.components if c.get("custom_id") == ids.add_ai(sid))
    assert [o["value"] for o in menu["options"]] == ["easy", "normal", "strong"]

    reply = await h.select(bob, card, ids.add_ai(sid), ["strong"])  # not the host
    assert reply.ephemeral() and "Only the host" in reply.text and await players(h) == [alice.sid]

    reply = await h.select(alice, card, ids.add_ai(sid), ["strong"])
    assert reply[-1].type == 7 and "AI · Strong" in reply[-1].content
    reply = await h.select(alice, card, ids.add_ai(sid), ["strong"])
    assert "2. AI · Strong" in reply[-1].content and "3. AI · Strong 2" in reply[-1].content
    assert await players(h) == [alice.sid, "ai:strong:1", "ai:strong:2"]

    reply = await h.select(alice, card, ids.add_ai(sid), ["ultra"])  # a forged value: an unknown level
    assert reply.ephemeral() and "There is no AI level 'ultra'" in reply.text
    assert len(await players(h)) == 3

    updated = h.fake.messages[int(card.message["id"])]  # the card as edited: it has the Remove AI menu now
    assert any(c.get("custom_id") == ids.remove_ai(sid) for row in updated["components"] for c in row["components"])
    reply = await h.select(bob, updated, ids.remove_ai(sid), ["ai:strong:1"])
    assert reply.ephemeral() and "Only the host" in reply.text and len(await players(h)) == 3
    reply = await h.select(alice, updated, ids.remove_ai(sid), [bob.sid])  # not an AI seat
    assert reply.ephemeral() and "not an AI player" in reply.text and len(await players(h)) == 3
    reply = await h.select(alice, updated, ids.remove_ai(sid), ["ai:strong:1"])
    assert reply[-1].type == 7 and await players(h) == [alice.sid, "ai:strong:2"]

    # a full lobby (Tsukimi seats two) and a running game
    other = h.channel_id + 5
    card2 = await card_of(h, alice, channel_id=other, game="tsukimi", ai=1)
    assert await players(h, other) == [alice.sid, "ai:normal:1"]
    sid2 = (await h.store.live_session(str(other))).id
    reply = await h.select(alice, card2, ids.add_ai(sid2), ["easy"])
    assert reply.ephemeral() and "The lobby is full" in reply.text and len(await players(h, other)) == 2
    await h.click(alice, card2, "Start")
    reply = await h.select(alice, card2, ids.add_ai(sid2), ["easy"])
    assert reply.ephemeral() and "The game is running" in reply.text
    reply = await h.select(alice, card2, ids.add_ai(sid2), ["easy"])
    assert len((await h.store.session(sid2)).players) == 2
    never_pinged(h)


async def test_play_with_ai_seats_and_its_refusals(h):
    """``/play <game> ai:<n> [level:<level>]`` seats n AIs at once; an unknown level, too many
    AIs for the table, and ``level`` without ``ai`` are refused and open nothing. Tatsumi solo stays solo."""
    alice = h.user(101, "alice")
    reply = await h.slash(alice, "play", game="tatari", ai=1, level="ultra")
    assert reply.ephemeral() and "There is no AI level 'ultra'. Levels: easy, normal, strong." in reply.text
    reply = await h.slash(alice, "play", game="tsukimi", ai=2)
    assert reply.ephemeral() and "room for 1 AI player beside you, not 2" in reply.text
    reply = await h.slash(alice, "play", game="tatsumi", options="solo=true", ai=1)
    assert reply.ephemeral() and "room for 0 AI players" in reply.text
    reply = await h.slash(alice, "play", game="tatari", level="easy")
    assert reply.ephemeral() and "level: goes with ai:<n>" in reply.text
    assert await h.store.live_session(str(h.channel_id)) is None  # nothing was opened
    card = await card_of(h, alice, game="tatari", ai=3, level="Strong")
    assert await players(h) == [alice.sid, "ai:strong:1", "ai:strong:2", "ai:strong:3"]
    for name in ("AI · Strong", "AI · Strong 2", "AI · Strong 3"):
        assert name in card.content
    solo = await card_of(h, alice, channel_id=h.channel_id + 1, game="tatsumi", options="solo=true")
    assert not any(c["custom_id"].startswith("pbc:a:") for c in solo.components)  # no Add AI in a solo lobby
    never_pinged(h)


# -- items 1 and 2: a whole game against the AI ----------------------------------------------------------------
async def test_tsukimi_against_the_ai_to_the_end(h):
    """``/play tsukimi ai:1`` then a whole game, the AI moving through its durable ``ai_move`` timers
    (written with the move that gave it the turn, due after the pause); every move is in the log (replay is
    exact); the AI seat is never pinged and gets no turn reminder."""
    alice = h.user(101, "alice")
    card = await card_of(h, alice, game="tsukimi", ai=1, level="strong")
    board = (await h.click(alice, card, "Start")).message(public=True)
    row = await h.store.live_session(str(h.channel_id))
    rng = random.Random(5)
    ai_moves = 0
    for _ in range(400):
        update = await h.bot.service.show(str(h.channel_id)) if row.status == "active" else None
        if update is None:
            break
        decision = update.pending[0]
        kinds = {t.kind for t in await h.store.timers(row.id)}
        if decision.player == alice.sid:
            assert AI_MOVE not in kinds
            await h.choose(alice, rng.choice(decision.options).id, allow_move=False)
        else:
            assert decision.player == "ai:strong:1"
            shown = [m for m in h.messages_in() if not m.get("flags", 0) & 64][-1]  # the board of the AI's turn
            custom = [c.get("custom_id", "") for r in shown["components"] for c in r["components"]]
            assert custom and not [c for c in custom if c.startswith(("pbc:c:", "pbc:m:", "pbc:g:"))], custom
            [timer] = [t for t in await h.store.timers(row.id) if t.kind == AI_MOVE]
            assert timer.payload == {"version": update.session.version, "player": "ai:strong:1"}
            assert not [t for t in await h.store.timers(row.id) if t.payload.get("player") == "ai:strong:1"
                        and t.kind != AI_MOVE]  # no reminder, no AFK limit for an AI seat
            h.now_ms = timer.due_ms - 1
            assert await h.bot.timers.fire_due(h.now_ms) == 0  # the human-like pause first
            await fire_ai(h)
            after = await h.store.session(row.id)
            assert after.version > update.session.version
            ai_moves += 1
        row = await h.store.session(row.id)
    assert row.status == "finished" and ai_moves >= 5
    moves = await h.store.moves(row.id)
    assert sum(m.player == "ai:strong:1" for m in moves) == ai_moves
    game = h.bot.service.game("tsukimi")
    assert replay(game, row.players, row.options, row.seed, moves).model_dump_json() == row.state
    [last] = [s for s in h.fake.sent if "Game over" in s.content and s.kind != "edit"]
    assert "AI · Strong" in last.content and "<@101>" in last.content and not last.components
    # turn pings: a board on which the AI is to play pings nobody; one after the AI's move pings alice
    boards = [s for s in h.fake.sent if s.kind == "message" and s.content.startswith("**Tsukimi**")]
    assert boards, "the AI's moves are posted as channel messages"
    for s in boards:
        users = (s.data.get("allowed_mentions") or {}).get("users", [])
        assert users in ([], [int(alice.sid)]), users
    assert any((s.data.get("allowed_mentions") or {}).get("users") == [int(alice.sid)] for s in boards)
    history = await h.slash(alice, "history", count=50)
    assert "AI · Strong" in history.text
    assert board.content.startswith("**Tsukimi**")
    never_pinged(h)


async def test_restart_while_the_ai_is_to_move(database):
    """The ``ai_move`` timer is durable — after a restart it fires, the game goes on, and
    replay(log) == state."""
    h = Harness(database, settings=settings(), render=no_render)
    await h.open()
    try:
        alice = h.user(101, "alice")
        card = await card_of(h, alice, game="tsukimi", ai=1)
        await h.click(alice, card, "Start")
        rng = random.Random(2)
        update = await h.bot.service.show(str(h.channel_id))
        while update.pending[0].player == alice.sid:
            await h.choose(alice, rng.choice(update.pending[0].options).id, allow_move=False)
            update = await h.bot.service.show(str(h.channel_id))
        version = update.session.version
        [timer] = [t for t in await h.store.timers(update.session.id) if t.kind == AI_MOVE]
        await h.restart()  # the process dies with the AI to move
        h.now_ms = timer.due_ms
        await h.bot.timers.fire_due(h.now_ms)
        await h.settle()
        row = await h.store.session(update.session.id)
        assert row.version > version and row.status == "active"
        moves = await h.store.moves(row.id)
        assert moves[-1].player == "ai:normal:1" and moves[-1].at_ms == timer.due_ms
        game = h.bot.service.game("tsukimi")
        assert replay(game, row.players, row.options, row.seed, moves).model_dump_json() == row.state
        # and the game goes on: the human's move after the AI's
        update = await h.bot.service.show(str(h.channel_id))
        if update.pending[0].player == alice.sid:
            reply = await h.choose(alice, update.pending[0].options[0].id, allow_move=False)
            assert reply.public()
        never_pinged(h)
    finally:
        await h.close()


class HeldSearch(Executor):
    """An executor that runs nothing until :meth:`release`: the AI's search is "still thinking"."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.futures: list[Future] = []
        self.submitted = asyncio.Event()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self.calls.append((fn, args))
        self.futures.append(future)
        self.submitted.set()
        return future

    def release(self) -> None:
        for (fn, args), future in zip(self.calls, self.futures, strict=True):
            if not future.done():
                future.set_result(fn(*args))


async def test_a_stale_ai_move_is_not_applied(h):
    """The AI searched version v; the human took their move back (/undo) meanwhile, so the
    board is v+1 when the search ends: the AI's move is dropped, never applied to the newer state, and the AI's
    next move is planned for the new version."""
    alice = h.user(101, "alice")
    card = await card_of(h, alice, game="tsukimi", ai=1)
    await h.click(alice, card, "Start")
    update = await h.bot.service.show(str(h.channel_id))
    rng = random.Random(3)
    while update.pending[0].player == alice.sid or not await h.store.moves(update.session.id):
        if update.pending[0].player != alice.sid:
            await fire_ai(h)
        else:
            await h.choose(alice, rng.choice(update.pending[0].options).id, allow_move=False)
        update = await h.bot.service.show(str(h.channel_id))
    version, sid = update.session.version, update.session.id
    [timer] = [t for t in await h.store.timers(sid) if t.kind == AI_MOVE]
    held = HeldSearch()
    h.bot.service.ai.executor = held
    h.now_ms = timer.due_ms
    thinking = asyncio.create_task(h.bot.service.ai_turns.fire(timer))
    await held.submitted.wait()
    log_before = await h.store.moves(sid)
    reply = await h.slash(alice, "undo")  # alone against an AI: taken back at once (AI seats never object)
    assert reply.public() and "took back the last move" in reply.text
    after_undo = await h.store.session(sid)
    assert after_undo.version == version + 1
    held.release()
    assert await thinking is None  # stale: dropped
    row = await h.store.session(sid)
    assert row.version == after_undo.version and len(await h.store.moves(sid)) == len(log_before) - 1
    game = h.bot.service.game("tsukimi")
    assert replay(game, row.players, row.options, row.seed, await h.store.moves(sid)).model_dump_json() == row.state
    pend = h.bot.service.view(row).pending
    ai_timers = [t for t in await h.store.timers(sid) if t.kind == AI_MOVE]
    if pend[0].player == "ai:normal:1":  # the AI's next move is planned for the new version
        assert [t.payload["version"] for t in ai_timers] == [row.version]
    else:
        assert ai_timers == []


# -- item 3: races --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("alice_first", [True, False])
async def test_ai_race_input_is_timed_by_its_reaction_and_judged_by_the_engine(h, alice_first):
    """When the Tatamokatsu race window opens (TK-10: at the roll message's time), the AI seat's
    answer is a durable ``ai_race`` timer at window open + its reaction (never sooner than MIN_REACTION_MS); it
    is logged with that ``at_ms`` like a human input and judged by the same engine (TK-4: the first valid shout
    wins): alice shouting before the AI's time wins; shouting 300 ms after it (the AI's input already in), the AI
    wins by 300 ms."""
    alice = h.user(101, "alice")
    card = await card_of(h, alice, game="tatamokatsu", ai=1, level="strong")
    await h.click(alice, card, "Start")
    await force(h, "1/10", "1/10", "6")  # 10 + 1 + 6 = 17: a Tatamokatsu, the race is a shout (TK-4, TK-A)
    board = (await h.slash(alice, "board")).message(with_components=True)
    reply = await h.click(alice, board, "Roll the dice")
    roll_msg = reply.message(public=True)
    opened = snowflake_ms(int(roll_msg.message["id"]))
    row = await h.store.live_session(str(h.channel_id))
    state = h.bot.service.state_of(row)
    assert state.window_open_ms == opened
    [timer] = [t for t in await h.store.timers(row.id) if t.kind == AI_RACE]
    p = timer.payload
    assert p["player"] == "ai:strong:1" and p["open_ms"] == opened
    reaction = p["at_ms"] - opened
    assert MIN_REACTION_MS <= reaction <= state.deadline_ms - opened
    assert timer.due_ms == p["at_ms"] and p["option"] == "shout"  # 17: the AI shouts
    race_board = h.latest_with(("pbc:r:",))
    if alice_first:  # alice shouts before the AI's reaction time
        h.now_ms = opened + MIN_REACTION_MS - 50
        reply = await h.click(alice, race_board, "Shout Tatamokatsu!")
        assert reply.ephemeral() and not [s for s in reply.public() if s.kind != "edit"]
    h.now_ms = p["at_ms"]
    start = len(h.fake.sent)
    assert await h.bot.timers.fire_due(h.now_ms) >= 1
    await h.settle()
    assert not [s for s in h.fake.sent[start:] if s.message and not s.ephemeral and s.kind != "edit"]  # silent
    moves = [(m.player, m.option, m.at_ms) for m in await h.store.moves(row.id)]
    assert ("ai:strong:1", p["option"], p["at_ms"]) in moves
    # fired once; its next input of the window (the salute, TK-3) is planned after it, never before it
    [after_shout] = [t for t in await h.store.timers(row.id) if t.kind == AI_RACE]
    assert after_shout.payload["option"] == "salute" and after_shout.payload["at_ms"] > p["at_ms"]
    if not alice_first:  # alice shouts 300 ms after the AI
        h.now_ms = p["at_ms"] + 300
        reply = await h.click(alice, race_board, "Shout Tatamokatsu!")
        assert reply.ephemeral() and f"+{reaction + 300} ms" in reply.text
    # the window closes at its deadline
    h.now_ms = state.deadline_ms + h.bot.timers.grace()
    start = len(h.fake.sent)
    await h.bot.timers.fire_due(h.now_ms)
    await h.settle()
    closed = "\n".join(s.content for s in h.fake.sent[start:])
    after = h.bot.service.state_of(await h.store.session(row.id))
    if alice_first:
        assert f"<@101> shouted first (+{MIN_REACTION_MS - 50} ms)" in closed, closed
        assert after.winner == alice.sid
    else:
        assert f"AI · Strong shouted first (+{reaction} ms), 300 ms ahead of <@101>" in closed, closed
        assert after.winner == "ai:strong:1"
    never_pinged(h)


async def test_ai_seat_names_on_the_board_image(database):
    """Boards name an AI seat "AI · Strong" (numbered from the second): the renderer is given
    those names, the board text shows them, and no raw id or mention of an AI seat appears."""
    import renderers
    from bot.discord.present import display, mention

    assert mention("ai:strong:1") == "AI · Strong" and mention("ai:strong:2") == "AI · Strong 2"
    assert display({}, "ai:easy:1") == "AI · Easy" and mention("101") == "<@101>"
    seen: list[dict] = []

    def render(state, names):
        seen.append(dict(names or {}))
        return renderers.render(state, names)

    async with Harness(database, settings=settings(), render=render) as h:
        alice = h.user(101, "alice")
        card = await card_of(h, alice, game="tatari", ai=2, level="strong")
        reply = await h.click(alice, card, "Start")
        board = reply.message(public=True)
        assert board.files and board.files[0][1].startswith(b"\x89PNG")
        assert seen[-1] == {"101": "alice", "ai:strong:1": "AI · Strong", "ai:strong:2": "AI · Strong 2"}
        never_pinged(h)


async def test_an_ai_search_never_blocks_the_dispatcher_or_another_channel(h):
    """The AI's search runs in a background task off the event loop, without the channel's lock:
    while it thinks, the dispatcher has returned, its own channel can be read and another channel plays on."""
    from test_discord_play import open_game

    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    card = await card_of(h, alice, game="tsukimi", ai=1)
    await h.click(alice, card, "Start")
    update = await h.bot.service.show(str(h.channel_id))
    while update.pending[0].player == alice.sid:
        await h.choose(alice, update.pending[0].options[0].id, allow_move=False)
        update = await h.bot.service.show(str(h.channel_id))
    other = h.channel_id + 9
    await open_game(h, [bob, carol], channel_id=other)
    [timer] = [t for t in await h.store.timers(update.session.id) if t.kind == AI_MOVE]
    held = HeldSearch()
    h.bot.service.ai.executor = held
    h.now_ms = timer.due_ms
    assert await h.bot.timers.fire_due(h.now_ms) == 1  # returns at once: the search is a background task
    await held.submitted.wait()
    assert (await h.bot.service.show(str(h.channel_id))).session.version == update.session.version  # not locked
    theirs = await h.bot.service.show(str(other))
    moved = await h.bot.service.act(str(other), theirs.pending[0].player, theirs.pending[0].options[0].id)
    assert moved.session.version == theirs.session.version + 1  # the other channel plays on meanwhile
    assert await h.bot.timers.fire_due(h.now_ms) == 0  # the timer in hand is not fired twice
    held.release()
    await h.settle()
    row = await h.store.session(update.session.id)
    assert row.version > update.session.version
    assert [m.player for m in await h.store.moves(row.id)].count("ai:normal:1") >= 1  # the held move, applied
