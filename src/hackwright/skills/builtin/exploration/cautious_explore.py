import collections

CATEGORY = "exploration"
TRIGGERS = ("low_hp", "level_change", "engulfed")  # it watches monsters and hunger itself, more finely

# Bumping these is a melee attack, and their passive (paralysis, stoning, acid, fire,
# cold, an explosion) costs more than the fight gains: walk around them.
AVOID = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
         "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")
DOORS = ("doorway", "open door", "closed door")
HARMLESS_TRAPS = ("squeaky board", "rust trap", "anti-magic field")
DANGEROUS_TRAPS = ("land mine", "polymorph trap", "fire trap", "sleeping gas trap", "magic portal",
                   "level teleporter", "hole", "trap door")
STEPS = {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0), "ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}
HARMLESS_WHEN_FAR = ("floating eye",)


def _passable(tile):
    return tile.is_walkable or tile.feature == "closed door"


def _trapped(tile, risky=False):
    """A known trap to keep off: any but a harmless one (a squeaky board may be the only
    way on); with risky — when no other way is left — only the really dangerous ones."""
    if not tile.has_trap:
        return False
    return tile.trap_type in DANGEROUS_TRAPS if risky else tile.trap_type not in HARMLESS_TRAPS


def _remember(memory, monsters, hero, turn):
    """Squares not to step on: floating eyes, cockatrices and peacefuls in view, and where
    they were last seen (they drop out of view as the hero walks, and a route chosen
    without them would lead straight back to them). Forgotten when seen empty."""
    for m in monsters:
        if m.name in AVOID or (m.is_peaceful and not m.is_tame):
            for p in [p for p, (n, _) in memory.items() if n == m.name and p != m.position
                      and p.steps_to(m.position) <= 3]:
                del memory[p]
            memory[m.position] = (m.name, turn)
    here = {m.position for m in monsters}
    for p in list(memory):
        name, seen = memory[p]
        horizon = 150 if name in AVOID else 10
        if turn - seen > horizon or (p.is_adjacent(hero) and p not in here):
            del memory[p]
    return set(memory)


def _neighbours(level, p):
    rows, cols = len(level.tiles), len(level.tiles[0])
    for name, (dx, dy) in STEPS.items():
        x, y = p.x + dx, p.y + dy
        if 0 <= x < cols and 0 <= y < rows:
            yield name, dx, dy, Position(x, y)


def _route(level, start, goals, avoid, risky=False):
    """Breadth-first: (first direction, goal) of a shortest walk to one of goals that never
    enters an avoided square, or (None, None)."""
    tiles = level.tiles
    first = {start: ""}
    todo = collections.deque([start])
    while todo:
        p = todo.popleft()
        if p != start:
            if p in goals:
                return first[p], p
            if not _passable(tiles[p.y][p.x]):
                continue
        door_here = tiles[p.y][p.x].feature in DOORS
        for name, dx, dy, q in _neighbours(level, p):
            if q in first or q in avoid:
                continue
            t = tiles[q.y][q.x]
            if dx and dy and (door_here or t.feature in DOORS):
                continue
            if q not in goals and (not _passable(t) or _trapped(t, risky)):
                continue
            first[q] = first[p] or name
            todo.append(q)
    return None, None


def _frontiers(level, exclude):
    out = set()
    for row in level.tiles:
        for t in row:
            if t.position in exclude or not _passable(t):
                continue
            for _, _, _, q in _neighbours(level, t.position):
                if level.tiles[q.y][q.x].description == "unexplored":
                    out.add(t.position)
                    break
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
    memory = {}  # square -> (monster name, turn seen): things not to bump

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
        hero = await nh.get_position()
        path = await nh.find_path(target)
        if path:
            p, clear = hero, True
            for d in path:
                p = p.offset(d)
                if p in avoid:
                    clear = False
                    break
            if clear:
                return await nh.move_to(target), path[0]
        level = await nh.get_current_level()
        d, _ = _route(level, hero, {target}, avoid)
        if d is None:
            d, _ = _route(level, hero, {target}, avoid, risky=True)
        if d is None:
            return None, None
        if level.tile_at(hero.offset(d)).feature == "closed door":
            return await nh.open_door(d), d
        return await nh.move(d), d

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
        avoid = _remember(memory, monsters, hero, stats.turn) | locked
        goal = None if avoid else await nh.find_unexplored()
        leftover = goal is not None
        if goal is None or goal in skip:
            # Our own walk: around what must not be bumped, over harmless traps.
            level = await nh.get_current_level()
            every = _frontiers(level, skip)
            leftover = leftover or bool(every)
            _, goal = _route(level, hero, every, avoid)
            if goal is None and every:
                _, goal = _route(level, hero, every, avoid, risky=True)  # over a trap if it must be
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
