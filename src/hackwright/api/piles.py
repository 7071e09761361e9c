"""The floor piles the hero has been shown this game, per level and square, and since when.

Stepping onto objects, NetHack says what lies there ("You see here a dagger.", a
"Things that are here:" window, or "There are several objects here."). The API notes
the turn it first did so for each square, whoever moved the hero, so a skill can tell
a pile it (or an earlier call, or the model) was already shown from a new one. An
object new to the square since starts the count again; objects taken away do not.
"""

from __future__ import annotations

import re
from typing import Optional

from .models import Position

_SHOWN = re.compile(r"You (?:see|feel) here (?P<one>[^\n]+?)\.(?:\s|$)|"
                    r"Things that (?:are|you feel) here:(?P<many>.*)|"
                    r"There are (?:several|many) objects here", re.S)


def _listing(message: str) -> Optional[frozenset[str]]:
    """The objects one message shows underfoot (empty when it only says there are many),
    or None when it shows none."""
    m = _SHOWN.search(message)
    if m is None:
        return None
    if m.group("one"):
        return frozenset((m.group("one").strip(),))
    if m.group("many") is not None:
        return frozenset(line.strip() for line in m.group("many").splitlines() if line.strip())
    return frozenset()


class PileMemory:
    """Per level, per square: (turn first shown, the objects then listed)."""

    def __init__(self) -> None:
        self._piles: dict[tuple[int, int], dict[Position, tuple[int, frozenset[str]]]] = {}

    def note(self, messages: list[str], level: tuple[int, int], hero: Position, turn: int) -> None:
        """Record what one action's messages showed under the hero (where it ended)."""
        listing = None
        for m in messages:
            found = _listing(m)
            if found is not None:
                listing = found
        if listing is None:
            return
        squares = self._piles.setdefault(level, {})
        old = squares.get(hero)
        if old is None or (listing and old[1] and not listing <= old[1]):
            squares[hero] = (turn, listing)  # a new pile, or something new in it
        elif listing and not old[1]:
            squares[hero] = (old[0], listing)  # "several objects" before: now their names

    def seen_turn(self, level: tuple[int, int], pos: Position) -> Optional[int]:
        """The turn the pile at ``pos`` of ``level`` was first shown, or None."""
        found = self._piles.get(level, {}).get(pos)
        return found[0] if found else None
