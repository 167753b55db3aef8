"""Durable storage of sessions, move logs, timers, finished games, ratings and the chat adapter's data
(ARCHITECTURE.md, "Sessions and storage"): one interface, two backends, one factory.

``await open(target)`` (also spelt ``await Store.open(target)``) opens, checks and migrates the database ``target``
(``DATABASE_URL``): a ``postgresql://`` or ``postgres://`` URL gives a :class:`bot.store.postgres.PostgresStore`
(asyncpg, the optional extra ``pip install -e ".[postgres]"``), anything else — a file path, ``:memory:`` or
``sqlite:///path`` — a :class:`bot.store.sqlite.SQLiteStore`.

The package:

- :mod:`bot.store.base`: :class:`Store`, the interface and the SQL both backends share (sessions, moves, timers,
  channel settings, the bot's own key/value data);
- :mod:`bot.store.records`: finished-game records and ratings (:class:`RecordStore`, a part of :class:`Store`);
- :mod:`bot.store.adapter`: the chat adapter's own small data per session and per member (:class:`AdapterData`, a
  part of :class:`Store`);
- :mod:`bot.store.schema`: the numbered migrations, each written once for both dialects;
- :mod:`bot.store.sqlite`, :mod:`bot.store.postgres`: the backends;
- :mod:`bot.store.rows`: the rows and errors the store gives back and raises;
- :mod:`bot.store.copy`: ``python -m bot migrate-store`` (SQLite -> PostgreSQL).

Imports go one way: the backends import the interface, this factory imports the backends (PostgreSQL's only when a
URL names it, so asyncpg stays optional).
"""

from __future__ import annotations

from pathlib import Path

from .base import LEASE_MS, Store, shard_of
from .rows import (
    UNAVAILABLE_TEXT,
    MoveRow,
    SessionRow,
    StaleVersion,
    StoreError,
    StoreUnavailable,
    TimerRow,
    now_ms,
)
from .schema import MIGRATIONS
from .sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """True when ``target`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return str(target).startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> str:
    """The file path of an SQLite target: a plain path, ``:memory:`` or ``sqlite:///path``."""
    target = str(target)
    return target[len("sqlite:///"):] if target.startswith("sqlite:///") else target


async def open(target: str | Path, *, check: bool = True) -> Store:  # noqa: A001 - the store's one factory
    """Open, check and migrate the database ``target`` (see the module docstring); ``check``: run the backend's
    integrity check first (SQLite ``PRAGMA quick_check``, PostgreSQL a round trip). Raises :class:`StoreError` with
    one line an operator can act on when it cannot be used (also when a PostgreSQL URL is given without asyncpg)."""
    if is_postgres(target):
        try:
            from .postgres import PostgresStore
        except ImportError as exc:  # asyncpg missing
            raise StoreError(f"a PostgreSQL DATABASE_URL needs asyncpg: pip install -e \".[postgres]\" ({exc})"
                             ) from None
        return await PostgresStore.connect(str(target), check=check)
    return await SQLiteStore.connect(sqlite_path(target), check=check)


Store.open = staticmethod(open)

__all__ = ["LEASE_MS", "MIGRATIONS", "POSTGRES_SCHEMES", "UNAVAILABLE_TEXT", "MoveRow", "SQLiteStore", "SessionRow",
           "StaleVersion", "Store", "StoreError", "StoreUnavailable", "TimerRow", "is_postgres", "now_ms", "open", "shard_of", "sqlite_path"]
