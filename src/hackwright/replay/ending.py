"""How a recording ends: the frame that shows the end of the game, and the last messages.

A frame file records the end of the game as its last frame (``KEY_END``: the
tombstone and the "Goodbye NAME the ROLE..." lines). Older frame files and NLE's
ttyrecs end instead on the screens NetHack draws after that: a blank screen with
``--More--``, then its score list — or, where NLE's score files were missing,
"Cannot open file …logfile. Is NetHack installed correctly?" (a ttyrec stops at
the blank screen). For those, the end of the game is the last frame before that
tail.
"""

from __future__ import annotations

import re

from .frames import KEY_END, FrameLog

# The header of NetHack's score list, and NetHack's error when a score file is missing.
_SCORE_LIST = re.compile(r"^\s*No\s+Points\s+Name\b", re.M)
_NO_SCORE_FILE = re.compile(r"Cannot open file .*Is\s+NetHack\s+installed\s+correctly", re.S)
_TAIL_MAX = 4  # frames NetHack draws after the tombstone: a --More--, the score list (and NLE's error)


def _after_the_end(text: str) -> bool:
    """NetHack's score list, NLE's file error, or a screen with nothing but --More--."""
    if _SCORE_LIST.search(text) or _NO_SCORE_FILE.search(text):
        return True
    return not text.replace("--More--", "").strip()


def ending_index(frames: FrameLog) -> int:
    """The position of the frame that shows how the recording ends: the ``KEY_END``
    frame when there is one, else the last frame before NetHack's after-game screens
    (see the module docstring), else the last frame. -1 for an empty log."""
    n = len(frames)
    if n == 0:
        return -1
    if int(frames.keys[n - 1]) == KEY_END:
        return n - 1
    i = n - 1
    while i > 0 and n - i <= _TAIL_MAX and _after_the_end("\n".join(frames[i].tty_lines())):
        i -= 1
    if _after_the_end("\n".join(frames[i].tty_lines())):
        return n - 1  # nothing before the tail: the last frame is all there is
    return i


def final_messages(frames: FrameLog, limit: int = 8) -> list[str]:
    """The message lines of the recording's last agent step (the death: "The minotaur
    hits!", "You die..."), oldest first, repeats removed, at most ``limit``."""
    n = len(frames)
    if n == 0:
        return []
    last_step = int(frames.steps[n - 1])
    out: list[str] = []
    for i in range(n - 1, -1, -1):
        if int(frames.steps[i]) != last_step:
            break
        m = frames.messages[i].strip()
        if m and m not in out:
            out.append(m)
    return list(reversed(out))[-limit:]
