"""Abuse of expensive commands while others play: move -> reply latency of 50 playing channels through the real
discord.py stack (``tests/discord/harness.py``, real renderer in worker processes as ``python -m bot run``), in three
phases of one run:

1. ``baseline1``: the channels play (2-player Tatari, each channel's player presses a random choice of its board
   after an exponential wait, mean ``--interval`` s: 50 channels at 8.3 s ≈ 6 moves/s; see ``bench_discord.py``);
2. ``spam``: the same, while ``--spammers`` members loop, each ``--gap`` s after its last answer, over ``/replay``
   (a random finished game of their channel), ``/stats public:true``, ``/leaderboard public:true`` and
   ``/play thread:true`` in channels of their own, each holding ``--finished`` finished games;
3. ``baseline2``: the channels play alone again.

Per phase, then last, the lines are exactly::

    phase=<name> moves=<n> p50_ms=<x> p99_ms=<y> rss_mb=<z>
    p99_ratio=<spam p99 / worse baseline p99> rss_growth_mb=<end - start>

``rss_mb``: this process's resident memory at the phase's end (MB; the drawing and render workers are processes
of their own, reported on stderr); ``rss_growth_mb``: at the end of ``baseline2`` minus at the start of
``baseline1``. Goals: p99_ratio <= 1.5, rss_growth_mb <= 50. Spam answers are counted on stderr (drawn, kept,
refused as busy, other).

    python bench/bench_abuse.py                  # 3 phases of 60 s
    python bench/bench_abuse.py --seconds 20     # a quick look
    python bench/bench_abuse.py --loop asyncio   # on asyncio's event loop (default: the bot process's, uvloop)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from bench_discord import Load, summary  # noqa: E402
from bench_memory import rss_mb  # noqa: E402
from common import SMOKE_HELP, loop_option, run_on_loop  # noqa: E402
from harness import Harness, Sent  # noqa: E402

import games  # noqa: E402
from bot.discord.images import Images  # noqa: E402
from games.ai import greedy  # noqa: E402

SPAM_CHANNEL = 710_000_000_000_000_001
"""The first channel of the spammers (one each); the playing channels start at the harness's channel."""
COMMANDS = ("replay", "stats", "leaderboard", "play")


def children_rss_mb() -> float:
    """Resident memory of this process's child processes (render and drawing workers), MB."""
    from bot import memory

    return memory.children_resident_bytes() / 1_048_576


def spammer(h: Harness, channel: int):
    """The member who spams in ``channel`` (and played its finished games)."""
    return h.user(channel * 10 + 1, f"spammer{channel % 100}")


