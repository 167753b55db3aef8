"""Shards and the store's target in the settings: SHARD_COUNT, SHARD_IDS ("0,1", "0-3"), which
process syncs the commands, DATABASE_URL, and the AutoShardedBot a process runs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings, parse_shard_ids
from bot.discord.bot import PlayBot, ShardedPlayBot, make_bot
from bot.store import Store, StoreError, shard_of


@pytest.mark.parametrize(("text", "ids"), [("0,1", [0, 1]), ("0-3", [0, 1, 2, 3]), ("3, 0-1", [0, 1, 3]),
                                           ("2", [2]), ("1,1", [1])])
def test_shard_ids_are_lists_or_ranges(text, ids):
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize(("text", "message"), [("a", "'a' is not a shard number"), ("3-1", "runs backwards"),
                                               (",", "empty"), ("1-x", "'1-x' is not a shard number")])
def test_bad_shard_ids_are_refused_with_a_readable_message(text, message):
    with pytest.raises(ValueError, match=message):
        parse_shard_ids(text)


def test_a_shard_beyond_the_count_is_refused():
    with pytest.raises(ValidationError, match="shard 2 is not one of 0-1"):
        Settings(discord_token=None, shard_count=2, shard_ids="0-2")


def test_the_process_running_shard_0_syncs_the_commands_unless_told():
    assert Settings(discord_token=None).syncs_commands()
    assert Settings(discord_token=None, shard_count=4, shard_ids="0-1").syncs_commands()
    assert not Settings(discord_token=None, shard_count=4, shard_ids="2-3").syncs_commands()
    assert Settings(discord_token=None, shard_count=4, shard_ids="2-3", sync_commands=True).syncs_commands()
    assert not Settings(discord_token=None, sync_commands=False).syncs_commands()


def test_database_url_overrides_the_sqlite_path(tmp_path):
    assert Settings(discord_token=None, database_path=tmp_path / "x.sqlite3").database() == str(tmp_path / "x.sqlite3")
    url = "postgresql://bot@db.internal/bot"
    assert Settings(discord_token=None, database_path=tmp_path / "x.sqlite3", database_url=url).database() == url


def test_shard_of_a_guild_follows_discord():
    """shard = (guild_id >> 22) % SHARD_COUNT (Discord's formula); no guild is shard 0."""
    assert shard_of(41771983423143937, 4) == (41771983423143937 >> 22) % 4
    assert shard_of(None, 4) == 0 and shard_of(123, 1) == 0


async def test_a_sharded_process_runs_an_autosharded_bot_serving_its_shards(tmp_path):
    store = await Store.open(tmp_path / "bot.sqlite3")
    try:
        settings = Settings(discord_token=None, shard_count=4, shard_ids="2-3")
        bot = make_bot(settings, store)
        assert isinstance(bot, ShardedPlayBot) and bot.shard_count == 4 and bot.shard_ids == [2, 3]
        assert store.shard_count == 4 and store.shard_ids == [2, 3]
        single = make_bot(Settings(discord_token=None), store)
        assert type(single) is PlayBot
    finally:
        await store.close()


async def test_an_unreachable_postgresql_is_refused_with_one_line():
    """Exit-5 path of the runner for the PostgreSQL backend: one line, no password."""
    with pytest.raises(StoreError) as info:
        await Store.open("postgresql://bot:s3cret@127.0.0.1:1/bot")
    text = str(info.value)
    assert "cannot open the database postgresql://bot:***@127.0.0.1:1/bot" in text and "s3cret" not in text
    assert "\n" not in text
