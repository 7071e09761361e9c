"""How a melee fight is likely to go, from NetHack's own combat formulas.

The hero's chance to hit is NetHack's ``find_roll_to_hit`` (1 + attribute bonus +
the monster's AC + experience level + weapon and martial-arts bonuses, against a
d20); a monster's chance to hit is ``mattacku``'s (10 + the hero's AC + its level,
against a d20). Damage is the dice's mean. A monster's hit points are its level's
d8s, its level raised the way ``adj_lev`` raises it on deep levels and against a
strong hero. Luck, rings, skills above Basic and special damage (poison, drain,
paralysis) are left out, so read the result as "about", not as a promise.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Optional, Sequence

from .knowledge import lookup_item
from .models import FightOdds, ItemInfo, MonsterInfo, Stats

# Roles that start with intrinsic speed (NetHack's role tables: Archeologists, Monks
# and Samurai are Fast from experience level 1): four moves for every three of a
# speed-12 monster.
_FAST_ROLES = ("archeologist", "monk", "samurai")
# Martial arts (Monks and Samurai fighting bare-handed): d4 instead of d2, plus a
# dexterity roll, plus Basic skill's bonuses (``weapon_hit_bonus``, ``weapon_dam_bonus``).
_MARTIAL_ROLES = ("monk", "samurai")
_ENCHANTMENT = re.compile(r"(?<![\w/])([+-]\d+)\s")
_DICE = re.compile(r"^(\d+)d(\d+)$")
_LARGE = ("large", "huge", "gigantic")


def _dice_mean(dice: Optional[str]) -> float:
    """The mean of "d8", "2d4", "1d3"; 0 for anything else."""
    if not dice:
        return 0.0
    text = dice if dice[0].isdigit() else "1" + dice
    m = _DICE.match(text)
    if not m:
        return 0.0
    n, sides = int(m.group(1)), int(m.group(2))
    return n * (sides + 1) / 2


def strength_to_hit(strength: int) -> int:
    """NetHack's ``abon`` part from strength (``Stats.strength``: 18/xx counts above 18)."""
    if strength < 6:
        return -2
    if strength < 8:
        return -1
    if strength < 17:
        return 0
    if strength <= 19:  # up to 18/50
        return 1
    return 2 if strength < 21 else 3


def dexterity_to_hit(dexterity: int) -> int:
    """NetHack's ``abon`` part from dexterity."""
    if dexterity < 4:
        return -3
    if dexterity < 6:
        return -2
    if dexterity < 8:
        return -1
    if dexterity < 14:
        return 0
    return dexterity - 14


def strength_damage(strength: int) -> int:
    """NetHack's ``dbon``: the damage bonus from strength (``Stats.strength`` counts
    18/01-18/100 as 19-21)."""
    if strength < 6:
        return -1
    if strength < 16:
        return 0
    if strength < 18:
        return 1
    if strength == 18:
        return 2
    return {19: 3, 20: 4}.get(strength, 6)


