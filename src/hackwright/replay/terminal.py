"""Playing a recording in the terminal: the 24×80 screens, in colour, at the recorded pace."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Callable, Optional, TextIO

import numpy as np

from .ending import ending_index, final_messages
from .frames import KEY_END, Frame, FrameLog
from .run import RunRecord

# NetHack colour numbers (CLR_BLACK … CLR_WHITE) → ANSI SGR foreground codes.
# Black is shown dark grey (as NetHack's tty does with use_darkgray), NO_COLOR (8) as the default colour.
_SGR = {0: "90", 1: "31", 2: "32", 3: "33", 4: "34", 5: "35", 6: "36", 7: "37", 8: "39",
        9: "91", 10: "92", 11: "93", 12: "94", 13: "95", 14: "96", 15: "97"}


def screen_text(frame: Frame) -> str:
    """The screen as plain text (trailing blank rows removed)."""
    lines = frame.tty_lines()
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def screen_ansi(frame: Frame, *, in_place: bool = True) -> str:
    """The screen with ANSI colours. ``in_place``: drawn from the top-left corner of
    the terminal, the cursor left where the game had it; else printed in the flow."""
    chars = np.asarray(frame.tty_chars, dtype=np.uint8)
    colors = np.asarray(frame.tty_colors).astype(np.int16) & 15
    out = ["\x1b[H" if in_place else ""]
    for r in range(chars.shape[0]):
        row = bytes(chars[r]).decode("latin-1").replace("\0", " ")
        cur = -1
        for c, ch in enumerate(row):
            col = int(colors[r, c])
            if col != cur and ch != " ":  # blanks take any colour: fewer escape codes
                out.append(f"\x1b[{_SGR.get(col, '39')}m")
                cur = col
            out.append(ch)
        out.append("\x1b[0m\x1b[K\r\n" if in_place else "\x1b[0m\n")
    if in_place:
        cy, cx = int(frame.tty_cursor[0]), int(frame.tty_cursor[1])
        out.append(f"\x1b[{cy + 1};{cx + 1}H")
    return "".join(out)


@dataclass
class PlayOptions:
    """How ``play`` paces and shows the frames."""

    speed: float = 1.0  # multiplier of the recorded pace
    max_wait: float = 1.0  # seconds: longer pauses (a model thinking) are cut to this
    no_delay: bool = False  # no waiting at all
    step_through: bool = False  # wait for Enter after each agent step
    color: bool = True  # ANSI colours and cursor movement; plain text frames otherwise
    from_step: int = 0  # start at this agent step


def _caption(frame: Frame, run: Optional[RunRecord], n: int) -> str:
    parts = [f"frame {frame.index + 1}/{n}"]
    if frame.step:
        parts.append(f"step {frame.step}")
    if frame.blstats is not None:
        parts.append(frame.status())
    if frame.key == KEY_END:
        parts.append("the end of the game")
    elif frame.over:
        parts.append("game over")
    line = " · ".join(parts)
    d = run.decision_at(frame.step) if run is not None and frame.step else None
    if d is not None:
        line += "\n" + d.headline()
    return line


def play(frames: FrameLog, run: Optional[RunRecord] = None, opts: Optional[PlayOptions] = None,
         out: Optional[TextIO] = None, read_line: Callable[[], str] = input) -> int:
    """Show ``frames`` one after the other on ``out``; returns how many were shown.

    With ``step_through`` it pauses after the last frame of every agent step (every
    frame when the recording has no steps, e.g. a ttyrec) until Enter; ``q`` stops.
    """
    opts = opts or PlayOptions()
    out = out or sys.stdout
    n = len(frames)
    start = 0
    if opts.from_step:
        hits = np.nonzero(frames.steps >= opts.from_step)[0]
        start = int(hits[0]) if len(hits) else n
    has_steps = bool(n and frames.steps.max() > 0)
    shown = 0
    if opts.color:
        out.write("\x1b[2J\x1b[?25l")
    try:
        for i in range(start, n):
            fr = frames[i]
            if opts.color:
                below = f"\x1b[{fr.tty_chars.shape[0] + 1};1H\x1b[J"  # the caption goes under the screen
                out.write(screen_ansi(fr) + below + _caption(fr, run, frames.total) + "\n")
            else:
                out.write(f"--- {_caption(fr, run, frames.total)}\n{screen_text(fr)}\n")
            out.flush()
            shown += 1
            last_of_step = i + 1 == n or frames.steps[i + 1] != frames.steps[i]
            if opts.step_through and (last_of_step or not has_steps):
                try:
                    answer = read_line()
                except EOFError:
                    break
                if answer.strip().lower().startswith("q"):
                    break
                continue
            if not opts.no_delay and i + 1 < n:
                gap = float(frames.times[i + 1] - frames.times[i])
                time.sleep(max(0.0, min(gap, opts.max_wait)) / max(opts.speed, 1e-6))
    finally:
        if opts.color:
            out.write("\x1b[0m\x1b[?25h\n")
            out.flush()
    return shown


def print_final(frames: FrameLog, run: Optional[RunRecord] = None, out: Optional[TextIO] = None,
                color: bool = False) -> None:
    """Print how a run ended: its final screen (after a death, NetHack's tombstone and
    farewell rather than the score list that follows them), the caption, and the
    messages of the last step ("You die..."): a non-interactive look at the end."""
    out = out or sys.stdout
    if not len(frames):
        out.write("(no frames)\n")
        return
    fr = frames[ending_index(frames)]
    body = screen_ansi(fr, in_place=False).rstrip("\n") if color else screen_text(fr)
    out.write(f"{body}\n{_caption(fr, run, frames.total)}\n")
    messages = final_messages(frames)
    if messages:
        out.write("last messages: " + " · ".join(messages) + "\n")
