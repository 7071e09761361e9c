CATEGORY = "navigation"
TRIGGERS = ("engulfed",)

# Bumping these is a melee attack, and their passive (paralysis, stoning, acid, fire,
# cold, an explosion) costs more than the fight gains: walk around them.
AVOID = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
         "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")



def _holes(level):
    """Known holes and trap doors: a way down when the stairs cannot be reached."""
    return [t.position for row in level.tiles for t in row if t.trap_type in ("hole", "trap door")]


async def descend(
    nh,
    hp_threshold: float = 0.5,
    force: bool = False,
    max_steps: int = 300,
    stop_on_hostile: bool = True,
    kick_locked_doors: bool = True,
    max_kicks: int = 8,
) -> SkillResult:
    """Go to the down stairs of this level and go down them (refuses when HP is low unless forced).

    Walks to the known down staircase (or ladder) like go_to_stairs — around
    floating eyes and peaceful monsters, kicking locked doors open — and presses
    '>'. When no stairs are known or they cannot be reached, a known hole or trap
    door serves instead (data.via says which). Arriving on a new level
    with little HP is how characters die, so with HP below `hp_threshold` of max it
    refuses unless `force` is set. A hostile adjacent on the way stops it (unless
    stop_on_hostile is False); once on the stairs it goes down even with a monster
    next to it (monsters adjacent may follow).

    Parameters:
        hp_threshold (float, 0.5): refuse below this fraction of max HP.
        force (bool, False): go down even with low HP (e.g. to flee).
        max_steps (int, 300): budget of game actions for the walk.
        stop_on_hostile (bool, True): stop the walk when a hostile is adjacent.
        kick_locked_doors (bool, True), max_kicks (int, 8): kick a locked door on the
            way open (never a shop's: "door_locked" then).

    Stopped reasons: "descended" (success; data.depth is the new depth),
    "hp_too_low", "stairs_unknown", "hostile_adjacent", "no_path", "blocked",
    "door_locked", "failed" (the stairs did not take the hero down), "budget",
    "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    depth0 = start.dungeon_level
    here = (start.branch, start.level_in_branch)
    actions = 0
    stuck = 0
    waited = 0
    kicks = 0
    memory = WalkAroundMemory(AVOID)  # things not to bump, where last seen

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["depth"] = s.dungeon_level
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    if start.hp < start.max_hp * hp_threshold and not force:
        return await finish("hp_too_low", False, hp=start.hp, max_hp=start.max_hp,
                            hint="rest (rest_until_healed) or pass force=True")
    if (await nh.get_current_level()).stairs_down is None:
        await nh.reveal_terrain()  # stairs with an object lying on them show as the object
    level = await nh.get_current_level()
    target = level.stairs_down
    if target is None:
        look = await nh.look_here()  # the square under the hero is not on the map yet
        actions += 1
        if look.stairs == "down":
            target = start.position
    via = "stairs"
    if target is None:
        # No stairs known: a known hole or trap door also leads down.
        hole = await nh.find_nearest_of(_holes(level), traps="risky", avoid_monsters=False)
        if hole is None:
            return await finish("stairs_unknown", False, explored_percentage=round(level.explored_percentage, 1))
        target, via = hole, "hole"

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
        if (stats.branch, stats.level_in_branch) != here:
            if stats.dungeon_level > depth0:
                return await finish("descended", True, via=via if via == "hole" else "fell on the way")
            return await finish("failed", False, error="the level changed on the way")
        if hero == target:
            res = await nh.go_down()  # on a trap door or hole, '>' jumps in
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            after = await nh.get_stats()
            if (after.branch, after.level_in_branch) != here or after.dungeon_level != depth0:
                return await finish("descended", True, branch=after.branch, via=via)
            return await finish("failed", False, error=res.error, messages=res.messages)
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
            if not route and via == "stairs":
                holes = _holes(await nh.get_current_level())
                hole = await nh.find_nearest_of(holes, avoid=avoid, traps="risky", avoid_monsters=False)
                if hole is not None:
                    target, via = hole, "hole"  # the stairs cannot be reached; a hole leads down too
                    continue
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
