"""Log lines of ``python -m bot run``: plain text (``LOG_FORMAT=text``) or one JSON object per line
(``LOG_FORMAT=json``, python-json-logger), with the ids of what a line is about as fields where known.

The ids come from :data:`CONTEXT` (a context variable: set once at the start of a command's handling, it holds for
every line that handling logs, in the same task) or from a record's own ``extra``: ``session_id``, ``guild_id``,
``channel_id``. JSON lines carry ``time`` (RFC 3339 in UTC with milliseconds, ``2026-12-03T22:05:09.570Z``),
``level``, ``logger``, ``message`` and those ids (when known);
text lines end with ``[session 12 guild 3 channel 4]`` when one is known.
"""

from __future__ import annotations

import contextvars
import datetime
import logging
from collections.abc import Mapping

IDS = ("session_id", "guild_id", "channel_id")
"""The fields a log record may carry about what it concerns."""

CONTEXT: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("log_context", default=None)
"""The ids of what the current task is handling (:func:`about`)."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s%(ids)s"


def about(**ids: object) -> None:
    """Note the ids (``session_id=…``, ``guild_id=…``, ``channel_id=…``; None ones ignored) of what the current task
    handles, on top of those already noted: every later log line of this task carries them."""
    now = dict(CONTEXT.get() or {})
    now.update({k: str(v) for k, v in ids.items() if v is not None and k in IDS})
    CONTEXT.set(now)


class ContextIds(logging.Filter):
    """Adds :data:`IDS` to every record (from ``extra``, else :data:`CONTEXT`, else None) and ``ids``, their text
    form for plain lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        known = CONTEXT.get() or {}
        parts = []
        for name in IDS:
            value = getattr(record, name, None)
            if value is None:
                value = known.get(name)
            setattr(record, name, None if value is None else str(value))
            if value is not None:
                parts.append(f"{name.removesuffix('_id')} {value}")
        record.ids = f" [{' '.join(parts)}]" if parts else ""
        return True


def rfc3339(created: float) -> str:
    """``created`` (seconds since the epoch) as RFC 3339 in UTC with milliseconds: ``2026-12-03T22:05:09.570Z``."""
    moment = datetime.datetime.fromtimestamp(created, datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def json_formatter() -> logging.Formatter:
    """python-json-logger's formatter: ``time``, ``level``, ``logger``, ``message`` and the known ids per line."""
    try:
        from pythonjsonlogger.json import JsonFormatter
    except ImportError:  # python-json-logger < 3
        from pythonjsonlogger.jsonlogger import JsonFormatter

    class Formatter(JsonFormatter):
        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
            return rfc3339(record.created)

        def process_log_record(self, log_record):
            for name in IDS:
                if log_record.get(name) is None:
                    log_record.pop(name, None)
            log_record.pop("ids", None)
            return log_record

    return Formatter("%(asctime)s %(levelname)s %(name)s %(message)s %(session_id)s %(guild_id)s %(channel_id)s",
                     rename_fields={"asctime": "time", "levelname": "level", "name": "logger"})


def setup_logging(level: str = "INFO", fmt: str = "text") -> logging.Handler:
    """One stderr handler on the root logger at ``level`` (a name of :data:`bot.config.LOG_LEVELS`) writing
    ``fmt`` (``text`` or ``json``) lines; replaces handlers set before. Returns the handler."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler = logging.StreamHandler()
    handler.addFilter(ContextIds())
    handler.setFormatter(json_formatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    return handler
