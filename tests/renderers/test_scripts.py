"""Every script on every board: display names in Latin, Greek, Cyrillic, Arabic, Hebrew, Hangul, Chinese
(simplified, traditional, Hong Kong), Japanese (JIS X 0213, variants, variation selectors), Thai, Devanagari,
mathematical alphanumerics and with emoji (ZWJ sequences, flags) draw as their characters, with per-glyph fallback between the bundled fonts; Latin text draws and
measures exactly as with DejaVu Sans alone; display names are cut between graphemes."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw, ImageFont

import games
import renderers
from games.ai import next_move
from renderers import common
from renderers.common import (
    FALLBACK_FONTS,
    FONTS_DIR,
    MISSING,
    PACKAGED_FONTS,
    PRIMARY_FONTS,
    STAND_IN,
    ScriptFont,
    covered,
    display_name,
    font,
    font_path,
    load_face,
    missing_glyphs,
)

NAMES = ["さくら", "小明", "민준", "Ёжик", "Αλέξης", "🐉 Ryu", "髙橋", "山﨑", "𠮷田", "草彅", "喆", "冇", "สมชาย",
         "देवनागरी", "𝓐𝓵𝓲𝓬𝓮", "محمد", "שלום"]
ALL_FONTS = sorted({*PRIMARY_FONTS.values(), *FALLBACK_FONTS[False], *FALLBACK_FONTS[True]})

SCRIPTS = {
    "Latin": ["Zoë", "Nguyễn Thị Ánh"],
    "Greek": ["Αλέξης"],
    "Cyrillic": ["Ёжик"],
    "Arabic": ["محمد"],
    "Hebrew": ["שלום"],
    "Hangul": ["민준"],
    "Chinese (simplified)": ["小明", "张伟", "喆"],
    "Chinese (traditional)": ["張偉"],
    "Chinese (Hong Kong)": ["陳大文", "冇", "嘅"],
    "Japanese": ["さくら", "髙橋", "山﨑", "𠮷田", "草彅", "葛\U000e0100城", "辻\U000e0101", "神\ufe00"],
    "Thai": ["สมชาย"],
    "Devanagari": ["देवनागरी", "क्षत्रिय"],
    "mathematical alphanumerics": ["𝓐𝓵𝓲𝓬𝓮", "𝔄𝔩𝔦𝔠𝔢", "𝕬𝖑𝖎𝖈𝖊", "𝐀𝐥𝐢𝐜𝐞", "𝙰𝚕𝚒𝚌𝚎"],
    "emoji": ["🐉 Ryu", "👨\u200d👩\u200d👧", "🏳️\u200d🌈", "🇯🇵🇭🇰", "👍🏽", "1️⃣"],
}
"""Display names in every script a board must draw, with the characters that once drew as boxes."""


def _pixels(fnt, s: str) -> bytes:
    """``s`` drawn in ``fnt`` on a black patch just large enough, as bytes (shape and size)."""
    left, top, right, bottom = fnt.getbbox(s)
    img = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(img).text((-left, -top), s, font=fnt, fill=255)
    return bytes(img.size) + img.tobytes()


def _notdef_masks(size: int, bold: bool) -> set[bytes]:
    """The .notdef box of every bundled face at ``size`` px (U+10FFFD is in none of them)."""
    return {_pixels(load_face(name, size, bold), "\U0010fffd") for name in (PRIMARY_FONTS[bold], *FALLBACK_FONTS[bold])}


def test_bundled_fonts_exist_and_are_package_data():
    """The fonts come with the package, not the system (no system font is assumed)."""
    for name in ALL_FONTS:
        path = font_path(name)
        assert path.startswith(str(FONTS_DIR)) != (name in PACKAGED_FONTS), name
        assert len(open(path, "rb").read()) > 100_000, name
    assert (FONTS_DIR / "LICENSE-OFL-Noto.txt").exists() and (FONTS_DIR / "LICENSE-DejaVu.txt").exists()
    assert str(font(12).path).startswith(str(FONTS_DIR))


def test_cmap_reader_knows_what_each_font_has():
    """covered() reads each font's cmap: DejaVu has Latin, Greek, Cyrillic and not kana; the CJK subset has kana,
    Hangul, common kanji and hanzi; Noto Emoji has the dragon."""
    dejavu = covered("DejaVuSans.ttf")
    assert {ord(c) for c in "AzЁжΑλέ★×"} <= dejavu
    assert {_pixels(font(24), "さ")} != _notdef_masks(24, False)
    assert not {ord(c) for c in "さ小민🐉"} & dejavu
    for cjk in ("NotoSansCJKjp-Regular-subset.otf", "NotoSansCJKjp-Bold-subset.otf"):
        assert {ord(c) for c in "さくらサクラ小明민준東京龍竜寿司"} <= covered(cjk)
        assert ord("A") not in covered(cjk) or True  # CJK fonts may carry Latin; DejaVu is tried first anyway
    assert ord("🐉") in covered("NotoEmoji-Regular.ttf")
    assert 0x10FFFD not in set().union(*(covered(n) for n in ALL_FONTS))


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_names_draw_without_notdef_boxes(name, bold):
    """Each grapheme of the sample names is in a bundled font and draws as something other than a .notdef box;
    the whole name drawn by text() differs from the same name drawn with DejaVu alone (which boxes CJK/emoji)."""
    size = 24
    boxes = _notdef_masks(size, bold)
    fnt = font(size, bold)
    for g in common.graphemes(name):
        if g.isspace():
            continue
        assert any(ord(g[0]) in covered(n) for n in (PRIMARY_FONTS[bold], *FALLBACK_FONTS[bold])), g
        assert _pixels(fnt, g) not in boxes, f"{g!r} draws as a .notdef box"
    img = Image.new("L", (400, 60), 0)
    common.text(img, (10, 10), name, size, fill=255, bold=bold)
    plain = Image.new("L", (400, 60), 0)
    ImageDraw.Draw(plain).text((10, 10), name, font=ImageFont.truetype(str(FONTS_DIR / PRIMARY_FONTS[bold]), size),
                               fill=255)
    assert img.getbbox() is not None
    if name in ("Ёжик", "Αλέξης", "محمد", "שלום"):  # DejaVu's own scripts: identical
        assert img.tobytes() == plain.tobytes()
    else:
        assert img.tobytes() != plain.tobytes()


@pytest.mark.parametrize("anchor", ["la", "lt", "ls", "lm", "lb", "ld", "mm", "ma", "ms", "rs", "rm", "rb"])
def test_latin_draws_and_measures_as_dejavu(anchor):
    """Latin text through font() is DejaVu Sans exactly: same bbox, length and pixels for every anchor (layouts
    do not move)."""
    plain = ImageFont.truetype(str(FONTS_DIR / "DejaVuSans-Bold.ttf"), 19)
    ours = font(19, bold=True)
    for s in ("Turn 12: alice", "Score 7 (+3) ×2 ★"):
        assert ours.getbbox(s, anchor=anchor) == plain.getbbox(s, anchor=anchor)
        assert ours.getlength(s) == plain.getlength(s)
        a, b = Image.new("L", (300, 60)), Image.new("L", (300, 60))
        ImageDraw.Draw(a).text((150, 30), s, font=ours, fill=255, anchor=anchor)
        ImageDraw.Draw(b).text((150, 30), s, font=plain, fill=255, anchor=anchor)
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("anchor", ["la", "mm", "rs", "lm", "ms", "rb", "lt"])
def test_mixed_script_text_lands_where_its_anchor_says(anchor):
    """A name mixing DejaVu and fallback runs: textbbox matches the drawn pixels, and the anchor places it
    (centred text is centred, "l" starts at x, "r" ends at x, within side bearings)."""
    img = Image.new("L", (400, 100), 0)
    d = ImageDraw.Draw(img)
    s = "🐉 Ryu さくら 민준"
    d.text((200, 50), s, font=font(22), fill=255, anchor=anchor)
    box = d.textbbox((200, 50), s, font=font(22), anchor=anchor)
    ink = img.getbbox()
    assert ink is not None
    assert box[0] <= ink[0] and box[1] <= ink[1] and ink[2] <= box[2] and ink[3] <= box[3]
    assert abs((box[2] - box[0]) - (ink[2] - ink[0])) <= 6  # side bearings, as Pillow's own bbox
    length = d.textlength(s, font=font(22))
    if anchor[0] == "m":
        assert abs((ink[0] + ink[2]) / 2 - 200) <= 4
    elif anchor[0] == "l":
        assert 200 <= ink[0] <= 206
    else:
        assert 200 - length - 1 <= ink[0] and ink[2] <= 201
    if anchor == "mm":
        assert abs((ink[1] + ink[3]) / 2 - 50) <= 4


def test_script_runs_split_by_font_and_keep_emoji_sequences_whole():
    """Runs go to the first font with the glyph; ZWJ sequences and VS16 stay with their emoji."""
    assert common.script_runs("Zoë 李") == ((0, "Zoë "), (1, "李"))
    emoji = len(FALLBACK_FONTS[False])
    assert common.script_runs("👨\u200d👩\u200d👧 fam") == ((emoji, "👨\u200d👩\u200d👧"), (0, " fam"))
    assert common.script_runs("⚡\ufe0fZap") == ((emoji, "⚡\ufe0f"), (0, "Zap"))
    assert common.script_runs("⚡ Zap") == ((0, "⚡ Zap"),)  # a board's bolt symbol stays DejaVu's
    assert common.script_runs("") == ()


def test_display_name_cuts_between_graphemes_and_counts_wide_characters_twice():
    """display_name never cuts an emoji (or a ZWJ family, a flag, a combining accent) in half; CJK and emoji
    count two columns so a wide name takes about the room of a Latin one."""
    family = "👨\u200d👩\u200d👧"
    assert display_name("p", {"p": "abcdefghijklmnop"}) == "abcdefghijklmnop"
    assert display_name("p", {"p": "abcdefghijklmnopq"}) == "abcdefghijklmno…"
    assert display_name("p", {"p": family * 9}) == family * 7 + "…"
    assert display_name("p", {"p": "🇯🇵" * 9}, 6) == "🇯🇵🇯🇵…"
    assert display_name("p", {"p": "さくらさくらさくら"}) == "さくらさくらさ…"
    assert display_name("p", {"p": "e\u0301" * 20}, 4) == "e\u0301" * 3 + "…"
    assert display_name("p", None) == "p"


def test_a_cjk_name_draws_fast_enough_from_the_mask_cache():
    """text() caches masks of mixed-script names as of Latin ones (the same entry comes back)."""
    common._text_mask.cache_clear()
    a = common.text_mask("さくら 🐉", 20, False, "la")
    assert common.text_mask("さくら 🐉", 20, False, "la") is a
    assert isinstance(font(20), ScriptFont)


def _drawn_texts(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = ScriptFont.getmask2

    def spy(self, text, *args, **kwargs):
        seen.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ScriptFont, "getmask2", spy)
    common._text_mask.cache_clear()
    return seen


@pytest.mark.parametrize("game_id", [g.id for g in games.all()])
def test_every_board_draws_cjk_and_emoji_names_as_their_characters(game_id, monkeypatch):
    """Through each game's render (decision view and full board, start and a later position): the names are
    drawn, and no text on the board has a character that no bundled font has (no .notdef boxes anywhere)."""
    game = games.get(game_id)
    n = min(max(game.min_players, 2), game.max_players)
    players = [f"p{i}" for i in range(n)]
    names = dict(zip(players, [f"{game_id[:2]}さくら", f"{game_id[:2]}小明🐉"], strict=False))
    seen = _drawn_texts(monkeypatch)
    state = game.setup(players, None, 3)
    rng = random.Random(3)
    states = [state]
    for _ in range(12):
        move = next_move(game, state, {}, rng)
        if move is None:
            break
        state = game.apply(state, move).state
    states.append(state)
    for s in states:
        for full in (False, True):
            assert renderers.render(s, names, full=full)[:8] == b"\x89PNG\r\n\x1a\n"
    everything = "".join(seen)
    for name in names.values():
        assert common.graphemes(name)[2] in everything, f"{name!r} not drawn on the {game_id} board"
    fonts = (*PRIMARY_FONTS.values(), *FALLBACK_FONTS[False], *FALLBACK_FONTS[True])
    missing = {ch for ch in everything if not ch.isspace() and not any(ord(ch) in covered(f) for f in fonts)
               and ord(ch) not in common._JOINERS}
    assert not missing, f"{game_id} draws characters no bundled font has: {sorted(missing)}"


def test_every_bundled_font_and_licence_is_package_data():
    """pyproject's package-data globs take every font and licence file of renderers/fonts/ into the wheel, so
    ``pip install .`` brings the fonts (no system font is assumed)."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["renderers"]
    shipped = [p for p in (root / "renderers" / "fonts").iterdir() if p.is_file()]
    bundled = {name for name in ALL_FONTS if name not in PACKAGED_FONTS}
    assert {p.name for p in shipped} >= {*bundled, "LICENSE-DejaVu.txt", "LICENSE-OFL-Noto.txt"}
    for p in shipped:
        assert any(fnmatch.fnmatch(f"fonts/{p.name}", g) for g in globs), p.name


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_no_name_in_any_script_misses_a_glyph(script, bold):
    """missing_glyphs is 0 for names in every script: each grapheme is in a font of the chain."""
    for name in SCRIPTS[script]:
        assert missing_glyphs(name, bold) == 0, name
        assert all(k != MISSING for k, _ in common.script_runs(name, bold)), name


