"""Recording every screen of a game into a compact frame file, and reading it back.

A :class:`FrameRecorder` hooks into :attr:`hackwright.env.make.Game.on_frame`,
so it sees the observation after ``reset`` and after every keystroke, whoever
sends it (built-in skills, sandboxed skills, the API's own look-ups). Per frame
it keeps

* the glyph map (21×79) — what the tile renderers draw,
* the bottom-line statistics (``blstats``: turn, depth, HP, score …),
* the terminal (24×80 characters and colours, and the cursor) — what the
  terminal replay shows, menus and ``--More--`` prompts included,
* the message line, the key that led to the frame, the time since recording
  began and the agent's step number (``recorder.step``), which links frames
  to the ``decisions`` and ``events`` tables of the run database,
* whether NetHack's game was over on that screen (from "You die..." on).

When the game ends, one more frame follows NLE's final observation (which
shows only NetHack's score list): the end of the game as NetHack showed it —
the tombstone and the "Goodbye NAME the ROLE..." lines
(:attr:`hackwright.env.make.Game.end_screen`), with the key ``KEY_END``. So the
last frame of a recording that ends in death is the tombstone.

File format (``frames.bin``, version 1): a stream of msgpack objects.
The first is a header map::

    {"format": "hackwright-frames", "version": 1, "started": <unix time>,
     "meta": {...}, "keyframe_every": 256,
     "layout": [[name, numpy dtype, shape], ...]}

Every following object is one frame::

    {"s": step, "k": key (-1: reset, -2: snapshot, -3: the end of the game),
     "t": milliseconds since start, "m": message (only when not empty),
     "o": 1 (only when the game is over), "f": 1 (only on key frames),
     "x": zlib(frame bytes XOR previous frame bytes)}

"frame bytes" are the layout's arrays, concatenated little-endian. On key frames
(the first and every ``keyframe_every``-th) ``x`` holds the bytes themselves
instead of the XOR. Consecutive screens differ in a few cells, so the XOR is
almost all zeros and compresses to a few dozen bytes. Frames are appended as
they come and flushed at every step change, so a crashed episode leaves a file
that is readable up to its last complete frame.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional, Union

import msgpack
import numpy as np
from nle import nethack

if TYPE_CHECKING:
    from ..env.make import Screen

log = logging.getLogger("hackwright.replay")

FORMAT = "hackwright-frames"
VERSION = 1
KEY_RESET = -1  # the frame right after reset()
KEY_SNAPSHOT = -2  # a frame taken when the recorder was attached (no key led to it)
KEY_END = -3  # the end of the game as NetHack showed it (the tombstone), after NLE's final observation
TTY_SHAPE = (24, 80)  # NLE's terminal (rows, columns)

# What is kept of each observation, in file order: (name, dtype, shape).
LAYOUT: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    ("glyphs", "<i2", (nethack.DUNGEON_SHAPE[0], nethack.DUNGEON_SHAPE[1])),
    ("blstats", "<i4", (nethack.NLE_BLSTATS_SIZE,)),
    ("tty_chars", "|u1", TTY_SHAPE),
    ("tty_colors", "|i1", TTY_SHAPE),
    ("tty_cursor", "|u1", (2,)),
)


def _layout_size(layout) -> int:
    return sum(int(np.dtype(dt).itemsize * int(np.prod(shape))) for _, dt, shape in layout)


def _game_over(obs: dict) -> bool:
    state = obs.get("program_state")
    return state is not None and bool(state[0])  # NetHack's game-over flag


def _message(obs: dict) -> str:
    raw = obs.get("message")
    if raw is None:
        return ""
    return bytes(np.asarray(raw, dtype=np.uint8)).split(b"\0", 1)[0].decode("latin-1").strip()


class FrameRecorder:
    """Records every frame of ``game`` into ``path`` (see the module docstring).

    Set :attr:`step` before each agent decision; frames are tagged with it (0 before
    the first decision). ``meta`` (JSON-like: episode id, seed …) goes into the
    file's header. Call :meth:`close` at the end (or use it as a context manager).
    Creating the file may raise ``OSError``; after that, recording never ends a
    game: on a write error the recorder logs it and stops recording.
    """

    def __init__(self, game, path: Union[str, Path], *, meta: Optional[dict] = None, keyframe_every: int = 256,
                 snapshot: bool = True):
        self.game = game
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.keyframe_every = max(1, int(keyframe_every))
        self.frames = 0
        self._step = 0
        self._lock = threading.Lock()
        self._prev: Optional[np.ndarray] = None
        self._last_stats: Optional[np.ndarray] = None
        self._t0 = time.monotonic()
        self._file = open(self.path, "wb")
        self._packer = msgpack.Packer(use_bin_type=True)
        header = {"format": FORMAT, "version": VERSION, "started": time.time(), "meta": dict(meta or {}),
                  "keyframe_every": self.keyframe_every,
                  "layout": [[n, dt, list(shape)] for n, dt, shape in LAYOUT]}
        self._file.write(self._packer.pack(header))
        self._closed = False
        game.on_frame.append(self._on_frame)
        if snapshot and getattr(game, "obs", None):
            self.record(KEY_SNAPSHOT)  # the screen as it is now (the game was reset before we came)

    @property
    def step(self) -> int:
        """The agent step that the next frames belong to."""
        return self._step

    @step.setter
    def step(self, value: int) -> None:
        self._step = int(value)
        self.flush()  # one flush per decision keeps a crashed run readable at little cost

    def _on_frame(self, game, key: Optional[int]) -> None:
        self.record(KEY_RESET if key is None else key)
        end = getattr(game, "end_screen", None)
        if key is not None and game.done and end is not None:
            self.record(KEY_END, screen=end)

    def _frame_bytes(self, obs: dict) -> bytes:
        parts = []
        for name, dt, shape in LAYOUT:
            a = obs.get(name)
            if a is None:
                parts.append(bytes(_layout_size([(name, dt, shape)])))
                continue
            a = np.asarray(a)
            if name == "blstats":
                # NLE zeroes the statistics of the final (death) observation: keep the last real ones.
                if not a.any() and self._last_stats is not None:
                    a = self._last_stats
                else:
                    self._last_stats = a.copy()
            parts.append(np.ascontiguousarray(a, dtype=dt).reshape(shape).tobytes())
        return b"".join(parts)

    def record(self, key: int = KEY_SNAPSHOT, screen: Optional["Screen"] = None) -> None:
        """Append the game's current observation as one frame; ``screen`` (a
        :class:`~hackwright.env.make.Screen`) replaces its terminal when given."""
        if self._closed:
            return
        with self._lock:
            try:
                obs = self.game.obs
                if screen is not None:
                    obs = {**obs, "tty_chars": screen.chars, "tty_colors": screen.colors,
                           "tty_cursor": screen.cursor, "message": None}
                cur = np.frombuffer(self._frame_bytes(obs), dtype=np.uint8)
                keyframe = self._prev is None or self.frames % self.keyframe_every == 0
                payload = cur if keyframe else np.bitwise_xor(cur, self._prev)
                rec: dict[str, Any] = {"s": self._step, "k": int(key),
                                       "t": int((time.monotonic() - self._t0) * 1000),
                                       "x": zlib.compress(payload.tobytes(), 6)}
                msg = _message(obs)
                if msg:
                    rec["m"] = msg
                if _game_over(obs):
                    rec["o"] = 1
                if keyframe:
                    rec["f"] = 1
                self._file.write(self._packer.pack(rec))
                self._prev = cur
                self.frames += 1
            except Exception as e:  # a full disk must not end the game
                log.warning("frame recording stopped: %s", e)
                self._close_file()

    def flush(self) -> None:
        """Write buffered frames to disk."""
        if not self._closed:
            with self._lock:
                try:
                    self._file.flush()
                except Exception as e:
                    log.warning("frame recording stopped: %s", e)
                    self._close_file()

    def _close_file(self) -> None:
        self._closed = True
        try:
            self._file.close()
        except Exception:
            pass

    def close(self) -> None:
        """Detach from the game and close the file (safe to call twice)."""
        try:
            self.game.on_frame.remove(self._on_frame)
        except ValueError:
            pass
        if not self._closed:
            with self._lock:
                self._close_file()

    def __enter__(self) -> "FrameRecorder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---------------------------------------------------------------- reading
# Bottom-line statistics by name → index in NLE's blstats.
BLSTATS = {"turn": nethack.NLE_BL_TIME, "depth": nethack.NLE_BL_DEPTH, "hp": nethack.NLE_BL_HP,
           "hpmax": nethack.NLE_BL_HPMAX, "score": nethack.NLE_BL_SCORE, "xl": nethack.NLE_BL_XP,
           "gold": nethack.NLE_BL_GOLD, "x": nethack.NLE_BL_X, "y": nethack.NLE_BL_Y}


@dataclass
class Frame:
    """One screen of a replay."""

    index: int  # position in the recording (before any thinning)
    step: int  # agent step (0: before the first decision)
    key: int  # the key that led here; KEY_RESET / KEY_SNAPSHOT when none did
    time: float  # seconds since the recording began
    message: str
    tty_chars: np.ndarray  # (24, 80) uint8
    tty_colors: np.ndarray  # (24, 80) int8, NetHack colour numbers
    tty_cursor: np.ndarray  # (2,) row, column
    glyphs: Optional[np.ndarray] = None  # (21, 79); None when read from a ttyrec
    blstats: Optional[np.ndarray] = None
    over: bool = False  # NetHack's game was over on this screen (unknown in a ttyrec: False)

    def stat(self, name: str) -> int:
        """A bottom-line statistic: turn, depth, hp, hpmax, score, xl, gold, x, y (0 if unknown)."""
        if self.blstats is None:
            return 0
        return int(self.blstats[BLSTATS[name]])

    def tty_lines(self) -> list[str]:
        """The terminal as text, one string per row (trailing blanks removed)."""
        return tty_lines(self.tty_chars)

    def status(self) -> str:
        """A one-line status: turn, dungeon level, hit points and score."""
        if self.blstats is None:
            return ""
        return (f"T:{self.stat('turn')} Dlvl:{self.stat('depth')} HP:{self.stat('hp')}({self.stat('hpmax')}) "
                f"S:{self.stat('score')}")


def tty_lines(chars: np.ndarray) -> list[str]:
    """Terminal characters as text rows (trailing blanks removed)."""
    return [bytes(row).decode("latin-1").rstrip().replace("\0", " ") for row in np.asarray(chars, dtype=np.uint8)]


@dataclass
class FrameLog:
    """A whole recording in memory: one array per field, first axis the frame."""

    meta: dict
    indices: np.ndarray  # (N,) frame numbers in the recording
    steps: np.ndarray  # (N,)
    keys: np.ndarray  # (N,)
    times: np.ndarray  # (N,) seconds
    messages: list[str]
    tty_chars: np.ndarray  # (N, 24, 80)
    tty_colors: np.ndarray
    tty_cursor: np.ndarray  # (N, 2)
    glyphs: Optional[np.ndarray] = None  # (N, 21, 79); None for a ttyrec
    blstats: Optional[np.ndarray] = None  # (N, 27)
    source: str = "frames"  # "frames" or "ttyrec"
    total: int = 0  # frames in the recording (before thinning)
    truncated: bool = False  # the file ended inside a frame (a crashed run)
    over: Optional[np.ndarray] = None  # (N,) bool: the game was over on this frame; None for a ttyrec

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, i: int) -> Frame:
        return Frame(index=int(self.indices[i]), step=int(self.steps[i]), key=int(self.keys[i]),
                     time=float(self.times[i]), message=self.messages[i], tty_chars=self.tty_chars[i],
                     tty_colors=self.tty_colors[i], tty_cursor=self.tty_cursor[i],
                     glyphs=None if self.glyphs is None else self.glyphs[i],
                     blstats=None if self.blstats is None else self.blstats[i],
                     over=False if self.over is None else bool(self.over[i]))

    def __iter__(self) -> Iterator[Frame]:
        for i in range(len(self)):
            yield self[i]

    def step_spans(self) -> dict[int, tuple[int, int]]:
        """For every step: (first, last) position of its frames in this log."""
        spans: dict[int, tuple[int, int]] = {}
        for i, s in enumerate(self.steps.tolist()):
            first = spans.get(s, (i, i))[0]
            spans[s] = (first, i)
        return spans


class FrameFileError(ValueError):
    """Not a frame file, or one this program cannot read."""


def _read_header(unpacker) -> dict:
    try:
        header = next(unpacker)
    except StopIteration:
        raise FrameFileError("empty frame file") from None
    except Exception as e:
        raise FrameFileError(f"not a frame file: {e}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise FrameFileError("not a hackwright frame file")
    if int(header.get("version", 0)) > VERSION:
        raise FrameFileError(f"frame file version {header.get('version')} is newer than this program ({VERSION})")
    return header


def iter_frames(path: Union[str, Path]) -> Iterator[Frame]:
    """Decode the frames of ``path`` one by one (arrays are fresh copies).

    A file cut off inside a frame (a crashed run) yields the frames before the
    cut; :func:`load_frames` reports it in ``FrameLog.truncated``.
    """
    yield from _iter(Path(path), {})


def _iter(path: Path, info: dict) -> Iterator[Frame]:
    with open(path, "rb") as f:
        unpacker = msgpack.Unpacker(f, raw=False, max_buffer_size=64 << 20)
        header = _read_header(unpacker)
        info["header"] = header
        layout = [(n, dt, tuple(shape)) for n, dt, shape in header["layout"]]
        size = _layout_size(layout)
        prev: Optional[np.ndarray] = None
        i = 0
        while True:
            try:
                rec = next(unpacker)
            except StopIteration:
                break
            except Exception:  # a torn final record
                info["truncated"] = True
                break
            try:
                raw = np.frombuffer(zlib.decompress(rec["x"]), dtype=np.uint8)
            except (zlib.error, KeyError, TypeError):
                info["truncated"] = True
                break
            if raw.size != size or (prev is None and not rec.get("f")):
                info["truncated"] = True
                break
            cur = raw if rec.get("f") else np.bitwise_xor(raw, prev)
            prev = cur
            arrays: dict[str, np.ndarray] = {}
            off = 0
            for name, dt, shape in layout:
                n = int(np.dtype(dt).itemsize * int(np.prod(shape)))
                arrays[name] = cur[off:off + n].view(dt).reshape(shape).copy()
                off += n
            yield Frame(index=i, step=int(rec.get("s", 0)), key=int(rec.get("k", KEY_SNAPSHOT)),
                        time=float(rec.get("t", 0)) / 1000.0, message=str(rec.get("m", "")),
                        tty_chars=arrays["tty_chars"], tty_colors=arrays["tty_colors"],
                        tty_cursor=arrays["tty_cursor"], glyphs=arrays.get("glyphs"),
                        blstats=arrays.get("blstats"), over=bool(rec.get("o")))
            i += 1
        if not info.get("truncated") and unpacker.tell() < path.stat().st_size:
            info["truncated"] = True  # msgpack stops quietly before a torn final record


def read_header(path: Union[str, Path]) -> dict:
    """The header of a frame file (format, version, started, meta, layout)."""
    with open(path, "rb") as f:
        return _read_header(msgpack.Unpacker(f, raw=False, max_buffer_size=64 << 20))


def load_frames(path: Union[str, Path], every: int = 1) -> FrameLog:
    """Read a frame file into a :class:`FrameLog`.

    ``every`` > 1 keeps every n-th frame, plus the last one (the final screen).
    """
    every = max(1, int(every))
    info: dict = {}
    kept: list[Frame] = []
    last: Optional[Frame] = None
    for fr in _iter(Path(path), info):
        if fr.index % every == 0:
            kept.append(fr)
        last = fr
    if last is not None and (not kept or kept[-1].index != last.index):
        kept.append(last)
    header = info.get("header") or read_header(path)
    log_ = _stack(kept, meta=dict(header.get("meta") or {}), source="frames")
    log_.total = 0 if last is None else last.index + 1
    log_.truncated = bool(info.get("truncated"))
    return log_


def _stack(frames: list[Frame], meta: dict, source: str) -> FrameLog:
    def arr(get, shape, dtype):
        if not frames:
            return np.zeros((0, *shape), dtype=dtype)
        return np.stack([get(f) for f in frames]).astype(dtype, copy=False)

    has_glyphs = bool(frames) and frames[0].glyphs is not None
    has_stats = bool(frames) and frames[0].blstats is not None
    return FrameLog(
        meta=meta,
        indices=np.array([f.index for f in frames], dtype=np.int64),
        steps=np.array([f.step for f in frames], dtype=np.int64),
        keys=np.array([f.key for f in frames], dtype=np.int64),
        times=np.array([f.time for f in frames], dtype=np.float64),
        messages=[f.message for f in frames],
        tty_chars=arr(lambda f: f.tty_chars, TTY_SHAPE, np.uint8),
        tty_colors=arr(lambda f: f.tty_colors, TTY_SHAPE, np.int8),
        tty_cursor=arr(lambda f: f.tty_cursor, (2,), np.int16),
        glyphs=arr(lambda f: f.glyphs, nethack.DUNGEON_SHAPE, np.int16) if has_glyphs else None,
        blstats=arr(lambda f: f.blstats, (nethack.NLE_BLSTATS_SIZE,), np.int64) if has_stats else None,
        source=source,
        total=len(frames),
        over=np.array([f.over for f in frames], dtype=bool),
    )

