"""What a lobby card or a board message says and shows: its text and components (its image: :mod:`.images`).

What a board says is decided by :func:`bot.board_text.build_board`; :class:`BoardText` is its Discord form.
Pure functions over :class:`bot.sessions.Update` plus display names. Limits of Discord that shape the layout: 2000 characters of content, 5 action
rows a message, 5 buttons a row, 25 options a select menu, 80 characters a button label, 100 a select option label.
"""

from __future__ import annotations

import logging
import math

import discord

from bot import board_text as board_text_lines
from bot.ai_seats import LEVEL_NAMES, ai_name, is_ai
from bot.board_text import BUTTON_OPTIONS, button_label, display, fit_names
from bot.i18n import say, table_lang
from bot.results import FORMER_PLAYER
from bot.rules_help import AI_LEVEL_TEXT, live_line
from bot.service.hints import hints_on, learn_line
from bot.service.pace import PACE_WORDS
from bot.service.stand_in import ai_players, stand_ins
from bot.sessions import Update
from bot.store import SessionRow
from bot.store.privacy import is_former
from games import Decision, Game, marker_keys
from games.ai import LEVELS
from games.core import T, Text, describe_options

from . import ids
from .components import (
    AddAiSelect,
    ChoiceButton,
    ChoiceSelect,
    FullBoardButton,
    GroupSelect,
    HelpButton,
    HereButton,
    LobbyButton,
    RaceButton,
    RemoveAiSelect,
    SeatButton,
    TopicSelect,
)

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_MENU = 25


def mention(player: str) -> str:
    """``<@id>`` for a Discord user id; an AI seat by its name ("AI · Strong", never a ping); offline
    ids (names) stay as they are."""
    if is_ai(player):
        return ai_name(player)
    if is_former(player):
        return say(FORMER_PLAYER)
    return f"<@{player}>" if player.isdigit() else player


def as_mentions(text: str, lang: str | None = None) -> str:
    """``text`` in ``lang`` (default: the table's, :func:`bot.i18n.table_lang`), players as mentions."""
    return say(text, lang, mention)


def as_names(text: str, names: dict[str, str], lang: str | None = None) -> str:
    """``text`` in ``lang`` (default: the table's), players by their display names (components, images)."""
    return say(text, lang, lambda p: display(names, p))


def deciders(pending: list[Decision]) -> set[str]:
    """The players the pending decisions name (a race, ``player=None``, names nobody)."""
    return {d.player for d in pending if d.player}


def pings(pending: list[Decision], exclude: set[str] | frozenset[str] = frozenset()) -> discord.AllowedMentions:
    """Notify only the players the pending decisions name, minus ``exclude`` (the player who just clicked, players
    who muted their turn pings); mentions of anyone else in the text stay silent."""
    users = sorted(u for u in deciders(pending) - set(exclude) if u.isdigit())
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(u)) for u in users])


def clip(lines: list[str], limit: int = MAX_CONTENT, head: int = 1, tail: int = 0) -> str:
    """Join ``lines`` within ``limit`` characters: when too long, the oldest lines after the first ``head`` (and
    before the last ``tail``) fold into one "… N earlier" line."""
    return "\n".join(clip_lines(lines, limit, head, tail))[:limit]


def clip_lines(lines: list[str], limit: int = MAX_CONTENT, head: int = 1, tail: int = 0) -> list[str]:
    """The lines :func:`clip` joins: the last ``tail`` of them are always ``lines``' last ``tail``."""
    if len("\n".join(lines)) <= limit:
        return list(lines)
    top, body = lines[:head], lines[head:len(lines) - tail]
    bottom = lines[len(lines) - tail:] if tail else []
    dropped = 0
    while body and len("\n".join([*top, _earlier(dropped), *body, *bottom])) > limit:
        body.pop(0)
        dropped += 1
    return [*top, _earlier(dropped), *body, *bottom]


def _earlier(n: int) -> str:
    """The line standing for ``n`` folded lines, in the table's language."""
    return say(T("… {n} earlier", n=n))


