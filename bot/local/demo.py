"""``python -m bot demo``: AI players play a whole game through the session service; every board is saved as a PNG
and the game as an animated GIF."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

import games
import renderers
from games import TIMEOUT
from games.ai import DEFAULT_BUDGET_MS, LEVELS, STRATEGIES, Budget, Strategy, level_strategy
from games.core import N, T, Text
from renderers.animation import animate

from ..i18n import say, translator
from ..sessions import SessionError, SessionService, Update
from ..store import Store, now_ms

NAMES = ["alice", "bob", "carol", "dave", "eve"]
DEMO_STRATEGIES: tuple[str, ...] = tuple(STRATEGIES) + tuple(level for level in LEVELS if level not in STRATEGIES)
"""What ``python -m bot demo --strategy`` accepts: random, greedy and the AI seat levels."""
GIF_FRAMES = 400  # at most; longer games are sampled evenly (the last frame always kept)


@dataclass
class DemoResult:
    update: Update
    moves: int
    images: list[Path] = field(default_factory=list)
    gif: Path | None = None
    log: list[str] = field(default_factory=list)


async def run_demo(
    store: Store,
    game_id: str,
    players: int,
    seed: int,
    out_dir: Path | None,
    strategy: str = "greedy",
    options: dict | None = None,
    max_moves: int = 20_000,
    budget_ms: int = DEFAULT_BUDGET_MS,
    lang: str = "en",
) -> DemoResult:
    """Play ``game_id`` on ``store`` with ``players`` AI players (``strategy``: one of :data:`DEMO_STRATEGIES`: random, greedy,
    or an AI seat level easy | normal | strong, the strong search thinking ``budget_ms`` ms a move, at most
    ``games.ai.MAX_BUDGET_MS``) from ``seed``; write a PNG per board and ``game.gif`` to ``out_dir`` (None: no
    images); the log in ``lang`` (:mod:`bot.i18n`). ``RuntimeError`` if no end after ``max_moves``;
    ``ValueError`` for an unknown strategy."""
    game = games.get(game_id)
    names = NAMES[:players] if players <= len(NAMES) else [f"p{i}" for i in range(1, players + 1)]
    check_table(game, names, options, seed)
    rng = random.Random(seed)
    clock = [now_ms() // 1000 * 1000]  # records are dated when the demo ran
    service = SessionService(store, clock=lambda: clock[0], seeds=lambda: seed)
    channel = f"demo-{game_id}-{seed}"
    update = await service.open_lobby(channel, game_id, names[0], options)
    for p in names[1:]:
        await service.join(channel, p)
    update = await service.start(channel, names[0])
    result = DemoResult(update=update, moves=0)
    strat = demo_strategy(strategy, budget_ms)
    frames: list[bytes] = []

    def snap(up: Update) -> None:
        result.log += [say(e.text, lang, lambda p: p) for e in up.events]
        if out_dir is None:
            return
        png = renderers.render(up.state, translate=translator(lang))
        frames.append(png)
        path = out_dir / f"{len(frames):04d}.png"
        path.write_bytes(png)
        result.images.append(path)

    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    snap(update)
    while update.pending and result.moves < max_moves:
        d = update.pending[0]
        clock[0] += 1000
        if not d.options or (d.player is None and d.deadline_ms is not None and rng.random() < 0.3):
            clock[0] = max(clock[0], d.deadline_ms or clock[0])
            ups = await service.tick(clock[0])
            if not ups:  # nothing due: answer with the timeout directly
                ups = [await service.act(channel, None, TIMEOUT, at_ms=d.deadline_ms)]
            update = ups[-1]
        else:
            player = d.player if d.player is not None else rng.choice(names)
            option = strat(game, update.state, d, rng)
            at = clock[0] if d.deadline_ms is None else min(clock[0], d.deadline_ms)
            try:
                update = await service.act(channel, player, option, at_ms=at)
            except SessionError:
                if d.deadline_ms is None:  # an AI player's listed option must be legal
                    raise
                # a race input the rules refuse now (e.g. a second shout): let the window close instead
                clock[0] = max(clock[0], d.deadline_ms)
                update = (await service.tick(clock[0]) or [await service.show(channel)])[-1]
        result.moves += 1
        snap(update)
    if update.pending:
        raise RuntimeError(f"{game_id}: no end after {max_moves} moves")
    result.update = update
    if out_dir is not None and frames:
        result.gif = out_dir / "game.gif"
        write_gif(frames, result.gif)
    return result


def demo_strategy(name: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Strategy:
    """The demo's players: ``random`` / ``greedy`` (``games.ai.STRATEGIES``) or a level of ``games.ai.LEVELS``
    (strong thinks ``budget_ms`` ms a move by the wall clock). ``ValueError`` for anything else."""
    if name in STRATEGIES:
        return STRATEGIES[name]
    if name not in LEVELS:
        raise ValueError(f"unknown strategy {name!r} (known: {', '.join(DEMO_STRATEGIES)})")
    return level_strategy(name, lambda: Budget.from_ms(budget_ms, time.perf_counter))


def check_table(game: games.Game, names: list[str], options: dict | None, seed: int) -> None:
    """Refuse, before any lobby is opened, a table the game cannot deal (e.g. Tatsumi alone without ``solo=true``,
    five without ``void=true``), saying which command-line option to pass — not the lobby advice (/join, /cancel) a
    chat player gets. Bad option names or values are left to ``open_lobby``, which explains them."""
    try:
        opts = game.options(options or {})
    except ValidationError:
        return
    try:
        game.setup(list(names), opts, seed)
    except ValueError as exc:
        problem = exc.args[0] if exc.args and isinstance(exc.args[0], Text) and not exc.args[0].endswith(".") \
            else str(exc).rstrip(".")
        raise SessionError(T(
            "{game} cannot be played by {players} with these options: {problem}. Pass game options with --option "
            "key=value (options: {fields}).", game=game.title, players=N("{n} AI player", "{n} AI players", n=len(names)),
            problem=problem, fields=", ".join(game.Options.model_fields) or T("none"))) from None


def write_gif(frames: list[bytes], path: Path, ms_per_frame: int = 600) -> None:
    """An animated GIF of PNG ``frames`` (sampled to ``GIF_FRAMES``, the last shown 3 s), half size: the replays'
    own code (:func:`renderers.animation.animate`)."""
    path.write_bytes(animate(frames, frame_ms=ms_per_frame, hold_ms=3000, max_frames=GIF_FRAMES))
