"""A text cannot lose its language (games.core.Text; ARCHITECTURE.md "Text and languages"): ``text + str`` and
``str + text`` keep the translation, and no player-facing module puts a ``T()``/``N()`` result in an f-string, a
``+`` or ``str.format`` (the source is walked, so a mutation that does is caught before it reaches a table: "✅
Counted." would read English at a Japanese table)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import catalogues, i18n
from games.core import QUOTE_LIMIT, IllegalMove, N, T, Text, clip

ROOT = Path(__file__).resolve().parents[2]
MAKERS = {"T", "N", "Tc", "Nc"}


def _is_call_to_maker(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id in MAKERS) or (
        isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Name)
        and func.value.id == "Text")


def _text_names(tree: ast.AST) -> set[str]:
    """Names every assignment of which (in the module, any scope) is a T()/N()/Text.join() result."""
    made: set[str] = set()
    other: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    (made if _is_call_to_maker(node.value) else other).add(target.id)
        elif isinstance(node, ast.For | ast.comprehension) and isinstance(node.target, ast.Name):
            other.add(node.target.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
    return made - other


def losses(source: str, filename: str = "<source>") -> list[str]:
    """Where ``source`` builds a plain string around a text: ``file:line`` per f-string, ``+`` or ``.format`` with a
    ``T()``/``N()``/``Text.join()`` result (or a name always bound to one) as a piece."""
    tree = ast.parse(source, filename=filename)
    names = _text_names(tree)

    def is_text(node: ast.AST) -> bool:
        return _is_call_to_maker(node) or (isinstance(node, ast.Name) and node.id in names)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            bad = any(isinstance(v, ast.FormattedValue) and is_text(v.value) for v in node.values)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            bad = is_text(node.left) or is_text(node.right)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            bad = any(is_text(a) for a in [*node.args, *(k.value for k in node.keywords)])
        else:
            continue
        if bad:
            found.append(f"{filename}:{node.lineno}")
    return found


def test_no_player_facing_module_builds_a_plain_string_around_a_text():
    found = []
    for folder in catalogues.SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += losses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


@pytest.mark.parametrize("mutation", [
    'x = f"{T(\'Counted.\')} ✅"',
    'x = "✅ " + T("Counted.")',
    'x = T("Counted.") + "!"',
    'DONE = T("Counted.")\ndef f():\n    return f"✅ {DONE}"',
    'x = "{} h".format(N("{n} hour", "{n} hours", n=2))',
    'x = f"{Text.join(\', \', parts)}."',
])
def test_a_mutation_that_puts_a_text_in_an_f_string_or_a_plus_is_caught(mutation):
    assert losses(mutation) == ["<source>:" + str(mutation.count("\n") + 1)]


def test_a_name_bound_to_something_else_too_is_not_a_text():
    assert losses('x = T("a")\nx = "b"\ny = f"{x}"') == []
    assert losses('def f(label):\n    return f"[{label}]"') == []


def test_plus_keeps_the_translation_on_both_sides(monkeypatch):
    counted = T("Counted.")
    left, right = "✅ " + counted, counted + " ✅"
    assert isinstance(left, Text) and isinstance(right, Text)
    assert left == "✅ Counted." and right == "Counted. ✅"
    ja = i18n.say(left, "ja")
    assert ja.startswith("✅ ") and "Counted" not in ja
    hours = N("{n} hour", "{n} hours", n=24) + " unless they return"
    assert hours == "24 hours unless they return" and hours.parts[0].plural == "{n} hours"


def test_a_refusal_quotes_a_typed_value_at_most_100_characters_and_keeps_its_reason():
    typed = "y" * 3000
    exc = IllegalMove(T("'{option}' is not a choice now. Choose one of: {choices}.", option=typed, choices="a, b"))
    text = exc.text
    assert text.args["option"] == "y" * (QUOTE_LIMIT - 1) + "…" and str(text).endswith("Choose one of: a, b.")
    assert len(clip(typed)) == QUOTE_LIMIT and clip("short") == "short"
    assert i18n.say(text, "ja").count("y") == QUOTE_LIMIT - 1


def test_formatting_a_text_raises_and_str_is_the_english_on_purpose():
    """An f-string, ``format()`` or ``str.format`` around a text could only give its English: refused with a
    TypeError that says what to do; ``{text!s}`` and ``str(text)`` are the English asked for (logs, ids)."""
    counted = T("Counted.")
    for attempt in (lambda: f"✅ {counted}", lambda: format(counted, ""), lambda: "✅ {}".format(counted),  # noqa: UP032
                    lambda: f"{counted:>10}", lambda: f"{N('{n} hour', '{n} hours', n=24)} unless they return"):
        with pytest.raises(TypeError, match="would drop its translation: make it a placeholder of T"):
            attempt()
    assert f"✅ {counted!s}" == "✅ Counted." and type(str(counted)) is str
    assert i18n.say(T("✅ {what}", what=counted), "en") == "✅ Counted."
