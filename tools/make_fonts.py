"""Rebuild the bundled fonts of ``renderers/fonts/`` (a maintainer's tool; the bot never runs it).

Needs fontTools (the ``fonts`` extra: ``pip install -e .[fonts]``) and the source fonts:

- DejaVu Sans and Sans Bold 2.37 (Debian ``fonts-dejavu-core``), copied unchanged (Latin, Greek, Cyrillic,
  the symbols the boards draw);
- Noto Sans CJK JP Regular and Bold (Debian ``fonts-noto-cjk``, ``NotoSansCJK-*.ttc`` face 0), subset to kana,
  CJK punctuation, full-width forms, every Hangul syllable and compatibility jamo, and the ideographs of
  GB 2312 level 1, JIS X 0208 levels 1-2 and Big5 level 1 (common hanzi, kanji and hanja of names);
- the rarer ideographs of names, from the same Noto Sans CJK JP Regular (one weight; bold text uses it too):
  every ideograph of the face in the CJK Unified block and the compatibility ideographs (Chinese of GB 2312
  level 2 and GBK, Big5 level 2, Hong Kong's HKSCS, JIS X 0213 and variants such as 髙 and 﨑), every
  supplementary-plane ideograph the face has (𠮷 and HKSCS's), and the Extension A ideographs of JIS X 0213
  and HKSCS — none of the main subset's, so the two files share no glyph;
- Noto Sans Math Regular (Debian ``fonts-noto-core``), subset to the Mathematical Alphanumeric Symbols and
  Letterlike Symbols (the "fancy" letters of display names: 𝓐𝓵𝓲𝓬𝓮, 𝔄, 𝕬);
- Noto Emoji (monochrome; ``NotoEmoji[wght].ttf`` of the PyPI package ``manimgx-fonts``), instanced at
  weight 400 (bold text uses it too).

Thai and Devanagari come from the PyPI packages ``fontpkg-noto-sans-thai`` and ``fontpkg-noto-sans-devanagari``
(dependencies of the project, unchanged), not from here.

The fonts tool needs the ``fonts`` extra: ``pip install -e .[fonts]``.

Usage: ``python tools/make_fonts.py [--dejavu DIR] [--cjk DIR] [--math FILE] --emoji FILE``.
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


def cjk_extra_codepoints(face_cmap: set[int]) -> list[int]:
    """The ideographs of the extra CJK file (see the module docstring): those of ``face_cmap`` (the JP face's
    code points) in the CJK Unified and compatibility blocks and the supplementary planes, and the Extension A
    ones of JIS X 0213 and HKSCS, less the main subset's."""
    ext_a = {c for c in range(0x3400, 0x4DC0)
             if _encodable([chr(c)], "euc_jis_2004", (0x80, 0xFF)) or _encodable([chr(c)], "big5hkscs", (0x80, 0xFF))}
    wanted = {c for c in face_cmap if 0x4E00 <= c < 0xA000 or 0xF900 <= c < 0xFB00 or 0x20000 <= c < 0x32000}
    return sorted(((wanted | ext_a) & face_cmap) - set(cjk_codepoints()))


PARTS = ("dejavu", "cjk", "cjk-extra", "math", "emoji")
"""What the tool can rebuild (``--only``): the DejaVu copies, the main CJK subsets, the extra CJK file, the math
subset, the emoji font."""

MATH_RANGES = ((0x2100, 0x2150), (0x1D400, 0x1D800))
"""Letterlike Symbols and Mathematical Alphanumeric Symbols: what is kept of Noto Sans Math."""


NEEDS_FONTTOOLS = ("tools/make_fonts.py needs fontTools, which the 'fonts' extra installs: "
                   "pip install -e '.[fonts]'")


def main() -> None:
    ap = argparse.ArgumentParser(description="Rebuild the bundled fonts of renderers/fonts/ (needs the 'fonts' "
                                 "extra: pip install -e '.[fonts]', which installs fontTools).")
    ap.add_argument("--dejavu", default="/usr/share/fonts/truetype/dejavu")
    ap.add_argument("--cjk", default="/usr/share/fonts/opentype/noto")
    ap.add_argument("--math", default="/usr/share/fonts/truetype/noto/NotoSansMath-Regular.ttf")
    ap.add_argument("--emoji", help="NotoEmoji[wght].ttf (needed unless --only leaves the emoji out)")
    ap.add_argument("--only", action="append", choices=PARTS, help="rebuild only these files (repeatable)")
    args = ap.parse_args()
    parts = set(args.only or PARTS)
    if "emoji" in parts and not args.emoji:
        ap.error("--emoji FILE is needed to rebuild the emoji font")
    try:
        from fontTools import subset
        from fontTools.ttLib import TTCollection, TTFont
        from fontTools.varLib import instancer
    except ImportError:
        raise SystemExit(NEEDS_FONTTOOLS) from None

    if "dejavu" in parts:
        for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
            shutil.copyfile(Path(args.dejavu) / name, HERE / name)

    opts = subset.Options()
    opts.layout_features = []  # no vertical or alternate forms: boards set names horizontally
    opts.hinting = False
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True

    def save_subset(fnt, points, name: str) -> None:
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=points)
        sub.subset(fnt)
        fnt.save(HERE / name)

    if "cjk" in parts:
        for weight in ("Regular", "Bold"):
            fnt = TTCollection(str(Path(args.cjk) / f"NotoSansCJK-{weight}.ttc")).fonts[0]
            save_subset(fnt, cjk_codepoints(), f"NotoSansCJKjp-{weight}-subset.otf")
    if "cjk-extra" in parts:
        fnt = TTCollection(str(Path(args.cjk) / "NotoSansCJK-Regular.ttc")).fonts[0]
        save_subset(fnt, cjk_extra_codepoints(set(fnt.getBestCmap())), "NotoSansCJKjp-Regular-extra.otf")
    if "math" in parts:
        save_subset(TTFont(args.math), [c for a, b in MATH_RANGES for c in range(a, b)],
                    "NotoSansMath-Regular-subset.ttf")
    if "emoji" in parts:
        fnt = instancer.instantiateVariableFont(TTFont(args.emoji), {"wght": 400})
        fnt.save(HERE / "NotoEmoji-Regular.ttf")


if __name__ == "__main__":
    main()
