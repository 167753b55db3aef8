"""Shared fixtures. ``store_backend`` / ``database``: the store, session and Discord suites run on both backends —
SQLite in a fresh file, and PostgreSQL in a fresh schema of the server at ``TEST_DATABASE_URL`` (``.ci/run`` starts a
throwaway server and sets it; see README). Without that variable the PostgreSQL cases are skipped locally,
with one line in the summary, and FAIL under ``CI=true``: CI never passes without having run them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from databases import NO_SERVER, PG_URL, drop_schema, fresh_schema, require_postgres, with_schema  # noqa: E402


@pytest.fixture(params=["sqlite", "postgresql"])
def store_backend(request) -> str:
    """``sqlite`` or ``postgresql`` (each test that uses it runs on both)."""
    if request.param == "postgresql":
        require_postgres()
    return request.param


@pytest.fixture
async def database(store_backend, tmp_path):
    """A fresh, empty database target for ``Store.open``: an SQLite file path, or a PostgreSQL URL whose
    ``search_path`` is a new schema (dropped afterwards)."""
    if store_backend == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    schema = await fresh_schema(PG_URL)
    try:
        yield with_schema(PG_URL, schema)
    finally:
        await drop_schema(PG_URL, schema)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_SERVER in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(f"{NO_SERVER} ({len(skipped)} test cases)", yellow=True)


@pytest.fixture(autouse=True)
def _database_path_in_tmp(tmp_path_factory, monkeypatch):
    """DATABASE_PATH in a temporary folder: ``python -m bot demo`` records its games there, never in
    the working copy's ./data."""
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path_factory.mktemp("db") / "bot.sqlite3"))


@pytest.fixture(autouse=True)
def _no_job_time_out(monkeypatch):
    """The drawing workers' time-out (``bot.heavy.JOB_TIMEOUT_S``, a guard against a stuck worker in production)
    is off in tests: a loaded machine only makes a replay slower, and the tests assert what is drawn, never how
    fast."""
    import bot.heavy

    monkeypatch.setattr(bot.heavy, "JOB_TIMEOUT_S", None)