# -- lobby ---------------------------------------------------------------------------------------------------------
def lobby_text(row: SessionRow, game: Game, notes: list[str] = ()) -> str:
    """The lobby card: game, host, seats, options, what to do next."""
    seats = "\n".join(say(T("{i}. {player} (host)", i=i, player=mention(p)) if p == row.host
                          else T("{i}. {player}", i=i, player=mention(p))) for i, p in enumerate(row.players, 1))
    lines = [as_mentions(n) for n in notes]
    if row.status == "lobby":
        counts = game.seat_counts(row.options) or [game.max_players]
        ready = len(row.players) in counts
        need = game.lobby_need(len(row.players), row.options)
        if ready:
            then: Text | str = T("The host, {host}, can press Start (or /start).", host=mention(row.host))
        elif len(row.players) < counts[0]:
            then = T("Press Join or use /join.")
        else:
            then = ""
        lines += [
            say(T("**{game}** lobby — {summary}", game=game.title, summary=game.summary) if str(game.summary)
                else T("**{game}** lobby", game=game.title)),
            say(T("Seats ({seated}/{seats}):", seated=len(row.players), seats=counts[-1])),
            seats,
            say(T("Options: {settings}", settings=_options_text(row.options))),
            say(T("Hints: on (/hint; a hinted game is unrated)") if hints_on(row) else T("Hints: off")),
            *([say(learn)] if (learn := learn_line(row)) is not None else []),
        ]
        if row.meta.get("pace") in PACE_WORDS:
            lines.append(say(T("Pace: {pace}", pace=PACE_WORDS[row.meta["pace"]])))
        lines += [
            _need_line(need, then),
        ]
        if game.live:
            lines.append(say(live_line(game)))
        if counts[-1] > 1 and len(row.players) < counts[-1]:
            lines.append(say(T("-# No one else around? The host can seat AI players with the Add AI menu.")))
    elif row.status == "abandoned":
        lines.append(say(T("The {game} lobby is closed.", game=game.title)))
    else:
        lines.append(say(T("**{game}** started with {players}: the board follows.", game=game.title,
                           players=Text.join(T(", "), [mention(p) for p in row.players]))))
    return clip(lines)


def _options_text(options: dict) -> str:
    """The lobby's options: in English as people read them (:func:`games.core.describe_options`, "void off ·
    first host"); in another language as the ``key=value`` pairs ``/play`` takes (`` `void=off` · `first=host` ``):
    the keys and values are what a player types, whatever their language."""
    if not options or table_lang() == "en":
        return describe_options(options)
    def value(v) -> str:
        return ("on" if v else "off") if isinstance(v, bool) else str(v)
    return " · ".join(f"`{k}={value(v)}`" for k, v in options.items())


def _need_line(need: str, then: Text | str) -> str:
    """The lobby card's line under the options: what the table needs (``Game.lobby_need``), then what to do."""
    if not then:
        return say(need)
    if not need:
        return " " + say(then)
    return say(T("{need} {then}", need=need, then=then))


_LEVEL_TEXT = {
    "easy": T("Random legal moves; avoids losing at once"),
    "normal": T("Greedy: the best-looking move now"),
    "strong": T("Searches ahead before each move"),
}
"""The "Add AI" menu's line per level (the wording of :data:`bot.rules_help.AI_LEVEL_TEXT`)."""


def level_text(level: str, lang: str | None = None) -> str | None:
    """An AI level's line (the "Add AI" menu, /play's level autocomplete) in ``lang`` (None: the table's)."""
    text = _LEVEL_TEXT.get(level)
    return say(text, lang) if text is not None else AI_LEVEL_TEXT.get(level)


def lobby_view(row: SessionRow, game: Game | None = None) -> discord.ui.View | None:
    """Join / Leave / Start / Cancel, "How to play", and for the host "Add AI" (a select of
    the levels, when the table seats more than one) and "Remove AI" (a select of the AI seats, when there are)."""
    if row.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(row.id, action))
    view.add_item(HelpButton(row.game_id, row=1))
    if game is not None and max(game.seat_counts(row.options) or [game.max_players]) > 1:
        view.add_item(AddAiSelect(row.id, [
            discord.SelectOption(label=say(T("Add AI · {level}", level=LEVEL_NAMES.get(lv) or lv.capitalize())),
                                 value=lv, description=level_text(lv))
            for lv in LEVELS], row=2))
    bots = [p for p in row.players if is_ai(p)]
    if bots:
        view.add_item(RemoveAiSelect(row.id, [discord.SelectOption(label=say(T("Remove {player}", player=ai_name(p))),
                                                                value=p)
                                              for p in bots[:MAX_MENU]], row=3))
    return view


# -- board ----------------------------------------------------------------------------------------------------------
def event_lines(update: Update) -> list[str]:
    """The bullet lines of ``update``'s events, as the board message shows them (:func:`bot.board_text.event_lines`)."""
    return board_text_lines.event_lines(update, mention, markdown=True)


