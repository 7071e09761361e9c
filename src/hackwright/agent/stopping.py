"""Ctrl-C for a running episode.

The first press asks the agent to stop at the next action boundary: the running skill
stops after its current game action, a model call in flight is abandoned, and the
episode is recorded as ``interrupted`` with its summary. A second press (where the caller
allows it) raises ``KeyboardInterrupt`` at once; the episode is still recorded.
"""

from __future__ import annotations

import signal
import threading
from typing import Any, Callable, Optional


class StopOnInterrupt:
    """Within ``with StopOnInterrupt(agent):``, SIGINT asks ``agent`` to stop.

    ``hard_on_second``: a second SIGINT raises KeyboardInterrupt (the terminal user who
    presses again means it); eval workers pass False, since the terminal's Ctrl-C reaches
    them and their driver both. ``on_press(n)`` is called with the press count (keep it
    signal-safe: set flags, no printing to a live display)."""

    def __init__(self, agent: Any, *, hard_on_second: bool = True,
                 on_press: Optional[Callable[[int], None]] = None):
        self.agent = agent
        self.hard_on_second = hard_on_second
        self.on_press = on_press
        self.presses = 0
        self._previous: Any = None
        self._installed = False

    def _handle(self, signum, frame) -> None:
        self.presses += 1
        if self.on_press is not None:
            self.on_press(self.presses)
        if self.presses > 1 and self.hard_on_second:
            raise KeyboardInterrupt
        self.agent.request_stop()

    def __enter__(self) -> "StopOnInterrupt":
        if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False
