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
from test_discord_play import open_game
from test_discord_results import dolls_left, resigned_game

import games
import renderers.words
from bot import results
from bot.config import Settings
from games import format_text, marker_keys
from renderers.words import board_words

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
        shown = uploads(h)
        # the first board's alt text says where the whole board in words is; later ones do not repeat it
        assert shown[0][3].endswith(" The whole board in words: /board words:true."), shown[0][3]
        assert not any("/board words:true" in alt for _, _, _, alt in shown[1:])
        for i, (sent, data, name, alt) in enumerate(shown):
            assert alt, f"{name} ({sent.kind}) has no alt text"
            assert len(alt) <= ALT_LIMIT, (name, len(alt))
            assert not any(p in alt for p in players), alt
            if not name.startswith("board-"):
                continue
            state = recorder.state_of(data)
            missing = option_keys_missing(state, alt, names)
            hint = " The whole board in words: /board words:true." if i == 0 else ""
            assert alt == renderers.words.alt_text(state, names, ALT_LIMIT - len(hint)) + hint, (name, alt)
            assert not missing, (name, missing, alt)
            boards += 1
            decisions += any(d.options for d in games.get(game_id).pending(state))
        assert boards > 10 and decisions > 5, (boards, decisions)
        # the result message's card
        cards = [(name, alt) for _, _, name, alt in uploads(h) if name.startswith("result-")]
        assert len(cards) == 1, cards
        assert cards[0][1].startswith(f"Result card of {games.get(game_id).title!s}, game over: 1st "), cards[0][1]
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
    ranking = (f"1st alice (won), {dolls_left(score)!s}, rating {a.mu:.1f}, up {a.mu - 25:.1f}; "
               f"2nd bob, resigned, rating {b.mu:.1f}, down {25 - b.mu:.1f}")
    ((name, alt),) = descriptions(reply.message(public=True, result=True))
    assert name == f"result-{sid}.png"
    assert alt == (f"Result card of Tatari, game over: {ranking}. {record.moves} moves, 0 s, 2 seats, rated. "
                   f"alice is the last player left. alice wins; shrines 7:1 8:1 9:1 10:0; stashes alice {score}.")

    ((name, alt),) = descriptions((await h.slash(alice, "stats"))[-1])
    assert name == f"stats-{alice.id}.png"
    assert alt == (f"Stats card of alice: Tatari: 1 game, 1 win (100%), average place 1.00, rating {a.mu:.1f} ± "
                   f"{a.sigma:.1f}, best {dolls_left(score)!s}. Recent: Tatari 1st of 2, {dolls_left(score)!s} "
                   f"({results.date_text(record.ended_ms)!s}).")

    ((name, alt),) = descriptions((await h.slash(bob, "leaderboard", game="tatari"))[-1])
    assert name == "leaderboard-tatari.png"
    assert alt == ("Leaderboard card of Tatari, top 2 of this server, ordered by rating minus three times its "
                   f"uncertainty: 1st alice, rating {a.mu:.1f} ± {a.sigma:.1f}, 1 game, 1 win; 2nd bob, rating "
                   f"{b.mu:.1f} ± {b.sigma:.1f}, 1 game, 0 wins.")

    for replay in (await h.slash(bob, "replay"), await h.slash(alice, "replay", game=str(sid))):
        ((name, alt),) = descriptions(replay[-1])
        assert name == f"replay-{sid}.gif"
        assert alt == (f"Animated replay of game #{sid}, Tatari: its boards from the deal to the end, "
                       f"{record.moves} moves, {results.date_text(record.ended_ms)!s}. Players: alice, bob. "
                       f"Ranking: {ranking}.")


# -- the board in words ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["tsukimi", "tataraba", "tatsumi", "tatari", "tatamokatsu"])
async def test_board_words_is_the_whole_board_in_words_for_the_viewer_only(h, monkeypatch, game_id):
    """``/board words:true``: the whole board in words (``board_words`` with the display names), one ephemeral
    message per chunk, for a player and for an onlooker; nothing public, the live board and the game untouched."""
    monkeypatch.setattr(renderers.words, "CHUNK_LIMIT", 80)  # several chunks even for a small board
    alice, bob, mallory = h.user(101, "alice"), h.user(102, "bob"), h.user(199, "mallory")
    await open_game(h, [alice, bob], game=game_id)
    before = await h.bot.service.show(str(CHANNEL_ID))
    expected = board_words(before.state, {alice.sid: "alice", bob.sid: "bob"})
    assert len(expected) >= 2 and all(len(c) <= 80 for c in expected)
    for who in (alice, mallory):
        start = len(h.fake.sent)
        reply = await h.slash(who, "board", words=True)
        assert [s.content for s in reply] == expected
        assert all(s.ephemeral and not s.files and not s.components for s in reply)
        assert [s.kind for s in reply] == ["response"] + ["followup"] * (len(expected) - 1)
        assert all(s.kind in ("response", "followup") for s in h.fake.sent[start:])  # no edit of the live board
    after = await h.bot.service.show(str(CHANNEL_ID))
    assert after.session.version == before.session.version


