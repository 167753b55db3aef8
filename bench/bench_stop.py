"""How fast the real ``python -m bot run`` stops, and that nothing is lost: per phase, the bot is started against the
local stand-in of Discord (``tests/discord/standin.py``), SIGTERM is sent to its process group in that phase, and the
time to the process's exit is measured. One line per phase, exactly::

    phase=<name> exit_s=<x> rc=<n> lost=<n>

Phases: ``warm-up`` (the signal as soon as the store is open, while the bot starts), ``idle`` (connected, nothing to
do), ``mid-move`` (tables of ``normal`` AI seats moving without a pause: moves committed all the time),
``ai-search`` (``strong`` AI seats searching their full budget), ``race-window`` (Tatamokatsu AI seats racing). The
busy phases' games are seeded in the store before the start (a host and up to three AI seats); while the bot runs, this
script plays the host's turns in the same store (greedy, as a second process would) and the bot the AI seats'.

``lost``: sessions whose stored state does not replay from their move log (a half move stored), plus active sessions
whose next decision is an AI seat's with no timer left to make it (a move in flight dropped). Goals: exit_s <= 2 in
every phase, lost 0, rc 0.

    PYTHONPATH=$PWD python bench/bench_stop.py [--smoke] [--phase NAME ...]

``--smoke``: the same code paths with shorter waits in each phase (a few seconds in all).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from running import CONNECTED, Running  # noqa: E402

from bot.ai_seats import is_ai  # noqa: E402
from bot.sessions import SessionError, SessionService  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.copy import check_replays  # noqa: E402
from games.ai import greedy  # noqa: E402

GUILD = "800000000000000001"
PHASES = {
    # name: (game, AI level, tables, env)
    "warm-up": (None, None, 0, {}),
    "idle": (None, None, 0, {}),
    "mid-move": ("tatari", "normal", 4, {"AI_PAUSE_MS": "0"}),
    "ai-search": ("tsukimi", "strong", 2, {"AI_PAUSE_MS": "0", "AI_BUDGET_MS": "1000"}),
    "race-window": ("tatamokatsu", "normal", 2, {"AI_PAUSE_MS": "0"}),
}


HOST = "100000000000000001"


def channels(tables: int) -> list[str]:
    return [str(700000000000000001 + t) for t in range(tables)]


async def seed(db: Path, game: str | None, level: str | None, tables: int) -> None:
    """``tables`` games of ``game``: :data:`HOST` and up to three AI seats of ``level``."""
    store = await Store.open(str(db))
    try:
        service = SessionService(store)
        for channel in channels(tables):
            seats = min(3, service.game(game).max_players - 1)
            await service.open_lobby(channel, game, HOST, guild_id=GUILD, ai_seats=seats, ai_level=level)
            await service.start(channel, HOST)
    finally:
        await store.close()


async def host_turns(db: Path, tables: int, stop: asyncio.Event) -> None:
    """Play :data:`HOST`'s decisions (greedy) in every table until ``stop``; a finished game is opened again."""
    store = await Store.open(str(db))
    rng = random.Random(1)
    try:
        service = SessionService(store)
        while not stop.is_set():
            for channel in channels(tables):
                row = await store.live_session(channel)
                if row is None or row.status != "active":
                    continue
                game, state = service.game(row.game_id), service.state_of(row)
                for decision in game.pending(state):
                    if decision.player == HOST:
                        try:
                            await service.act(channel, HOST, greedy(game, state, decision, rng),
                                              expect_version=row.version)
                        except SessionError:  # the AI seats moved meanwhile: look again
                            pass
                        break
            await asyncio.sleep(0.05)
    finally:
        await store.close()


async def lost(db: Path) -> int:
    """Sessions that do not replay, and active ones waiting on an AI seat with no timer to move it."""
    store = await Store.open(str(db))
    try:
        replayed, problems = await check_replays(store)
        moves = sum(row.move_count for row in await store.live_sessions())
        sys.stderr.write(f"  {replayed} sessions replayed, {moves} moves in the live ones\n")
        service = SessionService(store)
        stuck = 0
        for row in await store.live_sessions():
            if row.status != "active":
                continue
            pending = service.game(row.game_id).pending(service.state_of(row))
            if any(is_ai(d.player) for d in pending) and not await store.timers(row.id):
                stuck += 1
        return len(problems) + stuck
    finally:
        await store.close()


async def one(name: str, smoke: bool) -> str:
    game, level, tables, env = PHASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bot.sqlite3"
        if game is not None:
            await seed(db, game, level, tables)
        async with Running(Path(tmp), guilds={GUILD: channels(tables)}, **env) as bot:
            await bot.logged("store: " if name == "warm-up" else CONNECTED)
            if name != "warm-up":
                stop = asyncio.Event()
                host = asyncio.create_task(host_turns(db, tables, stop))
                await asyncio.sleep(1.0 if smoke else 5.0)
                stop.set()
                await host
            exit_s, rc = await bot.stop()
            if os.environ.get("BENCH_STOP_LOG"):
                sys.stderr.write(bot.err)
        return f"phase={name} exit_s={exit_s:.2f} rc={rc} lost={await lost(db)}"


async def main(phases: list[str], smoke: bool) -> None:
    for name in phases:
        print(await one(name, smoke), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="shorter waits per phase (a few seconds in all)")
    parser.add_argument("--phase", action="append", choices=list(PHASES), help="only these phases")
    args = parser.parse_args()
    asyncio.run(main(args.phase or list(PHASES), args.smoke))
