"""The ``custom_id`` of every component this bot posts (Discord allows 100 characters).

Each id carries what it needs to be handled after a restart, never a discord.py object:

- ``pbc:c:<session>:<version>:<decision>:<option>`` — a choice button (indices into ``Game.pending``);
- ``pbc:m:<session>:<version>:<decision>:<page>`` — a choice select menu (values are option indices);
- ``pbc:g:<session>:<version>:<decision>`` — the first step of a two-step pick (values are page numbers);
- ``pbc:l:<session>:<action>`` — a lobby button (``join`` | ``leave`` | ``start`` | ``cancel``);
- ``pbc:a:<session>`` — the lobby's "Add AI" select (values are AI levels);
- ``pbc:x:<session>`` — the lobby's "Remove AI" select (values are AI seats' player ids);
- ``pbc:u:<session>:<version>:<vote>`` — an undo vote (``y`` | ``n``);
- ``pbc:k:<session>:<version>:<seat>`` — the host's "remove the idle player" button (seat index);
- ``pbc:h:<game id>`` — "How to play": the game's rules overview, ephemeral, with a topic select;
- ``pbc:t:<game id>`` — that topic select (values are topic names, ``-`` the overview);
- ``pbc:f:<session>`` — "Full board": the whole board (``renderers.render(full=True)``), ephemeral;
- ``pbc:p:<session>`` — "Replay" on a result message: the game's animation, ephemeral;
- ``pbc:hr:<session>`` — "I'm here" on a live table's board (:mod:`bot.service.presence`);
- ``pbc:rm:<session>`` — "Rematch" on a result message: a lobby for the same table (:mod:`bot.service.rematch`);
- ``pbc:si:<session>:<version>:<seat>:<action>`` — a seat the AI stand-in plays (:mod:`bot.service.stand_in`):
  ``ai`` ("The AI plays for X" on an AFK notice of board ``version``), ``back`` ("I'm back", the seat's owner) or
  ``out`` ("Remove X" beside a stand-in); ``version`` 0 for the last two;
- ``pbc:n:<member>`` — "Stop" on a direct message about a game: that member's direct messages are turned off;
- ``pbc:le:<game id>:<step>:<learner>:<page>:<path>`` — a lesson's option select (``/learn``; values are option
  indices): the learner's member id, the steps done and the answers taken (:attr:`games.lessons.LessonRun.path`, a
  digit per step; a select of an older bot without it took the first accepted answer of each step), so the lesson
  is rebuilt on a press (nothing stored);
- ``pbc:r:<session>:<race>:<option id>`` — a button of a race (``Game.race_key``; ``race`` is a short hash of it):
  no version, so one player's input does not make the others' buttons stale; valid while that race is pending.

``version`` is the session's version when the board was posted: a press on another version is refused as stale.
"""

from __future__ import annotations

import hashlib

PREFIX = "pbc:"

CHOICE = r"pbc:c:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3}):(?P<o>[0-9]{1,3})"
MENU = r"pbc:m:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3}):(?P<p>[0-9]{1,3})"
GROUP = r"pbc:g:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<d>[0-9]{1,3})"
LOBBY = r"pbc:l:(?P<sid>[0-9]{1,18}):(?P<action>join|leave|start|cancel)"
UNDO = r"pbc:u:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<vote>[yn])"
AFK = r"pbc:k:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<seat>[0-9]{1,2})"
RACE = r"pbc:r:(?P<sid>[0-9]{1,18}):(?P<key>[0-9a-f]{10}):(?P<opt>\S{1,64})"
HELP = r"pbc:h:(?P<game>[a-z0-9_-]{1,40})"
TOPIC = r"pbc:t:(?P<game>[a-z0-9_-]{1,40})"
FULL = r"pbc:f:(?P<sid>[0-9]{1,18})"
ADD_AI = r"pbc:a:(?P<sid>[0-9]{1,18})"
REMOVE_AI = r"pbc:x:(?P<sid>[0-9]{1,18})"
REPLAY = r"pbc:p:(?P<sid>[0-9]{1,18})"
SEAT = r"pbc:si:(?P<sid>[0-9]{1,18}):(?P<ver>[0-9]{1,9}):(?P<seat>[0-9]{1,2}):(?P<action>ai|back|out)"
REMATCH = r"pbc:rm:(?P<sid>[0-9]{1,18})"
HERE = r"pbc:hr:(?P<sid>[0-9]{1,18})"
STOP_DMS = r"pbc:n:(?P<uid>[0-9]{1,20})"
LESSON = (r"pbc:le:(?P<game>[a-z0-9_-]{1,40}):(?P<step>[0-9]{1,2}):(?P<learner>[0-9]{1,20}):(?P<p>[0-9])"
          r"(?::(?P<path>[0-9]{1,12}))?")
TEMPLATES = (CHOICE, MENU, GROUP, LOBBY, UNDO, AFK, RACE, HELP, TOPIC, FULL, ADD_AI, REMOVE_AI, REPLAY, SEAT, REMATCH, HERE,
             STOP_DMS, LESSON)


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


def stop_dms(member: str | int) -> str:
    return f"pbc:n:{member}"


def afk(sid: int, version: int, seat: int) -> str:
    return f"pbc:k:{sid}:{version}:{seat}"


def seat(sid: int, version: int, seat_index: int, action: str) -> str:
    return f"pbc:si:{sid}:{version}:{seat_index}:{action}"


def race_key(name: str) -> str:
    """The 10-hex-digit form of a ``Game.race_key`` carried by race buttons."""
    return hashlib.blake2s(name.encode(), digest_size=5).hexdigest()


def race(sid: int, key: str, option: str) -> str | None:
    """A race button's id, or None when the option id does not fit (the board then uses a versioned button)."""
    if not 1 <= len(option) <= 64 or any(ch.isspace() for ch in option):
        return None
    return f"pbc:r:{sid}:{key}:{option}"


def help_(game_id: str) -> str:
    return f"pbc:h:{game_id}"


def lesson(game_id: str, path: str, learner: int, page: int) -> str:
    return f"pbc:le:{game_id}:{len(path)}:{learner}:{page}" + (f":{path}" if path else "")


def topic(game_id: str) -> str:
    return f"pbc:t:{game_id}"


def full(sid: int) -> str:
    return f"pbc:f:{sid}"


def add_ai(sid: int) -> str:
    return f"pbc:a:{sid}"


def remove_ai(sid: int) -> str:
    return f"pbc:x:{sid}"


def replay(sid: int) -> str:
    return f"pbc:p:{sid}"


def here(sid: int) -> str:
    return f"pbc:hr:{sid}"


def rematch(sid: int) -> str:
    return f"pbc:rm:{sid}"
