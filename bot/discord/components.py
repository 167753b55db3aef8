"""Persistent components: ``DynamicItem`` templates parsed from ``custom_id`` (see :mod:`bot.discord.ids`).

Registered once in ``PlayBot.setup_hook`` (``add_dynamic_items``), so a button posted before a restart is handled
by the new process. Each callback only parses its id and hands over to the cog that owns the feature
(``bot.play``, ``bot.lobby``); no game logic here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.i18n import say
from games.core import T

from . import ids
from .language import enter_interaction

if TYPE_CHECKING:
    from .bot import PlayBot


def _values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values", [])]


def _one_index(interaction: discord.Interaction) -> int | None:
    """The single select value as an index, or None: only plain ASCII digits count ("²", "①" and "٣" are digits
    to ``str.isdigit`` but not what our menus send; a forged value must never pick an option)."""
    values = _values(interaction)
    if len(values) != 1 or not (values[0].isascii() and values[0].isdigit()) or len(values[0]) > 4:
        return None
    return int(values[0])


def let_go(view: ui.View | None) -> None:
    """Done with ``view``: a view of ours once its message went out (or was refused), or the view discord.py
    rebuilt from a pressed message to find the pressed item (``View.from_message``, once a press). It is stopped
    (our items are ``DynamicItem`` templates: presses are dispatched by template, never by this object) and
    emptied: a view and its items point at each other, so unemptied they wait for the cyclic garbage collector.
    They were more than half of the bot's cyclic garbage: 3.6 views, 74 of 134 objects a move. Not to be sent
    again."""
    if view is not None:
        view.stop()
        view.clear_items()


async def in_budget(self, interaction: discord.Interaction[PlayBot], /) -> bool:
    """``interaction_check`` of the components whose handlers do database work: defer the press first when its
    3 s are running out (:meth:`bot.discord.play.Play.in_budget`)."""
    let_go(self.view)  # the press's own view: nothing reads it after this check
    return await interaction.client.answers.in_budget(interaction)


async def in_language(self, interaction: discord.Interaction[PlayBot], /) -> bool:
    """``interaction_check`` of the components without database work of their own: note the table's and the
    reader's language (:mod:`bot.discord.language`)."""
    let_go(self.view)  # the press's own view: nothing reads it after this check
    await enter_interaction(interaction.client, interaction)
    return True


