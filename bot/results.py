"""What ``/stats``, ``/leaderboard``, ``/replay`` and a game's result show, for every adapter (Discord,
the sandbox and ``script``): the text and the card of each, and the replay animation rebuilt from a game's seed and
move log.

Cards are drawn by :mod:`renderers.results`, animations by :mod:`renderers.animation`. Everything here is
synchronous and CPU-bound where it draws: the Discord adapter runs :func:`replay_gif` and the card functions in
worker processes (:mod:`bot.heavy`), the offline adapters off their loop.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import games
import renderers
from games import Game, Move, plural
from games.core import BaseState, N, T, Text
from renderers.animation import animate_within, frames_for
from renderers.results import Section, card, name
from renderers.words import words as named

from .store import MoveRow
from .store.records import GameRecord, PlayerStats, Standing

RATING_HELP = (
    "Ratings: one per game per server; ties share a place, a player who resigns ranks last, abandoned games are not "
    "rated. AI seats are rated as their level (one rating per level, listed as \"AI · Level\"). The leaderboard is "
    "ordered by rating (a conservative estimate: your skill less three times its uncertainty, so it grows as you "
    "play).")
"""How ratings work, for ``/help``."""


def rating_text(mu: float | None, sigma: float | None) -> str:
    """"27.9 ± 8.2" (μ ± σ), or "unrated"."""
    return T("unrated") if mu is None or sigma is None else f"{mu:.1f} ± {sigma:.1f}"


def duration_text(ms: int) -> str:
    """A game's length in words: "45 s", "14 min", "2 h 5 min", "3 d 4 h"."""
    s = max(0, ms) // 1000
    if s < 60:
        return T("{s} s", s=s)
    m = s // 60
    if m < 60:
        return T("{m} min", m=m)
    h, m = divmod(m, 60)
    if h < 24:
        return T("{h} h {m} min", h=h, m=m) if m else T("{h} h", h=h)
    d, h = divmod(h, 24)
    return T("{d} d {h} h", d=d, h=h) if h else T("{d} d", d=d)


def date_text(ms: int) -> str:
    """UTC date of ``ms``: "2026-12-01"."""
    return time.strftime("%Y-%m-%d", time.gmtime(ms / 1000))


