"""``bot.discord.runner.run``: exit codes and the token kept out of every log line (no network)."""

from __future__ import annotations

import logging

import discord

from bot.config import Settings
from bot.discord.bot import intents
from bot.discord.runner import run

SECRET = "MTIzNDU2Nzg5.secret.token-value"


def test_missing_token_exits_2(capsys, tmp_path):
    assert run(Settings(discord_token=None, database_path=tmp_path / "db.sqlite3")) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_rejected_token_exits_3_and_is_never_logged(monkeypatch, capsys, caplog, tmp_path):
    async def refuse(self, token):
        logging.getLogger("discord.http").info("logging in with %s", token)  # a careless log line
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    caplog.set_level(logging.INFO)
    assert run(Settings(discord_token=SECRET, database_path=tmp_path / "db.sqlite3")) == 3
    out = capsys.readouterr()
    assert "rejected the token" in out.err
    assert SECRET not in out.err + out.out
    assert all(SECRET not in r.getMessage() for r in caplog.records)


def test_intents():
    i = intents()
    assert i.guilds and i.guild_messages and i.guild_reactions and i.message_content
    assert not i.members and not i.presences


def test_unreachable_discord_is_retried_with_one_line_per_try(monkeypatch, capsys, caplog, tmp_path):
    """DNS/TLS/5xx at start: one clear log line per try and a retry with backoff (no traceback);
    a rejected token still exits at once with its code."""
    import aiohttp

    from bot.discord import runner

    tries = []

    async def flaky(self, token):
        tries.append(token)
        if len(tries) == 1:
            raise aiohttp.ClientConnectorError(
                connection_key=type("K", (), {"ssl": True, "host": "discord.com", "port": 443})(),
                os_error=OSError(-2, "Name or service not known"))
        if len(tries) == 2:
            raise discord.DiscordServerError(type("R", (), {"status": 502, "reason": "Bad Gateway"})(), "bad gateway")
        raise discord.LoginFailure("Improper token has been passed.")

    waits = []

    async def no_wait(seconds):
        waits.append(seconds)

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", flaky)
    monkeypatch.setattr(runner, "SLEEP", no_wait)
    caplog.set_level(logging.INFO)
    assert run(Settings(discord_token=SECRET, database_path=tmp_path / "db.sqlite3")) == 3
    assert len(tries) == 3 and len(waits) == 2 and 0 < waits[0] <= 2 and waits[1] > 1
    lines = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(lines) == 2 and all(r.exc_info is None for r in lines)
    assert "ClientConnectorError" in lines[0].getMessage() and "DiscordServerError" in lines[1].getMessage()
    assert "Traceback" not in capsys.readouterr().err


def test_without_message_content_the_bot_starts_without_typed_words(monkeypatch, caplog, tmp_path):
    """Message Content refused -> the bot starts again without it and says how to turn it on."""
    from bot.discord.bot import PlayBot

    started = []

    async def login(self, token):
        await self.prepare()

    async def connect(self, *, reconnect=True):
        started.append(self.intents.message_content)
        if self.intents.message_content:
            raise discord.PrivilegedIntentsRequired(None)

    monkeypatch.setattr(PlayBot, "login", login)
    monkeypatch.setattr(PlayBot, "connect", connect)
    caplog.set_level(logging.INFO)
    assert run(Settings(discord_token=SECRET, database_path=tmp_path / "db.sqlite3")) == 0
    assert started == [True, False]
    assert any("Message Content intent is not enabled" in r.getMessage() and "Privileged Gateway Intents"
               in r.getMessage() for r in caplog.records)


def test_interaction_and_webhook_tokens_are_masked_at_every_level():
    from bot.discord.runner import Redact

    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1,
                               "POST https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb246.abc-DEF_9/callback "
                               "then PATCH https://discord.com/api/v10/webhooks/456/tok.en-_x/messages/@original %s",
                               (SECRET,), None)
    Redact(SECRET).filter(record)
    text = record.getMessage()
    assert "aW50ZXJhY3Rpb246" not in text and "tok.en" not in text and SECRET not in text
    assert "/interactions/123/[token]/callback" in text and "/webhooks/456/[token]/messages" in text


def test_voice_warnings_are_silenced():
    from bot.discord.runner import QuietVoice

    record = logging.LogRecord("discord.client", logging.WARNING, __file__, 1,
                               "PyNaCl is not installed, voice will NOT be supported", (), None)
    assert QuietVoice().filter(record) is False


