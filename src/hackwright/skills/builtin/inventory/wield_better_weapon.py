import re

CATEGORY = "inventory"
TRIGGERS = ("engulfed",)

LAUNCHERS = ("bow", "crossbow", "sling")


def _query(text):
    q = text.lower()
    q = re.sub(r"\s*\([^)]*\)", "", q)
    q = re.sub(r"\s+(named|called) .*$", "", q)
    q = re.sub(r"^((an?|the|\d+|blessed|uncursed|cursed|[+-]\d+)\s+)+", "", q.strip())
    return q.strip()


def _enchantment(text):
    m = re.search(r"(?:^|\s)([+-]\d+)\s", " " + text + " ")
    return int(m.group(1)) if m else 0


def _average(dice):
    m = re.match(r"d(\d+)", dice or "")
    return (int(m.group(1)) + 1) / 2 if m else 0.0


async def wield_better_weapon(nh, min_gain: float = 1.5) -> SkillResult:
    """Wield the carried melee weapon with the best damage, if it is clearly better than the one in hand.

    Scores each weapon by nh.lookup_item: average damage against small monsters
    (d8 -> 4.5) plus a known enchantment. The weapon in hand is usually the role's
    starting weapon, which the hero is skilled with, so it is kept unless another
    scores at least `min_gain` more. Ignored: ammunition and missiles (arrows,
    darts), launchers (bows), known-cursed weapons (a cursed weapon welds itself
    to your hands), two-handed weapons while a shield is worn, things for sale.
    A Monk fighting bare-handed keeps his martial arts. Nothing is done while a
    hostile monster is adjacent unless the hero is bare-handed.

    Parameters:
        min_gain (float, 1.5): how much better (average damage) a weapon must be.

    Stopped reasons: "wielded" (success; data.weapon), "keep_current" (data.best
    alternative), "keep_martial_arts", "hostile_adjacent", "failed", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def score(item):
        """Average damage + enchantment of a melee weapon, or None if it is not one."""
        try:
            i = await nh.lookup_item(_query(item.text))
        except Exception:
            return None, None
        if i.object_class != "weapon" or i.extra.get("ammo_or_missile") or i.skill in LAUNCHERS:
            return None, None
        return _average(i.damage_small) + _enchantment(item.text), i

    equipment = await nh.get_equipment()
    wielded = equipment.get("weapon")
    if wielded is None and await nh.get_role() == "Monk":
        return await finish("keep_martial_arts", False)
    hero = start.position
    adjacent = [m for m in await nh.get_visible_monsters()
                if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(hero)]
    if adjacent and wielded is not None:
        return await finish("hostile_adjacent", False, monster=adjacent[0].name)

    current = 1.5  # bare hands: 1d2
    if wielded is not None:
        s, _ = await score(wielded)
        current = s if s is not None else 3.5  # an unknown weapon in hand: assume middling
        if wielded.blessed_cursed_unknown == "cursed":
            return await finish("keep_current", False, weapon=wielded.text, why="it is cursed: welded to your hand")

    best, best_score = None, None
    for item in await nh.get_inventory():
        if item.object_class != "weapon" or item.equipped == "weapon" or item.blessed_cursed_unknown == "cursed":
            continue
        if "for sale" in item.text or "unpaid" in item.text:
            continue
        s, i = await score(item)
        if s is None:
            continue
        if i.extra.get("two_handed") and equipment.get("shield") is not None:
            continue
        if best_score is None or s > best_score:
            best, best_score = item, s
    if best is None or best_score < current + min_gain:
        return await finish("keep_current", False, weapon=wielded.text if wielded else "bare hands",
                            score=current, best=best.text if best else None, best_score=best_score)
    res = await nh.wield(best.slot)
    actions += 1
    if res.game_over:
        return await finish("game_over", False)
    if not res.success:
        return await finish("failed", False, weapon=best.text, error=res.error)
    return await finish("wielded", True, weapon=best.text, score=best_score, previous=wielded.text if wielded else None)
