"""Points discord.py at the local stand-in of Discord (tests/discord/standin.py) when ``DISCORD_STANDIN`` is set:
the REST base ``$DISCORD_STANDIN/api/v10`` and the gateway ``ws://…/gateway``. Imported by Python at start-up when
this folder is on ``PYTHONPATH`` (the tests' bot subprocesses only)."""

import os

if os.environ.get("DISCORD_STANDIN"):
    import discord.gateway
    import discord.http
    import yarl

    _base = os.environ["DISCORD_STANDIN"].rstrip("/")
    discord.http.Route.BASE = f"{_base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_base.replace("http://", "ws://", 1) + "/gateway")