async def finish_games(h: Harness, channel: int, count: int, rng: random.Random, moves: int = 40) -> list[int]:
    """``count`` Tatari games in ``channel`` between its spammer and another member, each played ``moves`` greedy
    moves (or to its end) and then resigned if still running; returns their session ids."""
    alice, bob = spammer(h, channel), h.user(channel * 10 + 2, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    game = games.get("tatari")
    out = []
    for _ in range(count):
        keep, h.fake.keep = h.fake.keep, True
        card = (await h.slash(alice, "play", channel_id=channel, game="tatari")).message(public=True)
        await h.click(bob, card, "Join")
        await h.click(alice, card, "Start")
        sid = (await h.store.live_session(str(channel))).id
        for _ in range(moves):
            row = await h.store.live_session(str(channel))
            if row is None:
                break
            update = await h.bot.service.show(str(channel))
            if not update.pending:
                break
            d = update.pending[0]
            await h.choose(users[d.player], greedy(game, update.state, d, rng), channel)
        if await h.store.live_session(str(channel)) is not None:
            await h.slash(alice, "resign", channel_id=channel)
        h.fake.keep = keep
        h.fake.sent.clear()
        h.fake.messages.clear()
        out.append(sid)
    return out


class PlayLoad(Load):
    """:class:`bench_discord.Load` with lobbies re-opened one at a time and the lobby card found among the
    channel's messages (``Load.open`` looks in its own reply, which another channel's opening may clear meanwhile:
    ``StopIteration`` at tens of channels)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._opening = asyncio.Lock()

    async def open(self, channel: int) -> None:
        a, b = self.users.setdefault(channel, (self.h.user(channel * 10 + 1, "a"), self.h.user(channel * 10 + 2, "b")))
        async with self._opening:
            keep, self.h.fake.keep = self.h.fake.keep, True
            try:
                if await self.h.store.live_session(str(channel)) is not None:  # a reply without buttons was not its
                    await self.h.slash(a, "resign", channel_id=channel)      # end (Load's guess): it ends now
                reply = await self.h.slash(a, "play", game="tatari", channel_id=channel)
                card = next((m for m in reversed(self.h.messages_in(channel)) if any(
                    c.get("label") == "Join" for row in m["components"] for c in row["components"])), None)
                if card is None:
                    raise RuntimeError(f"no lobby card in {channel}: {[(x.kind, x.content[:100]) for x in reply]}")
                await self.h.click(b, card, "Join")
                await self.h.click(a, card, "Start")
            finally:
                self.h.fake.keep = keep
                self.h.fake.sent.clear()
            self.latest[channel] = self.h.board(channel)
            self.finished.discard(channel)

    async def tidy(self, every_s: float = 1.0, keep_ms: int = 30_000) -> None:
        """Forever: forget what the harness keeps of Discord's side (messages, interactions) older than
        ``keep_ms`` except each channel's latest board, so that what grows is the bot's."""
        while True:
            await asyncio.sleep(every_s)
            cut = self.h.snowflake() - (keep_ms << 22)
            boards = {int(m["id"]) for m in self.latest.values()}
            fake = self.h.fake
            for mid in [m for m in fake.messages if m < cut and m not in boards]:
                del fake.messages[mid]
            for token in [t for t, i in fake.interactions.items() if int(i["id"]) < cut]:
                del fake.interactions[token]


class Spam:
    """Members looping over the expensive commands; each waits for its answer before the next."""

    def __init__(self, h: Harness, load: Load, spammers: int, finished: dict[int, list[int]], gap_s: float,
                 seed: int = 2) -> None:
        self.h, self.load, self.finished, self.gap_s = h, load, finished, gap_s
        self.rng = random.Random(seed)
        self.members = [spammer(h, SPAM_CHANNEL + i) for i in range(spammers)]
        self.waiting: dict[int, asyncio.Future] = {}
        self.answers: Counter[str] = Counter()
        self.stop = False
        previous = load.on_record

        def on_record(sent: Sent) -> None:
            previous(sent)
            self.on_record(sent)

        h.fake.on_record = on_record

    def on_record(self, sent: Sent) -> None:
        future = self.waiting.get(sent.interaction_id) if sent.interaction_id is not None else None
        if future is None or future.done():
            return
        if sent.kind == "response" and sent.type == 5:  # "thinking…": the answer follows
            return
        if sent.kind in ("response", "followup"):
            future.set_result(sent)

    def command(self, i: int, n: int) -> tuple[str, dict]:
        name = COMMANDS[n % len(COMMANDS)]
        if name == "replay":
            return name, {"game": str(self.rng.choice(self.finished[SPAM_CHANNEL + i]))}
        if name == "leaderboard":
            return name, {"game": "tatari", "public": True}
        if name == "play":
            return name, {"game": "tatari", "thread": True}
        return name, {"public": True}

    async def member(self, i: int) -> None:
        user, channel, n = self.members[i], SPAM_CHANNEL + i, i
        while not self.stop:
            name, options = self.command(i, n)
            n += 1
            self.h.now_ms = int(time.time() * 1000)
            data = {"id": str(10_000 + hash(name) % 10_000), "name": name, "type": 1,
                    "options": self.h._options(options)}
            payload = self.h._interaction(user, 2, data, channel)
            future = asyncio.get_running_loop().create_future()
            self.waiting[int(payload["id"])] = future
            self.h.bot._connection.parse_interaction_create(payload)
            try:
                sent = await asyncio.wait_for(future, 60)
            except TimeoutError:
                self.answers["unanswered"] += 1
                continue
            finally:
                self.waiting.pop(int(payload["id"]), None)
            self.answers[self.kind(name, sent)] += 1
            await asyncio.sleep(self.gap_s)

    @staticmethod
    def kind(name: str, sent: Sent) -> str:
        if sent.content.startswith("Busy"):
            return f"{name} busy"
        if sent.files:
            return f"{name} with image"
        return f"{name} other"

    async def run(self, seconds: float) -> None:
        tasks = [asyncio.ensure_future(self.member(i)) for i in range(len(self.members))]
        await asyncio.sleep(seconds)
        self.stop = True
        await asyncio.gather(*tasks)


async def phase(load: Load, name: str, seconds: float, spam: Spam | None = None) -> float:
    load.latencies.clear()
    load.images.clear()
    load.sampling = True
    if spam is not None:
        await asyncio.gather(load.clients(seconds), spam.run(seconds))
    else:
        await load.clients(seconds)
    load.sampling = False
    s = summary(load.latencies)
    rss = rss_mb()
    print(f"phase={name} moves={s['n']} p50_ms={s.get('p50', 0):.1f} p99_ms={s.get('p99', 0):.1f} rss_mb={rss:.1f}",
          flush=True)
    print(f"  workers rss {children_rss_mb():.1f} MB", file=sys.stderr, flush=True)
    return s.get("p99", 0.0)


async def main(channels: int, interval: float, seconds: float, spammers: int, finished: int, gap_s: float,
               smoke: bool = False) -> None:
    """The three phases and the lines; ``smoke``: boards rendered in threads, finished games of 6 moves, a short
    warm-up (worker processes take seconds to start)."""
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        from bot.config import Settings

        settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=Path(tmp) / "out")
        h = Harness(Path(tmp) / "bench.sqlite3", settings=settings, image_wait_s=0.05,
                    images=lambda: Images(processes=not smoke))
        h.now_ms = int(time.time() * 1000)
        await h.open()
        try:
            rng = random.Random(3)
            games_of = {}
            for i in range(spammers):
                games_of[SPAM_CHANNEL + i] = await finish_games(h, SPAM_CHANNEL + i, finished, rng, 6 if smoke else 40)
            h.fake.keep = False
            load = PlayLoad(h, channels, interval)
            for i in range(channels):
                await load.open(load.channel(i))
            tidy = asyncio.ensure_future(load.tidy())
            await load.clients(0.5 if smoke else 3.0)  # warm-up: every channel has a board, the render workers run
            start = rss_mb()
            base1 = await phase(load, "baseline1", seconds)
            spam = Spam(h, load, spammers, games_of, gap_s)
            burst = await phase(load, "spam", seconds, spam)
            print(f"  spam answers: {dict(sorted(spam.answers.items()))}", file=sys.stderr, flush=True)
            h.fake.on_record = load.on_record
            base2 = await phase(load, "baseline2", seconds)
            end = rss_mb()
            print(f"p99_ratio={burst / max(base1, base2, 1e-9):.2f} rss_growth_mb={end - start:.1f}")
            tidy.cancel()
        finally:
            await h.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--interval", type=float, default=50 / 6, help="mean seconds between a channel's presses")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds per phase")
    parser.add_argument("--spammers", type=int, default=10)
    parser.add_argument("--finished", type=int, default=3, help="finished games in each spammer's channel")
    parser.add_argument("--gap", type=float, default=0.5, help="seconds a spammer waits after an answer before "
                        "the next command (a Discord client sends a few a second at the most)")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; 4 channels, 2 spammers with one "
                        "finished game of 6 moves each, phases of 2 s, boards rendered in threads")
    loop_option(parser)
    args = parser.parse_args()
    if args.smoke:
        args.channels, args.interval, args.seconds, args.spammers, args.finished = 4, 0.5, 2.0, 2, 1
    run_on_loop(main(args.channels, args.interval, args.seconds, args.spammers, args.finished, args.gap, args.smoke),
                args.loop)
