"""Whole games rendered in Japanese (ARCHITECTURE.md "Text and languages"): every text an engine makes must be a
:class:`games.core.Text` (a plain ``str`` escaped the catalogue) and its Japanese must hold no English word.

:class:`JaReader` collects what a player reads (prompts, option labels, events, statuses, results, refusals) and
the problems found; the per-game tests drive whole games through it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot import i18n
from games.core import Decision, Game, IllegalMove, Result, Text

ASCII_WORD = re.compile(r"[A-Za-z]{2,}")
"""An English word: two or more Latin letters in a row (single letters are dice faces "T", die names "A", rows)."""

PUNCTUATION = re.compile(r"[、。，．][、。，．]|[^\x00-\x7f],|, ?[^\x00-\x7f]| · ")
"""What a Japanese sentence never has: two marks of punctuation in a row (「。、」), an ASCII comma between Japanese
words (lists take 「、」) or the Latin " · " (a list of dice takes 「、」; a status line's fields may keep it: a
line of fields, no sentence)."""

REF = re.compile(r"\{@[^{}]+\}|\b[A-Z]{2}-\d+\b")
"""A player reference ``{@id}`` (names are never translated; the ids are test names) or a ruling id (``TA-3``: the
rulings are cited by their ids in every language)."""


class JaReader:
    """Reads texts in Japanese. ``allowed``: Latin words that may stay (ids a player types, coordinates' corner
    names such as ``ne``); ``lines``: the Japanese read, in order; ``problems``: one line per text that is no
    :class:`Text` or whose Japanese keeps an English word."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = {w.lower() for w in allowed}
        self.lines: list[str] = []
        self.problems: list[str] = []
        self.count = 0

    def read(self, text: object, where: str, echo: str = "") -> str:
        """``text`` in Japanese (player references kept as ``{@id}``); a problem when it is not a Text or keeps
        English words (``echo``, what the player typed and the refusal repeats, is not checked)."""
        self.count += 1
        if not isinstance(text, Text):
            self.problems.append(f"{where}: not a Text: {text!r}")
            return str(text)
        ja = i18n.say(text, "ja")
        said = ja.replace(echo.strip(), "") if echo.strip() else ja
        english = [w for w in ASCII_WORD.findall(REF.sub("", said)) if w.lower() not in self.allowed]
        if english:
            self.problems.append(f"{where}: English {english} in {ja!r} (en: {str(text)!r})")
        marks = PUNCTUATION.findall(REF.sub("X", said).replace(" · ", "、") if where == "status" else REF.sub("X", said))
        if marks:
            self.problems.append(f"{where}: punctuation {marks} in {ja!r}")
        self.lines.append(ja)
        return ja

    def decision(self, d: Decision) -> None:
        self.read(d.prompt, f"prompt of {d.kind}")
        for o in d.options:
            self.read(o.label, f"label of {d.kind}/{o.id}")

    def events(self, events) -> None:
        for e in events:
            self.read(e.text, f"event {e.kind}")

    def result(self, r: Result) -> None:
        self.read(r.reason, "result reason")
        for p, s in r.standings.items():
            self.read(s, f"standing of {p}")

    def refusal(self, game: Game, state, move) -> bool:
        """Apply ``move``, which must be refused by the game's own rules (not the contract's shared wording of
        :meth:`Game.find_decision`); read the refusal. False if the move was accepted."""
        try:
            game.apply(state, move)
        except IllegalMove as exc:
            self.read(exc.args[0], f"refusal of {move.option!r} by {move.player}", echo=move.option)
            return True
        return False

    def help(self, game: Game) -> None:
        self.read(game.summary, "summary")
        for topic, text in game.rules_help.items():
            self.read(text, f"/rules {topic or '(overview)'}")
