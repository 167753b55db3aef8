"""Every game, end to end, through the Discord adapter: ``/play`` (slash), Join/Start (lobby buttons), then the whole
game through component interactions only (buttons, selects, two-step picks; race windows closed by the timer
dispatcher's ``fire_due``), with the games' greedy AI choosing. At the end: the result on the last board, and the
stored state equal to a replay of the move log (``bot.sessions.replay``).

Every public board is checked on the way: a PNG attached, components only for the pending decisions of the current
version (race buttons, ``pbc:r:``, carry none), within Discord's limits, pings only for the players those decisions
name, and (every few boards) a press by someone the decision does not name is refused without a move. A press must
log that player's move and nothing but system moves (a race window opened or closed by the session).

Rendering: the real renderer draws the first board and the final board of each game (so the real PNGs are checked);
the boards in between get a tiny stub PNG to keep the suite quick (speed is measured in bench/, never here).
"""

from __future__ import annotations

import io
import random
import re

import pytest
from harness import Harness, Reply, Sent, User
from PIL import Image

import games
import renderers
from bot.discord import ids
from bot.service.presence import held_people
from bot.sessions import replay
from games.ai import greedy

MAX_MOVES = 1500
REFUSAL_EVERY = 5
"""Every this many boards, a press by a player the decision does not name is tried (and must be refused)."""
PNG = b"\x89PNG"


def _stub_png() -> bytes:
    buf = io.BytesIO()
    Image.new("P", (4, 4)).save(buf, format="PNG")
    return buf.getvalue()


STUB = _stub_png()


class Renders:
    """A render function for the harness: the real renderer for the first and the final board, a stub otherwise."""

    def __init__(self) -> None:
        self.real = 0
        self.stub = 0

    def __call__(self, state, names=None) -> bytes:
        game = games.get(state.game)
        if (self.real == 0 or game.result(state) is not None):
            self.real += 1
            return renderers.render(state, names=names)
        self.stub += 1
        return STUB


CASES = [
    # game, players, /play options, seed of the AI
    ("tsukimi", 2, None, 1),
    ("tsukimi", 2, "side=dark first=purple", 2),
    ("tataraba", 2, None, 1),
    ("tataraba", 3, None, 5),
    ("tataraba", 4, None, 2),
    ("tatsumi", 2, None, 1),
    ("tatsumi", 4, None, 2),
    ("tatsumi", 5, "void=true", 3),
    ("tatamokatsu", 2, None, 1),
    ("tatamokatsu", 4, None, 2),
    ("tatari", 4, None, 3),
]
NAMES = ["alice", "bob", "carol", "dave", "eve"]


def discord_limits(sent: Sent) -> None:
    """What Discord would refuse with a 400: content over 2000 characters, more than 5 action rows, more than 5
    buttons (or more than one select) a row, more than 25 options a select, labels over 80 (button) / 100 (option)
    characters, placeholders over 150, custom ids over 100, repeated custom ids or option values."""
    data = sent.data or {}
    assert len(data.get("content") or "") <= 2000
    rows = data.get("components") or []
    assert len(rows) <= 5, len(rows)
    seen: set[str] = set()
    for row in rows:
        items = row.get("components", [])
        assert 1 <= len(items) <= 5 and (len(items) == 1 or all(c["type"] == 2 for c in items)), items
        for c in items:
            cid = c.get("custom_id", "")
            assert 0 < len(cid) <= 100 and cid not in seen, cid
            seen.add(cid)
            if c["type"] == 2:
                assert 0 < len(c.get("label") or "") <= 80 or c.get("emoji"), c
            else:
                opts = c.get("options", [])
                assert 1 <= len(opts) <= 25, len(opts)
                assert len(c.get("placeholder") or "") <= 150
                assert all(0 < len(o["label"]) <= 100 for o in opts), opts
                values = [o["value"] for o in opts]
                assert len(set(values)) == len(values), values


