CATEGORY = "navigation"
TRIGGERS = ("engulfed",)


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

    walk = CarefulWalk(nh, target, kick_locked_doors=kick_locked_doors, max_kicks=max_kicks)

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
        near = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.name not in NEVER_BUMP
                and m.position.is_adjacent(hero)]
        if stop_on_hostile and near:
            m = near[0]
            return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        step = await walk.step(hero, monsters, stats.turn)
        actions += step.actions
        if step.outcome == "no_path" and not step.route_known and via == "stairs":
            hole = await nh.find_nearest_of(_holes(await nh.get_current_level()), avoid=step.avoided,
                                            traps="risky", avoid_monsters=False)
            if hole is not None:
                target, via = hole, "hole"  # the stairs cannot be reached; a hole leads down too
                walk.target = hole
                continue
        if step.ends_walk:
            return await finish(step.ends_walk[0], False, stairs=(target.x, target.y), **step.ends_walk[1])
        if step.outcome in ("waited", "kicked"):
            continue
        stuck = 0 if step.outcome == "moved" and (step.moved or near) else stuck + 1
        if stuck >= 8:
            return await finish("blocked", False, error=step.error)
    return await finish("budget", False)
