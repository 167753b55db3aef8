"""``python -m bot backup --to FILE``: a consistent copy of the SQLite store, also while the bot runs.

SQLite's online backup API (:meth:`sqlite3.Connection.backup`) copies the database as one read transaction sees it:
every move committed before the copy began is in it (also the ones still in the ``-wal`` file, which a ``cp`` of the
main file misses), none half-written, and the bot keeps writing meanwhile (WAL: readers never block the writer).
The copy is written next to ``FILE`` under a temporary name, checked (``PRAGMA integrity_check``), switched to a
single-file journal (``DELETE``) and only then renamed to ``FILE``.

A PostgreSQL store is backed up with the server's own tool: :func:`postgres_advice` says how (``pg_dump``).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .store import is_postgres, sqlite_path

WAIT_S = 10.0
"""How long the backup waits for a store another process holds locked (s)."""


def redacted(url: str) -> str:
    """``url`` without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


class BackupError(RuntimeError):
    """A backup that cannot be made: one line an operator can act on."""


@dataclass(frozen=True)
class BackupReport:
    """What a backup copied: the file written, its size (bytes), its schema version and row counts."""

    path: Path
    size: int
    schema_version: int
    sessions: int
    moves: int

    def line(self) -> str:
        return (f"backed up to {self.path}: {self.size} bytes, schema version {self.schema_version}, "
                f"{self.sessions} sessions, {self.moves} moves")


def postgres_advice(url: str) -> str:
    """How to back up and restore the PostgreSQL store at ``url`` (password hidden)."""
    shown = redacted(url)
    return (f"The store is PostgreSQL ({shown}): back it up with pg_dump, e.g. "
            f"pg_dump --format=custom --file=bot.dump '{shown}'; restore into an empty database with "
            f"pg_restore --dbname='{shown}' bot.dump.")


def backup_sqlite(source: str | Path, target: str | Path) -> BackupReport:
    """Copy the SQLite store ``source`` (a path or ``sqlite:///path``) to the new file ``target`` as one moment of it
    (see the module docstring). :class:`BackupError` when ``source`` is missing or unreadable, ``target`` exists, or
    the copy fails its check (nothing is left at ``target`` then)."""
    src_path = Path(sqlite_path(str(source)))
    dest = Path(target)
    if not src_path.is_file():
        raise BackupError(f"there is no SQLite store at {src_path}")
    if dest.exists():
        raise BackupError(f"{dest} exists already: give a new file name (a backup never overwrites)")
    if dest.resolve() == src_path.resolve():
        raise BackupError("the backup must go to another file than the store")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create the folder of {dest}: {exc.strerror or exc}") from None
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    try:
        src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True, timeout=WAIT_S)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open the store {src_path}: {exc}") from None
    try:
        out = sqlite3.connect(partial)
        try:
            src.backup(out)  # all pages in one step: one read transaction, one moment of the store
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            check = [r[0] for r in out.execute("PRAGMA integrity_check")]
            if check != ["ok"]:
                raise BackupError(f"the copy failed its check ({'; '.join(check[:3])}); the store may be damaged")
            version = out.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in out.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            sessions = out.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] if "sessions" in tables else 0
            moves = out.execute("SELECT COUNT(*) FROM moves").fetchone()[0] if "moves" in tables else 0
        finally:
            out.close()
        os.replace(partial, dest)
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {src_path} failed: {exc}") from None
    finally:
        src.close()
        partial.unlink(missing_ok=True)
    return BackupReport(dest, dest.stat().st_size, version, sessions, moves)


def backup(target_store: str, to: str | Path) -> BackupReport:
    """Back up the store ``target_store`` (``Settings.database()``) to ``to``. :class:`BackupError` for a
    PostgreSQL store (with :func:`postgres_advice`) and for every failure of :func:`backup_sqlite`."""
    if is_postgres(target_store):
        raise BackupError(postgres_advice(target_store))
    return backup_sqlite(target_store, to)