def check_board(sent: Sent, update, game, clicker: str | None = None) -> None:
    """A public board: title, a PNG, components of the current version for the pending decisions (so no press on it
    is stale; race buttons carry no version) and the help row. Pings: a new message notifies exactly the
    players the decisions name, and those a live table's roll waits for (bot.service.presence), except ``clicker``
    (whose input caused it); the live message updated in place
    (a component's update, type 7) notifies nobody."""
    assert not sent.ephemeral, sent.content
    title = re.match(rf"\*\*{re.escape(game.title)}\*\* · board v(\d+)", sent.content)
    assert title and int(title[1]) <= update.session.version, sent.content[:80]  # (system moves may follow)
    assert sent.files and sent.files[0][1].startswith(PNG), f"board v{update.session.version} has no image"
    sid, ver = update.session.id, update.session.version
    race_options = {o.id for d in update.pending for o in d.options}
    for cid in sent.custom_ids():
        kind, s, rest = cid.split(":", 3)[1], cid.split(":")[2], cid.split(":")[3:]
        if kind in ("h", "f"):  # How to play, Full board
            assert cid in (f"pbc:h:{game.id}", f"pbc:f:{sid}"), cid
            continue
        assert int(s) == sid, (cid, sid)
        if kind == "hr":  # "I'm here": a live table's roll waits for players who missed a race
            assert held_people(update.session, update.state, update.pending), cid
            continue
        if kind == "r":  # a race button: (session, race key, option id) of a pending decision
            assert cid.split(":", 4)[4] in race_options, (cid, race_options)
            continue
        assert kind in ("c", "m", "g"), cid
        assert int(rest[0]) == ver, (cid, ver)
        assert 0 <= int(rest[1]) < len(update.pending), cid
        assert update.pending[int(rest[1])].options, cid
    discord_limits(sent)
    named = {d.player for d in update.pending if d.player is not None} - {clicker}
    named |= set(held_people(update.session, update.state, update.pending)) - {clicker}  # a live table's missing
    if sent.type == 7:
        named = set()
    pinged = {u["id"] if isinstance(u, dict) else str(u) for u in
              (sent.data.get("allowed_mentions") or {}).get("users", [])}
    assert pinged == named, (pinged, named)
    if update.session.status == "active":
        assert sent.custom_ids(), f"an active board v{ver} without components: {sent.content[-200:]}"


def current_board(h: Harness) -> dict | None:
    """The latest public message of the channel with game components (choices, selects, race buttons)."""
    return h.latest_with()


async def try_wrong_player(h: Harness, update, users: dict[str, User], outsider: User) -> bool:
    """Press a button of a decision that names a player, as someone else: refused, nothing applied."""
    board = current_board(h)
    sid, ver = update.session.id, update.session.version
    for cid in [c.get("custom_id", "") for row in board["components"] for c in row["components"]]:
        parts = cid.split(":")
        if parts[1] not in ("c", "m") or int(parts[3]) != ver:
            continue
        d = update.pending[int(parts[4])]
        if d.player is None:
            continue
        others = [u for p, u in users.items() if p != d.player] or [outsider]
        who = others[0]
        if parts[1] == "c":
            reply = await h.click(who, board, cid)
        else:  # a select menu: its page's first option
            reply = await h.select(who, board, cid, [str(int(parts[5]) * 25)])
        assert reply.ephemeral() and not reply.public(), reply.text
        expected = "not playing" if who is outsider else f"It is not your turn: waiting for <@{d.player}>."
        assert expected in reply.text, reply.text
        after = await h.bot.service.show(str(h.channel_id))
        assert after.session.version == ver and after.session.id == sid
        return True
    return False


async def press(h: Harness, user: User, sid: int, option: str) -> Reply:
    """Answer ``option`` through a component: its race button when the board has one (``pbc:r:``), else the
    harness's ``choose`` (a choice button, a select menu or the two-step pick; never ``/move``)."""
    board = current_board(h)
    if board is not None:
        for row in board["components"]:
            for c in row["components"]:
                cid = c.get("custom_id", "")
                if cid.startswith(f"pbc:r:{sid}:") and cid.split(":", 4)[4] == option:
                    return await h.click(user, board, cid)
    return await h.choose(user, option, allow_move=False)


