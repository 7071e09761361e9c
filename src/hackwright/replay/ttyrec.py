"""Reading NLE's ttyrec files into terminal frames with NLE's own converter.

NLE records each game as ``nle.<pid>.<n>.ttyrec3.bz2`` (version 3: the
terminal output plus the key sent after each frame). ``nle._pyconverter``
replays the escape sequences onto a 24×80 screen and hands back, per frame,
the characters, colours, cursor, timestamp (microseconds) and key, which is all
the terminal replay needs when an episode has no ``frames.bin``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Union

import numpy as np

from .frames import KEY_RESET, TTY_SHAPE, FrameLog

_CHUNK = 4096


def ttyrec_version(path: Union[str, Path]) -> int:
    """The ttyrec format version NLE wrote, read from the file name (``.ttyrec3.bz2`` → 3)."""
    m = re.search(r"\.ttyrec(\d?)(?:\.bz2)?$", Path(path).name)
    if not m:
        return 1
    return int(m.group(1) or 1)


def load_ttyrec(path: Union[str, Path]) -> FrameLog:
    """All frames of a ttyrec as a :class:`FrameLog` (terminal only: no glyphs, no statistics)."""
    from nle import _pyconverter

    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no ttyrec at {p}")
    rows, cols = TTY_SHAPE
    conv = _pyconverter.Converter(rows, cols, ttyrec_version(p))
    conv.load_ttyrec(str(p))
    parts: list[tuple[np.ndarray, ...]] = []
    while True:
        chars = np.zeros((_CHUNK, rows, cols), dtype=np.uint8)
        colors = np.zeros((_CHUNK, rows, cols), dtype=np.int8)
        cursor = np.zeros((_CHUNK, 2), dtype=np.int16)
        stamps = np.zeros(_CHUNK, dtype=np.int64)
        actions = np.zeros(_CHUNK, dtype=np.uint8)
        scores = np.zeros(_CHUNK, dtype=np.int32)
        remaining = conv.convert(chars, colors, cursor, stamps, actions, scores)
        n = _CHUNK - remaining
        parts.append((chars[:n], colors[:n], cursor[:n], stamps[:n], actions[:n]))
        if remaining > 0:  # the converter stops short of a full chunk only at the end of the file
            break
    chars, colors, cursor, stamps, actions = (np.concatenate(x) for x in zip(*parts))
    n = len(chars)
    times = (stamps - stamps[0]) / 1e6 if n else np.zeros(0)
    # The converter gives the key sent *after* each frame; frames.bin keeps the key that *led to* it.
    keys = np.concatenate([[KEY_RESET], actions[:-1].astype(np.int64)]) if n else np.zeros(0, dtype=np.int64)
    return FrameLog(meta={"ttyrec": str(p)}, indices=np.arange(n, dtype=np.int64),
                    steps=np.zeros(n, dtype=np.int64), keys=keys.astype(np.int64), times=times.astype(np.float64),
                    messages=[""] * n, tty_chars=chars, tty_colors=colors, tty_cursor=cursor, source="ttyrec",
                    total=n)
