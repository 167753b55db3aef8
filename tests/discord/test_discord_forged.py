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
    reply = await forge(h, other, ids.afk(sid, ver, seat))
    assert_refused(reply)
    assert "not idle yet" in reply.text and "5 h" in reply.text, reply.text
    h.advance(AFK_HOURS * HOUR - 60_000)
    reply = await forge(h, other, ids.afk(sid, ver, seat))
    assert_refused(reply)
    assert "in 1 min" in reply.text, reply.text
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
        row = await service.live_session("c1")
        state = service.state_of(row)
        anyone = [Decision(player=None, kind="race", prompt="Anyone", options=[Option(id="go", label="Go")])]
        service._remember(row.id, row.version, state, anyone)  # the engine waits for anyone now
        before = (row.version, len(await store.moves(row.id)))
        for call in (service.press("c1", row.id, row.version, 0, 0, "c"), service.act("c1", "c", "go")):
            with pytest.raises(SessionError) as refused:
                await call
            assert str(refused.value) == LEFT_GAME
        with pytest.raises(SessionError) as refused:
            await service.press("c1", row.id, row.version, 0, 0, "z")
        assert str(refused.value) == NOT_SEATED
        row = await service.live_session("c1")
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
