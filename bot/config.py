"""Settings from the environment and ``.env`` (pydantic-settings). Every field is documented in ``.env.example``."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.ai_seats import DEFAULT_PAUSE_MS
from bot.event_loop import EVENT_LOOPS
from games.ai import DEFAULT_BUDGET_MS, MAX_BUDGET_MS

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""The values of ``LOG_LEVEL`` (any case)."""
LOG_FORMATS = ("text", "json")
"""The values of ``LOG_FORMAT``: plain lines, or one JSON object per line (python-json-logger)."""
MAX_SHARDS = 1024
"""The largest ``SHARD_COUNT`` accepted (Discord asks for one shard per 1000-2500 servers)."""
MAX_AI_ITERATIONS = 10_000
"""The largest ``AI_ITERATIONS``: a fixed-iteration search stays within seconds per move."""
MAX_REPLAY_CACHE_MB = 1_048_576
"""The largest ``REPLAY_CACHE_MB`` (1 TB)."""
MAX_SNOWFLAKE = 2**63 - 1
"""The largest Discord id (a 64-bit snowflake)."""
DATABASE_SCHEMES = ("postgresql://", "postgres://", "sqlite:///")
"""The URL forms ``DATABASE_URL`` accepts; a value without ``://`` is an SQLite file path."""


def parse_shard_ids(text: str) -> list[int]:
    """``"0,1"`` or ``"0-3"`` (or a mix, ``"0,2-3"``) -> sorted shard ids. ``ValueError`` with a readable message
    (what is wrong with the text) for anything else."""
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        if not (lo.strip().isascii() and lo.strip().isdigit()) or (dash and not (hi.strip().isascii()
                                                                             and hi.strip().isdigit())):
            raise ValueError(f"'{part}' is not a shard number or a range like 0-3")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first:
            raise ValueError(f"the range '{part}' runs backwards")
        if last >= MAX_SHARDS:
            raise ValueError(f"shard {last} is more than {MAX_SHARDS - 1}")
        ids.update(range(first, last + 1))
    if not ids:
        raise ValueError("it is empty: give shard numbers like 0,1 or a range like 0-3")
    return sorted(ids)


class Settings(BaseSettings):
    # env_ignore_empty: a copied .env.example (DEV_GUILD_ID= left empty) means "not set", not a parse error
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Discord developer portal")
    dev_guild_id: int | None = Field(default=None, ge=1, le=MAX_SNOWFLAKE, description="Sync slash commands to this guild only (fast)")
    database_path: Path = Field(default=Path("data/bot.sqlite3"), description="SQLite file of the store")
    database_url: str | None = Field(default=None, description="The store: postgresql://user:password@host/db "
                                     "(PostgreSQL, several processes) or an SQLite path; unset = DATABASE_PATH")
    shard_count: int = Field(default=1, ge=1, le=MAX_SHARDS, description="Discord shards of the whole bot (all processes)")
    shard_ids: str | None = Field(default=None, description="The shards this process runs: '0,1' or '0-3'; "
                                  "unset = all of SHARD_COUNT")
    sync_commands: bool | None = Field(default=None, description="Whether this process syncs the slash commands; "
                                       "unset = the process that runs shard 0")
    timer_lease_ms: int = Field(default=60_000, ge=1000, le=3_600_000, description="How long a claimed timer stays with the "
                                "process that claimed it before another may fire it (ms)")
    images_dir: Path = Field(default=Path("out"), description="Where the offline adapters write board images")
    log_level: str = Field(default="INFO", description="Python logging level: " + ", ".join(LOG_LEVELS))
    log_format: str = Field(default="text", description="Log lines as plain text or one JSON object each: "
                            + " or ".join(LOG_FORMATS))
    event_loop: str = Field(default="uvloop", description="The event loop of a bot process: uvloop (where it is "
                            "installed, else asyncio's) or asyncio")
    http_port: int | None = Field(default=None, ge=1, le=65_535, description="Port of the HTTP listener with "
                                  "/healthz, /readyz and /metrics; unset = no listener")
    http_host: str = Field(default="127.0.0.1", description="Address the HTTP listener binds to")
    reminder_hours: float = Field(default=12, ge=0, le=168, description="Default turn reminder after N hours; "
                                  "0 = off")
    afk_hours: float = Field(default=72, ge=0, le=720, description="Default AFK limit in hours; 0 = off")
    departure_grace_hours: float = Field(default=24, ge=0, le=720, description="A seated player who left the server is "
                                         "played by the AI stand-in after this many hours (if they have not come "
                                         "back)")
    lobby_hours: float = Field(default=24, ge=1, le=720, description="A lobby not started within this many hours "
                               "closes itself (the channel is free again)")
    members_intent: bool = Field(default=False, description="Ask for the privileged Server Members intent: "
                                 "departures are seen at once (without it, when the player's turn waits)")
    race_window_ms: int = Field(default=8000, ge=1000, le=60_000, description="Default race window of real-time "
                                "games, ms")
    race_grace_ms: int = Field(default=0, ge=0, le=10_000, description="Extra wait after a race deadline (on "
                               "Discord's clock) before closing it, for inputs still in flight, ms")
    ai_pause_ms: int = Field(default=DEFAULT_PAUSE_MS, ge=0, le=60_000, description="How long an AI seat waits "
                             "before it moves (a human-like pause), ms")
    ai_budget_ms: int = Field(default=DEFAULT_BUDGET_MS, ge=1, le=MAX_BUDGET_MS, description="The strong AI's "
                              "thinking time per move, ms (one core)")
    ai_iterations: int | None = Field(default=None, ge=1, le=MAX_AI_ITERATIONS, description="An iteration budget per AI move instead of "
                                      "ai_budget_ms (deterministic; tests)")
    records_days: int = Field(default=0, ge=0, le=36_500, description="Finished games older than this many days "
                              "are deleted (at start and daily); 0 = kept for ever")
    ai_processes: bool = Field(default=True, description="Search AI moves in a worker process (true) or a thread "
                               "(false); never on the event loop")
    heavy_processes: int = Field(default=1, ge=1, le=8, description="Worker processes that draw replays and "
                                 "result, stats and leaderboard cards (never the event loop or its threads)")
    replay_cache_mb: float = Field(default=256, ge=1, le=MAX_REPLAY_CACHE_MB, description="Disk kept for finished games' replay GIFs "
                                   "(under IMAGES_DIR/replays; least recently used removed first), MB")

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_parse(cls, value: str | None) -> str | None:
        if value is not None:
            parse_shard_ids(value)
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url_known(cls, value: str | None) -> str | None:
        if value is not None and "://" in value and not value.startswith(DATABASE_SCHEMES):
            raise ValueError("unknown scheme")
        return value

    @field_validator("log_level")
    @classmethod
    def _log_level_known(cls, value: str) -> str:
        level = str(value).strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError("unknown level")
        return level

    @field_validator("log_format", "event_loop")
    @classmethod
    def _choice_known(cls, value: str, info: ValidationInfo) -> str:
        """``LOG_FORMAT`` and ``EVENT_LOOP``: one of their choices, in any case."""
        choice = str(value).strip().lower()
        if choice not in {"log_format": LOG_FORMATS, "event_loop": EVENT_LOOPS}[info.field_name]:
            raise ValueError(f"unknown {info.field_name}")
        return choice

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        ids = self.shards()
        if ids is not None and ids[-1] >= self.shard_count:
            raise ValueError(f"SHARD_IDS={self.shard_ids!r} is not allowed: shard {ids[-1]} is not one of "
                             f"0-{self.shard_count - 1} (SHARD_COUNT={self.shard_count})")
        return self

    def database(self) -> str:
        """The store's target: ``DATABASE_URL`` when set, else the SQLite file ``DATABASE_PATH``."""
        return self.database_url or str(self.database_path)

    def shards(self) -> list[int] | None:
        """The shard ids this process runs (None: every shard of ``shard_count``)."""
        return parse_shard_ids(self.shard_ids) if self.shard_ids else None

    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: ``SYNC_COMMANDS`` when set, else the process that runs
        shard 0 (one process per deployment)."""
        if self.sync_commands is not None:
            return self.sync_commands
        ids = self.shards()
        return ids is None or 0 in ids


class SettingsError(ValueError):
    """Settings that cannot be used: :attr:`lines` holds one line per bad value, naming the setting, the value and
    what is allowed (``LOG_LEVEL='verbose' is not allowed: one of DEBUG, INFO, WARNING, ERROR, CRITICAL``)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


