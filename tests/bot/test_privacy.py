"""Forgetting a member on both backends (``Store.forget_user`` and the rule ``bot.privacy.forget_member``): no cell
of any table holds their id or display name afterwards, everybody else's records and ratings are byte for byte as
before, a live game shows them resigned and still replays; ``forget-user`` on the command line; ``RECORDS_DAYS``
pruning exactly the old games."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.privacy import DAY_MS, forget_member, prune_records
from bot.sessions import RESIGN, SessionService, replay
from bot.store import Store, now_ms
from bot.store.privacy import FORMER_NAME, Scrubber
from games.ai import random_legal

ALICE, BOB, CAROL = "100000000000000001", "100000000000000002", "100000000000000003"
NAMES = {ALICE: "Alice Liddell", BOB: "Bob Marley", CAROL: "Carol King"}
ROOT = Path(__file__).resolve().parents[2]


async def tables(store: Store) -> list[str]:
    """Every table of the store's schema (both backends)."""
    if store.backend == "sqlite":
        cur = await store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE"
                                       " 'sqlite_%' ORDER BY name")
    else:
        cur = await store.conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema ="
                                       " current_schema() ORDER BY table_name")
    return [r[0] for r in await cur.fetchall()]


async def cells_holding(store: Store, *needles: str) -> list[tuple[str, str]]:
    """(table, cell) for every cell of every table whose text (numbers as their digits) contains a needle."""
    found = []
    for table in await tables(store):
        cur = await store.conn.execute(f"SELECT * FROM {table}")
        for row in await cur.fetchall():
            for cell in row:
                if cell is not None and any(n in str(cell) for n in needles):
                    found.append((table, str(cell)[:80]))
    return found


async def rows_of(store: Store, sql: str, args=()) -> list[tuple]:
    cur = await store.conn.execute(sql, args)
    return [tuple(r) for r in await cur.fetchall()]


@pytest.fixture
async def service(database):
    store = await Store.open(database)
    seeds = iter(range(1000, 100000))
    clock = [now_ms() - 100 * DAY_MS]

    async def names(session_id: int) -> dict[str, str]:
        return dict((await store.session_data(session_id)).get("names", {}))

    svc = SessionService(store, clock=lambda: clock[0], seeds=lambda: next(seeds), display_names=names)
    svc.test_clock = clock
    yield svc
    await store.close()


async def seat(svc: SessionService, channel: str, players: tuple[str, ...], guild: str = "g1"):
    """A lobby of ``players`` (the first hosts) with their display names in the adapter's data."""
    up = await svc.open_lobby(channel, "tatari", players[0], guild_id=guild)
    for p in players[1:]:
        up = await svc.join(channel, p)
    async with svc.store.transaction() as db:
        await svc.store.update_session_data(db, up.session.id, {}, {"names": {p: NAMES[p] for p in players}})
    return up


async def play(svc: SessionService, channel: str, players: tuple[str, ...], rng: random.Random,
               moves: int | None = None):
    """Seat, start and play ``players``' game of Tatari with random legal moves (``moves`` of them, else to the
    end)."""
    await seat(svc, channel, players)
    up = await svc.start(channel, players[0])
    n = 0
    while up.pending and (moves is None or n < moves):
        svc.test_clock[0] += 1000
        d = up.pending[0]
        up = await svc.act(channel, d.player, random_legal(up.game, up.state, d, rng))
        n += 1
    return up


async def everything_but_alice(store: Store, without_her: int) -> dict[str, list[tuple]]:
    """Bob's and carol's seats and ratings, every column, and the record of session ``without_her``."""
    return {
        "seats": await rows_of(store, "SELECT * FROM game_seats WHERE player_id IN (?, ?) ORDER BY session_id, seat",
                               (BOB, CAROL)),
        "ratings": await rows_of(store, "SELECT * FROM ratings WHERE player_id <> ? ORDER BY guild_id, game_id,"
                                 " player_id", (ALICE,)),
        "records": await rows_of(store, "SELECT * FROM game_records WHERE session_id = ?", (without_her,)),
        "bob_prefs": [tuple(sorted((await store.players_data([BOB])).get(BOB, {}).items()))],
    }