def test_missing_glyphs_counts_graphemes_no_font_has():
    """Private-use and unassigned code points are in no font: one count per grapheme, with its joiners."""
    assert missing_glyphs("\U0010fffd") == 1
    assert missing_glyphs("a\U0010fffd\u0301b\U000f0000") == 2
    assert missing_glyphs("\u0378") == 1  # unassigned
    assert missing_glyphs("a\u200eb\u2067c") == 0  # direction marks draw as nothing
    assert missing_glyphs("") == 0
    assert common.script_runs("x\U0010fffdy") == ((0, "x"), (MISSING, "\U0010fffd"), (0, "y"))


def test_runs_of_the_new_scripts_go_to_their_fonts():
    """Thai, Devanagari, maths letters and rare ideographs each go to their own font; marks and ideographic
    variation selectors stay with their base."""
    names = (PRIMARY_FONTS[False], *FALLBACK_FONTS[False])
    at = {name: names.index(name) for name in names}
    assert common.script_runs("สมชาย") == ((at["NotoSansThai[wdth,wght].ttf"], "สมชาย"),)
    assert common.script_runs("क्ष") == ((at["NotoSansDevanagari[wdth,wght].ttf"], "क्ष"),)
    assert common.script_runs("𝓐l") == ((at["NotoSansMath-Regular-subset.ttf"], "𝓐"), (0, "l"))
    assert common.script_runs("髙橋") == ((at["NotoSansCJKjp-Regular-extra.otf"], "髙"),
                                         (at["NotoSansCJKjp-Regular-subset.otf"], "橋"))
    assert common.script_runs("葛\U000e0100") == ((at["NotoSansCJKjp-Regular-subset.otf"], "葛\U000e0100"),)


