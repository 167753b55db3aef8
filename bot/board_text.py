"""What a board says: the one builder of a board's text, for Discord's board message (:mod:`bot.discord.present`)
and for the plain-text board of the sandbox, ``python -m bot script`` and the transcripts (:mod:`bot.local.chat`).

Pure text from a :class:`bot.sessions.Update` plus how players are named, built once per board
(:func:`build_board`); the forms differ only by parameters (:func:`board_lines`, :meth:`BoardLines.lines`):

- ``name``: how a player shows in the lines (Discord: a mention; plain text: the typed name);
- ``markdown``: Discord's message: a bold title line, a closed race window's line first in bold, events as bullets,
  the position in words as small text (while the game is active), each prompt marked with :data:`MARKER`, the
  result under "🏁 Game over."; plain text: the lines as they are, the position also at the game's end, the result
  as ``[game over]`` and ``Ranking:``;
- ``options``: how the pending options are offered: ``"listed"`` (plain text: after each prompt, every option as
  ``N) label [id]`` under who answers it), ``"buttons"`` (Discord: on components; the text says how to answer a race
  and, when they cannot hold them all, points at ``/move``), ``"numbered"`` (Discord without its image: the buttons
  plus the options as numbered lines, :func:`numbered_lines`);
- ``retired``: the same board once it is no longer live (a later board was posted): without the prompts, the
  how-to line and the numbered options, its earlier lines folded exactly as in the live form.

And the way back, for both adapters: what a typed choice stands for (:func:`typed_choice`: Discord's ``/move`` and
the sandbox's).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from games import Decision, format_text, marker_keys, player_ref, ranking_text
from games.core import SHORT_LABEL, T, Text

from .ai_seats import ai_name, is_ai
from .i18n import LANGUAGES, SOURCE, say, table_lang
from .i18n import language as language_of
from .results import FORMER_PLAYER
from .service.hints import hinted_line
from .service.presence import held_people
from .service.stand_in import stand_in_label, stand_ins
from .sessions import SessionError, Update
from .store.privacy import is_former

Options = Literal["listed", "buttons", "numbered"]

MARKER = "➡️ "
"""What starts each pending decision's prompt on a Discord board (the players' cue; the bench looks for it)."""
KEYCAPS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"]
"""Reactions that answer a race's option 1..10 (see :mod:`bot.discord.races`)."""
HOW_TO_ANSWER = T("-# Answer with the buttons below (or `/move`, which autocompletes); How to play explains the "
                  "rules.")
TOO_MANY = T("Too many choices for buttons: use `/move` (it autocompletes your options).")
NO_IMAGE = T("-# The board image could not be attached here (the bot lacks Attach Files): the position is in words "
             "above, the options are numbered below.")
MAX_NUMBERED = 25
"""Options listed per decision in a text-only Discord board (the rest: ``/move`` autocompletes them)."""


def display(names: dict[str, str], player: str) -> str:
    """A plain display name for labels and images (components cannot show mentions); an AI seat's is its name,
    a forgotten member's seat :data:`FORMER_PLAYER` (in the table's language)."""
    if is_ai(player):
        return ai_name(player)
    if is_former(player):
        return say(FORMER_PLAYER)
    return names.get(player) or (say(T("player {digits}", digits=player[-4:])) if player.isdigit() else player)


def prompt_text(decision: Decision, name: Callable[[str], str], lang: str | None = None) -> str:
    """The wording of ``decision``'s prompt in ``lang``, players named by ``name`` (both forms start their prompt
    with it)."""
    return say(decision.prompt, lang, name)


