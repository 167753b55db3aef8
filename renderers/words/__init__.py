"""The board in words: alt text for each board image and the whole board for a "Describe" button.

One module per game, ``renderers.words.<game id>``, with two pure functions (no bot, discord, asyncio or clock):

- ``alt_text(state, names) -> str``: the image's alt text (a Discord attachment ``description``), at most
  :data:`ALT_LIMIT` characters, never empty. With a decision open it names every option by the key the board and the
  buttons show (:func:`games.marker_keys`: ``"3 · C3-n"``; an option without a place is named by its label) and the
  state the decision depends on; with none open, a short summary of the board. Too long a text loses its least
  important parts first (:func:`fit`); the option keys are never dropped.
- ``board_words(state, names) -> list[str]``: the whole board in words, as chunks of at most :data:`CHUNK_LIMIT`
  characters each (one ephemeral message per chunk), split between lines.

``names`` maps player ids to display names; a player without one is called "player N" (seat order), never by id.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games import Decision, Game, format_text, marker_keys
from games.core import BaseState

ALT_LIMIT = 1024
"""Discord's limit on an attachment description (characters)."""

CHUNK_LIMIT = 1900
"""Characters per message chunk of :func:`board_words` (Discord allows 2,000)."""


def _module(game_id: str):
    try:
        return importlib.import_module(f"renderers.words.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no words for {game_id!r}") from exc


def alt_text(state: BaseState, names: dict[str, str] | None = None) -> str:
    """The alt text of ``state``'s board image (any game), ≤ :data:`ALT_LIMIT` characters; ``KeyError`` for a
    game without words."""
    return _module(state.game).alt_text(state, names or {})


def board_words(state: BaseState, names: dict[str, str] | None = None) -> list[str]:
    """The whole board of ``state`` in words: chunks of ≤ :data:`CHUNK_LIMIT` characters."""
    return _module(state.game).board_words(state, names or {})


# -- shared pieces -------------------------------------------------------------------------------------------------
def plural(n: int, word: str, many: str = "") -> str:
    """``plural(1, "ring")`` -> ``"1 ring"``, ``plural(2, "ring")`` -> ``"2 rings"``; ``many``: an irregular plural."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def namer(state: BaseState, names: dict[str, str]) -> Callable[[str], str]:
    """Player id -> display name; "player N" (seat number from 1) for an id without a name."""
    seats = {p: i for i, p in enumerate(state.players)}

    def name(pid: str) -> str:
        got = names.get(pid)
        if got:
            return got
        return f"player {seats[pid] + 1}" if pid in seats else "a player"

    return name


def words(text: str, name: Callable[[str], str]) -> str:
    """An engine text with its ``{@id}`` references turned into names."""
    return format_text(text, name)


def listing(items: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass
class Part:
    """One piece of an alt text: ``full`` text, a ``short`` fallback ("" drops it) and its ``rank`` (higher is
    dropped or shortened later)."""

    full: str
    short: str = ""
    rank: int = 0


def fit(parts: list[Part], limit: int = ALT_LIMIT) -> str:
    """Join ``parts`` with spaces within ``limit`` characters: lowest rank first (the later of equal ranks first),
    each part is shortened when it has a short form, else dropped (below rank :data:`KEEP`); a text still too long
    is cut at a word with "…"."""
    texts = [p.full for p in parts]

    def joined() -> str:
        return " ".join(t for t in texts if t)

    order = sorted(range(len(parts)), key=lambda i: (parts[i].rank, -i))
    for i in order:
        if len(joined()) <= limit:
            return joined()
        if parts[i].short:
            texts[i] = parts[i].short
        elif parts[i].rank < KEEP:
            texts[i] = ""
    text = joined()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


KEEP = 100
"""Parts of this rank or higher are shortened but never dropped (the decision and its option keys)."""


def option_entries(decision: Decision, name: Callable[[str], str],
                   where: Callable[[str], str] | None = None) -> tuple[list[str], list[str]]:
    """The options of ``decision`` as the buttons name them, options sharing a marker key joined:
    ``(full, short)`` entries. Full: ``"2 · Red Pine at 4-6, or Cedar at 4-6 (an empty tile)"`` (``where(locus)``
    adds the place's state); short: ``"2 · Red Pine at 4-6"`` (the first label), or the label alone for an option
    without a place."""
    keys = marker_keys(decision.options)
    groups: dict[str, list] = {}
    order: list[str] = []
    for opt in decision.options:
        key = keys.get(opt.id) or words(opt.label, name) or opt.id
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(opt)
    full, short = [], []
    for key in order:
        opts = groups[key]
        if opts[0].id not in keys:
            full.append(key)
            short.append(key)
            continue
        labels = [words(o.label, name) for o in opts]
        extra = where(opts[0].locus) if where is not None else ""
        full.append(f"{key} · {', or '.join(labels)}" + (f" ({extra})" if extra else ""))
        short.append(f"{key} · {labels[0]}" + (" …" if len(labels) > 1 else ""))
    return full, short


def decision_parts(game: Game, state: BaseState, name: Callable[[str], str],
                   where: Callable[[str], str] | None = None) -> list[Part]:
    """Parts naming every pending decision: who answers and what (the prompt), then its options
    (rank :data:`KEEP`: shortened to their keys at the most, never dropped)."""
    parts: list[Part] = []
    for d in game.pending(state):
        prompt = words(d.prompt, name).rstrip()
        if prompt and prompt[-1] not in ".?!:":
            prompt += "."
        who = "" if d.player is None or name(d.player) in prompt else f"{name(d.player)} decides. "
        parts.append(Part(who + prompt, rank=KEEP + 2))
        if not d.options:
            continue
        full, short = option_entries(d, name, where)
        keys = marker_keys(d.options)
        only_keys = list(dict.fromkeys(keys.get(o.id) or words(o.label, name) or o.id for o in d.options))
        brief = "Options: " + "; ".join(short)
        if len(brief) > ALT_LIMIT // 2:
            brief = "Options: " + ", ".join(only_keys)
        parts.append(Part(_end("Options: " + "; ".join(full)), _end(brief), KEEP + 1))
    return [p for p in parts if p.full or p.short]


def _end(text: str) -> str:
    return text if text[-1:] in ".?!" else text + "."


def chunks(lines: Sequence[str], limit: int = CHUNK_LIMIT) -> list[str]:
    """``lines`` joined by newlines into chunks of at most ``limit`` characters (a longer line is cut at words)."""
    out: list[str] = []
    cur = ""
    for line in lines:
        while len(line) > limit:
            head = line[:limit].rsplit(" ", 1)[0] or line[:limit]
            lines_rest = line[len(head):].lstrip()
            if cur:
                out.append(cur)
                cur = ""
            out.append(head)
            line = lines_rest
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur:
        out.append(cur)
    return out or ["The board is empty."]
