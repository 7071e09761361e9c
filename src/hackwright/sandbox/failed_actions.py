"""The game actions that failed during one skill run, grouped by what went wrong.

The skill runner notes the ``ActionResult`` of every action a skill calls (its own
calls and those of skills it runs by name), at the one place every call passes
through; a failed one counts under (action, error). The agent shows the largest
groups after the run ("290 × move: This door is locked."), so that a skill that
spent its budget pushing at a locked door says so. Kept free of NLE and the API
classes: anything with ``success``, ``error`` and ``messages`` is read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

MESSAGE_CHARS = 120  # of one failure's text kept as its group's key
MAX_GROUPS = 200  # distinct (action, text) groups kept per run; later new ones only count


@dataclass(frozen=True)
class FailureGroup:
    """Failed actions of one kind: how many, which API method, what it said."""

    count: int
    action: str
    message: str

    def line(self) -> str:
        return f"{self.count} × {self.action}: {self.message}"


def _text(result: Any) -> str:
    error = getattr(result, "error", None)
    if not error:
        messages = getattr(result, "messages", None) or []
        error = messages[-1] if messages else "nothing happened"
    text = " ".join(str(error).split())
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS - 1] + "…"


class FailedActions:
    """Counts failed actions per (action, error text) for one skill run."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self.total = 0  # every failed action, also those beyond MAX_GROUPS
        self.actions = 0  # every action noted, failed or not

    def note(self, action: str, result: Any) -> None:
        """Count ``result`` (what the action ``action`` returned) when it failed."""
        if not hasattr(result, "success"):
            return
        self.actions += 1
        if result.success:
            return
        self.total += 1
        key = (action, _text(result))
        if key in self.counts or len(self.counts) < MAX_GROUPS:
            self.counts[key] += 1

    def top(self, n: int = 3) -> list[FailureGroup]:
        """The ``n`` largest groups, largest first."""
        return [FailureGroup(c, a, m) for (a, m), c in self.counts.most_common(n)]
