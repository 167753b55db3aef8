"""Two bot processes writing one SQLite file at once: every move of both is committed, none refused with
"database is locked" (each process plays several channels at once on its one connection)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = 8
MOVES = 40  # per channel

WRITER = f"""
import asyncio, json, pathlib, random, sqlite3, sys
from bot.sessions import SessionService
from bot.store import Store

async def main(path, index):
    store = await Store.open(path)
    svc = SessionService(store, seeds=lambda: random.getrandbits(62))
    rng = random.Random(index)
    locked = []

    async def setup(ch):
        await svc.open_lobby(ch, "tatari", "a")
        await svc.join(ch, "b")
        return await svc.start(ch, "a")

    async def play(ch, up):
        done = 0
        while done < {MOVES}:
            if up.finished:
                return done
            d = next(d for d in up.pending if d.player is not None)
            try:
                up = await svc.act(ch, d.player, rng.choice(d.options).id)
                done += 1
            except sqlite3.OperationalError as exc:
                locked.append(str(exc))
                up = svc.view(await store.live_session(ch))
        return done

    try:
        channels = [f"p{{index}}-c{{k}}" for k in range({CHANNELS})]
        ups = [await setup(ch) for ch in channels]
        here = pathlib.Path(path).with_name(f"ready-{{index}}")
        here.touch()
        while not here.with_name(f"ready-{{1 - index}}").exists():  # both play at once
            await asyncio.sleep(0.01)
        moves = await asyncio.gather(*(play(ch, up) for ch, up in zip(channels, ups)))
    finally:
        await store.close()
    print(json.dumps({{"moves": sum(moves), "locked": locked}}))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def test_two_processes_writing_one_sqlite_file_at_once_both_commit_every_move(tmp_path):
    import asyncio

    from bot.store import Store

    path = tmp_path / "shared.sqlite3"

    async def migrate() -> None:
        await (await Store.open(path)).close()

    asyncio.run(migrate())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(k)], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    results = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
    assert [r["locked"] for r in results] == [[], []]

    async def count() -> tuple[int, int]:
        store = await Store.open(path)
        try:
            cur = await store.conn.execute("SELECT COUNT(*) FROM moves")
            (stored,) = await cur.fetchone()
            cur = await store.conn.execute("SELECT COUNT(*) FROM sessions")
            (sessions,) = await cur.fetchone()
            return stored, sessions
        finally:
            await store.close()

    moves = sum(r["moves"] for r in results)
    assert moves > CHANNELS * MOVES  # both processes played (a game may end before its last move)
    assert asyncio.run(count()) == (moves, 2 * CHANNELS)
