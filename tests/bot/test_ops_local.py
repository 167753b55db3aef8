"""The offline commands as an operator meets them: ``--version``, the help texts, the sandbox's line editing in a
real terminal (a pseudo-terminal), the README's ``[#channel] name [+ms]: text`` notation typed literally, the demo
writing into the PostgreSQL of ``DATABASE_URL``, the fonts extra, and ``bench_store.py`` finishing."""

from __future__ import annotations

import asyncio
import os
import re
import select
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.__main__ import cli
from bot.local.chat import LocalChat
from bot.sessions import SessionService
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
README = (ROOT / "README.md").read_text()
SETTINGS = {"DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "IMAGES_DIR", "LOG_LEVEL", "LOG_FORMAT"}


def bot_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` run in ``tmp``: no setting of the caller's, the worktree importable."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return {**env, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp / "bot.sqlite3"),
            "IMAGES_DIR": str(tmp / "img"), **extra}


def bot(tmp: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp, env=bot_env(tmp, **env), input=stdin,
                          capture_output=True, text=True, timeout=300)


# -- version and help --------------------------------------------------------------------------------------------
def test_version_prints_the_version_of_pyproject(tmp_path):
    version = PYPROJECT["project"]["version"]
    done = bot(tmp_path, "--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"tabletop-bot {version}\n", "")


@pytest.mark.parametrize("command", ["demo", "script", "gallery"])
def test_help_shows_the_seed_default_without_its_internal_bounds(command):
    out = CliRunner().invoke(cli, [command, "--help"], terminal_width=200).output
    seed = next(line for line in out.splitlines() if "--seed" in line)
    assert seed.rstrip().endswith("[default: 1]"), seed
    assert "<=x<=" not in seed and "4611686018427387904" not in out


# -- the sandbox in a terminal -----------------------------------------------------------------------------------
class Terminal:
    """``python -m bot sandbox`` on a pseudo-terminal: what it prints, and keys typed at it."""

    def __init__(self, tmp: Path) -> None:
        import pty

        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "sandbox"], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=tmp, env=bot_env(tmp, TERM="xterm"), close_fds=True)
        os.close(slave)
        self.seen = b""

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait_for(self, text: bytes, count: int = 1) -> None:
        for _ in range(600):  # a bound, not a timing assertion: a slow machine only waits longer
            if self.seen.count(text) >= count:
                return
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the sandbox exited
                    break
        raise AssertionError(f"never {count} x {text!r}:\n{self.seen.decode(errors='replace')}")

    def quit(self) -> int:
        """Ctrl-D at the prompt; reads what it still prints (a full terminal would block it) until it exits."""
        if not self.seen.endswith(b"> "):  # the prompt after the last reply
            self.wait_for(b"> ", self.seen.count(b"> ") + 1)
        self.type(b"\x04")
        for _ in range(600):
            if self.proc.poll() is not None:
                break
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    pass
        os.close(self.master)
        return self.proc.wait(10)


GAMES_LINE = b"Games: tatamokatsu (2-5 players)"
UP = b"\x1b[A"


def test_the_sandbox_in_a_terminal_recalls_earlier_lines_with_up_also_after_a_restart(tmp_path):
    term = Terminal(tmp_path)
    term.wait_for(b"> ")
    term.type(b"alice: /games\r")
    term.wait_for(GAMES_LINE)
    term.type(UP + b"\r")  # Up-arrow, Enter: the line typed before, not "\x1b[A"
    term.wait_for(GAMES_LINE, 2)
    assert term.quit() == 0
    assert b"Cannot read" not in term.seen, term.seen.decode(errors="replace")
    assert (tmp_path / "sandbox_history").read_text().splitlines()[-1] == "alice: /games"

    again = Terminal(tmp_path)  # a new session: Up recalls the last line of the one before
    again.wait_for(b"> ")
    again.type(UP + b"\r")
    again.wait_for(GAMES_LINE)
    assert again.quit() == 0
    assert b"Cannot read" not in again.seen


def test_the_sandbox_reads_piped_lines_without_a_terminal_and_keeps_no_history(tmp_path):
    done = bot(tmp_path, "sandbox", stdin="[#ch2] carol: /play tatari\n#ch2 dave: /join\n")
    assert done.returncode == 0, done.stderr
    assert "carol opened a lobby for Tatari." in done.stdout
    assert "dave joined (2/5)." in done.stdout
    assert "Cannot read" not in done.stdout and done.stderr == ""
    assert not (tmp_path / "sandbox_history").exists()


# -- the README's line notation -----------------------------------------------------------------------------------
async def test_the_readme_notation_typed_with_its_brackets_is_understood(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        chat = LocalChat(SessionService(store, seeds=lambda: 7), None)
        out = []
        for line in ("[#ch2] carol: /play tatari", "[#ch2] dave: /join", "#ch2 carol: /start",
                     "[#ch2] carol [+1500]: /board", "alice: /play tsukimi"):
            out.append(await chat.line(line))
        assert out[0][0] == "carol opened a lobby for Tatari."
        assert out[1][0] == "dave joined (2/5)."
        assert not [line for lines in out for line in lines if line.startswith("!")], out
        assert (await store.live_session("ch2")).players == ["carol", "dave"]
        assert (await store.live_session("table")).game_id == "tsukimi"  # no channel: #table
        assert chat.now == chat.channels["ch2"].mark_ms + 1500  # [+1500] is +1500
    finally:
        await store.close()


async def test_the_notation_itself_typed_literally_is_refused_with_the_format_and_examples(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        chat = LocalChat(SessionService(store, seeds=lambda: 7), None)
        out = await chat.line("[#channel] name [+ms]: text")
        assert out == ["! Cannot read '[#channel] name [+ms]: text': a line is '[#channel] name [+ms]: text', the "
                       "parts in brackets optional, e.g. 'alice: /play tatari', '#ch2 carol: /join', "
                       "'bob +1200: hai'."]
        assert await store.live_session("channel") is None
    finally:
        await store.close()


# -- the store of the settings -------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["environment", ".env"])
def test_demo_records_its_game_in_the_postgresql_of_database_url(tmp_path, where):
    from databases import drop_schema, fresh_schema, require_postgres, with_schema

    base = require_postgres()
    schema = asyncio.run(fresh_schema(base))
    url = with_schema(base, schema)
    try:
        if where == ".env":
            (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n")
            done = bot(tmp_path, "demo", "tatari", "--players", "2", "--no-images")
        else:
            done = bot(tmp_path, "demo", "tatari", "--players", "2", "--no-images", DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
        assert "Ranking: 1. " in done.stdout

        async def recorded():
            store = await Store.open(url)
            try:
                return store.backend, await store.channel_records("demo-tatari-1")
            finally:
                await store.close()

        backend, records = asyncio.run(recorded())
        assert backend == "postgresql" and len(records) == 1 and records[0][1] == "tatari"
        assert not (tmp_path / "bot.sqlite3").exists()  # DATABASE_PATH untouched
    finally:
        asyncio.run(drop_schema(base, schema))


@pytest.mark.parametrize("command", [["sandbox"], ["script", "-", "--settings-store"]])
def test_the_sandbox_and_script_settings_store_play_in_the_postgresql_of_database_url(tmp_path, command):
    from databases import drop_schema, fresh_schema, require_postgres, with_schema

    base = require_postgres()
    schema = asyncio.run(fresh_schema(base))
    url = with_schema(base, schema)
    try:
        done = bot(tmp_path, *command, stdin="[#ch2] carol: /play tatari\n", DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
        assert "carol opened a lobby for Tatari." in done.stdout

        async def lobby():
            store = await Store.open(url)
            try:
                return await store.live_session("ch2")
            finally:
                await store.close()

        row = asyncio.run(lobby())
        assert row is not None and (row.game_id, row.players) == ("tatari", ["carol"])
        assert sorted(p.name for p in tmp_path.iterdir()) == []  # no SQLite file beside DATABASE_PATH
    finally:
        asyncio.run(drop_schema(base, schema))


# -- the fonts tool -------------------------------------------------------------------------------------------------
def test_the_fonts_extra_installs_fonttools_and_the_readme_says_so():
    assert any(req.lower().startswith("fonttools") for req in PYPROJECT["project"]["optional-dependencies"]["fonts"])
    assert "pip install -e \".[fonts]\"" in README and "tools/make_fonts.py" in README


def test_make_fonts_without_fonttools_says_which_extra_installs_it(tmp_path):
    blocker = tmp_path / "fontTools"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('No module named fontTools')\n")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_fonts.py"), "--only", "math"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == ("tools/make_fonts.py needs fontTools, which the 'fonts' extra installs: "
                           "pip install -e '.[fonts]'\n")


# -- bench_store ----------------------------------------------------------------------------------------------------
def test_bench_store_with_two_sqlite_processes_finishes_and_prints_its_line(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_store.py"), "--database-url",
                           f"sqlite:///{tmp_path / 'bench.sqlite3'}", "--processes", "2", "--seconds", "1",
                           "--channels", "2"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"backend=sqlite processes=2 moves_per_s=\d+ p50_ms=[\d.]+ p99_ms=[\d.]+\n", done.stdout)
    assert "database is locked" not in done.stderr, done.stderr


def test_script_whose_reader_stops_early_ends_without_a_traceback(tmp_path):
    """``python -m bot script … | head -1``: the pipe closes after the first line; the script must still close its
    store (its connection thread kept the process alive forever before) and exit without a traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "bot", "script", str(ROOT / "examples" / "tatari.txt")],
                            cwd=tmp_path, env=bot_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b">>> ")
    proc.stdout.close()  # as `head -1` does
    try:
        stderr = proc.communicate(timeout=60)[1].decode()
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the script kept running after its output closed") from None
    assert "Traceback" not in stderr, stderr
