"""Every start-up failure of the real ``python -m bot run`` (against the stand-in of Discord, tests/discord/standin.py)
ends the process with one line on stderr and the exit code of the README's table, the store closed: a busy
``HTTP_PORT``, an ``HTTP_HOST`` that does not resolve, a store that cannot be opened, a token Discord rejects, and bad
settings. The process is waited for with a generous bound that only catches a hang; no timing is asserted."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from standin import StandIn
from test_service_run import BAD_SIGNS, Bot, free_port


async def failed_start(tmp: Path, standin: StandIn | None = None, **env: str) -> tuple[int, list[str]]:
    """Run ``python -m bot run`` with ``env`` until it exits: (exit code, stderr lines)."""
    own = standin is None
    standin = standin or await StandIn().start()
    try:
        bot = await Bot(standin, tmp, **env).start()
        rc, out = await bot.finish()
        err = bot.err
    finally:
        if own:
            await standin.stop()
    assert out == ""
    assert not [s for s in BAD_SIGNS if s in err], err
    assert not (tmp / "bot.sqlite3-wal").exists()  # the store was closed (SQLite removes the WAL then)
    return rc, err.splitlines()


async def test_a_busy_http_port_exits_6_with_one_line_and_the_store_closed(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        rc, lines = await failed_start(tmp_path, HTTP_PORT=str(port))
    assert rc == 6
    assert lines[-1].startswith(f"The HTTP listener cannot start on 127.0.0.1:{port} (")
    assert lines[-1].endswith("): free the port or change HTTP_PORT / HTTP_HOST.")
    assert [line for line in lines if "HTTP listener" in line] == lines[-1:]
    assert (tmp_path / "bot.sqlite3").exists()  # the store was opened first, then closed


async def test_an_http_host_that_does_not_resolve_exits_6_with_one_line(tmp_path):
    rc, lines = await failed_start(tmp_path, HTTP_PORT=str(free_port()), HTTP_HOST="no-such-host.invalid")
    assert rc == 6
    assert lines[-1].startswith("The HTTP listener cannot start on no-such-host.invalid:")
    assert [line for line in lines if "HTTP listener" in line] == lines[-1:]


async def test_a_store_that_cannot_be_opened_exits_5_with_one_line(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    rc, lines = await failed_start(tmp_path, DATABASE_PATH=str(tmp_path / "a-file" / "bot.sqlite3"))
    assert rc == 5
    assert lines[-1].startswith("The store cannot be used: ")
    assert len([line for line in lines if "store cannot be used" in line]) == 1


async def test_a_token_discord_rejects_exits_3_with_one_line_and_the_workers_stopped(tmp_path):
    standin = await StandIn(login_failures=1, login_status=401).start()
    try:
        rc, lines = await failed_start(tmp_path, standin, AI_PROCESSES="true")
    finally:
        await standin.stop()
    assert rc == 3
    assert lines[-1] == "Discord rejected the token (LoginFailure): check DISCORD_TOKEN in the environment or .env."
    assert standin.count("GET", "/api/v10/users/@me") == 1 and not standin.identified


@pytest.mark.parametrize(("env", "line"), [
    ({"LOG_LEVEL": "verbose"},
     "LOG_LEVEL='verbose' is not allowed: one of DEBUG, INFO, WARNING, ERROR, CRITICAL (any case)."),
    ({"DATABASE_URL": "mysql://user:secret@db/bot"},
     "DATABASE_URL='mysql://…' is not allowed: a postgresql:// or postgres:// URL, sqlite:///path or a file path."),
    ({"AI_ITERATIONS": "100000000"},
     "AI_ITERATIONS='100000000' is not allowed: a whole number from 1 to 10000, or empty for unset."),
    ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN is not set: put it in the environment or in .env (see .env.example)."),
])
async def test_settings_that_cannot_be_used_exit_2_with_one_line(tmp_path, env, line):
    rc, lines = await failed_start(tmp_path, **env)
    assert (rc, lines) == (2, [line])
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before the store was opened
