"""``python -m bot run`` as a service, as a real subprocess against the local stand-in of Discord
(tests/discord/standin.py): SIGTERM and Ctrl-C stop it cleanly, the health listener answers, commands are synced
only when they changed, ``sync-commands`` syncs and clears a test guild, each 5xx at start is one log line and leaks
no HTTP session. A move in flight when the bot stops is committed and answered (the harness)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest
from harness import Harness
from standin import APP_ID, ROOT, StandIn

BAD_SIGNS = ("Traceback", "leaked semaphore", "Unclosed client session", "Unclosed connector", "Task was destroyed")
COMMANDS = 25  # the slash commands of the tree (tests/discord/test_discord_tree.py: EXPECTED)
"""The slash commands the bot defines (python -m bot sync-commands --print)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bot:
    """``python -m bot ARGS`` in its own process group, its stderr in a file."""

    def __init__(self, standin: StandIn, tmp: Path, *args: str, **env: str) -> None:
        self.standin, self.tmp, self.args, self.env = standin, tmp, args or ("run",), env
        self.err_path = tmp / f"stderr-{len(list(tmp.glob('stderr-*')))}.txt"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> Bot:
        env = self.standin.env(**{"DATABASE_PATH": str(self.tmp / "bot.sqlite3"), "AI_PROCESSES": "true", **self.env})
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *self.args, env=env, cwd=ROOT, stdout=asyncio.subprocess.PIPE,
            stderr=self.err_path.open("wb"), start_new_session=True)
        return self

    @property
    def err(self) -> str:
        return self.err_path.read_text()

    async def wait_for(self, check, what: str) -> None:
        for _ in range(1200):  # a bound, not a timing assertion: a slow machine only waits longer
            if check():
                return
            if self.proc.returncode is not None:
                raise AssertionError(f"the bot exited ({self.proc.returncode}) before {what}:\n{self.err}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"never {what}:\n{self.err}")

    async def connected(self) -> None:
        await self.wait_for(lambda: "has connected to Gateway" in self.err, "connected")

    async def finish(self) -> tuple[int, str]:
        out, _ = await asyncio.wait_for(self.proc.communicate(), 120)
        return self.proc.returncode, out.decode()

    def signal_group(self, sig: signal.Signals) -> None:
        os.killpg(self.proc.pid, sig)  # like a terminal's Ctrl-C or systemd's stop: every process of the group


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


async def stop_and_check(bot: Bot, sig: signal.Signals, standin: StandIn, tmp: Path) -> None:
    bot.signal_group(sig)
    rc, _ = await bot.finish()
    err = bot.err
    assert rc == 0, err
    assert not [s for s in BAD_SIGNS if s in err], err
    assert f"{sig.name}: stopping (gateway closed, moves in flight finish, then the workers and the store)" in err
    assert err.rstrip().endswith(f"stopped cleanly ({sig.name})"), err
    assert len(standin.close_codes) == 1 and standin.close_codes[0] is not None  # the bot closed the gateway
    assert not (tmp / "bot.sqlite3-wal").exists()  # the store was closed (SQLite removes the WAL then)


async def test_sigterm_stops_the_bot_cleanly_and_the_health_listener_answers(tmp_path):
    standin = await StandIn().start()
    port = free_port()
    try:
        bot = await Bot(standin, tmp_path, HTTP_PORT=str(port)).start()
        await bot.connected()
        await bot.wait_for(lambda: True, "started")
        assert "; event loop uvloop" in bot.err  # the default (bot.event_loop), installed with the bot
        assert await get(port, "/healthz") == (200, "ok\n")
        for _ in range(600):  # READY came; discord.py reports ready once no guild is awaited
            status, text = await get(port, "/readyz")
            if status == 200:
                break
            await asyncio.sleep(0.05)
        assert (status, text) == (200, "ready\n")
        status, metrics = await get(port, "/metrics")
        assert status == 200
        lines = set(metrics.splitlines())
        assert {"bot_shards_connected 1.0", "bot_shards 1.0", "bot_failed_posts_total 0.0",
                "bot_rate_limit_waits_total 0.0", 'bot_pool_queue{pool="render"} 0.0',
                'bot_pool_queue{pool="ai"} 0.0', "bot_render_seconds_count 0.0"} <= lines
        assert "# TYPE bot_live_sessions gauge" in lines and "# TYPE bot_interaction_seconds histogram" in lines
        assert {'bot_guilds{shard="0"} 0.0', "bot_rate_limit_wait_seconds_total 0.0"} <= lines
        assert "# TYPE bot_errors_total counter" in lines and "# TYPE bot_gateway_latency_seconds gauge" in lines
        memory = {line.split()[0]: float(line.split()[1]) for line in lines
                  if line.startswith(("process_resident_memory_bytes ", "bot_worker_resident_bytes "))}
        assert memory["process_resident_memory_bytes"] > 0 and memory["bot_worker_resident_bytes"] > 0
        await stop_and_check(bot, signal.SIGTERM, standin, tmp_path)
    finally:
        await standin.stop()


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
async def test_ctrl_c_to_the_whole_process_group_stops_the_bot_and_its_workers_quietly(tmp_path, loop):
    """On either event loop (``EVENT_LOOP``, :mod:`bot.event_loop`)."""
    standin = await StandIn().start()
    try:
        bot = await Bot(standin, tmp_path, EVENT_LOOP=loop).start()
        await bot.connected()
        assert f"; event loop {loop}" in bot.err
        await stop_and_check(bot, signal.SIGINT, standin, tmp_path)
    finally:
        await standin.stop()


async def test_readyz_answers_503_until_every_shard_is_connected(tmp_path):
    standin = await StandIn(hold_ready=True).start()
    port = free_port()
    try:
        bot = await Bot(standin, tmp_path, HTTP_PORT=str(port)).start()
        await bot.wait_for(lambda: bool(standin.identified), "identified")
        assert await get(port, "/readyz") == (503, "shards connected 0 of 1\n")
        status, metrics = await get(port, "/metrics")
        assert "bot_shards_connected 0.0" in metrics.splitlines()
        standin.release_ready()
        await bot.connected()
        await stop_and_check(bot, signal.SIGTERM, standin, tmp_path)
    finally:
        await standin.stop()


async def test_start_syncs_the_commands_only_when_they_changed_and_sync_commands_cleans_a_test_guild(tmp_path):
    standin = await StandIn().start()
    global_path = f"/api/v10/applications/{APP_ID}/commands"
    guild_path = f"/api/v10/applications/{APP_ID}/guilds/123456789/commands"
    try:
        for _start in (1, 2):  # the same commands at the second start: no sync
            bot = await Bot(standin, tmp_path).start()
            await bot.connected()
            bot.signal_group(signal.SIGTERM)
            assert (await bot.finish())[0] == 0
            assert standin.count("PUT", global_path) == 1, bot.err
        assert "slash commands unchanged since the last sync (global): not synced" in bot.err
        assert len(standin.bodies[global_path][0]) == COMMANDS

        rc, out = await (await Bot(standin, tmp_path, "sync-commands", "--guild", "123456789").start()).finish()
        assert (rc, out) == (0, f"synced {COMMANDS} commands to guild 123456789\n")
        assert [c["name"] for c in standin.bodies[guild_path][0]] == [c["name"] for c in
                                                                      standin.bodies[global_path][0]]
        rc, out = await (await Bot(standin, tmp_path, "sync-commands", "--clear-guild", "123456789").start()).finish()
        assert (rc, out) == (0, "removed the slash commands of guild 123456789\n")
        assert standin.bodies[guild_path][1] == []

        printer = await Bot(standin, tmp_path, "sync-commands", "--print").start()
        before = len(standin.requests)
        rc, out = await printer.finish()
        assert rc == 0 and len(standin.requests) == before  # Discord is not contacted
        assert json.loads(out) == standin.bodies[global_path][0]
    finally:
        await standin.stop()


async def test_a_move_in_flight_when_the_bot_stops_is_committed_and_answered(tmp_path):
    h = Harness(tmp_path / "db.sqlite3", render=lambda *a, **k: None)
    await h.open()
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    card = (await h.slash(alice, "play", game="tatari")).message(public=True)
    await h.click(bob, card, "Join")
    await h.click(alice, card, "Start")
    update = await h.bot.service.show(str(h.channel_id))
    decision = update.pending[0]
    player = {alice.sid: alice, bob.sid: bob}[decision.player]
    before = update.session.move_count
    gate, entered = asyncio.Event(), asyncio.Event()
    commit = h.store.commit_move

    async def slow_commit(*args, **kwargs):
        entered.set()
        await gate.wait()
        return await commit(*args, **kwargs)

    h.store.commit_move = slow_commit
    async def no_settle(timeout: float = 10.0) -> None:  # feed the press, do not wait for its handling
        return None

    h.settle = no_settle
    sent = len(h.fake.sent)
    await h.choose(player, decision.options[0].id, allow_move=False)
    await entered.wait()
    bot = h.bot
    closing = asyncio.create_task(bot.close())
    while bot._stopping is None:
        await asyncio.sleep(0)
    for _ in range(50):
        await asyncio.sleep(0)
    assert bot.is_closed() and not closing.done()  # the gateway is closed; the stop waits for the move
    gate.set()
    await closing
    row = await h.store.live_session(str(h.channel_id))
    assert row.move_count == before + 1
    assert [r.kind for r in h.fake.sent[sent:]][:1] == ["response"]  # answered before the HTTP session closed
    h.bot = None
    await h.close()



@pytest.mark.parametrize("status", [503, 502])
async def test_each_5xx_from_discord_at_start_is_one_log_line_and_leaks_no_http_session(tmp_path, status):
    """``GET /users/@me`` answers 5xx twice (503: discord.py raises it at once; 502: discord.py tries again by
    itself): one warning line per failed try, no traceback, no "Unclosed client session" / "Unclosed connector"
    from aiohttp; then the bot logs in, connects and stops cleanly."""
    standin = await StandIn(login_failures=2, login_status=status).start()
    try:
        bot = await Bot(standin, tmp_path).start()
        await bot.connected()
        await stop_and_check(bot, signal.SIGTERM, standin, tmp_path)
        err = bot.err
        retries = [line for line in err.splitlines() if "Discord is unreachable" in line]
        assert len(retries) == 2, err
        phrase = {503: "503 Service Unavailable", 502: "502 Bad Gateway"}[status]
        assert [line.split(" WARNING ", 1)[1].rsplit(" in ", 1)[0] for line in retries] == [
            f"bot.discord: Discord is unreachable (DiscordServerError: {phrase}); trying again"] * 2, err
        assert retries[0].endswith("(try 1)") and retries[1].endswith("(try 2)"), err
        assert standin.count("GET", "/api/v10/users/@me") == 3
        assert "Unclosed" not in err and "Traceback" not in err, err
    finally:
        await standin.stop()