async def test_forgetting_alice_leaves_nothing_of_her_and_everything_of_the_others(service):
    store, rng = service.store, random.Random(5)
    first = await play(service, "c1", (ALICE, BOB, CAROL), rng)
    second = await play(service, "c2", (BOB, ALICE), rng)
    third = await play(service, "c3", (BOB, CAROL), rng)
    assert first.record.rated and second.record.rated and third.record.rated
    live = await play(service, "c4", (CAROL, ALICE, BOB), rng, moves=4)
    assert live.session.status == "active"
    lobby = await seat(service, "c5", (ALICE, BOB))
    await store.update_player_data(ALICE, {"mute_turn_pings": True})
    await store.update_player_data(BOB, {"mute_turn_pings": True})
    await store.add_timer("c4", "reminder", now_ms(), {"version": live.session.version, "player": ALICE},
                          session_id=live.session.id)
    await store.add_timer("c4", "departed", now_ms(), {"player": ALICE}, session_id=live.session.id)
    async with store.transaction() as db:
        await store.update_session_data(db, live.session.id, {"undo": {"version": 3, "by": ALICE, "yes": [ALICE]}})
    await store.save_channel_settings("c1", {"reminder_hours": 2})
    before = await everything_but_alice(store, third.session.id)
    records = {sid: await store.game_record(sid) for sid in (first.session.id, second.session.id)}
    assert len(before["seats"]) == 5 and len(before["ratings"]) == 2 and len(before["records"]) == 1
    assert await cells_holding(store, ALICE) and await cells_holding(store, NAMES[ALICE])

    done = await forget_member(service, ALICE)

    assert [u.session.channel_id for u in done.updates] == ["c4", "c5"] and done.refused == []
    assert await cells_holding(store, ALICE, NAMES[ALICE]) == []
    assert await everything_but_alice(store, third.session.id) == before
    for sid, old in records.items():  # her seat: a former player, no rating; every other seat exactly as it was
        new = await store.game_record(sid)
        assert [s for s in new.seats if s.player_id in (BOB, CAROL)] == [s for s in old.seats if s.player_id != ALICE]
        (mine,) = [s for s in new.seats if s.player_id.startswith("former-")]
        (hers,) = [s for s in old.seats if s.player_id == ALICE]
        assert (mine.player_id, mine.name, mine.mu_before, mine.sigma_before, mine.mu_after, mine.sigma_after) == (
            f"former-{hers.seat + 1}", FORMER_NAME, None, None, None, None)
        assert (mine.seat, mine.rank, mine.score, mine.won, mine.resigned) == (
            hers.seat, hers.rank, hers.score, hers.won, hers.resigned)
        assert new.reason == old.reason.replace(ALICE, mine.player_id)
    row = await store.session(live.session.id)  # her live game: resigned, still playable, replays exactly
    assert row.status == "active" and row.players == [CAROL, "former-2", BOB]
    assert await store.players_with_move(row.id, RESIGN) == {"former-2"}
    game = service.game(row.game_id)
    assert replay(game, row.players, row.options, row.seed, await store.moves(row.id)).model_dump_json() == row.state
    assert [t.kind for t in await store.timers(row.id) if t.kind in ("reminder", "departed")] == []
    assert (await store.session_data(row.id))["undo"] == {"version": 3, "by": "former-2", "yes": ["former-2"]}
    assert (await store.session_data(row.id))["names"] == {CAROL: NAMES[CAROL], "former-2": FORMER_NAME,
                                                            BOB: NAMES[BOB]}
    up = service.view(row)
    while up.pending:
        service.test_clock[0] += 1000
        d = up.pending[0]
        assert d.player in (BOB, CAROL)
        up = await service.act("c4", d.player, random_legal(up.game, up.state, d, rng))
    assert up.record.rated and [s.mu_after for s in up.record.seats if s.player_id == "former-2"] == [None]
    assert await rows_of(store, "SELECT player_id FROM ratings WHERE player_id LIKE 'former-%'") == []
    assert (await store.session(lobby.session.id)).players == [BOB]
    assert (await store.session(lobby.session.id)).host == BOB
    again = await forget_member(service, ALICE)
    assert (again.updates, again.forgotten.total, again.forgotten.lines()) == ([], 0, ["nothing stored"])


