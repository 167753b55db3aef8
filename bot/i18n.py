"""Texts in the reader's language: the gettext catalogues (kept with Babel) and the one renderer of
:class:`games.core.Text` (ARCHITECTURE.md, "Text and languages").

- Languages: :data:`LANGUAGES` (``en``, the source language, and ``ja``). :func:`language` maps any Discord locale
  (``discord.Locale.japanese``, ``"ja"``, ``"en-US"``) or setting to one of them; anything else reads English.
- :func:`say` renders a text in a language: a :class:`~games.core.Text` by its catalogue entry (placeholders filled,
  numbers formatted by the locale, nested texts translated), a plain ``str`` as it is (names, ids). With ``name``,
  player references ``{@id}`` become names (:func:`games.core.format_text`).
- Catalogues, one gettext domain per part (:func:`domain_of`): ``core`` (``games/core.py`` and the other shared
  modules of ``games/``), each game (``games/<game>/`` and ``renderers/<game>.py``: ``tatari``, ``tsukimi``, …),
  ``renderers`` (shared drawing) and ``bot`` (the adapters, commands, help). ``bot/locales/<domain>.pot`` is extracted
  from the source (every ``T("…")`` and ``N("…", "…")`` call, and ``Tc``/``Nc`` with their message context), ``bot/locales/<lang>/LC_MESSAGES/<domain>.po`` holds
  the translations and the compiled ``<domain>.mo`` is what the bot reads (all of a language's domains merged). ``python -m bot i18n extract|update|compile|check`` keeps them
  (:func:`extract`, :func:`update`, :func:`compile_catalogues`, :func:`problems`).
- The terms of each game in each language are in ``bot/locales/glossary.toml``; :func:`problems` checks that a
  translation of a message using a glossary term uses the term's translation.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import gettext
import io
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from babel.numbers import format_decimal
from babel.support import Translations

from games.core import Text, fill, format_text, placeholders

LANGUAGES = ("en", "ja")
"""The languages the bot speaks; ``en`` is the source language (the message ids are English)."""

SOURCE = "en"
HERE = Path(__file__).resolve().parent
LOCALES = HERE / "locales"
"""Where the catalogues live (inside the package, so an installed bot has them)."""

ROOT = HERE.parent
SOURCES = ("games", "renderers", "bot")
"""Folders (under the project root) whose ``T``/``N`` calls are the catalogue's messages."""

KEYWORDS = {"T": None, "N": (1, 2), "Tc": ((1, "c"), 2), "Nc": ((1, "c"), 2, 3)}
"""Babel extraction keywords: ``T(msgid, …)``, ``N(singular, plural, …)`` and their forms with a message context
first, ``Tc(context, msgid, …)`` and ``Nc(context, singular, plural, …)`` (:mod:`games.core`; the context is the
entry's ``msgctxt``)."""

_FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f\u3000-\u303f\uff01-\uff5e]")


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


def domain_of(path: str | Path) -> str:
    """The catalogue domain of a source file (relative to the project root): ``games/tatari/rules.py`` and
    ``renderers/tatari.py`` and ``renderers/words/tatari.py`` -> ``tatari``; ``games/core.py`` -> ``core``; ``renderers/common.py`` -> ``renderers``;
    ``bot/…`` -> ``bot``."""
    parts = Path(path).parts
    if parts[0] == "games":
        return parts[1] if len(parts) > 2 else "core"
    if parts[0] == "renderers":
        return next((Path(p).stem for p in parts[1:] if Path(p).stem in _game_ids()), "renderers")
    return "bot"


@functools.cache
def _game_ids() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()))


def domains() -> tuple[str, ...]:
    """Every catalogue domain: ``core``, the games, ``renderers``, ``bot`` and ``commands`` (the slash commands'
    names and descriptions, with their place as the message context: :mod:`bot.discord.translator`)."""
    return ("core", *_game_ids(), "renderers", "bot", "commands")


