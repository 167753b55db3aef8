"""The one Store interface on both backends: SQLite and a real PostgreSQL server.

Every test takes ``database`` (tests/conftest.py): a fresh SQLite file, or a fresh schema on the PostgreSQL test server.
"""

from __future__ import annotations

import asyncio

import pytest
from databases import drop_schema, fresh_schema, require_postgres, with_schema

from bot.sessions import DEADLINE, SessionService, StaleBoard, replay
from bot.store import MIGRATIONS, StaleVersion, Store, shard_of


async def _started(store: Store, channel="c1", guild=None, players=("alice", "bob")) -> SessionService:
    svc = SessionService(store, clock=lambda: 1_000, seeds=lambda: 7)
    await svc.open_lobby(channel, "tatari", players[0], guild_id=guild)
    for p in players[1:]:
        await svc.join(channel, p)
    await svc.start(channel, players[0])
    return svc


async def test_both_backends_build_the_same_tables_and_columns(tmp_path):
    """Each migration is written once (bot/store/schema.py): an SQLite file and a PostgreSQL schema migrated to the
    last version hold the same tables with the same columns, in the same order, of the same kinds, and the same
    indexes (PostgreSQL has one more: timers by session)."""
    url = require_postgres()
    sqlite = await Store.open(tmp_path / "bot.sqlite3")
    try:
        cur = await sqlite.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                        " AND name NOT LIKE 'sqlite_%' ORDER BY name")
        tables = [r[0] for r in await cur.fetchall()]
        lite = {}
        for table in tables:
            cur = await sqlite.conn.execute(f"PRAGMA table_info({table})")
            kinds = {"INTEGER": "int", "TEXT": "text", "REAL": "real"}
            lite[table] = [(r[1], kinds[r[2]]) for r in await cur.fetchall()]
        cur = await sqlite.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        lite_indexes = {r[0] for r in await cur.fetchall()}
    finally:
        await sqlite.close()
    schema = await fresh_schema(url)
    pg = await Store.open(with_schema(url, schema))
    try:
        cur = await pg.conn.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = ?"
            " ORDER BY table_name, ordinal_position", (schema,))
        kinds = {"bigint": "int", "text": "text", "double precision": "real", "integer": "int"}
        post: dict[str, list] = {}
        for table, column, kind in await cur.fetchall():
            post.setdefault(table, []).append((column, kinds[kind]))
        cur = await pg.conn.execute("SELECT indexname FROM pg_indexes WHERE schemaname = ? AND indexname NOT LIKE"
                                    " '%_pkey'", (schema,))
        pg_indexes = {r[0] for r in await cur.fetchall()}
    finally:
        await pg.close()
        await drop_schema(url, schema)
    assert {t: c for t, c in post.items() if t != "schema_version"} == lite
    assert tables == ["bot_meta", "channel_settings", "discord_players", "discord_sessions", "finished_games",
                      "game_records", "game_seats", "moves", "ratings", "sessions", "timers"]
    assert pg_indexes - {"channel_settings_pkey"} == lite_indexes | {"timers_session"}
    assert lite["bot_meta"] == [("key", "text"), ("value", "text")]


async def test_meta_values_by_key(database):
    """``bot_meta`` (migration 6): a key reads None until set; setting it again replaces the value."""
    store = await Store.open(database)
    try:
        assert await store.get_meta("commands_hash") is None
        await store.set_meta("commands_hash", "a1")
        await store.set_meta("other", "x")
        await store.set_meta("commands_hash", "b2")
        assert (await store.get_meta("commands_hash"), await store.get_meta("other")) == ("b2", "x")
    finally:
        await store.close()
    again = await Store.open(database)
    try:
        assert await again.get_meta("commands_hash") == "b2"
    finally:
        await again.close()


