"""Discord adapter benchmark: move -> reply latency through the real stack, ``python bench/bench_discord.py``.

What one sample is: a button press built as a real INTERACTION_CREATE payload, fed to discord.py's
``ConnectionState.parse_interaction_create`` (gateway parsing, ``DynamicItem`` dispatch), our handler
(``SessionService.act``: one SQLite transaction on a file with WAL + ``synchronous=FULL``), the board image
(``renderers.render`` in a worker thread), and the interaction response with the PNG, received by the recording
webhook adapter (``tests/discord/harness.py``). Latency = response received - payload fed, in ms. Bookkeeping after
the reply (store the board id, reset timers, strip the old board's buttons) runs too, and competes for the loop.

Load: N channels, each a 2-player Tatari game; each channel's current player presses a random button of the latest
board (one of the decision's options, or a lookup: Rules, Full board — about half the presses; ``--moves-only``: the
options alone, every press a move) after an exponential wait (mean ``--interval`` s, default 5 s: 200 channels ≈ 40 moves/s) that starts when
their previous press is answered (as a person would: they wait for the answer, not poll for it — a client that
polls spends the bot's own CPU at the ramp's high rates). Finished games are re-opened (lobby + start, not sampled).

Runs: 1 channel (time compressed 25x: mean wait 0.2 s, still one press in flight at most — latency of a lone
channel does not depend on the wait), 50 and 200 channels in real time; then the ramp: 200 channels with the mean
wait halved each step (40, 80, 160 … moves/s offered) until p99 reaches 1 s, reporting achieved moves/s per step
(the presses made in the step's window and answered, over the window's seconds: re-opening finished games after the
window does not stretch it).
Every line ends ``errors=<n>``: the ERROR log lines of that run (the ramp's last line: of all its steps). Last::

    knee_moves_s=<x> floor_moves_s=<y> knee_ratio=<x/y> errors=<n>

Each run also prints the CPU it used per move in its window: this process's (the event loop, SQLite's and the
pool's threads; of it, the cyclic garbage collector's, with its longest collection: a pause of the event loop) and
its render workers' (Linux: from ``/proc``) — the knee is where their sum fills the cores. Where the players looked
something up, a line gives the latency of those private answers too (press -> answer, ms; Rules, Full board).

``knee_moves_s``: moves/s achieved by the ramp's last step with p99 under 1 s; ``floor_moves_s``: the process's
render-bound limit, cores / render-and-encode CPU seconds per board (measured in this run, in a fresh render worker:
:func:`worker_render_cpu_s`).

    python bench/bench_discord.py                # 1, 50, 200 channels, 30 s each, then the ramp
    python bench/bench_discord.py --seconds 10 --no-ramp
    python bench/bench_discord.py --moves-only   # every press a move (no Rules / Full board lookups)
    python bench/bench_discord.py --rate-limited # late_answers=<n> interactions=<m>
    python bench/bench_discord.py --smoke        # a few seconds, tiny sizes: does it still run
    python bench/bench_discord.py --loop asyncio # on asyncio's event loop (default: the bot process's, uvloop)

``--rate-limited``: whole 5-player Tatari games (``--games``, seeds 1…) under Discord's rate limits as the harness
plays them (5 sends and 5 edits per 5 s per channel, 50 requests/s; 429 with Retry-After) on a virtual clock, a
move every 0.15–0.35 s by ``/move`` or by a press on a private ``/board`` copy
(``tests/discord/test_discord_rate_limits.py``); prints how many interactions were answered after Discord's 3 s
(or never) out of all fed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from common import loop_option, run_on_loop  # noqa: E402
from harness import Harness, ManualClock, Sent  # noqa: E402

from bot.discord.bot import IMAGE_WAIT_S  # noqa: E402
from bot.discord.images import Images  # noqa: E402

PROMPT = re.compile(r"➡️ <@(\d+)>")
UPDATE_MESSAGE = 7
"""The interaction callback that edits the pressed message in place."""


class Load:
    """N channels pressing buttons; collects latencies (ms) of public board replies."""

    PRESSED = ("pbc:",)
    """What a player presses: a random component of the board whose ``custom_id`` starts so — any of its buttons:
    the decision's options, and the Rules and Full board lookups (answered privately, not counted as moves; a Full
    board press renders a whole board of its own), as the figures of this bench have been measured since its goals
    were set. ``--moves-only``: the options alone (:data:`BOARD_PREFIXES`)."""

    def __init__(self, h: Harness, channels: int, interval_s: float, seed: int = 1) -> None:
        self.h, self.n, self.interval = h, channels, interval_s
        self.rng = random.Random(seed)
        self.users = {}
        self.latest: dict[int, dict] = {}  # channel -> latest board message payload
        self.inflight: dict[int, tuple[int, float, bool]] = {}  # interaction id -> (channel, t0, sampled)
        self.busy: set[int] = set()
        self.answered: dict[int, asyncio.Event] = {}  # channel -> set when its press in flight is answered
        self.finished: set[int] = set()
        self.latencies: list[float] = []  # press -> reply (text + components; the image too when it was ready)
        self.images: list[float] = []  # press -> the message has its image
        self.t0: dict[int, float] = {}  # interaction id -> press time, until the image arrived
        self.refused = 0
        self.private: list[float] = []  # press -> its private answer (a lookup's: Rules, Full board), sampled ones
        self.sampling = False  # presses made while it is set are sampled, whenever their answer comes
        self.cards: dict[int, asyncio.Future] = {}  # channel opening -> its lobby card (a message payload)
        self.boards_due: dict[int, asyncio.Future] = {}  # channel opening -> its first board
        self.replies_due: dict[int, asyncio.Future] = {}  # interaction id of an opening's press -> its answer
        self.done = asyncio.Event()
        h.fake.keep = False
        h.fake.on_record = self.on_record

    def channel(self, i: int) -> int:
        return self.h.channel_id + i

    def on_record(self, sent: Sent) -> None:
        now = time.perf_counter()
        if self.cards or self.boards_due or self.replies_due:
            self.opened(sent)
        if sent.interaction_id is None:
            return
        if sent.kind == "edit_original" and sent.files:
            t0 = self.t0.pop(sent.interaction_id, None)
            if t0 is not None:  # kept for sampled presses only
                self.images.append((now - t0) * 1000)
            return
        if sent.kind not in ("response", "followup"):
            return
        if sent.type == UPDATE_MESSAGE and not sent.components:
            return  # the pressed board retired (a new turn's board follows as a follow-up): not the reply yet
        entry = self.inflight.pop(sent.interaction_id, None)
        if entry is None:
            return
        channel, t0, sampled = entry
        self.busy.discard(channel)
        self.answered.setdefault(channel, asyncio.Event()).set()
        if sent.ephemeral:
            self.refused += 1
            if sampled:
                self.private.append((now - t0) * 1000)
            return
        if sampled:
            self.latencies.append((now - t0) * 1000)
            if sent.files:
                self.images.append((now - t0) * 1000)
            else:
                self.t0[sent.interaction_id] = t0
        if sent.message is not None and sent.components:
            self.latest[channel] = sent.message
        else:  # game over: the channel's client opens a new one
            self.latest.pop(channel, None)
            self.finished.add(channel)

    def opened(self, sent: Sent) -> None:
        """What an opening waits for: its channel's lobby card, the answer to its Join, its first board."""
        due = self.replies_due.pop(sent.interaction_id, None) if sent.interaction_id is not None else None
        if due is not None and not due.done():
            due.set_result(sent.message)
        channel = sent.channel_id
        if channel is None or sent.ephemeral:
            return
        card = self.cards.get(channel)
        if card is not None and not card.done() and "Join" in sent.buttons():
            card.set_result(sent.message)
        board = self.boards_due.get(channel)
        if board is not None and not board.done() and any(c.startswith(BOARD_PREFIXES) for c in sent.custom_ids()):
            board.set_result(sent.message)

    async def open(self, channel: int) -> None:
        """Open, join and start a game in ``channel`` through interactions (not sampled), each step awaited by its
        own answer (the other channels play on meanwhile: nothing waits for the whole bot to be idle)."""
        a, b = self.users.setdefault(channel, (self.h.user(channel * 10 + 1, "a"), self.h.user(channel * 10 + 2, "b")))
        loop = asyncio.get_running_loop()
        self.cards[channel], self.boards_due[channel] = loop.create_future(), loop.create_future()
        try:
            self.h.now_ms = int(time.time() * 1000)
            self.h.fire_slash(a, "play", channel_id=channel, game="tatari")
            card = await asyncio.wait_for(self.cards[channel], OPEN_TIMEOUT_S)
            joined = self.replies_due[self.h.fire_click(b, card, "Join")] = loop.create_future()
            card = await asyncio.wait_for(joined, OPEN_TIMEOUT_S) or card
            self.h.fire_click(a, card, "Start")
            self.latest[channel] = await asyncio.wait_for(self.boards_due[channel], OPEN_TIMEOUT_S)
        finally:
            del self.cards[channel], self.boards_due[channel]
        self.finished.discard(channel)

    def press(self, channel: int) -> None:
        board = self.latest.get(channel)
        if board is None or channel in self.busy:
            return
        m = PROMPT.search(board["content"])
        if m is None:
            return
        users = {u.sid: u for u in self.users[channel]}
        user = users.get(m.group(1))
        comps = [c for row in board["components"] for c in row["components"]
                 if c.get("custom_id", "").startswith(self.PRESSED)]
        if user is None or not comps:
            return
        comp = self.rng.choice(comps)
        data = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] == 3:
            data["values"] = [self.rng.choice(comp["options"])["value"]]
        self.h.now_ms = int(time.time() * 1000)
        payload = self.h._interaction(user, 3, data, channel, board)
        self.busy.add(channel)
        self.answered.setdefault(channel, asyncio.Event()).clear()
        self.inflight[int(payload["id"])] = (channel, time.perf_counter(), self.sampling)
        self.h.bot._connection.parse_interaction_create(payload)

    async def clients(self, seconds: float) -> None:
        async def one(channel: int) -> None:
            end = time.perf_counter() + seconds
            while True:
                if channel in self.busy:  # the player reads the answer before thinking again (no polling)
                    try:
                        await asyncio.wait_for(self.answered[channel].wait(), end - time.perf_counter())
                    except TimeoutError:
                        return
                wait = self.rng.expovariate(1 / self.interval)
                if time.perf_counter() + wait > end:
                    return
                await asyncio.sleep(wait)
                if channel in self.finished:
                    await self.open(channel)
                else:
                    self.press(channel)

        await asyncio.gather(*(one(self.channel(i)) for i in range(self.n)))


