CATEGORY = "resource"
TRIGGERS = ("low_hp", "engulfed")

MIN_LEVEL = 5  # fountain.c: the Lady of the Lake answers heroes of experience level 5 or more
BLESSED_BY_THE_LADY = "reaches up to bless the sword"
# What a dip can let loose (fountain.c dipfountain): a water demon, a water nymph, snakes.
RELEASED = ("water demon", "water nymph", "water moccasin", "snakes")
DRIED = "dries up"  # the map still shows the fountain until the hero steps off it


def _long_sword(inventory):
    """The one long sword carried (not a stack of them, not an artifact already), or None."""
    swords = [i for i in inventory if i.object_class == "weapon" and "long sword" in (i.name or i.text)
              and (i.quantity or 1) == 1 and "unpaid" not in i.text]
    return None if not swords or any("Excalibur" in s.text for s in swords) else swords[0]


async def dip_for_excalibur(nh, max_steps: int = 60, max_dips: int = 30, monster_radius: int = 2) -> SkillResult:
    """Make the carried long sword Excalibur by dipping it into this level's fountains.

    A lawful hero of experience level 5 or more who dips a long sword into a
    fountain gets Excalibur one time in six: the sword is blessed, made
    rustproof, and hits for 1d10 more damage and 1d5 more to-hit against
    everything (Knights and lawful Valkyries start with a long sword). Other
    dips rust the sword a little, and one time in three the fountain dries up;
    one dip in ten lets something out (a water demon, a water nymph who steals,
    water moccasins). Walks to the nearest fountain in view of the map (never
    on a level with the town watch: a dried fountain in Minetown angers it),
    dips until Excalibur or the fountain dries, then tries the next fountain.
    Wields Excalibur if the sword was not in hand. A hostile monster within
    ``monster_radius`` stops it (not one as slow as a floating eye or a mold).

    Parameters:
        max_steps (int, 60): most steps to walk to the fountains.
        max_dips (int, 30): most dips in all.
        monster_radius (int, 2): a hostile this close stops the skill.

    Stopped reasons: "excalibur" (success; data.sword), "have_excalibur"
    (success, nothing done), "not_lawful", "too_low_level" (data.xl),
    "no_long_sword", "no_fountain" (none known on this level, or all dried:
    data.dips), "town_watch", "monster" (data.monster, e.g. a water demon let
    out), "blocked" (could not walk to a fountain), "failed" (data.error),
    "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    dips = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data.setdefault("dips", dips)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def hostile_near(monsters, hero):
        """Hostiles within ``monster_radius`` that can come at the hero: a floating eye, a
        lichen or a mold (speed 0-1) by the fountain is no reason to stop."""
        close = []
        for m in monsters:
            if m.is_peaceful or m.is_tame or m.position.steps_to(hero) > monster_radius:
                continue
            try:
                if (await nh.lookup_monster(m.name)).speed <= 1:
                    continue
            except Exception:
                pass  # an unknown or unseen monster counts
            close.append(m)
        return close

    inventory = await nh.get_inventory()
    if any(i.object_class == "weapon" and "Excalibur" in i.text for i in inventory):
        return await finish("have_excalibur", True)
    if start.alignment != Alignment.LAWFUL:
        return await finish("not_lawful", False)
    if start.xp_level < MIN_LEVEL:
        return await finish("too_low_level", False, xl=start.xp_level)
    sword = _long_sword(inventory)
    if sword is None:
        return await finish("no_long_sword", False)
    level = await nh.get_current_level()
    if level.town_watch:
        return await finish("town_watch", False)
    steps = 0
    dried = set()
    target = None  # the fountain walked to; chosen again once it dries
    while dips < max_dips:
        stats = await nh.get_stats()
        if stats.hp <= 0:
            return await finish("game_over", False)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        close = await hostile_near(monsters, hero)
        if close:
            return await finish("monster", dips > 0, monster=close[0].name)
        if hero == target and hero not in dried:
            res = await nh.dip(sword.slot, "fountain")
            actions += 1
            dips += 1
            if res.game_over:
                return await finish("game_over", False)
            said = " ".join(res.messages)
            if not res.success and "no fountain" in (res.error or ""):
                dried.add(hero)
                continue
            if not res.success:
                return await finish("failed", False, error=res.error or said)
            if BLESSED_BY_THE_LADY in said:
                inventory = await nh.get_inventory()
                blade = next((i for i in inventory if "Excalibur" in i.text), None)
                if blade is not None and not (blade.equipped or "").startswith("weapon"):
                    await nh.wield(blade.slot)
                    actions += 1
                return await finish("excalibur", True, sword=blade.text if blade else sword.text)
            let_out = [w for w in RELEASED if w in said]
            if let_out:
                return await finish("monster", False, monster=let_out[0])
            if DRIED in said:
                dried.add(hero)
            inventory = await nh.get_inventory()
            sword = next((i for i in inventory if i.slot == sword.slot), None)
            if sword is None or _long_sword([sword]) is None:
                return await finish("no_long_sword", False)  # a nymph took it, or it is gone
            continue
        if target is None or target in dried:
            # (The map and the walk distances are read only when a fountain is chosen:
            # move_to plans each step itself.)
            level = await nh.get_current_level()
            fountains = [t.position for row in level.tiles for t in row if t.feature == "fountain"
                         and t.position not in dried]
            if not fountains:
                return await finish("no_fountain", False)
            reach = level.walk_distances(hero, max_steps - steps)
            fountains = [p for p in fountains if p in reach]
            if not fountains:
                return await finish("blocked", False)
            target = min(fountains, key=lambda p: reach[p])
            if hero == target:
                continue
        if steps >= max_steps:
            return await finish("blocked", False)
        res = await nh.move_to(target)
        actions += 1
        steps += 1
        if res.game_over:
            return await finish("game_over", False)
        if not res.success:
            return await finish("blocked", False, error=res.error)
    return await finish("no_fountain", False)
