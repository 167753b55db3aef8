"""Tsukimi: two rabbit clans claim mochi tiles on the Moon (rulebook ``tsukimi.md``, RULINGS TS-1..TS-9).

Modules: ``data`` (tiles, effects, recruit spaces: designed data), ``board`` (spaces, vertices and their names),
``state`` (models, lobby options), ``rules`` (the rules as functions: decisions and steps), ``game`` (the
:class:`Tsukimi` contract: setup, apply, result, typed-name resolution), ``ai`` (greedy player), ``help``
(``/rules`` texts).
"""

from __future__ import annotations

from .game import Tsukimi, normalise
from .state import TsukimiOptions, TsukimiState

GAME = Tsukimi()

__all__ = ["GAME", "Tsukimi", "TsukimiOptions", "TsukimiState", "normalise"]