_KINDS = {int: "a whole number", float: "a number", bool: "true or false", Path: "a file path", str: "text"}


def allowed(name: str) -> str:
    """What setting ``name`` (a field of :class:`Settings`) accepts, in words: its kind and bounds, or its choices."""
    choices = {"log_level": f"one of {', '.join(LOG_LEVELS)} (any case)",
               "log_format": f"one of {', '.join(LOG_FORMATS)}",
               "event_loop": f"one of {', '.join(EVENT_LOOPS)}",
               "shard_ids": "shard numbers like 0,1 or a range like 0-3, each less than SHARD_COUNT",
               "database_url": "a postgresql:// or postgres:// URL, sqlite:///path or a file path"}
    if name in choices:
        return choices[name]
    field = Settings.model_fields[name]
    kind = next((text for t, text in _KINDS.items() if t in _types(field.annotation)), "text")
    lo = next((m.ge for m in field.metadata if getattr(m, "ge", None) is not None), None)
    hi = next((m.le for m in field.metadata if getattr(m, "le", None) is not None), None)
    if lo is not None and hi is not None:
        kind += f" from {lo} to {hi}"
    elif lo is not None:
        kind += f" of at least {lo}"
    if field.default is None:
        kind += ", or empty for unset"
    return kind


def _types(annotation) -> tuple:
    return getattr(annotation, "__args__", None) or (annotation,)


def describe(error: ValidationError) -> list[str]:
    """One line per bad value of ``error`` (see :class:`SettingsError`); the token's value is never shown."""
    lines = []
    for e in error.errors():
        name = str(e["loc"][0]) if e["loc"] else ""
        if name not in Settings.model_fields:  # a check across settings: its message names them
            lines.append(str(e.get("ctx", {}).get("error", e["msg"])))
            continue
        value = "[hidden]" if name == "discord_token" else repr(str(e["input"]))
        if name == "database_url":  # its credentials are never shown: the scheme says what is wrong
            value = repr(str(e["input"]).split("://", 1)[0] + "://…")
        reason = ""
        if name == "shard_ids" and e["type"] == "value_error":
            reason = f" ({e['ctx']['error']})"
        lines.append(f"{name.upper()}={value} is not allowed{reason}: {allowed(name)}.")
    return lines


def load_settings(**overrides) -> Settings:
    """Settings from env and ``.env``, with ``overrides`` on top. :class:`SettingsError` (one line per bad value)
    when a value cannot be used."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise SettingsError(describe(exc)) from None
