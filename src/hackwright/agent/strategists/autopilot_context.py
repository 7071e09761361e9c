"""What one autopilot decision knows: the situation its rule phases share.

The autopilot (autopilot.py) reads the game once per decision into a ``Situation``
and hands it to its phases in priority order (autopilot_survival.py,
autopilot_fight.py, autopilot_upkeep.py, autopilot_blockers.py,
autopilot_way_down.py); the first phase with a decision wins. Here too: how a
decision is written (a skill to invoke, or raw keys) and rough looks at the pack
that several phases make (what could save the hero, what it could throw).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from ...api.models import DungeonLevel, Hero, HungerState, Item, Monster, Position, Stats
from ...api.nethack_api import NetHackAPI

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import AutopilotState

MAIN_DUNGEON = "Dungeons of Doom"

# Roles that fight poorly. Over 320 games (seeds 0-79, four runs) Healers, Tourists, Rogues
# and Priests had median scores of 300-700 and died at experience level 3-4 on average
# (Samurai, Monks and Rangers: medians of 1,900-2,800).
WEAK_ROLES = ("healer", "tourist", "rogue", "priest", "priestess")

# What the autopilot keys its per-level memory by: the branch and the level within it,
# as the bottom line shows them (Stats.branch, Stats.level_in_branch).
LevelKey = tuple[str, int]


def level_key_of(stats: Stats) -> LevelKey:
    """The autopilot's name for the level ``stats`` were read on."""
    return (stats.branch, stats.level_in_branch)


# Touching these kills or cripples: the API's own list (its paths go round them too).
NEVER_MELEE = NetHackAPI.NEVER_TOUCH

SURVIVE = "quaff_or_zap_to_survive"
HEALING_POTIONS = ("potion of healing", "potions of healing", "potion of extra healing",
                   "potions of extra healing", "potion of full healing", "potions of full healing")
ATTACK_WANDS = ("wand of sleep", "wand of cold", "wand of fire", "wand of lightning", "wand of magic missile",
                "wand of striking", "wand of teleportation", "wand of slow monster")

THROWN = ("dagger", "knife", "spear", "javelin", "dart", "shuriken")
AMMO_FOR = {"bow": ("arrow",), "yumi": ("ya",), "crossbow": ("crossbow bolt",)}

VI_KEYS = {"n": "k", "s": "j", "e": "l", "w": "h", "ne": "u", "nw": "y", "se": "n", "sw": "b"}


def slant_through_door(level, frm, to) -> bool:
    """Whether going from ``frm`` to the adjacent ``to`` is on a slant into or out of an open
    or closed door, which NetHack refuses for a step and a blow alike (a doorless doorway
    lets both through)."""
    doors = ("open door", "closed door")
    return len(frm.direction_to(to)) == 2 and (
        level.tile_at(frm).feature in doors or level.tile_at(to).feature in doors)


def invoke(skill: str, params: Optional[dict] = None, why: str = "") -> "AgentDecision":
    """A decision to run a library skill with these parameters."""
    from ..decisions import AgentDecision

    return AgentDecision(type="invoke_skill", skill_name=skill, code=None, params=params or {}, action=None,
                         reasoning=why)


def press(action: str, why: str) -> "AgentDecision":
    """A direct action: raw keys for the game (a counted search, a fight-direction)."""
    from ..decisions import AgentDecision

    return AgentDecision(type="direct_action", action=action, reasoning=why)


@dataclass
class EmergencyKit:
    """What quaff_or_zap_to_survive could use: healing potions, attack wands, unknown ones."""

    heal: bool
    wand: bool
    mystery: bool
    kill_wand: bool = False  # a wand that hurts or removes a monster (not sleep, not slow)
    sleep_wand: bool = False  # a known wand of sleep that may have charges left


# Wands whose ray quaff_or_zap_to_survive never sends along a row or column with a wall
# fewer than RAY_ROOM open squares behind the monster (it bounces straight back).
RAY_WANDS = ("wand of sleep", "wand of cold", "wand of fire", "wand of lightning", "wand of magic missile")
RAY_ROOM = 6


def ray_bounces_back(level: DungeonLevel, hero: Position, hostile) -> bool:
    """Whether quaff_or_zap_to_survive would refuse a ray at the monster it aims at (the most
    threatening hostile beside the hero): it lies along a row or column and a wall, closed
    door or unknown square comes within RAY_ROOM squares."""
    beside = [m for m in hostile if m.position.is_adjacent(hero)]
    if not beside:
        return False
    line = hero.direction_to(max(beside, key=lambda m: m.threat_level).position)
    if line not in ("n", "s", "e", "w"):
        return False
    square = hero
    for _ in range(RAY_ROOM):
        square = square.offset(line)
        if not square.on_map() or not level.tile_at(square).is_walkable:
            return True
    return False