async def test_board_words_after_the_game_and_in_a_lobby(h):
    """After the game: the final board in words; in a lobby: the lobby card, as a plain ``/board`` answers."""
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    await resigned_game(h, alice, bob)
    last = h.bot.service.view(await h.bot.service.reads.last_session(str(CHANNEL_ID)))
    reply = await h.slash(bob, "board", words=True)
    assert [s.content for s in reply] == board_words(last.state, {alice.sid: "alice", bob.sid: "bob"})
    assert reply[0].content.startswith("Tatari, turn ") and "alice won." in reply[0].content
    assert all(s.ephemeral for s in reply)
    await h.slash(alice, "play", game="tsukimi")
    reply = await h.slash(bob, "board", words=True)
    assert reply.message().content == (await h.slash(bob, "board")).message().content
    assert "**Tsukimi** lobby" in reply.text


# -- every other way a board image goes out ----------------------------------------------------------------------------
def alt_of(state, names: dict[str, str]) -> str:
    """The alt text a board of ``state`` must carry: ``renderers.words.alt_text`` with the display names."""
    return renderers.words.alt_text(state, names)


async def stale_press(h, user, board):
    """A press on ``board``'s first option component (a button, or a select's first option)."""
    cid = board.custom_ids()[0]
    if cid.startswith("pbc:m:"):
        return await h.select(user, board, cid, ["0"])
    return await h.click(user, board, cid)


async def test_private_public_and_full_board_copies_carry_the_alt_text(database):
    """``/board`` (ephemeral), ``/board public:true``, ``/board full:true``, the "Full board" button and a stale
    press's ephemeral board: each image's description is the current board's alt text."""
    recorder = Recorder()
    async with Harness(database, render=recorder) as h:
        alice, bob, mallory = h.user(101, "alice"), h.user(102, "bob"), h.user(199, "mallory")
        names = {alice.sid: "alice", bob.sid: "bob"}
        first = await open_game(h, [alice, bob], game="tsukimi")
        update = await h.bot.service.show(str(CHANNEL_ID))
        user = alice if update.pending[0].player == alice.sid else bob
        await h.choose(user, update.pending[0].options[0].id, allow_move=False)
        update = await h.bot.service.show(str(CHANNEL_ID))
        want = alt_of(update.state, names)
        assert "Options (all: no tile next to it): 1 · A1; 2 · A2; " in want
        board = h.board()
        replies = [await h.slash(mallory, "board"), await h.slash(alice, "board", public=True),
                   await h.slash(bob, "board", full=True), await h.click(bob, board, f"pbc:f:{update.session.id}"),
                   await stale_press(h, user, first)]  # stale: the current board
        for reply in replies:
            shown = [(name, alt) for s in reply for name, alt in descriptions(s)]
            assert shown == [(f"board-{update.session.id}-{update.session.version}.png", want)], shown


async def test_a_late_image_is_attached_with_its_alt_text(database):
    """A render slower than the wait: the image comes by an edit of the same message, with the board's alt text."""
    import time

    recorder = Recorder()

    def slow(state, names):
        time.sleep(0.3)
        return recorder(state, names)

    async with Harness(database, render=slow, image_wait_s=0.01) as h:
        alice, bob = h.user(101, "alice"), h.user(102, "bob")
        await open_game(h, [alice, bob], game="tataraba")
        update = await h.bot.service.show(str(CHANNEL_ID))
        user = alice if update.pending[0].player == alice.sid else bob
        reply = await h.choose(user, update.pending[0].options[0].id, allow_move=False)
        assert not reply.message(public=True).files  # the board went out without its image
        late = [s for s in reply if s.kind in ("edit", "edit_original") and s.files]
        assert len(late) == 1
        ((name, alt),) = descriptions(late[0])
        state = recorder.state_of(late[0].files[0][1])
        assert alt == alt_of(state, {alice.sid: "alice", bob.sid: "bob"}) and "Options (all: empty): 1 · " in alt
