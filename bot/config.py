"""Settings from the environment and ``.env`` (pydantic-settings). Every field is documented in ``.env.example``."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.ai_seats import DEFAULT_PAUSE_MS
from games.ai import DEFAULT_BUDGET_MS, MAX_BUDGET_MS


def parse_shard_ids(text: str) -> list[int]:
    """``"0,1"`` or ``"0-3"`` (or a mix, ``"0,2-3"``) -> sorted shard ids. ``ValueError`` with a readable message
    for anything else."""
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        if not lo.strip().isdigit() or (dash and not hi.strip().isdigit()):
            raise ValueError(f"SHARD_IDS: '{part}' is not a shard number or a range like 0-3")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first:
            raise ValueError(f"SHARD_IDS: the range '{part}' runs backwards")
        ids.update(range(first, last + 1))
    if not ids:
        raise ValueError("SHARD_IDS is empty: give shard numbers like 0,1 or a range like 0-3")
    return sorted(ids)


class Settings(BaseSettings):
    # env_ignore_empty: a copied .env.example (DEV_GUILD_ID= left empty) means "not set", not a parse error
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Discord developer portal")
    dev_guild_id: int | None = Field(default=None, description="Sync slash commands to this guild only (fast)")
    database_path: Path = Field(default=Path("data/bot.sqlite3"), description="SQLite file of the store")
    database_url: str | None = Field(default=None, description="The store: postgresql://user:password@host/db "
                                     "(PostgreSQL, several processes) or an SQLite path; unset = DATABASE_PATH")
    shard_count: int = Field(default=1, ge=1, description="Discord shards of the whole bot (all processes)")
    shard_ids: str | None = Field(default=None, description="The shards this process runs: '0,1' or '0-3'; "
                                  "unset = all of SHARD_COUNT")
    sync_commands: bool | None = Field(default=None, description="Whether this process syncs the slash commands; "
                                       "unset = the process that runs shard 0")
    timer_lease_ms: int = Field(default=60_000, ge=1000, description="How long a claimed timer stays with the "
                                "process that claimed it before another may fire it (ms)")
    images_dir: Path = Field(default=Path("out"), description="Where the offline adapters write board images")
    log_level: str = Field(default="INFO", description="Python logging level")
    reminder_hours: float = Field(default=12, description="Default turn reminder after N hours; 0 = off")
    afk_hours: float = Field(default=72, ge=0, description="Default AFK limit in hours; 0 = off")
    departure_grace_hours: float = Field(default=24, ge=0, description="A seated player who left the server is "
                                         "resigned after this many hours (if they have not come back)")
    members_intent: bool = Field(default=False, description="Ask for the privileged Server Members intent: "
                                 "departures are seen at once (without it, when the player's turn waits)")
    race_window_ms: int = Field(default=8000, description="Default race window of real-time games, ms")
    race_grace_ms: int = Field(default=0, ge=0, le=10_000, description="Extra wait after a race deadline (on "
                               "Discord's clock) before closing it, for inputs still in flight, ms")
    ai_pause_ms: int = Field(default=DEFAULT_PAUSE_MS, ge=0, le=60_000, description="How long an AI seat waits "
                             "before it moves (a human-like pause), ms")
    ai_budget_ms: int = Field(default=DEFAULT_BUDGET_MS, ge=1, le=MAX_BUDGET_MS, description="The strong AI's "
                              "thinking time per move, ms (one core)")
    ai_iterations: int | None = Field(default=None, ge=1, description="An iteration budget per AI move instead of "
                                      "ai_budget_ms (deterministic; tests)")
    records_days: int = Field(default=0, ge=0, le=36_500, description="Finished games older than this many days "
                              "are deleted (at start and daily); 0 = kept for ever")
    ai_processes: bool = Field(default=True, description="Search AI moves in a worker process (true) or a thread "
                               "(false); never on the event loop")
    heavy_processes: int = Field(default=1, ge=1, le=8, description="Worker processes that draw replays and "
                                 "result, stats and leaderboard cards (never the event loop or its threads)")
    replay_cache_mb: float = Field(default=256, ge=1, description="Disk kept for finished games' replay GIFs "
                                   "(under IMAGES_DIR/replays; least recently used removed first), MB")

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_parse(cls, value: str | None) -> str | None:
        if value is not None:
            parse_shard_ids(value)
        return value

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        ids = self.shards()
        if ids is not None and ids[-1] >= self.shard_count:
            raise ValueError(f"SHARD_IDS: shard {ids[-1]} is not one of 0-{self.shard_count - 1} "
                             f"(SHARD_COUNT={self.shard_count})")
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


def load_settings(**overrides) -> Settings:
    """Settings from env and ``.env``, with ``overrides`` on top."""
    return Settings(**overrides)