class ChoiceButton(ui.DynamicItem[ui.Button], template=ids.CHOICE):
    """One option of a pending decision: ``(session, version, decision index, option index)``."""

    interaction_check = in_budget

    def __init__(self, sid: int, ver: int, d: int, o: int, label: str = "?", row: int | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(ui.Button(label=label[:80] or "?", style=style, custom_id=ids.choice(sid, ver, d, o)),
                         row=row)
        self.sid, self.ver, self.d, self.o = sid, ver, d, o

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), int(match["d"]), int(match["o"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.play.choose(interaction, self.sid, self.ver, self.d, self.o)


class ChoiceSelect(ui.DynamicItem[ui.Select], template=ids.MENU):
    """A select menu of up to 25 options of one decision (``page`` of its options); values are option indices."""

    interaction_check = in_budget

    def __init__(self, sid: int, ver: int, d: int, page: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(
            ui.Select(custom_id=ids.menu(sid, ver, d, page), placeholder=(say(T("Choose…")) if placeholder is None else placeholder)[:150],
                      options=options or [discord.SelectOption(label="?", value="0")]),
            row=row,
        )
        self.sid, self.ver, self.d, self.page = sid, ver, d, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), int(match["d"]), int(match["p"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        index = _one_index(interaction)
        if index is None:
            await interaction.client.answers.refuse(interaction, T("Pick exactly one option from the menu."))
            return
        await interaction.client.play.choose(interaction, self.sid, self.ver, self.d, index)


class GroupSelect(ui.DynamicItem[ui.Select], template=ids.GROUP):
    """Step one of a two-step pick (a decision with too many options for one message): values are page numbers;
    the answer is an ephemeral message with the select menus of that page."""

    interaction_check = in_budget

    def __init__(self, sid: int, ver: int, d: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(
            ui.Select(custom_id=ids.group(sid, ver, d), placeholder=(say(T("Choose a group…")) if placeholder is None else placeholder)[:150],
                      options=options or [discord.SelectOption(label="?", value="0")]),
            row=row,
        )
        self.sid, self.ver, self.d = sid, ver, d

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), int(match["d"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        index = _one_index(interaction)
        if index is None:
            await interaction.client.answers.refuse(interaction, T("Pick exactly one group from the menu."))
            return
        await interaction.client.play.open_group(interaction, self.sid, self.ver, self.d, index)


class LobbyButton(ui.DynamicItem[ui.Button], template=ids.LOBBY):
    """Join / Leave / Start / Cancel on a lobby card."""

    interaction_check = in_budget

    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    LABELS = {"join": T("Join"), "leave": T("Leave"), "start": T("Start"), "cancel": T("Cancel")}

    def __init__(self, sid: int, action: str) -> None:
        label = self.LABELS.get(action)
        super().__init__(ui.Button(label=say(label) if label is not None else action.capitalize(),
                                   style=self.STYLES[action],
                                   custom_id=ids.lobby(sid, action)))
        self.sid, self.action = sid, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), match["action"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.lobby.press(interaction, self.sid, self.action)


class UndoButton(ui.DynamicItem[ui.Button], template=ids.UNDO):
    """Approve (``y``) or refuse (``n``) taking back the last move of board ``version``."""

    interaction_check = in_budget

    def __init__(self, sid: int, ver: int, vote: str) -> None:
        label, style = (T("Approve undo"), discord.ButtonStyle.success) if vote == "y" else (
            T("Refuse"), discord.ButtonStyle.danger)
        super().__init__(ui.Button(label=say(label), style=style, custom_id=ids.undo(sid, ver, vote)))
        self.sid, self.ver, self.vote = sid, ver, vote

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), match["vote"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.admin.undo_vote(interaction, self.sid, self.ver, self.vote == "y")


class AfkButton(ui.DynamicItem[ui.Button], template=ids.AFK):
    """The host removes the idle player of seat ``seat`` (a resignation) if the board is still ``version``."""

    interaction_check = in_budget

    def __init__(self, sid: int, ver: int, seat: int, label: str | None = None) -> None:
        label = label or say(T("Remove the idle player"))
        super().__init__(ui.Button(label=label[:80], style=discord.ButtonStyle.danger,
                                   custom_id=ids.afk(sid, ver, seat)))
        self.sid, self.ver, self.seat = sid, ver, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.admin.remove_idle(interaction, self.sid, self.ver, self.seat)


class SeatButton(ui.DynamicItem[ui.Button], template=ids.SEAT):
    """A seat the AI stand-in plays (:mod:`bot.discord.stand_in`): ``ai`` lets the AI play the idle seat of board
    ``version``, ``back`` gives the seat back to its owner ("I'm back"), ``out`` removes the absent player."""

    interaction_check = in_budget

    STYLES = {"ai": discord.ButtonStyle.primary, "back": discord.ButtonStyle.success,
              "out": discord.ButtonStyle.danger}

    def __init__(self, sid: int, ver: int, seat: int, action: str, label: str = "?", row: int | None = None) -> None:
        super().__init__(ui.Button(label=label[:80] or "?", style=self.STYLES[action],
                                   custom_id=ids.seat(sid, ver, seat, action)), row=row)
        self.sid, self.ver, self.seat, self.action = sid, ver, seat, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), int(match["ver"]), int(match["seat"]), match["action"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.stand_in.press(interaction, self.sid, self.ver, self.seat, self.action)


class HereButton(ui.DynamicItem[ui.Button], template=ids.HERE):
    """ "I'm here" on a live table's board while a roll waits for players marked missing (:mod:`bot.service.presence`);
    only a player marked missing can press it."""

    interaction_check = in_budget

    def __init__(self, sid: int, label: str = "?", row: int | None = None) -> None:
        super().__init__(ui.Button(label=label[:80] or "?", style=discord.ButtonStyle.success,
                                   custom_id=ids.here(sid)), row=row)
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.races.here(interaction, self.sid)


class RaceButton(ui.DynamicItem[ui.Button], template=ids.RACE):
    """An input of a race (``Game.race_key``): ``(session, race key, option id)``, valid while that race is pending
    whatever other inputs came in (see :mod:`bot.discord.races`)."""

    interaction_check = in_budget

    def __init__(self, sid: int, key: str, option: str, label: str = "?", row: int | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, emoji: str | None = None) -> None:
        custom_id = ids.race(sid, key, option)
        assert custom_id is not None, option
        super().__init__(ui.Button(label=label[:80] or "?", style=style, custom_id=custom_id, emoji=emoji), row=row)
        self.sid, self.key, self.option = sid, key, option

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]), match["key"], match["opt"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.races.press(interaction, self.sid, self.key, self.option)


class HelpButton(ui.DynamicItem[ui.Button], template=ids.HELP):
    """ "How to play" on the lobby card and every board: the game's overview, ephemeral, with a topic select."""

    interaction_check = in_language

    def __init__(self, game_id: str, row: int | None = None) -> None:
        super().__init__(ui.Button(label=say(T("How to play")), style=discord.ButtonStyle.secondary, emoji="❔",
                                   custom_id=ids.help_(game_id)), row=row)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.play.how_to_play(interaction, self.game_id)


class TopicSelect(ui.DynamicItem[ui.Select], template=ids.TOPIC):
    """The topic select under a "How to play" answer: values are ``Game.rules_help`` topics (``-``: overview)."""

    interaction_check = in_language

    def __init__(self, game_id: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(ui.Select(custom_id=ids.topic(game_id), placeholder=say(T("More about…")),
                                   options=options or [discord.SelectOption(label=say(T("Overview")), value="-")]))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        values = _values(interaction)
        if len(values) != 1:
            await interaction.client.answers.refuse(interaction, T("Pick one topic."))
            return
        await interaction.client.play.how_to_play(interaction, self.game_id, "" if values[0] == "-" else values[0])


class FullBoardButton(ui.DynamicItem[ui.Button], template=ids.FULL):
    """ "Full board": the whole board of session ``sid`` as it stands, ephemeral."""

    interaction_check = in_budget

    def __init__(self, sid: int, row: int | None = None) -> None:
        super().__init__(ui.Button(label=say(T("Full board")), style=discord.ButtonStyle.secondary, emoji="🗺️",
                                   custom_id=ids.full(sid)), row=row)
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.play.full_board(interaction, self.sid)


class AddAiSelect(ui.DynamicItem[ui.Select], template=ids.ADD_AI):
    """ "Add AI" on a lobby card: values are AI levels; the host only (``bot.lobby.ai_select``)."""

    interaction_check = in_language

    def __init__(self, sid: int, options: list[discord.SelectOption] | None = None, row: int | None = None) -> None:
        super().__init__(ui.Select(custom_id=ids.add_ai(sid), placeholder=say(T("Add AI…")),
                                   options=options or [discord.SelectOption(label="?", value="normal")]), row=row)
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.lobby.ai_select(interaction, self.sid, "add", _values(interaction))


class RemoveAiSelect(ui.DynamicItem[ui.Select], template=ids.REMOVE_AI):
    """ "Remove AI" on a lobby card with AI seats: values are their player ids; the host only, before the start."""

    interaction_check = in_language

    def __init__(self, sid: int, options: list[discord.SelectOption] | None = None, row: int | None = None) -> None:
        super().__init__(ui.Select(custom_id=ids.remove_ai(sid), placeholder=say(T("Remove AI…")),
                                   options=options or [discord.SelectOption(label="?", value="?")]), row=row)
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.lobby.ai_select(interaction, self.sid, "remove", _values(interaction))


DYNAMIC_ITEMS = (ChoiceButton, ChoiceSelect, GroupSelect, LobbyButton, UndoButton, AfkButton, RaceButton,
                 HelpButton, TopicSelect, FullBoardButton, AddAiSelect, RemoveAiSelect, SeatButton, HereButton)
