"""What the hero's looks at the dungeon tell: farlook at a square (``look_at``),
look here (``look_here``), the terrain under objects (``reveal_terrain``) and the
dungeon overview (``get_dungeon_overview``). Re-exported by models.py, where
skills and the sandbox's wire protocol find every API type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .models import Position


@dataclass
class HiddenFeature:
    """A dungeon feature under an object, learned from NetHack's ``#terrain`` view
    (``NetHackAPI.reveal_terrain``): the map shows the top object there, not the
    stairs or altar beneath it."""

    position: Position  # the square (the map still shows the object there)
    feature: str  # "stairs down", "stairs up", "altar", "fountain", "sink", "throne", "grave", "ladder down" …


@dataclass
class LookResult:
    """What NetHack's farlook (``;``) says about one square (``NetHackAPI.look_at``).

    Falsy when ``error`` is set: then the square was not looked at and the other
    fields are empty.
    """

    position: Position  # the square looked at
    glyph_char: str  # the map symbol there (" " for a blank square)
    description: str  # the specific words: "tame kitten", "peaceful watchman", "jackal", "fountain", "dark part of a room"
    monster_name: Optional[str]  # the species shown there ("watchman"), None when no monster is shown
    peaceful: bool  # a peaceful monster is shown there
    tame: bool  # your pet is shown there
    text: str  # NetHack's whole answer, e.g. "d        a dog or other canine (jackal)"
    symbol_meaning: str = ""  # what the symbol stands for in general: "a dog or other canine"
    error: Optional[str] = None  # why the square could not be looked at

    def __bool__(self) -> bool:
        return self.error is None


@dataclass
class HereLook:
    """What NetHack's look here (``:``) says about the hero's own square (``NetHackAPI.look_here``).

    The map cannot show what lies under the hero: the stairs just arrived by, an
    engraving, the objects of a pile. Falsy when ``error`` is set (nothing was looked at).
    """

    position: Position  # the hero's square
    feature: Optional[str]  # dungeon furniture as NetHack names it: "staircase down", "staircase up", "ladder down", "fountain", "altar to Anhur (neutral)", "open door", "sink"; None for plain floor
    engraving: Optional[str]  # the text read here, as it now reads ("Elbereth", or smudged: "Elbcreth"); None when nothing is written or it cannot be read
    objects: list[str]  # the objects lying here, as NetHack names them ("a newt corpse", "2 uncursed daggers")
    text: str  # NetHack's whole answer
    error: Optional[str] = None  # why nothing was looked at (the game is over)

    def __bool__(self) -> bool:
        return self.error is None

    @property
    def stairs(self) -> Optional[str]:
        """"up" or "down" when the hero stands on stairs or a ladder, else None."""
        m = re.match(r"(?:staircase|ladder) (up|down)\b", self.feature or "")
        return m.group(1) if m else None


@dataclass
class OverviewLevel:
    """One level of the dungeon overview (``#overview``): only levels with something to remember."""

    dungeon: str  # "The Dungeons of Doom", "The Gnomish Mines", …
    level: int  # depth (Dlvl); 0 for the Planes of the endgame (see ``annotations``)
    features: list[str]  # as NetHack counts them: "a fountain", "some fountains", "an altar to Anhur", "a general store"
    branch: Optional[str]  # "Stairs down to The Gnomish Mines", "Portal to The Quest", None
    annotations: list[str]  # the rest: your own annotation, "Oracle of Delphi", "Unsolved", a Plane's name, bones
    is_current: bool  # "<- You are here."


@dataclass
class DungeonOverview:
    """NetHack's ``#overview`` of the levels seen so far (``NetHackAPI.get_dungeon_overview``).
    Falsy when ``error`` is set."""

    levels: list[OverviewLevel]  # in NetHack's order (by dungeon, then depth)
    text: str  # the window as NetHack showed it
    error: Optional[str] = None  # why the overview could not be read

    @property
    def current(self) -> Optional[OverviewLevel]:
        """The level the hero is on, if listed."""
        return next((lv for lv in self.levels if lv.is_current), None)

    def __bool__(self) -> bool:
        return self.error is None
