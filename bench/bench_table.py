"""The table in the channel, measured: one seeded whole game of each game through the real discord.py stack
(``tests/discord/harness.py``), one line per game::

    game=tatari players=3 moves=<n> turns=<n> messages=<n> edits=<n> pings=<n> self_pings=<n> upload_kb=<n> taps=<x.x> alt_missing=<n>

Definitions ("Measured, not guessed"):

- ``moves``: inputs of the players the engine accepted (system moves — race windows opened or closed — not counted);
- ``turns``: how many times the deciding player changed, counted as runs: the first decision is turn 1, and each
  time the set of deciders (a player id, or a race — one turn per race, whoever answers it) differs from the one
  before, a new turn starts;
- ``messages``: public messages the bot created in the game's channel from the Start press on (board posts, race
  results, result, reminders) — an interaction response, a follow-up or a channel message; ephemeral ones excluded;
- ``edits``: edits of existing messages (component interaction updates, REST edits, image attachments, components
  stripped);
- ``pings``: mentions that notify: users mentioned in the content of a newly created public message AND allowed by
  its ``allowed_mentions`` (no ``allowed_mentions`` = Discord's default, every mentioned user); edits never notify;
- ``self_pings``: pings to the member whose input (press, slash command) caused the message;
- ``upload_kb``: image bytes sent (every attachment of every call), KiB, rounded down;
- ``taps``: mean taps per turn (``turns`` above), one decimal: the taps of every player input the bench makes
  through components, divided by ``turns``. A button press (choice or race button) is 1 tap; a select menu is 2
  (open it, pick the option), so a two-step pick (group select, then the page's select) is 4. The lobby (Join,
  Start) and timer-closed race windows cost no taps; a typed ``/move`` never happens (every option is offered on a
  component), so it is not counted.
- ``alt_missing``: images sent (every file of every call, ephemeral ones too) whose attachment carries no alt text
  (an empty or absent ``description``).

Players answer with the games' greedy AI (``games.ai.greedy``), through components (buttons, selects, two-step picks,
race buttons) as ``tests/discord/test_discord_games.py`` does; race windows close at their deadline through the
timer dispatcher's ``fire_due``. Images are the real renderer's.

    PYTHONPATH=$PWD python bench/bench_table.py            # every game
    PYTHONPATH=$PWD python bench/bench_table.py tatari:3    # one
    PYTHONPATH=$PWD python bench/bench_table.py tatari:3 --print   # and its channel as the players read it
    PYTHONPATH=$PWD python bench/bench_table.py --smoke     # one 2-player Tatari game: does it still run
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from common import SMOKE_HELP  # noqa: E402
from harness import EPHEMERAL, Harness, Sent  # noqa: E402
from test_discord_games import press  # noqa: E402 - the tests' way of answering through components

import games  # noqa: E402
from games.ai import greedy  # noqa: E402

GAMES = [("tatari", 3), ("tatari", 5), ("tsukimi", 2), ("tatamokatsu", 3), ("tataraba", 3), ("tatsumi", 2),
         ("tatsumi", 4)]
NAMES = ["alice", "bob", "carol", "dave", "eve"]
SEED = 1
MAX_MOVES = 3000
MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Counts:
    """What the channel saw (see the module docstring)."""

    messages: int = 0
    edits: int = 0
    pings: int = 0
    self_pings: int = 0
    upload: int = 0
    alt_missing: int = 0
    seen: set = field(default_factory=set)
    cause: str | None = None  # the member whose input is being handled
    on: bool = False

    def record(self, sent: Sent) -> None:
        if not self.on:
            return
        self.upload += sum(len(data) for _, data in sent.files)
        self.alt_missing += sum(not alt for alt in descriptions(sent))
        created = False
        if sent.kind in ("message", "followup") or (sent.kind == "response" and sent.type in (4, 5)):
            mid = (sent.message or {}).get("id")
            created = mid is not None and mid not in self.seen
            if mid is not None:
                self.seen.add(mid)
        elif sent.kind in ("edit", "edit_original") or (sent.kind == "response" and sent.type == 7):
            self.edits += 1
        if sent.kind == "followup" and not created:
            self.edits += 1  # a follow-up filling a deferred "thinking…" message
        if not created or sent.ephemeral:
            return
        self.messages += 1
        for user in notified(sent):
            self.pings += 1
            self.self_pings += user == self.cause


def descriptions(sent: Sent) -> list[str]:
    """The alt text (attachment ``description``, "" when absent) of each file ``sent`` uploads, in upload order: the
    payload's ``attachments`` entries whose ``id`` is an upload index."""
    uploads = {a["id"]: a.get("description") or "" for a in (sent.data or {}).get("attachments") or []
               if isinstance(a.get("id"), int)}
    return [uploads.get(i, "") for i in range(len(sent.files))]


