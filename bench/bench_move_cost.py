"""The CPU cost of one move through the real stack, part by part, beside the render floor:
``python bench/bench_move_cost.py``.

A move is a button press on a 2-player Tatari board as ``bench_discord.py`` makes it (a real INTERACTION_CREATE
payload into discord.py's ``ConnectionState``, ``tests/discord/harness.py``), one at a time, each followed by its
background work (``bot.idle()``: images, bookkeeping) before the next; games are opened before the measured moves
(at most 40 moves of each; one that ends is followed by the next). Board images come from a stub renderer (the render's own cost is the floor below).
Each part's CPU ms per move, one line each, then the total::

    part=<name> cpu_ms=<x>
    total_cpu_ms=<x> render_floor_ms=<y> ratio=<x/y>

Parts: ``gateway_parse`` (``ConnectionState.parse_interaction_create``), ``service`` (``SessionService`` and
``bot/service`` on the event loop), ``sql`` (the store's aiosqlite threads), ``board_text`` (the message text:
``present.BoardText`` built once and its forms, and the event lines), ``alt_text`` (the image's alt text around its
words), ``words`` (``renderers.words.alt_text``: the decision in words), ``components`` (``board_view`` and
discord.py's ``to_components``), ``json`` (discord.py's payload JSON), ``webhook`` (discord.py's interaction response
and webhook calls, without the two above), ``images`` (the image pipeline's threads besides the alt text: the stub
render, its hand-over), ``other`` (the rest of the event loop's work: dispatch, tables, bookkeeping, timers). The
harness's fake Discord (recording, answering) and the bench's own driving are
not counted. The images are drawn in threads here, so that every part is seen in this process; as ``python -m bot
run`` does it (worker processes), ``alt_text``, ``words`` and ``images`` leave the bot's process with the drawing.

How: the measured moves run twice on fresh games. First unprofiled: CPU time of the event loop's thread, of the
store's threads, of the alt-text threads (``board_alt`` and ``renderers.words.alt_text`` timed where they run) and
of the rest. Then with ``cProfile`` on the event loop's thread (CPU clock) for the shares of its parts; each share
times the unprofiled CPU of that thread (so the profiler's own overhead is not counted). ``render_floor_ms``:
``bench/common.render_vs_floor``'s floor (paste the finished board onto a fresh canvas and encode it, CPU time)
over Tatari positions; ``ratio``: what one move costs the process besides its render, in render floors. CPU figures stand up
on a shared machine far better than latencies.

    python bench/bench_move_cost.py               # 200 moves a pass
    python bench/bench_move_cost.py --moves 400
    python bench/bench_move_cost.py --smoke       # a few seconds
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import pstats
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from bench_discord import Load, stub_render  # noqa: E402
from common import SMOKE_HELP, positions, render_vs_floor  # noqa: E402
from harness import Harness  # noqa: E402

import games  # noqa: E402
import renderers.words  # noqa: E402
from bot.discord import images  # noqa: E402
from bot.discord.images import Images  # noqa: E402

MOVES_PER_GAME = 40
"""Measured moves in one game at the most (a 2-player Tatari game lasts about 100: most do not end while measured;
one that does is followed by the next game opened)."""

PARTS = ("gateway_parse", "service", "sql", "board_text", "alt_text", "words", "components", "json", "webhook",
         "images", "other")

# the event loop's parts: (file path part, function name or None for every function of the file), timed from
# the calls that enter them from elsewhere
MAIN_PARTS: dict[str, list[tuple[str, str | None]]] = {
    "gateway_parse": [("discord/state.py", "parse_interaction_create")],
    "service": [("bot/sessions.py", None), ("bot/service/", None)],
    "board_text": [("bot/discord/present.py", "board_text"), ("bot/discord/present.py", "event_lines"),
                   ("bot/discord/present.py", "__init__"), ("bot/discord/present.py", "form")],
    "components": [("bot/discord/present.py", "board_view"), ("discord/ui/view.py", "to_components")],
    "json": [("discord/utils.py", "_to_json")],
    "webhook": [("discord/interactions.py", "edit_message"), ("discord/interactions.py", "send_message"),
                ("discord/interactions.py", "defer"), ("discord/webhook/async_.py", "send"),
                ("discord/webhook/async_.py", "edit_message"), ("discord/interactions.py", "edit_original_response")],
}
NESTED = {"webhook": ("components", "json")}
"""Parts whose functions run inside another part's (subtracted from it): discord.py serialises the components and
the JSON while it answers."""
HARNESS = ("tests/discord/harness.py", "bench/bench_discord.py", "bench/bench_move_cost.py")
"""Files of the fake Discord and of the driving: their time is not the bot's."""