async def test_forget_user_reports_each_table(service):
    """One finished game of alice and bob, her preferences: exactly these rows change."""
    await play(service, "c1", (ALICE, BOB), random.Random(2))
    await service.store.update_player_data(ALICE, {"mute_turn_pings": True})
    (hers,) = await rows_of(service.store, "SELECT COUNT(*) FROM moves WHERE player = ?", (ALICE,))
    assert hers[0] > 1
    forgotten = await service.store.forget_user(ALICE)
    assert forgotten.lines() == [
        "discord_players: 1 row deleted", "discord_sessions: 1 row anonymised", "finished_games: 1 row anonymised",
        "game_records: 1 row anonymised", "game_seats: 1 row anonymised",
        f"moves: {hers[0]} rows anonymised",
        "ratings: 1 row deleted", "sessions: 1 row anonymised"]


def test_scrubber_replaces_whole_tokens_only():
    s = Scrubber("alice", "former-1")
    assert s.text("{@alice} beat malice and alice_2; victim:alice") == (
        "{@former-1} beat malice and alice_2; victim:former-1")
    big = Scrubber(ALICE, "former-3")
    assert big.value({ALICE: [int(ALICE), 1, True, f"x{ALICE}"]}) == {"former-3": ["former-3", 1, True, f"x{ALICE}"]}
    assert Scrubber("7", "former-1").value({"score": 7, "p": "7"}) == {"score": 7, "p": "former-1"}


async def test_records_days_prunes_exactly_the_old_games(service):
    store, rng, now = service.store, random.Random(9), now_ms()
    service.test_clock[0] = now - 40 * DAY_MS
    old = await play(service, "c1", (ALICE, BOB), rng)
    service.test_clock[0] = now - 29 * DAY_MS
    recent = await play(service, "c2", (BOB, CAROL), rng)
    running = await play(service, "c3", (CAROL, ALICE), rng, moves=2)
    assert await prune_records(store, 0, now=now) == 0
    assert await prune_records(store, 30, now=now) == 1
    assert await store.session(old.session.id) is None and await store.game_record(old.session.id) is None
    assert await rows_of(store, "SELECT COUNT(*) FROM moves WHERE session_id = ?", (old.session.id,)) == [(0,)]
    assert await store.game_record(recent.session.id) is not None
    assert (await store.session(running.session.id)).status == "active"
    assert [r.player_id for r in await store.leaderboard("g1", "tatari")] != []  # ratings stay
    assert await prune_records(store, 30, now=now) == 0


def test_records_days_is_bounded():
    assert Settings(discord_token=None).records_days == 0
    assert Settings(discord_token=None, records_days=36_500).records_days == 36_500
    for bad in (-1, 36_501):
        with pytest.raises(ValidationError, match="records_days"):
            Settings(discord_token=None, records_days=bad)


async def test_forget_user_command(database):
    store = await Store.open(database)
    svc = SessionService(store, seeds=lambda: 7)
    await svc.open_lobby("c1", "tatari", ALICE, guild_id="g1")
    await svc.join("c1", BOB)
    await svc.start("c1", ALICE)
    await store.update_player_data(ALICE, {"mute_turn_pings": True})
    await store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "bot", "forget-user", ALICE, "--db", database], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "session 1 (tatari, channel c1): resigned"
    assert lines[-1] == f"forgot {ALICE}"
    assert "discord_players: 1 row deleted" in lines and "ratings: 1 row deleted" in lines
    store = await Store.open(database)
    try:
        assert await cells_holding(store, ALICE) == []
        row = await store.session(1)
        assert row.status == "finished" and row.players == ["former-1", BOB]
    finally:
        await store.close()
    bad = subprocess.run([sys.executable, "-m", "bot", "forget-user", "alice", "--db", database],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert (bad.returncode, bad.stdout, bad.stderr) == (
        2, "", "USER_ID must be a Discord user id (15 to 20 digits), not 'alice'.\n")