BOARD_PREFIXES = ("pbc:c:", "pbc:m:", "pbc:g:")
"""A board's choice components (buttons, menus, race buttons): a message with one is a board to play on."""

OPEN_TIMEOUT_S = 30.0
"""How long one step of opening a game may wait for its answer before the bench fails (s)."""


class Collections:
    """The cyclic garbage collector's work while installed (``with Collections() as c``, a ``gc.callbacks`` entry):
    ``cpu_s``, the CPU seconds of the thread that collected (the event loop's, nearly always), and ``longest_ms``,
    the longest collection's wall time (a pause of the event loop)."""

    def __init__(self) -> None:
        self.cpu_s = 0.0
        self.longest_ms = 0.0
        self._started = (0.0, 0.0)

    def _note(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = (time.thread_time(), time.perf_counter())
            return
        self.cpu_s += time.thread_time() - self._started[0]
        self.longest_ms = max(self.longest_ms, (time.perf_counter() - self._started[1]) * 1000)

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._note)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._note)


class ErrorCount(logging.Handler):
    """Counts the ERROR (and worse) log records while installed on the root logger (``with ErrorCount() as c``)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1

    def __enter__(self) -> ErrorCount:
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger().removeHandler(self)


def summary(lat: list[float]) -> dict:
    if not lat:
        return {"n": 0}
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0]] * 99
    return {"n": len(lat), "p50": q[49], "p90": q[89], "p99": q[98], "max": max(lat)}


WORKERS_WARM_S = 6.0
"""How long after the bot's start its render workers may still be warming the renderers (``Images.start``: 3-4 s of
CPU each, two at once on two cores beside the bot's own start), s: no sampled window starts before. With only the
2 s warm-up, the 1-channel run's first presses found them still warming: 4 of its 146 moves waited the whole image
wait (50 ms; its p99 53 ms) and the workers' CPU per move was mostly their start-up."""

