"""Results that last: ``/stats``, ``/leaderboard``, ``/replay``, the result message of every finished game (summary
card, ranking with rating changes, a "Replay" button) and that button.

Every answer is ephemeral unless ``public:true``; cards and animations are drawn in worker processes under
per-member and per-server quotas (:mod:`bot.heavy`: a refusal is one ephemeral "Busy — try again in N s" line), and
each game's replay is built once and kept; a command that draws defers the interaction first. The records and
ratings come from the session service's ``records`` (``RecordStore`` of ``bot/store/records.py``, written when a game ends).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot import results
from bot.board_text import display
from bot.heavy import Busy, Heavy, replay_key
from bot.i18n import reader_lang, say, table_lang
from bot.privacy import replays_dir
from bot.service.hints import hinted_line, turning_lines
from bot.sessions import SessionError, Update
from games.core import N, T

from . import ids
from .answers import NO_PINGS, THINKING, answer
from .components import in_budget
from .lobby import game_autocomplete
from .present import mention

if TYPE_CHECKING:
    from .bot import PlayBot

log = logging.getLogger(__name__)
TURNING_WAIT_S = 2.0
"""How long a result message waits for its turning points after its card is drawn (s); then it goes out with one
"skipped" line instead."""
REPLAY_TURNING_WAIT_S = 3.0
"""How long ``/replay`` waits for the game's turning points once its animation is ready (s)."""


def card_file(png: bytes, name: str, alt: str | None = None) -> discord.File:
    """A card image as the attachment ``<name>.png`` whose ``description`` (alt text) is ``alt``
    (:func:`bot.results.card_alt`)."""
    return discord.File(io.BytesIO(png), filename=f"{name}.png", description=alt[:1024] if alt else None)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.REPLAY):
    """ "Replay" on a result message: the animation of session ``sid``, only for the presser."""

    interaction_check = in_budget  # the reader's language noted, deferred when late

    def __init__(self, sid: int) -> None:
        super().__init__(discord.ui.Button(label=say(T("Replay")), style=discord.ButtonStyle.secondary, emoji="🎞️",
                                           custom_id=ids.replay(sid)))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match, /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.results.replay_game(interaction, self.sid, public=False)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.REMATCH):
    """ "Rematch" on a result message: a lobby for the same table (the presser hosts; the others join with it)."""

    interaction_check = in_budget

    def __init__(self, sid: int) -> None:
        super().__init__(discord.ui.Button(label=say(T("Rematch")), style=discord.ButtonStyle.primary, emoji="🔁",
                                           custom_id=ids.rematch(sid)))
        self.sid = sid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match, /):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction[PlayBot]) -> None:
        await interaction.client.results.rematch(interaction, self.sid)


REPLAY_WAIT_S = 10.0
"""How long a /replay (or a Replay press) waits for its animation before it answers that the replay is still being
drawn; the drawing goes on and is kept, so asking again later sends it at once."""


def _late_replay(sid: int, build: asyncio.Future) -> None:
    """A replay drawn after its asker was told to come back: log it when it failed (nobody else awaits it)."""
    if not build.cancelled() and build.exception() is not None:
        log.error("replay of session %s failed", sid, exc_info=build.exception())


