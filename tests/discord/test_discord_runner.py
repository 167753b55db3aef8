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