STUB_PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 50_000


def stub_render(state, names) -> bytes:
    """A constant 50 KB "PNG": the stack without the renderer's cost (module level: picklable for processes)."""
    return STUB_PNG


async def run(channels: int, seconds: float, interval: float, warmup: float = 2.0, stub: bool = False,
              image_wait_s: float = IMAGE_WAIT_S, processes: bool = False, moves_only: bool = False) -> dict:
    """One run: ``channels`` tables playing for ``seconds`` after ``warmup``; the latency summaries, moves/s and
    ``errors`` (ERROR log lines from the start of the bot to its stop); ``moves_only``: the players press the
    decision's options alone (no lookups)."""
    with tempfile.TemporaryDirectory() as tmp, ErrorCount() as errors:
        h = Harness(Path(tmp) / "bench.sqlite3", image_wait_s=image_wait_s,
                    images=lambda: Images(stub_render if stub else None, processes=processes))
        h.now_ms = int(time.time() * 1000)
        await h.open()
        opened = time.perf_counter()
        try:
            load = Load(h, channels, interval)
            if moves_only:
                load.PRESSED = BOARD_PREFIXES
            for i in range(channels):
                await load.open(load.channel(i))
            # the players play on until the render workers are warm (no window measures their start-up)
            await load.clients(max(warmup, opened + WORKERS_WARM_S - time.perf_counter()) if processes else warmup)
            # the window: presses made in these ``seconds`` are sampled (a press's moment, not its answer's, decides),
            # so the re-opening of finished games that outlasts the window does not stretch it
            load.sampling = True
            window = asyncio.get_running_loop().call_later(seconds, setattr, load, "sampling", False)
            cpu0 = time.process_time(), children_cpu_s()
            with Collections() as collector:
                await load.clients(seconds)
            cpu1 = time.process_time(), children_cpu_s()
            window.cancel()
            load.sampling = False
            elapsed = seconds
            await asyncio.sleep(0.5)
            await h.bot.idle()
        finally:
            await h.close()
    res = summary(load.latencies)
    res["image"] = summary(load.images)
    res["private"] = summary(load.private)
    res.update(channels=channels, interval=interval, seconds=round(elapsed, 1),
               moves_per_s=round(len(load.latencies) / elapsed, 1), refused=load.refused, errors=errors.count,
               cpu_ms=(cpu1[0] - cpu0[0]) * 1000 / max(1, len(load.latencies)),
               workers_cpu_ms=None if (used := children_cpu_used_s(cpu0[1], cpu1[1])) is None else
               used * 1000 / max(1, len(load.latencies)),
               gc_cpu_ms=collector.cpu_s * 1000 / max(1, len(load.latencies)), gc_longest_ms=collector.longest_ms)
    return res