def emergency_kit(inventory, level: Optional[DungeonLevel] = None, hero: Optional[Position] = None,
                  hostile=()) -> EmergencyKit:
    """Read the pack for what could save the hero (a rough look; the skill checks properly).
    With the level, the hero's square and the hostile monsters: ray wands do not count
    when the skill would refuse to zap them (ray_bounces_back). Asked anyway, it handed
    back "nothing_to_use" 160 times in 420 games, and three such answers shut the skill
    for 100 turns, healing potions and all."""
    names = [((i.name or "").lower(), i) for i in inventory]
    heal = any(any(h in n for h in HEALING_POTIONS) for n, i in names if i.object_class == "potion")
    charged = [(n, i) for n, i in names if i.object_class == "wand" and "(0:0)" not in (i.text or "")
               and "(0:-1)" not in (i.text or "")]
    rays = [(n, i) for n, i in charged if any(w in n for w in RAY_WANDS)]
    if rays and level is not None and hero is not None and ray_bounces_back(level, hero, hostile):
        charged = [c for c in charged if c not in rays]
    wand = any(any(w in n for w in ATTACK_WANDS) for n, _ in charged)
    mystery = any(" of " not in n for n, i in names if i.object_class == "potion"
                  and i.blessed_cursed_unknown != "cursed" and "water" not in n and "clear" not in n) or \
        any(" of " not in n for n, _ in charged)
    kill_wand = any(any(w in n for w in ATTACK_WANDS if w not in ("wand of sleep", "wand of slow monster"))
                    for n, _ in charged)
    sleep_wand = any("wand of sleep" in n for n, _ in charged)
    return EmergencyKit(heal, wand, mystery, kill_wand, sleep_wand)


def has_missiles(inventory) -> bool:
    """Something ranged_attack could throw, or ammunition with its launcher (a rough look;
    the skill checks properly)."""
    names = [(i.name or "").lower() for i in inventory if i.object_class == "weapon"
             and not (i.equipped or "").startswith("weapon")]
    wielded = " ".join((i.name or "").lower() for i in inventory if (i.equipped or "").startswith("weapon"))
    if any(w in n for n in names for w in THROWN):
        return True
    carried = " ".join(names) + " " + wielded
    return any(launcher in carried and any(a in n for n in names for a in ammo)
               for launcher, ammo in AMMO_FOR.items())


@dataclass
class Situation:
    """The game as one autopilot decision sees it, read once and shared by its phases.

    ``effects``, ``threat`` and ``stairs_close`` are filled in by the survival phases
    (the effects are read just before the first rule that needs them; the other two cost
    monster look-ups) and read again by the phases after them."""

    api: Any
    have: Any  # the names of the skills available
    memory: "AutopilotState"
    stats: Stats
    hero: Position
    level: DungeonLevel
    level_key: LevelKey  # (branch, level within it): level_key_of(stats)
    monsters: list[Monster]  # in view
    hostile: list[Monster]  # neither peaceful nor tame
    adjacent: list[Monster]  # hostile, next to the hero, and safe to touch
    near: list[Monster]  # hostile, within 6 steps, and safe to touch
    hp_frac: float
    hunger: HungerState
    timeout: int  # the prayer timeout the API estimates
    inventory: list[Item]
    gamble: int  # the prayer timeout up to which a dying hero prays anyway
    load_key: str  # the pack's item texts: lighten_load runs once per pack
    last: Optional[Any]  # how the previous skill ended
    kit: EmergencyKit
    facts: Optional[Hero] = None  # nh.get_hero(): race, resistances, prayer, a were form, a gap refused
    effects: list[str] = field(default_factory=list)  # the API's status effects ("Blind", "Engulfed", …)
    threat: float = 0.0  # what the adjacent monsters can do in one turn at worst
    stairs_close: bool = False  # the up stairs are a safe way out of this fight

    def ok(self, name: str) -> bool:
        """Whether the skill is available and has not failed three times lately."""
        s = self.memory
        if name not in self.have:
            return False
        if s.failures.get(name, 0) < 3:
            return True
        return self.stats.turn - s.failed_at.get(name, 0) > 100  # forgiven after a while
