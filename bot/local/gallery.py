"""``python -m bot gallery --out DIR``: representative boards of every game and player count, for review as a
player would see them on a phone.

For each game and player count, a seeded random-legal game is played through the games contract
(``Game.begin``, ``pending``, ``apply``; players from :mod:`games.ai`) and these positions are drawn with
``renderers.render(state, names, full=…)``:

- ``start``: after setup;
- ``decision``: the first decision whose options mark places on the board (``Option.locus``), else one mid-game;
- ``race``: the first open race (a decision anyone may answer before a deadline), where the game has one;
- ``end``: the final position;
- ``full``: the whole board (``full=True``) at the decision's position.

Each is written at full size (``tatari-3p-start.png``) and scaled to 400 px wide (``tatari-3p-start@400.png``),
plus ``index.html`` showing them side by side. With ``--colour-vision`` each phone copy is also written as seen
in greyscale and with protanopia, deuteranopia and tritanopia (``tatari-3p-start@400-deuteranopia.png``). Display names mix scripts and emoji (Japanese, Chinese, Korean,
Thai, Cyrillic, Devanagari, mathematical letters, Greek, a flag), so the gallery also shows every script on every
board.
"""

from __future__ import annotations

import html
import io
import random
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

import games
import renderers
from games.ai import next_move
from renderers.common import VISIONS, simulate_image

from ..i18n import translator

PHONE_WIDTH = 400
"""Width (px) of the phone-sized copy of each board."""

NAMES = ["さくら髙橋", "小明🐉冇", "민준 สมชาย", "Ёжик देव", "𝓐𝓵𝓲𝓬𝓮 Αλ🇯🇵"]
"""Display names of the seats: Japanese (a JIS X 0213 kanji), Chinese with an emoji and Cantonese, Korean and
Thai, Cyrillic and Devanagari, mathematical letters, Greek and a flag."""

OPTIONS = {("tatsumi", 1): {"solo": True}, ("tatsumi", 4): {"weather": True}, ("tatsumi", 5): {"void": True}}
"""Lobby options of the gallery games: the player counts that need a module (Tatsumi solo, the Void for five)
get it, and one count shows an optional module (Tatsumi's weather)."""

MAX_MOVES = 3000
"""Moves after which a gallery game stops (and its last position is the ``end`` board)."""


@dataclass
class GalleryGame:
    """The boards written for one game and player count: ``files`` (full size and 400 px), ``moves`` played."""

    game: str
    players: int
    moves: int = 0
    files: list[Path] = field(default_factory=list)


def _has_markers(game, state) -> bool:
    return any(games.marker_keys(d.options) for d in game.pending(state))


def _is_race(game, state) -> bool:
    return any(d.player is None and d.deadline_ms is not None for d in game.pending(state))


def play(game, n: int, seed: int) -> dict[str, object] | None:
    """Representative positions of one seeded random-legal game of ``n`` players (lobby options from
    :data:`OPTIONS`): {"start", "decision", "race" (if any), "end"} -> state, plus "moves" (int). None when the
    game cannot seat ``n`` players."""
    players = [f"p{i}" for i in range(n)]
    try:
        state = game.begin(players, OPTIONS.get((game.id, n)), seed).state
    except ValueError:
        return None
    rng = random.Random(seed)
    picks: dict[str, object] = {"start": state}
    middle = None
    moves = 0
    while moves < MAX_MOVES:
        if "decision" not in picks and moves and _has_markers(game, state):
            picks["decision"] = state
        if "race" not in picks and _is_race(game, state):
            picks["race"] = state
        move = next_move(game, state, {}, rng)
        if move is None:
            break
        state = game.apply(state, move).state
        moves += 1
        if moves == 8:
            middle = state
    picks.setdefault("decision", middle if middle is not None else picks["start"])
    picks["end"] = state
    picks["moves"] = moves
    return picks


