CATEGORY = "navigation"
TRIGGERS = ("low_hp", "level_change", "engulfed")

# Bumping these is a melee attack, and their passive (paralysis, stoning, acid, fire,
# cold, an explosion) costs more than the fight gains: walk around them.
AVOID = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
         "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")



async def go_to(
    nh,
    x: int,
    y: int,
    max_steps: int = 200,
    stop_on_hostile: bool = True,
    hp_threshold: float = 0.0,
) -> SkillResult:
    """Walk to a square of the current level, around floating eyes and peaceful monsters.

    Re-plans every step over the remembered map (nh.move_to, which opens closed
    doors on the way). A floating eye, cockatrice or peaceful monster on the route
    is walked around, never bumped; if it blocks the only way (a corridor) the skill
    stops with "blocked" rather than attack it. A locked door on the route stops it
    with "door_locked" (kick it with nh.kick, or use explore_level, which does).

    Parameters:
        x, y (int): the target square (map column 0..78, row 0..20).
        max_steps (int, 200): budget of game actions.
        stop_on_hostile (bool, True): stop when a hostile monster (not a floating
            eye) is adjacent; with False the hero attacks whatever blocks the way.
        hp_threshold (float, 0.0): stop when HP falls below this fraction of max.

    Stopped reasons: "arrived" (success), "hostile_adjacent", "no_path", "blocked",
    "door_locked", "low_hp", "level_changed", "budget", "game_over", "bad_target".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    here = (start.branch, start.level_in_branch)
    actions = 0
    stuck = 0
    waited = 0
    memory = WalkAroundMemory(AVOID)  # things not to bump, where last seen

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["position"] = (s.position.x, s.position.y) if s.position else None
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    try:
        target = Position(int(x), int(y))
    except (TypeError, ValueError):
        target = Position(-1, -1)
    if not (0 <= target.x <= 78 and 0 <= target.y <= 20):
        return await finish("bad_target", False, error=f"({x}, {y}) is off the map: x must be 0..78, y 0..20")

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
            return await finish("arrived", True)
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("level_changed", False, depth=stats.dungeon_level)
        if stats.hp < stats.max_hp * hp_threshold:
            return await finish("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        monsters = await nh.get_visible_monsters()
        near = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.name not in AVOID
                and m.position.is_adjacent(hero)]
        if stop_on_hostile:
            if near:
                m = near[0]
                return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        avoid = memory.update(monsters, hero, stats.turn) - {target}
        res, d = await step_toward(avoid)
        if res is None:
            blockers = memory.names_at(avoid)
            route = await nh.find_path(target, traps="risky", avoid_monsters=False)  # a way past them?
            if not route or not blockers:
                return await finish("no_path", False)
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
            stuck = 0 if moved or near else stuck + 1  # fighting through a monster is progress
        else:
            if "locked" in (res.error or "").lower() and d:
                door = hero.offset(d)
                return await finish("door_locked", False, door=(door.x, door.y), direction=d)
            stuck += 1
        if stuck >= 8:
            return await finish("blocked", False, error=res.error)
    return await finish("budget", False)
