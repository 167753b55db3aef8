"""Every game, end to end, through the offline adapters.

- :class:`bot.local.chat.LocalChat`: ``/play``, ``/join``, ``/start`` typed as chat lines, then the whole game answered
  by the NUMBER of the choice in the last list shown to that player (race inputs, which anyone may send, are timed with
  ``+ms`` and typed by number, or by option id when the player also has a list of their own; ``/wait`` closes a race
  window). The greedy AI picks; each number is checked against the list printed and against the move logged. At the
  end: ``[game over]`` and the ranking printed, and the stored state equal to a replay of the move log.
- ``python -m bot demo GAME --players N --no-images`` through click's CliRunner, for every allowed N of every game.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import games
from bot.__main__ import cli
from bot.local.chat import LocalChat
from bot.local.demo import run_demo
from bot.sessions import SessionError, SessionService, replay
from bot.store import Store
from games.ai import greedy

NAMES = ["alice", "bob", "carol", "dave", "eve"]
MAX_LINES = 3000
ENTRY = re.compile(r"(\d+)\) (.*?) \[([^\[\]]*)\](?=  \d+\) |$)")

CASES = [
    # game, players, /play options, seed, write board images
    ("tatari", 2, "", 1, True),
    ("tatari", 5, "first=random", 2, False),
    ("tsukimi", 2, "", 1, False),
    ("tsukimi", 2, "side=dark", 2, False),
    ("tataraba", 2, "", 1, False),
    ("tataraba", 4, "", 2, False),
    ("tatsumi", 2, "", 1, False),
    ("tatsumi", 4, "", 2, False),
    ("tatsumi", 5, "void=true", 3, False),
    ("tatsumi", 3, "island=asymmetric dragons=asymmetric weather=true", 4, False),
    ("tatsumi", 1, "solo=true", 5, False),
    ("tatamokatsu", 2, "", 1, False),
    ("tatamokatsu", 4, "", 2, False),
    ("tatamokatsu", 5, "window_ms=3000", 3, False),
]


def listed(out: list[str], player: str) -> list[list[tuple[int, str, str]]]:
    """The numbered lists printed for ``player`` (``  name: 1) label [id]  2) …``)."""
    lists = []
    for line in out:
        if line.startswith(f"  {player}: "):
            lists.append([(int(k), label, oid) for k, label, oid in ENTRY.findall(line[len(player) + 4:])])
    return lists


async def play_by_numbers(tmp_path: Path, game_id: str, n: int, options: str, seed: int, images: bool,
                          strategy=greedy, restart_at: int | None = None) -> dict:
    game = games.get(game_id)
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        service = SessionService(store, seeds=lambda: 1000 + seed)
        chat = LocalChat(service, tmp_path / "img" if images else None)
        names = NAMES[:n]
        out = await chat.line(f"{names[0]}: /play {game_id} {options}".rstrip())
        assert not any(line.startswith("!") for line in out), out
        for p in names[1:]:
            out = await chat.line(f"{p}: /join")
            assert not any(line.startswith("!") for line in out), out
        out = await chat.line(f"{names[0]}: /start")
        assert f"{game.title!s} begins!" in out, out
        if images:
            assert any(line.startswith("[board] ") and Path(line[8:]).exists() for line in out), out

        rng = random.Random(seed)
        lines = moves = race_inputs = 0
        offset = 0
        last_key = None
        while True:
            row = await store.last_session("table")
            up = service.view(row)
            if row.status != "active":
                break
            assert lines < MAX_LINES, f"{game_id}: no end after {MAX_LINES} lines"
            lines += 1
            if restart_at is not None and moves >= restart_at and (game_id != "tatamokatsu" or
                                                                    up.pending[0].player is None):
                # the sandbox restarts on its database (for Tatamokatsu: inside a race window); /board shows the lists
                restart_at = None
                await store.close()
                store = await Store.open(tmp_path / "db.sqlite3")
                service = SessionService(store, seeds=lambda: 1000 + seed)
                chat = LocalChat(service, tmp_path / "img" if images else None)
                out = await chat.line(f"{names[-1]}: /board")
                assert not any(line.startswith("!") for line in out), out
                offset = 0  # after a restart, +ms counts from the game's last move
                up = service.view(await store.last_session("table"))
            d = up.pending[0]
            key = tuple((x.kind, x.player, x.deadline_ms) for x in up.pending)
            if key != last_key:
                offset, race_inputs, last_key = 0, 0, key
            before = len(await store.moves(up.session.id))
            if d.player is None and (not d.options or race_inputs >= 2 * n or rng.random() < 0.35):
                wait = max(0, d.deadline_ms - chat.now)
                out = await chat.line(f"/wait {wait}")
                assert not any(line.startswith("!") for line in out), out
                log = await store.moves(up.session.id)
                assert log[-1].player is None and log[-1].option == "timeout", log[-1]
                last_key = None
                continue
            option = strategy(game, up.state, d, rng)
            k = next(i for i, o in enumerate(d.options, 1) if o.id == option)
            if d.player is None:  # a race input: anyone seated, timed after the window opened
                player = rng.choice(names)
                offset += rng.randint(20, 400)
                own = any(x.player == player for x in up.pending)
                text = option if own else str(k)
                out = await chat.line(f"{player} +{offset}: {text}")
                race_inputs += 1
                if any(line.startswith(f"! {player}: ") for line in out):
                    assert len(await store.moves(up.session.id)) == before  # refused: nothing stored
                    continue
            else:
                player = d.player
                shown = listed(out, player)
                assert shown, f"no list printed for {player}: {out[-6:]}"
                entries = shown[-1]
                assert [oid for _, _, oid in entries] == [o.id for o in d.options], (entries, d.options)
                # a number picks from the list, unless the game reads it as a word (Tatari: "2" is the face 2)
                typed = str(k) if game.chat_word(str(k)) is None else option
                out = await chat.line(f"{player}: {typed}")
            assert not any(line.startswith("!") for line in out), out
            log = await store.moves(up.session.id)
            assert len(log) == before + 1 and (log[-1].player, log[-1].option) == (player, option), log[-1:]
            moves += 1

        row = up.session
        assert row.status == "finished", row.status
        assert any(line.startswith("[game over] ") for line in out), out[-8:]
        ranking = next(line for line in out if line.startswith("Ranking: "))
        result = up.result
        assert result is not None
        for p in result.winners:
            assert p in ranking.split(";")[0], ranking
        log = await store.moves(row.id)
        assert replay(game, row.players, row.options, row.seed, log) == game.load_state(row.state)
        if images:
            assert len(list((tmp_path / "img").glob("*.png"))) >= moves
        # after the end: a choice is refused with a readable line
        out = await chat.line(f"{names[0]}: 1")
        assert out and out[0].startswith(f"! {names[0]}: ") and "over" in out[0], out
        return {"moves": moves}
    finally:
        await store.close()


@pytest.mark.parametrize(("game_id", "n", "options", "seed", "images"), CASES,
                         ids=[f"{g}-{n}p{'-' + o.replace(' ', '-') if o else ''}" for g, n, o, _, _ in CASES])
async def test_whole_game_by_numbers(tmp_path, game_id, n, options, seed, images):
    stats = await play_by_numbers(tmp_path, game_id, n, options, seed, images)
    assert stats["moves"] > 5


@pytest.mark.parametrize(("game_id", "n", "restart_at"), [("tatsumi", 3, 25), ("tatamokatsu", 3, 8),
                                                         ("tataraba", 2, 40)])
async def test_whole_game_across_a_sandbox_restart(tmp_path, game_id, n, restart_at):
    stats = await play_by_numbers(tmp_path, game_id, n, "", 9, False, restart_at=restart_at)
    assert stats["moves"] > restart_at


def _player_counts() -> list[tuple[str, int, list[str]]]:
    out = []
    for g in games.all():
        for n in range(g.min_players, g.max_players + 1):
            opts: list[str] = []
            if g.id == "tatsumi" and n == 1:
                opts = ["-o", "solo=true"]
            if g.id == "tatsumi" and n == 5:
                opts = ["-o", "void=true"]
            out.append((g.id, n, opts))
    return out


DEMOS = _player_counts()


@pytest.mark.parametrize(("game_id", "n", "opts"), DEMOS, ids=[f"{g}-{n}p" for g, n, _ in DEMOS])
def test_demo_command_every_player_count(game_id, n, opts):
    runner = CliRunner()
    for seed in (1, 2, 3):
        result = runner.invoke(cli, ["demo", game_id, "--players", str(n), "--seed", str(seed), "--no-images",
                                     *opts])
        assert result.exit_code == 0, (seed, result.output, result.exception)
        lines = result.output.splitlines()
        moves_line = next((line for line in lines if re.match(r"\d+ moves\. ", line)), None)
        assert moves_line is not None, result.output
        assert int(moves_line.split()[0]) > 5
        ranking = next(line for line in lines if line.startswith("Ranking: 1. "))
        seated = NAMES[:n]
        assert sum(ranking.count(p) for p in seated) >= n, ranking  # everybody ranked


def test_demo_explains_options_a_player_count_needs():
    """Tatsumi alone is the solo mode, five need the Void: the demo says which option to pass (not lobby advice)."""
    runner = CliRunner()
    for n, needed in ((1, "solo"), (5, "void")):
        result = runner.invoke(cli, ["demo", "tatsumi", "--players", str(n), "--no-images"])
        assert result.exit_code == 1, result.output
        assert needed in result.output and "--option" in result.output, result.output
        assert "/join" not in result.output and "/cancel" not in result.output, result.output
    bad = runner.invoke(cli, ["demo", "tatsumi", "--players", "2", "-o", "colour=red", "--no-images"])
    assert bad.exit_code == 1 and "no option 'colour'" in bad.output, bad.output


async def test_run_demo_refuses_an_unplayable_table_without_opening_a_lobby(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        with pytest.raises(SessionError, match="--option"):
            await run_demo(store, "tatsumi", 1, 1, None)
        assert await store.live_session("demo-tatsumi-1") is None
    finally:
        await store.close()
