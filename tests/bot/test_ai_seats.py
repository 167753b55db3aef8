"""AI seats in the session service and the local chat: ids and names, the lobby verbs and
their refusals, ``ai_move`` timers written in the move's transaction, race plans that follow the window (TK-10),
the search run in the service's executor, and the sandbox's ``/play … ai:<n>``."""

from __future__ import annotations

from concurrent.futures import BrokenExecutor, Executor, Future

import pytest

import games
from bot.ai_seats import AiSettings, ai_id, ai_name, is_ai, level_of, new_ai_ids
from bot.local.chat import LocalChat
from bot.sessions import AI_MOVE, AI_RACE, SessionError, SessionService, replay
from bot.store import Store
from games.ai import MIN_REACTION_MS

NOW = 1_000_000


@pytest.fixture
async def svc(database):
    store = await Store.open(database)
    clock = {"now": NOW}
    service = SessionService(store, clock=lambda: clock["now"], seeds=lambda: 42,
                             ai=AiSettings(pause_ms=1500, iterations=3))
    service.test_clock = clock  # type: ignore[attr-defined]
    yield service
    await store.close()


def test_ai_seat_ids_and_names():
    """AI seat ids: ids that no Discord id (digits) can be, named by level, numbered from the second."""
    assert ai_id("strong", 2) == "ai:strong:2" and is_ai("ai:strong:2")
    assert not is_ai("123456789012345678") and not is_ai("alice") and not is_ai("ai:ultra:1") and not is_ai(None)
    assert ai_name("ai:strong:1") == "AI · Strong" and ai_name("ai:easy:3") == "AI · Easy 3"
    assert new_ai_ids(["101", "ai:strong:1", "ai:strong:3"], "strong", 2) == ["ai:strong:2", "ai:strong:4"]
    assert level_of(None) == "normal" and level_of(" Strong ") == "strong"
    with pytest.raises(ValueError, match=r"There is no AI level 'hard'. Levels: easy, normal, strong."):
        level_of("hard")


async def test_lobby_ai_verbs_and_refusals_change_nothing(svc):
    """Bad input: adding to a full lobby, to a running game, by a non-host, with an unknown level (and
    removing a person or by a non-host) is refused with a clear message; the row is unchanged."""
    await svc.open_lobby("c1", "tatari", "alice")
    up = await svc.add_ai("c1", "alice", "strong", count=2)
    assert up.session.players == ["alice", "ai:strong:1", "ai:strong:2"]
    assert up.notes == ["{@ai:strong:1} joined (2/5).", "{@ai:strong:2} joined (3/5)."]
    version = up.session.version
    for call, message in [
        (svc.add_ai("c1", "bob", "easy"), "Only the host, {@alice}, can add AI players."),
        (svc.add_ai("c1", "alice", "hard"), "There is no AI level 'hard'"),
        (svc.add_ai("c1", "alice", "easy", count=3), "Only 2 seats are free: 3 AI players do not fit."),
        (svc.remove_ai("c1", "bob", "ai:strong:1"), "Only the host, {@alice}, can remove AI players."),
        (svc.remove_ai("c1", "alice", "alice"), "That is not an AI player of this lobby."),
        (svc.join("c1", "ai:easy:1"), "AI players are seated by the host"),
    ]:
        with pytest.raises(SessionError, match=message.replace("{", r"\{").replace("(", r"\(")):
            await call
    row = await svc.store.live_session("c1")
    assert row.version == version and row.players == ["alice", "ai:strong:1", "ai:strong:2"]
    up = await svc.remove_ai("c1", "alice", "ai:strong:1")
    assert up.session.players == ["alice", "ai:strong:2"]
    await svc.add_ai("c1", "alice", "easy", count=3)
    with pytest.raises(SessionError, match=r"The lobby is full \(5 players with these options\): no seat for an AI"):
        await svc.add_ai("c1", "alice")
    await svc.start("c1", "alice")
    with pytest.raises(SessionError, match="The game is running"):
        await svc.add_ai("c1", "alice")
    with pytest.raises(SessionError, match="The game is running"):
        await svc.remove_ai("c1", "alice", "ai:strong:2")


