"""Whose language (ARCHITECTURE.md, "Text and languages"): a table's public messages and images use the channel's
language — ``/settings language:`` (en, ja), else the server's preferred locale — and an ephemeral answer uses the
reader's own Discord locale. Command names and descriptions show in each user's client language (Discord's choice,
from the localisations :mod:`bot.discord.translator` gives).

The adapter notes both for the task that handles an interaction or a timer (:data:`bot.i18n.TABLE`,
:data:`bot.i18n.READER`); the presenter (:mod:`bot.discord.present`) reads them, so every text built while
handling it comes out in the right language without passing it through every call.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from .. import i18n
from ..store import StoreUnavailable

if TYPE_CHECKING:
    from .bot import PlayBot


SEEN_LOCALES: OrderedDict[str, str] = OrderedDict()
"""Channel id -> the server's preferred locale its last interaction carried (for posts outside interactions when
the guild is not in discord.py's cache), the most recent :data:`MAX_SEEN` channels."""
MAX_SEEN = 4096


def _seen(channel_id: str, guild_locale: Any) -> None:
    SEEN_LOCALES[channel_id] = i18n.language(guild_locale)
    SEEN_LOCALES.move_to_end(channel_id)
    while len(SEEN_LOCALES) > MAX_SEEN:
        SEEN_LOCALES.popitem(last=False)


async def channel_language(bot: PlayBot, channel_id: str | int, guild_locale: Any = None) -> str:
    """The language of channel ``channel_id``'s table: its ``/settings language``, else the server's preferred
    locale (``guild_locale``, else the cached guild's, else the one its last interaction carried), as one of
    :data:`bot.i18n.LANGUAGES`."""
    try:
        chosen = (await bot.prefs.get(str(channel_id))).get("language")
    except StoreUnavailable:  # the database is down: the server's language (the input is refused with one line)
        chosen = bot.prefs.cached(str(channel_id)).get("language")
    if chosen in i18n.LANGUAGES:
        return chosen
    if guild_locale is None:
        channel = bot.get_channel(int(channel_id)) if str(channel_id).isdigit() else None
        guild_locale = getattr(getattr(channel, "guild", None), "preferred_locale", None)
    if guild_locale is None:
        return SEEN_LOCALES.get(str(channel_id), i18n.SOURCE)
    return i18n.language(guild_locale)


async def enter_interaction(bot: PlayBot, interaction: discord.Interaction) -> None:
    """Note the table's and the reader's language for the task handling ``interaction``."""
    i18n.READER.set(i18n.language(interaction.locale))
    if interaction.channel_id is not None:
        if interaction.guild_locale is not None:
            _seen(str(interaction.channel_id), interaction.guild_locale)
        i18n.TABLE.set(await channel_language(bot, interaction.channel_id, interaction.guild_locale))


async def enter_channel(bot: PlayBot, channel_id: str | int) -> None:
    """Note the table's language for a task that posts in ``channel_id`` outside an interaction (timers, AI
    moves, retried posts); no reader."""
    i18n.READER.set(None)
    i18n.TABLE.set(await channel_language(bot, channel_id))


__all__ = ["channel_language", "enter_channel", "enter_interaction"]
