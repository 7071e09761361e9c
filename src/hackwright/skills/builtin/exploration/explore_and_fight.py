"""Explore the level and fight the weak monsters that get in the way, until the level is done.

One call covers most of a level: the hero walks to frontiers, opens doors, kicks
locked ones (unless a shop is mentioned), and melees hostile monsters that come
next to it, so the strategist is asked again only when something needs a decision.

Parameters:
    hp_threshold: stop when HP falls below this fraction of max (default 0.4)
    budget: the most game actions to spend (default 800)
    danger_margin: a monster whose difficulty exceeds the hero's level by more
        than this stops the skill instead of being fought (default 4)

Stopped reasons: "level_done" (success; no frontier left; data.stairs_down),
"low_hp", "hungry", "dangerous_monster" (a floating eye, cockatrice or a much
stronger monster is next to the hero), "items_here" (standing on objects not
looked at yet), "stuck", "level_changed", "budget", "game_over".
"""

CATEGORY = "exploration"
TRIGGERS = ("low_hp", "engulfed")

NEVER_MELEE = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
               "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")


async def explore_and_fight(nh, hp_threshold: float = 0.4, budget: int = 800, danger_margin: int = 4,
                            known_piles: list = ()):
    """Explore the level and fight the weak monsters that get in the way, until the level is done.

    known_piles: [x, y] squares whose objects were already dealt with (no stop there).
    """
    start = await nh.get_stats()
    turn0 = start.turn
    depth0 = start.dungeon_level
    actions = 0
    stuck = 0
    kicks = 0
    seen_piles = set()
    for p in known_piles or ():
        if len(p) == 2:
            seen_piles.add((p[0], p[1], start.dungeon_level))
    last_pos = None

    async def done(reason, success, **data):
        now = await nh.get_stats()
        return SkillResult(reason, data, actions, now.turn - turn0, success)

    while actions < budget:
        stats = await nh.get_stats()
        if stats.hp <= 0:
            return await done("game_over", False)
        if stats.dungeon_level != depth0:
            return await done("level_changed", True, depth=stats.dungeon_level)
        if stats.hp < stats.max_hp * hp_threshold:
            return await done("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        if stats.hunger.severity >= HungerState.HUNGRY.severity:
            return await done("hungry", False, hunger=stats.hunger.value)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame]
        adjacent = [m for m in hostile if m.position.is_adjacent(hero)]
        risky = [m for m in adjacent if m.name in NEVER_MELEE or m.threat_level > stats.xp_level + danger_margin]
        if risky:
            m = risky[0]
            return await done("dangerous_monster", False, monster=m.name, at=m.position)
        if adjacent:
            target = min(adjacent, key=lambda m: m.threat_level)
            result = await nh.attack(hero.direction_to(target.position))
            actions += 1
            if result.game_over:
                return await done("game_over", False)
            if not result.success:
                await nh.search()  # e.g. diagonal out of a doorway: let it come to us
                actions += 1
            continue
        # Objects walked onto during this run: let the strategist decide what to take
        # (corpses and rocks alone are not worth a decision).
        here = (hero.x, hero.y, stats.dungeon_level)
        if last_pos is not None and last_pos != hero and here not in seen_piles:
            msgs = " ".join(await nh.get_messages(3))
            if "You see here" in msgs or "Things that are here" in msgs or "objects here" in msgs:
                seen_piles.add(here)
                items = await nh.get_items_here()
                worth = [i.name for i in items if i.corpse_of is None and i.object_class not in ("rock", "ball", "chain")]
                if worth:
                    return await done("items_here", True, at=hero, items=worth)
        last_pos = hero
        target = await nh.find_unexplored()
        if target is None:
            level = await nh.get_current_level()
            return await done("level_done", True, stairs_down=level.stairs_down,
                              explored_percentage=round(level.explored_percentage, 1))
        result = await nh.move_to(target)
        actions += 1
        if result.game_over:
            return await done("game_over", False)
        if result.success:
            stuck = 0
            continue
        error = (result.error or "").lower()
        text = " ".join(result.messages).lower()
        if "locked" in error and kicks < 8 and "shop" not in text and "closed for inventory" not in text:
            path = await nh.find_path(target)
            if path:
                await nh.kick(path[0])
                actions += 1
                kicks += 1
                continue
        stuck += 1
        if stuck > 6:
            return await done("stuck", False, target=target, error=result.error)
        await nh.search()
        actions += 1
    return await done("budget", False)
