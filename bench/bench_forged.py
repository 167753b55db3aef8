"""Forged component presses against a live game through the real discord.py stack (``tests/discord/harness.py``):
seeded random custom_ids of every template (numbers near the live session and version, seats, select values) from
every kind of member (the players, one who resigned, a non-player, a moderator), sometimes hours apart, each
checked against the oracle of ``tests/discord/test_discord_forged.py`` (the game's contract and the idle-removal
rule). One line, exactly::

    forged_presses=<n> legal=<l> state_changes=<c> illegal_changes=<x> unanswered=<u> games=<g>

``illegal_changes``: presses that changed the stored game though the oracle says they were not legal for that
member (goal 0); ``unanswered``: presses that got no answer at all.

    python bench/bench_forged.py              # 10000 presses
    python bench/bench_forged.py --presses 2000 --seed 7
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))
sys.path.insert(0, str(ROOT / "tests"))

from common import SMOKE_HELP  # noqa: E402
from harness import Harness  # noqa: E402
from test_discord_forged import AFK_HOURS, HOUR, LiveTable, _forged_id, forge, snapshot  # noqa: E402

from bot.config import Settings  # noqa: E402


class Draw:
    """``hypothesis``' ``data.draw`` over a seeded ``random.Random``: an example drawn from each strategy."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, strategy):
        from hypothesis.strategies import SearchStrategy

        assert isinstance(strategy, SearchStrategy)
        return _example(strategy, self.rng)


def _example(strategy, rng: random.Random):
    """One value of a strategy built by ``_forged_id`` (sampled_from, integers, one_of, lists, text)."""
    s = strategy.wrapped_strategy if hasattr(strategy, "wrapped_strategy") else strategy
    name = type(s).__name__
    if name == "SampledFromStrategy":
        return rng.choice(list(s.elements))
    if name == "IntegersStrategy":
        return rng.randint(s.start, s.end)
    if name == "OneOfStrategy":
        return _example(rng.choice(list(s.original_strategies)), rng)
    if name == "ListStrategy":
        return [_example(s.element_strategy, rng) for _ in range(rng.randint(s.min_size, min(s.max_size, 3)))]
    if name in ("TextStrategy", "OneCharStringStrategy") or "Text" in name:
        return "".join(rng.choice("0123456789abc²٣💥 ") for _ in range(rng.randint(0, 12)))
    raise TypeError(f"no example for {name}")


async def run(presses: int, seed: int) -> str:
    rng = random.Random(seed)
    draw = Draw(rng)
    settings = Settings(discord_token=None, reminder_hours=0, afk_hours=AFK_HOURS)
    counts = {"legal": 0, "changes": 0, "illegal": 0, "unanswered": 0}
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness(Path(tmp) / "bot.sqlite3", settings=settings, render=lambda *a, **k: None) as h:
            table = LiveTable(h)
            for _ in range(presses):
                await table.ensure()
                row = await h.store.live_session(str(h.channel_id))
                if rng.randrange(10) == 0:
                    h.advance(rng.choice([60_000, HOUR, AFK_HOURS * HOUR]))
                waiting = [u for u in table.users if u.sid in {d.player for d in h.bot.service.view(row).pending}]
                user = rng.choice(table.users + waiting * 3)
                custom_id, values = _forged_id(draw, row.id, row.version)
                legal = await table.legal(user, custom_id, values)
                before = await snapshot(h, row.id)
                reply = await forge(h, user, custom_id, values)
                changed = await snapshot(h, row.id) != before
                counts["legal"] += legal
                counts["changes"] += changed
                counts["illegal"] += changed and not legal
                counts["unanswered"] += not reply
    return (f"forged_presses={presses} legal={counts['legal']} state_changes={counts['changes']} "
            f"illegal_changes={counts['illegal']} unanswered={counts['unanswered']} games={table.games}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.presses = 40
    logging.basicConfig(level=logging.CRITICAL)
    print(asyncio.run(run(args.presses, args.seed)))


if __name__ == "__main__":
    main()