async def play_whole_game(h: Harness, game_id: str, n: int, options: str | None, seed: int,
                          strategy=greedy, restart_at: int | None = None) -> dict:
    game = games.get(game_id)
    users = [h.user(101 + i, NAMES[i]) for i in range(n)]
    by_id = {u.sid: u for u in users}
    outsider = h.user(199, "mallory")
    await h.bot.timers.stop()  # race windows are closed by fire_due below, deterministically

    # lobby through slash commands and the card's buttons
    kw = {"game": game_id}
    if options:
        kw["options"] = options
    card = (await h.slash(users[0], "play", **kw)).message(public=True)
    assert card.buttons() == ["Join", "Leave", "Start", "Cancel", "How to play"], card.buttons()
    for u in users[1:]:
        reply = await h.click(u, card, "Join")
        assert not reply.ephemeral(), reply.text
    reply = await h.click(users[0], card, "Start")
    assert not reply.ephemeral(), reply.text
    board = reply.message(public=True, with_components=True)
    update = await h.bot.service.show(str(h.channel_id))
    assert update.session.status == "active" and update.session.players == [u.sid for u in users]
    check_board(board, update, game, clicker=users[0].sid)

    rng = random.Random(seed)
    sid = update.session.id
    moves = boards = race_presses = refusals = 0
    final: Sent = board
    while update.session.status == "active":
        assert moves < MAX_MOVES, f"{game_id}: no end after {MAX_MOVES} moves"
        if restart_at is not None and moves >= restart_at and (game_id != "tatamokatsu" or
                                                                update.pending[0].player is None):
            # the process restarts mid-game (for Tatamokatsu: inside a race window): the same buttons go on working
            restart_at = None
            await h.restart()
            await h.bot.timers.stop()
            update = h.bot.service.view(await h.store.session(sid))
        d = update.pending[0]
        start = len(h.fake.sent)
        held = held_people(update.session, update.state, update.pending)
        if held:  # a live table's roll waits for players who missed a race: each says "I'm here" (one press)
            for p in held:
                reply = await h.click(by_id[p], h.latest_with(("pbc:hr:",)), ids.here(sid))
                assert not reply.ephemeral(), reply.text
            update = h.bot.service.view(await h.store.session(sid))
            continue
        if d.player is None and (not d.options or race_presses >= 2 * n or rng.random() < 0.35):
            # nobody (more) races: the window closes at its deadline, through the dispatcher's fire_due
            assert d.deadline_ms is not None, d
            h.now_ms = max(h.now_ms, d.deadline_ms)
            assert await h.bot.timers.fire_due(h.now_ms) >= 1
            await h.settle()
            race_presses = 0
            reply = Reply(h.fake.sent[start:])
            sent = reply.message(public=True)
            assert sent.kind == "message"  # posted by the dispatcher, not an interaction answer
        else:
            if d.player is None:
                h.advance(rng.randint(20, 400))  # race inputs, timed by their snowflakes inside the window
                player = rng.choice(users)
                race_presses += 1
            else:
                player = by_id[d.player]
            option = strategy(game, update.state, d, rng)
            before = update.session.move_count
            reply = await press(h, player, sid, option)
            row = await h.store.session(sid)
            if d.player is None and row.move_count == before:
                # a race input the rules refuse for this player now (e.g. no fingers left): a readable refusal
                assert reply.ephemeral() and "Something went wrong" not in reply.text, reply.text
                update = h.bot.service.view(row)
                continue
            new = [(m.player, m.option) for m in (await h.store.moves(sid))[before:]]
            # the player's move, and nothing else but system moves (a race window the session opens or closes)
            assert (player.sid, option) in new and all(p in (None, player.sid) for p, _ in new), (new, reply.text)
            moves += 1
            if d.player is None and not reply.public():
                # a race input answered without a new board message (e.g. the race board edited in place)
                assert "Something went wrong" not in reply.text, reply.text
                update = h.bot.service.view(row)
                continue
            assert not reply.ephemeral() or reply.public(), reply.text
            sent = reply.message(public=True)
        row = await h.store.session(sid)
        update = h.bot.service.view(row)
        check_board(sent, update, game, clicker=None if sent.kind == "message" else player.sid)
        final = sent
        boards += 1
        if update.session.status == "active" and boards % REFUSAL_EVERY == 0:
            refusals += await try_wrong_player(h, update, by_id, outsider)

    # the end: the result on the last board, no components, a real PNG; the store replays
    row = await h.store.session(sid)
    assert row.status == "finished", row.status
    result = game.result(game.load_state(row.state))
    assert result is not None
    assert "Game over" in final.content and not final.custom_ids(), final.content[-300:]
    for p in result.winners:
        assert f"<@{p}>" in final.content
    img = Image.open(io.BytesIO(final.files[0][1]))
    assert img.width > 50 and img.height > 50  # the real renderer drew the final board
    log = await h.store.moves(sid)
    assert len(log) == row.move_count
    rebuilt = replay(game, row.players, row.options, row.seed, log)
    assert rebuilt == game.load_state(row.state)
    assert rebuilt.model_dump_json() == row.state
    # the board of a finished game stays readable
    reply = await h.slash(outsider, "board")
    assert reply.ephemeral() and "over" in reply.text
    assert refusals >= 1, "no board offered a button named for one player"
    return {"moves": moves, "boards": boards, "refusals": refusals}


