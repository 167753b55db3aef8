"""Forged component payloads: custom_ids written by hand (the format of :mod:`bot.discord.ids`), pressed by
whoever. Only a press that is legal for that member now changes the store: "remove the idle player" needs the AFK
limit due and a presser who is still playing (or a moderator), never the idle player; a player who resigned or was
removed acts on nothing; a press on an older board version changes nothing. Every refusal is ephemeral and edits no
message."""

from __future__ import annotations

import json

import pytest
from harness import Harness, Reply, User
from test_discord_play import open_game, pending

from bot.config import Settings
from bot.discord import ids
from bot.sessions import IDLE_PLAYED, IDLE_WHO, LEFT_GAME, NOT_SEATED

HOUR = 3_600_000
AFK_HOURS = 5


@pytest.fixture
async def h(database):
    settings = Settings(discord_token=None, reminder_hours=0, afk_hours=AFK_HOURS)
    async with Harness(database, settings=settings) as harness:
        yield harness


async def snapshot(h: Harness, sid: int) -> tuple:
    """Everything a press could change: the session row's version, status, state and meta, and the move log."""
    row = await h.store.session(sid)
    moves = await h.store.moves(sid)
    return row.version, row.status, row.state, row.meta, [(m.seq, m.player, m.option) for m in moves]


async def forge(h: Harness, user: User, custom_id: str, values: list[str] | None = None,
                message: dict | None = None) -> Reply:
    """A component interaction with ``custom_id`` (a button, or a select with ``values``) on ``message`` (default:
    the channel's latest message with components), as a modified client could send it."""
    message = json.loads(json.dumps(message or h.latest_with(("pbc:",)) or h.messages_in()[-1]))
    kind = 2 if values is None else 3
    forged = {"type": kind, "custom_id": custom_id, **({"style": 1, "label": "forged"} if kind == 2 else
                                                       {"options": [{"label": "x", "value": "0"}]})}
    message["components"] = [*message.get("components", [])[:4], {"type": 1, "components": [forged]}]
    data: dict = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    payload = h._interaction(user, 3, data, int(message["channel_id"]), message)
    return await h._feed(h.bot._connection.parse_interaction_create, payload)


def assert_refused(reply: Reply, text: str | None = None) -> None:
    """One ephemeral answer, nothing public, no message edited."""
    assert reply, "the press was not answered"
    assert reply.ephemeral(), [(s.kind, s.content) for s in reply]
    assert not reply.public(), [(s.kind, s.content) for s in reply.public()]
    assert not [s for s in reply if s.kind in ("edit", "edit_original") or s.type in (6, 7)], \
        [(s.kind, s.type, s.content) for s in reply]
    if text is not None:
        assert any(s.content == text for s in reply.ephemeral()), [s.content for s in reply.ephemeral()]


async def idle_game(h: Harness, players: list[User]) -> tuple[int, int, str]:
    """A dealt Tatari game: (session id, version, the idle player's seat index, as the AFK notice carries it)."""
    await open_game(h, players)
    update = await pending(h)
    idle = update.pending[0].player
    return update.session.id, update.session.version, idle