def prompt_line(decision: Decision, name: Callable[[str], str], *, markdown: bool, options: Options,
                reactions: dict[str, str] | None = None, words: dict[str, Text] | None = None,
                since_ms: int | None = None, lang: str | None = None) -> str:
    """One pending decision's prompt line in ``lang``. ``reactions``: the game's emoji -> option id for this
    decision (``Game.reactions``); without them a race offered on buttons is answered by keycaps (option 1..10).
    ``words``: option id -> the word to type for it (``Game.typed_words``, in ``lang``), else the option id shows.
    ``since_ms``: the time (ms) the decisions opened: a deadline shows as ``(until t+N ms)`` after it."""
    text = prompt_text(decision, name, lang)
    if options != "listed":
        if decision.player is None:
            text = say(T("Anyone seated: {prompt}", prompt=text), lang)
        if decision.player is None and decision.options:  # a race: buttons, typed words or reactions (races.py)
            keys = reactions.items() if reactions else ((KEYCAPS[i], o.id) for i, o in
                                                        enumerate(decision.options[:len(KEYCAPS)]))
            typed = {o: say(w, lang) for o, w in (words or {}).items()}
            text += say(T(" — press, type or react: {keys}",
                          keys=" · ".join(f"{e} `{typed.get(o, o)}`" for e, o in keys)), lang)
    if since_ms is not None and decision.deadline_ms is not None:
        text += say(T(" (until t+{ms} ms)", ms=str(decision.deadline_ms - since_ms)), lang)
    return f"{MARKER}{text}" if markdown else text


def listed_line(decision: Decision, name: Callable[[str], str], lang: str | None = None) -> str:
    """A decision's options in plain text: ``  who: 1) label [id]  2) …`` (who: the player, or "anyone")."""
    who = name(decision.player) if decision.player else say(T("anyone"), lang)
    return f"  {who}: " + "  ".join(f"{i}) {say(o.label, lang, name)} [{o.id}]"
                                    for i, o in enumerate(decision.options, 1))


def option_label(d: Decision, index: int, names: dict[str, str], keys: dict[str, str] | None = None,
                 lang: str | None = None) -> str:
    """Option ``index`` of ``d`` as a button, select option, autocomplete entry or numbered line shows it, in
    ``lang``: prefixed with its board marker key when it has a place on the board (``games.marker_keys``:
    "3 · C3-n")."""
    opt = d.options[index]
    label = say(opt.label, lang, lambda p: display(names, p)) or opt.id
    key = (keys if keys is not None else marker_keys(d.options)).get(opt.id)
    return f"{key} · {label}" if key else label


_REF = re.compile(r"\{@([^{}]+)\}")
MIN_NAME = 4
"""Characters a name keeps at least when a label shortens it (``"Alex…"``)."""


