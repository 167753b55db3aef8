"""The channel permissions the bot needs, each with why: one table for the invite link
(``python -m bot invite CLIENT_ID``), README and the checks made before a game starts.

``NEEDED``: ``discord.Permissions`` flag name -> why a game needs it. ``INTEGER``: those flags as the permissions
integer of the invite URL. ``SCOPES``: the OAuth2 scopes (``bot`` for the gateway, ``applications.commands`` for the
slash commands).
"""

from __future__ import annotations

import discord

from games.core import T

NEEDED: dict[str, str] = {
    "view_channel": T("see the channel a game is played in"),
    "send_messages": T("post lobby cards, boards, race results and reminders"),
    "send_messages_in_threads": T("play in threads (`/play thread:true`)"),
    "create_public_threads": T("open a thread for a game (`/play thread:true`)"),
    "attach_files": T("attach the board image to each board message"),
    "embed_links": T("show the board image inline with its message"),
    "read_message_history": T("edit the live board and reply to a race's roll message"),
    "add_reactions": T("add the race reactions (Tatamokatsu) players answer with"),
}

LABELS: dict[str, str] = {
    "view_channel": T("View Channel"),
    "send_messages": T("Send Messages"),
    "send_messages_in_threads": T("Send Messages In Threads"),
    "create_public_threads": T("Create Public Threads"),
    "attach_files": T("Attach Files"),
    "embed_links": T("Embed Links"),
    "read_message_history": T("Read Message History"),
    "add_reactions": T("Add Reactions"),
}
"""The permissions as Discord's settings name them (a :class:`games.core.Text`: Discord's Japanese names in ja)."""

SCOPES = ("bot", "applications.commands")


def permissions() -> discord.Permissions:
    """The permissions of :data:`NEEDED` as a ``discord.Permissions``."""
    return discord.Permissions(**{name: True for name in NEEDED})


INTEGER = permissions().value
"""The permissions integer of the invite URL."""


def invite_url(client_id: int) -> str:
    """The OAuth2 URL that adds the bot (application ``client_id``) to a server with :data:`SCOPES` and
    :data:`NEEDED`."""
    return discord.utils.oauth_url(client_id, permissions=permissions(), scopes=SCOPES)


THREAD_ONLY = ("send_messages_in_threads", "create_public_threads")
RACES_ONLY = ("add_reactions",)


def needed_for(game, thread: bool) -> tuple[str, ...]:
    """The permissions a game of ``game`` needs: the thread ones only with ``thread``, Add Reactions only for a
    game that answers races by reactions (it overrides ``Game.reactions``)."""
    from games import Game

    races = type(game).reactions is not Game.reactions
    return tuple(n for n in NEEDED if (thread or n not in THREAD_ONLY) and (races or n not in RACES_ONLY))


def missing(granted: discord.Permissions, names: tuple[str, ...] | None = None) -> list[str]:
    """The needed permissions (all of :data:`NEEDED`, or ``names``) that ``granted`` lacks, as people read them
    ("Attach Files")."""
    return [LABELS.get(name) or name.replace("_", " ").title() for name in (names or tuple(NEEDED))
            if not getattr(granted, name)]
