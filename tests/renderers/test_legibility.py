"""Text readable on a phone: sizes from the image width so every marker key and every number
a choice depends on is at least 9 px tall when the image is shown 400 px wide."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from renderers import common
from renderers.common import marker, marker_radius, min_text_px, phone_px


@pytest.mark.parametrize(("width", "size"), [(400, 9), (800, 18), (1000, 23), (1240, 28), (401, 10), (200, 5)])
def test_min_text_px_is_the_smallest_size_still_9px_at_400px(width, size):
    """min_text_px(width) = ceil(9 * width / 400): that size is ≥ 9 px at 400 px wide, one less is not."""
    assert min_text_px(width) == size
    assert phone_px(size, width) >= 9
    assert phone_px(size - 1, width) < 9


def test_min_text_px_other_targets_and_bad_input():
    assert min_text_px(1200, at=600, px=12) == 24
    with pytest.raises(ValueError, match="positive"):
        min_text_px(0)


@pytest.mark.parametrize("width", [400, 700, 1000, 1240, 1600])
def test_marker_radius_makes_one_and_two_character_keys_readable(width):
    """A marker drawn with marker_radius(width) has a key (1.3 r px for "7", 1.05 r px for "12") ≥ 9 px at 400 px,
    and its drawn disc is 2 r + 1 px across."""
    r = marker_radius(width)
    assert phone_px(round(1.05 * r), width) >= 9
    assert phone_px(round(1.3 * r), width) >= 9
    assert r >= 14
    img = Image.new("RGB", (4 * r, 4 * r), common.PAPER)
    marker(img, 2 * r, 2 * r, "12", r)
    left, top, right, bottom = ImageChops.difference(img, Image.new("RGB", img.size, common.PAPER)).getbbox()
    assert right - left in (2 * r + 1, 2 * r + 2)
