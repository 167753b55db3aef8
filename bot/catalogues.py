"""Keeping the translation catalogues (``python -m bot i18n extract|update|compile|check``; ARCHITECTURE.md,
"Text and languages"): Babel extracts every ``T("…")``/``N("…", "…")`` call (and ``Tc``/``Nc`` with their message
context) of :data:`SOURCES` into ``bot/locales/<domain>.pot`` by domain (:func:`domain_of`), merges them into each
language's ``bot/locales/<lang>/LC_MESSAGES/<domain>.po`` and compiles the ``.mo`` the bot reads
(:mod:`bot.i18n`, the runtime, never imports this module).

The slash commands' strings (the ``commands`` domain) come from the caller, as ``(msgid, place, where)`` triples
(:func:`bot.discord.bot.command_strings`, collected by the CLI): this module starts nothing of the bot.

- :func:`extract`, :func:`update`, :func:`compile_catalogues`;
- :func:`problems`: a message without its translation, placeholders that differ, English left in a Japanese text,
  a glossary term (``bot/locales/glossary.toml``, :func:`glossary`) not rendered by its translation, a ``.mo`` not
  compiled from its ``.po``, and a catalogue entry the source no longer uses.
"""

from __future__ import annotations

import datetime
import functools
import io
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from games.core import fill, placeholders

from .i18n import LANGUAGES, LOCALES, ROOT, catalogue_path, domains, game_ids, translations

Commands = list[tuple[str, str, str]]
"""The slash commands' strings ``(msgid, place, where)``: ``place`` a Discord translation context location name
(the entry's ``msgctxt``), ``where`` the command (``"/settings:pings"``)."""

SOURCES = ("games", "renderers", "bot")
"""Folders (under the project root) whose ``T``/``N`` calls are the catalogue's messages."""

KEYWORDS = {"T": None, "N": (1, 2), "Tc": ((1, "c"), 2), "Nc": ((1, "c"), 2, 3)}
"""Babel extraction keywords: ``T(msgid, …)``, ``N(singular, plural, …)`` and their forms with a message context
first, ``Tc(context, msgid, …)`` and ``Nc(context, singular, plural, …)`` (:mod:`games.core`; the context is the
entry's ``msgctxt``)."""

_FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f\u3000-\u303f\uff01-\uff5e]")


def domain_of(path: str | Path) -> str:
    """The catalogue domain of a source file (relative to the project root): ``games/tatari/rules.py`` and
    ``renderers/tatari.py`` and ``renderers/words/tatari.py`` -> ``tatari``; ``games/core.py`` -> ``core``;
    ``renderers/common.py`` -> ``renderers``; ``bot/…`` -> ``bot``."""
    parts = Path(path).parts
    if parts[0] == "games":
        return parts[1] if len(parts) > 2 else "core"
    if parts[0] == "renderers":
        return next((Path(p).stem for p in parts[1:] if Path(p).stem in game_ids()), "renderers")
    return "bot"


def extract(commands: Commands, root: Path = ROOT) -> dict[str, Catalog]:
    """Every ``T``/``N`` message in :data:`SOURCES` with the places it is used, by domain (:func:`domain_of`), and
    the slash commands' strings ``commands`` in the ``commands`` domain; :func:`update` writes them to
    ``bot/locales/<domain>.pot``."""
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
    for msgid, place, where in commands:
        templates["commands"].add(msgid, None, [(where, 0)], context=place)
    return templates


def _write_po(catalog: Catalog, path: Path) -> None:
    """Without the header (its dates and tool versions would change every file at every update; the plural rules
    come from the language itself when read back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, sort_output=True, omit_header=True, include_lineno=False)
    path.write_bytes(buf.getvalue())


def update(commands: Commands, langs: Iterable[str] = LANGUAGES[1:], root: Path = ROOT) -> dict[str, int]:
    """Extract, write ``messages.pot`` and merge it into each language's ``.po`` (new messages untranslated,
    removed ones dropped). Returns language -> untranslated count."""
    left: dict[str, int] = {}
    for domain, template in extract(commands, root).items():
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


def problems(commands: Commands, lang: str = "ja", root: Path = ROOT) -> list[str]:
    """What is wrong with ``lang``'s catalogues, one line each (empty when all is well): a message of the source
    without a translation, placeholders that differ from the message id's, a translation with no letter of the
    language (English left in), a glossary term not rendered by its translation, an entry the source no longer
    uses (``python -m bot i18n update`` drops it), a ``.mo`` not compiled from its ``.po``."""
    out: list[str] = []
    for domain, source in extract(commands, root).items():
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
            what = _what(m)
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
        out.extend(f"{domain}: unused: {_what(m)}: run python -m bot i18n update"
                   for m in catalog if m.id and source.get(m.id, context=m.context) is None)
        mo = catalogue_path(lang, domain, "mo")
        if not mo.exists() or _entries(mo.read_bytes()) != _entries(_mo_bytes(path, lang)):
            out.append(f"{domain}: {mo.name} is not compiled from {path.name}: run python -m bot i18n compile")
    return out


def _what(message) -> str:
    """A message as a problem line names it: its id, and its context when it has one (a context is another
    message)."""
    key = message.id[0] if isinstance(message.id, tuple) else message.id
    return f"{key!r} (context {message.context!r})" if message.context else repr(key)


def _letters(msgid: str) -> bool:
    """Whether a message id has words to translate (not only placeholders, numbers and punctuation)."""
    return bool(re.search(r"[A-Za-z]{2,}", fill(msgid, {k: "" for k in placeholders(msgid)})))


__all__ = ["KEYWORDS", "SOURCES", "Commands", "compile_catalogues", "domain_of", "extract", "glossary", "problems",
           "update"]
