"""No input ends in a traceback. Every slash command of the bot's tree (walked at run time, so a new command is
covered without touching this file) gets payloads a stale client or a forged one could send: each option of
another type, a value of the wrong JSON type under the right type, a member or user without its resolved data,
huge (6000 characters) and odd unicode strings, numbers far out of range, unknown options, required options
missing; every component template gets random fields and select values. Each input gets an answer only its sender
sees, nothing is stored, and nothing is logged at ERROR."""

from __future__ import annotations

import json
import logging
import random

import pytest
from discord import AppCommandOptionType as T
from discord import app_commands
from harness import Harness, Reply, User
from test_discord_forged import forge
from test_discord_play import open_game

from bot.matching import find_game

HUGE = "x" * 6000
ODD = ["", " ", "\u200b", "\u202eevil", "💥" * 50, "\x00", "ｔａｔａｒｉ", "<@0>", "@everyone", "../../etc/passwd",
       "'; DROP TABLE sessions; --", "\ud7ff", "ℵ" * 120]
WRONG_VALUE = {  # a value of another JSON type than the option type promises
    T.string: [12, True, None, ["a"], {"a": 1}],
    T.integer: ["lots", 1.5, True, 10**30, -(10**30), None],
    T.number: ["NaN", "1e999", True, None, 1e308, -1e308],
    T.boolean: ["yes", 2, None, "false"],
    T.user: ["not a snowflake", -1, 0, 1.5, None],
}
OTHER_TYPE = {T.string: T.integer, T.integer: T.string, T.number: T.string, T.boolean: T.string, T.user: T.string}
SAMPLE = {T.string: "tatari", T.integer: 3, T.number: 1.0, T.boolean: True}


def commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    found = [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(found) >= 15, [c.qualified_name for c in found]
    return found


def variants(command: app_commands.Command, member: User) -> list[tuple[str, list[dict], dict | None]]:
    """(what, options, resolved) payloads for ``command`` that no valid client sends."""
    out: list[tuple[str, list[dict], dict | None]] = []
    params = command.parameters
    for p in params:
        kind = p.type
        others = [{"name": q.name, "type": q.type.value, "value": SAMPLE[q.type]} for q in params
                  if q.required and q.name != p.name and q.type in SAMPLE]
        out.append((f"{p.name} as another type", [*others, {"name": p.name, "type": OTHER_TYPE.get(kind, T.string).value,
                                                            "value": "junk"}], None))
        for value in WRONG_VALUE.get(kind, ["junk"]):
            out.append((f"{p.name}={value!r:.30} under its own type",
                        [*others, {"name": p.name, "type": kind.value, "value": value}], None))
        if kind in (T.user, T.mentionable, T.channel, T.role):
            out.append((f"{p.name} without resolved data",
                        [*others, {"name": p.name, "type": kind.value, "value": member.sid}], None))
            out.append((f"{p.name} resolved to someone else",
                        [*others, {"name": p.name, "type": kind.value, "value": member.sid}],
                        {"users": {"1": {"id": "1", "username": "x", "discriminator": "0", "avatar": None}}}))
        if kind is T.string:
            for value in [HUGE, *ODD]:
                if p.name == "game" and find_game(value) is not None:
                    continue  # a width or script of a game's name is that game (bot.matching), not malformed
                out.append((f"{p.name}={value[:12]!r}", [*others, {"name": p.name, "type": kind.value,
                                                                   "value": value}], None))
        if kind in (T.integer, T.number):
            for value in (10**18, -(10**18), -1, 0):
                out.append((f"{p.name}={value}", [*others, {"name": p.name, "type": kind.value, "value": value}],
                            None))
    out.append(("an unknown option", [{"name": "zzz_unknown", "type": 3, "value": "x"}], None))
    if any(p.required for p in params):
        out.append(("required options missing", [], None))
    return out


def dump(h: Harness) -> dict:
    """Every row of every table (SQLite), except when rows were written (``updated_ms``/``created_ms`` stay)."""
    import sqlite3

    conn = sqlite3.connect(h.db_path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(map(repr, conn.execute(f"SELECT * FROM {t}").fetchall())) for t in tables}
    finally:
        conn.close()


def private_answer(reply: Reply, what: str) -> None:
    assert reply, f"{what}: no answer"
    assert not reply.public(), (what, [(s.kind, s.content[:80]) for s in reply.public()])
    assert [s for s in reply if s.ephemeral or s.type == 8], (what, [(s.kind, s.content[:80]) for s in reply])


@pytest.fixture
async def table(tmp_path):
    async with Harness(tmp_path / "bot.sqlite3", render=lambda *a, **k: None) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob])
        yield h, alice, bob