async def test_lobby_host_never_passes_to_an_ai_seat(svc):
    """A host who leaves hands the lobby to the next person; when only AI seats are left, the lobby closes."""
    await svc.open_lobby("c1", "tatari", "alice", ai_seats=1)
    await svc.join("c1", "bob")
    up = await svc.leave("c1", "alice")
    assert up.session.host == "bob" and up.session.status == "lobby"
    up = await svc.leave("c1", "bob")
    assert up.session.status == "abandoned" and "The lobby is closed." in up.notes


async def test_ai_move_timer_is_written_with_the_move_that_made_the_decision(svc):
    """The ``ai_move`` row is written in the transaction of the move that named the AI seat,
    for the version that move created, due after the pause; firing it applies the AI's move with that version
    (the AI's timer is gone in the same commit), and replay(log) == state."""
    await svc.open_lobby("c1", "tatari", "alice", ai_seats=1, ai_level="easy")
    up = await svc.start("c1", "alice")
    while up.pending[0].player == "alice":
        assert [t for t in await svc.store.timers(up.session.id) if t.kind == AI_MOVE] == []
        up = await svc.act("c1", "alice", up.pending[0].options[-1].id)
    [timer] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_MOVE]
    assert timer.payload == {"version": up.session.version, "player": "ai:easy:1"}
    assert timer.due_ms == NOW + 1500
    before = len(await svc.store.moves(up.session.id))
    assert await svc.tick(NOW + 1499) == []  # the pause first
    moved = await svc.tick(NOW + 1500)  # (the clock stands still: the AI's whole turn is due at once)
    assert moved[0].session.version == up.session.version + 1
    log = await svc.store.moves(up.session.id)
    assert (log[before].player, log[before].at_ms) == ("ai:easy:1", NOW)  # at_ms: the service clock when applied
    assert timer.id not in {t.id for t in await svc.store.timers(up.session.id)}
    row = await svc.store.session(up.session.id)
    game = games.get("tatari")
    assert replay(game, row.players, row.options, row.seed, log).model_dump_json() == row.state


class RecordingExecutor(Executor):
    """Runs each call at once, noting it (the AI search must go through the service's executor); ``fail``: every
    search raises (a crashed search); ``broken``: the pool is broken (a worker process died)."""

    def __init__(self, fail: bool = False, broken: bool = False) -> None:
        self.calls = 0
        self.fail = fail
        self.broken = broken

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls += 1
        future: Future = Future()
        if self.broken:
            future.set_exception(BrokenExecutor("a worker died"))
        elif self.fail:
            future.set_exception(RuntimeError("search crashed"))
        else:
            future.set_result(fn(*args, **kwargs))
        return future


@pytest.mark.parametrize("fail", [False, True])
async def test_the_search_runs_in_the_executor_and_a_broken_one_does_not_stall_the_game(svc, fail):
    """``games.ai.choose`` runs in ``AiSettings.executor`` (never on the event loop); a search
    that crashes is logged and a random legal option is played instead, so the game goes on."""
    svc.ai.executor = RecordingExecutor(fail)
    await svc.open_lobby("c1", "tsukimi", "alice", ai_seats=1, ai_level="strong")
    up = await svc.start("c1", "alice")
    while up.pending[0].player == "alice":
        up = await svc.act("c1", "alice", up.pending[0].options[0].id)
    before = len(await svc.store.moves(up.session.id))
    moved = await svc.tick(NOW + 1500)  # the AI's whole turn (the clock stands still)
    assert svc.ai.executor.calls == len(moved) >= 1 and moved[0].session.version == up.session.version + 1
    assert (await svc.store.moves(up.session.id))[before].player == "ai:strong:1"