def monster_level(info: MonsterInfo, depth: int, hero_level: int) -> int:
    """The level a monster of this species is likely to have here (NetHack's ``adj_lev``:
    a fifth of how far the level lies below its base level, a quarter of how far the
    hero's experience level lies above it, at most half as much again)."""
    base = info.level
    if base > 49:
        return 50
    level = base
    if depth - base < 0:
        level -= 1
    else:
        level += (depth - base) // 5
    if hero_level - base > 0:
        level += (hero_level - base) // 4
    cap = min(3 * base // 2, 49)
    return max(0, min(level, cap)) if base > 0 else max(0, min(level, 1))


def monster_damage_per_turn(info: MonsterInfo, level: int, hero_ac: int) -> float:
    """Mean damage the monster deals in one turn of a speed-12 hero: each active attack's
    dice mean (a weapon attack with a d8 weapon added) times its chance to hit the
    hero's AC, times the moves its speed gives it."""
    # A negative AC also turns some hits aside; counted as half its size.
    ac_value = hero_ac if hero_ac >= 0 else hero_ac / 2
    to_hit = 10 + ac_value + level
    chance = min(1.0, max(0.05, (to_hit - 1) / 20))
    total = 0.0
    for attack in info.attacks:
        kind, _, rest = attack.partition(" ")
        if kind == "passive":
            continue
        mean = _dice_mean(rest.split(" ")[0])
        if kind == "weapon":
            mean += 4.5
        total += chance * mean
    return total * info.speed / 12


def hero_blow(stats: Stats, role: str, weapon: Optional[ItemInfo], weapon_text: str,
              target: MonsterInfo) -> tuple[float, float]:
    """(chance to hit, mean damage of a hit) for the hero's melee blow against ``target``."""
    role = (role or "").lower()
    enchant = 0
    m = _ENCHANTMENT.search(weapon_text or "")
    if m:
        enchant = int(m.group(1))
    to_hit = 1 + strength_to_hit(stats.strength) + dexterity_to_hit(stats.dexterity) + target.ac + stats.xp_level
    if weapon is not None and (weapon.damage_small or weapon.damage_large):  # weapons and weapon-tools (a pick-axe)
        to_hit += enchant
        dice = weapon.damage_large if target.size in _LARGE else weapon.damage_small
        damage = max(1.0, _dice_mean(dice) + enchant + strength_damage(stats.strength))
    elif weapon is None and role in _MARTIAL_ROLES:
        # Martial arts: d4 + rn2(Dex/3 + 1), Basic skill's +4 to hit and damage, and a
        # Monk's unarmed +(level/3 + 2) to hit.
        to_hit += 4 + (stats.xp_level // 3 + 2 if role == "monk" else 0)
        damage = 2.5 + stats.dexterity / 6 + 3 + strength_damage(stats.strength)
    else:
        # Bare hands (d2), or a tool or other object swung as a weapon (about d2 too).
        damage = max(1.0, 1.5 + strength_damage(stats.strength))
    chance = min(0.95, max(0.05, (to_hit - 1) / 20))
    return chance, damage


class _Fight(NamedTuple):
    """One monster of a pack, as the hero would fight it."""

    info: MonsterInfo
    hp: float  # its likely hit points
    chance: float  # the hero's chance to hit it
    damage: float  # mean damage of the hero's hit on it
    turns: float  # mean turns to kill it
    damage_per_turn: float  # mean damage it deals in a turn


def estimate(foes: Sequence[MonsterInfo], stats: Stats, role: str, weapon: Optional[ItemInfo],
             weapon_text: str = "") -> FightOdds:
    """The odds of killing ``foes`` one after another in melee, quickest first, all of them
    striking until each dies (a pack next to the hero)."""
    hero_moves = 4 / 3 if (role or "").lower() in _FAST_ROLES else 1.0
    fights = []
    for info in foes:
        level = monster_level(info, stats.dungeon_level, stats.xp_level)
        hp = 4.5 * level if level > 0 else 2.5
        chance, damage = hero_blow(stats, role, weapon, weapon_text, info)
        fights.append(_Fight(info, hp, chance, damage, hp / max(0.05, chance * damage * hero_moves),
                             monster_damage_per_turn(info, level, stats.ac)))
    fights.sort(key=lambda f: f.turns)
    elapsed = taken = 0.0
    for i, fight in enumerate(fights):
        elapsed += fight.turns
        # Those still standing strike all the while this one is fought.
        taken += fight.turns * sum(f.damage_per_turn for f in fights[i:])
    first = fights[0] if fights else None
    return FightOdds(
        monsters=[f.info.name for f in fights],
        hit_chance=round(first.chance, 2) if first else 0.0,
        damage_per_hit=round(first.damage, 1) if first else 0.0,
        monster_hp=round(sum(f.hp for f in fights), 1),
        turns_to_kill=round(elapsed, 1),
        damage_per_turn=round(sum(f.damage_per_turn for f in fights), 1),
        expected_damage=round(taken, 1),
        hero_hp=stats.hp,
    )


def wielded(inventory: Iterable) -> Optional[object]:
    """The inventory item in the hero's hands, or None."""
    for item in inventory:
        if (item.equipped or "").startswith("weapon"):
            return item
    return None


def weapon_in_hand(inventory: Iterable) -> tuple[Optional[ItemInfo], str]:
    """(the object-table entry of the wielded weapon or None, its inventory line or "")."""
    item = wielded(inventory)
    if item is None:
        return None, ""
    try:
        return lookup_item(item.name or item.text), item.text
    except ValueError:
        return None, item.text
