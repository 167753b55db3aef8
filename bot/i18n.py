"""Texts in the reader's language: the gettext catalogues (kept with Babel) and the one renderer of
:class:`games.core.Text` (ARCHITECTURE.md, "Text and languages").

- Languages: :data:`LANGUAGES` (``en``, the source language, and ``ja``). :func:`language` maps any Discord locale
  (``discord.Locale.japanese``, ``"ja"``, ``"en-US"``) or setting to one of them; anything else reads English.
- :func:`say` renders a text in a language: a :class:`~games.core.Text` by its catalogue entry (placeholders filled,
  numbers formatted by the locale, nested texts translated), a plain ``str`` as it is (names, ids). With ``name``,
  player references ``{@id}`` become names (:func:`games.core.format_text`).
- Catalogues, one gettext domain per part (:func:`domains`): ``core``, each game, ``renderers``, ``bot`` and
  ``commands``; the compiled ``bot/locales/<lang>/LC_MESSAGES/<domain>.mo`` files are what the bot reads (all of a
  language's domains merged, :func:`translations`). Keeping them (extract, update, compile, check) is
  :mod:`bot.catalogues`; this module imports nothing of ``bot/`` (the bottom floor).
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import gettext
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal
from babel.support import Translations

from games.core import Millis, Text, fill, format_text

LANGUAGES = ("en", "ja")
"""The languages the bot speaks; ``en`` is the source language (the message ids are English)."""

SOURCE = "en"
HERE = Path(__file__).resolve().parent
LOCALES = HERE / "locales"
"""Where the catalogues live (inside the package, so an installed bot has them)."""

ROOT = HERE.parent
"""The project root (``games/`` lists the games, each a catalogue domain)."""


TABLE: ContextVar[str] = ContextVar("table_language", default=SOURCE)
"""The language of the table the current task serves (its public messages and images): set by the Discord adapter
when an interaction or a timer of a channel is handled (:mod:`bot.discord.language`)."""
READER: ContextVar[str | None] = ContextVar("reader_language", default=None)
"""The language of the member the current interaction came from (their Discord client's), for ephemeral answers;
None outside an interaction (then :func:`reader_lang` is the table's)."""


def table_lang() -> str:
    """The current table's language (:data:`TABLE`)."""
    return TABLE.get()


def reader_lang() -> str:
    """The current reader's language (:data:`READER`), else the table's."""
    return READER.get() or TABLE.get()


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Within the block, texts with no language of their own come out in ``lang`` (an ephemeral copy of a board,
    built by the same presenter as the public one, in the reader's language)."""
    token = TABLE.set(language(lang))
    try:
        yield
    finally:
        TABLE.reset(token)


def language(locale: Any) -> str:
    """One of :data:`LANGUAGES` for a Discord locale, a locale string or a stored setting: ``"ja"`` and
    ``discord.Locale.japanese`` -> ``"ja"``; ``"en-US"``, ``None``, ``"fr"`` -> ``"en"``."""
    value = getattr(locale, "value", locale)
    code = str(value or "").replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else SOURCE


@functools.cache
def game_ids() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()))


def domains() -> tuple[str, ...]:
    """Every catalogue domain: ``core``, the games (:func:`game_ids`), ``renderers``, ``bot`` and ``commands`` (the
    slash commands' names and descriptions, with their place as the message context: :mod:`bot.discord.translator`)."""
    return ("core", *game_ids(), "renderers", "bot", "commands")


@functools.cache
def translations(lang: str) -> Translations:
    """Every compiled catalogue of ``lang`` merged into one (English: none, the message ids are the English texts).
    A missing ``.mo`` reads as English; :func:`bot.catalogues.problems` reports it."""
    merged: Translations | None = None
    if lang != SOURCE:
        for domain in domains():
            mo = catalogue_path(lang, domain, "mo")
            if mo.exists():
                with mo.open("rb") as fh:
                    loaded = Translations(fh, domain=domain)
                if merged is None:
                    merged = loaded
                else:
                    merged.merge(loaded)
    if merged is None:
        return Translations()
    count, expr = get_plural(lang)  # the language's own plural rule, whatever a file's header says (ja: one form)
    merged.plural = gettext.c2py(expr)
    return merged


def date(day: datetime.date, lang: str) -> str:
    """``day`` written as ``lang`` writes dates (Babel's long form: ``"2026年12月1日"`` in ja); English keeps the
    ISO form ``"2026-12-01"``."""
    if lang == SOURCE:
        return day.isoformat()
    return format_date(day, format="long", locale=Locale.parse(lang))


def number(n: int | float, lang: str) -> str:
    """``n`` written as ``lang`` writes numbers (``1234`` -> ``"1,234"`` in ja; English keeps the engines' ``"1234"``)."""
    if lang == SOURCE:
        return str(n)
    return format_decimal(n, locale=Locale.parse(lang))


def seconds(ms: int, lang: str) -> str:
    """``ms`` milliseconds as seconds, exactly, with at least one decimal: ``1000`` -> ``"1.0"``, ``250`` ->
    ``"0.25"``, ``1234`` -> ``"1.234"``, ``12000`` -> ``"12.0"`` (grouped by the locale past 999 s)."""
    whole, rest = divmod(abs(ms), 1000)
    decimals = f"{rest:03d}".rstrip("0") or "0"
    return ("-" if ms < 0 else "") + number(whole, lang) + "." + decimals


def _value(v: Any, lang: str) -> str:
    """One argument of a text as ``lang`` writes it: a :class:`~games.core.Millis` in seconds (:func:`seconds`),
    another int by the locale (:func:`number`), a date (:func:`date`), a text translated (:func:`render`)."""
    if isinstance(v, Millis):
        return seconds(v, lang)
    if isinstance(v, int) and not isinstance(v, bool):
        return number(v, lang)
    if isinstance(v, datetime.date):
        return date(v, lang)
    return render(v, lang)


def render(text: Any, lang: str) -> str:
    """``text`` in ``lang``, player references left as ``{@id}``: a :class:`Text` through the catalogue, looked up
    by its message context and id (``pgettext``/``npgettext`` for a text with a context; a missing entry falls back
    to English), anything else as ``str(text)``."""
    if not isinstance(text, Text):
        return str(text)
    if text.parts:
        return render(text.sep, lang).join(render(p, lang) for p in text.parts)
    if lang == SOURCE:
        return str(text)
    tr = translations(lang)
    if text.context is not None:  # (context, msgid) is its own entry of the merged catalogue
        if text.plural is not None:
            template = tr.npgettext(text.context, text.msgid, text.plural, text.args[text.count])
        else:
            template = tr.pgettext(text.context, text.msgid)
    elif text.plural is not None:
        template = tr.ngettext(text.msgid, text.plural, text.args[text.count])
    else:
        template = tr.gettext(text.msgid)
    values = {k: _value(v, lang) for k, v in text.args.items()}
    try:
        return fill(template, values)
    except ValueError:  # a catalogue entry whose placeholders differ: bot.catalogues.problems reports it
        return str(text)


def say(text: Any, lang: Any = None, name: Callable[[str], str] | dict[str, str] | None = None) -> str:
    """``text`` as a reader of ``lang`` (a language, locale or setting: :func:`language`; None: the current
    table's, :func:`table_lang`) reads it; with ``name``, every ``{@id}`` becomes that player's name."""
    out = render(text, language(lang) if lang is not None else table_lang())
    return format_text(out, name) if name is not None else out


def translator(lang: Any = None) -> Callable[[str], str] | None:
    """What :func:`renderers.render` takes as ``translate`` to draw its texts in ``lang`` (None: the current
    table's): None for English, else :func:`render` bound to the language (picklable: renders run in workers)."""
    lang = language(lang) if lang is not None else table_lang()
    return None if lang == SOURCE else functools.partial(render, lang=lang)


def refusal(exc: BaseException) -> Any:
    """What an exception says to a player, as the text it was raised with (a :class:`Text` keeps its message id;
    ``str(exc)`` would give only the English)."""
    return exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)


def catalogue_path(lang: str, domain: str, ext: str = "po") -> Path:
    """``bot/locales/<lang>/LC_MESSAGES/<domain>.<ext>``."""
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.{ext}"


def tr(lang: Any, msgid: str, **args: Any) -> str:
    """Shorthand for adapters: ``say(T(msgid, **args), lang)`` — ``msgid`` must be a literal (it is extracted
    under the keyword ``T`` only when written as ``T(…)``; use this for texts built here, with ``T`` inside)."""
    return say(Text(msgid, args), lang)


__all__ = ["LANGUAGES", "LOCALES", "READER", "SOURCE", "TABLE", "catalogue_path", "date", "domains", "game_ids",
           "language", "number", "reader_lang", "refusal", "render", "say", "seconds", "speaking", "table_lang", "tr",
           "translations", "translator"]
