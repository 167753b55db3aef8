"""Every literal message of the source reaches the catalogues (bot/i18n.py ``extract``): Babel's extractor skips a
``T(…)`` nested inside the arguments of another ``T(…)`` in some shapes (a comprehension or a ``Text.join`` in a
keyword argument), and such a text would read in English in every language without any other test noticing."""

from __future__ import annotations

import ast

from bot import catalogues, i18n


def literal_messages() -> list[tuple[str, int, str]]:
    """(file, line, msgid) of every ``T("…")``/``N("…", …)`` call with a literal message id (the second argument
    of ``Tc``/``Nc``, whose first is the context)."""
    found = []
    for folder in catalogues.SOURCES:
        for path in sorted((i18n.ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in catalogues.KEYWORDS
                        and len(node.args) > (i := 1 if node.func.id in ("Tc", "Nc") else 0)
                        and isinstance(node.args[i], ast.Constant)
                        and isinstance(node.args[i].value, str) and node.args[i].value):
                    found.append((str(path.relative_to(i18n.ROOT)), node.lineno, node.args[i].value))
    return found


def test_every_literal_message_is_extracted():
    extracted = {m.id if isinstance(m.id, str) else m.id[0]
                 for catalog in catalogues.extract([]).values() for m in catalog if m.id}
    literals = literal_messages()
    assert len(literals) > 1000, len(literals)
    assert [(f, line, msgid[:60]) for f, line, msgid in literals if msgid not in extracted] == []