def command_strings() -> list[tuple[str, str, str]]:
    """The slash commands' strings ``(msgid, place, where)`` (:func:`bot.discord.translator.tree_strings`)."""
    from .discord.translator import tree_strings

    return tree_strings()


@functools.cache
def translations(lang: str) -> Translations:
    """Every compiled catalogue of ``lang`` merged into one (English: none, the message ids are the English texts).
    A missing ``.mo`` reads as English; :func:`problems` reports it."""
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
    values = {k: number(v, lang) if isinstance(v, int) and not isinstance(v, bool)
              else date(v, lang) if isinstance(v, datetime.date) else render(v, lang) for k, v in text.args.items()}
    try:
        return fill(template, values)
    except ValueError:  # a catalogue entry whose placeholders differ: :func:`problems` fails the tests on it
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


def tr(lang: Any, msgid: str, **args: Any) -> str:
    """Shorthand for adapters: ``say(T(msgid, **args), lang)`` — ``msgid`` must be a literal (it is extracted
    under the keyword ``T`` only when written as ``T(…)``; use this for texts built here, with ``T`` inside)."""
    return say(Text(msgid, args), lang)


# ----------------------------------------------------------------------------------------------------------------
# Keeping the catalogues (python -m bot i18n …)


def catalogue_path(lang: str, domain: str, ext: str = "po") -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.{ext}"


def extract(root: Path = ROOT, commands: list[tuple[str, str, str]] | None = None) -> dict[str, Catalog]:
    """Every ``T``/``N`` message in :data:`SOURCES` with the places it is used, by domain (:func:`domain_of`), and
    the slash commands' strings (``commands``, default :func:`command_strings`) in ``commands``; :func:`update`
    writes them to ``bot/locales/<domain>.pot``."""
    templates = {d: Catalog(project="tabletop-bot", domain=d, fuzzy=False, charset="utf-8") for d in domains()}
    for folder in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            root / folder, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",),
            strip_comment_tags=True,
        ):
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            where = f"{folder}/{filename}"
            templates[domain_of(where)].add(message, None, [(where, lineno)], auto_comments=comments,
                                            context=context, flags=("python-brace-format",))
    for msgid, place, where in commands if commands is not None else command_strings():
        templates["commands"].add(msgid, None, [(where, 0)], context=place)
    return templates


def _write_po(catalog: Catalog, path: Path) -> None:
    """Without the header (its dates and tool versions would change every file at every update; the plural rules
    come from the language itself when read back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, sort_output=True, omit_header=True, include_lineno=False)
    path.write_bytes(buf.getvalue())


def update(langs: Iterable[str] = LANGUAGES[1:], root: Path = ROOT,
           commands: list[tuple[str, str, str]] | None = None) -> dict[str, int]:
    """Extract, write ``messages.pot`` and merge it into each language's ``.po`` (new messages untranslated,
    removed ones dropped). Returns language -> untranslated count."""
    left: dict[str, int] = {}
    for domain, template in extract(root, commands).items():
        if not len(template) and not catalogue_path(langs_first(langs), domain).exists():
            continue
        _write_po(template, LOCALES / f"{domain}.pot")
        for lang in langs:
            path = catalogue_path(lang, domain)
            if path.exists():
                with path.open("rb") as fh:
                    catalog = read_po(fh, locale=lang)
            else:
                catalog = Catalog(locale=lang, domain=domain, charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            for message in catalog:  # as many plural forms as the language has (ja: one)
                if isinstance(message.string, tuple) and len(message.string) != catalog.num_plurals:
                    message.string = (tuple(message.string) + ("",) * catalog.num_plurals)[:catalog.num_plurals]
            _write_po(catalog, path)
            left[lang] = left.get(lang, 0) + sum(1 for m in catalog if m.id and not _translated(m))
    return left


def langs_first(langs: Iterable[str]) -> str:
    return next(iter(langs), "ja")


def compile_catalogues(langs: Iterable[str] = LANGUAGES[1:]) -> list[Path]:
    """Compile each language's ``.po`` into the ``.mo`` the bot reads (the build's compile step)."""
    written = []
    for lang in langs:
        for po in sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po")):
            target = po.with_suffix(".mo")
            data = _mo_bytes(po, lang)
            if not target.exists() or target.read_bytes() != data:
                target.write_bytes(data)
            written.append(target)
    translations.cache_clear()
    return written


def _mo_bytes(po: Path, lang: str) -> bytes:
    """The compiled catalogue, the same bytes for the same translations (fixed header dates)."""
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    catalog.creation_date = catalog.revision_date = _FIXED_DATE
    catalog.project, catalog.version = "tabletop-bot", "1"
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def _entries(data: bytes) -> dict:
    """A compiled catalogue's messages (context, id) -> translation, its header left out."""
    def key(value):
        return tuple(value) if isinstance(value, (list, tuple)) else value

    return {(m.context, key(m.id)): key(m.string) for m in read_mo(io.BytesIO(data)) if m.id}