async def test_idle_removal_before_the_afk_limit_is_refused(h):
    """Right after the start, and a minute before the limit: refused, the game untouched (it once ended a 2-player
    game and won it, rated)."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    sid, ver, idle = await idle_game(h, [alice, bob])
    other = bob if idle == alice.sid else alice
    seat = [alice.sid, bob.sid].index(idle)
    before = await snapshot(h, sid)
    due = h.now_ms + AFK_HOURS * HOUR
    said = f"<@{idle}> is not idle yet: this game's idle limit is 5 h; they become idle <t:{due // 1000}:R>."
    reply = await forge(h, other, ids.afk(sid, ver, seat))
    assert_refused(reply, said)
    h.advance(AFK_HOURS * HOUR - 60_000)
    reply = await forge(h, other, ids.afk(sid, ver, seat))
    assert_refused(reply, said)
    assert await snapshot(h, sid) == before
    assert await h.store.game_record(sid) is None
    # once due, the same press by the same player removes the idle player
    h.advance(60_000)
    reply = await forge(h, other, ids.afk(sid, ver, seat))
    assert reply.public() and "resigns" in reply.text, reply.text
    assert (await h.store.session(sid)).status == "finished"


async def test_idle_removal_by_a_resigned_player_a_non_player_or_the_idle_player_is_refused(h):
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    dave = h.user(104, "dave")
    sid, _, idle = await idle_game(h, [alice, bob, carol])
    users = {u.sid: u for u in (alice, bob, carol)}
    leaver = next(u for u in (carol, bob) if u.sid != idle)
    assert (await h.slash(leaver, "resign")).public()
    update = await pending(h)
    idle = update.pending[0].player
    assert idle != leaver.sid
    ver, seat = update.session.version, update.session.players.index(idle)
    h.advance(AFK_HOURS * HOUR + 1)  # due: only who presses can make it illegal now
    before = await snapshot(h, sid)
    assert_refused(await forge(h, leaver, ids.afk(sid, ver, seat)), LEFT_GAME)
    assert_refused(await forge(h, dave, ids.afk(sid, ver, seat)), IDLE_WHO)
    reply = await forge(h, users[idle], ids.afk(sid, ver, seat))
    assert_refused(reply, "You cannot remove yourself: /resign leaves the game.")
    # a seat that is not the one the game waits for, a seat of nobody, an old version
    others = [i for i, p in enumerate(update.session.players) if p not in (idle, leaver.sid)]
    presser = users[update.session.players[others[0]]]
    assert_refused(await forge(h, presser, ids.afk(sid, ver, others[0])))
    assert_refused(await forge(h, presser, ids.afk(sid, ver, 7)))
    assert_refused(await forge(h, presser, ids.afk(sid, ver, update.session.players.index(leaver.sid))),
                   f"{{@{leaver.sid}}} has already left this game.".replace("{@", "<@").replace("}", ">"))
    assert_refused(await forge(h, presser, ids.afk(sid, ver - 1, seat)), IDLE_PLAYED)
    assert_refused(await forge(h, presser, ids.afk(sid + 1, ver, seat)))
    assert await snapshot(h, sid) == before
    # the legal press still works: a seated player still playing, the limit due
    reply = await forge(h, presser, ids.afk(sid, ver, seat))
    assert reply.public(), reply.text
    after = await snapshot(h, sid)
    assert after[4][-1][1:] == (idle, "__resign__") and after[0] == ver + 1


async def test_idle_removal_while_the_afk_limit_is_off_is_refused(database):
    async with Harness(database, settings=Settings(discord_token=None, reminder_hours=0, afk_hours=0)) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        sid, ver, idle = await idle_game(h, [alice, bob])
        h.advance(1000 * HOUR)
        before = await snapshot(h, sid)
        other = bob if idle == alice.sid else alice
        reply = await forge(h, other, ids.afk(sid, ver, [alice.sid, bob.sid].index(idle)))
        assert_refused(reply)
        assert "AFK limit is off" in reply.text
        assert await snapshot(h, sid) == before


@pytest.mark.parametrize("how", ["resigned", "kicked"])
async def test_a_player_who_left_can_press_nothing(h, how):
    """Every choice a board could carry (every decision and option index, this version and others), a select
    value, a /move and an undo request by a player who resigned or was removed: refused, nothing stored."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    await open_game(h, [alice, bob, carol])
    update = await pending(h)
    sid = update.session.id
    gone = next(u for u in (carol, bob) if u.sid != update.pending[0].player)
    if how == "resigned":
        assert (await h.slash(gone, "resign")).public()
    else:
        assert (await h.slash(alice, "kick", player=gone)).public()
    update = await pending(h)
    ver = update.session.version
    before = await snapshot(h, sid)
    presses = [ids.choice(sid, v, d, o) for v in (ver - 1, ver, ver + 1) for d in range(3) for o in range(6)]
    for custom_id in presses:
        assert_refused(await forge(h, gone, custom_id))
    for d in range(2):
        assert_refused(await forge(h, gone, ids.menu(sid, ver, d, 0), values=["0"]))
    for option in [o.id for d in update.pending for o in d.options]:
        reply = await h.slash(gone, "move", option=option)
        assert reply.ephemeral() and not reply.public(), reply.text
    reply = await h.slash(gone, "undo")
    assert reply.ephemeral() and not reply.public()
    h.advance(AFK_HOURS * HOUR + 1)
    seat = update.session.players.index(update.pending[0].player)
    assert_refused(await forge(h, gone, ids.afk(sid, ver, seat)), LEFT_GAME)
    reply = await h.slash(gone, "kick", player=alice)
    assert reply.ephemeral() and not reply.public(), reply.text
    assert await snapshot(h, sid) == before


