"""Labels by design and fewer taps: every button and select label says its choice within 40 characters (names
shortened with an ellipsis, never the words), the whole label is in the select option's description or a line of
the message, options sharing a board marker say what each does, and a decision of up to 23 options is answered
with one tap of a button (5 rows of 5, less How to play and Full board).

Whole games of all five games with long and CJK display names, through the real discord.py stack (harness), and
many seeded engine games through the adapters' label functions."""

from __future__ import annotations

import random

import pytest
from harness import Harness
from test_discord_games import current_board, press

import games
from bot.board_text import BUTTON_OPTIONS, button_label, fit_names
from bot.discord import ids
from bot.discord.present import board_view, mention
from bot.store import SessionRow
from games import Decision, Move, Option, format_text, marker_keys
from games.ai import greedy
from games.core import SHORT_LABEL

LONG = "Alexandria Konstantinopoulou-Xyz"
CJK = "山田太郎左衛門長谷川花子さん"
TABLES = [("tatari", 5, None), ("tsukimi", 2, None), ("tatamokatsu", 3, None), ("tataraba", 4, None),
          ("tatsumi", 4, None), ("tatsumi", 5, "void=true"), ("tatsumi", 1, "solo=true")]
ENGINE_TABLES = [("tatari", 5, {}), ("tsukimi", 2, {}), ("tsukimi", 2, {"side": "dark"}), ("tatamokatsu", 5, {}),
                 ("tataraba", 4, {}), ("tatsumi", 4, {}), ("tatsumi", 5, {"void": True}), ("tatsumi", 1, {"solo": True}),
                 ("tatsumi", 3, {"island": "choose", "dragons": "choose", "colours": "choose", "weather": True})]


def long_names(players: list[str]) -> dict[str, str]:
    """Display names that do not fit a button: a long Latin name, a long CJK name, and long ones after them."""
    return {p: [LONG, CJK][i] if i < 2 else f"{LONG} {i}" for i, p in enumerate(players)}


def whole(d: Decision, index: int, names: dict[str, str]) -> str:
    """Option ``index``'s whole meaning with its marker key, names in full."""
    opt, key = d.options[index], marker_keys(d.options).get(d.options[index].id)
    return (f"{key} · " if key else "") + format_text(opt.label, names)


def check_labels(d: Decision, names: dict[str, str]) -> None:
    """Every option of ``d``: its button label within 40 characters and the whole label when it fits; options
    sharing a marker key say different things."""
    keys = marker_keys(d.options)
    by_key: dict[str, list[str]] = {}
    for i, opt in enumerate(d.options):
        label = button_label(d, i, names)
        assert len(label) <= SHORT_LABEL, (d.kind, label)
        if len(whole(d, i, names)) <= SHORT_LABEL and opt.short is None:
            assert label == whole(d, i, names)  # a label that fits is shown as it is
        if opt.short is not None:
            assert len(opt.short) < len(opt.label), (opt.short, opt.label)
        if opt.id in keys:
            assert label.startswith(f"{keys[opt.id]} · ")
            by_key.setdefault(keys[opt.id], []).append(label)
    for key, labels in by_key.items():
        assert len(set(labels)) == len(labels), (d.kind, key, labels)


@pytest.mark.parametrize("game_id,n,options", ENGINE_TABLES)
def test_every_label_of_seeded_games_fits_and_says_its_choice(game_id, n, options):
    """Seeded games (greedy and random moves): every option's button label is at most 40 characters with long
    names, marker keys shared only by labels that differ, and the select description is the whole label."""
    game = games.get(game_id)
    row = SessionRow(id=1, channel_id="1", guild_id=None, game_id=game_id, status="active", host="p0",
                     players=[], options={}, seed=1, state=None, version=3, move_count=0, meta={},
                     created_ms=0, updated_ms=0)
    shortened = 0
    for seed in range(3):
        players = [f"p{i}" for i in range(n)]
        names = long_names(players)
        state = game.setup(players, options, seed)
        rng, now = random.Random(seed), 0
        for _ in range(2500):
            pending = game.pending(state)
            if not pending:
                break
            for d in pending:
                check_labels(d, names)
                shortened += sum(o.short is not None for o in d.options)
                if len(d.options) > 5 and seed == 0:
                    view = board_view(row, [d], names)
                    for item in view.children:
                        for so in getattr(item.item, "options", []) or []:
                            i = int(so.value)
                            assert len(so.label) <= SHORT_LABEL
                            if so.label != whole(d, i, names):
                                assert so.description == fit_names(d.options[i].label, names, 100,
                                                                   so.label.partition(" · ")[0] + " · "
                                                                   if d.options[i].id in marker_keys(d.options)
                                                                   else "")
            opening = game.opening(state)
            d = pending[0]
            if opening is not None:
                move = Move(player=None, option=opening, at_ms=now)
            elif d.player is None and d.deadline_ms is not None and (not d.options or rng.random() < 0.5):
                move, now = Move(player=None, option="timeout", at_ms=d.deadline_ms), d.deadline_ms
            else:
                oid = greedy(game, state, d, rng) if rng.random() < 0.7 else rng.choice(d.options).id
                at = now + 10 if d.deadline_ms is None else min(now + 10, d.deadline_ms - 1)
                move, now = Move(player=d.player or rng.choice(players), option=oid, at_ms=at), at
            try:
                state = game.apply(state, move).state
            except games.IllegalMove:
                fallback = (Move(player=None, option="timeout", at_ms=d.deadline_ms) if d.deadline_ms is not None
                            else Move(player=d.player, option=d.options[0].id, at_ms=now))
                now = max(now, d.deadline_ms or now)
                state = game.apply(state, fallback).state
    if game_id in ("tatari", "tataraba", "tatsumi", "tsukimi"):
        assert shortened, "these games have labels longer than a button"


