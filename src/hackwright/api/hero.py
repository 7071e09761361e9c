"""The hero as the API knows it beyond the bottom line (``NetHackAPI.get_hero``).

NetHack's status line shows HP, level and hunger but not who the hero is, what it
resists, or what the messages of earlier turns told about it (a were-creature's
bite, a prayer, a gap too narrow for the pack). The API reads those as they come;
this is the typed answer a skill or a strategist reads them from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Hero:
    """Who the hero is and what earlier messages told about it (``NetHackAPI.get_hero``)."""

    role: str  # "Valkyrie", "Caveman", …, as get_role(); "" if unread
    race: str  # "human", "elf", "dwarf", "gnome" or "orc"; "" if unread
    # What role and race give at this experience level ("poison": a Healer); not from corpses or items.
    resistances: list[str] = field(default_factory=list)
    fast: bool = False  # intrinsically fast by role and level
    lycanthropy: bool = False  # a were-creature's bite not yet cured (prayer, wolfsbane, holy water)
    in_animal_form: bool = False  # changed into the were-animal: armour and weapon fell off (shed_gear_spot)
    prayer_timeout: int = 0  # as get_prayer_timeout(): 0 means a prayer is likely safe
    last_prayer_turn: Optional[int] = None  # turn of the last prayer; None before any (the timeout is exact then)
    too_heavy_to_squeeze: bool = False  # a diagonal gap refused the pack carried now: drop something or go round
    skill_ready: bool = False  # "You feel more confident in your ... skills" since the last enhance(): call it
    # Turn a shopkeeper or temple priest last greeted the hero: blind soon after, bumping one unseen angers it.
    greeted_by_keeper_turn: Optional[int] = None


@dataclass
class Spell:
    """A spell the hero knows, as NetHack's ``+`` menu lists it (``NetHackAPI.get_spells``)."""

    letter: str  # what cast_spell takes: "a" is the first
    name: str  # "force bolt", "healing", "protection"
    level: int  # 1..7: the Pw it costs is 5 x level
    school: str  # NetHack's category: "attack", "healing", "divination", "enchantment", "clerical", "escape", "matter"
    fail_percent: int  # the chance that casting it fails (the Pw is spent all the same)
    retention: str  # how well it is remembered ("100%", "76%-100%"; "(gone)": forgotten, it cannot be cast)

    @property
    def pw_cost(self) -> int:
        """The Pw one casting takes (NetHack: 5 per spell level)."""
        return 5 * self.level