async def test_a_player_who_left_cannot_answer_anyones_decision(database):
    """A decision anyone seated may answer (``Decision.player`` None: a race) is not open to one who left: the
    service refuses before the engine sees the move."""
    from bot.sessions import SessionError, SessionService
    from bot.store import Store
    from games import Decision, Option

    store = await Store.open(database)
    try:
        service = SessionService(store, clock=lambda: 1_800_000_000_000, seeds=lambda: 7)
        await service.open_lobby("c1", "tatari", "a")
        for p in ("b", "c"):
            await service.join("c1", p)
        await service.start("c1", "a")
        await service.resign("c1", "c")
        row = await service.reads.live_session("c1")
        state = service.state_of(row)
        anyone = [Decision(player=None, kind="race", prompt="Anyone", options=[Option(id="go", label="Go")])]
        service.states.remember(row.id, row.version, state, anyone)  # the engine waits for anyone now
        before = (row.version, len(await store.moves(row.id)))
        for call in (service.press("c1", row.id, row.version, 0, 0, "c"), service.act("c1", "c", "go")):
            with pytest.raises(SessionError) as refused:
                await call
            assert str(refused.value) == LEFT_GAME
        with pytest.raises(SessionError) as refused:
            await service.press("c1", row.id, row.version, 0, 0, "z")
        assert str(refused.value) == NOT_SEATED
        row = await service.reads.live_session("c1")
        assert (row.version, len(await store.moves(row.id))) == before
    finally:
        await store.close()


