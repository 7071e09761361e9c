import re

CATEGORY = "inventory"
TRIGGERS = ("monster", "engulfed")

# Dropped first: worth nothing to a hero, and heavy.
JUNK = ("rock", "stone", "iron chain", "heavy iron ball", "boulder", "statue", "large box", "chest", "ice box")
# Tools worth their weight: never dropped here.
KEEP_TOOLS = ("key", "lock pick", "credit card", "bag", "sack", "unicorn horn", "blindfold", "towel",
              "magic marker", "stethoscope", "lamp", "lantern", "mirror", "whistle")
HAND_THROWN = ("dagger", "knife", "dart", "shuriken", "spear", "javelin")
# A digging tool takes the hero down a level in a few turns and through any gap it
# cannot squeeze by: worth any weight (a mattock counts as a weapon).
DIGGERS = ("pick-axe", "dwarvish mattock", "broad pick")


def _query(text):
    q = text.lower()
    q = re.sub(r"\s*\([^)]*\)", "", q)
    q = re.sub(r"\s+(named|called) .*$", "", q)
    q = re.sub(r"^((an?|the|\d+|blessed|uncursed|cursed|partly eaten|[+-]\d+)\s+)+", "", q.strip())
    return q.replace("pair of ", "").replace("set of ", "").strip()


