"""``python -m bot migrate-store --to postgresql://…``: an SQLite store (sessions, moves, timers,
finished games and their records and ratings, settings, the adapter's data) copied into PostgreSQL, then checked by
replaying every session. Runs the real command in a subprocess against the PostgreSQL test server."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from databases import drop_schema, fresh_schema, require_postgres, with_schema

from bot.discord.links import Links
from bot.sessions import DEADLINE, SessionService, replay
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


async def _fill(path: str) -> dict:
    """An SQLite store with a finished game, running games (one with a deadline timer), a lobby, an abandoned game,
    channel settings and adapter data. Returns what to compare."""
    store = await Store.open(path)
    svc = SessionService(store, clock=lambda: 1_000_000, seeds=iter(range(100, 200)).__next__)
    rng = random.Random(5)
    try:
        for i, (game, players, moves) in enumerate([("tatari", 2, 10_000), ("tatari", 3, 12), ("tsukimi", 2, 9),
                                                    ("tatamokatsu", 3, 5), ("tatsumi", 2, 6)]):
            ch = f"c{i}"
            names = [f"p{j}" for j in range(players)]
            await svc.open_lobby(ch, game, names[0], guild_id=str(800_000_000_000_000_000 + i))
            for p in names[1:]:
                await svc.join(ch, p)
            update = await svc.start(ch, names[0])
            for _ in range(moves):
                players_turn = [d for d in update.pending if d.player is not None]
                if update.finished or not players_turn:
                    break
                d = players_turn[0]
                update = await svc.act(ch, d.player, rng.choice(d.options).id)
        await svc.open_lobby("lobby", "tsukimi", "solo")
        await svc.open_lobby("gone", "tatari", "a")
        await svc.join("gone", "b")
        await svc.abandon("gone", "a")
        row = await store.live_session("c1")
        await store.add_timer("c1", DEADLINE, 2_000_000, {"deadline_ms": 2_000_000}, session_id=row.id)
        await store.save_channel_settings("c1", {"reminder_hours": 3})
        links = Links(store)
        await links.update(row.id, names={"p0": "Ōkami 🐺"}, board=["c1", "123"])
        await links.set_muted("p1", True)
        sessions = [r.model_dump() for r in await store.all_sessions()]
        moves = {r["id"]: [m.model_dump() for m in await store.moves(r["id"])] for r in sessions}
        records = {r["id"]: await store.game_record(r["id"]) for r in sessions}
        return {"sessions": sessions, "moves": moves, "records": records,
                "leaderboard": await store.leaderboard(str(800_000_000_000_000_000), "tatari"), "timers": [t.model_dump() for t in await store.timers()],
                "finished": await store.finished_games(limit=100), "settings": await store.channel_settings("c1"),
                "links": await links.get(row.id), "linked": row.id, "muted": await links.muted(["p0", "p1"])}
    finally:
        await store.close()


def _migrate(source: str, target: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", "migrate-store", "--from", source, "--to", target],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


async def test_migrate_store_copies_everything_and_every_session_replays(tmp_path):
    url = require_postgres()
    source = str(tmp_path / "bot.sqlite3")
    before = await _fill(source)
    assert any(r["status"] == "finished" for r in before["sessions"])  # the long game ended
    schema = await fresh_schema(url)
    target = with_schema(url, schema)
    try:
        proc = _migrate(source, target)
        assert proc.returncode == 0, proc.stderr + proc.stdout
        assert "copied and checked" in proc.stdout
        assert f"sessions: {len(before['sessions'])} rows" in proc.stdout
        with_state = sum(r["state"] is not None for r in before["sessions"])
        assert f"{with_state} sessions replay to their stored state" in proc.stdout
        store = await Store.open(target)
        try:
            assert [r.model_dump() for r in await store.all_sessions()] == before["sessions"]
            for sid, moves in before["moves"].items():
                assert [m.model_dump() for m in await store.moves(sid)] == moves
            assert [t.model_dump() for t in await store.timers()] == before["timers"]
            assert await store.finished_games(limit=100) == before["finished"]
            assert await store.channel_settings("c1") == before["settings"]
            # finished-game records, their seats and the ratings (migration 4)
            assert any(r is not None for r in before["records"].values())
            assert {sid: await store.game_record(sid) for sid in before["records"]} == before["records"]
            assert before["leaderboard"] and await store.leaderboard(str(800_000_000_000_000_000),
                                                                     "tatari") == before["leaderboard"]
            links = Links(store)
            assert await links.get(before["linked"]) == before["links"] != {}
            assert await links.muted(["p0", "p1"]) == before["muted"] == {"p1"}
            for row in await store.all_sessions():
                if row.state is not None:
                    import games
                    state = replay(games.get(row.game_id), row.players, row.options, row.seed,
                                   await store.moves(row.id))
                    assert state.model_dump_json() == row.state
            # new rows continue after the copied ids
            new = await store.create_session("new", "tatari", "x", {}, 1)
            assert new.id == max(r["id"] for r in before["sessions"]) + 1
            assert await store.add_timer("new", "reminder", 5) > max(t["id"] for t in before["timers"])
        finally:
            await store.close()
        # a second copy into the now non-empty database is refused, nothing written
        again = _migrate(source, target)
        assert again.returncode == 5 and "already holds sessions" in again.stderr
    finally:
        await drop_schema(url, schema)


@pytest.mark.parametrize("target", ["sqlite:///elsewhere.sqlite3", "mysql://x"])
def test_migrate_store_refuses_a_target_that_is_not_postgresql(tmp_path, target):
    source = tmp_path / "bot.sqlite3"
    source.write_bytes(b"")
    proc = _migrate(str(source), target)
    assert proc.returncode == 5 and "postgresql:// URL" in proc.stderr, proc.stderr