async def test_undo_resets_the_idle_clock(h):
    """The AFK limit counts from the board the idle player was dealt: after an undo, from the undo."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    users = {alice.sid: alice, bob.sid: bob}
    await open_game(h, [alice, bob])
    update = await pending(h)
    d = update.pending[0]
    await h.choose(users[d.player], d.options[0].id)
    h.advance(AFK_HOURS * HOUR)  # the first board is 5 h old now
    mover = users[d.player]
    other = bob if mover is alice else alice
    vote = await h.slash(mover, "undo")
    await h.click(other, vote.message(), "Approve undo")
    update = await pending(h)
    waiting = update.pending[0].player
    presser = other if waiting == mover.sid else mover
    before = await snapshot(h, update.session.id)
    reply = await forge(h, presser, ids.afk(update.session.id, update.session.version,
                                            update.session.players.index(waiting)))
    assert_refused(reply)
    assert "not idle yet" in reply.text
    assert await snapshot(h, update.session.id) == before


async def test_out_of_date_or_forged_undo_votes_are_refused_privately_and_edit_nothing(h):
    """An undo button of a request a move made out of date, of one refused already, of an older or newer version,
    or pressed by a non-player or a player who left: an ephemeral refusal; the pressed message keeps its text and
    buttons (no edit of it is sent) — such presses once rewrote the public request message, even by non-players."""
    alice, bob, carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
    dave = h.user(104, "dave")
    users = {u.sid: u for u in (alice, bob, carol)}
    await open_game(h, [alice, bob, carol])
    d = (await pending(h)).pending[0]
    await h.choose(users[d.player], d.options[0].id)
    waiting = (await pending(h)).pending[0].player
    leaver = next(u for u in (carol, bob) if u.sid != waiting)
    assert (await h.slash(leaver, "resign")).public()
    asker = next(u for u in (alice, bob, carol) if u is not leaver)
    voter = next(u for u in (alice, bob, carol) if u not in (leaver, asker))
    ask = (await h.slash(asker, "undo")).message(public=True)
    sid, ver = (await pending(h)).session.id, (await pending(h)).session.version
    kept = json.loads(json.dumps(h.fake.messages[int(ask.message["id"])]))

    async def refused(user, custom_id, text=None):
        before = await snapshot(h, sid)
        reply = await h.click(user, ask, "Approve undo", custom_id=custom_id)
        assert_refused(reply, text)
        assert h.fake.messages[int(ask.message["id"])] == kept
        assert await snapshot(h, sid) == before

    await refused(voter, ids.undo(sid, ver - 1, "y"), "This undo request is out of date: the game moved on.")
    await refused(dave, ids.undo(sid, ver + 1, "y"))
    await refused(dave, ids.undo(sid, ver, "y"), "Only the players of this game vote on an undo.")
    await refused(dave, ids.undo(sid, ver, "n"))
    await refused(leaver, ids.undo(sid, ver, "y"), LEFT_GAME)
    await refused(voter, ids.undo(sid, ver - 1, "y"), "This undo request is out of date: the game moved on.")
    await refused(voter, ids.undo(sid, ver + 1, "n"))
    await refused(voter, ids.undo(sid + 1, ver, "y"))
    # the request made out of date by a move: every button of it, by anyone
    d = (await pending(h)).pending[0]
    await h.choose(users[d.player], d.options[0].id)
    kept = json.loads(json.dumps(h.fake.messages[int(ask.message["id"])]))
    sid, ver_now = sid, (await pending(h)).session.version
    for user in (voter, asker, dave, leaver):
        for vote in "yn":
            before = await snapshot(h, sid)
            reply = await h.click(user, ask, "Approve undo" if vote == "y" else "Refuse")
            assert_refused(reply)
            assert h.fake.messages[int(ask.message["id"])] == kept
            assert await snapshot(h, sid) == before
    assert (await pending(h)).session.version == ver_now


# -- thousands of forged presses against a live game ------------------------------------------------------------------
FORGED_PRESSES = 2000
"""Forged presses the property below sends (hypothesis examples, one press each, against one live game)."""


def _plain_index(values: list[str]) -> int | None:
    """The one select value our menus send (plain ASCII digits), else None (as ``components._one_index``)."""
    if len(values) != 1 or not (values[0].isascii() and values[0].isdigit()) or len(values[0]) > 4:
        return None
    return int(values[0])


class LiveTable:
    """A running Tatari game of alice, bob and carol in which carol resigned; dave is no player, mod a moderator.
    A new one is dealt when a legal press ended the last."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.alice, self.bob, self.carol = h.user(101, "alice"), h.user(102, "bob"), h.user(103, "carol")
        self.dave, self.mod = h.user(104, "dave"), h.user(105, "mod", moderator=True)
        self.users = [self.alice, self.bob, self.carol, self.dave, self.mod]
        self.games = 0

    async def ensure(self) -> None:
        row = await self.h.store.live_session(str(self.h.channel_id))
        if row is not None and row.status == "active":
            return
        if row is not None:
            await self.h.bot.service.abandon(row.channel_id, row.host, moderator=True)
        await open_game(self.h, [self.alice, self.bob, self.carol])
        assert (await self.h.slash(self.carol, "resign")).public()
        self.games += 1

    async def legal(self, user: User, custom_id: str, values: list[str] | None) -> bool:
        """Whether the press is one the rules allow ``user`` now (the oracle, from the game's contract)."""
        from games import IllegalMove, Move

        service = self.h.bot.service
        update = await service.show(str(self.h.channel_id))
        row, pending = update.session, update.pending
        resigned = await service.reads.resigned(row.id)
        playing = user.sid in row.players and user.sid not in resigned
        import re

        match = next((m for t in (ids.CHOICE, ids.MENU, ids.AFK) if (m := re.fullmatch(t, custom_id))), None)
        if match is None or int(match["sid"]) != row.id or int(match["ver"]) != row.version:
            return False  # no other component changes a running game (lobby, undo without a request, reads)
        if custom_id.startswith("pbc:k:"):
            seat = int(match["seat"])
            if seat >= len(row.players):
                return False
            idle = row.players[seat]
            since = await dealt_ms(self.h, row)
            return (idle not in resigned and any(d.player == idle for d in pending) and user.sid != idle
                    and (playing or user is self.mod) and self.h.now_ms >= since + AFK_HOURS * HOUR)
        d = int(match["d"])
        # a menu's value is any option index of its decision (the page is layout, not a rule)
        o = int(match["o"]) if custom_id.startswith("pbc:c:") else _plain_index(values or [])
        if o is None or d >= len(pending) or o >= len(pending[d].options) or not playing:
            return False
        decision = pending[d]
        if decision.player not in (None, user.sid):
            return False
        try:
            update.game.apply(update.state, Move(player=user.sid, option=decision.options[o].id, at_ms=self.h.now_ms))
        except IllegalMove:
            return False
        return True


