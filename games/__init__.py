"""The rules of every game, behind one contract (ARCHITECTURE.md). Pure: no I/O, no clock.

Registry: each game is a subpackage ``games/<id>/`` whose ``__init__`` exposes ``GAME`` (a :class:`Game` instance).
``games.get(id)`` and ``games.all()`` find them; nothing else needs editing to add a game.
"""

from __future__ import annotations

import importlib
import pkgutil

from games.core import (
    TIMEOUT,
    BaseState,
    Decision,
    Event,
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    Result,
    Rng,
    force,
    format_text,
    marker_keys,
    player_ref,
    plural,
    rank_by,
    ranking_text,
)

__all__ = [
    "TIMEOUT",
    "BaseState",
    "Decision",
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "Option",
    "Outcome",
    "Result",
    "Rng",
    "all",
    "force",
    "format_text",
    "get",
    "marker_keys",
    "load_errors",
    "player_ref",
    "plural",
    "rank_by",
    "ranking_text",
]

_REGISTRY: dict[str, Game] | None = None
_ERRORS: dict[str, str] = {}


def _load() -> dict[str, Game]:
    """Import every game package once. A package that fails to import is left out (its error kept in
    :func:`load_errors`), so one broken game never takes the others down."""
    global _REGISTRY
    if _REGISTRY is None:
        found: dict[str, Game] = {}
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
            if not info.ispkg:
                continue
            try:
                module = importlib.import_module(f"{__name__}.{info.name}")
            except Exception as exc:  # noqa: BLE001 - reported through load_errors()
                _ERRORS[info.name] = f"{type(exc).__name__}: {exc}"
                continue
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                found[game.id] = game
        _REGISTRY = found
    return _REGISTRY


def load_errors() -> dict[str, str]:
    """Game packages that failed to import: package name -> error (empty when all is well)."""
    _load()
    return dict(_ERRORS)


def get(game_id: str) -> Game:
    """The game registered as ``game_id``; ``KeyError`` with the known ids when there is none."""
    registry = _load()
    try:
        return registry[game_id]
    except KeyError:
        known = ", ".join(sorted(registry)) or "none"
        broken = f"; failed to load: {_ERRORS[game_id]}" if game_id in _ERRORS else ""
        raise KeyError(f"unknown game {game_id!r} (known: {known}){broken}") from None


def all() -> list[Game]:  # noqa: A001 - the contract's name
    """Every registered game, by id."""
    return [g for _, g in sorted(_load().items())]
