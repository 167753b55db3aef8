"""Every image the bot sends carries alt text (the attachment's ``description``, at most 1,024 characters), through
the real discord.py stack (``harness.py``):

- every board of whole games of all five games (live boards posted and edited, late images attached): the alt text
  names every option of every pending decision by the key its button shows (``games.marker_keys``: ``"3 · C3-n"``),
  or by its label when it has no place, and names no player by id;
- private ``/board`` copies, ``/board public:true``, "Full board";
- the result card, ``/stats`` and ``/leaderboard`` cards and the replay GIF: what they show, in words;
- ``/board words:true``: the whole board in words (``renderers.words.board_words``), only for the viewer, one
  message per chunk.

Boards are drawn by a recording stub: each PNG carries the index of the state it shows (a ``tEXt`` chunk), so each
attachment is checked against the decisions of the very state it shows.
"""

from __future__ import annotations

import io
import re
import threading

import pytest
from harness import CHANNEL_ID, Harness, Sent
from openskill.models import PlackettLuce
from PIL import Image, PngImagePlugin
from test_discord_games import NAMES, play_whole_game
from test_discord_results import resigned_game

import games
from bot import results
from bot.config import Settings
from games import format_text, marker_keys

ALT_LIMIT = 1024


class Recorder:
    """A render function for the harness: a 64 x 64 PNG whose ``tEXt`` ``state`` is the index of the state drawn
    (``states[i]``)."""

    def __init__(self) -> None:
        self.states: list = []
        self._lock = threading.Lock()

    def __call__(self, state, names=None, **_kw) -> bytes:
        with self._lock:
            self.states.append(state)
            index = len(self.states) - 1
        info = PngImagePlugin.PngInfo()
        info.add_text("state", str(index))
        buf = io.BytesIO()
        Image.new("P", (64, 64)).save(buf, format="PNG", pnginfo=info)
        return buf.getvalue()

    def state_of(self, png: bytes):
        return self.states[int(Image.open(io.BytesIO(png)).text["state"])]


def descriptions(sent: Sent) -> list[tuple[str, str | None]]:
    """``(filename, description)`` of each file ``sent`` uploads (the payload's ``attachments`` entries whose id is an
    upload index), in upload order."""
    uploads = {a["id"]: a for a in (sent.data or {}).get("attachments") or [] if isinstance(a.get("id"), int)}
    return [(name, uploads.get(i, {}).get("description")) for i, (name, _) in enumerate(sent.files)]


def uploads(h: Harness) -> list[tuple[Sent, bytes, str, str | None]]:
    """Every file the bot sent: ``(sent, data, filename, description)``."""
    out = []
    for sent in h.fake.sent:
        for (name, alt), (_, data) in zip(descriptions(sent), sent.files, strict=True):
            out.append((sent, data, name, alt))
    return out


def option_keys_missing(state, alt: str, names: dict[str, str]) -> list[str]:
    """The options of ``state``'s pending decisions whose key (marker key as a whole token, else the label) is not
    in ``alt``."""
    game = games.get(state.game)
    missing = []
    for d in game.pending(state):
        keys = marker_keys(d.options)
        for opt in d.options:
            if opt.id in keys:
                if not re.search(rf"(?<![\d.]){re.escape(keys[opt.id])}(?![\d])", alt):
                    missing.append(f"{opt.id} (key {keys[opt.id]})")
            elif format_text(opt.label, lambda p: names.get(p, p)) not in alt:
                missing.append(f"{opt.id} (label {opt.label})")
    return missing


GAMES = [("tsukimi", 2, None, 1), ("tataraba", 3, None, 5), ("tatsumi", 3, None, 2), ("tatari", 3, None, 3),
         ("tatamokatsu", 3, None, 1)]


