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
  compiled from its ``.po``, a catalogue entry the source no longer uses, and a sentence of a game's rules or
  refusals in Japanese plain form (:func:`registers`: they speak です・ます, STYLE.md).
"""

from __future__ import annotations

import ast
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
    plain = registers(lang, root) if lang == "ja" else {}
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
        for kind, found in plain.get(domain, {}).items():
            out.extend(f"{domain}: plain form in its {kind} (です・ます wanted): {s!r}" for s in found["plain"])
        out.extend(f"{domain}: unused: {_what(m)}: run python -m bot i18n update"
                   for m in catalog if m.id and source.get(m.id, context=m.context) is None)
        mo = catalogue_path(lang, domain, "mo")
        if not mo.exists() or _entries(mo.read_bytes()) != _entries(_mo_bytes(path, lang)):
            out.append(f"{domain}: {mo.name} is not compiled from {path.name}: run python -m bot i18n compile")
    return out


POLITE = ("です", "ます", "ません", "でした", "ました", "ましょう", "ください", "でしょう")
"""How a Japanese sentence in the polite register (です・ます) ends."""
_PLAIN = re.compile(r"[るうくつぬむぶぐすただいずか]$")
"""How a sentence in the plain register ends (a verb, adjective or だ; a noun or a list item is neither)."""
_SENTENCES = re.compile(r"[。！？!?\n]+")
_ASIDES = re.compile(r"「[^「」]*」|（[^（）]*）|\([^()]*\)")
"""A quoted word (「はい！」) or an aside in brackets: not where a sentence's register shows."""
KINDS = ("rules", "refusals")
"""What :func:`registers` sorts a game's texts into: its ``/rules`` texts (``games/<game>/help.py``) and its
refusals (texts made inside an ``IllegalMove(…)`` or a function named for a refusal)."""


def register_of(sentence: str) -> str | None:
    """``"polite"`` (ends in です, ます, ません, ください, …), ``"plain"`` (ends in a verb, adjective or だ: 勝つ,
    できない, 1歩だ), or None (a noun, a list item, a quoted word): the register of one Japanese sentence."""
    sentence = sentence.strip().rstrip("）」』)…・ 　")
    if sentence.endswith(POLITE):
        return "polite"
    return "plain" if _PLAIN.search(sentence) else None


def game_texts(game: str, root: Path = ROOT) -> dict[tuple[str | None, str], str]:
    """``(context, msgid)`` -> kind (:data:`KINDS`) of the texts of ``games/<game>/`` that are rules or refusals."""
    found: dict[tuple[str | None, str], str] = {}
    makers = {"T": 0, "N": 0, "Tc": 1, "Nc": 1}

    def visit(node: ast.AST, kind: str | None, rules: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "refusal" in node.name:
            kind = "refusals"
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "IllegalMove":
                kind = "refusals"
            at = makers.get(name or "")
            if at is not None and len(node.args) > at and isinstance(node.args[at], ast.Constant):
                context = node.args[0].value if at else None
                if kind or rules:
                    found[(context, node.args[at].value)] = kind or "rules"
        for child in ast.iter_child_nodes(node):
            visit(child, kind, rules)

    for path in sorted((root / "games" / game).rglob("*.py")):
        visit(ast.parse(path.read_text(encoding="utf-8")), None, path.name == "help.py")
    return found


def registers(lang: str = "ja", root: Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """Per game, per kind (:data:`KINDS`), the sentences of its ``lang`` rules and refusals that are polite and
    plain: ``{"tatari": {"rules": {"polite": [...], "plain": [...]}, …}}`` (:func:`register_of`)."""
    out: dict[str, dict[str, dict[str, list[str]]]] = {}
    for game in game_ids():
        path = catalogue_path(lang, game)
        if not path.exists():
            continue
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        by_kind = out.setdefault(game, {k: {"polite": [], "plain": []} for k in KINDS})
        for (context, msgid), kind in game_texts(game, root).items():
            message = next((m for m in catalog if m.context == context and
                            (m.id[0] if isinstance(m.id, tuple) else m.id) == msgid), None)
            if message is None or not _translated(message):
                continue
            for string in _strings(message):
                filled = _ASIDES.sub("〇", fill(string, {k: "〇" for k in placeholders(string)}))
                for sentence in _SENTENCES.split(filled):
                    register = register_of(sentence)
                    if register:
                        by_kind[kind][register].append(sentence.strip())
    return out


def register_lines(lang: str = "ja", root: Path = ROOT) -> list[str]:
    """The register of each game's rules and refusals, one line a game: ``tatari: rules 24 polite, 0 plain;
    refusals 9 polite, 0 plain``."""
    return [f"{game}: " + "; ".join(f"{kind} {len(r['polite'])} polite, {len(r['plain'])} plain"
                                   for kind, r in kinds.items())
            for game, kinds in registers(lang, root).items()]


def _what(message) -> str:
    """A message as a problem line names it: its id, and its context when it has one (a context is another
    message)."""
    key = message.id[0] if isinstance(message.id, tuple) else message.id
    return f"{key!r} (context {message.context!r})" if message.context else repr(key)


def _letters(msgid: str) -> bool:
    """Whether a message id has words to translate (not only placeholders, numbers and punctuation)."""
    return bool(re.search(r"[A-Za-z]{2,}", fill(msgid, {k: "" for k in placeholders(msgid)})))


__all__ = ["KEYWORDS", "KINDS", "POLITE", "SOURCES", "Commands", "compile_catalogues", "domain_of", "extract",
           "game_texts", "glossary", "problems", "register_lines", "register_of", "registers", "update"]
