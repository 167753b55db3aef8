"""The offline chat adapter: the sandbox and the transcript runner (ARCHITECTURE.md, "Offline adapters").

A line is ``[#channel] name [+ms]: text``:
- ``text`` is a command (``/play tatari first=random`` — add ``ai:<n> [level:<level>]`` to seat AI players
  —, ``/join``, ``/leave``, ``/start``, ``/cancel``,
  ``/move <option id or number>``, ``/board``, ``/rules [game] [topic]``, ``/history``, ``/resign``, ``/abandon``,
  ``/undo``, ``/wait <ms>``, ``/games``, ``/help``; results: ``/stats [name] [game]``, ``/leaderboard <game>``,
  ``/replay [#game]`` — cards and the replay GIF are written to ``out_dir``), or a choice: an option's number from the last list shown to that
  player, its id (``set:4``), or a chat word the game knows (``Game.chat_word``, e.g. "hai"; Tatari's faces: "1"
  is the face 1). A chat word that answers an open decision comes before a list number.
- ``+ms`` times the line that many ms after the current decisions opened (for a race: after the roll), so races
  are reproducible (RULINGS C-4/TK-10). Lines without it happen at the current virtual time. ``/wait <ms>`` (with or
  without a name) advances the virtual clock and fires the deadlines passed.
- ``#channel`` picks the channel (default ``#table``); each channel has its own session.
- Blank lines and lines starting with ``#`` followed by a space are comments.

Replies are lines of text; board images are written to ``out_dir`` and their paths included in the replies.
Player ids are the names typed; AI seats (``ai:<level>:<n>``) show as "AI · Strong". After every line the AI seats
play what is theirs: the virtual clock moves to each AI timer (their pause, a race input's reaction time) as long as
no deadline of the people's decisions comes first.
"""

from __future__ import annotations

import asyncio
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import games
import renderers
from games.core import N, T, Text, player_ref

from .. import i18n, results
from ..ai_seats import ai_name, is_ai
from ..board_text import board_lines, is_number, shows_position, typed_choice
from ..i18n import refusal, say, speaking, translator
from ..rules_help import SANDBOX_HELP, sandbox_rules
from ..service import lessons
from ..service.hints import hint_lines, hints_value, learn_line, turning_job, turning_lines
from ..service.lessons import LessonPage
from ..sessions import AI_MOVE, AI_RACE, DEADLINE, MAX_MS, SessionError, SessionService, Update

LINE = re.compile(r"^\s*(?:\[\s*#(?P<bchan>[\w-]+)\s*\]\s*|#(?P<chan>[\w-]+)\s+)?(?P<name>[\w.-]+)\s*"
                  r"(?:\+(?P<offset>\d+)|\[\s*\+(?P<boffset>\d+)\s*\])?\s*:\s*(?P<text>.*)$")
"""``[#channel] name [+ms]: text``; the channel and the offset may be typed with or without the brackets of the
notation (``[#ch2] carol: 2`` is ``#ch2 carol: 2``)."""
FORMAT_HINT = T("a line is '[#channel] name [+ms]: text', the parts in brackets optional, e.g. 'alice: /play "
                "tatari', '#ch2 carol: /join', 'bob +1200: hai'.")
"""What a line that cannot be read is answered with, after the line itself."""
MAX_WAIT_MS = 365 * 24 * 3600 * 1000
"""The longest ``/wait`` and ``+ms`` offset (a year): keeps the virtual clock within what the store holds."""


def lesson_board(page: lessons.LessonPage, lang: str, learner: str) -> bytes:
    """The PNG of the board a lesson step speaks of, drawn as every turn's board is (the learner and the Teacher
    named as :func:`bot.service.lessons.seat_names` does). ``ValueError`` for a finished lesson's page."""
    if page.state is None:
        raise ValueError("a finished lesson has no board")
    return renderers.render(page.state, lessons.seat_names(lang, learner), translate=translator(lang))


@dataclass
class Channel:
    name: str
    shown: dict[str | None, list[str]] = field(default_factory=dict)  # player (None: anyone) -> option ids shown
    mark_ms: int = 0  # virtual time at which the current decisions opened
    mark_key: tuple = ()  # (kind, player, deadline) of those decisions


