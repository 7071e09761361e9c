"""Whether the hero should eat a corpse, by NetHack 3.6's eat.c.

``Eater`` / ``eater_for`` describe the hero (race, role, resistances, speed);
``corpse_verdict`` and ``is_safe_to_eat`` weigh a corpse's species and age
against them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from .. import nethack_tables as tables
from .monsters import (
    M1_ACID,
    M1_POIS,
    M2_WERE,
    RACE_BITS,
    RESISTANCE_BITS,
    _DOMESTIC_PETS,
    _MIMICS,
    _NONROTTING,
    _POLYMORPHERS,
    _RIDERS,
    _STUNNERS,
    _conveys,
    _flesh_petrifies,
    _hallucinogenic,
    monster_index,
)
from .names import UnknownNameError

_ROLE_KEYS = ("arc", "bar", "cav", "hea", "kni", "mon", "pri", "ran", "rog", "sam", "tou", "val", "wiz")
_RACE_ALIASES = {"elven": "elf", "dwarvish": "dwarf", "gnomish": "gnome", "orcish": "orc", "humans": "human"}
_RESISTANCE_ALIASES = {
    "stone": "petrification",
    "petrify": "petrification",
    "electricity": "shock",
    "elec": "shock",
    "sick": "sickness",
    "disease": "sickness",
    "disint": "disintegration",
}
# Intrinsics the hero is born with or gains by experience level (attrib.c, 3.6).
_ROLE_INTRINSICS = {
    "arc": ((1, "fast"),),
    "bar": ((1, "poison"), (7, "fast")),
    "cav": ((7, "fast"),),
    "hea": ((1, "poison"),),
    "kni": ((7, "fast"),),
    "mon": ((1, "fast"), (1, "sleep"), (3, "poison"), (11, "fire"), (13, "cold"), (15, "shock")),
    "pri": ((20, "fire"),),
    "sam": ((1, "fast"),),
    "tou": ((20, "poison"),),
    "val": ((1, "cold"), (7, "fast")),
}
_RACE_INTRINSICS = {"elf": ((4, "sleep"),), "orc": ((1, "poison"),)}


def _role_key(role: str) -> str:
    r = (role or "").strip().lower()
    return r[:3] if r[:3] in _ROLE_KEYS else r


def _race_key(race: str) -> str:
    r = (race or "").strip().lower()
    return _RACE_ALIASES.get(r, r)


@dataclass
class Eater:
    """Who is eating: enough of the hero for NetHack's corpse rules.

    ``race`` is "human", "elf", "dwarf", "gnome" or "orc" ("" = unknown, which
    makes every playable race's corpse count as possible cannibalism);
    ``role`` e.g. "Caveman" (Cavemen and orcs may eat their own race and pets'
    kinds without penalty); ``resistances`` uses the names of
    ``MonsterInfo.resistances`` plus "sickness"; ``fast`` is intrinsic speed
    (a quantum mechanic would take it away); ``polymorphed_into`` the species
    the hero currently is, if polymorphed.
    """

    race: str = "human"
    role: str = ""
    resistances: set[str] = field(default_factory=set)
    fast: bool = False
    polymorphed_into: Optional[str] = None

    def resists(self, what: str) -> bool:
        have = {_RESISTANCE_ALIASES.get(r.lower(), r.lower()) for r in self.resistances}
        return what in have

    @property
    def cannibal_allowed(self) -> bool:
        """eat.c CANNIBAL_ALLOWED: Cavemen and orcs."""
        return _role_key(self.role) == "cav" or _race_key(self.race) == "orc"


def eater_for(race: str, role: str = "", xp_level: int = 1, resistances: Iterable[str] = ()) -> Eater:
    """An ``Eater`` for a hero of this race/role, with the resistances and speed
    the role and race grant by ``xp_level`` (Healers resist poison from level
    1, elves sleep from 4, …) added to ``resistances`` the caller knows of."""
    known = {_RESISTANCE_ALIASES.get(r.lower(), r.lower()) for r in resistances}
    gains = _ROLE_INTRINSICS.get(_role_key(role), ()) + _RACE_INTRINSICS.get(_race_key(race), ())
    fast = False
    for level, what in gains:
        if xp_level >= level:
            if what == "fast":
                fast = True
            else:
                known.add(what)
    return Eater(race=_race_key(race), role=role, resistances=known, fast=fast)


# A corpse's rot is age / (10 + rn2(20)), +2 if cursed: above 5 it is tainted
# (deadly food poisoning), above 3 it may make you ill. Uncursed corpses are
# tainted at the earliest at age 60 and can sicken from age 40 (cursed ones:
# 40 and 20). Corpses of kills are uncursed, and the API counts their age from
# the kill message, so anything up to 39 turns is safe and older is refused.
SAFE_CORPSE_AGE = 39
# Weak from hunger, a kill up to this old is worth it: never tainted, at worst
# "rotten" (a few turns confused, blind or asleep) — fainting kills more heroes.
STARVING_CORPSE_AGE = 55


def corpse_verdict(corpse_name: str, turns_old: Optional[int], eater: Optional[Eater] = None,
                   starving_hp: Optional[int] = None) -> tuple[bool, str]:
    """Whether eating this corpse is safe, and why, by NetHack 3.6's eat.c.

    ``corpse_name`` is the species ("newt", "a newt corpse" works too);
    ``turns_old`` the turns since it died (None = unknown age); ``eater`` the
    hero (None = unknown race/role, no resistances: the most careful answer).
    ``starving_hp``: the hero is Weak or worse from hunger with this many HP, so
    lesser harms beat fainting to death: a dog or cat (aggravation) is eaten, a
    poisonous corpse too with more than 15 HP (its poison takes at most 15), and a
    kill up to ``STARVING_CORPSE_AGE`` turns old (never tainted; at worst rotten).

    Refused: Riders (fatal); cockatrice, chickatrice, Medusa (stoning; refused
    even for a stone-resistant hero: the gain is tiny and a wrong belief about
    resistance is death); green slime; anything older than
    ``SAFE_CORPSE_AGE`` turns unless it never rots (lichen, lizard) or the hero
    resists sickness; zombie and mummy remains (born old); acidic corpses
    without acid resistance (up to 15 HP of stomach acid; an acid blob never
    becomes tainted, so with acid resistance it is fine at any age);
    poisonous ones without poison resistance; your own race (cannibalism:
    Luck penalty and aggravation) unless Caveman or orc; dogs and cats
    (aggravation) unless Caveman or orc; were-creatures (lycanthropy);
    shapeshifters (uncontrolled polymorph); mimics (stuck mimicking gold);
    disenchanter (loses an intrinsic); bats, stalkers (stun); violet fungus
    and anything with a stun or hallucination attack (hallucination); a
    quantum mechanic for a hero with intrinsic speed (it toggles speed).
    Unknown names raise ``UnknownNameError``.
    """
    index = monster_index(corpse_name, prefer_corpse=True)
    m = tables.monsters()[index]
    e = eater or Eater(race="", role="")
    name = m.mname
    if turns_old is not None and turns_old < 0:
        raise ValueError(f"turns_old must be 0 or more, got {turns_old}")

    if name.endswith((" zombie", " mummy")):
        return False, (
            f"{_a(name)} leaves {_a(name.rsplit(' ', 1)[0])} corpse that is already about 100 turns old: tainted"
        )
    if name in _RIDERS:
        return False, f"eating {name} is instantly fatal (and the corpse revives)"
    if _flesh_petrifies(m):
        return False, f"{name} meat turns you to stone"
    if name == "green slime":
        return False, "eating green slime turns you into green slime"
    if m.mflags2 & M2_WERE:
        return False, f"{_a(name)} corpse gives you lycanthropy"

    # Rot: the deadliest ordinary risk.
    never_rots = name in _NONROTTING
    if not never_rots and not e.resists("sickness"):
        if name == "acid blob":
            pass  # eat.c exempts acid blobs from tainting; old ones at worst cause mild illness
        elif turns_old is None:
            return False, "unknown age: an old corpse may be tainted (deadly food poisoning)"
        elif turns_old > (SAFE_CORPSE_AGE if starving_hp is None else STARVING_CORPSE_AGE):
            limit = SAFE_CORPSE_AGE if starving_hp is None else STARVING_CORPSE_AGE
            return False, (
                f"{turns_old} turns old: corpses older than {limit} turns may be rotten or "
                "tainted (deadly food poisoning)"
            )

    if m.mflags1 & M1_ACID and not e.resists("acid"):
        return False, f"{name} is acidic: up to 15 HP of damage without acid resistance"
    if m.mflags1 & M1_POIS and not e.resists("poison") and not (starving_hp is not None and starving_hp > 15):
        return False, f"{name} is poisonous: loses Strength and up to 15 HP without poison resistance"

    # Cannibalism: your own race (or your current form when polymorphed).
    if not e.cannibal_allowed:
        race = _race_key(e.race)
        own = RACE_BITS.get(race, 0) if race else sum(RACE_BITS.values())
        if e.polymorphed_into:
            try:
                form = tables.monsters()[monster_index(e.polymorphed_into)]
                own |= form.mflags2 & sum(RACE_BITS.values())
                if form.index == index:
                    own = -1  # same species: always counts
            except UnknownNameError:
                pass
        if own == -1 or m.mflags2 & own:
            who = f"for {_a(race)}" if race else "if you are of its race (race unknown)"
            return False, f"eating {_a(name)} is cannibalism {who}: Luck penalty and permanent aggravation"
    if name in _DOMESTIC_PETS and not e.cannibal_allowed and starving_hp is None:
        return False, f"eating {_a(name)} permanently aggravates monsters (only Cavemen and orcs may)"
    if name in _POLYMORPHERS:
        return False, f"{_a(name)} corpse polymorphs you uncontrollably"
    if name in _MIMICS:
        return False, f"{_a(name)} corpse leaves you helpless, mimicking gold, for {_MIMICS[name]} turns"
    if name == "disenchanter":
        return False, "a disenchanter corpse removes one of your intrinsics"
    if name in _STUNNERS:
        return False, f"{_a(name)} corpse stuns you for about {_STUNNERS[name]} turns"
    if _hallucinogenic(m):
        return False, f"{_a(name)} corpse makes you hallucinate for about 200 turns"
    if name == "quantum mechanic" and e.fast:
        return False, "a quantum mechanic corpse toggles speed: you would lose your intrinsic speed"

    # Safe: say what it is good for.
    if never_rots:
        why = "never rots"
    elif name == "acid blob":
        why = "acid blobs never become tainted"
    elif e.resists("sickness"):
        why = "you resist sickness, so rot cannot hurt you"
    else:
        why = f"{turns_old} turn{'s' if turns_old != 1 else ''} old, fresh enough"
    good = [f"{g} resistance" if g in RESISTANCE_BITS else g for g in _conveys(m)]
    notes = []
    if good:
        notes.append("may grant " + ", ".join(good))
    if name == "acid blob" or m.mflags1 & M1_ACID:
        notes.append("cures stoning")
    for special, text in (
        ("lizard", "cures stoning"),
        ("nurse", "heals you fully"),
        ("wraith", "raises your experience level"),
        ("newt", "may restore a little energy"),
        ("quantum mechanic", "makes you fast"),
    ):
        if name == special and text not in notes:
            notes.append(text)
    return True, f"{name}: {why}" + (f"; {'; '.join(notes)}" if notes else "")


def _a(noun: str) -> str:
    """English indefinite article, skipped for proper names ("Medusa")."""
    if noun[:1].isupper():
        return noun
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def is_safe_to_eat(corpse_name: str, turns_old: Optional[int], eater: Optional[Eater] = None,
                   starving_hp: Optional[int] = None) -> bool:
    """True if eating this corpse is safe for ``eater`` (see ``corpse_verdict`` for the rules and the reason)."""
    return corpse_verdict(corpse_name, turns_old, eater, starving_hp)[0]
