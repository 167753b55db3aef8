"""The test databases of the two store backends: the PostgreSQL test server at ``TEST_DATABASE_URL`` (``.ci/run``
starts one), a fresh schema per test, and the rule: no server -> skipped locally, FAILED under ``CI=true``."""

import os
import uuid

import pytest

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