def fit_names(template: str, names: dict[str, str], limit: int, prefix: str = "") -> str:
    """``prefix`` + ``template`` with its ``{@id}`` references as display names, the longest names shortened with
    an ellipsis (``"Alexandria…"``, at least :data:`MIN_NAME` characters) until the whole fits in ``limit``
    characters. Only names are shortened: a text whose other words are longer stays longer (the caller decides)."""
    refs = _REF.findall(template)
    full = {p: display(names, p) for p in refs}
    text = prefix + format_text(template, full)
    if len(text) <= limit or not refs:
        return text
    fixed = len(prefix) + len(_REF.sub("", template))
    budget = max(MIN_NAME, (limit - fixed) // len(refs))
    cut = {p: n if len(n) <= budget else n[:budget - 1].rstrip() + "…" for p, n in full.items()}
    return prefix + format_text(template, cut)


def button_label(d: Decision, index: int, names: dict[str, str], keys: dict[str, str] | None = None,
                 limit: int = SHORT_LABEL, lang: str | None = None) -> str:
    """Option ``index`` of ``d`` as its button or select option says it in ``lang`` (None: the table's), within
    ``limit`` characters: its marker key and its ``short`` form (else its label), names shortened to fit
    (:func:`fit_names`). A short form made without a message id (English only) is used in English alone; other
    languages say the label. The whole meaning is :func:`option_label`'s (shown in a select option's description or
    a line of the message when it differs)."""
    opt = d.options[index]
    key = (keys if keys is not None else marker_keys(d.options)).get(opt.id)
    english = (language_of(lang) if lang is not None else table_lang()) == "en"
    short = opt.short if opt.short and (isinstance(opt.short, Text) or english) else None
    return fit_names(say(short or opt.label, lang) or opt.id, names, limit, f"{key} · " if key else "")


def is_number(text: str) -> bool:
    """``text`` is a plain number 0-9… (not "²" or "٣": digits to ``str.isdigit`` that ``int`` refuses or that nobody
    types as a list number)."""
    return text.isascii() and text.isdigit()


def typed_choice(pending: Sequence[Decision], player: str, typed: str, *, seated: bool,
                 names: dict[str, str] | None = None, word: Callable[[str], str | None] | None = None,
                 numbers: Sequence[str] | None = None) -> str:
    """The option id a typed choice stands for — Discord's ``/move`` and the sandbox's ``/move`` alike — or the
    typed text itself (stripped) when it names none (the move is then refused with the engine's reason). Pure: the
    pending decisions and what the adapter offers decide.

    In order: the game's own chat word (``word``: ``Game.chat_word``) when it answers a decision open to ``player``
    (in Tatari a typed "1" is the face 1, not list item 1); a number from the list last shown (``numbers``: the
    option ids numbered 1…n, empty: those of ``player``'s decision, else of the race; None: numbers are not
    choices); an option open to ``player`` (``seated``: a race's too) by its id or its label in any language,
    plain or keyed as its button shows it (:func:`option_label`; ``names`` the players' display names, else their
    ids), compared as :func:`_plain` does (case, spaces and full/half width aside: 「１－２」 is 1-2, 「桜 5」 is
    桜5); by the part of its id after the colon when no other open option's ends the same (``1-3`` for
    ``tile:1-3``); else the chat word of a text that is no option's id. Raises :class:`bot.sessions.SessionError` for a number that
    names no option."""
    choice = typed.strip()
    chat = word(choice) if word is not None else None
    if chat is not None and _answers(pending, player, chat):
        return chat
    if numbers is not None and is_number(choice):
        listed = list(numbers) or _ids_for(pending, player)
        if not listed:
            raise SessionError(T("Nothing is waiting for you now."))
        if not 1 <= int(choice) <= len(listed):
            raise SessionError(T("Choose a number from 1 to {n}.", n=len(listed)))
        return listed[int(choice) - 1]
    wanted, shown = _plain(choice), names if names is not None else {}
    for d, i in options_open_to(pending, player, seated=seated):
        opt = d.options[i]
        if wanted == _plain(opt.id) or any(wanted in (_plain(say(opt.label, lang, lambda p: display(shown, p))),
                                                      _plain(option_label(d, i, shown, lang=lang)))
                                         for lang in LANGUAGES):
            return opt.id
    tails = [d.options[i].id for d, i in options_open_to(pending, player, seated=seated)
             if _plain(d.options[i].id.rpartition(":")[2]) == wanted]
    if len(tails) == 1:  # "1-3" for tile:1-3 when no other open option ends so (sen:1-6 and mat:1-6 both do)
        return tails[0]
    if word is not None and choice not in {o.id for d in pending for o in d.options}:
        return word(choice) or choice
    return choice


def _plain(text: str) -> str:
    """``text`` as typed choices are compared: full-width and half-width forms as their plain ones (``１－２`` ->
    ``1-2``, ``ﾀﾀﾘ`` -> ``タタリ``; superscript or circled digits stay what they are: ``²`` is not 2), case folded,
    no spaces."""
    wide = "".join(unicodedata.normalize("NFKC", ch) if "\uff00" <= ch <= "\uffef" else ch for ch in text)
    return "".join(unicodedata.normalize("NFC", wide).casefold().split())


def options_open_to(pending: Sequence[Decision], player: str, *, seated: bool) -> list[tuple[Decision, int]]:
    """``player``'s options now, as (decision, option index): those of the decisions naming them and, when
    ``seated``, of anyone's (a race)."""
    return [(d, i) for d in pending if d.player == player or (d.player is None and seated)
            for i in range(len(d.options))]


def _ids_for(pending: Sequence[Decision], player: str) -> list[str]:
    """The option ids of ``player``'s decision, else of the race (anyone's decision with options)."""
    for d in pending:
        if d.player == player:
            return [o.id for o in d.options]
    for d in pending:
        if d.player is None and d.options:
            return [o.id for o in d.options]
    return []


def _answers(pending: Sequence[Decision], player: str, option_id: str) -> bool:
    """Whether ``option_id`` (what a chat word stands for) answers a decision open to ``player``: one of its
    options, or an id of the same kind (``set:1`` while faces ``set:…`` are offered), which the game then accepts
    or refuses with its own reason."""
    kind = option_id.partition(":")[0] + ":" if ":" in option_id else None
    return any(
        o.id == option_id or (kind is not None and o.id.startswith(kind))
        for d in pending
        if d.player in (player, None)
        for o in d.options
    )


BUTTON_OPTIONS = 23
"""Options a decision may have to be offered on buttons: 5 rows of 5, less the board's own two buttons (How to
play, Full board); a longer decision gets select menus (:func:`bot.discord.present.board_view`)."""
MAX_DETAIL = 900
"""Characters the detail lines of one board take at most (:func:`detail_lines`; the rest: select or ``/move``)."""


def detail_lines(decision: Decision, name: Callable[[str], str], lang: str | None = None) -> list[str]:
    """Small-text lines under a decision offered on buttons: the whole label of each option whose button says it
    short (``Option.short``), keyed as on the board ("-# 4 · offer 1 fire + 2 lightning at the lightning shrine
    (west), a scale on Butterfly"), within :data:`MAX_DETAIL` characters (then one "… N more" line)."""
    if len(decision.options) > BUTTON_OPTIONS:
        return []
    keys = marker_keys(decision.options)
    shorts = [o for o in decision.options if o.short]
    lines: list[str] = []
    for i, opt in enumerate(shorts):
        key = keys.get(opt.id)
        line = "-# " + (f"{key} · " if key else "") + say(opt.label, lang, name)
        if sum(len(x) + 1 for x in lines) + len(line) > MAX_DETAIL:
            lines.append(say(T("-# … {n} more: `/move` autocompletes them in full.", n=len(shorts) - i), lang))
            break
        lines.append(line)
    return lines


def numbered_lines(update: Update, names: dict[str, str], lang: str | None = None) -> list[str]:
    """The pending options as numbered text lines ("1. 3 · C3-n"), per decision, for a board without its image
    (the buttons stay: the text alone is enough to follow and answer)."""
    lines: list[str] = []
    for d in update.pending:
        for i in range(min(len(d.options), MAX_NUMBERED)):
            lines.append(f"`{i + 1}.` {option_label(d, i, names, lang=lang)}")
        if len(d.options) > MAX_NUMBERED:
            lines.append(say(T("… {n} more: `/move` autocompletes them.", n=len(d.options) - MAX_NUMBERED), lang))
    return lines


def event_lines(update: Update, name: Callable[[str], str], *, markdown: bool, lang: str | None = None) -> list[str]:
    """The lines of ``update``'s events in ``lang``: bullets (a closed race window's line is not one: it heads the
    board) in markdown, else every event as it is."""
    if markdown:
        return [f"• {say(e.text, lang, name)}" for e in update.events if e.kind != "window"]
    return [say(e.text, lang, name) for e in update.events]


def result_lines(update: Update, name: Callable[[str], str], *, markdown: bool, lang: str | None = None) -> list[str]:
    """The game's result in ``lang``: "🏁 **Game over.** reason" and one line a rank (markdown), else
    ``[game over] reason`` and ``Ranking: …``; [] while there is none."""
    res = update.result
    if res is None:
        return []
    if not markdown:
        english = (language_of(lang) if lang is not None else table_lang()) == SOURCE
        typed = (lambda p: ai_name(p, lang) if is_ai(p) else p) if english else name  # English: people as typed
        return [say(T("[game over] {reason}", reason=res.reason), lang, name),
                say(T("Ranking: {ranking}", ranking=ranking_text(res, typed)), lang)]
    lines = [say(T("🏁 **Game over.** {reason}", reason=say(res.reason, lang, name)), lang).rstrip()]
    for rank, group in enumerate(res.ranking, 1):
        who = Text.join(T(", "), [T("{player} ({score})", player=name(p), score=res.scores[p]) if p in res.scores
                                  else name(p) for p in group])
        lines.append(f"{rank}. {say(who, lang)}")
    return lines


def shows_position(update: Update, asked: bool = False) -> bool:
    """Whether a plain-text board shows the position (its image and its words): a game with a state, unless it was
    abandoned and nothing happened (``asked``: the board was asked for, ``/board``)."""
    return update.state is not None and bool(update.events or asked or update.session.status != "abandoned")


@dataclass(frozen=True)
class BoardLines:
    """A board's lines, built once (:func:`build_board`), from which each form it goes out in is taken
    (:meth:`lines`): ``top`` (title, race window, notes, events — :attr:`head` of them before the events) and
    ``tail`` (the lines under the events: ``(line, live, form)`` — ``live``: shown only while the board is live;
    ``form``: the only options form it is in, None for every form)."""

    top: list[str]
    head: int
    tail: list[tuple[str, bool, Options | None]]

    def lines(self, options: Options, *, retired: bool = False,
              fold: Callable[..., list[str]] | None = None) -> list[str]:
        """The board's lines as ``options`` offers them (``retired``: once a later board was posted; ``fold``: as
        :func:`board_lines` says)."""
        tail = [(line, live) for line, live, form in self.tail if form in (None, options)]
        every = self.top + [line for line, _ in tail]
        kept = fold(every, head=self.head, tail=len(tail)) if fold is not None else every
        if retired and tail:
            kept = kept[:len(kept) - len(tail)] + [line for line, live in tail if not live]
        return kept


def board_lines(update: Update, name: Callable[[str], str], *, markdown: bool, options: Options,
                retired: bool = False, fold: Callable[..., list[str]] | None = None, **build) -> list[str]:
    """The lines of a board — the one place that decides what a board says, in Discord's form or in plain text
    (the forms: this module's docstring): :func:`build_board` (``build``: its keyword arguments) in the form
    ``options``, ``retired`` or live. ``fold(lines, head=, tail=)``: shortens the lines to the message's limit
    keeping the first ``head`` and last ``tail`` (Discord's 2000 characters)."""
    return build_board(update, name, markdown=markdown, listed=options == "listed", **build).lines(
        options, retired=retired, fold=fold)


def build_board(update: Update, name: Callable[[str], str], *, markdown: bool, listed: bool,
                notes: Sequence[str] = (), events: list[str] | None = None, first: bool = False,
                names: dict[str, str] | None = None, buttons_fit: bool = True, with_status: bool = True,
                image: str | None = None, asked: bool = False, since_ms: int | None = None,
                lang: str | None = None, clock: Sequence[str] = ()) -> BoardLines:
    """What a board says, built once: every line of each form — ``listed`` (plain text), else both Discord forms
    (``"buttons"`` and ``"numbered"``: :meth:`BoardLines.lines` picks one).

    ``notes``: lines after ``update.notes``. ``events``: the event lines to show (default: :func:`event_lines`;
    Discord's live message of a turn passes every line of the turn so far). ``first``: the first board of a game,
    which says in one line how to answer (buttons). ``names``: the players' display names, for numbered options.
    ``buttons_fit``: whether components can offer every pending option (else a line points at ``/move``).
    ``with_status``: show the position in words (Discord). ``image``: the path of the board image written (plain
    text: a ``[board] path`` line). ``asked``: the board was asked for (``/board``). ``since_ms``: the time (ms) the
    decisions opened, for their deadlines (plain text). ``lang``: the language of the table (:mod:`bot.i18n`); names
    are never translated. ``clock``: lines on time (a move's deadline, who is away), in their final
    form, after the position while the board is live.
    """
    game, row = update.game, update.session
    options: Options = "listed" if listed else "buttons"  # how prompts are worded (the same for both Discord forms)
    title = say(game.title, lang)
    lines = [say(T("**{title}** · board v{version}", title=title, version=str(row.version)), lang)] if markdown else []
    if markdown:  # a closed race window first (one line: who was first and by how many ms)
        lines += [f"⏱️ **{say(e.text, lang, name)}**" for e in update.events if e.kind == "window"]
    lines += [say(n, lang, name) for n in [*update.notes, *notes]]
    head = len(lines)
    lines += event_lines(update, name, markdown=markdown, lang=lang) if events is None else events
    tail: list[tuple[str, bool, Options | None]] = []  # (line, shown only while the board is live, only in form)
    if image is not None:
        tail.append((f"[board] {image}", False, None))
    status = game.status(update.state) if update.state is not None else ""
    if status and (with_status and row.status == "active" if markdown else shows_position(update, asked)):
        tail.append((("-# " if markdown else "") + say(status, lang, name), False, None))  # the board in words
    if row.status == "active":  # the seats the AI stand-in plays, on every board (bot.service.stand_in)
        tail += [("🤖 " + say(stand_in_label(p), lang, name), False, None) for p in stand_ins(row)]
    held = held_people(row, update.state, update.pending) if row.status == "active" else []
    if held:  # a live table's roll waits for the players marked missing (bot.service.presence)
        tail.append(("⏸️ " + say(T("The roll waits for {players}: press “I'm here” (or answer any race).",
                                   players=Text.join(T(", "), [player_ref(p) for p in held])), lang, name), True,
                     None))
    if row.status == "active":
        tail += [(line, True, None) for line in clock]
    hints_note = hinted_line(row, name, lang)
    # a hinted game is unrated: Discord's one live board says so; a plain-text table (a new board per move) only
    # when the board is asked for and at the result (the hint itself said it once)
    if hints_note is not None and row.status != "abandoned" and (markdown or asked or row.status == "finished"):
        tail.append((("-# " if markdown else "") + hints_note, False, None))
    if markdown and update.result is not None:
        tail += [(line, False, None) for line in result_lines(update, name, markdown=True, lang=lang)]
    elif markdown and row.status == "abandoned":
        tail.append((say(T("The game was abandoned."), lang), False, None))
    else:
        for d in update.pending:
            tail.append((prompt_line(d, name, markdown=markdown, options=options, since_ms=since_ms, lang=lang,
                                     reactions=game.reactions(d) if not listed else None,
                                     words=game.typed_words(d)), True, None))
            if listed:
                tail.append((listed_line(d, name, lang), True, None))
            else:
                tail += [(line, True, "buttons") for line in detail_lines(d, name, lang)]
        if not listed and update.pending and not buttons_fit:
            tail.append((say(TOO_MANY, lang), False, None))
        elif not listed and first and update.pending:
            tail.append((say(HOW_TO_ANSWER, lang), True, None))
        if not listed and update.pending:
            tail += [(line, True, "numbered") for line in numbered_lines(update, names or {}, lang)]
        if not markdown and row.status == "finished":
            tail += [(line, False, None) for line in result_lines(update, name, markdown=False, lang=lang)]
    if not listed:
        tail.append((say(NO_IMAGE, lang), False, "numbered"))
    return BoardLines(lines, head, tail)
