"""Rebuild the bundled fonts of ``renderers/fonts/`` (a maintainer's tool; the bot never runs it).

Needs fontTools (``pip install fonttools``) and the source fonts:

- DejaVu Sans and Sans Bold 2.37 (Debian ``fonts-dejavu-core``), copied unchanged (Latin, Greek, Cyrillic,
  the symbols the boards draw);
- Noto Sans CJK JP Regular and Bold (Debian ``fonts-noto-cjk``, ``NotoSansCJK-*.ttc`` face 0), subset to kana,
  CJK punctuation, full-width forms, every Hangul syllable and compatibility jamo, and the ideographs of
  GB 2312 level 1, JIS X 0208 levels 1-2 and Big5 level 1 (common hanzi, kanji and hanja of names);
- Noto Emoji (monochrome; ``NotoEmoji[wght].ttf`` of the PyPI package ``manimgx-fonts``), instanced at
  weight 400 (bold text uses it too).

Usage: ``python tools/make_fonts.py [--dejavu DIR] [--cjk DIR] [--emoji FILE]``.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "renderers" / "fonts"


def _encodable(chars, codec: str, lead: tuple[int, int]) -> set[str]:
    out = set()
    for c in chars:
        try:
            b = c.encode(codec)
        except UnicodeEncodeError:
            continue
        if lead[0] <= b[0] <= lead[1]:
            out.add(c)
    return out


def cjk_codepoints() -> list[int]:
    """The code points kept in the CJK subset (see the module docstring)."""
    han = [chr(c) for c in range(0x4E00, 0xA000)]
    ideographs = (_encodable(han, "gb2312", (0xB0, 0xD7))  # GB 2312 level 1 (3755)
                  | _encodable(han, "euc_jp", (0xB0, 0xF4))  # JIS X 0208 levels 1-2
                  | _encodable(han, "big5", (0xA4, 0xC6)))  # Big5 level 1 (5401)
    ranges = [(0x3000, 0x3100), (0x31F0, 0x3200), (0x3130, 0x3190), (0xAC00, 0xD7A4), (0xFF00, 0xFFF0)]
    points = {c for a, b in ranges for c in range(a, b)} | {ord(c) for c in ideographs}
    return sorted(points)


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection, TTFont
    from fontTools.varLib import instancer

    ap = argparse.ArgumentParser()
    ap.add_argument("--dejavu", default="/usr/share/fonts/truetype/dejavu")
    ap.add_argument("--cjk", default="/usr/share/fonts/opentype/noto")
    ap.add_argument("--emoji", required=True, help="NotoEmoji[wght].ttf")
    args = ap.parse_args()

    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        shutil.copyfile(Path(args.dejavu) / name, HERE / name)

    opts = subset.Options()
    opts.layout_features = []  # no vertical or alternate forms: boards set names horizontally
    opts.hinting = False
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    points = cjk_codepoints()
    for weight in ("Regular", "Bold"):
        fnt = TTCollection(str(Path(args.cjk) / f"NotoSansCJK-{weight}.ttc")).fonts[0]
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=points)
        sub.subset(fnt)
        fnt.save(HERE / f"NotoSansCJKjp-{weight}-subset.otf")

    fnt = instancer.instantiateVariableFont(TTFont(args.emoji), {"wght": 400})
    fnt.save(HERE / "NotoEmoji-Regular.ttf")


if __name__ == "__main__":
    main()
