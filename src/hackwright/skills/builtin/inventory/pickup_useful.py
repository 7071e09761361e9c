import re

CATEGORY = "inventory"
TRIGGERS = ("monster", "engulfed")

SKIP_FOOD = ("egg", "tin", "tripe ration", "lump of royal jelly", "corpse")
GOOD_CORPSES = ("lichen corpse", "lizard corpse")
TOOLS = ("key", "lock pick", "credit card", "bag", "sack", "lamp", "lantern", "unicorn horn", "blindfold",
         "towel", "whistle", "mirror", "pick-axe", "stethoscope", "tinning kit", "magic marker", "horn")
JUNK = ("boulder", "statue", "gray stone", "loadstone", "luckstone", "touchstone", "flint", "rock",
        "iron chain", "heavy iron ball", "large box", "chest", "ice box", "figurine")
LAUNCHERS = ("bow", "crossbow")
BOXES = re.compile(r"\b(large box|chest)\b")
# Weapons that bash a box's lock open (#force); a blade pries it and may snap doing so.
BLUNT = ("club", "mace", "morning star", "hammer", "quarterstaff", "polearms", "spear", "trident", "lance")
HAND_THROWN = ("dagger", "knife", "dart", "shuriken")


def _query(text):
    q = text.lower()
    q = re.sub(r"\s*\([^)]*\)", "", q)
    q = re.sub(r"\s+(named|called) .*$", "", q)
    q = re.sub(r"^((an?|the|\d+|blessed|uncursed|cursed|partly eaten|[+-]\d+)\s+)+", "", q.strip())
    return q.replace("pair of ", "").replace("set of ", "").strip()


def _enchantment(text):
    m = re.search(r"(?:^|\s)([+-]\d+)\s", " " + text + " ")
    return int(m.group(1)) if m else 0


def _average(dice):
    m = re.match(r"d(\d+)", dice or "")
    return (int(m.group(1)) + 1) / 2 if m else 0.0