@pytest.mark.parametrize("bold", [False, True])
def test_a_character_no_font_has_draws_a_visible_stand_in(bold):
    """A grapheme no font has draws as STAND_IN (ink, not any font's .notdef box, not blank); the fallback
    characters draw ink that is no .notdef box either."""
    size = 24
    boxes = _notdef_masks(size, bold)
    fnt = font(size, bold)
    stand_in = _pixels(fnt, "\U0010fffd")
    assert stand_in == _pixels(ImageFont.truetype(str(FONTS_DIR / PRIMARY_FONTS[bold]), size), STAND_IN)
    assert stand_in not in boxes
    for ch in ("髙", "﨑", "𠮷", "彅", "喆", "冇", "ก", "क", "𝓐", "🇯🇵"):
        drawn = _pixels(fnt, ch)
        assert drawn not in boxes, ch
        assert any(drawn[2:]), ch


def test_a_variation_selector_after_an_ideograph_draws_no_box():
    """葛 + VS17 (an IVS) and 神 + VS1 draw as the ideograph alone: same width, no extra ink beside it."""
    fnt = font(24)
    for base, vs in (("葛", "\U000e0100"), ("神", "\ufe00"), ("辻", "\U000e0101")):
        assert fnt.getlength(base + vs) == fnt.getlength(base)
        assert fnt.getbbox(base + vs)[2] <= fnt.getbbox(base)[2] + 1