def children_cpu_s() -> dict[int, float] | None:
    """CPU seconds (user + system) used so far by each live child process of this one (the render workers,
    :func:`bot.memory.children`), by process id, read from Linux's ``/proc``; None where there is no ``/proc``."""
    from bot import memory

    if not Path("/proc").is_dir():
        return None
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for child in memory.children():
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        used[child] = (int(fields[11]) + int(fields[12])) / tick
    return used


def children_cpu_used_s(before: dict[int, float] | None, after: dict[int, float] | None) -> float | None:
    """CPU seconds the child processes alive at ``after`` used since ``before`` (both from :func:`children_cpu_s`):
    a child started meanwhile counts whole, one that exited meanwhile (the previous run's render workers shutting
    down) not at all, so the figure never goes below 0."""
    if before is None or after is None:
        return None
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


def show(label: str, r: dict) -> None:
    if not r.get("n"):
        print(f"{label}: no samples errors={r['errors']}", flush=True)
        return
    print(f"{label}: {r['n']} moves, {r['moves_per_s']} moves/s, latency ms p50 {r['p50']:.1f} p90 {r['p90']:.1f} "
          f"p99 {r['p99']:.1f} max {r['max']:.1f} errors={r['errors']}", flush=True)
    workers = "n/a" if r["workers_cpu_ms"] is None else f"{r['workers_cpu_ms']:.1f}"
    print(f"{'':>5}CPU ms per move: this process {r['cpu_ms']:.1f} (event loop and its threads; of it the garbage "
          f"collector {r['gc_cpu_ms']:.2f}, longest pause {r['gc_longest_ms']:.0f} ms), render workers {workers} "
          f"errors={r['errors']}", flush=True)
    i = r["image"]
    if i.get("n"):
        print(f"{'':>5}with image: p50 {i['p50']:.1f} p90 {i['p90']:.1f} p99 {i['p99']:.1f} max {i['max']:.1f} "
              f"({i['n']} images) errors={r['errors']}", flush=True)
    p = r["private"]
    if p.get("n"):
        print(f"{'':>5}private answers (Rules, Full board): p50 {p['p50']:.1f} p90 {p['p90']:.1f} p99 {p['p99']:.1f} "
              f"max {p['max']:.1f} ({p['n']} answers) errors={r['errors']}", flush=True)


