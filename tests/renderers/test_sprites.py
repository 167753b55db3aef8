"""Faster drawing keeps the boards' looks (faster rendering, every board looking as it did).

Sprites (``renderers.common.sprite`` / ``paste_sprite``) and texts laid on a plain background (``text_on``) must
draw exactly the pixels of the slower ways they replace; every cache a renderer keeps is bounded (LRU).
"""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest
from PIL import Image, ImageDraw

import renderers
from renderers import common
from renderers.common import (
    INK,
    PAPER,
    WHITE,
    marker,
    marker_sprite,
    paste_sprite,
    sprite,
    text,
    text_mask,
    text_on,
    text_tile,
)


def _noise(size: tuple[int, int], seed: int = 1) -> Image.Image:
    """A background of random colours, so that any pixel pasted wrongly shows."""
    rng = random.Random(seed)
    return Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(3 * size[0] * size[1])))


def _piece(alpha_fill: int) -> Image.Image:
    """An RGBA picture with a clear margin: a polygon with an outline and a word on it, its fill alpha as given."""
    img = Image.new("RGBA", (40, 36), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.polygon([(8, 4), (34, 10), (30, 30), (6, 26)], fill=(200, 40, 40, alpha_fill), outline=INK + (255,), width=2)
    d.text((12, 12), "R", font=common.font(12, True), fill=WHITE)
    return img


@pytest.mark.parametrize("alpha_fill, mask_mode", [(255, "1"), (235, "L")])
@pytest.mark.parametrize("xy", [(5, 7), (-9, -3), (50, 30), (61, 44)])
def test_a_sprite_pastes_exactly_what_the_rgba_picture_pastes(alpha_fill, mask_mode, xy):
    """Same pixels as ``img.paste(picture, xy, picture)``, clipped at every edge; a picture whose alpha is only 0
    or 255 gets a 1-bit mask, one with partly clear pixels an "L" mask; the sprite is cropped to the ink."""
    picture = _piece(alpha_fill)
    spr = sprite(picture)
    assert spr.mask is not None and spr.mask.mode == mask_mode
    assert spr.size == picture.size == (spr.width, spr.height)
    box = picture.getchannel("A").getbbox()
    assert (spr.left, spr.top) == box[:2] and spr.image.size == (box[2] - box[0], box[3] - box[1])
    slow, fast = _noise((80, 60)), _noise((80, 60))
    slow.paste(picture, xy, picture)
    paste_sprite(fast, spr, *xy)
    assert fast.tobytes() == slow.tobytes()


def test_an_opaque_picture_needs_no_mask_and_a_clear_one_draws_nothing():
    opaque = Image.new("RGBA", (10, 8), (1, 2, 3, 255))
    assert sprite(opaque).mask is None and sprite(opaque.convert("RGB")).mask is None
    slow, fast = _noise((20, 20)), _noise((20, 20))
    slow.paste(opaque, (3, 4), opaque)
    paste_sprite(fast, sprite(opaque), 3, 4)
    assert fast.tobytes() == slow.tobytes()
    clear = Image.new("RGBA", (10, 8), (0, 0, 0, 0))
    before = _noise((20, 20))
    after = before.copy()
    paste_sprite(after, sprite(clear), 3, 4)
    assert after.tobytes() == before.tobytes() and sprite(clear).size == (10, 8)


@pytest.mark.parametrize("key, r", [("1", 16), ("12", 22), ("B", 14)])
def test_the_marker_sprite_is_the_marker_drawn_in_place(key, r):
    """``marker_sprite`` pasted centred on an integer point draws the marker ``marker`` draws there."""
    slow, fast = Image.new("RGB", (120, 90), PAPER), Image.new("RGB", (120, 90), PAPER)
    marker(slow, 60, 45, key, r)
    spr = marker_sprite(key, r)
    paste_sprite(fast, spr, round(60 - spr.width / 2), round(45 - spr.height / 2))
    assert fast.tobytes() == slow.tobytes()


@pytest.mark.parametrize("words, size, bold, anchor", [
    ("Round 3: alice to play (moves)", 18, True, "lm"),
    ("2 Foot", 16, True, "mm"),
    ("さくら 小明🐉 Ζωή", 15, False, "la"),
    ("fortune", 11, False, "rm"),
])
def test_text_on_a_plain_background_draws_what_text_draws(words, size, bold, anchor):
    """``text_on`` (a cached tile of the text on its background, pasted without a mask) gives the pixels of
    ``text`` on a plain area, every script included; the tile is the size of the text's mask."""
    for bg, fill in ((PAPER, INK), (WHITE, INK), ((22, 30, 56), (236, 236, 244))):
        slow, fast = Image.new("RGB", (400, 60), bg), Image.new("RGB", (400, 60), bg)
        text(slow, (200.4, 30), words, size, fill=fill, bold=bold, anchor=anchor)
        text_on(fast, (200.4, 30), words, size, bg, fill=fill, bold=bold, anchor=anchor)
        assert fast.tobytes() == slow.tobytes()
        assert len(slow.getcolors(4096)) > 2  # the text drew (ink and anti-aliasing on the background)
        tile, left, top = text_tile(words, size, bold, anchor, fill, bg)
        mask, mleft, mtop = text_mask(words, size, bold, anchor)
        assert tile.size == mask.size and (left, top) == (mleft, mtop)


def _caches():
    """Every function cache in the renderers' modules: (module.name, cache_info())."""
    names = ["renderers", *(m.name for m in pkgutil.walk_packages(renderers.__path__, "renderers."))]
    for name in names:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if hasattr(value, "cache_info") and getattr(value, "__module__", None) == name:
                yield f"{name}.{attr}", value.cache_info()


def test_every_renderer_cache_is_bounded():
    """Caches of sprites, tiles, texts and backgrounds are LRU with a maximum size (memory stays bounded in a
    long-running bot), except the bundled fonts' code point sets (``covered``: three files)."""
    found = dict(_caches())
    assert "renderers.common._text_tile" in found and "renderers.tsukimi._board_tile_sprite" in found
    unbounded = [name for name, info in found.items() if info.maxsize is None]
    assert unbounded == ["renderers.common.covered"]
