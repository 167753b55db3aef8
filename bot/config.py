"""Settings from the environment and ``.env`` (pydantic-settings). Every field is documented in ``.env.example``."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.ai_seats import DEFAULT_PAUSE_MS
from games.ai import DEFAULT_BUDGET_MS, MAX_BUDGET_MS


class Settings(BaseSettings):
    # env_ignore_empty: a copied .env.example (DEV_GUILD_ID= left empty) means "not set", not a parse error
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Discord developer portal")
    dev_guild_id: int | None = Field(default=None, description="Sync slash commands to this guild only (fast)")
    database_path: Path = Field(default=Path("data/bot.sqlite3"), description="SQLite file of the store")
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
    ai_processes: bool = Field(default=True, description="Search AI moves in a worker process (true) or a thread "
                               "(false); never on the event loop")


def load_settings(**overrides) -> Settings:
    """Settings from env and ``.env``, with ``overrides`` on top."""
    return Settings(**overrides)