def _save(png: bytes, out: Path, stem: str, visions: tuple[str, ...] = ()) -> list[Path]:
    """Write ``stem.png`` and ``stem@400.png`` (scaled to :data:`PHONE_WIDTH`, aspect kept), and for each of
    ``visions`` (see :data:`renderers.common.VISIONS`) ``stem@400-<vision>.png``, the phone copy as seen with it."""
    full = out / f"{stem}.png"
    full.write_bytes(png)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    h = max(1, round(img.height * PHONE_WIDTH / img.width))
    small = out / f"{stem}@{PHONE_WIDTH}.png"
    phone = img.resize((PHONE_WIDTH, h), Image.Resampling.LANCZOS)
    phone.save(small, optimize=False, compress_level=1)
    written = [full, small]
    for vision in visions:
        written.append(out / f"{stem}@{PHONE_WIDTH}-{vision}.png")
        simulate_image(phone, vision).save(written[-1], optimize=False, compress_level=1)
    return written


def write_gallery(out: Path, game_ids: list[str] | None = None, seed: int = 1,
                  visions: tuple[str, ...] = (), lang: str = "en") -> list[GalleryGame]:
    """Write the gallery of ``game_ids`` (default: every game) into ``out`` (created) and its ``index.html``;
    with ``visions`` (e.g. :data:`renderers.common.VISIONS`) also each phone copy as seen with them; every text
    drawn in ``lang`` (:mod:`bot.i18n`).
    ``KeyError`` for an unknown game id, ``ValueError`` for an unknown vision. Deterministic for a given ``seed``."""
    for vision in visions:
        if vision not in VISIONS:
            raise ValueError(f"unknown vision {vision!r}; one of {', '.join(VISIONS)}")
    chosen = [games.get(g) for g in game_ids] if game_ids else list(games.all())
    out.mkdir(parents=True, exist_ok=True)
    translate = translator(lang)
    done: list[GalleryGame] = []
    for game in chosen:
        for n in range(game.min_players, game.max_players + 1):
            picks = play(game, n, seed + n)
            if picks is None:
                continue
            names = {f"p{i}": NAMES[i % len(NAMES)] for i in range(n)}
            entry = GalleryGame(game.id, n, moves=int(picks.pop("moves")))
            for label, state in picks.items():
                stem = f"{game.id}-{n}p-{label}"
                entry.files += _save(renderers.render(state, names, full=False, translate=translate), out, stem,
                                     visions)
            entry.files += _save(renderers.render(picks["decision"], names, full=True, translate=translate), out,
                                 f"{game.id}-{n}p-full", visions)
            done.append(entry)
    _index(out, done)
    return done


def _index(out: Path, done: list[GalleryGame]) -> None:
    rows = []
    for entry in done:
        cells = []
        for path in entry.files:
            if f"@{PHONE_WIDTH}" in path.name and "-" not in path.stem.split("@")[-1]:
                continue
            if "@" in path.stem:  # a colour-vision copy: shown as it is
                cells.append(f'<figure><img src="{html.escape(path.name)}" width="{PHONE_WIDTH}">'
                             f'<figcaption>{html.escape(path.stem)}</figcaption></figure>')
                continue
            small = path.with_name(path.stem + f"@{PHONE_WIDTH}.png").name
            cells.append(f'<figure><a href="{html.escape(path.name)}"><img src="{html.escape(small)}" '
                         f'width="{PHONE_WIDTH}"></a><figcaption>{html.escape(path.stem)}</figcaption></figure>')
        rows.append(f"<h2>{html.escape(entry.game)}, {games.plural(entry.players, 'player')}, {games.plural(entry.moves, 'move')}</h2>"
                    f"<div>{''.join(cells)}</div>")
    (out / "index.html").write_text(
        "<!doctype html><meta charset='utf-8'><title>Board gallery</title>"
        "<style>figure{display:inline-block;vertical-align:top;margin:8px}</style>"
        "<h1>Board gallery: each board as a phone shows it (400 px); click for full size</h1>" + "".join(rows),
        encoding="utf-8")
