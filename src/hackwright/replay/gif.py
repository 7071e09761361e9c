"""An animated GIF of a recording, drawn with NetHack's tiles, one caption line per frame."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from .frames import Frame, FrameLog
from .run import RunRecord
from .tiles import TILE, TileSet, tileset


class RenderError(ValueError):
    """The recording cannot be rendered this way (e.g. a ttyrec has no glyphs)."""


@dataclass
class GifReport:
    """What was written."""

    path: Path
    frames: int
    bytes: int
    size: tuple[int, int]  # width, height in pixels


def _font(px: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def caption(frame: Frame, run: Optional[RunRecord]) -> str:
    """The line under each GIF frame: status, then the step's skill."""
    parts = frame.status().split(" ")  # the default font's spaces are narrow: widen them
    d = run.decision_at(frame.step) if run is not None and frame.step else None
    if frame.step:
        parts.append(f"  step {frame.step}" + (f": {d.label()}" if d is not None else ""))
    if frame.message:
        parts.append(f"  {frame.message}")
    return "  ".join(parts)


def render_gif(frames: FrameLog, path: Union[str, Path], *, run: Optional[RunRecord] = None, scale: float = 1.0,
               fps: float = 10.0, captions: bool = True, tiles: Optional[TileSet] = None) -> GifReport:
    """Write ``frames`` (already thinned by the caller) as an animated GIF at ``path``."""
    from PIL import Image, ImageDraw

    if frames.glyphs is None:
        raise RenderError("this recording has no glyphs (a ttyrec): tiles need frames.bin")
    if not len(frames):
        raise RenderError("the recording has no frames")
    ts = tiles or tileset()
    rows, cols = frames.glyphs.shape[1:]
    width = max(1, round(cols * TILE * scale))
    height = max(1, round(rows * TILE * scale))
    bar = 14 if captions else 0
    font = _font(11) if captions else None
    white, black = ts.color((255, 255, 255)), ts.color((0, 0, 0))
    palette = ts.palette.reshape(-1).tolist()
    images = []
    for fr in frames:
        img = Image.fromarray(ts.render(fr.glyphs), mode="P")
        if (width, height) != img.size:
            img = img.resize((width, height), Image.NEAREST)  # tiles stay crisp and in the palette
        canvas = Image.new("P", (width, height + bar), black)
        canvas.paste(img, (0, 0))
        if captions:
            ImageDraw.Draw(canvas).text((3, height + 1), caption(fr, run), fill=white, font=font)
        canvas.putpalette(palette)
        images.append(canvas)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    duration = max(20, int(round(1000 / max(fps, 0.1))))
    images[0].save(out, save_all=True, append_images=images[1:], duration=duration, loop=0, optimize=False,
                   disposal=1)
    return GifReport(out, len(images), out.stat().st_size, (width, height + bar))


def gif_frame_count(path: Union[str, Path]) -> int:
    """How many frames a GIF file holds."""
    from PIL import Image

    with Image.open(path) as im:
        return int(getattr(im, "n_frames", 1))


def thin(frames: FrameLog, every: int) -> FrameLog:
    """Every n-th frame of an in-memory log, plus the last one."""
    every = max(1, int(every))
    if every == 1:
        return frames
    idx = list(range(0, len(frames), every))
    if idx and idx[-1] != len(frames) - 1:
        idx.append(len(frames) - 1)
    sel = np.asarray(idx, dtype=np.int64)
    return FrameLog(meta=frames.meta, indices=frames.indices[sel], steps=frames.steps[sel], keys=frames.keys[sel],
                    times=frames.times[sel], messages=[frames.messages[i] for i in idx],
                    tty_chars=frames.tty_chars[sel], tty_colors=frames.tty_colors[sel],
                    tty_cursor=frames.tty_cursor[sel],
                    glyphs=None if frames.glyphs is None else frames.glyphs[sel],
                    blstats=None if frames.blstats is None else frames.blstats[sel], source=frames.source,
                    total=frames.total, truncated=frames.truncated,
                    over=None if frames.over is None else frames.over[sel])