async def test_open_migrates_to_the_last_schema_and_reopens(database):
    store = await Store.open(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert store.backend == ("postgresql" if database.startswith("postgresql") else "sqlite")
    finally:
        await store.close()
    again = await Store.open(database)  # nothing left to migrate
    try:
        assert await again.schema_version() == len(MIGRATIONS)
    finally:
        await again.close()


async def test_a_move_is_one_transaction_and_a_stale_version_is_refused(database):
    """The move, state, version and timers commit together; a write expecting an old version is
    refused with StaleVersion and stores nothing."""
    store = await Store.open(database)
    try:
        svc = await _started(store)
        row = await store.live_session("c1")
        update = svc.view(row)
        player = update.pending[0].player
        option = update.pending[0].options[0].id
        await svc.act("c1", player, option)
        after = await store.session(row.id)
        assert after.version == row.version + 1 and after.move_count == 1
        assert [m.option for m in await store.moves(row.id)] == [option]
        with pytest.raises(StaleVersion):
            async with store.transaction() as db:
                await store.lock_session(db, row.id, row.version)  # the version before the move
                await store.append_move(db, row.id, 2, player, option, 5)
        assert len(await store.moves(row.id)) == 1 and (await store.session(row.id)).version == after.version
        game = svc.game(row.game_id)
        state = replay(game, after.players, after.options, after.seed, await store.moves(row.id))
        assert state.model_dump_json() == after.state
    finally:
        await store.close()


async def test_two_stores_acting_on_one_version_apply_one_move(database):
    """Two processes (two stores, two services: no shared asyncio lock) answer the same board at
    once; exactly one move is stored, the other is refused as stale (StaleBoard), and the log replays."""
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        svc1 = await _started(one)
        svc2 = SessionService(two, clock=lambda: 1_000, seeds=lambda: 7)
        row = await one.live_session("c1")
        decision = svc1.view(row).pending[0]
        option = decision.options[0].id
        results = await asyncio.gather(
            svc1.act("c1", decision.player, option, expect_version=row.version),
            svc2.act("c1", decision.player, option, expect_version=row.version),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1, results
        assert all(isinstance(r, StaleBoard) for r in results if isinstance(r, BaseException)), results
        after = await one.session(row.id)
        assert after.version == row.version + 1 and [m.seq for m in await one.moves(row.id)] == [1]
        game = svc1.game(row.game_id)
        assert replay(game, after.players, after.options, after.seed,
                      await one.moves(row.id)).model_dump_json() == after.state
    finally:
        await one.close()
        await two.close()


async def test_a_due_timer_is_claimed_by_one_process_only(database):
    """Two processes claim the due timers at once: each timer goes to exactly one of them; a
    claimed timer is not offered again while its lease holds."""
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        ids = [await one.add_timer(f"c{i}", "reminder", 100 + i, {"n": i}) for i in range(20)]
        got1, got2 = await asyncio.gather(one.claim_timers(1_000, limit=15), two.claim_timers(1_000, limit=15))
        mine, theirs = {t.id for t in got1}, {t.id for t in got2}
        assert not mine & theirs and mine | theirs == set(ids)
        assert await one.claim_timers(1_000) == [] and await two.claim_timers(1_000) == []
        assert await one.next_timer() is None  # all leased
        assert await one.lease_expiry() is not None
        for t in got1:
            assert await one.finish_timer(t.id)
            assert not await two.finish_timer(t.id)
        assert {t.id for t in await one.timers()} == theirs
    finally:
        await one.close()
        await two.close()


async def test_a_timer_whose_claimer_died_is_claimed_again_after_the_lease(database):
    """A process that claimed a timer and died (never finished it) leaves it to another process
    once the lease ran out — not before; the late claimer's finish is refused after that."""
    dead = await Store.open(database)
    alive = await Store.open(database)
    try:
        dead.lease_ms = 300
        timer_id = await dead.add_timer("c1", "reminder", 10)
        assert [t.id for t in await dead.claim_timers(1_000)] == [timer_id]
        assert await alive.claim_timers(1_000) == []
        await asyncio.sleep(0.4)
        assert [t.id for t in await alive.claim_timers(1_000)] == [timer_id]
        assert not await dead.finish_timer(timer_id)
        assert await alive.finish_timer(timer_id)
        assert await alive.timers() == []
    finally:
        await dead.close()
        await alive.close()


async def test_a_stopped_tick_gives_its_claimed_deadlines_back(database):
    """A tick cancelled before firing releases its claims: another process fires the deadline at
    once, exactly once."""
    store = await Store.open(database)
    try:
        svc = await _started(store)
        row = await store.live_session("c1")
        await store.add_timer("c1", DEADLINE, 500, {"deadline_ms": 500}, session_id=row.id)

        async def dies(*args, **kwargs):
            raise asyncio.CancelledError

        svc.timeouts.fire = dies
        with pytest.raises(asyncio.CancelledError):
            await svc.tick(1_000)
        assert [t.kind for t in await store.claim_timers(1_000, [DEADLINE])] == [DEADLINE]
    finally:
        await store.close()


async def test_timers_and_restored_sessions_follow_the_shards_served(database):
    """A process serving shard 1 of 2 sees only the sessions and timers of guilds on shard 1
    (shard = (guild_id >> 22) % SHARD_COUNT)."""
    g0 = 800_000_000_000_000_000  # (g >> 22) % 2 decides
    guilds = {}
    g = g0
    while len(guilds) < 2:
        guilds.setdefault(shard_of(g, 2), g)
        g += 1 << 22
    store = await Store.open(database)
    try:
        svc = SessionService(store, clock=lambda: 1_000, seeds=lambda: 7)
        for shard, guild in guilds.items():
            await svc.open_lobby(f"c{shard}", "tatari", "alice", guild_id=str(guild))
            row = await store.live_session(f"c{shard}")
            await store.add_timer(f"c{shard}", "reminder", 10, session_id=row.id)
        store.serve_shards(2, [1])
        assert [r.channel_id for r in await store.live_sessions()] == ["c1"]
        assert [t.channel_id for t in await store.due_timers(1_000)] == ["c1"]
        assert (await store.next_timer()).channel_id == "c1"
        assert [t.channel_id for t in await store.claim_timers(1_000)] == ["c1"]
        store.serve_shards(2, [0, 1])
        assert [t.channel_id for t in await store.claim_timers(1_000)] == ["c0"]
        with pytest.raises(ValueError, match="not one of 0-1"):
            store.serve_shards(2, [2])
    finally:
        await store.close()


async def test_a_second_live_session_in_a_channel_is_refused_by_the_store(database):
    store = await Store.open(database)
    try:
        await store.create_session("c1", "tatari", "alice", {}, 1)
        with pytest.raises(store.integrity_errors):
            await store.create_session("c1", "tatari", "bob", {}, 2)
    finally:
        await store.close()


async def test_four_stores_open_a_fresh_database_together(database):
    """Several processes may start at once on a fresh database: one migrates (PostgreSQL: under an advisory lock;
    SQLite: in one immediate transaction), the others wait and find nothing to do."""
    stores = await asyncio.gather(*(Store.open(database) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
    finally:
        for s in stores:
            await s.close()


async def test_adapter_data_merged_by_two_processes_at_once_keeps_every_change(database):
    """The chat adapter's data (bot/store/adapter.py): two processes (two stores) merge 12 display names each into
    one session's data at the same time, and set its board link: every name and the link are kept; a member's data
    merges the same way."""
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        await _started(one)
        sid = (await one.live_session("c1")).id

        async def name(store: Store, player: str) -> None:
            async with store.transaction() as db:
                await store.update_session_data(db, sid, {}, merge={"names": {player: player.upper()}})

        await asyncio.gather(*(name(s, f"{tag}{i}") for i in range(12) for tag, s in (("a", one), ("b", two))))
        async with one.transaction() as db:
            await one.set_board_links(db, [(sid, '["c1", 42]', 5)])
        async with two.transaction() as db:
            data = await two.update_session_data(db, sid, {"lobby": None, "undo": {"version": 3}})
        expected = {f"{t}{i}": f"{t.upper()}{i}" for i in range(12) for t in "ab"}
        assert data == {"names": expected, "board": ["c1", 42], "undo": {"version": 3}}
        assert await one.session_data(sid) == data and await one.session_data(sid + 1) == {}
        await asyncio.gather(one.update_player_data("alice", {"mute_turn_pings": True}),
                             two.update_player_data("alice", {"seen_help": True}))
        await one.update_player_data("bob", {"mute_turn_pings": False})
        # each process caches members' data (another process's writes show within PLAYER_CACHE_S): read afresh
        two.forget_player_data()
        assert await two.players_data(["alice", "bob", "carol", ""]) == {
            "alice": {"mute_turn_pings": True, "seen_help": True}, "bob": {"mute_turn_pings": False}}
    finally:
        await one.close()
        await two.close()


def test_the_store_interface_imports_no_backend():
    """No import circle: the interface, its shared parts and the schema import neither backend nor the factory;
    the backends import the interface, never the factory (bot/store/__init__.py)."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "bot" / "store"

    def imports(name: str) -> set[str]:
        tree = ast.parse((folder / f"{name}.py").read_text())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {a.name for a in node.names}
        return found

    assert {n: imports(n) for n in ("rows", "records", "adapter", "privacy", "schema", "base", "sqlite",
                                    "postgres")} == {
        "rows": set(), "records": set(), "adapter": {"rows"}, "privacy": set(), "schema": {"records"},
        "base": {"adapter", "privacy", "records", "rows"}, "sqlite": {"base", "rows", "schema"},
        "postgres": {"base", "rows", "schema"}}