def _translated(message) -> bool:
    s = message.string
    return bool(all(s) if isinstance(s, tuple) else s) and not message.fuzzy


def _strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


@functools.cache
def glossary() -> dict[str, dict[str, str]]:
    """``bot/locales/glossary.toml``: section (a game id or ``common``) -> English term -> ja term."""
    with (LOCALES / "glossary.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return {section: dict(terms) for section, terms in data.items()}


def problems(lang: str = "ja", root: Path = ROOT, commands: list[tuple[str, str, str]] | None = None) -> list[str]:
    """What is wrong with ``lang``'s catalogues, one line each (empty when all is well): a message of the source
    without a translation, placeholders that differ from the message id's, a translation with no letter of the
    language (English left in), a glossary term not rendered by its translation, a ``.mo`` not compiled from its
    ``.po``."""
    out: list[str] = []
    for domain, source in extract(root, commands).items():
        path = catalogue_path(lang, domain)
        if not len(source):
            continue
        if not path.exists():
            out.append(f"{path.relative_to(root)}: missing ({len(source)} messages): run python -m bot i18n update")
            continue
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        terms = {**glossary().get("common", {}), **glossary().get(domain, {})}
        for m in source:
            if not m.id:
                continue
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            what = f"{key!r} (context {m.context!r})" if m.context else repr(key)  # a context is another message
            t = catalog.get(m.id, context=m.context)
            if t is None or not _translated(t):
                out.append(f"{domain}: untranslated: {what}")
                continue
            wanted = set().union(*(placeholders(i) for i in (m.id if isinstance(m.id, tuple) else (m.id,))))
            for s in _strings(t):
                if placeholders(s) != wanted:
                    out.append(f"{domain}: placeholders differ: {what} -> {s!r}")
                if lang == "ja" and _letters(key) and not _JAPANESE.search(fill(s, {k: "" for k in placeholders(s)})):
                    out.append(f"{domain}: not Japanese: {what} -> {s!r}")
            words = fill(key, {k: "" for k in placeholders(key)})  # a placeholder's name is no term: {dolls}
            for en, native in terms.items():
                if re.search(rf"\b{re.escape(en)}\b", words, re.IGNORECASE) and not any(native in s for s in _strings(t)):
                    out.append(f"{domain}: glossary: {what} uses {en!r}; its translation lacks {native!r}")
        mo = catalogue_path(lang, domain, "mo")
        if not mo.exists() or _entries(mo.read_bytes()) != _entries(_mo_bytes(path, lang)):
            out.append(f"{domain}: {mo.name} is not compiled from {path.name}: run python -m bot i18n compile")
    return out


def _letters(msgid: str) -> bool:
    """Whether a message id has words to translate (not only placeholders, numbers and punctuation)."""
    return bool(re.search(r"[A-Za-z]{2,}", fill(msgid, {k: "" for k in placeholders(msgid)})))


__all__ = ["LANGUAGES", "READER", "TABLE", "reader_lang", "speaking", "table_lang", "translator", "compile_catalogues", "domain_of", "domains", "extract", "glossary", "language", "number", "problems", "refusal", "render",
           "say", "tr", "translations", "update"]
