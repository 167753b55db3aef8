"""``/learn GAME``: a guided first game against the Teacher (:mod:`bot.service.lessons`), in a new thread of the
learner's — or, where the bot may not open threads (or in a thread already), as ephemeral steps in the channel. One
message per lesson, edited in place at every answer, with the board the step speaks of (an image with its alt text,
drawn as every board is: :meth:`bot.discord.images.Images.drawing`); its option selects carry the answers taken
(:data:`bot.discord.ids.LESSON`), so nothing is stored and no game is recorded or rated."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.i18n import reader_lang, refusal, say
from bot.refusals import SessionError
from bot.service import lessons
from bot.service.lessons import LessonPage
from games.core import T

from . import ids, permissions
from .components import in_language
from .images import image_file
from .lobby import PUBLIC_THREAD, THREAD_ARCHIVE_MIN, game_autocomplete

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)

SELECT_SIZE = 25
"""Options per select menu (Discord's limit); a decision with more gets more menus."""


class LessonSelect(ui.DynamicItem[ui.Select], template=ids.LESSON):
    """One select of a lesson step's options: ``(game, path, learner, page)`` (the path: the answers taken,
    :attr:`games.lessons.LessonRun.path`); values are option indices."""

    interaction_check = in_language

    def __init__(self, game_id: str, path: str, learner: int, page: int,
                 options: list[discord.SelectOption] | None = None, row: int | None = None) -> None:
        super().__init__(ui.Select(custom_id=ids.lesson(game_id, path, learner, page),
                                   placeholder=say(T("Your choice…"))[:150],
                                   options=options or [discord.SelectOption(label="?", value="0")]), row=row)
        self.game_id, self.path, self.learner = game_id, path, learner

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item, match: re.Match[str], /):
        path = match["path"] or "0" * int(match["step"])
        return cls(match["game"], path, int(match["learner"]), int(match["p"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        values = (interaction.data or {}).get("values", [])
        index = int(values[0]) if len(values) == 1 and str(values[0]).isascii() and str(values[0]).isdigit() else -1
        await interaction.client.get_cog("Lessons").answer(interaction, self.game_id, self.path, self.learner, index)


def lesson_view(page: LessonPage, learner: int, lang: str, name: str) -> ui.View | None:
    """The selects of ``page``'s options (None at the end)."""
    if page.done:
        return None
    view = ui.View(timeout=None)
    names = lessons.seat_names(lang, name)
    for start in range(0, len(page.options), SELECT_SIZE):
        chunk = page.options[start:start + SELECT_SIZE]
        view.add_item(LessonSelect(page.game, page.path, learner, start // SELECT_SIZE, [
            discord.SelectOption(label=say(o.label, lang, names)[:100] or "?", value=str(start + i))
            for i, o in enumerate(chunk)]))
    return view


class Lessons(commands.Cog):
    """``/learn`` and the answers to its selects."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot

    async def board(self, page: LessonPage, lang: str, name: str) -> list[discord.File]:
        """The board of ``page`` as an attachment ``lesson-<game>-<step>.png`` with its alt text (none without an
        image: the step goes out as text)."""
        if page.state is None:
            return []
        drawn = await self.bot.images.drawing(page.state, lessons.seat_names(lang, name), lang, list(page.pending))
        file = image_file(drawn.png, f"lesson-{page.game}-{page.step + 1}.png", drawn.alt)
        return [file] if file is not None else []

    @app_commands.command(name="learn", description="Learn a game step by step against the Teacher (in a thread)")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        g = self.bot.service.game(game)
        lang, name, learner = reader_lang(), interaction.user.display_name, interaction.user.id
        page = lessons.page(g.id)
        content = lessons.text(page, lang, name)[:2000]
        thread_ok = not isinstance(interaction.channel, discord.Thread) and not permissions.missing(
            interaction.app_permissions, permissions.THREAD_ONLY)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not thread_ok:
            await interaction.followup.send(content, view=lesson_view(page, learner, lang, name), ephemeral=True,
                                            files=await self.board(page, lang, name))
            return
        title = say(T("Learn {game} — {name}", game=g.title, name=name), lang)[:100]
        try:
            data = await self.bot.http.start_thread_without_message(
                interaction.channel_id, name=title, auto_archive_duration=THREAD_ARCHIVE_MIN, type=PUBLIC_THREAD,
                reason=f"/learn {g.id} by {learner}")
        except discord.HTTPException:  # no thread after all: the steps come here, for the learner only
            await interaction.followup.send(content, view=lesson_view(page, learner, lang, name), ephemeral=True,
                                            files=await self.board(page, lang, name))
            return
        thread = self.bot.get_partial_messageable(int(data["id"]))
        try:
            await thread.send(content=f"<@{learner}>\n{content}"[:2000], view=lesson_view(page, learner, lang, name),
                              allowed_mentions=discord.AllowedMentions(users=[discord.Object(learner)]),
                              files=await self.board(page, lang, name))
        except discord.HTTPException:  # a thread the bot cannot post in is removed; the steps come here instead
            await self._remove_thread(int(data["id"]))
            await interaction.followup.send(content, view=lesson_view(page, learner, lang, name), ephemeral=True,
                                            files=await self.board(page, lang, name))
            return
        where = "<#" + str(data["id"]) + ">"
        await interaction.followup.send(say(T("Your {game} lesson is in {channel}.", game=g.title, channel=where),
                                            lang), ephemeral=True)

    async def _remove_thread(self, thread_id: int) -> None:
        try:
            await self.bot.http.delete_channel(thread_id, reason="the lesson's thread could not be used")
        except discord.HTTPException as exc:
            log.warning("could not remove unusable lesson thread %s: %s", thread_id, exc)

    async def answer(self, interaction: discord.Interaction, game_id: str, path: str, learner: int,
                     option: int) -> None:
        """The learner's pick after the answers of ``path``: the message is edited to the next step, or to the same step with why.
        Anyone else is refused (ephemeral)."""
        lang = reader_lang()
        if interaction.user.id != learner:
            await self.bot.answers.refuse(interaction, T("This is <@{learner}>'s lesson: /learn {game} for your own.",
                                                         learner=str(learner), game=game_id))
            return
        try:
            page = lessons.answer(game_id, path, option)
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, refusal(exc))
            return
        name = interaction.user.display_name
        mention = "" if interaction.message is None or interaction.message.flags.ephemeral else f"<@{learner}>\n"
        await interaction.response.defer()  # the board is drawn in a worker: the message is edited after
        await interaction.edit_original_response(content=(mention + lessons.text(page, lang, name))[:2000],
                                                 view=lesson_view(page, learner, lang, name),
                                                 attachments=await self.board(page, lang, name))