def test_glyphs_command_prints_the_missing_count_per_text():
    """`python -m bot glyphs TEXT…` prints exactly `text=<TEXT> missing=<n>` per argument, in order."""
    from click.testing import CliRunner

    from bot.__main__ import cli

    result = CliRunner().invoke(cli, ["glyphs", "髙橋", "สมชาย", "𝓐𝓵𝓲𝓬𝓮", "a\U0010fffdb\U000f0000"])
    assert result.exit_code == 0, result.output
    assert result.output == ("text=髙橋 missing=0\ntext=สมชาย missing=0\ntext=𝓐𝓵𝓲𝓬𝓮 missing=0\n"
                             "text=a\U0010fffdb\U000f0000 missing=2\n")


@pytest.mark.parametrize("size", [12, 18, 28])
def test_a_bold_name_with_rare_kanji_draws_them_bold(size):
    """髙 and 﨑 (names: 髙橋, 山﨑) are only in the one-weight extra CJK font: in bold text they are emboldened
    (common.EMBOLDEN) to the ink of the bold face's 高 and 崎, clearly more than their regular weight."""
    def ink(text: str, bold: bool) -> float:
        img = Image.new("L", (4 * size, 2 * size), 0)
        ImageDraw.Draw(img).text((size // 2, size // 4), text, font=common.font(size, bold), fill=255)
        return sum(img.get_flattened_data()) / 255

    for rare, common_form in (("髙", "高"), ("﨑", "崎")):
        assert 0.9 <= ink(rare, True) / ink(common_form, True) <= 1.15
        assert ink(rare, True) >= 1.3 * ink(rare, False)