async def pickup_useful(
    nh,
    max_items: int = 20,
    take_gold: bool = True,
    take_food: bool = True,
    take_armor: bool = True,
    open_boxes: bool = True,
) -> SkillResult:
    """Pick up the things on this square worth carrying, lightest and most valuable first, and stop before getting Burdened.

    Takes: a pick-axe or dwarvish mattock first (each digs down through a level in
    a few turns); gold; wands, rings, amulets; potions and scrolls; safe light food
    (rations, fruit, cookies, lichen and lizard corpses — no other corpses, eggs,
    tins or tripe); daggers, knives, darts and shuriken for throwing, arrows or
    bolts only with a matching launcher, a melee weapon clearly better than the
    wielded one; armour better than what is worn in its slot (or for an empty slot;
    no body armour or shield for a Monk); useful tools (keys, lock picks, bags,
    lamps, unicorn horns, blindfolds, towels, whistles, mirrors, pick-axes); gems
    and glass. Never: boulders, statues, gray stones (one may be a loadstone),
    iron chains and balls, boxes, known-cursed things, or anything in a shop
    ("for sale"). Each item is one pick-up; one that would make the hero Burdened
    is left where it lies (lighter ones are still taken).

    A large box or chest alone on the square is opened first (with `open_boxes`)
    and what is worth carrying in it is taken out by the same rules; a locked
    one is forced (#force) only with a blunt weapon in hand (club, mace, hammer,
    staff, spear...), since a blade may snap. data.box says what came of it.

    Parameters:
        max_items (int, 20): most items to pick up.
        take_gold (bool, True), take_food (bool, True), take_armor (bool, True).
        open_boxes (bool, True): open a box or chest here and take from it.

    Stopped reasons: "picked_up" (success; data.items), "nothing_here",
    "nothing_useful" (data.left says why items were left), "burdened" (something
    was left as too heavy; data.items were taken), "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    taken = []
    left = {}
    infos = {}
    box = None  # what came of a box or chest here: "opened", "forced", "locked", "not opened"

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["items"] = taken
        if left:
            data["left"] = left
        if box:
            data["box"] = box
        data["encumbrance"] = s.encumbrance
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

    here = await nh.get_items_here()
    if not here:
        return await finish("nothing_here", False)

    inventory = await nh.get_inventory()
    equipment = await nh.get_equipment()
    monk = await nh.get_role() == "Monk" and equipment.get("weapon") is None
    launchers = set()
    for item in inventory:
        i = await info(item.text) if item.object_class == "weapon" else None
        if i is not None and i.skill in LAUNCHERS and not i.extra.get("ammo_or_missile"):
            launchers.add(i.skill)
    wielded = equipment.get("weapon")
    current = 1.5
    if wielded is not None:
        w = await info(wielded.text)
        current = (_average(w.damage_small) if w else 3.5) + _enchantment(wielded.text)

    async def judge(item):
        """(rank, reason) if worth taking, else (None, why not)."""
        text = item.text.lower()
        q = _query(item.text)
        if "for sale" in text or "unpaid" in text:
            return None, "in a shop"
        if item.blessed_cursed_unknown == "cursed":
            return None, "cursed"
        if any(q == j or q.endswith(" " + j) or q.startswith(j) or q.endswith(j + "s") for j in JUNK):
            return None, "junk or dangerous to carry"
        if "corpse" in q:
            if take_food and any(c in q for c in GOOD_CORPSES):
                return 3, "never-rotting food"
            return None, "corpse"
        i = await info(item.text)
        if i is None:
            return None, "unknown item"
        cls = i.object_class
        if cls == "coin":
            return (0, "gold") if take_gold else (None, "gold not wanted")
        if cls in ("wand", "ring", "amulet"):
            return 1, cls
        if cls in ("potion", "scroll"):
            return 2, cls
        if cls == "food":
            if not take_food or any(q == f or q.endswith(" " + f) or q.endswith(f + "s") for f in SKIP_FOOD):
                return None, "food not worth carrying"
            return 3, "food"
        if q.endswith("pick-axe") or q.endswith("dwarvish mattock"):
            return 1, "digs down through a level in a few turns"
        if cls == "weapon":
            kind = i.extra.get("ammo_or_missile")
            if kind == "ammunition":
                return (4, "ammunition for your launcher") if i.skill in launchers else (None, "no launcher")
            if kind == "missile" or i.skill in HAND_THROWN:
                return 4, "for throwing"
            if monk:
                return None, "martial arts beat weapons"
            better = _average(i.damage_small) + _enchantment(item.text) - current
            two_handed = i.extra.get("two_handed") and equipment.get("shield") is not None
            if better >= 1.5 and i.weight <= 120 and not two_handed:
                return 6, "better melee weapon"
            return None, "not better than your weapon"
        if cls == "armor":
            if not take_armor:
                return None, "armor not wanted"
            slot = i.armor_slot
            if slot is None:
                return None, "unknown armor"
            if monk and slot in ("body armor", "shield"):
                return None, "hinders a Monk's martial arts"
            worn = equipment.get(slot)
            if i.armor_class is None:
                return (7, "for an empty slot") if worn is None else (None, "unknown armor")
            value = i.armor_class + _enchantment(item.text)
            if worn is None:
                return 5, "for an empty slot"
            w = await info(worn.text)
            worn_value = (w.armor_class or 0 if w else 0) + _enchantment(worn.text)
            if value > worn_value:
                return 5, "better than your " + slot
            return None, "not better than your " + slot
        if cls == "tool":
            if any(q == t or q.endswith(t) for t in TOOLS):
                return 6, "useful tool"
            return None, "tool not worth carrying"
        if cls == "gem":
            return 7, "gem or glass"
        return None, "not worth carrying"

    boxes = [i for i in here if BOXES.search(i.text.lower()) and "for sale" not in i.text.lower()]
    if open_boxes and len(boxes) == 1:
        box = "opened"
        kind = BOXES.search(boxes[0].text.lower()).group(1)
        opened = await nh.loot(kind)
        actions += 1
        if not opened.success and "locked" in (opened.error or ""):
            box = "locked"
            info_w = await info(wielded.text) if wielded is not None else None
            if info_w is not None and info_w.skill in BLUNT:
                for _ in range(4):
                    res = await nh.force_lock()
                    actions += 1
                    if res.game_over:
                        return await finish("game_over", False)
                    if res.success or "interrupted" not in (res.error or ""):
                        break
                opened = await nh.loot(kind)
                actions += 1
                box = "forced" if opened.success else "locked"
        elif not opened.success:
            box = "not opened"
        if opened.success:
            wanted = []
            for item in opened.contents:
                rank, why = await judge(item)
                if rank is None:
                    left[item.text] = why + " (in the box)"
                else:
                    wanted.append(_query(item.text))
            if wanted:
                res = await nh.take_out(kind, wanted[:max_items])
                actions += 1
                if res.game_over:
                    return await finish("game_over", False)
                inside = {_query(i.text) for i in res.contents}
                taken.extend(w for w in wanted if w not in inside)
        here = await nh.get_items_here()  # a box bashed to pieces leaves its contents on the floor

    plan = []
    for item in here:
        rank, why = await judge(item)
        if rank is None:
            left[item.text] = why
        else:
            w = await info(item.text)
            plan.append((rank, w.weight if w else 10, item.text, why))
    plan.sort()
    if not plan:
        return await finish("picked_up", True) if taken else await finish("nothing_useful", False)

    burdened = start.encumbrance != "Unencumbered"
    too_heavy = False
    for rank, weight, text, why in plan[:max_items]:
        before = {i.slot: i.quantity for i in await nh.get_inventory()}
        res = await nh.pickup(text.lower())
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            if (res.error or "").startswith("too heavy"):
                left[text] = "too heavy"  # the API will not let a pick-up burden the hero
                too_heavy = True
            else:
                left[text] = res.error or "pick-up failed"
            continue
        taken.append(text)
        stats = await nh.get_stats()
        if stats.encumbrance != "Unencumbered" and not burdened:
            new = [i for i in await nh.get_inventory() if i.slot not in before]
            if new:
                drop = await nh.drop(new[0].slot)
                actions += 1
                if drop.game_over:
                    return await finish("game_over", False)
                if drop.success:
                    taken.pop()
                    left[text] = "too heavy"
            return await finish("burdened", bool(taken))
    if too_heavy:
        return await finish("burdened", bool(taken))
    return await finish("picked_up", True)
