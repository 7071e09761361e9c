import re

CATEGORY = "inventory"
TRIGGERS = ("monster", "engulfed")

SLOTS = ("body armor", "cloak", "shirt", "helmet", "gloves", "boots", "shield")
HARMFUL = ("helm of opposite alignment", "gauntlets of fumbling", "levitation boots", "fumble boots",
           "dunce cap")
# Known (identified) rings and amulets worth wearing at once. Slow digestion above all:
# a Wizard who carried one from turn 1 lived on prayers for hunger every 850 turns.
GOOD_ACCESSORIES = ("ring of slow digestion", "ring of free action", "ring of poison resistance",
                    "ring of protection", "amulet of life saving", "amulet of reflection",
                    "amulet versus poison", "amulet of ESP")


def _query(text):
    q = text.lower()
    q = re.sub(r"\s*\([^)]*\)", "", q)
    q = re.sub(r"\s+(named|called) .*$", "", q)
    q = re.sub(r"^((an?|the|\d+|blessed|uncursed|cursed|[+-]\d+)\s+)+", "", q.strip())
    return q.replace("pair of ", "").replace("set of ", "").strip()


def _enchantment(text):
    m = re.search(r"(?:^|\s)([+-]\d+)\s", " " + text + " ")
    return int(m.group(1)) if m else 0


async def wear_better_armor(nh, risky: bool = False, max_changes: int = 7) -> SkillResult:
    """Wear the best armour carried in each slot: take off a worse piece, put on the better one.

    Also puts on known good rings and amulets (slow digestion, free action,
    poison resistance, protection; life saving, reflection, versus poison, ESP).
    Compares, slot by slot (body armor, cloak, shirt, helmet, gloves, boots,
    shield), the armour class of what is worn with what is carried, by
    nh.lookup_item (base AC) plus a known enchantment ("+2"). Never wears a
    known-cursed piece; unidentified pieces whose appearance may hide something
    harmful (helm of opposite alignment, gauntlets of fumbling, levitation or
    fumble boots, dunce cap) are left alone unless `risky` is set. A cloak is
    taken off to change body armour or a shirt and put back on afterwards; no
    shield with a two-handed weapon; no body armour or shield for a Monk. It does
    nothing while a hostile monster is adjacent (putting armour on takes turns).

    Parameters:
        risky (bool, False): also wear unidentified pieces that may be harmful.
        max_changes (int, 7): most slots to change.

    Stopped reasons: "wore" (success; data.changes), "nothing_better",
    "hostile_adjacent", "failed" (data.errors — e.g. a cursed piece that will not
    come off), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    changes = []
    errors = []
    infos = {}

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["changes"] = changes
        if errors:
            data["errors"] = errors
        data["ac"] = s.ac
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def info(text):
        q = _query(text)
        if q not in infos:
            try:
                infos[q] = await nh.lookup_item(q)
            except Exception:
                infos[q] = None
        return infos[q]

    async def value(item):
        """(slot, AC value) of a piece of armour, or (None, None) if unknown/unsafe."""
        i = await info(item.text)
        if i is None or i.armor_slot is None:
            return None, None
        ids = i.extra.get("possible_identities") or []
        if i.armor_class is None or len(ids) > 1:
            if not risky and any(h in ids for h in HARMFUL):
                return None, None
            acs = []
            for name in ids:
                j = await info(name)
                if j is not None and j.armor_class is not None:
                    acs.append(j.armor_class)
            base = min(acs) if acs else 0
        else:
            base = i.armor_class
        return i.armor_slot, base + _enchantment(item.text)

    hero = start.position
    for m in await nh.get_visible_monsters():
        if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(hero):
            return await finish("hostile_adjacent", False, monster=m.name)

    equipment = await nh.get_equipment()
    monk = await nh.get_role() == "Monk" and equipment.get("weapon") is None
    two_handed = False
    if equipment.get("weapon") is not None:
        w = await info(equipment["weapon"].text)
        two_handed = bool(w is not None and w.extra.get("two_handed"))

    best = {}
    for item in await nh.get_inventory():
        if item.object_class != "armor" or item.equipped or item.blessed_cursed_unknown == "cursed":
            continue
        if "for sale" in item.text or "unpaid" in item.text:
            continue
        slot, v = await value(item)
        if slot is None or (monk and slot in ("body armor", "shield")) or (two_handed and slot == "shield"):
            continue
        if slot not in best or v > best[slot][0]:
            best[slot] = (v, item)

    plan = []
    for slot in SLOTS:
        if slot not in best:
            continue
        v, item = best[slot]
        worn = equipment.get(slot)
        if worn is not None:
            _, wv = await value(worn)
            if wv is None:
                i = await info(worn.text)
                wv = ((i.armor_class or 0) if i else 0) + _enchantment(worn.text)
            if v <= wv:
                continue
        plan.append((slot, item, worn))
    inventory = await nh.get_inventory()
    rings = sum(1 for i in inventory if i.object_class == "ring" and i.equipped)
    amulet = any(i.object_class == "amulet" and i.equipped for i in inventory)
    accessories = []
    for item in inventory:
        if item.object_class not in ("ring", "amulet") or item.equipped or item.blessed_cursed_unknown == "cursed":
            continue
        if "for sale" in item.text or "unpaid" in item.text or not any(g in item.text for g in GOOD_ACCESSORIES):
            continue
        if item.object_class == "ring" and rings < 2:
            rings += 1
            accessories.append(item)
        elif item.object_class == "amulet" and not amulet:
            amulet = True
            accessories.append(item)
    if not plan and not accessories:
        return await finish("nothing_better", False)
    for item in accessories:
        res = await nh.wear(item.slot)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if res.success:
            changes.append({"slot": item.object_class, "wore": item.text, "took_off": None})
        else:
            errors.append(f"{item.object_class}: {res.error}")

    for slot, item, worn in plan[:max_changes]:
        cloak = None
        if slot in ("body armor", "shirt"):
            current = (await nh.get_equipment()).get("cloak")
            if current is not None:
                if current.blessed_cursed_unknown == "cursed":
                    errors.append(f"{slot}: the cursed cloak is in the way")
                    continue
                res = await nh.take_off(current.slot)
                actions += 1
                if res.game_over:
                    return await finish("game_over", False)
                if not res.success:
                    errors.append(f"cloak: {res.error}")
                    continue
                cloak = current
        if worn is not None:
            res = await nh.take_off(worn.slot)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if not res.success:
                errors.append(f"{slot}: {res.error}")
                worn = None
                item = None
        if item is not None:
            res = await nh.wear(item.slot)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if res.success:
                changes.append({"slot": slot, "wore": item.text, "took_off": worn.text if worn else None})
            else:
                errors.append(f"{slot}: {res.error}")
                if worn is not None:
                    back = await nh.wear(worn.slot)
                    actions += 1
                    if back.game_over:
                        return await finish("game_over", False)
        if cloak is not None:
            res = await nh.wear(cloak.slot)
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            if not res.success:
                errors.append(f"cloak back on: {res.error}")
    if changes:
        return await finish("wore", True)
    return await finish("failed", False)
