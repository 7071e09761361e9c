"""What the hero can shoot or throw now, from the pack and NetHack's object table.

Every skill that fights from afar asks the same questions: is a launcher in hand and
is its ammunition carried, which weapons fly well by hand, is there a bow in the pack
worth readying. ``NetHackAPI.get_missiles`` answers them once, in one order.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from .models import Item, ItemInfo, Missiles

LAUNCHER_SKILLS = ("bow", "crossbow", "sling")
# Hand-thrown weapons that are not NetHack "missiles": daggers and knives fly well (multishot
# with skill), spears and javelins less so.
DAGGERS = ("dagger", "knife")
SPEARS = ("spear", "javelin")

_IN_HAND = ("weapon", "off hand")
# Gray stones are never thrown: a loadstone will not leave the hand, and a luckstone or a
# touchstone is worth more than a point of damage.
_KEEP_STONES = re.compile(r"gray stone|loadstone|luckstone|touchstone")
# Weapons that are tools too: a mattock ("broad pick" until known) digs, and is not to be
# left behind a floating eye.
_KEEP_WEAPONS = re.compile(r"mattock|broad pick|pick-axe")
# A shop's goods, on its floor or picked up and not paid for: not the hero's to use.
SHOP_GOODS = re.compile(r"for sale|\bunpaid\b")


def _surely_not_cursed(item: Item) -> bool:
    """Known uncursed or blessed, or its enchantment shown (so it was seen: a priest, or
    the starting kit); a launcher that may be cursed would weld itself to the hands."""
    if item.blessed_cursed_unknown == "cursed":
        return False
    return item.blessed_cursed_unknown in ("uncursed", "blessed") or re.search(r"[+-]\d", item.text or "") is not None


def choose_missiles(inventory: list[Item], info: Callable[[str], Optional[ItemInfo]]) -> Missiles:
    """The Missiles answer for this pack; ``info`` looks an item's name up (None when unknown)."""
    launcher = next((i for i in inventory if i.object_class == "weapon" and i.equipped == "weapon"), None)
    launcher_skill = None
    if launcher is not None:
        w = info(launcher.name)
        if w is not None and w.skill in LAUNCHER_SKILLS and not w.extra.get("ammo_or_missile"):
            launcher_skill = w.skill
        else:
            launcher = None
    ammunition: list[tuple[int, int, Item]] = []
    thrown: list[tuple[int, int, Item]] = []
    ammo_skills = set()
    for n, item in enumerate(inventory):
        if item.object_class != "weapon" or item.blessed_cursed_unknown == "cursed":
            continue
        i = info(item.name)
        if i is None:
            continue
        kind = i.extra.get("ammo_or_missile")
        if kind == "ammunition":
            ammo_skills.add(i.skill)
        if item.equipped in _IN_HAND:
            continue
        quiver = -10 if item.equipped == "quiver" else 0
        if kind == "ammunition":
            if launcher_skill is not None and i.skill == launcher_skill:
                ammunition.append((quiver, n, item))
        elif kind == "missile":
            thrown.append((2 + quiver, n, item))
        elif i.skill in DAGGERS:
            thrown.append((1 + quiver, n, item))
        elif i.skill in SPEARS:
            thrown.append((3 + quiver, n, item))
    ready = None
    for item in inventory:
        if item.object_class != "weapon" or item.equipped in _IN_HAND or not _surely_not_cursed(item):
            continue
        i = info(item.name)
        if i is not None and i.skill in LAUNCHER_SKILLS and not i.extra.get("ammo_or_missile") and \
                i.skill in ammo_skills:
            ready = item
            break
    ranked = sorted(ammunition + thrown, key=lambda t: t[:2])
    melee = _best_melee(inventory, info)
    listed = {id(t[2]) for t in ranked} | {id(ready)}
    junk = [i for i in inventory if id(i) not in listed and _is_junk(i)]
    return Missiles(launcher=launcher, ammunition=[t[2] for t in sorted(ammunition, key=lambda t: t[:2])],
                    thrown=[t[2] for t in sorted(thrown, key=lambda t: t[:2])], ready_launcher=ready,
                    best=ranked[0][2] if ranked else None, junk=junk, melee=melee)


def _best_melee(inventory: list[Item], info: Callable[[str], Optional[ItemInfo]]) -> Optional[Item]:
    """The pack's best hand-to-hand weapon by average damage against small monsters and
    shown enchantment: a launcher swung in melee hits for 1d2 (a Ranger out of arrows
    bashed with her bow while her +1 dagger stayed in the pack). Only weapons surely not
    cursed (a cursed one welds to the hands and the launcher could not be wielded
    again), no two-handed one over a worn shield, nothing for sale."""
    shield = any(i.equipped == "shield" for i in inventory)
    best, best_score = None, 0.0
    for item in inventory:
        if item.object_class != "weapon" or item.equipped not in (None, "alternate weapon") or \
                not _surely_not_cursed(item) or \
                SHOP_GOODS.search(item.text or ""):
            continue
        i = info(item.name)
        if i is None or i.skill in LAUNCHER_SKILLS or i.extra.get("ammo_or_missile") or \
                (shield and i.extra.get("two_handed")):
            continue
        dice = re.match(r"d(\d+)", i.damage_small or "")
        plus = re.search(r"(?:^|\s)([+-]\d+)\s", " " + (item.text or "") + " ")
        score = (int(dice.group(1)) + 1) / 2 if dice else 0.0
        score += int(plus.group(1)) if plus else 0
        if best is None or score > best_score:
            best, best_score = item, score
    return best


def _is_junk(item: Item) -> bool:
    """Rocks, gems and glass, and spare weapons (not in hand, not known cursed, not a
    digging tool): a point or two of damage a hit, when nothing better is at hand."""
    name = (item.name or "").lower()
    if item.equipped or item.blessed_cursed_unknown == "cursed":
        return False
    if item.object_class == "gem":
        return not _KEEP_STONES.search(name)
    return item.object_class == "weapon" and not _KEEP_WEAPONS.search(name)
