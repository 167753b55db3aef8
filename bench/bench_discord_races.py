"""Race inputs through the real Discord stack: input -> ack latency, ``python bench/bench_discord_races.py``.

One sample: a Tatamokatsu race input fed as a real gateway payload (a race button INTERACTION_CREATE, a
MESSAGE_CREATE "tatamokatsu", or a MESSAGE_REACTION_ADD 📣 on the roll message) into discord.py's
``ConnectionState`` (``tests/discord/harness.py``), through ``bot/discord/races.py`` and ``SessionService.act`` (one
SQLite transaction, WAL + synchronous=FULL) until its handler is done: for a button, the ephemeral "counted" answer
was received; for a message or a reaction, the move is committed (they get no reply while the race goes on).

Load: ``--channels`` channels, each a 4-player race window (window 60 s on the fake clock); inputs go round-robin
over channels, players and the three kinds, ``--burst`` at a time (fed together, then awaited), for ``--inputs``
inputs. A window's deadline is never reached (the fake clock moves 1 ms a burst). Board images are off (the race
input path renders nothing: acks are text).

    python bench/bench_discord_races.py                      # 4 channels, 600 inputs, bursts of 1 and 8
    python bench/bench_discord_races.py --channels 20 --inputs 2000
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from common import SMOKE_HELP  # noqa: E402
from harness import Harness  # noqa: E402
from test_discord_play import open_game  # noqa: E402

SHOUT = "Shout Tatamokatsu!"
E_SHOUT = "\N{CHEERING MEGAPHONE}"


def no_render(state, names):
    return None


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


async def run(channels: int, inputs: int, burst: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness(Path(tmp) / "bench.sqlite3", render=no_render) as h:
            await h.bot.timers.stop()  # the fake clock never reaches a deadline; no dispatcher needed
            tables = []
            for c in range(channels):
                cid = h.channel_id + c
                users = [h.user(1000 * (c + 1) + i, f"p{c}_{i}") for i in range(4)]
                await open_game(h, users, channel_id=cid, game="tatamokatsu", options="window_ms=60000")
                board = h.board(cid)
                reply = await h.click(users[0], board, "Roll the dice")
                msg = reply.message(public=True)
                tables.append((cid, users, msg))
            kinds = itertools.cycle(["button", "message", "reaction"])
            lat: dict[str, list[float]] = {"button": [], "message": [], "reaction": []}
            order = itertools.cycle([(t, u) for t in tables for u in t[1][1:]])
            done = 0
            t_all = time.perf_counter()
            while done < inputs:
                batch = []
                for _ in range(min(burst, inputs - done)):
                    (cid, _, msg), user = next(order)
                    batch.append((next(kinds), cid, msg, user))
                h.advance(1)

                async def one(kind, cid, msg, user):
                    t0 = time.perf_counter()
                    if kind == "button":
                        await h.click(user, msg, SHOUT)
                    elif kind == "message":
                        await h.say(user, "tatamokatsu", channel_id=cid)
                    else:  # a user adds a reaction once: forget it, so each sample is a first delivery
                        h.bot.races._seen.clear()
                        await h.react(user, int(msg.message["id"]), E_SHOUT, channel_id=cid)
                    lat[kind].append((time.perf_counter() - t0) * 1000)

                await asyncio.gather(*(one(*b) for b in batch))
                done += len(batch)
            wall = time.perf_counter() - t_all
            moves = 0
            for cid, _, _ in tables:
                row = await h.store.live_session(str(cid))
                moves += len([m for m in await h.store.moves(row.id) if m.option == "shout"])
            return {"lat": lat, "wall": wall, "moves": moves}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--channels", type=int, default=4)
    ap.add_argument("--inputs", type=int, default=600)
    ap.add_argument("--bursts", type=int, nargs="*", default=[1, 8])
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = ap.parse_args()
    if args.smoke:
        args.channels, args.inputs, args.bursts = 2, 12, [1, 4]
    logging.basicConfig(level=logging.WARNING)
    print(f"race input -> ack, {args.channels} channels, {args.inputs} inputs a run (ms)")
    print(f"{'burst':>5} {'kind':>9} {'n':>5} {'p50':>7} {'p90':>7} {'p99':>7} {'max':>7}   inputs/s")
    for burst in args.bursts:
        res = asyncio.run(run(args.channels, args.inputs, burst))
        for kind, xs in res["lat"].items():
            if xs:
                print(f"{burst:>5} {kind:>9} {len(xs):>5} {statistics.median(xs):7.2f} {pct(xs, 90):7.2f} "
                      f"{pct(xs, 99):7.2f} {max(xs):7.2f}")
        print(f"{burst:>5} {'all':>9} {args.inputs:>5}  {args.inputs / res['wall']:.0f} inputs/s; "
              f"{res['moves']} shouts logged")


if __name__ == "__main__":
    main()