@pytest.mark.parametrize(("game_id", "n", "options", "seed"), CASES,
                         ids=[f"{g}-{n}p{'-' + o.replace(' ', '-') if o else ''}" for g, n, o, _ in CASES])
async def test_whole_game_through_components(database, game_id, n, options, seed):
    renders = Renders()
    async with Harness(database, render=renders) as h:
        stats = await play_whole_game(h, game_id, n, options, seed)
    assert stats["moves"] > 5
    assert renders.real >= 2  # the first and the final board


@pytest.mark.parametrize(("game_id", "n", "restart_at"), [("tatsumi", 2, 30), ("tatamokatsu", 3, 10),
                                                         ("tsukimi", 2, 20)])
async def test_whole_game_across_a_restart(database, game_id, n, restart_at):
    """A restart mid-game (a new bot on the same database): the board posted before it keeps working."""
    renders = Renders()
    async with Harness(database, render=renders) as h:
        stats = await play_whole_game(h, game_id, n, None, 7, restart_at=restart_at)
    assert stats["moves"] > restart_at


async def test_tatsumi_solo_through_components(database):
    """``/play tatsumi options:solo=true`` with the host alone: start at once, play to the end (the Tidepool AI
    plays inside the engine)."""
    g = games.get("tatsumi")
    if "solo" not in g.Options.model_fields:
        pytest.skip("Tatsumi has no solo option yet")
    renders = Renders()
    async with Harness(database, render=renders) as h:
        stats = await play_whole_game(h, "tatsumi", 1, "solo=true", 4)
    assert stats["moves"] > 5


async def test_solo_needs_one_seat(database):
    """A solo Tatsumi lobby has one seat (TM-14, Game.seat_counts): a second player's Join is refused with a
    readable message and nothing changes; the lobby card says it is ready with exactly 1 player."""
    async with Harness(database) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        card = (await h.slash(alice, "play", game="tatsumi", options="solo=true")).message(public=True)
        assert "Ready to start (exactly 1 player)." in card.content
        reply = await h.click(bob, card, "Join")
        assert reply.ephemeral() and not reply.public(), reply.text
        assert reply.text == ("The lobby is full (1 player with these options; a table opened with solo=false seats "
                              "4). Wait for the next game.")
        row = await h.store.live_session(str(h.channel_id))
        assert row.status == "lobby" and row.players == [alice.sid]


async def test_solo_board_refuses_an_outsider(database):
    """Solo boards have no other seated player: a press by someone not seated is refused as 'not playing'."""
    async with Harness(database) as h:
        alice, mallory = h.user(101, "alice"), h.user(199, "mallory")
        card = (await h.slash(alice, "play", game="tatsumi", options="solo=true")).message(public=True)
        board = (await h.click(alice, card, "Start")).message(public=True, with_components=True)
        update = await h.bot.service.show(str(h.channel_id))
        assert await try_wrong_player(h, update, {alice.sid: alice}, mallory)
        cid = board.custom_ids()[0]
        assert cid.startswith(("pbc:c:", "pbc:m:", "pbc:g:"))
        assert ids.PREFIX == "pbc:"
