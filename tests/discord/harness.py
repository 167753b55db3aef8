"""Drive the real discord.py stack offline: real gateway payloads in, recorded REST and interaction responses out.

Usage (inside an async test)::

    async with Harness(tmp_path / "bot.sqlite3") as h:     # or a postgresql:// URL (the ``database`` fixture)
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        card = (await h.slash(alice, "play", game="tatari")).message()      # the lobby card
        await h.click(bob, card, "Join")
        board = (await h.click(alice, card, "Start")).message()
        await h.click(alice, board, board.buttons()[0])              # a button by label (or custom_id, index)
        await h.choose(bob, "continue")                              # an option id, through whatever offers it

How: the bot is opened with ``async with bot`` (no login), ``ClientUser`` and ``application_id`` are filled as READY
would, payloads go to ``ConnectionState.parse_interaction_create`` / ``parse_message_create`` /
``parse_message_reaction_add``; ``bot.http.request`` is replaced by :class:`FakeDiscord.rest` and the webhook adapter
(interaction responses, follow-ups) by :class:`RecordingAdapter`, both answering like Discord with message payloads
that later presses refer to. After each input the harness awaits every task the input started
(``CommandTree-invoker``, ``discord-ui-*``, listeners, the bot's background tasks).

Every outgoing message is a :class:`Sent`; each input returns a :class:`Reply` (the ``Sent`` it caused).

Rate limits (``Harness(..., rate_limited=RateLimits())``): ``bot.http.request`` stays discord.py's own and only its
aiohttp session is replaced (:class:`LimitedSession`), so discord.py's buckets, its pre-emptive waits and its sleeps
on 429 run as they do against Discord; :class:`RateLimits` answers 429 with ``retry_after`` and the ``X-RateLimit-*``
headers beyond 5 sends and 5 edits per 5 s per channel and 50 requests per second in all. Its clock is the event
loop's: run such a test on a :class:`ManualClock` (virtual time, moved by :meth:`Harness.advance` together with
``now_ms``) to play minutes of rate-limited traffic in a moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as dt
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import tenacity
from discord.guild import Guild
from discord.webhook import async_ as webhook_async
from multidict import CIMultiDict

from bot.config import Settings
from bot.discord.bot import PlayBot, make_bot
from bot.store import Store

DISCORD_EPOCH_MS = 1_420_070_400_000
APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 800_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_001
ALL_PERMS = (1 << 41) - 1
MEMBER_PERMS = 0x400 | 0x800 | 0x40 | 0x8000_0000  # view, send, add reactions, use application commands
EPHEMERAL = 64
IGNORED_TASKS = ("pbc-timers", "pbc-bookkeeper", "timeout")


def iso(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMS
    locale: str = "en-US"  # the member's Discord client language (interaction ``locale``)

    def payload(self) -> dict:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot}

    def member(self, now_ms: int) -> dict:
        return {"user": self.payload(), "roles": [], "joined_at": iso(now_ms), "deaf": False, "mute": False,
                "permissions": str(self.permissions), "flags": 0, "nick": None}

    @property
    def sid(self) -> str:
        return str(self.id)


@dataclass
class Sent:
    """One outgoing call: ``kind`` is ``message`` (REST send), ``edit`` (REST edit), ``response`` (interaction
    callback), ``followup``, ``edit_original``, ``thread`` or ``other``; ``body`` the JSON sent; ``message`` the
    message payload Discord would hold afterwards (what later presses refer to)."""

    kind: str
    method: str
    path: str
    body: dict
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message: dict | None = None
    interaction_id: int | None = None

    @property
    def data(self) -> dict:
        """The message part of the body (interaction callbacks nest it under ``data``)."""
        return self.body.get("data") or {} if self.kind == "response" else self.body

    @property
    def type(self) -> int | None:
        return self.body.get("type") if self.kind == "response" else None

    @property
    def content(self) -> str:
        return (self.data or {}).get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(((self.data or {}).get("flags") or 0) & EPHEMERAL)

    @property
    def components(self) -> list[dict]:
        """Every interactive component (buttons, selects) of the message, flattened."""
        out = []
        for row in (self.data or {}).get("components") or []:
            out.extend(row.get("components", []))
        return out

    def buttons(self) -> list[str]:
        return [c["label"] for c in self.components if c["type"] == 2]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.components if "custom_id" in c]

    @property
    def channel_id(self) -> int | None:
        return int(self.message["channel_id"]) if self.message else None


class Reply(list):
    """The :class:`Sent` items one input caused."""

    def message(self, public: bool | None = None, with_components: bool | None = None,
                result: bool = False) -> Sent:
        """The last item that created or replaced a message (optionally: public / with components). The result
        message that follows a game's final board (summary card, Replay button) counts only with
        ``result=True``: an input's message is its board."""
        for s in reversed(self):
            if s.message is None or s.kind in ("thread", "edit", "edit_original"):
                continue
            if not result and any(c.startswith("pbc:p:") for c in s.custom_ids()):
                continue
            if public is not None and s.ephemeral == public:
                continue
            if with_components is not None and bool(s.components) != with_components:
                continue
            return s
        raise AssertionError(f"no such message in {[(s.kind, s.content[:40]) for s in self]}")

    @property
    def text(self) -> str:
        return "\n".join(s.content for s in self)

    def ephemeral(self) -> list[Sent]:
        return [s for s in self if s.ephemeral]

    def public(self) -> list[Sent]:
        return [s for s in self if s.message is not None and not s.ephemeral and s.kind != "thread"]