async def test_ai_race_plan_follows_the_window_and_fires_once(svc):
    """RULINGS TK-10: the AI's race input is planned at window open + reaction; when the window
    moves to the roll message's time (the ``open`` input), the plan moves with it (same reaction); it fires once,
    logged with its ``at_ms``."""
    await svc.open_lobby("c1", "tatamokatsu", "alice", ai_seats=1, ai_level="strong")
    up = await svc.start("c1", "alice")
    up = await svc.act("c1", "alice", "roll", at_ms=NOW)
    [first] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE]
    reaction = first.payload["at_ms"] - NOW
    assert first.payload["open_ms"] == NOW and reaction >= MIN_REACTION_MS
    up = await svc.act("c1", None, "open", at_ms=NOW + 400)  # the roll message appeared 400 ms later
    [moved] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE]
    assert moved.payload["open_ms"] == NOW + 400 and moved.payload["at_ms"] == NOW + 400 + reaction
    assert moved.due_ms == moved.payload["at_ms"]
    [fired] = await svc.tick(moved.due_ms)
    log = await svc.store.moves(up.session.id)
    assert (log[-1].player, log[-1].option, log[-1].at_ms) == ("ai:strong:1", moved.payload["option"],
                                                               NOW + 400 + reaction)
    assert [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE] == []
    up = await svc.act("c1", "alice", "salute", at_ms=NOW + 500)  # another input: the AI is not re-planned
    assert [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE] == []
    assert fired.session.version == up.session.version - 1


@pytest.mark.parametrize(("faces", "inputs"), [(("3", "3", "3"), ["katana", "salute"]),
                                               (("2", "3", "5"), ["shout", "salute"])])
async def test_ai_sends_each_input_of_a_window_in_turn(svc, faces, inputs):
    """A roll that wants two inputs from a seat — triples: a Katana, then the salute (TK-7, TK-3);
    a Tatamokatsu (2 + 3 + 5 = 10): a shout, then the salute (TK-4, TK-3) — gets both from the AI, one timer after
    the other: the second is planned only once the first is applied, timed after it; then nothing more."""
    await svc.open_lobby("c1", "tatamokatsu", "alice", ai_seats=1, ai_level="strong")
    await svc.start("c1", "alice")
    row = await svc.store.live_session("c1")
    forced = games.force(svc.state_of(row), *faces)
    await svc.store.update_session(row.id, row.version, state=forced.model_dump_json())
    up = await svc.act("c1", "alice", "roll", at_ms=NOW)
    sent = []
    for expected in inputs:
        [timer] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE]
        assert timer.payload["option"] == expected
        assert not sent or timer.payload["at_ms"] > sent[-1][2]
        [up] = await svc.tick(timer.due_ms)
        sent.append((timer.payload["player"], expected, timer.payload["at_ms"]))
    assert [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE] == []
    log = [(m.player, m.option, m.at_ms) for m in await svc.store.moves(up.session.id)]
    assert log[-2:] == sent
    assert svc.state_of(up.session).inputs["ai:strong:1"] == {i: at for _p, i, at in sent}


async def test_local_chat_seats_ai_players_and_lets_them_play(svc):
    """The sandbox knows ai:<n>: ``/play tsukimi ai:1 level:strong`` seats "AI · Strong"; its
    turns are played after each line; bad ``ai:``/``level:`` are refused with a message."""
    chat = LocalChat(svc, None)
    out = await chat.line("alice: /play tsukimi ai:1 level:strong")
    assert "AI · Strong joined (2/2)." in out and any("seats 2: alice, AI · Strong" in line for line in out)
    assert await chat.line("bob: /play tatari level:easy") == [
        "! bob: level: goes with ai:<n>, the number of AI players to seat (ai:1 level:strong)."]
    await chat.line("alice: /start")
    start_ms = chat.now
    row = await svc.store.live_session("table")
    for _ in range(50):
        await chat.line("alice: 1")
        if any(m.player == "ai:strong:1" for m in await svc.store.moves(row.id)):
            break
    else:
        raise AssertionError("the AI never moved")
    # the AI played within alice's line (the virtual clock moved over its pause): alice is to move again
    up = await svc.show("table")
    assert up.pending[0].player == "alice" and chat.now >= start_ms + 1500
    assert not any("ai:strong" in line for line in await chat.line("alice: /board"))


