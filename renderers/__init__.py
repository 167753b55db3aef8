"""Board images: one module (or package) per game, ``renderers/<game id>`` with
``render(state, names=None, full=False) -> bytes`` (PNG).

``full=False`` (the default) is the image that goes with the current decision: readable on a phone (~400 px wide),
each offered place marked with its key from :func:`games.marker_keys` (an option's ``locus``), the area the decision
is about shown large enough (a close-up, an inset or a portrait layout). ``full=True`` is the whole board.

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


def warm(game_ids: list[str] | None = None) -> None:
    """Build the cached palettes of the renderers (a few seconds each, once per process) so that the first board
    of each game is as fast as the rest. Call it off the event loop at start-up."""
    import games

    for game_id in game_ids or [g.id for g in games.all()]:
        try:
            module = importlib.import_module(f"renderers.{game_id}")
        except ModuleNotFoundError:
            continue
        palette = getattr(module, "palette", None)
        if palette is not None:
            palette()


def render(state: BaseState, names: dict[str, str] | None = None, full: bool = False,
           translate: Callable[[str], str] | None = None) -> bytes:
    """Render ``state`` (any game's) to PNG bytes; ``names`` maps player ids to display names; ``full`` asks for
    the whole board instead of the decision's view; ``translate`` says each :class:`games.core.Text` drawn in the
    image's language (e.g. ``functools.partial(bot.i18n.render, lang="ja")``; None: English)."""
    from renderers.common import translating

    with translating(translate):
        return get(state.game)(state, names=names, full=full)
