"""Play over days: four members, six games (all five games, Tatari twice; one Tatamokatsu) in four channels (two of
them with a thread each) on three servers, through the Discord harness (``tests/discord/harness.py``) on a virtual
clock of 7 days. Members answer on a schedule:

- ``ann`` answers within the hour (every hour), route ``channel``;
- ``ben`` looks twice a day (09:00 and 21:00), route ``dm``;
- ``cho`` goes away for 3 days at the start (``/away days:3``), then answers every hour, route ``both``;
- ``dai`` answers every hour, and leaves the second server on day 2 and never returns.

Both Tatari games with ``ben`` are ``fast`` (move due in 6 h): he misses every deadline, the other player takes the
AFK notice's default and the AI stands in until ben's next look ("I'm back"). At ``day`` pace ben's 14 turns a week
finish a Tatari (a median of about 14 turns each with random answers) only about half the time within 7 days.

At every look a member runs ``/mygames`` (checked against the store: the games they are seated in and still play,
in servers they are still in, and how many wait on them — a Tatamokatsu roll held for a player marked missing waits
on them, not on the roller), takes the default of every AFK notice of their games still current ("🤖 The AI plays
for X"), and answers every decision that waits on them (a seeded random option), as long as any does. Timers fire
every virtual hour. It prints exactly::

    games=<n> finished=<n> stalled=<n> ended_by_absence=<n> notified_waits=<n> unnotified_waits=<n> dms=<n>
    mygames_checks=<n> mygames_wrong=<n> fingers_lost_while_missing=<n>

(one line). A wait is a (game, board version, player) the hourly look found waiting on a person; it is notified when
a message pinged that player or a direct message reached them from the hourly look before the one that first found
it (the wait began after that look) until the last that found it. ``stalled``: a game still running
with no move in its last 48 virtual hours. ``ended_by_absence``: a game ended by a resignation (nobody resigns on
purpose here: departures and idle removals). ``fingers_lost_while_missing``: Tatamokatsu fingers lost by a player in a
race that opened while they were not looking.

``python bench/bench_days.py`` (7 days) or ``--smoke`` (1 day, for CI). Figures from a loaded machine are indicative.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from harness import GUILD_ID, Harness  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.discord import ids  # noqa: E402
from bot.service.notifications import replayed  # noqa: E402
from bot.service.presence import held_people  # noqa: E402
from bot.service.stand_in import stand_ins  # noqa: E402
from bot.store.records import RESIGN_MOVE  # noqa: E402

HOUR = 3_600_000
G2, G3 = 800_000_000_000_000_002, 800_000_000_000_000_003
CH = {"a": 700_000_000_000_000_001, "a2": 700_000_000_000_000_011, "b": 700_000_000_000_000_002,
      "b2": 700_000_000_000_000_012, "c": 700_000_000_000_000_003, "d": 700_000_000_000_000_004}
GAMES = [  # channel, game, players (host first), pace
    ("a", "tatari", ["ann", "ben"], "fast"),
    ("a2", "tsukimi", ["cho", "ann"], "day"),
    ("b", "tataraba", ["dai", "ann"], "day"),
    ("b2", "tatsumi", ["ann", "cho"], "fast"),
    ("c", "tatamokatsu", ["ann", "cho", "dai"], None),
    ("d", "tatari", ["dai", "ben"], "fast"),
]
ROUTES = {"ann": "channel", "ben": "dm", "cho": "both", "dai": "channel"}


def looks(name: str, hour: int) -> bool:
    """Whether ``name`` looks at hour ``hour`` of the run."""
    if name == "ben":
        return hour % 24 in (9, 21)
    if name == "cho":
        return hour >= 72
    return True


async def run(db: str, days: int) -> dict[str, int]:
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=72, departure_grace_hours=24)
    h = Harness(db, settings=settings)
    h.add_channel(CH["b"], G2, "Second")
    h.add_channel(CH["b2"], G2)
    h.add_channel(CH["c"], G3, "Third")
    h.add_channel(CH["d"], G3)
    await h.open()
    users = {n: h.user(101 + i, n) for i, n in enumerate(["ann", "ben", "cho", "dai"])}
    by_id = {u.sid: u for u in users.values()}
    rng = random.Random(7)
    stats = dict.fromkeys(["games", "finished", "stalled", "ended_by_absence", "notified_waits", "unnotified_waits",
                           "dms", "mygames_checks", "mygames_wrong", "fingers_lost_while_missing"], 0)
    left: set[tuple[int, str]] = set()
    looked: dict[str, list[int]] = {n: [] for n in users}
    try:
        for name, route in ROUTES.items():
            await h.slash(users[name], "notify", how=route)
        sids = []
        for key, game, players, pace in GAMES:
            host = users[players[0]]
            kw = {"pace": pace} if pace else {}
            card = (await h.slash(host, "play", channel_id=CH[key], game=game, **kw)).message(public=True)
            for p in players[1:]:
                await h.click(users[p], card, "Join")
            await h.click(host, card, "Start")
            sids.append((await h.bot.service.reads.live_session(str(CH[key]))).id)
        stats["games"] = len(sids)
        await h.slash(users["cho"], "away", days=3)
        waits: dict[tuple, list[int]] = {}
        offers: dict[tuple[int, int, int], dict] = {}  # (session, board version, seat) -> its AFK notice
        seen = previous = 0
        for hour in range(days * 24):
            h.advance(HOUR)
            await h.bot.timers.fire_due(h.now_ms)
            await h.settle()
            if hour == 24:  # dai leaves the second server for good
                left.add((G2, "dai"))
                h.left.add((G2, users["dai"].id))
            for sid in sids:
                row = await h.bot.service.reads.session(sid)
                if row.status != "active":
                    continue
                for d in h.bot.service.view(row).pending:
                    if d.player in by_id and d.player not in stand_ins(row):
                        span = waits.setdefault((sid, row.version, d.player), [previous, len(h.fake.sent)])
                        span[1] = len(h.fake.sent)
            previous = len(h.fake.sent)
            for name, user in users.items():
                if not looks(name, hour):
                    continue
                looked[name].append(h.now_ms)
                reply = await h.slash(user, "mygames", channel_id=CH["d"])
                stats["mygames_checks"] += 1
                stats["mygames_wrong"] += await _wrong(h, user, reply[-1].content, left, name)
                seen = _notices(h, offers, seen)
                await _take_offers(h, user, offers, left, name)
                for _ in range(60):  # answer whatever waits on them, as long as anything does
                    acted = False
                    for sid in sids:
                        row = await h.bot.service.reads.session(sid)
                        if row.status != "active" or any(row.guild_id == str(g) and n == name for g, n in left) \
                                or user.sid in stand_ins(row):  # the AI plays their seat until "I'm back"
                            continue
                        for d in h.bot.service.view(row).pending:
                            if d.player in (None, user.sid) and d.options:
                                option = rng.choice(d.options).id
                                if d.player is None:  # a race: its buttons are the race's own; /move answers too
                                    await h.slash(user, "move", channel_id=int(row.channel_id), option=option)
                                else:
                                    await h.choose(user, option, int(row.channel_id))
                                acted = True
                                break
                    if not acted:
                        break
        await _tally(h, sids, waits, by_id, looked, stats)
    finally:
        await h.close()
    return stats


def _notices(h: Harness, offers: dict, seen: int) -> int:
    """Every stand-in button sent since message ``seen`` into ``offers``: an AFK notice's "🤖 The AI plays for X"
    by (session, board version, seat), a board's "I'm back (X)" by (session, ``"back"``, seat); returns how many
    messages were read."""
    for sent in h.fake.sent[seen:]:
        if sent.message is None:
            continue
        for cid in sent.custom_ids():
            parts = cid.split(":")
            if parts[:2] == ["pbc", "si"] and parts[-1] in ("ai", "back"):
                version = int(parts[3]) if parts[-1] == "ai" else "back"
                offers[(int(parts[2]), version, int(parts[4]))] = sent
    return len(h.fake.sent)


async def _take_offers(h: Harness, user, offers: dict, left: set, name: str) -> None:
    """``user`` presses "🤖 The AI plays for X" on each AFK notice of a game of theirs still on its notice's board
    version (a member who sees the notice takes its default), and "I'm back" where the AI plays for them."""
    for (sid, version, seat), notice in list(offers.items()):
        row = await h.bot.service.reads.session(sid)
        if row.status != "active" or version not in (row.version, "back"):
            del offers[(sid, version, seat)]
            continue
        if user.sid not in row.players or (int(row.guild_id), name) in left:
            continue
        if version == "back" and row.players[seat] == user.sid and user.sid in stand_ins(row):
            await h.click(user, notice, ids.seat(sid, 0, seat, "back"))
        elif version != "back" and row.players[seat] != user.sid:
            await h.click(user, notice, 0)
            del offers[(sid, version, seat)]


async def _wrong(h: Harness, user, text: str, left: set, name: str) -> int:
    """1 when ``/mygames`` disagrees with the store (count of games, count waiting on the member), else 0."""
    expected, mine = 0, 0
    for row in await h.bot.service.reads.live_sessions():
        if user.sid not in row.players or (int(row.guild_id or GUILD_ID), name) in left:
            continue
        if row.status == "active" and user.sid in await h.bot.service.reads.resigned(row.id):
            continue
        expected += 1
        view = h.bot.service.view(row)
        held = held_people(row, view.state, view.pending)  # a live table's roll waits on the missing, not the roller
        mine += user.sid in held if held else any(d.player in (None, user.sid) for d in view.pending)  # a race: all
    first = text.split("\n")[0]
    said = f"Your games ({expected}); waiting on you: {mine}." if expected else \
        "You are not seated in any game or lobby. /play opens one."
    return int(first != said)


async def _tally(h: Harness, sids: list[int], waits: dict, by_id: dict, looked: dict, stats: dict) -> None:
    sent = h.fake.sent
    dm_channels = set(h.dm_users)
    stats["dms"] = sum(1 for s in sent if s.kind == "message" and s.channel_id in dm_channels)
    for (_sid, _ver, player), (start, end) in waits.items():
        told = False
        for s in sent[start:end + 1]:
            users = (s.body.get("allowed_mentions") or {}).get("users") or []
            if int(player) in users or (s.kind == "message" and h.dm_users.get(s.channel_id) == int(player)):
                told = True
                break
        stats["notified_waits" if told else "unnotified_waits"] += 1
    now = h.now_ms
    for sid in sids:
        row = await h.bot.service.reads.session(sid)
        moves = await h.bot.service.reads.moves(sid)
        if row.status == "finished":
            stats["finished"] += 1
            if any(m.option == RESIGN_MOVE for m in moves):
                stats["ended_by_absence"] += 1
        elif row.status == "active":
            last = max([m.at_ms for m in moves if m.at_ms is not None] or [int(row.meta.get("started_ms", 0))])
            stats["stalled"] += int(now - last > 48 * HOUR)
        if row.game_id == "tatamokatsu":
            game = h.bot.service.game(row.game_id)
            for move, events in replayed(game, row, moves):
                at = move.at_ms if move is not None and move.at_ms is not None else int(row.meta.get("started_ms", 0))
                for e in events:
                    if e.kind == "finger" and e.data.get("player") in by_id:
                        name = by_id[e.data["player"]].name
                        if not any(0 <= at - t < HOUR for t in looked[name]):
                            stats["fingers_lost_while_missing"] += int(e.data.get("lost", 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="one virtual day instead of seven")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stats = asyncio.run(run(str(Path(tmp) / "days.sqlite3"), 1 if args.smoke else 7))
    print(" ".join(f"{k}={v}" for k, v in stats.items()))


if __name__ == "__main__":
    main()
