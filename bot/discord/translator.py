"""Slash commands in each user's client language: discord.py's :class:`app_commands.Translator` over the gettext
catalogue domain ``commands`` (ARCHITECTURE.md, "Text and languages").

The commands' own strings (names, descriptions, option names and descriptions, choice names) are written in English
in the cogs' decorators; :func:`tree_strings` walks the command tree and gives each with its place
(``command_name``, ``parameter_description``, …, the :class:`app_commands.TranslationContextLocation` names), which
``python -m bot i18n update`` writes into ``bot/locales/commands.pot`` with the place as the message context. At
sync, :class:`CatalogueTranslator` answers each string's Japanese, so Discord shows ``/遊ぶ``-style names to a
client set to Japanese (Discord chooses by the user's client language; the bot only supplies the localisations).

Discord's limits (checked by the tests): names match ``^[-_\\p{L}\\p{N}]{1,32}$`` and are lowercase where the script
has case; descriptions are 1-100 characters.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from .. import i18n

NAME_PLACES = {Where.command_name, Where.group_name, Where.parameter_name}
"""Places whose translation is a name Discord checks against ``^[-_\\p{L}\\p{N}]{1,32}$``."""


class CatalogueTranslator(app_commands.Translator):
    """Each command string in the user's language from the ``commands`` catalogue (``None``, i.e. no
    localisation, for English and for a string without a translation)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = i18n.language(locale)
        if lang == i18n.SOURCE:
            return None
        found = i18n.translations(lang).pgettext(context.location.name, string.message)
        return found if found != string.message else None


def _walk(command: Any, out: list[tuple[str, str, str]]) -> None:
    where = f"/{command.qualified_name}"
    group = isinstance(command, app_commands.Group)
    out.append((command.name, (Where.group_name if group else Where.command_name).name, where))
    if command.description:
        out.append((command.description, (Where.group_description if group else Where.command_description).name,
                    where))
    if group:
        for sub in command.commands:
            _walk(sub, out)
        return
    for param in command.parameters:
        out.append((param.name, Where.parameter_name.name, f"{where}:{param.name}"))
        if param.description:
            out.append((str(param.description), Where.parameter_description.name, f"{where}:{param.name}"))
        for choice in param.choices:
            out.append((choice.name, Where.choice_name.name, f"{where}:{param.name}"))


def strings_of(tree: app_commands.CommandTree) -> list[tuple[str, str, str]]:
    """Every string of ``tree``'s global commands Discord shows: ``(msgid, place, where)``, ``place`` a
    :class:`TranslationContextLocation` name, ``where`` e.g. ``"/settings:pings"``."""
    out: list[tuple[str, str, str]] = []
    for command in tree.get_commands():
        if isinstance(command, app_commands.ContextMenu):
            out.append((command.name, Where.command_name.name, command.name))
        else:
            _walk(command, out)
    return out


def tree_strings() -> list[tuple[str, str, str]]:
    """:func:`strings_of` the bot's own command tree, built offline (an in-memory store, no Discord)."""
    from ..config import Settings
    from ..store import Store
    from .bot import make_bot

    async def main() -> list[tuple[str, str, str]]:
        store = await Store.open(":memory:")
        bot = make_bot(Settings(_env_file=None), store, sync=False)
        try:
            await bot.prepare(start=False)
            return strings_of(bot.tree)
        finally:
            await bot.close()
            await store.close()

    return asyncio.run(main())


__all__ = ["CatalogueTranslator", "NAME_PLACES", "strings_of", "tree_strings"]
