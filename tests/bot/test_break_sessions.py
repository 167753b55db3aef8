"""Defects found by attacking the session service: refusals that stored bad input or named the wrong way out,
texts that leaked internal ids, and deadlines lost or left behind by a crash or a restart."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

import games
from bot.sessions import DEADLINE, SessionError, SessionService, replay
from bot.store import Store
from games import TIMEOUT, BaseState, Decision, Event, Game, Move, Option, Outcome, Result, Rng

TATARI = games.get("tatari")


# -- a tiny game with a deadline: "go" by the current player opens a race of ``window`` ms; "hit" by anyone or the
# timeout closes it; three races end the game ------------------------------------------------------------------
class DashOptions(BaseModel):
    window: int = 1000


class DashState(BaseState):
    game: str = "dash"
    current: str
    deadline_ms: int | None = None
    races: int = 0
    hits: dict[str, int] = {}


class Dash(Game):
    id = "dash"
    title = "Dash"
    min_players = 2
    max_players = 3
    Options = DashOptions
    State = DashState

    def setup(self, players, options=None, seed=0):
        self.check_players(players)
        self.options(options)
        return DashState(players=list(players), rng=Rng(seed=seed), current=players[0], hits={p: 0 for p in players})

    def pending(self, s):
        if s.races >= 3:
            return []
        if s.deadline_ms is None:
            return [Decision(player=s.current, kind="go", prompt="go?", options=[Option(id="go", label="Go")])]
        return [Decision(player=None, kind="race", prompt="hit!", options=[Option(id="hit", label="Hit")],
                         deadline_ms=s.deadline_ms)]

    def apply(self, s, move: Move) -> Outcome:
        decision, option = self.find_decision(s, move)
        s = s.model_copy(deep=True)
        if decision.kind == "go":
            s.deadline_ms = (move.at_ms or 0) + 1000
            return Outcome(state=s, events=[Event(kind="go", text="Go!")])
        if option is not None:
            s.hits[move.player] += 1
        s.deadline_ms = None
        s.races += 1
        s.current = s.players[s.races % len(s.players)]
        return Outcome(state=s, events=[Event(kind="race", text="timeout" if option is None else "hit")])

    def result(self, s):
        if s.races < 3:
            return None
        return Result(winners=[s.players[0]], ranking=[s.players], scores=dict(s.hits), reason="done")


@pytest.fixture
def dash():
    game = Dash()
    games._load()["dash"] = game
    yield game
    games._load().pop("dash", None)


@pytest.fixture
async def store(database):
    st = await Store.open(database)
    yield st
    await st.close()


@pytest.fixture
def service(store):
    return SessionService(store, clock=lambda: 5_000, seeds=lambda: 42)


async def started(svc: SessionService, channel="c1", game="tatari", players=("alice", "bob", "carol")):
    await svc.open_lobby(channel, game, players[0])
    for p in players[1:]:
        await svc.join(channel, p)
    return await svc.start(channel, players[0])


async def refused(coro, message: str) -> None:
    with pytest.raises(SessionError) as info:
        await coro
    assert str(info.value) == message


# -- lobby ------------------------------------------------------------------------------------------------------
async def test_an_unknown_option_is_refused_and_nothing_stored(service):
    await refused(service.open_lobby("c1", "tatari", "alice", {"frist": "random"}),
                  "Tatari has no option 'frist'. Options: first.")
    assert await service.store.live_session("c1") is None
    up = await service.open_lobby("c1", "tatari", "alice", {"first": "random"})
    assert up.session.options == {"first": "random"}


async def test_resign_in_a_lobby_points_to_leave(service):
    await service.open_lobby("c1", "tatari", "alice")
    await service.join("c1", "bob")
    await refused(service.resign("c1", "bob"), "The game has not started yet: use /leave to leave the lobby.")
    await refused(service.abandon("c1", "bob"),
                  "Only the host, {@alice}, or a moderator can abandon this game. To leave it yourself, /leave.")
    row = await service.store.live_session("c1")
    assert row.players == ["alice", "bob"] and row.status == "lobby" and row.version == 1


async def test_abandon_by_a_player_in_a_running_game_points_to_resign(service):
    await started(service)
    await refused(service.abandon("c1", "bob"),
                  "Only the host, {@alice}, or a moderator can abandon this game. To leave it yourself, /resign.")


# -- after the end ----------------------------------------------------------------------------------------------
async def test_verbs_after_the_end_say_the_game_is_over(service):
    await started(service, players=("alice", "bob"))
    up = await service.resign("c1", "bob")
    assert up.session.status == "finished"
    over = "The game of Tatari here is over. Start a new one with /play."
    await refused(service.undo("c1", "alice"), over)
    await refused(service.abandon("c1", "alice"), over)
    await refused(service.resign("c1", "alice"), over)
    await refused(service.act("c1", "alice", "stop"), over)
    await refused(service.join("c1", "carol"), over)
    row = await service.store.session(up.session.id)
    assert row.status == "finished" and row.move_count == 1
    # an abandoned game is simply gone; a new lobby is welcome
    await service.open_lobby("c1", "tatari", "carol")
    await service.abandon("c1", "carol")
    await refused(service.show("c1"), "No game here. Start one with /play.")
    await refused(service.show("nowhere"), "No game here. Start one with /play.")


# -- undo -------------------------------------------------------------------------------------------------------
async def test_undo_of_a_resignation_names_it_and_seats_the_player_again(service):
    up = await started(service)
    await service.resign("c1", "carol")
    vote = await service.ask_undo("c1", "alice")
    assert vote.waiting == ["bob"]  # carol has left: only the players still playing vote
    up = (await service.vote_undo(vote.session.id, vote.session.version, "bob", True)).update
    assert up.notes == ["{@alice} took back the last move ({@carol} resigned)."]
    assert up.state.out == [] and up.state.stashes["carol"] == 10
    row = await service.store.live_session("c1")
    assert row.move_count == 0 and await service.store.moves(row.id) == []


# -- times out of range -----------------------------------------------------------------------------------------
async def test_a_time_out_of_range_is_refused_and_nothing_stored(service):
    up = await started(service)
    d = up.pending[0]
    for at in (2**63, -1):
        await refused(service.act("c1", d.player, d.options[0].id, at_ms=at),
                      f"That time ({at} ms) is out of range: a move's time is 0 to {2**63 - 1} ms.")
    row = await service.store.live_session("c1")
    assert row.move_count == 0 and row.version == up.session.version


# -- deadlines --------------------------------------------------------------------------------------------------
async def test_a_tick_cut_off_before_its_commit_loses_no_deadline(store, dash):
    svc = SessionService(store, clock=lambda: 5_000, seeds=lambda: 1)
    await started(svc, game="dash", players=("alice", "bob"))
    up = await svc.act("c1", "alice", "go", at_ms=5_000)
    assert up.pending[0].deadline_ms == 6_000

    async def dies(*args, **kwargs):
        raise asyncio.CancelledError  # the process stops here (shutdown, crash)

    svc.timeouts.fire = dies
    with pytest.raises(asyncio.CancelledError):
        await svc.tick(7_000)
    # after a restart the deadline still fires, once
    svc2 = SessionService(store, clock=lambda: 7_000, seeds=lambda: 1)
    ups = await svc2.tick(7_000)
    assert [u.events[0].text for u in ups] == ["timeout"]
    row = await store.live_session("c1")
    assert [(m.player, m.option, m.at_ms) for m in await store.moves(row.id)] == [
        ("alice", "go", 5_000), (None, TIMEOUT, 6_000)]
    assert await store.timers(row.id) == []
    assert await svc2.tick(8_000) == []


async def test_two_ticks_at_once_fire_a_deadline_once(store, dash):
    svc = SessionService(store, clock=lambda: 5_000, seeds=lambda: 1)
    await started(svc, game="dash", players=("alice", "bob"))
    await svc.act("c1", "alice", "go", at_ms=5_000)
    a, b = await asyncio.gather(svc.tick(7_000), svc.tick(7_000))
    assert len(a) + len(b) == 1
    row = await store.live_session("c1")
    assert [m.option for m in await store.moves(row.id)] == ["go", TIMEOUT]


async def test_after_a_restart_an_answered_race_leaves_no_timer_behind(store, dash):
    svc = SessionService(store, clock=lambda: 5_000, seeds=lambda: 1)
    await started(svc, game="dash", players=("alice", "bob"))
    await svc.act("c1", "alice", "go", at_ms=5_000)
    row = await store.live_session("c1")
    assert [(t.kind, t.due_ms) for t in await store.timers(row.id)] == [(DEADLINE, 6_000)]
    svc2 = SessionService(store, clock=lambda: 5_500, seeds=lambda: 1)  # a restart
    up = await svc2.act("c1", "bob", "hit", at_ms=5_500)
    assert up.pending[0].kind == "go" and up.state.hits == {"alice": 0, "bob": 1}
    assert await store.timers(row.id) == []


# -- restarts ---------------------------------------------------------------------------------------------------
async def test_a_restart_continues_the_same_game_exactly(tmp_path):
    async def play(paths: list[str], per: int) -> str:
        """Play the last-option game across the stores opened at ``paths`` in turn (``per`` moves each)."""
        state_json = ""
        for i, path in enumerate(paths):
            st = await Store.open(path)
            svc = SessionService(st, clock=lambda: 1_000, seeds=lambda: 77)
            if i == 0:
                up = await started(svc)
            else:
                up = await svc.show("c1")
            for _ in range(per):
                if not up.pending:
                    break
                d = up.pending[0]
                up = await svc.act("c1", d.player, d.options[-1].id)
            row = await st.session(up.session.id)
            moves = await st.moves(row.id)
            assert replay(TATARI, row.players, row.options, row.seed, moves).model_dump_json() == row.state
            state_json = row.state
            await st.close()
        return state_json

    one = str(tmp_path / "one.sqlite3")
    two = str(tmp_path / "two.sqlite3")
    assert await play([two, two, two], 40) == await play([one], 120)


# -- start ------------------------------------------------------------------------------------------------------
class PickyOptions(BaseModel):
    window: int = 1000
    seats: int = 0  # 0: any; else the game only starts with exactly that many players (checked at setup)


class Picky(Dash):
    id = "picky"
    title = "Picky"
    Options = PickyOptions

    def setup(self, players, options=None, seed=0):
        opts = self.options(options)
        if opts.seats and len(players) != opts.seats:
            raise ValueError(f"this layout needs {opts.seats} players, not {len(players)}.")
        return super().setup(players, None, seed)


async def test_options_refused_at_setup_keep_the_lobby_and_say_what_to_do(service):
    games._load()["picky"] = Picky()
    try:
        await service.open_lobby("c1", "picky", "alice", {"seats": 3})
        await service.join("c1", "bob")
        await refused(service.start("c1", "alice"),
                      "Picky cannot start: this layout needs 3 players, not 2. Change the seats (/join, /leave), "
                      "or cancel the lobby and /play again with other options.")
        row = await service.store.live_session("c1")
        assert row.status == "lobby" and row.state is None and row.version == 1
        await service.join("c1", "carol")
        assert (await service.start("c1", "alice")).session.status == "active"
    finally:
        games._load().pop("picky", None)
