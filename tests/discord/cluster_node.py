"""One bot process of a sharded deployment, fed through the harness (tests/discord/test_discord_cluster.py).

``python tests/discord/cluster_node.py --database URL --shard K --shards N --guild G --now MS --log FILE``

Opens the harness (the real discord.py stack, an AutoShardedBot running shard K of N, its store serving those
guilds only) on ``URL`` and answers JSON commands, one per line on stdin, with one JSON line on stdout:

- ``{"cmd": "open", "channel": C, "players": [[id, name], …]}`` — ``/play tatari``, joins, start;
- ``{"cmd": "move", "channel": C, "board": {…}|null, "seed": S}`` — the player whose turn it is answers a random
  option through the board (``board``: the message as Discord holds it, for a process that never saw it);
- ``{"cmd": "advance", "ms": M}`` — the fake clock moves on;
- ``{"cmd": "fire"}`` — the dispatcher fires what is due;
- ``{"cmd": "fire_and_hang"}`` — the dispatcher claims what is due and hangs inside the first firing (the test then
  SIGKILLs the process: a process killed while firing);
- ``{"cmd": "quit"}``.

Every message the bot sends to "Discord" is appended to ``FILE`` (JSON lines, flushed at once), so what a killed
process sent is still known.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

from harness import Harness  # noqa: E402

from bot import event_loop  # noqa: E402
from bot.config import Settings  # noqa: E402


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database", required=True)
    ap.add_argument("--shard", type=int, required=True)
    ap.add_argument("--shards", type=int, required=True)
    ap.add_argument("--guild", type=int, required=True)
    ap.add_argument("--now", type=int, required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--lease-ms", type=int, default=2000)
    args = ap.parse_args()
    settings = Settings(discord_token=None, reminder_hours=2, afk_hours=0, shard_count=args.shards,
                        shard_ids=str(args.shard), timer_lease_ms=args.lease_ms)
    log = open(args.log, "a", buffering=1)  # noqa: SIM115 - kept open for the process's life

    h = Harness(args.database, settings=settings, start_ms=args.now, render=lambda *a, **k: None)
    h.guild_id = args.guild
    h.fake.on_record = lambda sent: log.write(json.dumps(
        {"pid": os.getpid(), "shard": args.shard, "kind": sent.kind, "channel": sent.channel_id,
         "content": sent.content}) + "\n")
    await h.open()
    h.store.lease_ms = args.lease_ms
    users: dict[str, object] = {}
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def answer(**data) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    answer(ready=True, pid=os.getpid(), owner=h.store.owner)
    while line := await reader.readline():
        cmd = json.loads(line)
        what = cmd["cmd"]
        if what == "quit":
            break
        if what == "open":
            players = [h.user(int(i), n) for i, n in cmd["players"]]
            users.update({u.sid: u for u in players})
            host = players[0]
            card = (await h.slash(host, "play", channel_id=cmd["channel"], game="tatari")).message(public=True)
            for p in players[1:]:
                await h.click(p, card, "Join")
            board = (await h.click(host, card, "Start")).message(public=True, with_components=True)
            answer(ok=True, board=board.message)
        elif what == "move":
            channel = cmd["channel"]
            if cmd.get("board"):  # a board this process never posted (it was restarted): as Discord holds it
                h.fake.messages[int(cmd["board"]["id"])] = cmd["board"]
            for uid, name in cmd.get("players", []):
                users.setdefault(str(uid), h.user(int(uid), name))
            update = await h.bot.service.show(str(channel))
            before = update.session.move_count
            decision = update.pending[0]
            option = random.Random(cmd["seed"]).choice(decision.options).id
            user = users[decision.player]
            try:
                reply = await h.choose(user, option, channel, allow_move=False)
            except AssertionError:  # no board here that offers it (it went to a process that died): /move
                reply = await h.slash(user, "move", channel_id=channel, option=option)
            row = await h.store.live_session(str(channel)) or await h.store.last_session(str(channel))
            board = h.latest_with(("pbc:c:", "pbc:m:", "pbc:g:"), channel)
            answer(ok=row.move_count == before + 1, text=reply.text[:200], version=row.version, moves=row.move_count,
                   status=row.status, board=board)
        elif what == "advance":
            h.advance(cmd["ms"])
            answer(ok=True, now=h.now_ms)
        elif what == "fire":
            answer(ok=True, fired=await h.bot.timers.fire_due(h.now_ms))
        elif what == "fire_and_hang":
            async def hang(timer) -> None:  # the reminders' event never returns
                await asyncio.Event().wait()

            h.bot.timers.fire = hang  # type: ignore[method-assign]
            task = asyncio.create_task(h.bot.timers.fire_due(h.now_ms))
            claimed: list[int] = []
            for _ in range(500):
                cur = await h.store.conn.execute("SELECT id FROM timers WHERE claimed_by = ?", (h.store.owner,))
                claimed = [r[0] for r in await cur.fetchall()]
                if claimed:
                    break
                await asyncio.sleep(0.01)
            answer(ok=bool(claimed), claimed=claimed, running=not task.done())
        else:
            answer(ok=False, error=f"unknown command {what}")
    await h.close()


if __name__ == "__main__":
    event_loop.run(main())  # as a bot process runs (bot.event_loop: uvloop)
