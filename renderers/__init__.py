"""Board images: one module per game, ``renderers/<game id>.py`` with ``render(state, names=None) -> bytes`` (PNG).

Renderers import ``games`` models and Pillow only (ARCHITECTURE.md, layers).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from games.core import BaseState


def get(game_id: str) -> Callable[..., bytes]:
    """The ``render`` function of ``game_id``; ``KeyError`` when the game has no renderer."""
    try:
        module = importlib.import_module(f"renderers.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no renderer for {game_id!r}") from exc
    return module.render


def render(state: BaseState, names: dict[str, str] | None = None) -> bytes:
    """Render ``state`` (any game's) to PNG bytes; ``names`` maps player ids to display names."""
    return get(state.game)(state, names=names)
