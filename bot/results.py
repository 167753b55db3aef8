"""What ``/stats``, ``/leaderboard``, ``/replay`` and a game's result show, for every adapter (Discord,
the sandbox and ``script``): the text and the card of each, and the replay animation rebuilt from a game's seed and
move log.

Cards are drawn by :mod:`renderers.results`, animations by :mod:`renderers.animation`. Everything here is
synchronous and CPU-bound where it draws: the Discord adapter runs :func:`replay_gif` and the card functions in
worker processes (:mod:`bot.heavy`), the offline adapters off their loop.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import games
import renderers
from games import Game, Move
from games.core import BaseState, N, T, Text
from renderers.animation import animate_within, frames_for
from renderers.results import Section, card, name
from renderers.words import words as named

from .ai_seats import ai_name, is_ai
from .i18n import say, speaking, translator
from .store import MoveRow
from .store.privacy import is_former
from .store.records import RESIGN_MOVE, GameRecord, PlayerStats, Standing

RATING_HELP = T(
    "Ratings: one per game per server; ties share a place, a player who resigns ranks last, and so does a player "
    "whose seat the AI stand-in played (the others are rated as they played); abandoned games are not rated. AI seats are rated as their level (one rating per level, listed as \"AI · Level\"). The leaderboard is "
    "ordered by rating (a conservative estimate: your skill less three times its uncertainty, so it grows as you "
    "play).")
"""How ratings work, for ``/help``."""


FORMER_PLAYER = T("a former player")
"""How a forgotten member's seat (``former-<n>``, :mod:`bot.store.privacy`) is named."""


def seat_name(seat: Any) -> str:
    """How a recorded seat or leaderboard line names its player: an AI seat by its level in the table's language
    (:func:`bot.ai_seats.ai_name`; records keep the name the game ended with), a forgotten member's seat as
    :data:`FORMER_PLAYER` in the table's language, anyone else by the recorded name."""
    pid = getattr(seat, "player_id", "") or ""
    if is_former(pid):
        return say(FORMER_PLAYER)
    parts = pid.split(":")
    if len(parts) == 2 and is_ai(f"{pid}:1"):  # a leaderboard line's rating key, "ai:<level>"
        parts.append("1")
    if is_ai(":".join(parts)):
        return ai_name(":".join(parts))
    return seat.name


def shown_name(seat: Any, names: dict[str, str] | None) -> str:
    """A recorded seat's name as a result shows it: the table's display name of its player when known, except for
    a forgotten member's seat (:func:`seat_name`)."""
    if is_former(seat.player_id):
        return seat_name(seat)
    return (names or {}).get(seat.player_id) or seat_name(seat)


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


def date_text(ms: int) -> Text:
    """The UTC date of ``ms`` (ms since the epoch), written as the reader's language writes dates
    (:func:`bot.i18n.date`): "2026-12-01" in English, "2026年12月1日" in Japanese."""
    return Text("{date}", {"date": datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).date()})