async def dealt_ms(h: Harness, row) -> int:
    """When the board of ``row`` was dealt (ms, the service clock): the start, the last move or the last undo."""
    moves = await h.store.moves(row.id)
    return max([int(row.meta.get("started_ms", 0)), int(row.meta.get("undone_ms", 0)),
                *[int(m.at_ms) for m in moves[-1:] if m.at_ms is not None]])


def _forged_id(draw, sid: int, ver: int) -> tuple[str, list[str] | None]:
    """A custom_id of any of our templates (and some of none), with numbers near the live ones, and the select
    values when it is a menu."""
    from hypothesis import strategies as st

    sids = st.sampled_from([sid] * 8 + [sid + 1, sid - 1, 0, 10**18 - 1])
    vers = st.one_of(st.sampled_from([ver] * 6 + [ver - 1, ver + 1, 0]), st.integers(0, 10**9 - 1))
    small = st.one_of(st.integers(0, 2), st.integers(0, 9))
    values = st.lists(st.one_of(st.sampled_from(["0", "1", "2", "3", "5", "24", "25", "-1", "²", "٣", ""]),
                                st.text(max_size=30)), max_size=3)
    kind = draw(st.sampled_from("ccccmmmkkkkgluarhtfpxz"))
    if kind == "c":
        return ids.choice(draw(sids), draw(vers), draw(small), draw(small)), None
    if kind == "m":
        return ids.menu(draw(sids), draw(vers), draw(small), draw(st.integers(0, 2))), draw(values)
    if kind == "g":
        return ids.group(draw(sids), draw(vers), draw(small)), draw(values)
    if kind == "k":
        return ids.afk(draw(sids), draw(vers), draw(st.integers(0, 5))), None
    if kind == "l":
        return ids.lobby(draw(sids), draw(st.sampled_from(["join", "leave", "start", "cancel"]))), None
    if kind == "u":
        return ids.undo(draw(sids), draw(vers), draw(st.sampled_from("yn"))), None
    if kind == "a":
        return ids.add_ai(draw(sids)), draw(values)
    if kind == "x":
        return ids.remove_ai(draw(sids)), draw(values)
    if kind == "r":
        key = ids.race_key(draw(st.sampled_from(["race.1", "race.2", "x"])))
        return ids.race(draw(sids), key, draw(st.sampled_from(["shout", "grab", "set:1", "continue"]))), None
    if kind in "ht":
        game = draw(st.sampled_from(["tatari", "tsukimi", "nope", "a" * 40]))
        return (ids.help_(game), None) if kind == "h" else (ids.topic(game), draw(values))
    if kind == "f":
        return ids.full(draw(sids)), None
    if kind == "p":
        return ids.replay(draw(sids)), None
    # none of our templates: a prefix with junk after it
    return "pbc:" + draw(st.text(alphabet="cmgklxuarhtfp:0123456789abc-", max_size=40)), None


