"""Shared fixtures. ``store_backend`` / ``database``: the store, session and Discord suites run on both backends
(issue 16) — SQLite in a fresh file, and PostgreSQL in a fresh schema of the server at ``TEST_DATABASE_URL`` (``.ci/run``
starts a throwaway server and sets it; see README). Without that variable the PostgreSQL cases are skipped locally,
with one line in the summary, and FAIL under ``CI=true``: CI never passes without having run them."""

import os
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
IN_CI = os.environ.get("CI", "").lower() == "true"
NO_SERVER = ("PostgreSQL store tests skipped: TEST_DATABASE_URL is not set (bash .ci/run starts a throwaway server "
             "and sets it; see README, 'Tests on PostgreSQL')")


def with_schema(url: str, schema: str) -> str:
    """``url`` with the server setting ``search_path=schema`` (asyncpg passes unknown query parameters to the
    server), so every table of a store opened on it lives in ``schema``."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def require_postgres() -> str:
    """The test server's URL; skips (locally) or fails (CI) when there is none."""
    if not PG_URL:
        if IN_CI:
            pytest.fail("CI=true but TEST_DATABASE_URL is not set: .ci/run must start the PostgreSQL test server")
        pytest.skip(NO_SERVER)
    return PG_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def store_backend(request) -> str:
    """``sqlite`` or ``postgresql`` (each test that uses it runs on both)."""
    if request.param == "postgresql":
        require_postgres()
    return request.param


async def fresh_schema(url: str) -> str:
    import asyncpg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET lock_timeout = '10s'")
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    except asyncpg.PostgresError:
        pass  # a store a test left open: the schema stays (the throwaway server goes anyway)
    finally:
        await conn.close()


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
