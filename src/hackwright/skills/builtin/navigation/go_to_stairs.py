CATEGORY = "navigation"
TRIGGERS = ("low_hp", "level_change", "engulfed")


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

    walk = CarefulWalk(nh, target, kick_locked_doors=kick_locked_doors, max_kicks=max_kicks)

    while actions < max_steps:
        stats = await nh.get_stats()
        hero = stats.position
        if hero == target:
            return await finish("arrived", True, stairs=(target.x, target.y), direction=way)
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("level_changed", False, depth=stats.dungeon_level)
        monsters = await nh.get_visible_monsters()
        near = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.name not in NEVER_BUMP
                and m.position.is_adjacent(hero)]
        if stop_on_hostile and near:
            m = near[0]
            return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        step = await walk.step(hero, monsters, stats.turn)
        actions += step.actions
        if step.ends_walk:
            return await finish(step.ends_walk[0], False, stairs=(target.x, target.y), **step.ends_walk[1])
        if step.outcome in ("waited", "kicked"):
            continue
        stuck = 0 if step.outcome == "moved" and (step.moved or near) else stuck + 1
        if stuck >= 8:
            return await finish("blocked", False, error=step.error)
    return await finish("budget", False)
