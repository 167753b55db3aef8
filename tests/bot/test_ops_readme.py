"""The README documents every command of ``python -m bot`` and every setting of :class:`bot.config.Settings`."""

import re
from pathlib import Path

from bot.__main__ import cli
from bot.config import Settings

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_every_command_is_shown_with_its_invocation():
    missing = [name for name in cli.commands if f"python -m bot {name}" not in README]
    assert missing == []


def test_every_setting_has_a_row_of_the_settings_table():
    rows = [line for line in README.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([A-Z][A-Z_]+)`", row.split(" | ")[0])}
    assert sorted(name.upper() for name in Settings.model_fields if name.upper() not in named) == []