async def test_every_command_refuses_malformed_options_privately(table, caplog):
    h, alice, bob = table
    caplog.set_level(logging.WARNING)
    sent = 0
    for command in commands(h.bot.tree):
        for what, options, resolved in variants(command, bob):
            data = {"id": str(10_000 + hash(command.name) % 10_000), "name": command.name, "type": 1,
                    "options": options}
            if resolved is not None:
                data["resolved"] = resolved
            before = dump(h)
            h.advance(61_000)  # past every per-member cooldown
            reply = await h._feed(h.bot._connection.parse_interaction_create, h._interaction(alice, 2, data))
            private_answer(reply, f"/{command.name} {what}")
            assert dump(h) == before, f"/{command.name} {what} changed the store"
            sent += 1
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    assert sent >= 200, sent


async def test_every_autocomplete_answers_odd_input(table, caplog):
    """What a member types into an autocompleted option: always a list of choices, never a traceback."""
    h, alice, _ = table
    caplog.set_level(logging.WARNING)
    for command in commands(h.bot.tree):
        for p in (p for p in command.parameters if p.autocomplete):
            for value in [HUGE, *ODD, 12]:
                opts = [{"name": p.name, "type": p.type.value, "value": value, "focused": True}]
                data = {"id": "1", "name": command.name, "type": 1, "options": opts}
                reply = await h._feed(h.bot._connection.parse_interaction_create, h._interaction(alice, 4, data))
                assert reply and reply[-1].type == 8, (command.name, p.name, value, reply)
                assert len(reply[-1].body["data"]["choices"]) <= 25
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]


COMPONENT_FUZZ = 400


async def test_every_component_template_refuses_random_fields_privately(table, caplog):
    """Random custom_ids of every template (fields of the right shape with random numbers, and ones that match no
    template), with select values of any kind — huge, many, odd unicode: a private answer, nothing stored."""
    from bot.discord import ids

    h, alice, bob = table
    caplog.set_level(logging.WARNING)
    rng = random.Random(20261202)
    carol = h.user(103, "carol")
    row = await h.store.live_session(str(h.channel_id))

    def number(limit: int) -> int:
        return rng.choice([0, 1, 2, row.id, row.version, rng.randrange(limit)])

    def junk() -> str:
        return rng.choice([HUGE[:100], *ODD, str(rng.randrange(10**6)), "-1", "25"])

    makers = [
        lambda: ids.choice(number(10**18), number(10**9), rng.randrange(1000), rng.randrange(1000)),
        lambda: ids.menu(number(10**18), number(10**9), rng.randrange(1000), rng.randrange(1000)),
        lambda: ids.group(number(10**18), number(10**9), rng.randrange(1000)),
        lambda: ids.lobby(number(10**18), rng.choice(["join", "leave", "start", "cancel"])),
        lambda: ids.undo(number(10**18), number(10**9), rng.choice("yn")),
        lambda: ids.afk(number(10**18), number(10**9), rng.randrange(100)),
        lambda: ids.race(number(10**18), f"{rng.randrange(16**10):010x}", rng.choice(["shout", "grab", "💥", "x" * 64])),
        lambda: ids.help_(rng.choice(["tatari", "nope", "a" * 40])),
        lambda: ids.topic(rng.choice(["tatari", "tsukimi", "nope"])),
        lambda: ids.full(number(10**18)),
        lambda: ids.add_ai(number(10**18)),
        lambda: ids.remove_ai(number(10**18)),
        lambda: ids.replay(number(10**18)),
        lambda: "pbc:" + "".join(rng.choice("cmgluakrhtfxp:0123456789") for _ in range(rng.randrange(1, 60))),
    ]
    selects = ("pbc:m:", "pbc:g:", "pbc:t:", "pbc:a:", "pbc:x:")
    for i in range(COMPONENT_FUZZ):
        custom_id = makers[i % len(makers)]()
        if custom_id is None:
            continue
        values = None
        if custom_id.startswith(selects):
            values = [junk() for _ in range(rng.choice([0, 1, 1, 2, 25, 100]))]
        user = rng.choice([alice, bob, carol])
        before = dump(h)
        reply = await forge(h, user, custom_id, values)
        what = (custom_id[:60], json.dumps(values)[:60] if values else None, user.name)
        assert dump(h) == before or _legal_choice(custom_id, user, row), what
        assert reply, what
        assert not reply.public() or _legal_choice(custom_id, user, row), (what, reply.text[:200])
        row = await h.store.live_session(str(h.channel_id)) or row
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]


def _legal_choice(custom_id: str, user: User, row) -> bool:
    """A random choice that happened to be a legal move (of the live board, by its player): allowed to change the
    game (the forged-press property checks such presses exactly)."""
    return custom_id.startswith((f"pbc:c:{row.id}:{row.version}:", f"pbc:m:{row.id}:{row.version}:"))
