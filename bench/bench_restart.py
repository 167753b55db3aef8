"""Restart at scale: a store holding N live sessions of all five games, then the real bot started on it (the test
harness's bot object, ``tests/discord/harness.py``, with its restore path: ``PlayBot.prepare`` → ``Play.restore``).
The last line is exactly::

    sessions=<n> ready_s=<x> first_move_ms=<y> rss_mb=<z>

- ``ready_s``: from opening the store to the bot ready to answer (cogs added, live sessions restored, timers
  started), s;
- ``first_move_ms``: the first ``/move`` after that, in one of the restored games, until its answer, ms;
- ``rss_mb``: this process's resident memory after that move, MB (the sessions are written by a child process,
  so none of that work is counted).

The sessions: per game, a 2-player table dealt and played 6 random legal moves through the session service, then
copied (row and move log) to as many channels as it takes, the five games in turn; every channel has its own live
session and board link, as after a day of play. Goals: ready_s <= 10, rss_mb <= 300 at 10,000.

    python bench/bench_restart.py --sessions 10000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from common import SMOKE_HELP  # noqa: E402
from harness import CHANNEL_ID, GUILD_ID, Harness  # noqa: E402

import games  # noqa: E402
from games.ai import next_move  # noqa: E402

PLAYERS = ("101", "102")
OPENING_MOVES = 6


def rss_mb() -> float:
    """Resident set size of this process, MB (``/proc/self/statm``)."""
    import os

    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1_048_576


async def fill(path: Path, sessions: int) -> None:
    """Write ``sessions`` live sessions (all five games in turn) into the SQLite store at ``path``."""
    from bot.sessions import SessionService
    from bot.store import Store

    store = await Store.open(path)
    service = SessionService(store, seeds=iter(range(7, 10**9)).__next__)
    templates = []
    for n, game in enumerate(games.all()):
        channel = str(CHANNEL_ID + n)
        await service.open_lobby(channel, game.id, PLAYERS[0], guild_id=str(GUILD_ID))
        await service.join(channel, PLAYERS[1])
        update = await service.start(channel, PLAYERS[0])
        rng = random.Random(n)
        for _ in range(OPENING_MOVES):
            move = next_move(game, update.state, {}, rng)
            if move is None or move.player is None or update.session.status != "active":
                break
            update = await service.act(channel, move.player, move.option, at_ms=move.at_ms)
        templates.append(update.session.id)
    await store.close()
    db = sqlite3.connect(path)
    cols = "guild_id, game_id, status, host, players, options, seed, state, version, move_count, meta, created_ms, " \
           "updated_ms"
    rows = {sid: db.execute(f"SELECT {cols} FROM sessions WHERE id = ?", (sid,)).fetchone() for sid in templates}
    moves = {sid: db.execute("SELECT seq, player, option, at_ms, created_ms FROM moves WHERE session_id = ?",
                             (sid,)).fetchall() for sid in templates}
    with db:
        for i in range(len(templates), sessions):
            sid = templates[i % len(templates)]
            channel = str(CHANNEL_ID + i)
            cur = db.execute(f"INSERT INTO sessions (channel_id, {cols}) VALUES (?{', ?' * 13})",
                             (channel, *rows[sid]))
            new = cur.lastrowid
            db.executemany("INSERT INTO moves (session_id, seq, player, option, at_ms, created_ms) "
                           "VALUES (?, ?, ?, ?, ?, ?)", [(new, *m) for m in moves[sid]])
        links = [(sid, json.dumps({"names": {"101": "alice", "102": "bob"}, "board": [channel, 900_000 + sid]}), 0)
                 for sid, channel in db.execute("SELECT id, channel_id FROM sessions")]
        db.executemany("INSERT OR REPLACE INTO discord_sessions (session_id, data, updated_ms) VALUES (?, ?, ?)",
                       links)
    db.close()


async def start(path: Path) -> tuple[int, float, float, float]:
    """Start the bot on ``path``: (live sessions, ready s, first move ms, RSS MB after that move)."""
    t0 = time.perf_counter()
    h = Harness(path)
    await h.open()
    ready = time.perf_counter() - t0
    try:
        count = len(await h.store.live_sessions())
        turn_based = [g.id for g in games.all()].index("tatari")  # a decision of a named player, no race window
        channel = CHANNEL_ID + count // 2 - (count // 2) % len(games.all()) + turn_based
        update = await h.bot.service.show(str(channel))
        decision = update.pending[0]
        user = h.user(int(decision.player or PLAYERS[0]), "alice" if decision.player == PLAYERS[0] else "bob")
        t1 = time.perf_counter()
        reply = await h.slash(user, "move", channel_id=channel, option=decision.options[0].id)
        first = (time.perf_counter() - t1) * 1000
        if "board v" not in reply.text:
            raise RuntimeError(f"the first move was refused: {[(r.kind, r.content[:80]) for r in reply]}")
        return count, ready, first, rss_mb()
    finally:
        await h.close()


async def main(sessions: int) -> None:
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bot.sqlite3"
        subprocess.run([sys.executable, __file__, "--fill", str(path), "--sessions", str(sessions)], check=True)
        count, ready, first, rss = await start(path)
        print(f"sessions={count} ready_s={ready:.2f} first_move_ms={first:.0f} rss_mb={rss:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--fill", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; 20 sessions")
    args = parser.parse_args()
    if args.smoke:
        args.sessions = 20
    if args.fill:
        asyncio.run(fill(args.fill, args.sessions))
    else:
        asyncio.run(main(args.sessions))