def notified(sent: Sent) -> set[str]:
    """The users a newly created message notifies (mentioned in its content and allowed by ``allowed_mentions``)."""
    mentioned = set(MENTION.findall(sent.content))
    allowed = sent.data.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {str(u) for u in allowed.get("users") or []}


def count_taps(h: Harness) -> list[int]:
    """From now on, count the taps of ``h``'s component inputs (see ``taps`` in the module docstring): a click is 1,
    a select 2. Returns the one-element list the counts accumulate in."""
    taps = [0]
    click, select = h.click, h.select

    async def counted_click(*args, **kwargs):
        taps[0] += 1
        return await click(*args, **kwargs)

    async def counted_select(*args, **kwargs):
        taps[0] += 2
        return await select(*args, **kwargs)

    h.click, h.select = counted_click, counted_select
    return taps


def deciders(h: Harness, update) -> frozenset:
    names = h.bot.races.names(update)
    return frozenset(d.player if d.player is not None else ("race", n or i)
                     for i, (d, n) in enumerate(zip(update.pending, names, strict=False)))


async def play(game_id: str, n: int, seed: int = SEED, show: bool = False) -> str:
    game = games.get(game_id)
    counts = Counts()
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(Path(tmp) / "table.sqlite3")
        h.fake.keep = True
        h.fake.on_record = counts.record
        await h.open()
        try:
            await h.bot.timers.stop()  # race windows close through fire_due below, deterministically
            users = [h.user(101 + i, NAMES[i]) for i in range(n)]
            by_id = {u.sid: u for u in users}
            card = (await h.slash(users[0], "play", game=game_id)).message(public=True)
            for u in users[1:]:
                await h.click(u, card, "Join")
            counts.on, counts.cause = True, users[0].sid
            await h.click(users[0], card, "Start")
            update = await h.bot.service.show(str(h.channel_id))
            sid = update.session.id
            rng = random.Random(seed)
            taps = count_taps(h)
            moves = turns = race_presses = 0
            last = None
            while update.session.status == "active" and moves < MAX_MOVES:
                now = deciders(h, update)
                if now != last:
                    turns += 1
                    last = now
                d = update.pending[0]
                if d.player is None and (not d.options or race_presses >= 2 * n or rng.random() < 0.35):
                    h.now_ms = max(h.now_ms, d.deadline_ms or h.now_ms)
                    counts.cause = None
                    await h.bot.timers.fire_due(h.now_ms)
                    await h.settle()
                    race_presses = 0
                else:
                    if d.player is None:
                        h.advance(rng.randint(20, 400))
                        player = rng.choice(users)
                        race_presses += 1
                    else:
                        wait = rng.randint(2_000, 60_000)  # people take their time
                        if d.deadline_ms is not None:  # a timed decision (TK-11's count): answered before it closes
                            wait = max(0, min(wait, d.deadline_ms - h.now_ms - 1))
                        h.advance(wait)
                        player = by_id[d.player]
                    option = greedy(game, update.state, d, rng)
                    before = (await h.store.session(sid)).move_count
                    counts.cause = player.sid
                    await press(h, player, sid, option)
                    after = await h.store.moves(sid)
                    moves += any(m.player == player.sid for m in after[before:])
                update = h.bot.service.view(await h.store.session(sid))
            await h.settle()
            await h.bot.idle()
            channel = [m for m in h.messages_in() if not (m.get("flags", 0) & EPHEMERAL)]
        finally:
            await h.close()
    if show:  # the channel as its players read it at the end: every public message, as it stands now
        for m in channel:
            buttons = [c.get("label") or c.get("placeholder") for row in m.get("components", [])
                       for c in row.get("components", [])]
            image = f" [image {m['attachments'][0]['filename']}]" if m.get("attachments") else ""
            print(f"--- message {m['id'][-6:]}{image}{' ' + str(buttons) if buttons else ''}\n{m['content']}")
    return (f"game={game_id} players={n} moves={moves} turns={turns} messages={counts.messages} "
            f"edits={counts.edits} pings={counts.pings} self_pings={counts.self_pings} "
            f"upload_kb={counts.upload // 1024} taps={taps[0] / max(turns, 1):.1f} alt_missing={counts.alt_missing}")


async def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tables", nargs="*", metavar="GAME:PLAYERS", help="the tables to play (default: every game)")
    ap.add_argument("--print", action="store_true", help="also print each channel as the players read it")
    ap.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; one 2-player Tatari game")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    tables = ["tatari:2"] if args.smoke else args.tables
    todo = [(g, int(p)) for g, p in (a.split(":") for a in tables)] if tables else GAMES
    for game_id, n in todo:
        print(await play(game_id, n, show=args.print), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
