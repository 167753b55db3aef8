"""Results benchmark. Run: ``python bench/bench_results.py [--games N] [--db PATH]``.

Fills a database (migrations applied by :class:`bot.store.Store`) with N finished games (default 100,000) of the
five games in one server — 2 to 5 seats each drawn from 300 players, ranks, scores, ratings — then prints the median
time of what ``/leaderboard`` and ``/stats`` do besides talking to Discord: the store query, and the query plus the
text and the card. Goal: <= 50 ms median each (with 100,000 games).

The fill writes the rows directly (one transaction, ``executemany``): recording 100,000 games one by one through
:meth:`bot.store.records.RecordStore.record_game` would take minutes and measure nothing the goal is about.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import SMOKE_HELP  # noqa: E402

import games  # noqa: E402
from bot import results  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.records import ordinal  # noqa: E402

GUILD = "800000000000000001"
PLAYERS = 300
GOAL_MS = 50.0
REPEAT = 40


def fill(path: str, n_games: int, seed: int = 1) -> None:
    """Write ``n_games`` finished games with their seats and the players' ratings into the database at ``path``
    (already migrated)."""
    rng = random.Random(seed)
    game_ids = [g.id for g in games.all()]
    players = [str(900_000_000_000_000_000 + i) for i in range(PLAYERS)]
    sessions, records, seats = [], [], []
    tally: dict[tuple[str, str], list[int]] = {}
    t0 = 1_750_000_000_000
    for sid in range(1, n_games + 1):
        game_id = rng.choice(game_ids)
        table = rng.sample(players, rng.randint(2, 5))
        ended = t0 + sid * 60_000
        order = table[:]
        rng.shuffle(order)
        channel = str(700_000_000_000_000_000 + sid % 50)
        sessions.append((sid, channel, GUILD, game_id, "finished", table[0], json.dumps(table), "{}", sid, ended,
                         ended))
        records.append((sid, game_id, GUILD, channel, "{}", sid, len(table), ended - 1_800_000, ended,
                        rng.randint(20, 300), "finished", "", 1))
        for seat, p in enumerate(table):
            rank = order.index(p) + 1
            mu = 25 + rng.uniform(-5, 5)
            seats.append((sid, seat, p, f"player {p[-3:]}", None, rng.randint(0, 60), rank, 0, int(rank == 1),
                          mu, 8.0, mu + 0.5, 7.9, game_id, GUILD, len(table), ended, "finished"))
            t = tally.setdefault((game_id, p), [0, 0])
            t[0] += 1
            t[1] += rank == 1
    ratings = []
    for (game_id, p), (played, wins) in tally.items():
        mu, sigma = rng.uniform(15, 35), max(1.0, 8.33 / (1 + played / 50))
        ratings.append((GUILD, game_id, p, f"player {p[-3:]}", mu, sigma, ordinal(mu, sigma), played, wins, t0))
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany("INSERT INTO sessions (id, channel_id, guild_id, game_id, status, host, players, options,"
                         " seed, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", sessions)
        conn.executemany("INSERT INTO game_records (session_id, game_id, guild_id, channel_id, options, seed, seats,"
                         " started_ms, ended_ms, moves, outcome, reason, rated) VALUES"
                         " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", records)
        conn.executemany("INSERT INTO game_seats (session_id, seat, player_id, display_name, ai_level, score, rank,"
                         " resigned, won, mu_before, sigma_before, mu_after, sigma_after, game_id, guild_id, seats,"
                         " ended_ms, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
        conn.executemany("INSERT INTO ratings (guild_id, game_id, player_id, display_name, mu, sigma, ordinal, games,"
                         " wins, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ratings)
    conn.execute("ANALYZE")
    conn.close()


async def median_ms(fn, repeat: int = REPEAT) -> float:
    """Median wall time of ``await fn()``, ms (after one warm-up)."""
    await fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", default=None, help="database file (default: a temporary one)")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; 300 games, 3 runs a median, exit 0 "
                        "whatever the figures")
    args = parser.parse_args()
    if args.smoke:
        args.games = 300
    if args.db is not None:
        return await measure(args.db, args.games, args.smoke)
    with tempfile.TemporaryDirectory(prefix="bench-results-") as tmp:
        return await measure(str(Path(tmp) / "results.sqlite3"), args.games, args.smoke)


async def measure(path: str, n_games: int, smoke: bool) -> int:
    """Fill ``path`` with ``n_games`` finished games and print the medians; 1 when a goal is missed (never in a
    ``smoke`` run: 3 runs a median, figures meaningless)."""
    store = await Store.open(path)
    await store.close()
    t = time.perf_counter()
    fill(path, n_games)
    print(f"filled {n_games:,} finished games in {time.perf_counter() - t:.1f} s ({path})")
    store = await Store.open(path, check=False)
    rng = random.Random(2)
    tatari = games.get("tatari")
    players = [str(900_000_000_000_000_000 + i) for i in range(PLAYERS)]

    async def leaderboard_query():
        return await store.leaderboard(GUILD, rng.choice([g.id for g in games.all()]))

    async def leaderboard_answer():
        standings = await store.leaderboard(GUILD, tatari.id)
        return results.leaderboard_text(tatari, standings), results.leaderboard_card(tatari, standings)

    async def stats_query():
        return await store.player_stats(GUILD, rng.choice(players))

    async def stats_game_query():
        return await store.player_stats(GUILD, rng.choice(players), "tatari")

    async def stats_answer():
        stats = await store.player_stats(GUILD, rng.choice(players))
        return results.stats_text(stats), results.stats_card(stats)

    seats = (await (await store.conn.execute("SELECT COUNT(*) FROM game_seats")).fetchone())[0]
    repeat = 3 if smoke else REPEAT
    print(f"{seats:,} seats; {PLAYERS} players in one server; medians of {repeat} runs:")
    failed = False
    for label, fn in (("/leaderboard query", leaderboard_query), ("/leaderboard query + text + card",
                                                                   leaderboard_answer),
                      ("/stats query (every game)", stats_query), ("/stats query (one game)", stats_game_query),
                      ("/stats query + text + card", stats_answer)):
        ms = await median_ms(fn, repeat)
        ok = ms <= GOAL_MS
        failed |= not ok
        print(f"  {label:36s} {ms:7.2f} ms  {'ok' if ok else 'OVER'} (goal <= {GOAL_MS:.0f} ms)")
    await store.close()
    return 1 if failed and not smoke else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
