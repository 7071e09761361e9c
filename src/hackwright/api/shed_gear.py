"""Where a change of form made the hero shed its armour or weapon.

A lycanthrope that turns into its animal (a rat, a jackal, a wolf) is smaller than its
armour: NetHack drops the body armour, cloak, helmet, gloves, boots, shield and the
wielded weapon on the square where it changes ("Your armor falls around you!", "You
find you must drop your sword!"). Back in its own form ("You return to human form!")
the hero is naked on that square or near it; heroes who fought on at AC 10 died within
a few hundred turns. The API notes the square from the messages, whoever acted.
"""

from __future__ import annotations

import re
from typing import Optional

from .models import Position

_SHED = re.compile(r"Your armor falls around you|You shrink out of your|You find you must drop your|"
                   r"Your helmet falls to the floor|You drop your gloves|Your boots .* off your feet|"
                   r"You can no longer hold your shield|You break out of your armor|Your cloak tears apart")
_CHANGED = re.compile(r"You turn into an? ")
_BACK = re.compile(r"You return to [a-z]+ form")


class ShedGearMemory:
    """The square (per level) where gear was last shed, and whether the hero is back in form."""

    def __init__(self) -> None:
        self._spot: Optional[tuple[tuple[int, int], Position]] = None
        self._changed = False  # in another form since the shedding
        self._stood = False  # stood on the spot since it came back to its own form

    def note(self, messages: list[str], level: tuple[int, int], hero: Position) -> None:
        """Read one action's messages (the hero ended it at ``hero`` on ``level``)."""
        if not messages and self._spot is None:
            return  # the common case on the per-action path: nothing to read or to watch
        text = " ".join(messages)
        if _CHANGED.search(text):
            self._changed = True
        if _SHED.search(text):
            self._spot, self._stood = (level, hero), False
        if _BACK.search(text):
            self._changed = False
        if self._spot is None or self._changed:
            return
        on_it = self._spot == (level, hero)
        if self._stood and not on_it:
            self._spot = None  # it came, picked up what it wanted, and left
        elif on_it:
            self._stood = True

    @property
    def changed(self) -> bool:
        """The hero turned into another form and has not come back yet."""
        return self._changed

    def spot(self, level: tuple[int, int]) -> Optional[Position]:
        """The square on ``level`` to go back to, or None (none, another level, or the hero
        is still in its other form)."""
        if self._spot is None or self._changed or self._spot[0] != level:
            return None
        return self._spot[1]