def ordinal_text(rank: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th" (a :class:`Text`: "1位" in ja)."""
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


def _game(game_id: str) -> Game | None:
    """The game of a record, None for one no longer registered (its scores are then plain numbers)."""
    try:
        return games.get(game_id)
    except KeyError:
        return None


def _unit(game_id: str) -> str:
    game = _game(game_id)
    return game.score_unit if game else ""


def _counted(game_id: str, score: int) -> Text | None:
    """The score in its game's own words (:meth:`Game.score_words`: ``"3 dolls left"``), None for points."""
    game = _game(game_id)
    return game.score_words(score) if game else None


def score_text(game_id: str, score: int) -> str:
    """A recorded score in words: the game's own (``"3 dolls left"``, :meth:`Game.score_words`), ``"4 Sen"`` for a
    game whose scores count something (``Game.score_unit``), else ``"score 4"``."""
    counted = _counted(game_id, score)
    if counted is not None:
        return counted
    unit = _unit(game_id)
    return T("{score} {unit}", score=score, unit=unit) if unit else T("score {score}", score=score)


def score_heading(game_id: str) -> Text:
    """The heading of a result card's score column: what the game's scores count (:meth:`Game.score_heading`:
    "Dolls" in Tatari: the dolls left), else "Score"."""
    game = _game(game_id)
    heading = game.score_heading() if game else None
    return heading if heading is not None else T("Score")


def score_cell(game_id: str, score: int | None) -> str:
    """A score in a card's column: ``"4 Sen"`` (``Game.score_unit``), ``"4"`` (a game that counts what a player
    still holds names it in the column's heading, :func:`score_heading`), or ``"—"`` for none."""
    if score is None:
        return "—"
    unit = _unit(game_id)
    return T("{score} {unit}", score=score, unit=unit) if unit else str(score)


# -- leaderboard --------------------------------------------------------------------------------------------------
def leaderboard_text(game: Game, standings: list[Standing], where: str | None = None) -> Text:
    """The leaderboard in text: one line per place (``where``: default "this server")."""
    where = T("this server") if where is None else where
    if not standings:
        return T("No rated games of {game} in {where} yet: finish a game with two or more players.",
                 game=game.title, where=where)
    lines = [T("{game} — top {n} of {where} (by rating, a conservative estimate)", game=game.title,
               n=len(standings), where=where)]
    for s in standings:
        mark = " (AI)" if s.is_ai and not seat_name(s).startswith("AI") else ""
        lines.append(T("{place}. {name} — {rating} · {games}, {wins}", place=str(s.place), name=seat_name(s) + mark,
                       rating=rating_text(s.mu, s.sigma), games=N("{n} game", "{n} games", n=s.games),
                       wins=N("{n} win", "{n} wins", n=s.wins)))
    return Text.join("\n", lines)


def _spoken(draw: Callable[..., bytes]) -> Callable[..., bytes]:
    """A card drawn in ``lang=`` (a keyword of the decorated function; None: the current table's language,
    :func:`bot.i18n.table_lang`)."""

    @functools.wraps(draw)
    def in_language(*args: Any, lang: str | None = None, **kwargs: Any) -> bytes:
        if lang is None:
            return draw(*args, **kwargs)
        with speaking(lang):
            return draw(*args, **kwargs)

    return in_language


@_spoken
def leaderboard_card(game: Game, standings: list[Standing], where: str | None = None) -> bytes:
    """The leaderboard card: place, name, rating (μ ± σ), games, wins; AI levels marked "AI". In the current
    table's language (:func:`bot.i18n.say`; the drawing worker is told it: :func:`bot.heavy.draw_card_in`)."""
    where = T("this server") if where is None else where
    rows = [[say(ordinal_text(s.place)), name(seat_name(s)) + (" · AI" if s.is_ai and not seat_name(s).startswith("AI") else ""),
             say(rating_text(s.mu, s.sigma)), str(s.games), str(s.wins)] for s in standings]
    section = Section("", ["#", say(T("Player")), say(T("Rating")), say(T("Games")), say(T("Wins"))], rows,
                      align="llrrr", weights=[0.8, 3.2, 2.1, 1.1, 1.0], bold={0} if rows else set())
    return card(say(T("{game} — leaderboard", game=game.title)),
                say(T("Top {n} of {where} · ordered by rating", n=len(rows), where=where)), [section],
                say(T("Rating: skill ± uncertainty · ordered by its conservative estimate")))


# -- stats --------------------------------------------------------------------------------------------------------
def stats_text(stats: PlayerStats, shown_name: str | None = None) -> str:
    """``/stats`` in text: per game, then the recent results."""
    who = shown_name or stats.name
    lines: list = [T("Stats of {who}", who=who)]
    for g in stats.games:
        parts: list = [T("{game}: {games}, {wins} ({rate})", game=_title(g.game_id),
                         games=N("{n} game", "{n} games", n=g.games), wins=N("{n} win", "{n} wins", n=g.wins),
                         rate=f"{g.win_rate:.0%}")]
        if g.avg_rank is not None:
            parts.append(T("average place {avg}", avg=format(g.avg_rank, ".2f")))
        parts.append(T("rating {rating}", rating=rating_text(g.mu, g.sigma)))
        if g.best_score is not None:
            parts.append(T("best {score}", score=score_text(g.game_id, g.best_score)))
        if g.abandoned:
            parts.append(T("{n} abandoned", n=g.abandoned))
        lines.append(Text.join(T(", "), parts))
    if stats.recent:
        lines.append(T("Recent: {games}", games=Text.join(T("; "), [_recent(r) for r in stats.recent])))
    return Text.join("\n", lines)


def _recent(r) -> Text:
    if r.rank is None:
        place = T("abandoned (resigned)") if r.resigned else T("abandoned")
    else:
        place = T("{place} of {seats} (resigned)", place=ordinal_text(r.rank), seats=r.seats) if r.resigned else \
            T("{place} of {seats}", place=ordinal_text(r.rank), seats=r.seats)
    if r.score is not None:
        return T("{game} {place}, {score} ({date})", game=_title(r.game_id), place=place,
                 score=score_text(r.game_id, r.score), date=date_text(r.ended_ms))
    return T("{game} {place} ({date})", game=_title(r.game_id), place=place, date=date_text(r.ended_ms))


@_spoken
def stats_card(stats: PlayerStats, shown_name: str | None = None) -> bytes:
    """The ``/stats`` card: a row per game (games, wins, win rate, average place, rating, best score) and the
    recent results (game, place of seats, score, date)."""
    rows = [[say(_title(g.game_id)), str(g.games), f"{g.wins} · {g.win_rate:.0%}",
             "—" if g.avg_rank is None else f"{g.avg_rank:.2f}", say(rating_text(g.mu, g.sigma)),
             say(score_cell(g.game_id, g.best_score))] for g in stats.games]
    games_section = Section("", [say(T("Game")), say(T("Games")), say(T("Won")), say(T("Avg")), say(T("Rating")),
                                 say(T("Best"))], rows, align="lrrrrr", weights=[2.0, 1.3, 1.7, 0.9, 1.9, 1.3])
    recent = [[say(_title(r.game_id)),
               say(T("abandoned") if r.rank is None else T("{place} of {seats}", place=ordinal_text(r.rank),
                                                             seats=r.seats))
               + (" ⚑" if r.resigned else ""),
               say(score_cell(r.game_id, r.score)), say(date_text(r.ended_ms))] for r in stats.recent]
    recent_section = Section(say(T("Recent games")), [say(T("Game")), say(T("Place")), say(T("Score")),
                                                      say(T("Date"))], recent, align="llrr",
                             weights=[2.6, 1.8, 1.3, 1.8], bold={i for i, r in enumerate(stats.recent) if r.rank == 1})
    total = sum(g.games for g in stats.games)
    return card(say(T("Stats — {who}", who=name(shown_name or stats.name))),
                say(N("{n} finished game in this server", "{n} finished games in this server", n=total)),
                [games_section, recent_section],
                say(T("Avg: average place · Rating: μ ± σ · ⚑ resigned · bold: won")))


# -- a game's result ----------------------------------------------------------------------------------------------
def summary_lines(record: GameRecord, names: dict[str, str] | None = None,
                  result: games.Result | None = None) -> list[str]:
    """The result in text: one line per seat, best first, with score and rating change. The score is told as the
    game's ``result`` stands it when given (``Result.standings``: ``"Eidai Tatara, 0 Sen, 0 material"``), else with the game's
    unit (``"0 Sen"``) or as ``"score 4"``."""
    out = []
    standings = result.standings if result is not None else {}
    for s in record.ranked:
        who = shown_name(s, names)
        parts: list = [Text.join(" ", [ordinal_text(s.rank) if s.rank else "—", who + (" ★" if s.won else "")])]
        if s.player_id in standings:
            parts.append(standings[s.player_id])
        elif s.score is not None:
            parts.append(score_text(record.game_id, s.score))
        if s.resigned:
            parts.append(T("resigned"))
        if s.mu_after is not None and s.mu_before is not None:
            parts.append(T("rating {rating} ({change})", rating=format(s.mu_after, ".1f"),
                           change=format(s.mu_after - s.mu_before, "+.1f")))
        out.append(Text.join(" · ", parts))
    return out


SUMMARY_WEIGHTS = [1.1, 3.0, 1.5, 2.2]
"""Relative widths of the summary card's columns (place, player, score, rating): the score column holds each
game's heading (:func:`score_heading`: "Fortune", 「指」) uncut in every language."""


@_spoken
def summary_card(record: GameRecord, details: str = "") -> bytes:
    """The summary image that goes with a result: the ranking (★ winners, ⚑ resigned), scores, rating after and
    its change, and the game's key numbers (moves, length, seats, rated or not); ``details``: the game's own
    account of its end (``Game.status`` of the final state: shrines, stashes, points …, ``{@id}`` refs allowed)
    under the reason."""
    game_title = _title(record.game_id)
    rows, bold = [], set()
    for i, s in enumerate(record.ranked):
        who = name(seat_name(s)) + (" ★" if s.won else "") + (" ⚑" if s.resigned else "")  # a name and marks
        change = "—" if s.mu_after is None or s.mu_before is None else \
            f"{s.mu_after:.1f} ({s.mu_after - s.mu_before:+.1f})"
        rows.append([say(ordinal_text(s.rank)) if s.rank else "—", who, say(score_cell(record.game_id, s.score)),
                     change])
        if s.won:
            bold.add(i)
    section = Section("", [say(T("Place")), say(T("Player")), say(score_heading(record.game_id)),
                           say(T("Rating (Δ)"))], rows,
                      align="llrr", weights=SUMMARY_WEIGHTS, bold=bold)
    numbers = say(Text.join(" · ", [N("{n} move", "{n} moves", n=record.moves),
                                    duration_text(record.ended_ms - record.started_ms),
                                    N("{n} seat", "{n} seats", n=len(record.seats)),
                                    T("rated") if record.rated else T("not rated")]))
    status = T("Abandoned") if record.outcome == "abandoned" else T("Game over")
    def shown(text: str) -> str:
        return named(text, lambda p: next((seat_name(s) for s in record.seats if s.player_id == p), p))

    footer = "\n".join(x for x in (shown(say(record.reason)), shown(say(details))) if x)
    return card(say(T("{game} — {status}", game=game_title, status=status)), numbers, [section],
                footer or say(T("★ won · ⚑ resigned")))


# -- alt texts of the cards and the replay ------------------------------------------------------------------
ALT_LIMIT = 1024
"""Discord's limit on an attachment ``description`` (alt text), characters."""


def _clip(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` within ``limit`` characters, cut at a word with "…" when longer."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _change(before: float | None, after: float | None) -> str:
    """A rating change in words: ``"rating 27.1, up 2.1"``, ``"rating 22.9, down 2.1"``; "" when unrated."""
    if before is None or after is None:
        return ""
    delta, rating, by = after - before, f"{after:.1f}", f"{abs(after - before):.1f}"
    if delta > 0.05:
        return T("rating {rating}, up {by}", rating=rating, by=by)
    if delta < -0.05:
        return T("rating {rating}, down {by}", rating=rating, by=by)
    return T("rating {rating}, unchanged", rating=rating)


def ranking_words(record, names: dict[str, str] | None = None) -> Text:
    """A recorded game's seats best first, in words: ``"1st alice (won), 4 Sen, rating 27.1, up 2.1; 2nd bob,
    …"``; ``names`` (player id -> display name) before the recorded names."""
    out = []
    for s in record.ranked:
        who = shown_name(s, names)
        place = ordinal_text(s.rank) if s.rank else T("unranked")
        bits: list = [T("{place} {name} (won)", place=place, name=who) if s.won else
                      T("{place} {name}", place=place, name=who)]
        if s.score is not None:
            bits.append(score_text(record.game_id, s.score))
        if s.resigned:
            bits.append(T("resigned"))
        change = _change(s.mu_before, s.mu_after)
        if change:
            bits.append(change)
        out.append(Text.join(T(", "), bits))
    return Text.join(T("; "), out)


def card_alt(kind: str, *args, names: dict[str, str] | None = None, lang: str | None = None) -> str:
    """The alt text (≤ :data:`ALT_LIMIT` characters) of the card :func:`draw_card` draws from the same ``args``:
    ``"summary"`` (record, details): the game, its ranking with scores and rating changes, its numbers and how it
    ended; ``"stats"`` (stats, name): each game's record and the recent results; ``"leaderboard"`` (game id,
    standings): each place with rating, games and wins. Computed in the bot process (cheap text). ``lang``: the
    reader's language (None: the current table's, :func:`bot.i18n.say`)."""
    if kind == "summary":
        record, details = args[0], (args[1] if len(args) > 1 else "")
        title = _title(record.game_id)

        def shown(text: str) -> str:
            return games.format_text(text, lambda p: next(
                (shown_name(s, names) for s in record.seats if s.player_id == p), (names or {}).get(p) or p))

        status = T("abandoned") if record.outcome == "abandoned" else T("game over")
        numbers = T("{moves}, {length}, {seats}, {rated}", moves=N("{n} move", "{n} moves", n=record.moves),
                    length=duration_text(record.ended_ms - record.started_ms),
                    seats=N("{n} seat", "{n} seats", n=len(record.seats)),
                    rated=T("rated") if record.rated else T("not rated"))
        reason, told = shown(say(record.reason, lang)).strip(), shown(say(details, lang)).strip()
        if reason:  # the game's account of its end often repeats the reason: said once
            told = told.replace(say(T("Game over: {reason}", reason=reason), lang), "").replace(reason, "")
        told = re.sub(r"\s*[|·]\s*", say(T("; "), lang), told).strip(" ;.。；")
        stop = say(T("."), lang)
        ending = ("" if stop == "。" else " ").join(t.rstrip(".。") + stop for t in (reason, told) if t)
        return _clip(say(T("Result card of {game}, {status}: {ranking}. {numbers}. {ending}", game=title,
                           status=status, ranking=ranking_words(record, names), numbers=numbers, ending=ending),
                         lang).strip())
    if kind == "stats":
        stats, label = args[0], (args[1] if len(args) > 1 else None)
        lines = say(stats_text(stats, label), lang).split("\n")
        return _clip(say(T("Stats card of {who}: {lines}.", who=label or stats.name,
                           lines=say(T(". "), lang).join(lines[1:])), lang))
    if kind == "leaderboard":
        game_id, standings = args[0], args[1]
        places = Text.join(T("; "), [T(
            "{place} {name}, rating {rating}, {games}, {wins}", place=ordinal_text(s.place),
            name=seat_name(s) + (" (AI)" if s.is_ai and not seat_name(s).startswith("AI") else ""),
            rating=rating_text(s.mu, s.sigma), games=N("{n} game", "{n} games", n=s.games),
            wins=N("{n} win", "{n} wins", n=s.wins)) for s in standings])
        return _clip(say(T("Leaderboard card of {game}, top {n} of this server, ordered by rating minus three times "
                           "its uncertainty: {places}.", game=_title(game_id), n=len(standings),
                           places=places), lang))
    raise KeyError(kind)


def replay_alt(record, names: dict[str, str] | None = None, lang: str | None = None) -> str:
    """The alt text (≤ :data:`ALT_LIMIT` characters) of a game's replay animation: the game replayed (its boards
    from the deal to the end), its players and their ranking with rating changes."""
    title = _title(record.game_id)
    players = Text.join(T(", "), [shown_name(s, names) for s in record.seats])
    args = {"sid": str(record.session_id), "game": title, "moves": N("{n} move", "{n} moves", n=record.moves),
            "date": date_text(record.ended_ms), "players": players, "ranking": ranking_words(record, names)}
    if record.outcome == "abandoned":
        text = T("Animated replay of game #{sid}, {game}: its boards from the deal abandoned, {moves}, {date}. "
                 "Players: {players}. Ranking: {ranking}.", **args)
    else:
        text = T("Animated replay of game #{sid}, {game}: its boards from the deal to the end, {moves}, {date}. "
                 "Players: {players}. Ranking: {ranking}.", **args)
    return _clip(say(text, lang))


# -- replays ------------------------------------------------------------------------------------------------------
def replay_states(game: Game, players: Sequence[str], options: dict, seed: int,
                  moves: Sequence[MoveRow]) -> list[BaseState]:
    """Every state of a game, from its deal (``Game.begin`` with the seed) through each logged move, as the
    session service played it (a logged resignation goes through ``Game.resign``; one that ended the game adds
    no state)."""
    state = game.begin(list(players), options, seed).state
    states = [state]
    for m in moves:
        if m.option == RESIGN_MOVE:
            outcome = game.resign(state, m.player)
            if outcome is None:
                break
        else:
            outcome = game.apply(state, Move(player=m.player, option=m.option, at_ms=m.at_ms))
        state = outcome.state
        states.append(state)
    return states


def replay_gif(game: Game, players: Sequence[str], options: dict, seed: int, moves: Sequence[MoveRow],
               names: dict[str, str] | None = None, lang: str | None = None) -> bytes:
    """The replay of a game as an animated GIF: its boards rebuilt from the seed and move log, sampled so the
    animation lasts at most :data:`renderers.animation.MAX_MS` and weighs at most
    :data:`renderers.animation.MAX_BYTES`, their words in ``lang`` (None: the current table's language).
    ``KeyError`` when the game has no renderer. CPU-bound: call it off the event loop."""
    renderers.get(game.id)
    translate = translator(lang)
    states = replay_states(game, players, options, seed, moves)
    frames = [renderers.render(states[i], names=names, translate=translate) for i in frames_for(len(states))]
    return animate_within(frames)


__all__ = ["RATING_HELP", "leaderboard_card", "leaderboard_text", "replay_gif", "replay_states", "score_cell",
           "score_text", "stats_card", "stats_text", "summary_card", "summary_lines"]
