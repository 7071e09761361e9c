CATEGORY = "resource"
TRIGGERS = ("engulfed",)

SKIP_FOOD = ("egg", "tin", "tripe ration", "lump of royal jelly")
NEVER_ROT = ("lichen", "lizard")


def _base_name(item):
    name = item.name.lower()
    for word in ("uncursed ", "blessed ", "cursed ", "partly eaten "):
        name = name.replace(word, "")
    return name.strip()


def _skip(item):
    name = _base_name(item)
    if "for sale" in item.text or "unpaid" in item.text:
        return True
    return any(name == s or name.startswith(s + "s") or name.endswith(" " + s) or name.endswith(" " + s + "s")
               for s in SKIP_FOOD)


async def eat_when_hungry(
    nh,
    force: bool = False,
    allow_floor: bool = True,
    max_walk: int = 8,
    corpses_only: bool = False,
) -> SkillResult:
    """When Hungry or worse, eat something safe: a fresh safe corpse here or nearby, else the best food carried.

    A corpse is eaten only if nh.is_safe_to_eat(name, turns_old, starving=True) says
    so (when Weak or worse that accepts a dog or cat, and a poisonous corpse with
    more than 15 HP: lesser harms than fainting to death). Its age comes from
    the API's own memory of the deaths the hero saw (nh.corpse_age), whoever
    killed the monster and whichever skill or key did it: a corpse no death was
    seen for counts as old, so of those only lichen and lizard corpses (which
    never rot) are eaten. A corpse carried in the pack counts as old too. A
    fresh safe corpse of a kill up to `max_walk` steps away is walked to (not
    past hostile monsters). Eggs and tins
    are left alone (an egg may be a cockatrice's; a tin takes long to open).
    Otherwise the hero eats carried food: the most nutritious when Weak or
    worse, else the smallest that is not a snack (rations last longer that way).
    Items in a shop ("for sale") are not eaten.

    Parameters:
        force (bool, False): eat even when not hungry (never when Satiated).
        allow_floor (bool, True): consider food on the floor.
        max_walk (int, 8): farthest (steps) to walk to a fresh corpse.
        corpses_only (bool, False): only fresh corpses on the floor, never carried food
            (with force=True: eat a kill while it is fresh, keep the rations for later).

    Stopped reasons: "ate" (success; data.food, data.source, data.hunger after),
    "not_hungry", "no_safe_food" (data.hint says whether praying may help),
    "hostile_adjacent" (met on the way to a corpse), "failed", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["hunger"] = s.hunger.value
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def corpse_ok(species, pos):
        age = None if pos is None else await nh.corpse_age(pos, species)
        try:
            # Weak or worse: a dog's aggravation or a kobold's poison beats fainting to death.
            return await nh.is_safe_to_eat(species, 100000 if age is None else age, starving=True)
        except Exception:
            return False

    async def eat_here():
        """Eat the first acceptable food on this square: (name eaten or None, ActionResult or None)."""
        nonlocal actions
        here = await nh.get_position()
        for item in await nh.get_items_here():
            if item.object_class != "food" or _skip(item) or corpses_only and not item.corpse_of:
                continue
            if item.corpse_of:
                if not await corpse_ok(item.corpse_of, here):
                    continue
                wanted = item.corpse_of + " corpse"
            else:
                wanted = _base_name(item).split(" named ")[0]
                if wanted.endswith("s") and item.quantity > 1:
                    wanted = wanted[:-1]
            res = await nh.eat(floor_item=wanted)
            actions += 1
            if res.game_over:
                return None, res
            if res.success:
                return wanted, res
        return None, None

    severity = start.hunger.severity
    if start.hunger == HungerState.SATIATED or (severity < HungerState.HUNGRY.severity and not force):
        return await finish("not_hungry", False)

    # 1. Food on this square: free, and a corpse will rot anyway.
    if allow_floor:
        eaten, res = await eat_here()
        if res is not None and res.game_over:
            return await finish("game_over", False)
        if eaten:
            return await finish("ate", True, food=eaten, source="floor")

    # 2. A fresh safe corpse a few steps away: where the monsters seen dying on this level died.
    if allow_floor and max_walk > 0:
        hero = start.position
        spots = []
        for kill in await nh.recent_kills(50):
            where = kill.position
            if where is None or kill.dungeon_level != start.dungeon_level or kill.branch != start.branch or \
                    where in spots or not 0 < where.steps_to(hero) <= max_walk:
                continue
            for item in await nh.get_items_at(where):
                if item.corpse_of and await corpse_ok(item.corpse_of, where):
                    spots.append(where)
                    break
        goal = await nh.find_nearest_of(spots) if spots else None
        path = await nh.find_path(goal) if goal is not None else []
        if goal is not None and path and len(path) <= max_walk:
            for _ in range(max_walk + 4):
                here = await nh.get_position()
                if here == goal:
                    break
                mons = await nh.get_visible_monsters()
                near = [m for m in mons if not m.is_peaceful and not m.is_tame and m.position.is_adjacent(here)]
                if near:
                    return await finish("hostile_adjacent", False, monster=near[0].name)
                step = await nh.find_path(goal)
                if not step or any(m.position == here.offset(step[0]) and not m.is_tame for m in mons):
                    break
                res = await nh.move(step[0])
                actions += 1
                if res.game_over:
                    return await finish("game_over", False)
                if not res.success:
                    break
            if await nh.get_position() == goal:
                eaten, res = await eat_here()
                if res is not None and res.game_over:
                    return await finish("game_over", False)
                if eaten:
                    return await finish("ate", True, food=eaten, source="floor", walked_to=(goal.x, goal.y))

    if corpses_only:
        return await finish("no_safe_food", False, hint="no fresh safe corpse within reach")
    # 3. Carried food.
    food = []
    for item in await nh.get_inventory():
        if item.object_class != "food" or _skip(item):
            continue
        if item.corpse_of and not await corpse_ok(item.corpse_of, None):
            continue
        try:
            nutrition = (await nh.lookup_item(_base_name(item))).nutrition or 0
        except Exception:
            nutrition = 0
        if item.corpse_of:
            try:
                nutrition = (await nh.lookup_monster(item.corpse_of)).corpse_nutrition
            except Exception:
                nutrition = 0
        food.append((nutrition, item))
    if not food:
        hint = "pray (pray_when_safe) if Weak" if severity >= HungerState.WEAK.severity else "find or kill food"
        return await finish("no_safe_food", False, hint=hint)
    corpses = [f for f in food if f[1].corpse_of]
    pool = corpses or food  # perishables first
    if severity >= HungerState.WEAK.severity:
        nutrition, item = max(pool, key=lambda f: f[0])
    else:
        nutrition, item = min(pool, key=lambda f: (f[0] < 50, f[0]))  # small but not a snack
    res = await nh.eat(item.slot)
    actions += 1
    if res.game_over:
        return await finish("game_over", False)
    if not res.success:
        return await finish("failed", False, food=item.name, error=res.error)
    return await finish("ate", True, food=item.name, nutrition=nutrition, source="inventory")
