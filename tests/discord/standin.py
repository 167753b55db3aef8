"""A local stand-in of Discord's REST API and gateway (aiohttp, 127.0.0.1) for tests that run the real
``python -m bot run`` / ``sync-commands`` as a subprocess.

It speaks just enough for the bot to start and stop: ``GET /users/@me``, ``GET /oauth2/applications/@me``,
``GET /gateway`` and ``/gateway/bot``, ``PUT`` of the global and guild command lists (echoed back with ids), and a
gateway websocket (HELLO, IDENTIFY -> READY with no guilds, heartbeats -> ACK). Every request and every gateway
event is recorded (:attr:`StandIn.requests`, :attr:`StandIn.identified`, :attr:`StandIn.close_codes`).

The bot is pointed at it by ``standin_site/sitecustomize.py`` (on ``PYTHONPATH``), which sets discord.py's API base
and gateway URL from ``DISCORD_STANDIN=http://127.0.0.1:PORT`` (:meth:`StandIn.env`).
"""

from __future__ import annotations

import asyncio
import json
import os
from http import HTTPStatus
from pathlib import Path

from aiohttp import WSMsgType, web

SITE = Path(__file__).resolve().parent / "standin_site"
ROOT = Path(__file__).resolve().parents[2]
BOT_ID = "900000000000000001"
APP_ID = "900000000000000002"
USER = {"id": BOT_ID, "username": "tabletop", "discriminator": "0", "global_name": None, "avatar": None, "bot": True}


def guild_payload(guild: str, channel_ids: list[str]) -> dict:
    """A server with the bot in it (every permission) and ``channel_ids`` as text channels, as GUILD_CREATE says."""
    joined = "2026-01-01T00:00:00+00:00"
    return {
        "id": guild, "name": "stand-in server", "icon": None, "owner_id": "100000000000000099", "unavailable": False,
        "roles": [{"id": guild, "name": "@everyone", "permissions": str((1 << 41) - 1), "position": 0, "color": 0,
                   "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
        "channels": [{"id": c, "type": 0, "name": f"table-{i}", "position": i, "permission_overwrites": [],
                      "guild_id": guild} for i, c in enumerate(channel_ids)],
        "members": [{"user": USER, "roles": [], "joined_at": joined, "deaf": False, "mute": False, "flags": 0}],
        "member_count": 2, "large": False, "features": [], "emojis": [], "stickers": [], "threads": [],
        "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
        "preferred_locale": "en-US", "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "system_channel_flags": 0,
        "afk_timeout": 300, "joined_at": joined}


def _json(data, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py parses only ``application/json``, no charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class StandIn:
    """The server. ``login_failures``: how many ``GET /users/@me`` answer ``login_status`` (a 5xx; 502 Bad Gateway
    unless told, 401 for a rejected token) first; ``hold_ready``: IDENTIFY is answered with READY only once
    :meth:`release_ready` is called; ``guilds`` (guild id -> its text channels' ids): servers the bot is in, sent
    after READY (GUILD_CREATE: the bot with every permission, the channels open to all)."""

    def __init__(self, login_failures: int = 0, hold_ready: bool = False, login_status: int = 502,
                 guilds: dict[str, list[str]] | None = None) -> None:
        self.guilds = guilds or {}
        self.login_failures = login_failures
        self.login_status = login_status
        self.requests: list[tuple[str, str]] = []
        self.bodies: dict[str, list] = {}
        self.identified: list[dict] = []
        self.close_codes: list[int | None] = []
        self.ready_gate = asyncio.Event()
        if not hold_ready:
            self.ready_gate.set()
        self.port = 0
        self._runner: web.AppRunner | None = None

    def release_ready(self) -> None:
        self.ready_gate.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a bot process pointed at this stand-in."""
        path = os.pathsep.join([str(SITE), str(ROOT), os.environ.get("PYTHONPATH", "")])
        return {**os.environ, "PYTHONPATH": path, "DISCORD_STANDIN": self.url, "DISCORD_TOKEN": "standin.token.x",
                **extra}

    async def start(self) -> StandIn:
        app = web.Application()
        app.add_routes([
            web.get("/api/v10/users/@me", self._me),
            web.get("/api/v10/oauth2/applications/@me", self._app),
            web.get("/api/v10/gateway", self._gateway_url),
            web.get("/api/v10/gateway/bot", self._gateway_url),
            web.put("/api/v10/applications/{app}/commands", self._commands),
            web.put("/api/v10/applications/{app}/guilds/{guild}/commands", self._commands),
            web.get("/gateway", self._ws),
            web.route("*", "/{tail:.*}", self._other),
        ])
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def count(self, method: str, path: str) -> int:
        return sum(1 for m, p in self.requests if m == method and p == path)

    # -- REST -------------------------------------------------------------------------------------------------
    async def _me(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", request.path))
        if self.login_failures > 0:
            self.login_failures -= 1
            if self.login_status == 401:
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            return web.Response(status=self.login_status, text=HTTPStatus(self.login_status).phrase)
        return _json(USER)

    async def _app(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", request.path))
        return _json({"id": APP_ID, "name": "tabletop", "description": "", "icon": None,
                                  "bot_public": True, "bot_require_code_grant": False, "owner": USER,
                                  "verify_key": "0" * 64, "flags": 0, "team": None})

    async def _gateway_url(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", request.path))
        return _json({"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1,
                                  "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                                          "max_concurrency": 1}})

    async def _commands(self, request: web.Request) -> web.Response:
        self.requests.append(("PUT", request.path))
        payload = await request.json()
        self.bodies.setdefault(request.path, []).append(payload)
        guild = request.match_info.get("guild")
        out = [{**c, "id": str(910000000000000000 + i), "application_id": APP_ID, "version": "1",
                **({"guild_id": guild} if guild else {})} for i, c in enumerate(payload)]
        return _json(out)

    async def _other(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        return _json({"message": "Unknown", "code": 0}, status=404)

    # -- gateway ----------------------------------------------------------------------------------------------
    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        seq = 0
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        close_code = None
        while True:
            msg = await ws.receive()
            if msg.type == WSMsgType.CLOSE:
                close_code = msg.data  # the code the bot closed with
                await ws.close()
                break
            if msg.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                break
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif data["op"] == 2:
                self.identified.append(data["d"])
                await self.ready_gate.wait()
                seq += 1
                shard = data["d"].get("shard", [0, 1])
                await ws.send_str(json.dumps({"op": 0, "s": seq, "t": "READY", "d": {
                    "v": 10, "user": USER, "guilds": [{"id": g, "unavailable": True} for g in self.guilds],
                    "session_id": "standin-session", "shard": shard,
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "application": {"id": APP_ID, "flags": 0}}}))
                for guild, channel_ids in self.guilds.items():
                    seq += 1
                    await ws.send_str(json.dumps({"op": 0, "s": seq, "t": "GUILD_CREATE",
                                                  "d": guild_payload(guild, channel_ids)}))
        self.close_codes.append(close_code)
        return ws
