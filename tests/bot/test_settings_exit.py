"""A bad setting stops every command with exit 2 and one line naming the setting, its value and what is allowed."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BAD = [
    ("LOG_LEVEL", "verbose",
     "LOG_LEVEL='verbose' is not allowed: one of DEBUG, INFO, WARNING, ERROR, CRITICAL (any case)."),
    ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID='abc' is not allowed: a whole number from 1 to 9223372036854775807, or empty for unset."),
    ("SHARD_IDS", "3", "SHARD_IDS='3' is not allowed: shard 3 is not one of 0-0 (SHARD_COUNT=1)"),
    ("RACE_WINDOW_MS", "-5", "RACE_WINDOW_MS='-5' is not allowed: a whole number from 1000 to 60000."),
    ("REMINDER_HOURS", "-1", "REMINDER_HOURS='-1' is not allowed: a number from 0 to 168."),
    ("EVENT_LOOP", "tokio", "EVENT_LOOP='tokio' is not allowed: one of uvloop, asyncio."),
]

COMMANDS = [["run"], ["demo", "tatari", "--players", "2", "--no-images"]]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any bot setting (no token, no store URL), the worktree importable."""
    names = {"DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT"} | {name for name, _, _ in BAD}
    env = {k: v for k, v in os.environ.items() if k not in names}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


@pytest.mark.parametrize("command", COMMANDS, ids=["run", "demo"])
@pytest.mark.parametrize(("name", "value", "line"), BAD, ids=[name for name, _, _ in BAD])
def test_bad_setting_exits_2_with_one_line(tmp_path, command, name, value, line):
    done = subprocess.run([sys.executable, "-m", "bot", *command], cwd=tmp_path, env=clean_env(**{name: value}),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [line]
    assert "Traceback" not in done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written: no store made