def _parse_body(json_body: Any, form: Any) -> tuple[dict, list[tuple[str, bytes]]]:
    body: dict = dict(json_body or {})
    files: list[tuple[str, bytes]] = []
    for part in form or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
        else:
            value = part.get("value")
            data = value.read() if hasattr(value, "read") else value
            if hasattr(value, "seek"):
                value.seek(0)
            files.append((part.get("filename") or "file", data or b""))
    return body, files


class FakeDiscord:
    """Discord's side: message ids, stored messages, and the recorded calls."""

    def __init__(self, harness: Harness) -> None:
        self.h = harness
        self.sent: list[Sent] = []
        self.messages: dict[int, dict] = {}
        self.interactions: dict[str, dict] = {}  # token -> interaction payload
        self.fail_next: list[Exception] = []
        # refuse(kind, method, path, body, files) -> an exception to raise for that call, or None: a server that
        # refuses some calls (no Attach Files, no Send Messages); kind is "rest" or "webhook"
        self.refuse = None
        self.deleted: set[int] = set()  # message ids deleted in the channel: editing them is 404 Unknown Message
        self.keep = True  # False: do not keep the Sent list (benchmarks); ``on_record`` still sees each one
        self.on_record = None

    def _message(self, channel_id: int, body: dict, files, mid: int | None = None, flags: int = 0) -> dict:
        mid = mid or self.h.snowflake()
        msg = {
            "id": str(mid), "channel_id": str(channel_id), "guild_id": str(self.h.guild_id),
            "author": {"id": str(BOT_ID), "username": "bot", "discriminator": "0", "avatar": None, "bot": True},
            "content": body.get("content") or "", "timestamp": iso(self.h.now_ms), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [
                {"id": str(self.h.snowflake()), "filename": name, "size": len(data), "url": f"https://x/{name}",
                 "proxy_url": f"https://x/{name}"} for name, data in files
            ],
            "embeds": [], "pinned": False, "type": 0, "components": body.get("components") or [],
            "flags": body.get("flags") or flags,
        }
        self.messages[mid] = msg
        return msg

    def _edit(self, mid: int, body: dict) -> dict | None:
        msg = self.messages.get(mid)
        if msg is None:
            return None
        if "content" in body:
            msg["content"] = body["content"] or ""
        if "components" in body:
            msg["components"] = body["components"] or []
        if "attachments" in body:
            msg["attachments"] = [
                {"id": str(self.h.snowflake()), "filename": a.get("filename", "file"), "size": 0,
                 "url": "https://x/", "proxy_url": "https://x/"} for a in body["attachments"]
            ]
        return msg

    def record(self, sent: Sent) -> Sent:
        if sent.message is not None:
            sent.message = json.loads(json.dumps(sent.message))  # what the client saw then
        if self.on_record is not None:
            self.on_record(sent)
        if self.keep:
            self.sent.append(sent)
        return sent

    # -- REST (bot.http.request) ------------------------------------------------------------------------------------
    def _refused(self, kind: str, method: str, path: str, params: dict, body: dict, fs: list) -> None:
        if self.refuse is not None:
            exc = self.refuse(kind, method, path, body, fs)
            if exc is not None:
                raise exc
        if method == "PATCH" and int(params.get("message_id") or 0) in self.deleted:
            raise http_error(404, 10008, "Unknown Message")

    async def rest(self, route, *, files=None, form=None, **kwargs) -> Any:
        if self.fail_next:
            raise self.fail_next.pop(0)
        body, fs = _parse_body(kwargs.get("json"), form)
        method, path, params = route.method, route.path, _route_params(route)
        self._refused("rest", method, path, params, body, fs)
        if method == "POST" and path == "/channels/{channel_id}/messages":
            msg = self._message(int(params["channel_id"]), body, fs)
            self.record(Sent("message", method, route.url, body, fs, msg))
            return msg
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            msg = self._edit(int(params["message_id"]), body)
            self.record(Sent("edit", method, route.url, body, fs, msg))
            return msg or self._message(int(params["channel_id"]), body, fs, int(params["message_id"]))
        if method == "POST" and path == "/channels/{channel_id}/threads":
            tid = self.h.snowflake()
            thread = {"id": str(tid), "type": 11, "guild_id": str(self.h.guild_id), "parent_id": params["channel_id"],
                      "name": body.get("name", "thread"), "owner_id": str(BOT_ID), "member_count": 1,
                      "message_count": 0, "rate_limit_per_user": 0,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                          "archive_timestamp": iso(self.h.now_ms), "locked": False}}
            self.record(Sent("thread", method, route.url, body, message=thread))
            return thread
        if method == "GET" and path == "/guilds/{guild_id}/members/{member_id}":  # a look-up: a member, not recorded
            return {"user": {"id": params["member_id"], "username": "member", "discriminator": "0", "avatar": None},
                    "roles": [], "joined_at": iso(self.h.now_ms), "deaf": False, "mute": False}
        self.record(Sent("other", method, route.url, body, fs))
        return {}

    # -- webhooks (interaction responses) ---------------------------------------------------------------------------
    async def webhook(self, route, session=None, *, payload=None, multipart=None, files=None, **kwargs) -> Any:
        if self.fail_next:
            raise self.fail_next.pop(0)
        body, fs = _parse_body(payload, multipart)
        method, path, params = route.method, route.path, _route_params(route)
        self._refused("webhook", method, path, params, body, fs)
        token = params.get("webhook_token", "")
        inter = self.interactions.get(token, {})
        channel_id = int(inter.get("channel_id", self.h.channel_id))
        iid = int(inter["id"]) if inter else None
        if path.endswith("/callback"):
            kind, rtype = "response", body.get("type")
            data = body.get("data") or {}
            msg = None
            if rtype == 4:
                msg = self._message(channel_id, data, fs)
            elif rtype == 7 and inter.get("message"):
                msg = self._edit(int(inter["message"]["id"]), data)
            elif rtype == 5:  # "thinking…": the first follow-up replaces this message (Discord's rule)
                msg = self._message(channel_id, {"content": "", "flags": data.get("flags") or 0}, fs)
                inter["_original"] = inter["_loading"] = msg["id"]
            elif rtype == 6 and inter.get("message"):  # a deferred update: @original is the component's message
                inter["_original"] = inter["message"]["id"]
            if msg is not None and rtype in (4, 7):  # a component's update: @original is the message it is on
                inter["_original"] = msg["id"]
            self.record(Sent(kind, method, route.url, body, fs, msg, iid))
            result = {"interaction": {"id": str(iid or 0), "type": inter.get("type", 2),
                                      "response_message_id": msg["id"] if msg else None,
                                      "response_message_loading": rtype == 5,
                                      "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL)}}
            if msg is not None and rtype in (4, 7):
                result["resource"] = {"type": rtype, "message": msg}
            return result
        if method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            loading = inter.pop("_loading", None)
            msg = self._message(channel_id, body, fs, int(loading) if loading else None)
            self.record(Sent("followup", method, route.url, body, fs, msg, iid))
            return msg
        if method == "PATCH" and path.endswith("/messages/@original"):
            msg = self._edit(int(inter.get("_original", 0) or 0), body) if inter.get("_original") else None
            self.record(Sent("edit_original", method, route.url, body, fs, msg, iid))
            return msg or self._message(channel_id, body, fs)
        if method == "DELETE" and path.endswith("/messages/@original"):
            original = inter.pop("_original", None)
            if inter.get("_loading") == original:
                inter.pop("_loading", None)
            if original:
                self.messages.pop(int(original), None)
            self.record(Sent("delete_original", method, route.url, body, fs, None, iid))
            return {}
        if method == "PATCH" and "/messages/" in path:
            msg = self._edit(int(params.get("message_id", 0)), body)
            self.record(Sent("edit", method, route.url, body, fs, msg, iid))
            return msg or self._message(channel_id, body, fs)
        self.record(Sent("other", method, route.url, body, fs, None, iid))
        return {}


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer ``status`` with JSON error ``code`` (403 -> Forbidden,
    404 -> NotFound, 5xx -> DiscordServerError)."""
    from types import SimpleNamespace

    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.DiscordServerError if status >= 500
                                                              else discord.HTTPException)
    return cls(SimpleNamespace(status=status, reason=message), {"code": code, "message": message})


def _route_params(route) -> dict[str, str]:
    """Recover the path parameters of a discord.py ``Route`` from its template and URL."""
    names = [p.split("}")[0] for p in route.path.split("{")[1:]]
    parts_t = route.path.strip("/").split("/")
    parts_u = route.url.split("/api/v10/", 1)[-1].strip("/").split("/")
    out = {}
    for t, u in zip(parts_t, parts_u, strict=False):
        if t.startswith("{"):
            out[t.strip("{}")] = u
    return {n: out.get(n, "") for n in names}


class RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    """The webhook adapter with its network call replaced by :meth:`FakeDiscord.webhook`."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route, session=None, **kwargs) -> Any:  # type: ignore[override]
        return await self.fake.webhook(route, session, **kwargs)


class ManualClock(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only when told (:meth:`advance`, seconds): ``asyncio.sleep``, discord.py's
    rate-limit waits and tenacity's backoffs wait in virtual time, while I/O and threads (SQLite) still wake it at
    once. ``Harness.advance`` moves it together with ``now_ms``. Run a test on it with :meth:`run`."""

    def __init__(self) -> None:
        self._virtual = 0.0
        super().__init__()

    def time(self) -> float:
        return self._virtual

    def advance(self, seconds: float) -> None:
        self._virtual += seconds

    @classmethod
    def run(cls, coro) -> Any:
        """Run ``coro`` to its end on a new ManualClock (closed afterwards)."""
        loop = cls()
        try:
            asyncio.set_event_loop(loop)
            return loop.run_until_complete(coro)
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
            asyncio.set_event_loop(None)
            loop.close()

    @staticmethod
    async def real_sleep(seconds: float) -> None:
        """Wait ``seconds`` of real time (a thread sleeps; no virtual timer is involved)."""
        await asyncio.get_running_loop().run_in_executor(None, time.sleep, seconds)


@dataclass
class RateLimits:
    """Discord's REST rate limits (https://discord.com/developers/docs/topics/rate-limits): per channel ``sends``
    messages (POST …/messages) and ``edits`` edits or deletions (PATCH/DELETE …/messages/{id}) per ``window_s``, each
    bucket a fixed window opened by its first request; ``per_second`` requests per second in all (the global limit;
    interaction callbacks and follow-ups are not counted, as on Discord). Beyond a limit the answer is 429 with
    ``retry_after`` (s) in the body and ``X-RateLimit-*`` headers; successes carry the headers too, so discord.py's
    buckets learn the limits and wait before asking. The clock is the running event loop's (s).

    ``limited``: every 429 answered, as (bucket, retry_after s); ``calls``: requests answered (any status)."""

    sends: int = 5
    edits: int = 5
    window_s: float = 5.0
    per_second: int = 50
    limited: list[tuple[str, float]] = field(default_factory=list)
    calls: int = 0
    _windows: dict[str, list[float]] = field(default_factory=dict)  # bucket -> [count, reset_at]

    def bucket(self, method: str, path: str, params: dict) -> tuple[str, int, float]:
        """The bucket of a request (name, limit, window s)."""
        channel = params.get("channel_id", "")
        if path == "/channels/{channel_id}/messages" and method == "POST":
            return f"send:{channel}", self.sends, self.window_s
        if path == "/channels/{channel_id}/messages/{message_id}" and method in ("PATCH", "DELETE"):
            return f"edit:{channel}", self.edits, self.window_s
        return f"{method} {path}:{channel or params.get('guild_id', '')}", self.per_second, 1.0

    def _window(self, name: str, limit: int, window_s: float, now: float) -> list[float]:
        w = self._windows.get(name)
        if w is None or now >= w[1]:
            w = self._windows[name] = [0, now + window_s]
        return w

    def take(self, method: str, path: str, params: dict) -> tuple[int, dict, dict | None]:
        """Count one request now: (status 200 or 429, headers, the 429 body or None)."""
        now = asyncio.get_running_loop().time()
        self.calls += 1
        name, limit, window_s = self.bucket(method, path, params)
        glob = self._window("global", self.per_second, 1.0, now)
        w = self._window(name, limit, window_s, now)
        headers = {"Content-Type": "application/json", "Via": "1.1 google", "X-RateLimit-Bucket": name.split(":")[0]}
        if glob[0] >= self.per_second:
            retry = _ceil_ms(glob[1] - now)
            self.limited.append(("global", retry))
            headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global", "Retry-After": str(retry)})
            return 429, headers, {"message": "You are being rate limited.", "retry_after": retry, "global": True}
        reset_after = _ceil_ms(w[1] - now)
        headers.update({"X-RateLimit-Limit": str(limit), "X-RateLimit-Reset-After": str(reset_after),
                        "X-RateLimit-Reset": str(time.time() + reset_after)})
        if w[0] >= limit:
            self.limited.append((name, reset_after))
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user", "Retry-After": str(reset_after)})
            return 429, headers, {"message": "You are being rate limited.", "retry_after": reset_after,
                                  "global": False}
        glob[0] += 1
        w[0] += 1
        headers["X-RateLimit-Remaining"] = str(int(limit - w[0]))
        return 200, headers, None


def _ceil_ms(seconds: float) -> float:
    """Seconds rounded up to the ms (at least 1 ms): a client that waits that long finds the window reset."""
    return max(1, math.ceil(round(seconds * 1000, 6))) / 1000


_CALL: contextvars.ContextVar[tuple] = contextvars.ContextVar("harness_rest_call")


class _Response:
    """What discord.py's ``HTTPClient.request`` reads of an aiohttp response."""

    def __init__(self, status: int, headers: dict, data: Any, reason: str = "") -> None:
        self.status = status
        self.headers = CIMultiDict(headers)
        self.reason = reason or {200: "OK", 429: "Too Many Requests"}.get(status, "Error")
        self._text = json.dumps(data)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class LimitedSession:
    """The aiohttp session of discord.py's HTTPClient in rate-limited mode: :class:`RateLimits` decides each
    request's fate; an accepted one is answered by :meth:`FakeDiscord.rest` (a Discord error it raises becomes that
    HTTP status, so discord.py's own 5xx retries run too)."""

    closed = False

    def __init__(self, fake: FakeDiscord, limits: RateLimits) -> None:
        self.fake, self.limits = fake, limits

    def request(self, method: str, url: str, **kwargs) -> Any:
        return self._answer()

    @contextlib.asynccontextmanager
    async def _answer(self):
        route, files, form, kwargs = _CALL.get()
        status, headers, body = self.limits.take(route.method, route.path, _route_params(route))
        if status == 429:
            yield _Response(429, headers, body)
            return
        try:
            data = await self.fake.rest(route, files=files, form=form, **kwargs)
        except discord.HTTPException as exc:
            yield _Response(exc.status, headers, {"code": exc.code, "message": exc.text}, exc.text)
            return
        yield _Response(200, headers, data)

    async def close(self) -> None:
        self.closed = True


def rate_limited(http: discord.http.HTTPClient, fake: FakeDiscord, limits: RateLimits) -> None:
    """Put ``http`` (the bot's discord.py HTTPClient) in front of ``fake`` through :class:`LimitedSession`."""
    real = type(http).request

    async def request(route, *, files=None, form=None, **kwargs):
        token = _CALL.set((route, files, form, dict(kwargs)))
        try:
            return await real(http, route, files=files, form=form, **kwargs)
        finally:
            _CALL.reset(token)

    http._HTTPClient__session = LimitedSession(fake, limits)  # type: ignore[attr-defined]
    http._global_over = asyncio.Event()
    http._global_over.set()
    http.request = request  # type: ignore[method-assign]


class Harness:
    """One bot over one database file, fed payloads. Open with ``async with``; :meth:`restart` closes the bot and
    opens a new one on the same database (the same recorded Discord)."""

    def __init__(self, db_path: str | Path, *, settings: Settings | None = None, start_ms: int = 1_800_000_000_000,
                 render=None, fake: FakeDiscord | None = None, image_wait_s: float = 600.0,
                 images=None, rate_limited: RateLimits | None = None) -> None:
        self.db_path = str(db_path)
        self.settings = settings or Settings(discord_token=None, reminder_hours=12, afk_hours=0)
        self.now_ms = start_ms
        self.guild_id = GUILD_ID
        self.guild_locale = "en-US"  # the server's preferred locale (interaction ``guild_locale``)
        self.channel_id = CHANNEL_ID
        self.app_permissions = ALL_PERMS  # the bot's permissions in the channel, as interactions carry them
        self.render = render
        self.images = images  # a factory of bot.discord.images.Images (benchmarks), else Images(render)
        self.image_wait_s = image_wait_s  # tests wait for every image (deterministic, even when a first render
        # pays its renderer's warm-up on a loaded machine: 30 s seen); the bench uses the default
        self._seq = itertools.count(1)
        self.fake = fake or FakeDiscord(self)
        self.fake.h = self
        self.limits = rate_limited  # None: REST answers at once, no rate limits (the default)
        self.bot: PlayBot | None = None
        self.store: Store | None = None
        self._token = None

    # -- lifecycle -------------------------------------------------------------------------------------------------
    async def __aenter__(self) -> Harness:
        await self.open()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def open(self) -> None:
        from bot.discord.images import Images

        self.store = await Store.open(self.db_path)
        seeds = itertools.count(4242)
        images = self.images() if self.images is not None else Images(self.render) if self.render is not None else None
        # SHARD_COUNT > 1: an AutoShardedBot whose store serves SHARD_IDS only, as ``python -m bot run``
        bot = make_bot(self.settings, self.store, clock=lambda: self.now_ms, seeds=lambda: next(seeds), images=images, image_wait_s=self.image_wait_s)
        await bot.__aenter__()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={"id": str(BOT_ID), "username": "bot", "discriminator": "0",
                                                           "avatar": None, "bot": True})
        state.application_id = APP_ID
        state._add_guild(Guild._create_unavailable(state=state, guild_id=self.guild_id, data={}))
        if self.limits is None:
            bot.http.request = self.fake.rest  # type: ignore[method-assign]
        else:
            rate_limited(bot.http, self.fake, self.limits)
        self._token = webhook_async.async_context.set(RecordingAdapter(self.fake))
        await bot.prepare()
        bot.delivery.wait = tenacity.wait_none()  # failed posts are retried at once here (no timed tests)
        self.bot = bot
        await self.settle()

    async def close(self) -> None:
        if self.bot is not None:
            await self.settle()
            await self.bot.close()
            self.bot = None
        if self.store is not None:
            await self.store.close()
            self.store = None
        if self._token is not None:
            webhook_async.async_context.reset(self._token)
            self._token = None

    async def restart(self) -> None:
        """A new bot object on the same database (what a process restart does)."""
        await self.close()
        await self.open()

    # -- ids and time ----------------------------------------------------------------------------------------------
    def snowflake(self) -> int:
        """A snowflake at the current fake time (Discord's clock, TK-10)."""
        return ((self.now_ms - DISCORD_EPOCH_MS) << 22) | (next(self._seq) & 0x3FFFFF)

    def advance(self, ms: int) -> None:
        """Move the fake time ``ms`` on (and the event loop's clock, on a :class:`ManualClock`)."""
        self.now_ms += ms
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if isinstance(loop, ManualClock):
            loop.advance(ms / 1000)

    def user(self, uid: int, name: str, *, bot: bool = False, moderator: bool = False) -> User:
        return User(uid, name, bot, ALL_PERMS if moderator else MEMBER_PERMS)

    # -- feeding ---------------------------------------------------------------------------------------------------
    async def settle(self, timeout: float = 10.0) -> None:
        """Await every task an input started (command invokers, UI dispatch, listeners, background tasks). On a
        :class:`ManualClock` the clock moves on 250 ms whenever they wait on it (a rate limit, a backoff)."""
        me = asyncio.current_task()
        manual = isinstance(asyncio.get_running_loop(), ManualClock)
        for _ in range(200 if not manual else 20_000):
            if self.bot is not None:
                await self.bot.bookkeeper.drain()
                await self.bot.timers.rest()  # the dispatcher has seen the latest wake (no race with a test's tick)
            pending = [
                t for t in asyncio.all_tasks()
                if t is not me and not t.done() and not any(x in t.get_name() for x in IGNORED_TASKS)
                and self._ours(t)
            ]
            if not pending:
                return
            if manual:
                tick = asyncio.ensure_future(ManualClock.real_sleep(0.02))
                done, _ = await asyncio.wait({*pending, tick}, return_when=asyncio.FIRST_COMPLETED)
                if done == {tick}:
                    self.advance(250)
                continue
            await asyncio.wait(pending, timeout=timeout)

    @staticmethod
    def _ours(task: asyncio.Task) -> bool:
        name = task.get_name()
        return name.startswith(("CommandTree", "discord-ui", "discord.py", "pbc-bg"))

    async def _feed(self, fn, payload) -> Reply:
        start = len(self.fake.sent)
        fn(payload)
        await self.settle()
        return Reply(self.fake.sent[start:])

    def _interaction(self, user: User, itype: int, data: dict, channel_id: int | None = None,
                     message: dict | None = None, channel_type: int = 0) -> dict:
        channel_id = channel_id or self.channel_id
        iid = self.snowflake()
        token = f"token-{iid}"
        payload = {
            "id": str(iid), "application_id": str(APP_ID), "type": itype, "data": data, "token": token,
            "version": 1, "guild_id": str(self.guild_id), "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": channel_type, "guild_id": str(self.guild_id), "name": "games",
                        "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "member": user.member(self.now_ms), "locale": user.locale, "guild_locale": self.guild_locale,
            "app_permissions": str(self.app_permissions), "entitlements": [], "context": 0,
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "attachment_size_limit": 26_214_400,
        }
        if channel_type in (10, 11, 12):  # a thread of the default channel
            payload["channel"].update(
                parent_id=str(self.channel_id), owner_id=str(BOT_ID), member_count=1, message_count=0,
                rate_limit_per_user=0, thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                                        "archive_timestamp": iso(self.now_ms), "locked": False})
        if message is not None:
            payload["message"] = message
        self.fake.interactions[token] = payload
        return payload

    @staticmethod
    def _options(values: dict[str, Any], focused: str | None = None) -> list[dict]:
        out = []
        for name, value in values.items():
            if value is None:
                continue
            if isinstance(value, User):  # a USER option: its id, with the user in ``resolved``
                out.append({"name": name, "type": 6, "value": value.sid})
                continue
            kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(value, float) \
                else 3
            opt = {"name": name, "type": kind, "value": value}
            if name == focused:
                opt["focused"] = True
            out.append(opt)
        return out

    async def slash(self, user: User, name: str, channel_id: int | None = None, channel_type: int = 0,
                    **options: Any) -> Reply:
        """An APPLICATION_COMMAND interaction ``/name option=value …``."""
        return await self._feed(self.bot._connection.parse_interaction_create,
                                self._slash(user, name, channel_id, channel_type, options))

    def _slash(self, user: User, name: str, channel_id: int | None, channel_type: int, options: dict) -> dict:
        data = {"id": str(10_000 + hash(name) % 10_000), "name": name, "type": 1,
                "options": self._options(options)}
        users = [v for v in options.values() if isinstance(v, User)]
        if users:
            data["resolved"] = {"users": {u.sid: u.payload() for u in users},
                                "members": {u.sid: {k: v for k, v in u.member(self.now_ms).items() if k != "user"}
                                            for u in users}}
        return self._interaction(user, 2, data, channel_id, channel_type=channel_type)

    def fire_slash(self, user: User, name: str, channel_id: int | None = None, **options: Any) -> int:
        """:meth:`slash` without waiting: the payload is fed and its interaction id returned at once (runs whose
        background work waits in virtual time, :class:`ManualClock`)."""
        payload = self._slash(user, name, channel_id, 0, options)
        self.bot._connection.parse_interaction_create(payload)
        return int(payload["id"])

    def fire_click(self, user: User, sent: Sent | dict, which: str | int) -> int:
        """:meth:`click` without waiting (see :meth:`fire_slash`); returns the interaction id."""
        message, comp = self._component(sent, which)
        payload = self._interaction(user, 3, {"custom_id": comp["custom_id"], "component_type": 2},
                                    int(message["channel_id"]), message)
        self.bot._connection.parse_interaction_create(payload)
        return int(payload["id"])

    async def autocomplete(self, user: User, name: str, focused: str, channel_id: int | None = None,
                           **options: Any) -> list[dict]:
        """An APPLICATION_COMMAND_AUTOCOMPLETE interaction; returns the offered choices."""
        data = {"id": str(10_000 + hash(name) % 10_000), "name": name, "type": 1,
                "options": self._options(options, focused)}
        reply = await self._feed(self.bot._connection.parse_interaction_create,
                                 self._interaction(user, 4, data, channel_id))
        assert reply and reply[-1].type == 8, f"no autocomplete answer: {reply}"
        return reply[-1].body["data"]["choices"]

    def _component(self, sent: Sent | dict, which: str | int) -> tuple[dict, dict]:
        message = sent.message if isinstance(sent, Sent) else sent  # a Sent: as the client saw it then
        assert message is not None, "that call created no message"
        comps = [c for row in message.get("components", []) for c in row.get("components", [])]
        for i, c in enumerate(comps):
            if which in (i, c.get("custom_id"), c.get("label")):
                return message, c
        raise AssertionError(f"no component {which!r} on message {message['id']}: "
                             f"{[(c.get('label'), c.get('custom_id')) for c in comps]}")

    async def click(self, user: User, sent: Sent | dict, which: str | int, *, custom_id: str | None = None) -> Reply:
        """Press the button ``which`` (label, custom_id or index) of a message; ``custom_id`` forges another id."""
        message, comp = self._component(sent, which)
        if custom_id is not None:
            message = json.loads(json.dumps(message))
            for row in message["components"]:
                for c in row["components"]:
                    if c is not None and c.get("custom_id") == comp["custom_id"]:
                        c["custom_id"] = custom_id
        cid = custom_id or comp["custom_id"]
        data = {"custom_id": cid, "component_type": 2}
        return await self._feed(self.bot._connection.parse_interaction_create,
                                self._interaction(user, 3, data, int(message["channel_id"]), message))

    async def select(self, user: User, sent: Sent | dict, which: str | int, values: list[str]) -> Reply:
        """Pick ``values`` in the select menu ``which`` of a message."""
        message, comp = self._component(sent, which)
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": values}
        return await self._feed(self.bot._connection.parse_interaction_create,
                                self._interaction(user, 3, data, int(message["channel_id"]), message))

    async def say(self, user: User, content: str, channel_id: int | None = None) -> Reply:
        """A MESSAGE_CREATE from ``user``."""
        mid = self.snowflake()
        data = {
            "id": str(mid), "channel_id": str(channel_id or self.channel_id), "guild_id": str(self.guild_id),
            "author": user.payload(), "member": {k: v for k, v in user.member(self.now_ms).items() if k != "user"},
            "content": content, "timestamp": iso(self.now_ms), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "pinned": False, "type": 0, "flags": 0, "components": [],
        }
        return await self._feed(self.bot._connection.parse_message_create, data)

    async def react(self, user: User, message_id: int, emoji: str, channel_id: int | None = None) -> Reply:
        """A MESSAGE_REACTION_ADD of ``emoji`` (unicode) by ``user``."""
        data = {
            "user_id": str(user.id), "channel_id": str(channel_id or self.channel_id), "message_id": str(message_id),
            "guild_id": str(self.guild_id), "emoji": {"id": None, "name": emoji}, "member": user.member(self.now_ms),
            "type": 0, "burst": False, "burst_colors": [], "message_author_id": str(BOT_ID),
        }
        return await self._feed(self.bot._connection.parse_message_reaction_add, data)

    async def choose(self, user: User, option_id: str, channel_id: int | None = None, *,
                     allow_move: bool = True) -> Reply:
        """Answer ``option_id`` as a player would: its button on the current board, its select menu, or the
        two-step pick (group, then the ephemeral page); ``/move`` when no component offers it (an
        ``AssertionError`` instead when ``allow_move`` is False)."""
        from bot.discord import ids

        channel = channel_id or self.channel_id
        update = await self.bot.service.show(str(channel))
        sid, ver = update.session.id, update.session.version
        for d, decision in enumerate(update.pending):
            if decision.player not in (None, user.sid):
                continue
            for o, opt in enumerate(decision.options):
                if opt.id != option_id:
                    continue
                board = self.board(channel)
                have = {c.get("custom_id") for row in board["components"] for c in row["components"]}
                if ids.choice(sid, ver, d, o) in have:
                    return await self.click(user, board, ids.choice(sid, ver, d, o))
                if ids.menu(sid, ver, d, o // 25) in have:
                    return await self.select(user, board, ids.menu(sid, ver, d, o // 25), [str(o)])
                if ids.group(sid, ver, d) in have:
                    page = (await self.select(user, board, ids.group(sid, ver, d), [str(o // 25)])).ephemeral()[0]
                    return await self.select(user, page, 0, [str(o)])
        assert allow_move, f"no component offers {option_id!r} to {user.name}"
        return await self.slash(user, "move", channel_id=channel_id, option=option_id)

    def delete_message(self, message_id: int | str) -> None:
        """A member deletes a message: it is gone, and editing it answers 404 Unknown Message."""
        self.fake.messages.pop(int(message_id), None)
        self.fake.deleted.add(int(message_id))

    # -- reading ---------------------------------------------------------------------------------------------------
    def messages_in(self, channel_id: int | None = None) -> list[dict]:
        cid = str(channel_id or self.channel_id)
        return [m for m in self.fake.messages.values() if m["channel_id"] == cid]

    def board(self, channel_id: int | None = None) -> dict:
        """The latest public message with choice components in the channel (what a player would click)."""
        found = self.latest_with(("pbc:c:", "pbc:m:", "pbc:g:"), channel_id)
        if found is None:
            raise AssertionError("no board with choices in this channel")
        return found

    def latest_with(self, prefixes: tuple[str, ...] = ("pbc:c:", "pbc:m:", "pbc:g:", "pbc:r:"),
                    channel_id: int | None = None) -> dict | None:
        """The latest public message of the channel with a component whose custom_id starts with one of
        ``prefixes`` (default: choices, selects and race buttons), or None."""
        for m in reversed(self.messages_in(channel_id)):
            if not (m.get("flags", 0) & EPHEMERAL) and any(
                c.get("custom_id", "").startswith(prefixes)
                for row in m.get("components", []) for c in row.get("components", [])
            ):
                return m
        return None


__all__ = ["APP_ID", "BOT_ID", "CHANNEL_ID", "GUILD_ID", "Harness", "ManualClock", "RateLimits", "Reply", "Sent", "User",
           "http_error"]