def ordinal_text(rank: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    if suffix == "st":
        return T("{n}st", n=rank)
    if suffix == "nd":
        return T("{n}nd", n=rank)
    if suffix == "rd":
        return T("{n}rd", n=rank)
    return T("{n}th", n=rank)


def _title(game_id: str) -> str:
    try:
        return games.get(game_id).title
    except KeyError:
        return game_id


def _unit(game_id: str) -> str:
    try:
        return games.get(game_id).score_unit
    except KeyError:
        return ""


def score_text(game_id: str, score: int) -> str:
    """A recorded score in words: ``"4 Sen"`` for a game whose scores count something (``Game.score_unit``),
    else ``"score 4"``."""
    unit = _unit(game_id)
    return f"{score} {unit}" if unit else f"score {score}"


def score_cell(game_id: str, score: int | None) -> str:
    """A score in a card's column: ``"4 Sen"`` (``Game.score_unit``), ``"4"``, or ``"—"`` for none."""
    if score is None:
        return "—"
    unit = _unit(game_id)
    return f"{score} {unit}" if unit else str(score)


# -- leaderboard --------------------------------------------------------------------------------------------------
def leaderboard_text(game: Game, standings: list[Standing], where: str = "this server") -> str:
    """The leaderboard in text: one line per place."""
    if not standings:
        return f"No rated games of {game.title} in {where} yet: finish a game with two or more players."
    lines = [f"{game.title} — top {len(standings)} of {where} (by rating, a conservative estimate)"]
    for s in standings:
        mark = " (AI)" if s.is_ai and not s.name.startswith("AI") else ""
        lines.append(f"{s.place}. {s.name}{mark} — {rating_text(s.mu, s.sigma)} · {plural(s.games, 'game')}, "
                     f"{plural(s.wins, 'win')}")
    return "\n".join(lines)


def leaderboard_card(game: Game, standings: list[Standing], where: str = T("this server"),
                     lang: str | None = None) -> bytes:
    """The leaderboard card: place, name, rating (μ ± σ), games, wins; AI levels marked "AI". ``lang``: the
    card's language (None: English)."""
    rows = [[ordinal_text(s.place), name(s.name) + (" · AI" if s.is_ai and not s.name.startswith("AI") else ""),
             rating_text(s.mu, s.sigma), str(s.games), str(s.wins)] for s in standings]
    section = Section("", ["#", T("Player"), T("Rating"), T("Games"), T("Wins")], rows, align="llrrr",
                      weights=[0.8, 3.2, 2.1, 1.1, 1.0], bold={0} if rows else set())
    return card(T("{game} — leaderboard", game=game.title),
                T("Top {n} of {where} · ordered by rating", n=len(rows), where=where), [section],
                T("Rating: skill ± uncertainty · ordered by its conservative estimate"), translate=_translator(lang))


def _translator(lang: str | None):
    """What :func:`renderers.results.card` takes as ``translate`` for ``lang`` (None: English)."""
    from .i18n import translator

    return None if lang is None else translator(lang)


# -- stats --------------------------------------------------------------------------------------------------------
def stats_text(stats: PlayerStats, shown_name: str | None = None) -> str:
    """``/stats`` in text: per game, then the recent results."""
    who = shown_name or stats.name
    lines = [f"Stats of {who}"]
    for g in stats.games:
        line = f"{_title(g.game_id)}: {plural(g.games, 'game')}, {plural(g.wins, 'win')} ({g.win_rate:.0%})"
        if g.avg_rank is not None:
            line += f", average place {g.avg_rank:.2f}"
        line += f", rating {rating_text(g.mu, g.sigma)}"
        if g.best_score is not None:
            line += f", best {score_text(g.game_id, g.best_score)}"
        if g.abandoned:
            line += f", {g.abandoned} abandoned"
        lines.append(line)
    if stats.recent:
        lines.append("Recent: " + "; ".join(_recent(r) for r in stats.recent))
    return "\n".join(lines)


def _recent(r) -> str:
    place = "abandoned" if r.rank is None else f"{ordinal_text(r.rank)} of {r.seats}"
    if r.resigned:
        place += " (resigned)"
    score = f", {score_text(r.game_id, r.score)}" if r.score is not None else ""
    return f"{_title(r.game_id)} {place}{score} ({date_text(r.ended_ms)})"


def stats_card(stats: PlayerStats, shown_name: str | None = None, lang: str | None = None) -> bytes:
    """The ``/stats`` card: a row per game (games, wins, win rate, average place, rating, best score) and the
    recent results (game, place of seats, score, date). ``lang``: the card's language (None: English)."""
    rows = [[_title(g.game_id), str(g.games), f"{g.wins} · {g.win_rate:.0%}",
             "—" if g.avg_rank is None else f"{g.avg_rank:.2f}", rating_text(g.mu, g.sigma),
             score_cell(g.game_id, g.best_score)] for g in stats.games]
    games_section = Section("", [T("Game"), T("Games"), T("Won"), T("Avg"), T("Rating"), T("Best")], rows,
                            align="lrrrrr", weights=[2.0, 1.3, 1.7, 0.9, 1.9, 1.3])
    recent = [[_title(r.game_id),
               Text.join("", [T("abandoned") if r.rank is None else T("{place} of {seats}", place=ordinal_text(r.rank),
                                                                         seats=r.seats),
                              " ⚑" if r.resigned else ""]),
               score_cell(r.game_id, r.score), date_text(r.ended_ms)] for r in stats.recent]
    recent_section = Section(T("Recent games"), [T("Game"), T("Place"), T("Score"), T("Date")], recent, align="llrr",
                             weights=[2.6, 1.8, 1.3, 1.8], bold={i for i, r in enumerate(stats.recent) if r.rank == 1})
    total = sum(g.games for g in stats.games)
    return card(T("Stats — {player}", player=name(shown_name or stats.name)),
                N("{n} finished game in this server", "{n} finished games in this server", n=total),
                [games_section, recent_section],
                T("Avg: average place · Rating: μ ± σ · ⚑ resigned · bold: won"), translate=_translator(lang))


# -- a game's result ----------------------------------------------------------------------------------------------
def summary_lines(record: GameRecord, names: dict[str, str] | None = None,
                  result: games.Result | None = None) -> list[str]:
    """The result in text: one line per seat, best first, with score and rating change. The score is told as the
    game's ``result`` stands it when given (``Result.standings``: ``"Eidai Tatara, 0 Sen, 0 material"``), else with the game's
    unit (``"0 Sen"``) or as ``"score 4"``."""
    out = []
    standings = result.standings if result is not None else {}
    for s in record.ranked:
        who = (names or {}).get(s.player_id) or s.name
        line = f"{ordinal_text(s.rank) if s.rank else '—'} {who}"
        if s.won:
            line += " ★"
        if s.player_id in standings:
            line += f" · {standings[s.player_id]}"
        elif s.score is not None:
            line += f" · {score_text(record.game_id, s.score)}"
        if s.resigned:
            line += " · resigned"
        if s.mu_after is not None and s.mu_before is not None:
            line += f" · rating {s.mu_after:.1f} ({s.mu_after - s.mu_before:+.1f})"
        out.append(line)
    return out


def summary_card(record: GameRecord, details: str = "", lang: str | None = None) -> bytes:
    """The summary image that goes with a result: the ranking (★ winners, ⚑ resigned), scores, rating after and
    its change, and the game's key numbers (moves, length, seats, rated or not); ``details``: the game's own
    account of its end (``Game.status`` of the final state: shrines, stashes, points …, ``{@id}`` refs allowed)
    under the reason. ``lang``: the card's language (None: English)."""
    game_title = _title(record.game_id)
    rows, bold = [], set()
    for i, s in enumerate(record.ranked):
        who = name(s.name) + (" ★" if s.won else "") + (" ⚑" if s.resigned else "")  # a name and marks
        change = "—" if s.mu_after is None or s.mu_before is None else \
            f"{s.mu_after:.1f} ({s.mu_after - s.mu_before:+.1f})"
        rows.append([ordinal_text(s.rank) if s.rank else "—", who, score_cell(record.game_id, s.score), change])
        if s.won:
            bold.add(i)
    section = Section("", [T("Place"), T("Player"), T("Score"), T("Rating (Δ)")], rows, align="llrr",
                      weights=[1.1, 3.2, 1.1, 2.4], bold=bold)
    numbers = Text.join(" · ", [T("{n} moves", n=record.moves), duration_text(record.ended_ms - record.started_ms),
                                T("{n} seats", n=len(record.seats)), T("rated") if record.rated else T("not rated")])
    status = T("Abandoned") if record.outcome == "abandoned" else T("Game over")
    def shown(text: str) -> str:
        return named(text, lambda p: next((s.name for s in record.seats if s.player_id == p), p))

    footer = Text.join("\n", [x for x in (shown(record.reason), shown(details)) if x])
    return card(T("{game} — {status}", game=game_title, status=status), numbers, [section],
                footer or T("★ won · ⚑ resigned"), translate=_translator(lang))


# -- replays ------------------------------------------------------------------------------------------------------
def replay_states(game: Game, players: Sequence[str], options: dict, seed: int,
                  moves: Sequence[MoveRow]) -> list[BaseState]:
    """Every state of a game, from its deal (``Game.begin`` with the seed) through each logged move, as the
    session service played it (a logged resignation goes through ``Game.resign``; one that ended the game adds
    no state)."""
    from .sessions import RESIGN

    state = game.begin(list(players), options, seed).state
    states = [state]
    for m in moves:
        if m.option == RESIGN:
            outcome = game.resign(state, m.player)
            if outcome is None:
                break
        else:
            outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
        state = outcome.state
        states.append(state)
    return states


def replay_gif(game: Game, players: Sequence[str], options: dict, seed: int, moves: Sequence[MoveRow],
               names: dict[str, str] | None = None) -> bytes:
    """The replay of a game as an animated GIF: its boards rebuilt from the seed and move log, sampled so the
    animation lasts at most :data:`renderers.animation.MAX_MS` and weighs at most
    :data:`renderers.animation.MAX_BYTES`. ``KeyError`` when the game has no renderer. CPU-bound: call it off
    the event loop."""
    render = renderers.get(game.id)
    states = replay_states(game, players, options, seed, moves)
    frames = [render(states[i], names=names) for i in frames_for(len(states))]
    return animate_within(frames)


__all__ = ["RATING_HELP", "leaderboard_card", "leaderboard_text", "replay_gif", "replay_states", "score_cell",
           "score_text", "stats_card", "stats_text", "summary_card", "summary_lines"]