@pytest.mark.parametrize(("game_id", "n", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_board_image_of_a_whole_game_names_every_option(database, game_id, n, options, seed):
    recorder = Recorder()
    async with Harness(database, render=recorder) as h:
        await play_whole_game(h, game_id, n, options, seed)
        await h.settle()
        players = [str(101 + i) for i in range(n)]
        names = dict(zip(players, NAMES, strict=False))
        boards = decisions = 0
        for sent, data, name, alt in uploads(h):
            assert alt, f"{name} ({sent.kind}) has no alt text"
            assert len(alt) <= ALT_LIMIT, (name, len(alt))
            assert not any(p in alt for p in players), alt
            if not name.startswith("board-"):
                continue
            state = recorder.state_of(data)
            missing = option_keys_missing(state, alt, names)
            assert not missing, (name, missing, alt)
            boards += 1
            decisions += any(d.options for d in games.get(game_id).pending(state))
        assert boards > 10 and decisions > 5, (boards, decisions)
        # the result message's card
        cards = [(name, alt) for _, _, name, alt in uploads(h) if name.startswith("result-")]
        assert len(cards) == 1, cards
        assert cards[0][1].startswith(f"Result card of {games.get(game_id).title}, game over: 1st "), cards[0][1]
        assert all(f" {who}" in cards[0][1] for who in NAMES[:n]), cards[0][1]


# -- results ----------------------------------------------------------------------------------------------------------
@pytest.fixture
async def h(database, tmp_path):
    settings = Settings(discord_token=None, reminder_hours=12, afk_hours=0, images_dir=tmp_path)
    async with Harness(database, settings=settings) as harness:
        yield harness


async def test_result_stats_leaderboard_and_replay_images_say_what_they_show(h):
    """The result card, the /stats and /leaderboard cards and the replay GIF each carry alt text that says what
    they show: players, ranking, scores, rating changes, the game replayed."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    reply = await resigned_game(h, alice, bob)
    sid = (await h.store.channel_records(str(CHANNEL_ID)))[0][0]
    record = await h.store.game_record(sid)
    score = {s.player_id: s.score for s in record.seats}[alice.sid]
    model = PlackettLuce()
    (a,), (b,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    ranking = (f"1st alice (won), score {score}, rating {a.mu:.1f}, up {a.mu - 25:.1f}; "
               f"2nd bob, resigned, rating {b.mu:.1f}, down {25 - b.mu:.1f}")
    ((name, alt),) = descriptions(reply.message(public=True, result=True))
    assert name == f"result-{sid}.png"
    assert alt == (f"Result card of Tatari, game over: {ranking}. {record.moves} moves, 0 s, 2 seats, rated. "
                   f"alice is the last player left. alice wins · shrines 7:1 8:1 9:1 10:0 · stashes alice {score}.")

    ((name, alt),) = descriptions((await h.slash(alice, "stats"))[-1])
    assert name == f"stats-{alice.id}.png"
    assert alt == (f"Stats card of alice: Tatari: 1 game, 1 win (100%), average place 1.00, rating {a.mu:.1f} ± "
                   f"{a.sigma:.1f}, best score {score}. Recent: Tatari 1st of 2, score {score} "
                   f"({results.date_text(record.ended_ms)}).")

    ((name, alt),) = descriptions((await h.slash(bob, "leaderboard", game="tatari"))[-1])
    assert name == "leaderboard-tatari.png"
    assert alt == ("Leaderboard card of Tatari, top 2 of this server, ordered by rating minus three times its "
                   f"uncertainty: 1st alice, rating {a.mu:.1f} ± {a.sigma:.1f}, 1 game, 1 win; 2nd bob, rating "
                   f"{b.mu:.1f} ± {b.sigma:.1f}, 1 game, 0 wins.")

    for replay in (await h.slash(bob, "replay"), await h.slash(alice, "replay", game=str(sid))):
        ((name, alt),) = descriptions(replay[-1])
        assert name == f"replay-{sid}.gif"
        assert alt == (f"Animated replay of game #{sid}, Tatari: its boards from the deal to the end, "
                       f"{record.moves} moves, {results.date_text(record.ended_ms)}. Players: alice, bob. "
                       f"Ranking: {ranking}.")