def test_a_long_label_gets_its_short_words_and_the_name_an_ellipsis():
    """The engines' short forms and the adapters' name shortening, exactly."""
    d = Decision(player="a", kind="give", prompt="to whom?", options=[
        Option(id="give:b", label="{@b} (10 dolls: full, the doll goes to the Shrine box)",
               short="{@b} (full: doll to the box)", locus="stash:b"),
        Option(id="give:c", label="{@c} (3 dolls)", locus="stash:c")])
    names = {"b": LONG, "c": CJK}
    assert button_label(d, 0, names) == "1 · Alexandria… (full: doll to the box)"
    assert button_label(d, 1, names) == "2 · 山田太郎左衛門長谷川花子さん (3 dolls)"
    assert button_label(d, 1, {"c": LONG}) == "2 · Alexandria Konstantinopou… (3 dolls)"
    from games.tatsumi.rules import short_label
    assert short_label("offer 2 water + 1 wind at the water shrine (south), a scale on Toad (+2)") == (
        "offer 2 water + 1 wind")  # the shrine is its marker's; the scale is in the whole label beside it
    assert short_label("offer 3 fire at the fire shrine (south), a scale on Toad (+2)") == (
        "offer 3 fire, a scale on Toad (+2)")
    assert short_label("breath north-east: lightning from c2, lightning from d3") == "breath NE: lightning c2 + d3"
    assert short_label("fly to b1, claim wind from a1") is None


