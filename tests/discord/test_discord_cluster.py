"""Two bot processes on one PostgreSQL: shards 0 and 1 of 2, each fed the payloads of its own
guild through the harness (tests/discord/cluster_node.py, the real discord.py stack in a subprocess). One is
SIGKILLed mid-game — while it is firing the turn reminders it claimed, with a move in flight — and restarted:

- no move lost: every move a process acknowledged is in the log;
- no timer fired twice (nor lost): each due reminder is sent exactly once cluster-wide, the killed process's claimed
  ones by its successor after their lease ran out; a process never fires the other shard's timers;
- replay(log) == state for every session.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from databases import drop_schema, fresh_schema, require_postgres, with_schema

import games
from bot.sessions import replay
from bot.store import Store, shard_of

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HOUR = 3_600_000
START_MS = 1_800_000_000_000
LEASE_MS = 2_000


def _guild(shard: int) -> int:
    g = 800_000_000_000_000_000
    while shard_of(g, 2) != shard:
        g += 1 << 22
    return g


class Node:
    """A bot process serving one shard (its stdin/stdout carry the harness commands)."""

    def __init__(self, url: str, shard: int, now_ms: int, log: Path) -> None:
        self.shard = shard
        self.guild = _guild(shard)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "cluster_node.py"), "--database", url, "--shard", str(shard), "--shards", "2",
             "--guild", str(self.guild), "--now", str(now_ms), "--log", str(log), "--lease-ms", str(LEASE_MS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        self.hello = self._read()
        assert self.hello.get("ready"), self.hello

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, f"node of shard {self.shard} died (exit {self.proc.poll()})"
        return json.loads(line)

    def send(self, **cmd) -> None:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def ask(self, **cmd) -> dict:
        self.send(**cmd)
        return self._read()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send(cmd="quit")
                self.proc.wait(60)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(30)


def _sent(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


async def _store_view(url: str):
    store = await Store.open(url)
    try:
        rows = await store.all_sessions()
        moves = {r.id: await store.moves(r.id) for r in rows}
        timers = await store.timers()
        return rows, moves, timers
    finally:
        await store.close()


def test_two_processes_one_killed_mid_game_lose_no_move_and_fire_each_timer_once(tmp_path):
    base = require_postgres()
    schema = asyncio.run(fresh_schema(base))
    url = with_schema(base, schema)
    log = tmp_path / "discord.jsonl"
    now = START_MS
    nodes: dict[int, Node] = {}
    try:
        nodes = {0: Node(url, 0, now, log), 1: Node(url, 1, now, log)}
        channels = {0: [700_000_000_000_000_100, 700_000_000_000_000_101],
                    1: [700_000_000_000_000_200, 700_000_000_000_000_201]}
        players = {c: [[str(100 + 10 * k + j), f"p{k}{j}"] for j in range(2)]
                   for k, c in enumerate(channels[0] + channels[1])}
        boards, acked = {}, {c: 0 for c in players}
        for shard, chs in channels.items():
            for c in chs:
                reply = nodes[shard].ask(cmd="open", channel=c, players=players[c])
                assert reply["ok"], reply
                boards[c] = reply["board"]
        seed = 0

        def move(shard: int, c: int) -> dict:
            nonlocal seed
            seed += 1
            reply = nodes[shard].ask(cmd="move", channel=c, board=boards[c], players=players[c], seed=seed)
            assert reply["ok"], reply
            acked[c] += 1
            assert reply["moves"] == acked[c]
            boards[c] = reply["board"]
            return reply

        for _ in range(4):  # both processes play their own guilds' games, interleaved
            for shard, chs in channels.items():
                for c in chs:
                    move(shard, c)
        # two hours on: every game's turn reminder is due
        now += 2 * HOUR + 1
        for node in nodes.values():
            assert node.ask(cmd="advance", ms=2 * HOUR + 1)["ok"]
        assert nodes[1].ask(cmd="fire")["fired"] == 2  # shard 1 fires its own two, not shard 0's
        hung = nodes[0].ask(cmd="fire_and_hang")  # shard 0 claims its two and hangs inside the firing
        assert hung["ok"] and len(hung["claimed"]) == 2, hung
        # a move in flight when the process dies: it may or may not have been stored, never half
        nodes[0].send(cmd="move", channel=channels[0][1], board=boards[channels[0][1]],
                      players=players[channels[0][1]], seed=999)
        time.sleep(0.05)
        first_pid = nodes[0].hello["pid"]
        nodes[0].kill()
        rows, moves, timers = asyncio.run(_store_view(url))
        in_flight = channels[0][1]
        moved = {r.channel_id: r.move_count for r in rows}[str(in_flight)] == acked[in_flight] + 1
        claimed = {t.id for t in timers if t.id in hung["claimed"]}
        # killed while firing: its claimed reminders are still there, leased to the dead process (the in-flight
        # move, if it was stored, may have replaced its channel's reminder already: the player moved)
        assert claimed <= set(hung["claimed"])
        assert str(channels[0][0]) in {t.channel_id for t in timers if t.id in claimed}
        # shard 1 goes on meanwhile, untouched
        for c in channels[1]:
            move(1, c)
        # the restart: a new process for shard 0 (the old boards still work); its dispatcher fires the dead one's
        # reminders once their lease has run out
        nodes[0] = Node(url, 0, now, log)
        for _ in range(300):
            rows, moves, timers = asyncio.run(_store_view(url))
            if not {t.id for t in timers} & claimed:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the dead process's claimed reminders were never fired")
        # not before the lease ran out: the store's own test (test_a_timer_whose_claimer_died_is_claimed_again_after_the_lease)
        stored = {r.channel_id: r for r in rows}
        row = stored[str(in_flight)]
        assert row.move_count in (acked[in_flight], acked[in_flight] + 1)
        if row.move_count != acked[in_flight]:  # it was stored: its board went to the dead process's Discord
            acked[in_flight] = row.move_count
            boards[in_flight] = None  # the player uses /move
        for _ in range(3):
            for shard, chs in channels.items():
                for c in chs:
                    if stored[str(c)].status == "active":
                        reply = move(shard, c)
                        stored[str(c)] = stored[str(c)].model_copy(update={"status": reply["status"]})
        for node in nodes.values():
            node.stop()
        rows, moves, timers = asyncio.run(_store_view(url))
        # no move lost, and every session replays to its stored state
        by_channel = {int(r.channel_id): r for r in rows}
        for c, n in acked.items():
            assert by_channel[c].move_count == n == len(moves[by_channel[c].id]), c
            assert [m.seq for m in moves[by_channel[c].id]] == list(range(1, n + 1))
        for r in rows:
            state = replay(games.get(r.game_id), r.players, r.options, r.seed, moves[r.id])
            assert state.model_dump_json() == r.state, r.id
            assert shard_of(r.guild_id, 2) == (0 if int(r.channel_id) in channels[0] else 1)
        # each due reminder sent exactly once, by a process of its own shard
        reminders = [s for s in _sent(log) if s["kind"] == "message" and s["content"].startswith("⏰")]
        per_channel = {c: [s for s in reminders if s["channel"] == c] for c in players}
        # (the in-flight move, when stored, made its channel's reminder moot: the board moved on)
        expected = {c: 0 if c == in_flight and moved else 1 for c in players}
        assert {c: len(v) for c, v in per_channel.items()} == expected, reminders
        for shard, chs in channels.items():
            assert all(s["shard"] == shard for c in chs for s in per_channel[c])
        for c in channels[0]:  # the dead process sent none of the reminders it claimed; its successor did
            assert all(s["pid"] == nodes[0].hello["pid"] != first_pid for s in per_channel[c])
    finally:
        for node in nodes.values():
            if node.proc.poll() is None:
                node.proc.kill()
                node.proc.wait(30)
        asyncio.run(drop_schema(base, schema))
