"""The ``custom_id`` of every component this bot posts (Discord allows 100 characters).

Each id carries what it needs to be handled after a restart, never a discord.py object:

- ``pbc:c:<session>:<version>:<decision>:<option>`` — a choice button (indices into ``Game.pending``);
- ``pbc:m:<session>:<version>:<decision>:<page>`` — a choice select menu (values are option indices);
- ``pbc:g:<session>:<version>:<decision>`` — the first step of a two-step pick (values are page numbers);
- ``pbc:l:<session>:<action>`` — a lobby button (``join`` | ``leave`` | ``start`` | ``cancel``);
- ``pbc:u:<session>:<version>:<vote>`` — an undo vote (``y`` | ``n``);
- ``pbc:k:<session>:<version>:<seat>`` — the host's "remove the idle player" button (seat index).

``version`` is the session's version when the board was posted: a press on another version is refused as stale.
"""

from __future__ import annotations

PREFIX = "pbc:"

CHOICE = r"pbc:c:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3}):(?P<o>[0-9]{1,3})"
MENU = r"pbc:m:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3}):(?P<p>[0-9]{1,3})"
GROUP = r"pbc:g:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3})"
LOBBY = r"pbc:l:(?P<sid>[0-9]{1,18}):(?P<action>join|leave|start|cancel)"
UNDO = r"pbc:u:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<vote>[yn])"
AFK = r"pbc:k:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<seat>[0-9]{1,2})"
TEMPLATES = (CHOICE, MENU, GROUP, LOBBY, UNDO, AFK)


def choice(sid: int, version: int, decision: int, option: int) -> str:
    return f"pbc:c:{sid}:{version}:{decision}:{option}"


def menu(sid: int, version: int, decision: int, page: int) -> str:
    return f"pbc:m:{sid}:{version}:{decision}:{page}"


def group(sid: int, version: int, decision: int) -> str:
    return f"pbc:g:{sid}:{version}:{decision}"


def lobby(sid: int, action: str) -> str:
    return f"pbc:l:{sid}:{action}"


def undo(sid: int, version: int, vote: str) -> str:
    return f"pbc:u:{sid}:{version}:{vote}"


def afk(sid: int, version: int, seat: int) -> str:
    return f"pbc:k:{sid}:{version}:{seat}"
