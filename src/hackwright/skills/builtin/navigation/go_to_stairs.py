CATEGORY = "navigation"
TRIGGERS = ("low_hp", "level_change", "engulfed")

# Bumping these is a melee attack, and their passive (paralysis, stoning, acid, fire,
# cold, an explosion) costs more than the fight gains: walk around them.
AVOID = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
         "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")



async def go_to_stairs(
    nh,
    direction: str = "down",
    max_steps: int = 300,
    stop_on_hostile: bool = True,
    kick_locked_doors: bool = True,
    max_kicks: int = 8,
) -> SkillResult:
    """Walk to the known down (or up) staircase of this level, around floating eyes and peaceful monsters.

    Uses the stairs the hero has seen (DungeonLevel.stairs_down / stairs_up; a
    ladder counts). Walks like go_to: re-plans each step, opens doors, never bumps
    a floating eye, cockatrice or peaceful monster, stops when a hostile is
    adjacent (unless stop_on_hostile is False). It does not take the stairs: use
    descend, or nh.go_down() / nh.go_up() once there.

    Parameters:
        direction (str, "down"): "down" or "up".
        max_steps (int, 300): budget of game actions.
        stop_on_hostile (bool, True): stop when a hostile monster is adjacent.
        kick_locked_doors (bool, True), max_kicks (int, 8): kick a locked door on the
            way open (never a shop's: "door_locked" then).

    Stopped reasons: "arrived" (success), "stairs_unknown" (explore first),
    "hostile_adjacent", "no_path", "blocked", "door_locked", "level_changed",
    "budget", "game_over", "bad_direction".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    here = (start.branch, start.level_in_branch)
    actions = 0
    stuck = 0
    waited = 0
    kicks = 0
    memory = WalkAroundMemory(AVOID)  # things not to bump, where last seen

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["position"] = (s.position.x, s.position.y) if s.position else None
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    way = str(direction).strip().lower()
    way = {"<": "up", ">": "down", "u": "up", "d": "down"}.get(way, way)
    if way not in ("up", "down"):
        return await finish("bad_direction", False, error=f"direction must be 'down' or 'up', not {direction!r}")
    level = await nh.get_current_level()
    target = level.stairs_down if way == "down" else level.stairs_up
    if target is None:
        # The square under the hero is not on the map until he steps off it (e.g. the up
        # stairs he arrived by): look.
        look = await nh.look_here()
        actions += 1
        if look.stairs == way:
            target = start.position
    if target is None:
        return await finish("stairs_unknown", False, direction=way,
                            explored_percentage=round(level.explored_percentage, 1))

    async def step_toward(avoid):
        # Never into an avoided square; round known traps, else over harmless ones, else
        # over any but the deadly ones (traps="risky").
        path = await nh.find_path(target, avoid=avoid, traps="risky")
        if not path:
            return None, None
        return await nh.move_to(target, avoid=avoid, traps="risky"), path[0]

    while actions < max_steps:
        stats = await nh.get_stats()
        hero = stats.position
        if hero == target:
            return await finish("arrived", True, stairs=(target.x, target.y), direction=way)
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("level_changed", False, depth=stats.dungeon_level)
        monsters = await nh.get_visible_monsters()
        near = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.name not in AVOID
                and m.position.is_adjacent(hero)]
        if stop_on_hostile and near:
            m = near[0]
            return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        avoid = memory.update(monsters, hero, stats.turn) - {target}
        res, d = await step_toward(avoid)
        if res is None:
            blockers = memory.names_at(avoid)
            route = await nh.find_path(target, traps="risky", avoid_monsters=False)  # a way past them?
            if not route or not blockers:
                return await finish("no_path", False, stairs=(target.x, target.y))
            if any(n not in AVOID for n in blockers) and waited < 8:
                res = await nh.search()  # a peaceful monster is in the way: give it time to wander off
                actions += 1
                waited += 1
                if res.game_over:
                    return await finish("game_over", False)
                continue
            return await finish("blocked", False, blocked_by=blockers)
        actions += 1
        if res.game_over:
            return await finish("game_over", False)
        if res.success:
            moved = (await nh.get_position()) != hero
            stuck = 0 if moved or near else stuck + 1
        else:
            if "locked" in (res.error or "").lower() and d:
                door = hero.offset(d)
                text = " ".join(await nh.get_messages(20)).lower()
                shop = "closed for inventory" in text or any(m.name == "shopkeeper" for m in monsters)
                if shop or not kick_locked_doors or kicks >= max_kicks:
                    return await finish("door_locked", False, door=(door.x, door.y), direction=d, shop=shop)
                kick = await nh.kick(d)  # a locked door on the way: kick it in
                actions += 1
                kicks += 1
                if kick.game_over:
                    return await finish("game_over", False)
                continue
            stuck += 1
        if stuck >= 8:
            return await finish("blocked", False, error=res.error)
    return await finish("budget", False)