SANDBOX_COMMANDS = ("play", "join", "leave", "cancel", "start", "move", "board", "history", "resign", "abandon",
                    "undo", "wait", "rules", "games", "mygames", "help", "stats", "leaderboard", "replay", "learn",
                    "hint", "here")
"""The sandbox's commands, by their English names."""


def _english_command(cmd: str, lang: str) -> str:
    """The sandbox command ``cmd`` names: itself, or the English name of a slash command's name in ``lang`` (the
    refusals a Japanese table reads say /参加, as its Discord client does), e.g. "参加" -> "join"."""
    if lang == "en" or cmd in SANDBOX_COMMANDS:
        return cmd
    for english in SANDBOX_COMMANDS:
        if i18n.translations(lang).pgettext("command_name", english) == cmd:
            return english
    return cmd


class LocalChat:
    """Several people typing in local channels. ``clock`` is virtual: starts at ``start_ms``."""

    def __init__(self, service: SessionService, out_dir: Path | None, start_ms: int = 1_700_000_000_000,
                 images: bool = True, lang: str = "en") -> None:
        self.service = service
        self.lang = lang  # the language of every reply (bot.i18n.LANGUAGES)
        self.out_dir = out_dir
        self.images = images and out_dir is not None
        self.now = start_ms
        self.channels: dict[str, Channel] = {}
        self.lessons: dict[str, LessonPage] = {}  # a person's open lesson (/learn): its current page
        self.image_count = 0
        service.clock = lambda: self.now

    # -- input ------------------------------------------------------------------------------------------------
    async def line(self, raw: str) -> list[str]:
        """Handle one transcript line; returns the reply lines (errors start with ``!``), in :attr:`lang`."""
        with speaking(self.lang):  # AI seats' names, cards and every text with no language of its own
            return [say(r, self.lang, player_name) for r in await self._line(raw)]

    async def _line(self, raw: str) -> list[str]:
        raw = raw.rstrip("\r\n").lstrip("\ufeff")  # a Windows transcript: CRLF, a byte-order mark
        if not raw.strip() or raw.lstrip().startswith("# ") or raw.strip() == "#":
            return []
        if raw.strip().startswith("/wait"):
            raw = "clock: " + raw.strip()
        m = LINE.match(raw)
        if not m:
            return [Text.join("", ["! ", T("Cannot read {line}: {hint}", line=repr(raw), hint=FORMAT_HINT)])]
        chan = await self._channel(m["chan"] or m["bchan"] or "table")
        name, text = m["name"], m["text"].strip()
        offset = m["offset"] or m["boffset"]
        at = None
        if offset is not None:
            if int(offset) > MAX_WAIT_MS:
                return [Text.join("", [f"! {name}: ", T("The offset +{offset} ms is too far: at most +{most} ms (a year).",
                                                        offset=str(offset), most=str(MAX_WAIT_MS))])]
            at = chan.mark_ms + int(offset)
            out = await self._advance(max(self.now, at))
        else:
            out = []
        try:
            out += await self._handle(chan, name, text, at)
        except SessionError as exc:
            out.append(f"! {name}: {say(refusal(exc), self.lang, player_name)}")
            return out
        return out + await self._ai_turns()

    async def _ai_turns(self, limit: int = 10_000) -> list[str]:
        """Let the AI seats play: move the virtual clock to each AI timer in turn (an AI move after its
        pause, a race input at its reaction time) and fire it, until none is left or a deadline of the people's
        decisions comes first (then the people have their say, or ``/wait``)."""
        out: list[str] = []
        seen: set[int] = set()
        for _ in range(limit):
            timers = await self.service.timers.due(MAX_MS, [AI_MOVE, AI_RACE, DEADLINE])
            first = next((t for t in timers if t.kind != DEADLINE), None)
            deadline = next((t for t in timers if t.kind == DEADLINE), None)
            if first is None or first.id in seen or (deadline is not None and deadline.due_ms < first.due_ms):
                break
            seen.add(first.id)
            out += await self._advance(max(self.now, first.due_ms))
        return out

    def _learn(self, name: str, args: list[str]) -> list[str]:
        """``/learn GAME`` opens ``name``'s guided first game of GAME (:mod:`bot.service.lessons`; no session, nothing
        recorded); ``/learn N`` answers its current step with option number ``N``. With images on, each step's board
        is written as every turn's is (a ``[board] path`` line)."""
        if not args:
            raise SessionError(T("Name a game: /learn <game>, then answer with /learn <number>. {games}",
                                 games=self._games_line()))
        if is_number(args[0]):
            open_page = self.lessons.get(name)
            if open_page is None:
                raise SessionError(T("You have no lesson open: /learn <game> starts one."))
            page = lessons.answer(open_page.game, open_page.path, int(args[0]) - 1)
        else:
            page = lessons.page(args[0].lower())
        if page.done:
            self.lessons.pop(name, None)
        else:
            self.lessons[name] = page
        reply = lessons.text(page, self.lang, name, numbered=True)
        if self.images and page.state is not None:  # the board the step speaks of, as every turn shows it
            png = lesson_board(page, self.lang, name)
            path = self._write_file(f"lesson-{name}-{page.game}-{page.step + 1:02d}.png", png)
            reply = f"{reply}\n[board] {path}"
        return [reply]

    async def _channel(self, key: str) -> Channel:
        """The channel ``key``. First seen with a game already running (the sandbox restarted on its database), the
        virtual clock goes on from the game's last move, and ``+ms`` offsets count from that move."""
        chan = self.channels.get(key)
        if chan is not None:
            return chan
        chan = self.channels[key] = Channel(key)
        row = await self.service.reads.live_session(key)
        if row is not None and row.status == "active":
            times = [m.at_ms for m in await self.service.reads.moves(row.id) if m.at_ms is not None]
            self.now = max([self.now, *times])
            up = await self.service.show(key)
            chan.mark_ms = max(times, default=self.now)
            chan.mark_key = tuple((d.kind, d.player, d.deadline_ms) for d in up.pending)
        return chan

    async def _advance(self, to_ms: int) -> list[str]:
        """Move the virtual clock to ``to_ms``, firing the deadlines passed on the way."""
        out: list[str] = []
        self.now = max(self.now, to_ms)
        for update in await self.service.tick(self.now):
            chan = self.channels.setdefault(update.session.channel_id, Channel(update.session.channel_id))
            out += self._show(chan, update)
        return out

    async def _handle(self, chan: Channel, name: str, text: str, at: int | None) -> list[str]:
        svc, ch = self.service, chan.name
        if not text.startswith("/"):
            return await self._choose(chan, name, text, at)
        try:
            parts = shlex.split(text[1:])
        except ValueError:
            parts = text[1:].split()
        cmd, args = (parts[0].lower(), parts[1:]) if parts else ("", [])
        cmd = _english_command(cmd, self.lang)
        if cmd == "learn":
            return self._learn(name, args)
        if cmd == "play":
            if not args:
                raise SessionError(T("Name a game: /play <game>. {games}", games=self._games_line()))
            opts, ai, level, hints = {}, 0, None, None
            for a in args[1:]:
                key, colon, value = a.partition(":")
                if colon and key.lower() in ("ai", "level", "hints"):
                    if key.lower() == "hints":
                        hints = hints_value(value)
                    elif key.lower() == "level":
                        level = value
                    elif not is_number(value) or int(value) > 10:
                        raise SessionError(T("Say how many AI players: ai:<n>, a number from 0 to 10, not {typed}.",
                                             typed=repr(a)))
                    else:
                        ai = int(value)
                    continue
                if "=" not in a:
                    raise SessionError(T("Options are key=value, not {typed}.", typed=repr(a)))
                k, v = a.split("=", 1)
                opts[k] = v
            if level is not None and not ai:
                raise SessionError(T("level: goes with ai:<n>, the number of AI players to seat (ai:1 level:strong)."))
            return self._show(chan, await svc.open_lobby(ch, args[0].lower(), name, opts, ai_seats=ai,
                                                         ai_level=level, hints=hints))
        if cmd == "join":
            return self._show(chan, await svc.join(ch, name))
        if cmd == "leave":
            return self._show(chan, await svc.leave(ch, name))
        if cmd == "cancel":
            return self._show(chan, await svc.cancel(ch, name))
        if cmd == "start":
            return self._show(chan, await svc.start(ch, name))
        if cmd == "move":
            if not args:
                raise SessionError(T("Say which: /move <number or option id>."))
            return await self._choose(chan, name, " ".join(args), at)
        if cmd == "board":
            return self._show(chan, await svc.show(ch), board=True)
        if cmd == "history":
            events = await svc.history(ch)
            return [say(e.text, self.lang, player_name) for e in events] or [say(T("Nothing has happened yet."),
                                                                                    self.lang)]
        if cmd == "resign":
            return self._show(chan, await svc.resign(ch, name))
        if cmd == "abandon":
            return self._show(chan, await svc.abandon(ch, name))
        if cmd == "undo":
            return await self._undo(chan, name, args)
        if cmd == "wait":
            if len(args) != 1 or not is_number(args[0]) or int(args[0]) > MAX_WAIT_MS:
                raise SessionError(T("Say how long: /wait <ms>, a whole number from 0 to {most} (a year).",
                                     most=str(MAX_WAIT_MS)))
            return await self._advance(self.now + int(args[0]))
        if cmd == "rules":
            return [sandbox_rules(*args[:2], lang=self.lang)]
        if cmd == "games":
            return [self._games_line()]
        if cmd == "mygames":
            return await self._mygames(name)
        if cmd == "help":
            return [SANDBOX_HELP, results.RATING_HELP]
        if cmd == "stats":
            return await self._stats(name, args)
        if cmd == "leaderboard":
            return await self._leaderboard(args)
        if cmd == "replay":
            return await self._replay(ch, args)
        if cmd == "here":  # a live table's "I'm here" (Discord: the button on a held board)
            row = await svc.reads.live_session(ch)
            if row is None:
                raise SessionError(T("No game here. Start one with /play."))
            return self._show(chan, await svc.presence.here(ch, row.id, name))
        if cmd == "hint":  # only for the one who typed it (Discord: ephemeral)
            return hint_lines(await svc.hints.hint(ch, name), player_name, self.lang)
        raise SessionError(T("Unknown command /{command}. {help}", command=cmd, help=SANDBOX_HELP))

    async def _undo(self, chan: Channel, name: str, args: list[str]) -> list[str]:
        """``/undo``: ask to take back the last move, or approve another player's request; ``/undo no`` refuses it
        (the service's undo rule: a seated player asks, the other seated people approve)."""
        svc, no = self.service, bool(args) and args[0].lower() in ("no", "n")
        row = await svc.reads.live_session(chan.name)
        vote = await svc.pending_undo(row.id) if row is not None else None
        if vote is not None and vote.get("version") == row.version:  # a vote (the asker is told to wait)
            v = await svc.vote_undo(row.id, row.version, name, not no)
            if v.refused_by is not None:
                return [T("{player} refused to undo the last move.", player=name)]
            if v.update is not None:
                return [T("Everyone approved: the last move is taken back."), *self._show(chan, v.update)]
            return [T("{player} asks to take back the last move. Approved by {approved}; waiting for {waiting}.",
                      player=player_name(v.by), approved=Text.join(T(", "), list(map(player_name, v.approved))),
                      waiting=Text.join(T(", "), list(map(player_name, v.waiting))))]
        if no:
            raise SessionError(T("No undo request is open: /undo asks for one."))
        v = await svc.ask_undo(chan.name, name)
        if v.update is not None:
            return self._show(chan, v.update)
        return [T("{player} asks to take back the last move. {waiting}: approve with /undo, or refuse with /undo no. "
                  "(Any move meanwhile cancels the request.)", player=name,
                  waiting=Text.join(T(", "), list(map(player_name, v.waiting))))]

    # -- results -------------------------------------------------------------------------------------------
    async def _stats(self, name: str, args: list[str]) -> list[str]:
        """``/stats [name] [game]``: a word that is a game id is the game, the other the player (default: you)."""
        known = {g.id for g in games.all()}
        game_id = next((a.lower() for a in args if a.lower() in known), None)
        others = [a for a in args if a.lower() != game_id]
        if len(others) > 1:
            raise SessionError(T("Say /stats [name] [game]; '{word}' is not a game. {games}", word=others[1],
                                 games=self._games_line()))
        who = others[0] if others else name
        records = self.service.records
        player = await records.player_by_name(None, who)
        stats = await records.player_stats(None, player, game_id) if player else None
        if stats is None:
            if player is None and others and len(args) == 1 and not game_id:
                raise SessionError(T("Nobody called '{who}' has played here, and there is no game called '{who}'. "
                                     "{games}", who=who, games=self._games_line()))
            if game_id:
                raise SessionError(T("You have no recorded games of {game} yet.", game=games.get(game_id).title)
                                   if who == name else T("{who} has no recorded games of {game} yet.", who=who,
                                                         game=games.get(game_id).title))
            raise SessionError(T("You have no recorded games yet.") if who == name else
                               T("{who} has no recorded games yet.", who=who))
        out = say(results.stats_text(stats), self.lang).split("\n")
        path = self._write_file(f"stats-{who}.png", results.stats_card(stats))
        return out + ([f"[card] {path}"] if path else [])

    async def _leaderboard(self, args: list[str]) -> list[str]:
        if len(args) != 1:
            raise SessionError(T("Name a game: /leaderboard <game>. {games}", games=self._games_line()))
        game = self.service.game(args[0].lower())
        standings = await self.service.records.leaderboard(None, game.id)
        if not standings:
            raise SessionError(T("No rated games of {game} yet: finish a game with two or more players.",
                                 game=game.title))
        out = say(results.leaderboard_text(game, standings, T("this table")), self.lang).split("\n")
        path = self._write_file(f"leaderboard-{game.id}.png", results.leaderboard_card(game, standings,
                                                                                        T("this table")))
        return out + ([f"[card] {path}"] if path else [])

    async def _replay(self, channel: str, args: list[str]) -> list[str]:
        """``/replay [#game]``: the animation of a game that ended in this channel (default: the last one) and the
        game's turning points."""
        records, reads = self.service.records, self.service.reads
        if not args:
            recent = await records.channel_records(channel, limit=1)
            if not recent:
                raise SessionError(T("No game has ended in this channel yet: /replay shows games that ended here."))
            sid = recent[0][0]
        else:
            text = args[0].lstrip("#")
            if not is_number(text) or len(text) > 18:
                raise SessionError(T("'{typed}' is not a game of this channel: say /replay #<game number>.",
                                     typed=args[0]))
            sid = int(text)
        record = await records.game_record(sid)
        if record is None or record.channel_id != channel:
            raise SessionError(T("Game #{sid} did not end in this channel.", sid=str(sid)))
        if self.out_dir is None:
            raise SessionError(T("Replays are written as files: run with --out DIR."))
        row = await reads.session(sid)
        game = self.service.game(row.game_id)
        gif = await asyncio.to_thread(results.replay_gif, game, row.players, row.options, row.seed,
                                      await reads.moves(sid))
        path = self._write_file(f"replay-{sid}.gif", gif, force=True)
        turning = [] if record.outcome == "abandoned" else turning_lines(await asyncio.to_thread(
            turning_job, row.game_id, row.players, row.options, row.seed, await reads.moves(sid)),
            player_name, self.lang)
        return [T("Replay of #{sid} {game} ({moves}): {path}", sid=str(sid), game=game.title,
                  moves=N("{n} move", "{n} moves", n=record.moves), path=path), *turning]

    def _write_file(self, name: str, data: bytes, force: bool = False) -> str | None:
        """Write ``data`` to ``out_dir/name`` (cards only when images are on); returns the path or None."""
        if self.out_dir is None or not (self.images or force):
            return None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / name
        path.write_bytes(data)
        return str(path)

    async def _mygames(self, name: str) -> list[str]:
        """``/mygames``: the speaker's lobbies and games in every channel, those waiting on them first
        (:mod:`bot.service.members`), each with its channel, whom it waits on (the missing people a live table's
        roll waits for, not the roller) and an undo request waiting for their vote."""
        entries = await self.service.members.of(name)
        if not entries:
            return [say(T("You are not seated in any game or lobby. /play opens one."), self.lang)]
        out = [say(T("Your games ({n}); waiting on you: {waiting}.", n=len(entries),
                     waiting=sum(1 for e in entries if e.mine)), self.lang)]
        for e in entries:
            where = "#" + e.row.channel_id
            if e.lobby:
                line = T("{channel} {game}: lobby, waiting for the host, {host}", channel=where, game=e.game.title,
                         host=player_ref(e.row.host))
            elif e.mine and e.held:
                line = T("{channel} {game}: the roll waits for you (you missed the last race)", channel=where,
                         game=e.game.title)
            elif e.mine:
                line = T("{channel} {game}: your move", channel=where, game=e.game.title)
            else:
                line = T("{channel} {game}: waiting on {players}", channel=where, game=e.game.title,
                         players=Text.join(T(", "), [player_ref(p) for p in e.waits_on]))
            if e.undo_vote:
                line = T("{line} (an undo request waits for your vote)", line=line)
            out.append(say(line, self.lang, player_name))
        return out

    @staticmethod
    def _games_line() -> str:
        listed = [T("{game} ({seats})", game=g.id, seats=g.seats_summary()) for g in games.all()]
        return T("Games: {games}.", games=Text.join(T(", "), listed))

    async def _choose(self, chan: Channel, name: str, text: str, at: int | None) -> list[str]:
        """A choice by number (from the last list shown to ``name``), by option id, or by a chat word
        (:func:`bot.board_text.typed_choice`)."""
        update = await self.service.show(chan.name)
        choice = typed_choice(update.pending, name, text, seated=name in update.session.players,
                              word=update.game.chat_word, numbers=chan.shown.get(name) or chan.shown.get(None) or [])
        return self._show(chan, await self.service.act(chan.name, name, choice, at_ms=at))

    # -- output -----------------------------------------------------------------------------------------------
    def _show(self, chan: Channel, update: Update, board: bool = False) -> list[str]:
        """The replies to ``update``: the lobby line, or the board in plain text (:func:`bot.board_text.board_lines`
        decides what it says; ``board``: asked for by ``/board``); remembers the lists shown and when the decisions
        opened (``+ms`` offsets count from then)."""
        row = update.session
        if row.status == "lobby":
            game = update.game
            return [*(say(n, self.lang, player_name) for n in update.notes),
                    *(say(e.text, self.lang, player_name) for e in update.events),
                    say(T("[{title} lobby] seats {n}: {names} (host {host}). {need} /join, /start",
                          title=game.title, n=len(row.players), names=Text.join(T(", "), [player_name(p) for p in row.players]),
                          host=player_name(row.host), need=game.lobby_need(len(row.players), row.options)), self.lang),
                    *([say(learn, self.lang)] if (learn := learn_line(row)) is not None else [])]
        key = tuple((d.kind, d.player, d.deadline_ms) for d in update.pending)
        if key != chan.mark_key:  # new decisions: offsets (+ms) now count from here
            chan.mark_ms, chan.mark_key = self.now, key
        image = self._write_image(update) if self.images and shows_position(update, asked=board) else None
        chan.shown = {d.player: [o.id for o in d.options] for d in update.pending
                      if d.player is not None or d.options}  # key None: a list anyone may answer (a race)
        return board_lines(update, player_name, markdown=False, options="listed", image=image, asked=board,
                           since_ms=chan.mark_ms, lang=self.lang)

    def _write_image(self, update: Update) -> str:
        assert self.out_dir is not None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.image_count += 1
        path = self.out_dir / f"{update.session.channel_id}-{update.session.id:03d}-v{update.session.version:04d}.png"
        try:
            names = {p: ai_name(p, self.lang) if is_ai(p) else p for p in update.session.players}
            png = renderers.render(update.state, names, translate=translator(self.lang))
        except KeyError:
            return "(no renderer for this game yet)"
        path.write_bytes(png)
        return str(path)


def player_name(player: str) -> str:
    """How the local chat shows a player: the name typed, or an AI seat's name ("AI · Strong")."""
    return ai_name(player) if is_ai(player) else player


