"""Settings (bot/config.py): every field is in .env.example, and a copied .env.example loads."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def test_every_setting_is_documented_in_env_example():
    names = set(re.findall(r"^([A-Z_]+)=", EXAMPLE.read_text(), re.M))
    assert names == {f.upper() for f in Settings.model_fields}


def test_a_copied_env_example_loads_with_empty_values_as_unset(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    (tmp_path / ".env").write_text(EXAMPLE.read_text())
    s = Settings()
    assert s.discord_token is None and s.dev_guild_id is None
    assert s.database_path == Path("data/bot.sqlite3") and s.reminder_hours == 12 and s.race_window_ms == 8000


def test_every_number_setting_has_both_bounds():
    """A number without an upper bound (AI_ITERATIONS=10**9, REPLAY_CACHE_MB=10**12) would be accepted and hurt."""
    unbounded = []
    for name, field in Settings.model_fields.items():
        types = getattr(field.annotation, "__args__", None) or (field.annotation,)
        if not {int, float} & set(types):
            continue
        lo = [m.ge for m in field.metadata if getattr(m, "ge", None) is not None]
        hi = [m.le for m in field.metadata if getattr(m, "le", None) is not None]
        if not (lo and hi):
            unbounded.append(name)
    assert unbounded == []
