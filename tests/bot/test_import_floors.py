"""Floors of ``bot/`` (ARCHITECTURE.md, layers): the import graph of the package has no circle, counting every
import a module can run — at the top and inside functions — and leaving out only the type-only imports under
``if TYPE_CHECKING:``. Runtime i18n (``bot/i18n.py``) is the bottom floor: it imports nothing of ``bot/``."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"


def module_of(path: Path) -> str:
    """``bot/discord/play.py`` -> ``bot.discord.play``; ``bot/store/__init__.py`` -> ``bot.store``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every import node of ``tree`` outside ``if TYPE_CHECKING:`` blocks (their ``else`` branches count)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_only(node):
            for child in node.orelse:
                yield from _imports(child)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def imported(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``bot/`` that ``path`` imports (real and function-level imports), by dotted name."""
    here = module_of(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
            continue
        base = package
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        target = node.module if node.level == 0 else ".".join(p for p in (base, node.module) if p)
        if not target:
            continue
        for alias in node.names:  # ``from . import i18n`` imports the module bot.i18n
            if f"{target}.{alias.name}" in modules:
                found.add(f"{target}.{alias.name}")
            elif target in modules:
                found.add(target)
    return found - {here}


def graph() -> dict[str, set[str]]:
    """Module of ``bot/`` -> the modules of ``bot/`` it imports."""
    files = sorted(BOT.rglob("*.py"))
    modules = {module_of(p) for p in files}
    return {module_of(path): imported(path, modules) for path in files}


def test_bot_has_no_import_circle():
    try:
        order = list(graphlib.TopologicalSorter(graph()).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import circle: {' -> '.join(exc.args[1])}")
    assert "bot.i18n" in order


def test_runtime_i18n_is_the_bottom_floor():
    """The bot's texts are rendered without starting anything of the bot (issue: the catalogue tooling used to
    build the whole command tree from here)."""
    assert graph()["bot.i18n"] == set()


@pytest.mark.parametrize("source,edges", [
    ("from .i18n import say\n", {"bot.i18n"}),
    ("def f():\n    from .discord import translator\n", {"bot.discord.translator"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sessions import SessionService\n", set()),
    ("import bot.store\n", {"bot.store"}),
])
def test_the_graph_counts_function_level_imports_and_leaves_type_only_ones_out(tmp_path, monkeypatch, source,
                                                                                edges):
    path = BOT / "floors_probe.py"
    modules = {"bot", "bot.i18n", "bot.discord", "bot.discord.translator", "bot.sessions", "bot.store"}
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source)
    assert imported(path, modules) == edges