def render_cpu_s(boards: int = 24, passes: int = 9) -> float:
    """Render-and-encode CPU seconds per board (``renderers.render`` of 2-player Tatari positions met in
    random-legal play, in this process's CPU time, after one warm-up): the median of ``passes`` passes over
    ``boards`` boards. Call it in a render worker (:func:`worker_render_cpu_s`). Nine passes (about a second): on
    this shared 2-core machine a pass of the same worker took 3.6 to 6.0 ms a board a few seconds apart, and the
    median of three passes gave floors of 436 to 580 boards/s from one run to the next."""
    from common import positions

    import games
    import renderers

    states = positions(games.get("tatari"), 2, range(3), every=3)[:boards]
    renderers.render(states[0])
    per_pass = []
    for _ in range(passes):
        t = time.process_time()
        for s in states:
            renderers.render(s)
        per_pass.append((time.process_time() - t) / len(states))
    return statistics.median(per_pass)


def worker_render_cpu_s() -> float:
    """:func:`render_cpu_s` measured where the bot renders: in a fresh render worker process (started as the bot
    starts them: ``bot.workers.pool`` with the renderers warmed), not in this process, whose heap and caches the
    run has just churned (a board there costs up to 1.7x as much, and varies from run to run)."""
    from bot import workers
    from bot.discord.images import RENDER_NICE, _render_worker

    pool = workers.pool(1, nice=RENDER_NICE, start=_render_worker)
    try:
        return pool.submit(render_cpu_s).result()
    finally:
        pool.stop()


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="sampled seconds per run")
    ap.add_argument("--channels", type=int, nargs="*", default=[1, 50, 200])
    ap.add_argument("--interval", type=float, default=5.0, help="mean seconds between a channel's presses")
    ap.add_argument("--no-ramp", action="store_true")
    ap.add_argument("--ramp-seconds", type=float, default=10.0)
    ap.add_argument("--ramp-channels", type=int, default=200)
    ap.add_argument("--ramp-steps", type=int, default=10, help="at most this many steps")
    ap.add_argument("--image-wait", type=float, default=IMAGE_WAIT_S,
                    help=f"seconds a reply waits for its image (default {IMAGE_WAIT_S}; large = always inline)")
    ap.add_argument("--threads", action="store_true", help="render in threads (default: worker processes at a lower "
                    "priority, as bot.discord.runner does)")
    ap.add_argument("--stub-render", action="store_true", help="replace the renderer by a constant 50 KB PNG "
                    "(the floor of the rest of the stack)")
    ap.add_argument("--moves-only", action="store_true", help="players press the decision's options alone, never "
                    "the Rules or Full board lookups (every press a move)")
    ap.add_argument("--smoke", action="store_true", help="a few seconds: 2 channels and a 2-step ramp of 4 "
                    "channels, 1 s each, rendering in threads (worker processes take seconds to start; figures "
                    "meaningless)")
    loop_option(ap)
    args = ap.parse_args()
    if args.smoke:
        args.channels, args.seconds, args.interval = [2], 1.0, 0.5
        args.ramp_channels, args.ramp_seconds, args.ramp_steps, args.threads = 4, 1.0, 2, True
    return args


