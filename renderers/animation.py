"""Animated GIFs of a game's boards: the game replays (``Replay`` button, ``/replay``) and the offline demo's
``game.gif`` share this code.

Pure: Pillow only. Frames are PNG bytes (what :func:`renderers.render` returns).
"""

from __future__ import annotations

import io

from PIL import Image

MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts: a replay stays under it (bytes)."""
MAX_MS = 30_000
"""The longest replay, ms (the last frame's hold included)."""
FRAME_MS = 500
"""How long a replay shows each board, ms."""
HOLD_MS = 3_000
"""How long the last board stays, ms."""


def sample(count: int, keep: int) -> list[int]:
    """``keep`` indices spread evenly over ``range(count)``, the first and the last always among them (all of them
    when ``count <= keep``). ``ValueError`` when ``keep < 2`` and ``count > keep``."""
    if count <= keep:
        return list(range(count))
    if keep < 2:
        raise ValueError(f"keep at least 2 frames of {count}, not {keep}")
    step = (count - 1) / (keep - 1)
    return sorted({round(i * step) for i in range(keep)})


def frames_for(count: int, frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS, max_ms: int = MAX_MS) -> list[int]:
    """Which of ``count`` boards a replay shows so that it lasts at most ``max_ms``: every board at ``frame_ms``
    each and the last held ``hold_ms``, sampled evenly when there are more."""
    keep = max(2, (max_ms - hold_ms) // frame_ms + 1)
    return sample(count, keep)


def animate(frames: list[bytes], frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS, scale: float = 0.5,
            colours: int = 128, max_frames: int | None = None) -> bytes:
    """GIF bytes of PNG ``frames`` (``max_frames``: sampled down to that many first), each scaled by ``scale``,
    quantised to ``colours``, shown ``frame_ms`` ms, the last ``hold_ms`` ms, looping. ``ValueError`` without
    frames."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if max_frames is not None:
        frames = [frames[i] for i in sample(len(frames), max_frames)]
    images = []
    for png in frames:
        im = Image.open(io.BytesIO(png)).convert("RGB")
        if scale != 1:
            im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))),
                           Image.Resampling.LANCZOS)
        images.append(im.quantize(colors=colours, method=Image.Quantize.MEDIANCUT))
    size = images[0].size
    images = [im if im.size == size else im.resize(size) for im in images]  # boards of one game may differ
    durations = [frame_ms] * (len(images) - 1) + [hold_ms]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False)
    return buf.getvalue()


def animate_within(frames: list[bytes], max_bytes: int = MAX_BYTES, frame_ms: int = FRAME_MS,
                   hold_ms: int = HOLD_MS) -> bytes:
    """:func:`animate` under ``max_bytes``: half size first, then fewer frames (and longer each, the same length
    of time) and smaller, until it fits. ``ValueError`` if even two small frames do not fit."""
    scale, keep, ms = 0.5, len(frames), frame_ms
    while True:
        chosen = [frames[i] for i in sample(len(frames), keep)]
        gif = animate(chosen, ms, hold_ms, scale)
        if len(gif) <= max_bytes:
            return gif
        if keep > 2:
            ms = ms * keep // max(2, keep * 2 // 3)
            keep = max(2, keep * 2 // 3)
        elif scale > 0.2:
            scale *= 0.7
        else:
            raise ValueError(f"an animation of {len(frames)} boards does not fit in {max_bytes} bytes")


__all__ = ["FRAME_MS", "HOLD_MS", "MAX_BYTES", "MAX_MS", "animate", "animate_within", "frames_for", "sample"]