def test_up_to_23_options_are_buttons_with_the_board_buttons_on_the_last_row():
    """23 options: 5 rows of buttons, How to play and Full board after the last three; 24: a select menu."""
    row = SessionRow(id=1, channel_id="1", guild_id=None, game_id="tatari", status="active", host="1",
                     players=["1"], options={}, seed=1, state=None, version=3, move_count=0, meta={},
                     created_ms=0, updated_ms=0)

    def layout(n: int) -> list[tuple[int | None, str]]:
        d = Decision(player="1", kind="k", prompt="p", options=[Option(id=f"o{i}", label=f"o{i}") for i in range(n)])
        view = board_view(row, [d], {})
        return [(item._rendered_row if item._rendered_row is not None else item.row,
                 type(item).__name__) for item in view.children]

    assert BUTTON_OPTIONS == 23
    rows = layout(23)
    assert [r for r, _ in rows] == [0] * 5 + [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5
    assert [t for _, t in rows][-2:] == ["HelpButton", "FullBoardButton"]
    assert {t for _, t in rows[:23]} == {"ChoiceButton"}
    assert [t for _, t in layout(7)] == ["ChoiceButton"] * 7 + ["HelpButton", "FullBoardButton"]
    assert [r for r, _ in layout(7)] == [0] * 5 + [1] * 2 + [2, 2]
    assert [t for _, t in layout(24)] == ["ChoiceSelect", "HelpButton", "FullBoardButton"]


def board_checks(h: Harness, update, names: dict[str, str]) -> tuple[int, int]:
    """The live board of ``update`` against its pending decisions (see the module docstring); (buttons, ellipses)."""
    board = current_board(h)
    assert board is not None
    comps = [c for r in board["components"] for c in r["components"]]
    assert len(board["components"]) <= 5 and all(len(r["components"]) <= 5 for r in board["components"])
    have = {c.get("custom_id"): c for c in comps}
    sid, ver = update.session.id, update.session.version
    buttons = ellipses = 0
    for c in comps:
        for label in [c.get("label") or ""] + [o["label"] for o in c.get("options", [])]:
            assert len(label) <= SHORT_LABEL, label
            ellipses += "…" in label
        assert all(len(o.get("description") or "") <= 100 for o in c.get("options", []))
        assert len(c.get("custom_id", "")) <= 100
    humans = [d for d in update.pending if d.options]
    for di, d in enumerate(update.pending):
        if not d.options:
            continue
        for oi, opt in enumerate(d.options):
            button = have.get(ids.choice(sid, ver, di, oi))
            race = next((c for cid, c in have.items() if cid and cid.startswith(f"pbc:r:{sid}:")
                         and cid.split(":", 4)[4] == opt.id), None)
            if len(humans) == 1 and len(d.options) <= BUTTON_OPTIONS:
                assert button is not None or race is not None, (d.kind, opt.id, "not on a button")
            shown = button or race
            if shown is None:
                continue
            buttons += 1
            assert shown["label"] == button_label(d, oi, names)
            if opt.short:  # the whole label is a line of the message, names as mentions
                key = marker_keys(d.options).get(opt.id)
                line = "-# " + (f"{key} · " if key else "") + format_text(opt.label, mention)
                assert line in board["content"].split("\n") or "more: `/move`" in board["content"], line
    return buttons, ellipses


@pytest.mark.parametrize("game_id,n,options", TABLES)
async def test_whole_games_with_long_names_keep_every_label_whole(tmp_path, game_id, n, options):
    """A whole seeded game with long Latin and CJK names, answered through components: every label at most 40
    characters, the whole label of a shortened one on the board, every decision of up to 23 options on buttons."""
    game = games.get(game_id)
    async with Harness(tmp_path / "bot.sqlite3") as h:
        await h.bot.timers.stop()
        users = [h.user(101 + i, name) for i, name in enumerate(long_names([str(i) for i in range(n)]).values())]
        by_id = {u.sid: u for u in users}
        names = {u.sid: u.name for u in users}
        kw = {"game": game_id, **({"options": options} if options else {})}
        card = (await h.slash(users[0], "play", **kw)).message(public=True)
        for u in users[1:]:
            await h.click(u, card, "Join")
        await h.click(users[0], card, "Start")
        update = await h.bot.service.show(str(h.channel_id))
        sid, rng = update.session.id, random.Random(3)
        buttons = ellipses = moves = presses = 0
        while update.session.status == "active" and moves < 400:
            d = update.pending[0]
            if d.player is None and (not d.options or presses >= 2 * n or rng.random() < 0.35):
                h.now_ms = max(h.now_ms, d.deadline_ms or h.now_ms)
                await h.bot.timers.fire_due(h.now_ms)
                await h.settle()
                presses = 0
            else:
                b, e = board_checks(h, update, names)
                buttons, ellipses = buttons + b, ellipses + e
                if d.player is None:
                    h.advance(rng.randint(20, 400))
                    player, presses = rng.choice(users), presses + 1
                else:
                    h.advance(2_000 if d.deadline_ms is None else max(0, min(2_000, d.deadline_ms - h.now_ms - 1)))
                    player = by_id[d.player]
                await press(h, player, sid, greedy(game, update.state, d, rng))
                moves += 1
            update = h.bot.service.view(await h.store.session(sid))
        assert buttons > 0
        if game_id in ("tatari", "tataraba"):  # their labels name players: the long names were shortened
            assert ellipses > 0


async def test_a_full_tatsumi_lobby_names_the_option_that_seats_five(database):
    """A fifth player joining a four-seat Tatsumi lobby is told the lobby is full and that void=true seats five
    (Game.more_seats, from Game.seat_counts); nothing changes."""
    async with Harness(database) as h:
        users = [h.user(101 + i, f"p{i}") for i in range(5)]
        card = (await h.slash(users[0], "play", game="tatsumi")).message(public=True)
        for u in users[1:4]:
            await h.click(u, card, "Join")
        reply = await h.click(users[4], card, "Join")
        assert reply.ephemeral() and not reply.public()
        assert reply.text == ("The lobby is full (4 players with these options; a table opened with void=true "
                              "seats 5). Wait for the next game.")
        row = await h.store.live_session(str(h.channel_id))
        assert row.players == [u.sid for u in users[:4]]


async def test_help_and_play_say_the_lobbys_player_counts(database):
    """/help (at most 600 characters) and /play's game choices give each game's counts as Game.seat_counts does."""
    async with Harness(database) as h:
        alice = h.user(101, "alice")
        text = (await h.slash(alice, "help")).text
        assert len(text) <= 600
        choices = {c["value"]: c["name"] for c in await h.autocomplete(alice, "play", "game", game="")}
        for g in games.all():
            assert f"**{g.title!s}** `{g.id}` · {g.seats_summary()!s}" in text
            assert choices[g.id] == f"{g.title!s} ({g.seats_summary()!s})"
        assert "`/rules`" in text and "`/rules game`" in text
