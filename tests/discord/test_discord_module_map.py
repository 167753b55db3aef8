"""The package docstring of ``bot.discord`` is its module map: it names every module of the package."""

from __future__ import annotations

from pathlib import Path

import bot.discord


def test_the_module_map_names_every_module():
    package = Path(bot.discord.__file__).parent
    modules = sorted(p.name for p in package.glob("*.py") if p.name != "__init__.py")
    assert [m for m in modules if f"``{m}``" not in bot.discord.__doc__] == []