class BoardText:
    """A board message's text, built once (:func:`bot.board_text.build_board` — where what a board says is
    decided) and taken in each form the message may go out in (:meth:`form`): Discord's form (mentions, markdown;
    within 2000 characters, the oldest event lines folded into "… N earlier").

    ``events``: the event lines to show (default: those of ``update``; the live message of a turn passes every line
    of the turn so far). ``first``: the first board of a game, which says in one line how to answer. ``names``: the
    players' display names, for the form without the image (numbered options). ``clock``: lines on time (the
    move's deadline, who is away; :meth:`bot.discord.notify.Notify.board_lines`), shown while the board is live."""

    def __init__(self, update: Update, with_status: bool = True, notes: list[str] = (),
                 events: list[str] | None = None, first: bool = False, names: dict[str, str] | None = None,
                 clock: list[str] = ()) -> None:
        self.board = board_text_lines.build_board(
            update, mention, markdown=True, listed=False, notes=notes, events=events, first=first, names=names,
            buttons_fit=_fits(update.pending), with_status=with_status, clock=clock)

    def form(self, *, numbered: bool = False, retired: bool = False) -> str:
        """The text with the board's image (options on buttons), or ``numbered``: without it (the options also as
        numbered lines under a note saying why); ``retired``: the same message once it is no longer live (a later
        board was posted)."""
        lines = self.board.lines("numbered" if numbered else "buttons", retired=retired, fold=clip_lines)
        return "\n".join(lines)[:MAX_CONTENT]


def _fits(pending: list[Decision]) -> bool:
    """Whether components can offer every option of ``pending`` (else the text points at ``/move``), laid out as
    :func:`board_view` does."""
    rows = 0
    for d in pending:
        n = len(d.options)
        if n == 0:
            continue
        pages = math.ceil(n / MAX_MENU)
        if n <= BUTTON_OPTIONS and math.ceil(n / MAX_BUTTONS) <= MAX_ROWS - rows:
            rows += math.ceil(n / MAX_BUTTONS)
        else:
            rows += pages if pages <= MAX_ROWS - rows else 1
        if pages > MAX_MENU:
            return False
    return rows <= MAX_ROWS


