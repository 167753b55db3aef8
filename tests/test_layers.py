"""Layers (ARCHITECTURE.md): games/ and renderers/ never import bot/, discord, asyncio, the clock or files;
renderers import games and Pillow only (plus the standard library's pure modules)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"bot", "discord", "asyncio", "aiosqlite", "time", "datetime", "sqlite3", "socket", "threading",
             "subprocess", "os", "pathlib", "shutil", "tempfile"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
            found.add("open()")
    return found


FILES = sorted((ROOT / "games").rglob("*.py")) + sorted((ROOT / "renderers").rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_layers_import_no_io(path):
    bad = imports(path) & (FORBIDDEN | {"open()"})
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((ROOT / "renderers").rglob("*.py")), ids=lambda p: p.name)
def test_renderers_import_games_and_pillow_only(path):
    stdlib = {"__future__", "functools", "math", "io", "collections", "typing", "dataclasses", "itertools",
              "importlib", "colorsys", "enum", "re", "statistics", "string", "random",  # random: seeded only
              "unicodedata",
              "contextlib", "contextvars"}  # the language an image is drawn in, per render (and per thread)
    allowed = stdlib | {"games", "PIL", "renderers"}
    assert imports(path) <= allowed, sorted(imports(path) - allowed)
