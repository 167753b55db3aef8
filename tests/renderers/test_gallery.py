"""``python -m bot gallery --out DIR``: representative boards of a game at full size and
400 px wide, for every player count, with an index."""

from __future__ import annotations

from click.testing import CliRunner
from PIL import Image

from bot.__main__ import cli
from bot.local.gallery import NAMES, PHONE_WIDTH


def test_gallery_writes_every_player_count_at_full_size_and_400px(tmp_path):
    """Tatari, 2-5 players: start, decision, end and full boards, each as NAME.png and NAME@400.png (400 px
    wide, same aspect), and index.html linking them; the names used mix CJK and emoji."""
    result = CliRunner().invoke(cli, ["gallery", "--out", str(tmp_path), "--game", "tatari"])
    assert result.exit_code == 0, result.output
    for n in (2, 3, 4, 5):
        for label in ("start", "decision", "end", "full"):
            big = Image.open(tmp_path / f"tatari-{n}p-{label}.png")
            small = Image.open(tmp_path / f"tatari-{n}p-{label}@{PHONE_WIDTH}.png")
            assert small.width == PHONE_WIDTH
            assert abs(small.height - big.height * PHONE_WIDTH / big.width) <= 1
    assert not list(tmp_path.glob("tatari-1p-*")) and not list(tmp_path.glob("tatari-6p-*"))
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'src="tatari-3p-start@400.png"' in index and 'href="tatari-3p-start.png"' in index
    assert "tatari 2p: 8 images" in result.output
    assert any(ord(c) > 0x3000 for c in NAMES[0]) and any(ord(c) >= 0x1F000 for c in "".join(NAMES))


def test_gallery_refuses_an_unknown_game_and_writes_nothing(tmp_path):
    result = CliRunner().invoke(cli, ["gallery", "--out", str(tmp_path / "g"), "--game", "chess"])
    assert result.exit_code == 2
    assert "chess" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "g").exists()


def test_gallery_colour_vision_copies_show_the_board_as_simulated(tmp_path):
    """With visions, each phone copy also comes as that vision sees it: same size, each colour mapped by
    renderers.common.simulate (Tsukimi's strawberry and carrot merge under deuteranopia)."""
    from bot.local.gallery import write_gallery
    from renderers.common import simulate

    done = write_gallery(tmp_path, ["tsukimi"], visions=("deuteranopia", "greyscale"))
    assert [(e.game, e.players) for e in done] == [("tsukimi", 2)]
    phone = Image.open(tmp_path / "tsukimi-2p-start@400.png").convert("RGB")
    seen = Image.open(tmp_path / "tsukimi-2p-start@400-deuteranopia.png").convert("RGB")
    grey = Image.open(tmp_path / "tsukimi-2p-start@400-greyscale.png").convert("RGB")
    assert seen.size == grey.size == phone.size
    for xy in ((10, 10), (200, 150), (350, 300)):
        want = simulate(phone.getpixel(xy), "deuteranopia")
        assert all(abs(a - b) <= 3 for a, b in zip(seen.getpixel(xy), want, strict=True))
        r, g, b = grey.getpixel(xy)
        assert r == g == b
    assert "tsukimi-2p-end@400-greyscale.png" in (tmp_path / "index.html").read_text(encoding="utf-8")
    try:
        write_gallery(tmp_path / "x", ["tsukimi"], visions=("sepia",))
    except ValueError as exc:
        assert "sepia" in str(exc)
    else:
        raise AssertionError("an unknown vision must be refused")
    assert not (tmp_path / "x").exists()
