"""Images in the table's language: every text drawn with the renderers' fonts and helpers goes through the
``translate`` that :func:`renderers.render` was given (ARCHITECTURE.md "Text and languages"), and the caches never
hand the English mask to another language."""

from __future__ import annotations

from games.core import T
from renderers.common import font, text_mask, text_tile, translating, words


def _ja(text):
    return {"Board {n}": "盤面{n}"}.get(text.msgid, str(text)).replace("{n}", str(text.args.get("n", "")))


def test_a_text_is_drawn_in_the_language_of_the_render_and_plain_strings_as_they_are():
    board = T("Board {n}", n=3)
    english = text_mask(board, 13, True)[0]
    with translating(_ja):
        assert words(board) == "盤面3" and words("alice") == "alice"
        japanese = text_mask(board, 13, True)[0]
        assert japanese.tobytes() == text_mask("盤面3", 13, True)[0].tobytes()
        assert font(13).getlength(board) == font(13).getlength("盤面3")
        assert text_tile(board, 13, True, "la", (0, 0, 0), (255, 255, 255))[0].size == \
            text_tile("盤面3", 13, True, "la", (0, 0, 0), (255, 255, 255))[0].size
    assert english.tobytes() == text_mask("Board 3", 13, True)[0].tobytes() != japanese.tobytes()
    assert words(board) == "Board 3"
