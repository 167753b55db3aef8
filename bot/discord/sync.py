"""The slash commands as Discord receives them, and syncing them only when they changed.

discord.py's maintainers advise syncing the command tree only when the commands change: every sync is a bulk
overwrite that Discord rate-limits. So the bot keeps the SHA-256 of the payloads it last synced per scope (global,
or one guild) in the store (``bot_meta``, keys :func:`meta_key`) and, at start, syncs a scope only when the hash of
the tree it would send differs (:func:`sync_if_changed`). ``python -m bot sync-commands`` syncs at once (and records
the hash), ``--clear-guild`` removes a test guild's copies, ``--print`` shows the payloads without contacting Discord.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


def meta_key(guild_id: int | None) -> str:
    """The ``bot_meta`` key of the hash of the commands last synced globally (None) or to guild ``guild_id``."""
    return "commands_hash:global" if guild_id is None else f"commands_hash:guild:{guild_id}"


async def payloads(tree: app_commands.CommandTree, guild_id: int | None = None) -> list[dict[str, Any]]:
    """The JSON list of command payloads :meth:`CommandTree.sync` would send for the scope (global when
    ``guild_id`` is None), translated by the tree's translator when it has one (localisations included)."""
    guild = discord.Object(id=guild_id) if guild_id is not None else None
    commands = tree.get_commands(guild=guild)
    if tree.translator:
        return [await c.get_translated_payload(tree, tree.translator) for c in commands]
    return [c.to_dict(tree) for c in commands]


def digest(items: list[dict[str, Any]]) -> str:
    """SHA-256 (hex) of ``items`` in a canonical JSON form (sorted keys, commands sorted by type and name): the same
    commands give the same hash whatever order they were added in."""
    ordered = sorted(items, key=lambda p: (p.get("type", 1), p.get("name", "")))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync(tree: app_commands.CommandTree, store, guild_id: int | None = None) -> int:
    """Sync the scope now and record its hash; returns how many commands Discord holds for it. A guild scope gets a
    copy of the global commands (:meth:`CommandTree.copy_global_to`)."""
    guild = discord.Object(id=guild_id) if guild_id is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    synced = await tree.sync(guild=guild)
    await store.set_meta(meta_key(guild_id), digest(await payloads(tree, guild_id)))
    return len(synced)


async def clear(tree: app_commands.CommandTree, store, guild_id: int) -> None:
    """Remove every command of guild ``guild_id`` (the copies a test sync put there) and its recorded hash."""
    guild = discord.Object(id=guild_id)
    tree.clear_commands(guild=guild)
    await tree.sync(guild=guild)
    await store.set_meta(meta_key(guild_id), digest([]))


async def sync_if_changed(tree: app_commands.CommandTree, store, guild_id: int | None = None) -> int | None:
    """:func:`sync` when the scope's commands differ from the last synced ones, else nothing; returns the number
    synced, or None when unchanged."""
    guild = discord.Object(id=guild_id) if guild_id is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    wanted = digest(await payloads(tree, guild_id))
    if await store.get_meta(meta_key(guild_id)) == wanted:
        log.info("slash commands unchanged since the last sync (%s): not synced",
                 "global" if guild_id is None else f"guild {guild_id}")
        return None
    return await sync(tree, store, guild_id)
