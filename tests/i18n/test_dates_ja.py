"""Dates follow the reader's language (the issue's "numbers, units and dates follow the locale"): a game's end date
is ISO in English ("2026-12-01", as before) and Babel's long form in Japanese ("2026年12月1日"), UTC both."""

from __future__ import annotations

import datetime

from bot import i18n
from bot.results import date_text
from games.core import T

DEC_1_2026_23H_UTC = 1_796_166_000_000
"""2026-12-01 23:00 UTC in ms (in Tokyo it is already 12/2: the date is the UTC date in every language)."""


def test_a_date_is_iso_in_english_and_long_form_in_japanese():
    day = date_text(DEC_1_2026_23H_UTC)
    assert str(day) == i18n.say(day, "en") == "2026-12-01"
    assert i18n.say(day, "ja") == "2026年12月1日"
    assert i18n.date(datetime.date(2027, 1, 15), "ja") == "2027年1月15日"


def test_a_date_inside_a_sentence_is_written_in_the_sentences_language():
    line = T("{game} {place} ({date})", game="Tatari", place=T("abandoned"), date=date_text(DEC_1_2026_23H_UTC))
    assert str(line) == "Tatari abandoned (2026-12-01)"
    assert "2026年12月1日" in i18n.say(line, "ja") and "2026-12-01" not in i18n.say(line, "ja")