def board_view(row: SessionRow, pending: list[Decision], names: dict[str, str],
               keys: list[str | None] | None = None,
               emoji: list[dict[str, str]] | None = None, extras: bool = True,
               held: list[str] | tuple[str, ...] = ()) -> discord.ui.View | None:
    """Components for ``pending``: buttons, 5 a row, for a decision of up to :data:`BUTTON_OPTIONS` options while
    the rows last, else one select per 25 options, or a two-step pick (a group select, then an ephemeral page of
    selects) when the rows run out; labels (:func:`bot.board_text.button_label`, at most 40 characters) start with
    the option's board marker key. ``keys[i]``: decision ``i``'s race key (``ids.race_key``): its buttons are race
    buttons (no version); ``emoji[i]``: option id -> emoji shown on its button (the game's reactions).
    ``extras``: "How to play" and "Full board" on a row of their own when one is left, else after the last
    buttons when that row has room for both. A decision of an AI
    seat gets no components (only that seat may answer it). None when nothing is pending (or only
    decisions without options)."""
    view = discord.ui.View(timeout=None)
    rows = 0
    room = 0  # free places on the last row of buttons (rows - 1)
    sid, ver = row.id, row.version
    thinking = False  # a decision of an AI seat: no buttons (nobody else may answer it)
    playing_ai = ai_players(row)  # AI seats and the seats the AI stand-in plays
    for di, d in enumerate(pending):
        n = len(d.options)
        if d.player in playing_ai:
            thinking = True
            continue
        if n == 0 or rows >= MAX_ROWS:
            continue
        key = keys[di] if keys and di < len(keys) else None
        marks = emoji[di] if emoji and di < len(emoji) else {}
        markers = marker_keys(d.options)
        if key and n <= MAX_BUTTONS and all(ids.race(sid, key, o.id) for o in d.options):
            for oi, opt in enumerate(d.options):
                view.add_item(RaceButton(sid, key, opt.id, button_label(d, oi, names, markers), row=rows,
                                         emoji=marks.get(opt.id)))
            rows, room = rows + 1, MAX_BUTTONS - n
        elif n <= BUTTON_OPTIONS and math.ceil(n / MAX_BUTTONS) <= MAX_ROWS - rows:
            for oi in range(n):
                view.add_item(ChoiceButton(sid, ver, di, oi, button_label(d, oi, names, markers),
                                           row=rows + oi // MAX_BUTTONS))
            rows, room = rows + math.ceil(n / MAX_BUTTONS), (-n) % MAX_BUTTONS
        elif math.ceil(n / MAX_MENU) <= MAX_ROWS - rows:
            for page in range(math.ceil(n / MAX_MENU)):
                view.add_item(menu_for(row, di, d, page, names, row=rows))
                rows, room = rows + 1, 0
        elif math.ceil(n / MAX_MENU) <= MAX_MENU:
            groups = [group_option(d, p, names, markers) for p in range(math.ceil(n / MAX_MENU))]
            view.add_item(GroupSelect(sid, ver, di, groups, placeholder=as_names(d.prompt, names), row=rows))
            rows, room = rows + 1, 0
    seats = seat_buttons(row, names) if extras else []
    if held:  # a live table waits for players marked missing (bot.service.presence): one "I'm here" for them
        seats.insert(0, HereButton(row.id, say(T("🙋 I'm here"))))
    if not view.children and not (thinking and extras) and not seats:
        return None
    if extras and (rows < MAX_ROWS or room >= 2):
        last = rows if rows < MAX_ROWS else rows - 1
        view.add_item(HelpButton(row.game_id, row=last))
        view.add_item(FullBoardButton(sid, row=last))
        rows = last + 1
    for i, button in enumerate(seats[:MAX_BUTTONS * (MAX_ROWS - rows)]):
        button.row = rows + i // MAX_BUTTONS
        view.add_item(button)
    return view


def seat_buttons(row: SessionRow, names: dict[str, str]) -> list[SeatButton]:
    """For each seat of ``row`` the AI stand-in plays (:mod:`bot.service.stand_in`): "I'm back (X)" (only X may
    press it) and "Remove X" (the other players or a moderator), in that order."""
    buttons = []
    for player in stand_ins(row):
        seat, who = row.players.index(player), display(names, player)
        buttons.append(SeatButton(row.id, 0, seat, "back", say(T("I'm back ({player})", player=who))))
        buttons.append(SeatButton(row.id, 0, seat, "out", say(T("Remove {player}", player=who))))
    return buttons


def group_option(d: Decision, page: int, names: dict[str, str], markers: dict[str, str]) -> discord.SelectOption:
    """Step one's entry for options ``page*25 .. page*25+24`` of ``d``: "Options 26-50", described by its first
    and last option as their buttons say them ("from 26 · E2-n to 50 · A1-s")."""
    first, last = page * MAX_MENU, min(len(d.options), (page + 1) * MAX_MENU) - 1
    return discord.SelectOption(label=say(T("Options {first}-{last}", first=first + 1, last=last + 1)),
                                value=str(page),
                                description=say(T("from {first} to {last}", first=button_label(d, first, names, markers),
                                                  last=button_label(d, last, names, markers)))[:100])


def menu_for(session: SessionRow, di: int, d: Decision, page: int, names: dict[str, str],
             *, row: int | None = None) -> ChoiceSelect:
    """The select menu of options ``page*25 .. page*25+24`` of decision ``di`` (labels keyed as on the board)."""
    start = page * MAX_MENU
    markers = marker_keys(d.options)
    opts = [select_option(d, start + i, names, markers) for i in range(len(d.options[start:start + MAX_MENU]))]
    placeholder = as_names(d.prompt, names)
    if len(d.options) > MAX_MENU:
        placeholder = say(T("({page}/{pages}) {prompt}", page=page + 1, pages=math.ceil(len(d.options) / MAX_MENU),
                            prompt=placeholder))
    return ChoiceSelect(session.id, session.version, di, page, opts, placeholder=placeholder, row=row)


def select_option(d: Decision, index: int, names: dict[str, str], markers: dict[str, str]) -> discord.SelectOption:
    """Option ``index`` of ``d`` in a select menu: its button label (at most 40 characters), and when that says it
    short, its whole label as the description (at most 100, names shortened to fit: :func:`bot.board_text.fit_names`)."""
    label = button_label(d, index, names, markers)
    opt = d.options[index]
    key = markers.get(opt.id)
    whole = fit_names(say(opt.label) or opt.id, names, 100, f"{key} · " if key else "")
    return discord.SelectOption(label=label, value=str(index),
                                description=whole[:100] if whole != label else None)


def page_view(row: SessionRow, di: int, d: Decision, page: int, names: dict[str, str]) -> discord.ui.View:
    """Step two of a two-step pick: the select menu of page ``page`` (25 options) of decision ``di``."""
    view = discord.ui.View(timeout=None)
    view.add_item(menu_for(row, di, d, page, names, row=0))
    return view


# -- help ----------------------------------------------------------------------------------------------------------
def topics_view(game: Game, current: str = "") -> discord.ui.View | None:
    """A select of ``game``'s rules topics (the overview first, each by its name: ``Game.topic_name``), or None when
    it has none besides the overview."""
    topics = [t for t in game.rules_help if t][:MAX_MENU - 1]
    if not topics:
        return None
    view = discord.ui.View(timeout=None)
    opts = [discord.SelectOption(label=say(T("Overview")), value="-", default=not current)] + [
        discord.SelectOption(label=say(game.topic_name(t))[:100], value=t[:100], default=t == current) for t in topics]
    view.add_item(TopicSelect(game.id, opts))
    return view