def test_forged_presses_change_the_game_only_when_legal_for_the_presser(tmp_path, caplog):
    """Thousands of forged custom_ids and select values from every member (a resigned player, a non-player, a
    moderator, the players), sometimes hours apart: the stored game changes exactly when the oracle (the game's
    contract and the idle-removal rule) says the press is legal for that member, by one version; every other press
    gets an answer only the presser sees and edits nothing; nothing is logged at ERROR. (A sync test: hypothesis
    drives one event loop of its own, where the bot runs, one press per example.)"""
    import asyncio
    import logging

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    settings_ = Settings(discord_token=None, reminder_hours=0, afk_hours=AFK_HOURS)
    counts = {"presses": 0, "legal": 0, "changes": 0, "removals": 0}
    caplog.set_level(logging.WARNING)
    loop = asyncio.new_event_loop()
    h = Harness(tmp_path / "bot.sqlite3", settings=settings_, render=lambda *a, **k: None)
    from discord.webhook import async_ as webhook_async
    from harness import RecordingAdapter

    # the harness's recording of interaction answers is a context variable: set it where every step's task starts
    token = webhook_async.async_context.set(RecordingAdapter(h.fake))
    loop.run_until_complete(h.open())
    table = LiveTable(h)

    async def current():
        await table.ensure()
        return await h.store.live_session(str(h.channel_id))

    async def step(user, custom_id, values):
        row = await h.store.live_session(str(h.channel_id))
        legal = await table.legal(user, custom_id, values)
        before = await snapshot(h, row.id)
        reply = await forge(h, user, custom_id, values)
        after = await snapshot(h, row.id)
        counts["presses"] += 1
        counts["legal"] += legal
        counts["changes"] += after != before
        counts["removals"] += legal and custom_id.startswith("pbc:k:")
        if legal:
            assert after[0] == before[0] + 1 and len(after[4]) == len(before[4]) + 1, (custom_id, user.name)
            assert reply.public(), (custom_id, user.name, reply.text)
            return
        assert after == before, (custom_id, values, user.name, reply.text)
        assert reply and not reply.public(), (custom_id, values, user.name, [(s.kind, s.content) for s in reply])
        if not custom_id.startswith(("pbc:h:", "pbc:t:", "pbc:f:", "pbc:g:", "pbc:p:")):  # reads answer privately
            assert_refused(reply)

    @settings(max_examples=FORGED_PRESSES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def press(data):
        row = loop.run_until_complete(current())
        if data.draw(st.integers(0, 9)) == 0:
            h.advance(data.draw(st.sampled_from([60_000, HOUR, AFK_HOURS * HOUR])))
        waiting = [u for u in table.users if u.sid in {d.player for d in h.bot.service.view(row).pending}]
        user = data.draw(st.sampled_from(table.users + waiting * 3))
        custom_id, values = _forged_id(data.draw, row.id, row.version)
        loop.run_until_complete(step(user, custom_id, values))

    try:
        press()
    finally:
        h._token = None  # set inside the loop's first task: its context is gone
        loop.run_until_complete(h.close())
        loop.close()
        webhook_async.async_context.reset(token)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    assert counts["presses"] == FORGED_PRESSES
    assert counts["changes"] == counts["legal"]
    assert counts["legal"] >= 20, counts  # the generator reaches legal presses too (the oracle is exercised)
    print(f"forged presses: {counts['presses']}, legal: {counts['legal']} (idle removals: {counts['removals']}), "
          f"state changes: {counts['changes']}, games: {table.games}")
