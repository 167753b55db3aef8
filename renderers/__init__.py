"""Board images: one module (or package) per game, ``renderers/<game id>`` with
``render(state, names=None, full=False) -> bytes`` (PNG).

``full=False`` (the default) is the image that goes with the current decision: readable on a phone (~400 px wide),
each offered place marked with its key from :func:`games.marker_keys` (an option's ``locus``), the area the decision
is about shown large enough (a close-up, an inset or a portrait layout). ``full=True`` is the whole board.

A renderer whose decision's view is at times the whole board says when with ``shows_whole(state) -> bool``
(:func:`shows_whole`): then a whole board looked up is the board image already drawn.

Renderers import ``games`` models and Pillow only (ARCHITECTURE.md, layers).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from games.core import BaseState


def _module(game_id: str):
    try:
        return importlib.import_module(f"renderers.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no renderer for {game_id!r}") from exc


def get(game_id: str) -> Callable[..., bytes]:
    """The ``render`` function of ``game_id``; ``KeyError`` when the game has no renderer."""
    return _module(game_id).render


def shows_whole(state: BaseState) -> bool:
    """Whether ``render(state)`` draws the very image ``render(state, full=True)`` draws (same names, same
    language): the decision's view of ``state`` is the whole board — Tatari's and Tatamokatsu's always, the other
    games' when their decision is shown on the whole board or the game is over. False for a renderer that does not
    say (``shows_whole`` in its module); ``KeyError`` when the game has no renderer."""
    says = getattr(_module(state.game), "shows_whole", None)
    return bool(says(state)) if says is not None else False


def warm(game_ids: list[str] | None = None) -> None:
    """Build the cached palettes of the renderers (a few seconds each, once per process) so that the first board
    of each game is as fast as the rest. Call it off the event loop at start-up."""
    import games

    for game_id in game_ids or [g.id for g in games.all()]:
        try:
            module = _module(game_id)
        except KeyError:
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