@pytest.mark.parametrize("game_id", ["tatari", "tsukimi", "tatamokatsu", "tataraba", "tatsumi"])
async def test_every_game_plays_alone_against_an_ai_to_the_end(svc, game_id):
    """A person alone can play every game against an AI seat (Tsukimi 1 vs AI; Tatsumi with
    its usual 2-4 seats); the AI answers through its timers (moves and race inputs) until the game ends, and the
    log replays to the stored state exactly."""
    import random

    clock = svc.test_clock
    await svc.open_lobby("c1", game_id, "alice", ai_seats=1, ai_level="strong")
    up = await svc.start("c1", "alice")
    rng = random.Random(3)
    for _ in range(3000):
        if up.session.status != "active":
            break
        mine = [d for d in up.pending if d.player == "alice" and d.options]
        if mine:
            up = await svc.act("c1", "alice", rng.choice(mine[0].options).id)
            continue
        timer = await svc.store.next_timer()
        assert timer is not None, up.pending
        clock["now"] = max(clock["now"], timer.due_ms)
        updates = await svc.tick(clock["now"])
        row = await svc.store.session(up.session.id)
        up = updates[-1] if updates else svc.view(row)
    row = await svc.store.session(up.session.id)
    assert row.status == "finished"
    log = await svc.store.moves(row.id)
    assert any(m.player == "ai:strong:1" for m in log)
    game = games.get(game_id)
    assert replay(game, row.players, row.options, row.seed, log).model_dump_json() == row.state


async def test_the_last_person_resigning_ends_a_game_of_ai_seats(svc):
    """AI seats never play on alone — when the last person resigns (Tatari would go on without them),
    the game ends and the AI seats share the win; the log still replays exactly."""
    await svc.open_lobby("c1", "tatari", "alice", ai_seats=2, ai_level="easy")
    await svc.start("c1", "alice")
    up = await svc.resign("c1", "alice")
    assert up.session.status == "finished"
    assert any("only AI players are left, so the game ends" in e.text for e in up.events)
    assert up.result.winners == ["ai:easy:1", "ai:easy:2"] and up.result.ranking[-1] == ["alice"]
    assert [t for t in await svc.store.timers(up.session.id)] == []
    row = await svc.store.session(up.session.id)
    log = await svc.store.moves(row.id)
    assert replay(games.get("tatari"), row.players, row.options, row.seed, log).model_dump_json() == row.state


async def test_the_search_runs_in_a_worker_process(svc):
    """Production searches in worker processes (``search_pool``, ``Settings.ai_processes``):
    :func:`bot.ai_seats.think` crosses the process boundary (a module-level function, the state as JSON) and
    answers a legal option of the pending decision."""
    from bot.ai_seats import search_pool

    pool = search_pool(1)
    svc.ai.executor = pool
    try:
        await svc.open_lobby("c1", "tsukimi", "alice", ai_seats=1, ai_level="strong")
        up = await svc.start("c1", "alice")
        while up.pending[0].player == "alice":
            up = await svc.act("c1", "alice", up.pending[0].options[0].id)
        decision = up.pending[0]
        before = len(await svc.store.moves(up.session.id))
        moved = await svc.tick(NOW + 1500)
        assert moved and moved[0].session.version == up.session.version + 1
        first = (await svc.store.moves(up.session.id))[before]
        assert first.player == "ai:strong:1" and decision.option(first.option) is not None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


async def test_an_ai_race_input_taken_back_is_answered_again_at_the_same_time(svc):
    """Undo of an AI seat's race input (the host's /undo): the AI plans the race afresh, with the same reaction
    (drawn from the race's seed), so the window is judged as before once the timer fires again."""
    await svc.open_lobby("c1", "tatamokatsu", "alice", ai_seats=1, ai_level="normal")
    await svc.start("c1", "alice")
    up = await svc.act("c1", "alice", "roll", at_ms=NOW)
    [timer] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE]
    await svc.tick(timer.due_ms)
    assert [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE] == []
    up = await svc.undo("c1", "alice")
    [again] = [t for t in await svc.store.timers(up.session.id) if t.kind == AI_RACE]
    assert again.payload == timer.payload and again.due_ms == timer.due_ms


async def test_a_broken_search_pool_falls_back_to_threads(svc):
    """A search pool whose worker died (``BrokenExecutor``): that move is a random legal option, and the service
    searches in threads from then on (the executor is dropped), so the AI keeps playing."""
    svc.ai.executor = RecordingExecutor(broken=True)
    await svc.open_lobby("c1", "tsukimi", "alice", ai_seats=1)
    up = await svc.start("c1", "alice")
    while up.pending[0].player == "alice":
        up = await svc.act("c1", "alice", up.pending[0].options[0].id)
    moved = await svc.tick(NOW + 1500)
    assert moved and svc.ai.executor is None
    assert any(m.player == "ai:normal:1" for m in await svc.store.moves(up.session.id))
