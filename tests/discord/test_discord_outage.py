"""A store outage: while the database does not answer, every input gets one plain ephemeral line
(:data:`bot.store.UNAVAILABLE_TEXT`) and changes nothing; the log has one line when the outage starts and one when
the database answers again — no traceback per input; afterwards nothing is lost and play goes on."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from harness import Harness
from test_discord_play import open_game, pending

from bot.store import UNAVAILABLE_TEXT

OTHER_CHANNEL = 700_000_000_000_000_099


def _refused() -> ConnectionRefusedError:
    return ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")


class _Refused:
    """``pool.acquire()`` of a server that refuses connections."""

    async def __aenter__(self):
        raise _refused()

    async def __aexit__(self, *exc):
        return False


class RefusingPool:
    """An asyncpg pool whose server refuses every connection."""

    def acquire(self, *args, **kwargs):
        return _Refused()

    def __getattr__(self, name):
        async def refused(*args, **kwargs):
            raise _refused()

        return refused


def go_down(h: Harness) -> pytest.MonkeyPatch:
    """The database stops answering (PostgreSQL refuses every connection; SQLite's file cannot be opened) until
    the returned patch is undone."""
    monkeypatch = pytest.MonkeyPatch()
    store = h.store
    if store.backend == "postgresql":
        monkeypatch.setattr(store, "pool", RefusingPool())
        monkeypatch.setattr(store.conn, "_pool", store.pool)
        return monkeypatch

    async def unopenable(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(store.conn, "execute", unopenable)
    monkeypatch.setattr(store.conn, "executemany", unopenable)
    return monkeypatch


def store_lines(caplog) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "bot.store"]


def problems(caplog) -> list[str]:
    """Records at WARNING or above other than the store's own outage line (and discord.py's voice notices)."""
    return [f"{r.name} {r.levelname} {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.WARNING and r.name != "bot.store" and "voice will NOT" not in r.getMessage()]


async def test_every_input_during_an_outage_gets_one_plain_line_and_the_log_two(database, caplog):
    async with Harness(database) as h:
        alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        users = {u.sid: u for u in (alice, bob)}
        await open_game(h, [alice, bob])
        d = (await pending(h)).pending[0]
        await h.choose(users[d.player], d.options[0].id)
        update = await pending(h)
        sid, version = update.session.id, update.session.version
        moves = [(m.seq, m.player, m.option) for m in await h.store.moves(sid)]
        board = h.board()
        d = update.pending[0]
        caplog.clear()
        caplog.set_level(logging.INFO)

        outage = go_down(h)
        inputs = [
            ("press", lambda: h.click(users[d.player], board, 0)),
            ("/move", lambda: h.slash(users[d.player], "move", option=d.options[0].id)),
            ("/board", lambda: h.slash(carol, "board")),
            ("/history", lambda: h.slash(bob, "history")),
            ("/undo", lambda: h.slash(alice, "undo")),
            ("/resign", lambda: h.slash(bob, "resign")),
            ("/play", lambda: h.slash(carol, "play", channel_id=OTHER_CHANNEL, game="tatari")),
            ("/stats", lambda: h.slash(carol, "stats")),
            ("/settings", lambda: h.slash(carol, "settings")),
        ]
        for name, send in inputs:
            h.advance(1000)
            reply = await send()
            assert [s.content for s in reply] == [UNAVAILABLE_TEXT], (name, [(s.kind, s.content) for s in reply])
            assert reply.ephemeral() and not reply.public(), name
        lines = store_lines(caplog)
        assert len(lines) == 1 and lines[0][0] == "WARNING" and "not answering" in lines[0][1], lines
        assert not problems(caplog), problems(caplog)

        outage.undo()  # the database answers again
        reply = await h.slash(carol, "board")
        assert reply.ephemeral() and UNAVAILABLE_TEXT not in reply.text
        lines = store_lines(caplog)
        assert len(lines) == 2 and lines[1][0] == "INFO" and "answers again" in lines[1][1], lines
        after = await pending(h)
        assert (after.session.version, [(m.seq, m.player, m.option) for m in await h.store.moves(sid)]) == \
            (version, moves)
        reply = await h.choose(users[d.player], d.options[0].id)
        assert reply.public(), reply.text
        assert (await pending(h)).session.version == version + 1
        assert len(store_lines(caplog)) == 2
        assert not problems(caplog), problems(caplog)


@pytest.mark.parametrize("outages", [2])
async def test_each_outage_is_logged_once_at_its_start_and_once_at_its_end(database, caplog, outages):
    async with Harness(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        caplog.set_level(logging.INFO)
        caplog.clear()
        for _ in range(outages):
            outage = go_down(h)
            for _ in range(5):
                reply = await h.slash(bob, "board")
                assert reply.text == UNAVAILABLE_TEXT
            outage.undo()
            assert (await h.slash(bob, "board")).text != UNAVAILABLE_TEXT
        assert [level for level, _ in store_lines(caplog)] == ["WARNING", "INFO"] * outages
        assert not problems(caplog), problems(caplog)


class PrivateServer:
    """A PostgreSQL server of this test's own (``.ci/postgres-server``), stopped and started again on its port."""

    def __init__(self) -> None:
        import glob
        import os
        import tempfile

        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bins:
            pytest.skip("PostgreSQL's binaries are not installed (Debian's postgresql package)")
        root = tempfile.mkdtemp(prefix="pbc-outage-")  # not under pytest's tmp: the server's user must reach it
        os.chmod(root, 0o755)
        self.bin, self.dir = bins[-1], os.path.join(root, "pg")
        self.url = ""

    def _run(self, *args: str) -> str:
        import os
        import subprocess

        cmd = list(args)
        if os.geteuid() == 0 and cmd[0] != "bash":
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout

    def start(self) -> str:
        from pathlib import Path

        script = Path(__file__).resolve().parents[2] / ".ci" / "postgres-server"
        out = self._run("bash", str(script), "start", self.dir)
        self.url = out.strip().split("TEST_DATABASE_URL=", 1)[1]
        self.port = self.url.rsplit(":", 1)[1].split("/", 1)[0]
        return self.url

    def stop(self) -> None:
        self._run(f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop")

    def restart(self) -> None:
        self._run(f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/server.log", "-w", "-t", "60",
                  "start", "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off")

    def remove(self) -> None:
        import os
        from pathlib import Path

        script = Path(__file__).resolve().parents[2] / ".ci" / "postgres-server"
        self._run("bash", str(script), "stop", self.dir)
        os.rmdir(os.path.dirname(self.dir))


async def test_a_stopped_postgresql_server_is_one_line_per_input_and_two_in_the_log(caplog):
    """The real thing: the bot's PostgreSQL server is stopped while a game runs, inputs arrive, then it starts
    again on the same port."""
    import asyncio

    server = PrivateServer()
    try:
        url = await asyncio.to_thread(server.start)
        async with Harness(url) as h:
            alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
            users = {u.sid: u for u in (alice, bob)}
            await open_game(h, [alice, bob])
            update = await pending(h)
            sid, version, d = update.session.id, update.session.version, update.pending[0]
            board = h.board()
            caplog.clear()
            caplog.set_level(logging.INFO)
            await asyncio.to_thread(server.stop)
            for send in (lambda: h.click(users[d.player], board, 0), lambda: h.slash(carol, "board"),
                         lambda: h.slash(users[d.player], "move", option=d.options[0].id),
                         lambda: h.slash(bob, "history"), lambda: h.slash(carol, "play", channel_id=OTHER_CHANNEL,
                                                                            game="tatari")):
                h.advance(1000)
                reply = await send()
                assert [s.content for s in reply] == [UNAVAILABLE_TEXT], [(s.kind, s.content) for s in reply]
            lines = store_lines(caplog)
            assert [level for level, _ in lines] == ["WARNING"], lines
            await asyncio.to_thread(server.restart)
            reply = await h.slash(carol, "board")
            assert reply.ephemeral() and UNAVAILABLE_TEXT not in reply.text, reply.text
            assert [level for level, _ in store_lines(caplog)] == ["WARNING", "INFO"], store_lines(caplog)
            assert (await h.store.session(sid)).version == version
            reply = await h.choose(users[d.player], d.options[0].id)
            assert reply.public(), reply.text
            assert (await h.store.session(sid)).version == version + 1
            assert not problems(caplog), problems(caplog)
    finally:
        await asyncio.to_thread(server.remove)