class Timed:
    """CPU time (this thread's clock) spent in ``fn`` wherever it runs, while installed on ``module.name``."""

    def __init__(self, module, name: str) -> None:
        self.module, self.name, self.seconds = module, name, 0.0
        self.fn = getattr(module, name)
        self._lock = threading.Lock()

    def __enter__(self) -> Timed:
        def timed(*args, **kwargs):
            t = time.thread_time()
            try:
                return self.fn(*args, **kwargs)
            finally:
                with self._lock:
                    self.seconds += time.thread_time() - t

        setattr(self.module, self.name, timed)
        return self

    def __exit__(self, *exc) -> None:
        setattr(self.module, self.name, self.fn)


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Every live thread of this process: ident -> (kind, CPU seconds so far); kinds ``main``, ``sql`` (aiosqlite's
    connection threads, named after their target), ``images`` (the render pool's), ``alt`` (the rest: the default
    executor's, where ``asyncio.to_thread`` runs)."""
    out = {}
    for t in threading.enumerate():
        if t.ident is None:
            continue
        try:
            cpu = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        except (OSError, ProcessLookupError):
            continue
        kind = ("main" if t is threading.main_thread() else "sql" if "_connection_worker_thread" in t.name
                else "images" if t.name.startswith("render") else "alt")
        out[t.ident] = (kind, cpu)
    return out


def cpu_by_kind(before: dict, after: dict) -> dict[str, float]:
    kinds: dict[str, float] = {}
    for ident, (kind, cpu) in after.items():
        kinds[kind] = kinds.get(kind, 0.0) + cpu - before.get(ident, (kind, 0.0))[1]
    return kinds


class Mover(Load):
    """Presses of the decision's options (buttons and menus, not the help and whole-board buttons), one at a
    time over fresh games, each awaited with its background work."""

    PRESSED = ("pbc:c:", "pbc:m:")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.replies: list[str] = []
        self.reply_due: asyncio.Future | None = None  # set when the press in flight is answered
        self.game = self.made = 0  # the game pressed in now, and its presses so far

    async def moves(self, n: int) -> int:
        """Make ``n`` presses, each game's at most :data:`MOVES_PER_GAME`, on to the next opened game when one ends
        (its last move counted: ending is part of playing)."""
        done = 0
        while done < n:
            channel = self.channel(self.game)
            if channel in self.finished or self.made >= MOVES_PER_GAME:
                self.game, self.made = self.game + 1, 0
                if self.game >= self.n:
                    raise RuntimeError(f"every one of the {self.n} games opened is used up")
                continue
            before = len(self.replies)
            self.press(channel)
            if channel not in self.busy:
                raise RuntimeError(f"no board to press in channel {channel}")
            await self.reply_due
            await self.h.bot.idle()
            if len(self.replies) == before:
                raise RuntimeError("a press was not answered")
            done += 1
            self.made += 1
        return done

    def press(self, channel: int) -> None:
        self.reply_due = asyncio.get_running_loop().create_future()
        super().press(channel)

    def on_record(self, sent) -> None:
        super().on_record(sent)
        self.replies.append(sent.kind)
        if self.reply_due is not None and not self.busy and not self.reply_due.done():
            self.reply_due.set_result(None)


async def measure(moves: int, profile: bool) -> tuple[dict[str, float], pstats.Stats | None, float, float]:
    """One pass of ``moves`` presses on fresh games: (CPU s by thread kind, the event loop's profile when
    ``profile``, s in ``board_alt``, s in ``renderers.words.alt_text``)."""
    games_needed = 2 * -(-(moves + 2) // MOVES_PER_GAME) + 1  # spares for games that end early
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(Path(tmp) / "bench.sqlite3", image_wait_s=1.0, images=lambda: Images(stub_render))
        h.now_ms = int(time.time() * 1000)
        await h.open()
        try:
            load = Mover(h, games_needed, 1.0)
            for i in range(games_needed):
                await load.open(load.channel(i))
            await load.moves(2)  # the first answers warm what they touch; not measured
            prof = cProfile.Profile(time.thread_time) if profile else None
            with Timed(images, "board_alt") as alt, Timed(renderers.words, "alt_text") as words:
                before = thread_cpu()
                if prof is not None:
                    prof.enable()
                await load.moves(moves)
                if prof is not None:
                    prof.disable()
                after = thread_cpu()
        finally:
            await h.close()
    return cpu_by_kind(before, after), pstats.Stats(prof) if prof else None, alt.seconds, words.seconds


def matches(func: tuple[str, int, str], wanted: list[tuple[str, str | None]]) -> bool:
    path, _, name = func
    path = path.replace("\\", "/")
    return any(f in path and n in (None, name) for f, n in wanted)


def entered(raw: dict, wanted: list[tuple[str, str | None]]) -> float:
    """CPU s of the profiled functions ``wanted`` names, counted where they are entered from other functions
    (calls among them are inside those)."""
    inside = {func for func in raw if matches(func, wanted)}
    return sum(edge[3] for func in inside for caller, edge in raw[func][4].items() if caller not in inside)


def main_shares(stats: pstats.Stats) -> tuple[dict[str, float], float]:
    """The event loop's parts as shares of its CPU time (``other`` the rest), and the harness's share (the fake
    Discord and the driving)."""
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for (_, _, tt, _, _) in raw.values())
    cum = {part: entered(raw, wanted) for part, wanted in MAIN_PARTS.items()}
    for part, inner in NESTED.items():
        cum[part] -= sum(cum[i] for i in inner)
    harness = entered(raw, [(f, None) for f in HARNESS])
    return {p: max(c, 0.0) / total for p, c in cum.items()}, harness / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=200, help="measured moves a pass")
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; 6 moves a pass")
    ap.add_argument("--top", type=int, default=0, metavar="N", help="also print (stderr) the event loop's N "
                    "functions of most cumulative CPU time: where to look next")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    moves = 6 if args.smoke else args.moves
    cpu, _, alt_s, words_s = asyncio.run(measure(moves, profile=False))
    _, stats, _, _ = asyncio.run(measure(moves, profile=True))
    shares, harness = main_shares(stats)
    if args.top:
        stats.stream = sys.stderr  # type: ignore[attr-defined]
        stats.sort_stats("cumulative").print_stats(args.top)
    main_ms = cpu.get("main", 0.0) * 1000 / moves
    parts = {p: shares.get(p, 0.0) * main_ms for p in MAIN_PARTS}
    parts["sql"] = cpu.get("sql", 0.0) * 1000 / moves
    parts["words"] = words_s * 1000 / moves
    parts["alt_text"] = (alt_s - words_s) * 1000 / moves
    # the image threads draw the alt text with the image (timed above); anything else of theirs is the pipeline's
    parts["images"] = max(cpu.get("images", 0.0) + cpu.get("alt", 0.0) - alt_s, 0.0) * 1000 / moves
    parts["other"] = max(main_ms * (1 - harness - sum(shares.values())), 0.0)
    for p in PARTS:
        print(f"part={p} cpu_ms={parts[p]:.3f}", flush=True)
    total = sum(parts.values())
    states = positions(games.get("tatari"), 2, range(1 if args.smoke else 3), every=7)[:2 if args.smoke else 12]
    from renderers.tatari import palette, render

    _, floor = render_vs_floor(render, states, repeat=1 if args.smoke else 3, palette=palette(), clock=time.process_time)
    print(f"total_cpu_ms={total:.3f} render_floor_ms={floor:.3f} ratio={total / floor:.2f}", flush=True)


if __name__ == "__main__":
    main()