class Results(commands.Cog):
    """Stats, leaderboards, replays and result messages."""

    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        settings = bot.settings
        self.heavy = Heavy(replays_dir(settings),
                           getattr(settings, "replay_cache_mb", 256), clock=bot.service.clock,
                           workers=getattr(settings, "heavy_processes", 1))

    async def cog_unload(self) -> None:
        self.heavy.close()

    @property
    def service(self):
        return self.bot.service

    # -- the result message ---------------------------------------------------------------------------------------
    async def post_result(self, update: Update) -> None:
        """After a game's final board: the result message (ranking, scores, rating changes, the summary card and
        a "Replay" button) in the game's channel; without Attach Files, the same message without the card."""
        record = update.record
        if record is None:
            return
        if update.result is not None and update.result.reason:  # the reason as a text, in the table's language
            record = dataclasses.replace(record, reason=update.result.reason)
        title = games.get(record.game_id).title if record.game_id in {g.id for g in games.all()} else record.game_id
        names = await self.bot.links.names(record.session_id)
        lines = [T("🏁 **{title}** — result", title=title), *results.summary_lines(record, names, update.result)]
        used = hinted_line(update.session, partial(display, names))
        if used is not None:
            lines.append("-# " + used)
        elif not record.rated:
            lines.append(T("-# Not rated (fewer than two ranked seats)."))
        turning = self._turning(record.session_id, update.session)
        try:
            details = update.game.status(update.state) if update.state is not None else ""
            png = await self.heavy.card("summary", record, details, lang=table_lang())
        except Exception:
            log.exception("summary card of session %s failed", record.session_id)
            png = None
        self.heavy.warm_replays()  # its Replay button may be pressed soon
        lines += await self._turning_lines(turning, names, TURNING_WAIT_S)
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(record.session_id))
        if record.outcome == "finished":
            view.add_item(RematchButton(record.session_id))
        alt = results.card_alt("summary", record, details, names=names) if png else None
        pinged = await self.bot.notify.end_pings(update)  # the end reaches the seated players once
        if pinged:
            lines.append(T("🔔 {players}: the game is over.", players=", ".join(mention(p) for p in pinged)))
        text = "\n".join(say(line) for line in lines)[:2000]
        told = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(p)) for p in pinged])
        # without Attach Files (Discord answers 403) the same text and button go out without the card
        await self.bot.answers.send(None, record.channel_id, text,
                                   file=card_file(png, f"result-{record.session_id}", alt) if png else None, view=view,
                                   plain=text, mentions=told)

    async def rematch(self, interaction: discord.Interaction, sid: int) -> None:
        """The Rematch button (:meth:`bot.service.rematch.Rematch.press`): the first press opens the lobby (its card
        is the answer, its expiry armed), each later press by a player of that game joins it (the card is edited,
        the presser told). A refusal is ephemeral and changes nothing."""
        user = interaction.user
        try:
            update, opened = await self.service.rematch.press(
                str(interaction.channel_id), sid, str(user.id),
                guild_id=str(interaction.guild_id) if interaction.guild_id else None)
            await self.bot.links.add_name(update.session.id, str(user.id), user.display_name)
            if opened:
                await self.bot.lobby.arm(update.session)
                await self.bot.lobby.send_card(interaction, update)
            else:
                await self.bot.lobby.refresh_card(update)
                await self.bot.answers.tell(interaction, T("You joined the rematch."))
        except SessionError as exc:
            await self.bot.answers.refuse(interaction, str(exc))
        except Exception:
            log.exception("rematch of session %s failed", sid)
            await self.bot.answers.refuse(interaction, T("Something went wrong on our side; nothing changed."))

    def _turning(self, sid: int, row) -> asyncio.Future | None:
        """The turning points of finished session ``row`` computing in a card worker (None under load: every
        card worker busy)."""
        if row is None or self.heavy.loaded():
            return None

        async def compute():
            moves = await self.service.reads.moves(sid)
            return await self.heavy.turning_points(row.game_id, row.players, row.options, row.seed, moves)

        return asyncio.ensure_future(compute())

    async def _turning_lines(self, turning: asyncio.Future | None, names: dict[str, str], wait_s: float,
                             lang: str | None = None) -> list[str]:
        """The turning points' lines once ``turning`` is done, waiting at most ``wait_s`` more (never holding up a
        result for long); "skipped" (one line) when it was not started, did not finish in time, or failed."""
        points = None
        if turning is not None:
            try:
                points = await asyncio.wait_for(turning, wait_s)
            except Exception:  # late (the bot is busy) or broken: the result goes out without them
                log.info("turning points skipped", exc_info=True)
        return turning_lines(points, partial(display, names), lang)

    # -- /stats ---------------------------------------------------------------------------------------------------
    @app_commands.command(name="stats", description="A player's games, wins, places and rating in this server")
    @app_commands.describe(member="Whose stats (default: yours)", game="Only this game",
                           public="Post them in the channel for everyone")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None,
                    game: str | None = None, public: bool = False) -> None:
        who = member or interaction.user
        game_id = self.bot.service.game(game).id if game else None
        stats = await self.service.records.player_stats(str(interaction.guild_id), str(who.id), game_id)
        # a member the payload did not resolve is a bare discord.Object (no name): their mention stands in
        label = getattr(who, "display_name", None) or f"<@{who.id}>"
        if stats is None:
            mine = who.id == interaction.user.id
            if game_id:
                title = games.get(game_id).title
                raise SessionError(T("You have no recorded games of {game} in this server yet.", game=title) if mine
                                   else T("{who} has no recorded games of {game} in this server yet.", who=label,
                                          game=title))
            raise SessionError(T("You have no recorded games in this server yet.") if mine
                               else T("{who} has no recorded games in this server yet.", who=label))
        with self.heavy.admit(interaction.user.id, interaction.guild_id):
            await self._defer(interaction, public)
            png = await self.heavy.card("stats", stats, label, lang=None if public else reader_lang())
        await self._answer(interaction, say(results.stats_text(stats, label), None if public else reader_lang()), png, f"stats-{who.id}", public,
                           results.card_alt("stats", stats, label, lang=None if public else reader_lang()))

    # -- /leaderboard ---------------------------------------------------------------------------------------------
    @app_commands.command(name="leaderboard", description="The top 10 of this server in a game, by rating")
    @app_commands.describe(game="Which game", public="Post it in the channel for everyone")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str, public: bool = False) -> None:
        g = self.bot.service.game(game)
        standings = await self.service.records.leaderboard(str(interaction.guild_id), g.id)
        if not standings:
            raise SessionError(T("No rated games of {game} in this server yet: finish a game with two or more "
                                 "players.", game=g.title))
        with self.heavy.admit(interaction.user.id, interaction.guild_id):
            await self._defer(interaction, public)
            png = await self.heavy.card("leaderboard", g.id, standings,
                                        lang=None if public else reader_lang())
        await self._answer(interaction, say(results.leaderboard_text(g, standings), None if public else reader_lang()),
                           png, f"leaderboard-{g.id}", public,
                           results.card_alt("leaderboard", g.id, standings, lang=None if public else reader_lang()))

    # -- /replay --------------------------------------------------------------------------------------------------
    async def replay_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice]:
        """This channel's recorded games, newest first ("#12 Tatari · 2026-12-01 · finished")."""
        needle = current.lower().strip().lstrip("#")
        out = []
        for sid, game_id, ended, outcome in await self.service.records.channel_records(str(interaction.channel_id)):
            told = {"finished": T("finished"), "abandoned": T("abandoned")}.get(outcome, outcome)
            label = say(T("#{sid} {game} · {date} · {outcome}", sid=str(sid), game=results._title(game_id),
                          date=results.date_text(ended), outcome=told), reader_lang())
            if needle in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=str(sid)))
        return out[:25]

    @app_commands.command(name="replay", description="Watch an earlier game of this channel again (animated)")
    @app_commands.describe(game="Which game (default: the last one here)", public="Post it for everyone")
    @app_commands.autocomplete(game=replay_autocomplete)
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        channel = str(interaction.channel_id)
        if game is None:
            recent = await self.service.records.channel_records(channel, limit=1)
            if not recent:
                raise SessionError(T("No game has ended in this channel yet: /replay shows games that ended here."))
            sid = recent[0][0]
        else:
            text = game.strip().lstrip("#")
            if not (text.isascii() and text.isdigit()) or len(text) > 18:
                raise SessionError(T("'{game}' is not a game of this channel: pick one from the list "
                                     "(start typing), e.g. #12.", game=game[:40]))
            sid = int(text)
        await self.replay_game(interaction, sid, public=public)

    async def replay_game(self, interaction: discord.Interaction, sid: int, public: bool) -> None:
        """The animation of session ``sid`` (the Replay button, ``/replay``): refused for a game of another
        channel or one that never ended; a replay kept already is sent at once, else (when admitted) the
        interaction is deferred and the GIF built in a worker, kept, sent."""
        record = await self.service.records.game_record(sid)
        if record is None or record.channel_id != str(interaction.channel_id):
            await self.bot.answers.refuse(interaction, T("Game #{sid} did not end in this channel: /replay lists the "
                                                        "games of this channel.", sid=str(sid)))
            return
        row = await self.service.reads.session(sid)
        if row is None:
            await self.bot.answers.refuse(interaction, T("Game #{sid} is no longer stored.", sid=str(sid)))
            return
        names = await self.bot.links.names(sid)
        lang = table_lang() if public else reader_lang()
        key = replay_key(sid, row.game_id, row.seed, row.players, record.moves, names, lang)
        path = self.heavy.kept_replay(key)
        if path is None:
            try:
                ticket = self.heavy.admit(interaction.user.id, interaction.guild_id)
            except Busy as exc:
                await self.bot.answers.refuse(interaction, str(exc))
                return
            try:
                await self._defer(interaction, public)
                moves = await self.service.reads.moves(sid)
                build = asyncio.ensure_future(self.heavy.replay(key, row.game_id, row.players, row.options, row.seed,
                                                                moves, names, lang))
            except BaseException:
                ticket.release()
                raise
            build.add_done_callback(lambda _f: ticket.release())  # the member's drawing goes on until it is kept
            try:
                path = await asyncio.wait_for(asyncio.shield(build), REPLAY_WAIT_S)
            except TimeoutError:
                build.add_done_callback(functools.partial(_late_replay, sid))
                await self.bot.answers.refuse(interaction, T(
                    "The replay of game #{sid} is still being drawn; ask again in a minute and it comes at once.",
                    sid=str(sid)))
                return
            except Exception:
                log.exception("replay of session %s failed", sid)
                await self.bot.answers.refuse(interaction, T("The replay could not be built; the game's record is "
                                                          "unchanged."))
                return
        else:
            await self._defer(interaction, public)
        title = results._title(record.game_id)
        args = {"sid": str(sid), "game": title, "moves": N("{n} move", "{n} moves", n=record.moves),
                "date": results.date_text(record.ended_ms)}
        shown_lang = None if public else reader_lang()
        text = say(T("🎞️ Replay of #{sid} {game} ({moves}, {date}, abandoned)", **args)
                   if record.outcome == "abandoned" else T("🎞️ Replay of #{sid} {game} ({moves}, {date})", **args),
                   shown_lang)
        if record.outcome != "abandoned":
            text = "\n".join([text, *await self._turning_lines(self._turning(sid, row), names, REPLAY_TURNING_WAIT_S,
                                                                shown_lang)])[:2000]
        await answer(interaction, text, file=discord.File(path, filename=f"replay-{sid}.gif",
                                                          description=results.replay_alt(record, names, None if public else reader_lang())), ephemeral=not public,
                     allowed_mentions=NO_PINGS)

    # -- answering ------------------------------------------------------------------------------------------------
    @staticmethod
    async def _defer(interaction: discord.Interaction, public: bool) -> None:
        """"Thinking…" before drawing (a worker may take seconds), in the answer's visibility."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=not public, thinking=True)
            interaction.extras[THINKING] = "public" if public else "ephemeral"

    async def _answer(self, interaction: discord.Interaction, text: str, png: bytes, name: str,
                      public: bool, alt: str | None = None) -> None:
        await answer(interaction, text[:2000], file=card_file(png, name, alt), ephemeral=not public,
                     allowed_mentions=NO_PINGS)


__all__ = ["ReplayButton", "Results"]
