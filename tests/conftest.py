import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _database_path_in_tmp(tmp_path_factory, monkeypatch):
    """DATABASE_PATH in a temporary folder: ``python -m bot demo`` records its games there (issue 15), never in
    the working copy's ./data."""
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path_factory.mktemp("db") / "bot.sqlite3"))