async def main(args: argparse.Namespace) -> None:
    warmup = 0.5 if args.smoke else 2.0
    logging.basicConfig(level=logging.WARNING)
    for n in args.channels:
        compress = 25.0 if n == 1 else 1.0
        r = await run(n, args.seconds, args.interval / compress, warmup=warmup, stub=args.stub_render,
                      image_wait_s=args.image_wait, processes=not args.threads, moves_only=args.moves_only)
        show(f"{n:>3} channels (mean wait {args.interval / compress:g} s{', 25x compressed' if compress > 1 else ''})",
             r)
    if args.no_ramp:
        return
    n, interval, knee, errors = args.ramp_channels, args.interval, 0.0, 0
    for _ in range(args.ramp_steps):
        r = await run(n, args.ramp_seconds, interval, warmup=warmup, stub=args.stub_render,
                      image_wait_s=args.image_wait, processes=not args.threads, moves_only=args.moves_only)
        show(f"ramp {n} channels, offered {n / interval:.0f} moves/s", r)
        errors += r["errors"]
        if r.get("p99", 0) >= 1000:
            break
        knee = r["moves_per_s"]
        interval /= 2
    floor = (os.cpu_count() or 1) / worker_render_cpu_s()
    print(f"knee_moves_s={knee:.1f} floor_moves_s={floor:.1f} knee_ratio={knee / floor:.2f} errors={errors}",
          flush=True)


def rate_limited(games: int) -> None:
    """Print ``late_answers=<n> interactions=<m>`` over ``games`` rate-limited 5-player games."""
    from test_discord_rate_limits import rate_limited_game

    late = interactions = 0
    for seed in range(1, games + 1):
        with tempfile.TemporaryDirectory() as tmp:
            tally = ManualClock.run(rate_limited_game(Path(tmp) / "bench.sqlite3", seed=seed))
        late += len(tally.late)
        interactions += len(tally.created)
    print(f"late_answers={late} interactions={interactions}", flush=True)


if __name__ == "__main__":
    if "--rate-limited" in sys.argv:
        ap = argparse.ArgumentParser(description="late answers under Discord's rate limits")
        ap.add_argument("--rate-limited", action="store_true")
        ap.add_argument("--games", type=int, default=3)
        logging.basicConfig(level=logging.ERROR)
        rate_limited(ap.parse_args().games)
    else:
        args = parse_args()
        run_on_loop(main(args), args.loop)
