"""``run(settings) -> int``: the entry point of ``python -m bot run`` (wired by ``bot/__main__.py``).

Exit codes: 0 clean stop, 2 no token, 3 token rejected by Discord (``LoginFailure``), 4 privileged intent (message
content) not enabled in the developer portal, 5 the store cannot be used (cannot be opened, migrated or checked at
start — before Discord is contacted — or its file was deleted or replaced while running), 1 anything else. The token is read from ``DISCORD_TOKEN`` (env or
``.env`` through :class:`bot.config.Settings`) and never logged: a filter masks it in every log record.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.config import Settings, load_settings
from bot.sessions import SessionService
from bot.store import Store, StoreError

from .bot import PlayBot
from .present import Images

log = logging.getLogger("bot.discord")


class Redact(logging.Filter):
    """Masks ``secret`` wherever it would appear in a log line."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret and self.secret in record.getMessage():
            record.msg = record.getMessage().replace(self.secret, "[token]")
            record.args = ()
        return True


def run(settings: Settings | None = None) -> int:
    """Run the bot until stopped; returns the process exit code (see the module docstring)."""
    settings = settings or load_settings()
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not logging.getLogger().handlers:  # ``python -m bot run`` configures logging already
        discord.utils.setup_logging(level=getattr(logging, str(settings.log_level).upper(), logging.INFO), root=True)
    redact = Redact(token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    if not token:
        print("DISCORD_TOKEN is not set: put it in the environment or in .env (see .env.example).", file=sys.stderr)
        return 2

    lost: list[StoreError] = []

    async def main() -> None:
        store = await Store.open(settings.database_path)  # first: a bad store fails in seconds, not after login
        try:
            # boards render in worker processes at a lower priority: replies first on a busy machine
            async with PlayBot(settings, service=SessionService(store), sync=True,
                               images=Images(processes=True)) as bot:

                def stop(exc: StoreError) -> None:
                    lost.append(exc)
                    log.critical("%s", exc)
                    asyncio.get_running_loop().create_task(bot.close())

                store.on_failure = stop
                await bot.start(token)
        finally:
            await store.close()

    try:
        asyncio.run(main())
        if lost:
            raise lost[0]
    except StoreError as exc:
        print(f"The store cannot be used: {exc}.", file=sys.stderr)
        return 5
    except discord.LoginFailure:
        print("Discord rejected the token (LoginFailure): check DISCORD_TOKEN in the environment or .env.",
              file=sys.stderr)
        return 3
    except discord.PrivilegedIntentsRequired:
        print("Enable the Message Content intent for this bot in the Discord developer portal (Bot tab).",
              file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        return 0
    except Exception:
        log.exception("the bot stopped with an error")
        return 1
    return 0
