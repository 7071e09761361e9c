CATEGORY = "navigation"
TRIGGERS = ("low_hp", "level_change", "engulfed")


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
    walk = CarefulWalk(nh, target)  # round floating eyes, molds and peacefuls; no kicking

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
        near = [m for m in monsters if not m.is_peaceful and not m.is_tame and m.name not in NEVER_BUMP
                and m.position.is_adjacent(hero)]
        if stop_on_hostile:
            if near:
                m = near[0]
                return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        step = await walk.step(hero, monsters, stats.turn)
        actions += step.actions
        if step.ends_walk:
            return await finish(step.ends_walk[0], False, **step.ends_walk[1])
        if step.outcome == "waited":
            continue
        stuck = 0 if step.outcome == "moved" and (step.moved or near) else stuck + 1  # fighting through is progress
        if stuck >= 8:
            return await finish("blocked", False, error=step.error)
    return await finish("budget", False)