def test_invite_prints_the_url_with_scopes_and_the_permissions_integer():
    from click.testing import CliRunner

    from bot.__main__ import cli
    from bot.discord.permissions import INTEGER, NEEDED

    out = CliRunner().invoke(cli, ["invite", "123456789012345678"])
    assert out.exit_code == 0, out.output
    first = out.output.splitlines()[0]
    assert first == ("https://discord.com/oauth2/authorize?client_id=123456789012345678"
                     f"&scope=bot+applications.commands&permissions={INTEGER}")
    assert INTEGER == discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                          create_public_threads=True, attach_files=True, embed_links=True,
                                          read_message_history=True, add_reactions=True).value
    assert len(out.output.splitlines()) == 2 + len(NEEDED)
    assert CliRunner().invoke(cli, ["invite", "abc"]).exit_code == 2


def test_readme_lists_every_permission_with_why_and_the_integer():
    from pathlib import Path

    from bot.discord.permissions import INTEGER, NEEDED

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"`{INTEGER}`" in readme
    for name, why in NEEDED.items():
        assert f"| {why!s} |" in readme, name


async def test_discord_py_s_own_5xx_tries_and_the_backoff_share_one_numbered_line_each(caplog):
    """Five 502 answers in one login try: discord.py tries again after the first four (one line each, its waits
    1, 3, 5, 7 s); after the fifth it raises and only the backoff's line says so (try 5, not twice). A 502 after
    the start is not logged here."""
    from types import SimpleNamespace

    from bot.discord.runner import StartTries

    tries = StartTries()
    answer = SimpleNamespace(response=SimpleNamespace(status=502, reason="Bad Gateway"))
    caplog.set_level(logging.WARNING, logger="bot.discord")
    for _ in range(5):
        await tries._answered(None, None, answer)
    error = discord.DiscordServerError(SimpleNamespace(status=502, reason="Bad Gateway"), "")
    state = SimpleNamespace(outcome=SimpleNamespace(exception=lambda: error), next_action=SimpleNamespace(sleep=1.4))
    tries.backoff(state)
    await tries._answered(None, None, answer)  # the next login try's first 502
    tries.active = False
    await tries._answered(None, None, answer)
    assert [r.getMessage() for r in caplog.records] == [
        f"Discord is unreachable (DiscordServerError: 502 Bad Gateway); trying again in {wait} s (try {n})"
        for n, wait in ((1, 1), (2, 3), (3, 5), (4, 7), (5, 1), (6, 1))]


def test_intents_refused_even_without_message_content_exits_4_with_one_line(monkeypatch, capsys, tmp_path):
    from bot.discord.bot import PlayBot

    async def login(self, token):
        await self.prepare()

    async def connect(self, *, reconnect=True):
        raise discord.PrivilegedIntentsRequired(None)

    monkeypatch.setattr(PlayBot, "login", login)
    monkeypatch.setattr(PlayBot, "connect", connect)
    assert run(Settings(discord_token=SECRET, database_path=tmp_path / "db.sqlite3")) == 4
    assert capsys.readouterr().err.splitlines()[-1] == (
        "Discord refused the bot's gateway intents (PrivilegedIntentsRequired) even without Message Content: check "
        "the Privileged Gateway Intents in the developer portal (Bot tab).")


def test_a_store_that_cannot_be_opened_exits_5_before_discord_is_contacted(monkeypatch, capsys, tmp_path):
    contacted = []

    async def login(self, token):
        contacted.append(token)

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    folder = tmp_path / "a-file"
    folder.write_text("not a folder")
    assert run(Settings(discord_token=SECRET, database_path=folder / "db.sqlite3")) == 5
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("The store cannot be used: cannot create the folder of the database ")
    assert contacted == [] and "Traceback" not in err


def test_sync_commands_refused_by_discord_exits_1_with_the_status(monkeypatch, capsys, tmp_path):
    from types import SimpleNamespace

    from bot.discord import runner, sync

    async def login(bot, token):
        return None

    async def refuse(tree, store, guild_id):
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"message": "Missing Access",
                                                                                  "code": 50001})

    monkeypatch.setattr(runner, "login", login)
    monkeypatch.setattr(sync, "sync", refuse)
    settings = Settings(discord_token=SECRET, database_path=tmp_path / "db.sqlite3")
    assert runner.sync_commands(settings, guild_id=123) == 1
    assert capsys.readouterr().err.splitlines() == ["Discord refused the commands: 403 Missing Access"]