async def lighten_load(nh, max_drops: int = 12, squeeze: bool = False) -> SkillResult:
    """Drop what the hero does not need until it is no longer Burdened, heaviest junk first.

    A Burdened hero moves at three quarters of its speed (every monster gets more
    blows in), cannot squeeze diagonally between two rock corners ("You are carrying
    too much to get through": heroes were shut in so and starved), and Stressed
    heroes do not regain hit points. Nothing is dropped while unencumbered.

    Order: rocks and stones (a cursed loadstone will not leave: reported), chains,
    balls and boxes; corpses other than lichen and lizard; armour not worn; weapons
    not in hand that are neither missiles (daggers, darts, spears) nor ammunition
    for a carried launcher, nor a launcher with its ammunition; heavy tools other
    than keys, bags, unicorn horns, lamps and the like. Heaviest first within each
    group. Worn, wielded and quivered things (the alternate weapon too, except to
    squeeze through or when the load pins the hero down), a pick-axe or mattock (it
    digs down, and through any gap too narrow to squeeze by), food, potions, scrolls,
    wands, rings, amulets, gems and gold stay.
    Nothing is dropped with a hostile monster adjacent, or with a shopkeeper within
    8 squares (inside a shop it would be sold) — except when the hero is Overtaxed
    or Overloaded and cannot move, fight or eat (a lycanthrope in animal form carries
    little): then quivered missiles and a sling's stones go first too.

    Parameters:
        max_drops (int, 12): most stacks to drop.
        squeeze (bool, False): also drop (in the same order) until the load is at
            most 600 weight units, the most NetHack lets through a diagonal gap
            between two rock corners, even when not Burdened; then the alternate
            weapon goes with the other weapons, and a launcher not in hand with
            its ammunition goes last of all.

    Stopped reasons: "unburdened" (success; data.dropped), "not_burdened" (light
    enough already),
    "still_burdened" (nothing more this skill would drop; data.dropped, data.heaviest
    lists what is left), "hostile_adjacent", "in_shop" (a shopkeeper close by),
    "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    dropped = []

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["dropped"] = dropped
        data["encumbrance"] = s.encumbrance
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    if start.encumbrance == "Unencumbered" and not squeeze:
        return await finish("not_burdened", False)
    # Overtaxed or Overloaded, the hero cannot move, fight or even eat (a lycanthrope
    # turned into a rat is so with a Caveman's flint stones): dropping is all it can
    # do, monster or shop or not, and ammunition goes too.
    stuck = start.encumbrance in ("Overtaxed", "Overloaded")
    hero = start.position
    monsters = await nh.get_visible_monsters()
    adjacent = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(hero)]
    if adjacent and not stuck:
        return await finish("hostile_adjacent", False, monster=adjacent[0].name)
    if any(m.name == "shopkeeper" and m.position.steps_to(hero) <= 8 for m in monsters) and not stuck:
        return await finish("in_shop", False)  # maybe inside: what is dropped there is sold

    infos = {}

    async def weight(item):
        q = _query(item.text or item.name)
        if q not in infos:
            try:
                infos[q] = await nh.lookup_item(q)
            except Exception:
                infos[q] = None
        i = infos[q]
        return (i.weight if i is not None else 10) * max(1, item.quantity), i

    inventory = await nh.get_inventory()
    carried = " ".join((i.name or "").lower() for i in inventory)
    launchers = {"bow": ("arrow",), "yumi": ("ya",), "crossbow": ("crossbow bolt",), "sling": ("rock", "flint")}
    ammo_kept = tuple(a for launcher, ammo in launchers.items()
                      if re.search(r"\b" + launcher + r"\b", carried) for a in ammo if a != "rock")

    async def group(item):
        """0-4: the order to drop in; None to keep."""
        name = (item.name or "").lower()
        text = (item.text or "").lower()
        quivered = item.equipped == "quiver" or "(in quiver" in text or "at the ready" in text
        if stuck and quivered and "for sale" not in text:
            return 0
        spare = item.equipped == "alternate weapon" and (squeeze or stuck)  # the weapon in reserve
        in_hand = (item.equipped or "").startswith("weapon")
        if squeeze and not stuck and not in_hand and "for sale" not in text and item.object_class == "weapon" and (
                any(re.search(r"\b" + a, name) for a in ammo_kept) or any(name.endswith(k) for k in launchers)):
            # The last resort for a gap: a launcher not in hand and its ammunition (a
            # Samurai's yumi and ya) go after all else, only if the load is still over 600.
            return 5
        if item.equipped and not spare or quivered or "for sale" in text or any(d in name for d in DIGGERS):
            return None
        if item.object_class in ("coin", "food", "potion", "scroll", "wand", "ring", "amulet", "spellbook"):
            if item.object_class == "food" and item.corpse_of is not None and item.corpse_of not in (
                    "lichen", "lizard"):
                return 1
            return None
        if any(re.search(r"\b" + j, name) for j in JUNK):
            if any(a in name for a in ammo_kept) and not stuck:
                return None  # flint stones for a sling
            return 0
        if item.object_class == "gem":
            return None
        if item.object_class == "armor":
            return 2
        if item.object_class == "weapon":
            if any(w in name for w in HAND_THROWN) or any(a in name for a in ammo_kept):
                return None
            _, i = await weight(item)
            if i is not None and i.extra.get("ammo_or_missile"):
                return None
            launcher = next((k for k in launchers if name.endswith(k)), None)
            if launcher is not None and any(a in carried for a in launchers[launcher]):
                return None  # a bow with its arrows
            return 3
        if item.object_class == "tool":
            if any(t in name for t in KEEP_TOOLS):
                return None
            return 4
        return None

    async def load():
        total = 0
        for item in await nh.get_inventory():
            w, _ = await weight(item)
            total += w
        return total + (await nh.get_stats()).gold // 100

    async def light_enough():
        if (await nh.get_stats()).encumbrance != "Unencumbered":
            return False
        return not squeeze or await load() <= 600

    if await light_enough():
        return await finish("not_burdened", False)
    plan = []
    for item in inventory:
        g = await group(item)
        if g is not None:
            w, _ = await weight(item)
            plan.append((g, -w, item.slot, item.text or item.name))
    plan.sort()
    for g, w, slot, text in plan[:max_drops]:
        res = await nh.drop(slot)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if res.success:
            dropped.append(text)
        if await light_enough():
            return await finish("unburdened", True)
    left = []
    for item in await nh.get_inventory():
        w, _ = await weight(item)
        left.append((w, item.text or item.name))
    left.sort(reverse=True)
    return await finish("still_burdened", bool(dropped), heaviest=[t for _, t in left[:4]])
