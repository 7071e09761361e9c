import collections

CATEGORY = "exploration"
TRIGGERS = ("low_hp", "level_change", "engulfed")  # it watches monsters and hunger itself, more finely

HARMLESS_WHEN_FAR = ("floating eye",)


def _frontiers(level, exclude):
    """Squares to stand on (or doors to open) next to a square nobody has looked at."""
    tiles = level.tiles
    rows, cols = len(tiles), len(tiles[0])
    out = set()
    for row in tiles:
        for t in row:
            p = t.position
            if p in exclude or not (t.is_walkable or t.feature == "closed door"):
                continue
            if any(tiles[y][x].description == "unexplored" for y in range(max(p.y - 1, 0), min(p.y + 2, rows))
                   for x in range(max(p.x - 1, 0), min(p.x + 2, cols))):
                out.add(p)
    return out


def _map_shows(screen, ch):
    return any(ch in line for line in screen.split("\n")[1:22])


async def cautious_explore(
    nh,
    hp_threshold: float = 0.5,
    monster_radius: int = 6,
    stop_at_stairs: bool = True,
    max_actions: int = 300,
) -> SkillResult:
    """Explore the level step by step and stop at the first sign of danger or news (the spec's cautious_explore, made robust).

    Walks to the nearest frontier (nh.find_unexplored), opening closed doors on the
    way, and stops as soon as something needs a decision:

    * a hostile monster that moves comes within `monster_radius` steps (floating
      eyes and monsters that cannot move are walked around instead: they never
      stop it, and it never bumps them);
    * HP below `hp_threshold` of max;
    * hunger at Hungry or worse;
    * down stairs seen that were not known when it started (with stop_at_stairs);
    * nothing reachable left to explore.

    It does not kick locked doors or search for hidden passages (explore_level does);
    locked doors are listed in data.locked_doors.

    Parameters:
        hp_threshold (float, 0.5): stop if HP falls below this fraction of max HP.
        monster_radius (int, 6): how near a hostile may come before it stops.
        stop_at_stairs (bool, True): stop when new down stairs come into view.
        max_actions (int, 300): budget of game actions.

    Stopped reasons: "monster_spotted", "low_hp", "hungry", "found_stairs",
    "fully_explored" (success), "blocked" (unexplored parts only behind a floating
    eye, a peaceful monster or a locked door), "level_changed", "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    here = (start.branch, start.level_in_branch)
    first_level = await nh.get_current_level()
    stairs_at_start = first_level.stairs_down
    actions = 0
    idle = 0
    skip = set()
    locked = set()
    fails = collections.Counter()
    speeds = {}
    memory = WalkAroundMemory(NEVER_BUMP)  # things not to bump, where last seen

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        if locked:
            data["locked_doors"] = sorted((p.x, p.y) for p in locked)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def moves(name):
        if name not in speeds:
            try:
                speeds[name] = (await nh.lookup_monster(name)).speed
            except Exception:
                speeds[name] = 12
        return speeds[name] > 0

    async def step_toward(target, avoid):
        # Never into an avoided square; round known traps, else over harmless ones, else
        # over any but the deadly ones (traps="risky").
        path = await nh.find_path(target, avoid=avoid, traps="risky")
        if not path:
            return None, None
        return await nh.move_to(target, avoid=avoid, traps="risky"), path[0]

    while actions < max_actions and idle < 60:
        stats = await nh.get_stats()
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("level_changed", False, depth=stats.dungeon_level)
        if stats.hp < stats.max_hp * hp_threshold:
            return await finish("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        if stats.hunger.severity >= HungerState.HUNGRY.severity:
            return await finish("hungry", False, hunger=stats.hunger.value)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        threats = []
        for m in monsters:
            if m.is_peaceful or m.is_tame or m.name in HARMLESS_WHEN_FAR:
                continue
            dist = m.position.steps_to(hero)
            if dist <= 1 or (dist <= monster_radius and await moves(m.name)):
                threats.append(m)
        if threats:
            return await finish("monster_spotted", False, monsters=[
                {"name": m.name, "at": (m.position.x, m.position.y), "distance": m.position.steps_to(hero),
                 "threat_level": m.threat_level} for m in threats])
        if stop_at_stairs and _map_shows(await nh.get_screen(), ">"):
            level = await nh.get_current_level()
            sd = level.stairs_down
            if sd is not None and sd != stairs_at_start:
                return await finish("found_stairs", True, stairs_pos=(sd.x, sd.y), stairs_type="down")
        avoid = memory.update(monsters, hero, stats.turn) | locked
        # The nearest frontier round what must not be bumped (as this skill remembers it: the
        # API's longer memory would cut off frontiers), over a trap if it must be.
        where = dict(avoid=avoid, traps="risky", avoid_monsters=False)
        goal = await nh.find_unexplored(**where)
        leftover = goal is not None
        if goal is None or goal in skip:
            # That one was given up on (or none can be reached): the nearest of the others.
            every = _frontiers(await nh.get_current_level(), skip)
            leftover = leftover or bool(every)
            goal = await nh.find_nearest_of(list(every), **where) if every else None
        if goal is None:
            level = await nh.get_current_level()
            data = {"explored_pct": round(level.explored_percentage, 1)}
            if level.stairs_down is not None:
                data["stairs_down"] = (level.stairs_down.x, level.stairs_down.y)
            if leftover:
                return await finish("blocked", False, **data)
            return await finish("fully_explored", True, **data)
        res, d = await step_toward(goal, avoid)
        if res is None:
            skip.add(goal)
            idle += 1
            continue
        actions += 1
        idle = 0
        if res.game_over:
            return await finish("game_over", False)
        if res.success:
            continue
        if "locked" in (res.error or "").lower() and d:
            locked.add(hero.offset(d))
            continue
        fails[goal] += 1
        if fails[goal] >= 6:
            skip.add(goal)
    if idle >= 60:
        return await finish("blocked", False)
    return await finish("budget", False)
