import collections

CATEGORY = "exploration"
TRIGGERS = ("low_hp", "engulfed")

# Of those, the ones that never (or hardly) move and only sting when hit, with the HP a
# hero needs to kill one: walled off by two yellow molds, a Valkyrie searched the rest of
# her level for 13,000 turns and starved.
STINGERS = {"acid blob": 12, "yellow mold": 15, "red mold": 25, "green mold": 30, "brown mold": 30}
DOORS = ("doorway", "open door", "closed door")
HARMLESS_TRAPS = ("squeaky board", "rust trap", "anti-magic field")
DANGEROUS_TRAPS = ("land mine", "polymorph trap", "fire trap", "magic portal",
                   "level teleporter", "hole", "trap door")
STEPS = {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0), "ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}


def _passable(tile):
    return tile.is_walkable or tile.feature == "closed door"


def _trapped(tile, risky=False):
    """A known trap to keep off: any but a harmless one (a squeaky board may be the only
    way on); with risky — when no other way is left — only the really dangerous ones."""
    if not tile.has_trap:
        return False
    return tile.trap_type in DANGEROUS_TRAPS if risky else tile.trap_type not in HARMLESS_TRAPS


def _hostile(m):
    return not m.is_peaceful and not m.is_tame


# Rounds in a row that found nowhere to step: each walks the whole level a few times, so
# sixty of them (the old bound) cost half a minute a call when the hero was walled in by
# floating eyes, and a game crawled at a few turns a minute.
MAX_IDLE = 12


def _neighbours(level, p):
    rows, cols = len(level.tiles), len(level.tiles[0])
    for name, (dx, dy) in STEPS.items():
        x, y = p.x + dx, p.y + dy
        if 0 <= x < cols and 0 <= y < rows:
            yield name, dx, dy, Position(x, y)


def _distances(level, start, avoid, risky=False):
    """Steps from start to every reachable passable square."""
    tiles = level.tiles
    dist = {start: 0}
    todo = collections.deque([start])
    while todo:
        p = todo.popleft()
        door_here = tiles[p.y][p.x].feature in DOORS
        for _, dx, dy, q in _neighbours(level, p):
            if q in dist or q in avoid:
                continue
            t = tiles[q.y][q.x]
            if not _passable(t) or _trapped(t, risky) or (dx and dy and (door_here or t.feature in DOORS)):
                continue
            dist[q] = dist[p] + 1
            todo.append(q)
    return dist


def _frontiers(level, exclude):
    """Passable squares next to a square nobody has looked at (what find_unexplored looks for)."""
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


def _search_spot(level, dist, per_spot, exclude):
    """(square, its search count to stop at): the reachable square where a hidden door or
    corridor is likeliest — next to walls or rock with much unseen (or unreachable)
    space behind them that have been searched less than their share (`per_spot`),
    dead ends first, near — or (None, 0).

    A spot is judged by the walls it would search, not by its own count: a search covers
    the eight squares around, so a square beside a searched one has a high count of its
    own while the wall beyond it was never searched (a Barbarian searched two rooms for
    6,000 turns and never once the wall square in the corner beside the up stairs)."""
    tiles = level.tiles
    rows, cols = len(tiles), len(tiles[0])
    # Known floor that no walk reaches counts as unseen space too: a magic-mapped level
    # shows the far rooms and their stairs but not the secret door or corridor between
    # (a Monk starved on Dlvl 4 looking at both down stairs, every wall "explored").
    reached = {(p.x, p.y) for p in dist}
    pre = [[0] * (cols + 1) for _ in range(rows + 1)]
    for y in range(rows):
        acc = 0
        for x in range(cols):
            t = tiles[y][x]
            if _passable(t) and (x, y) not in reached:
                acc += 3  # (a way known to lie there: surer than unseen rock)
            elif not t.is_explored:
                acc += 1
            pre[y + 1][x + 1] = pre[y][x + 1] + acc

    def unseen(cx, cy, r):
        x0, x1 = max(1, cx - r), min(cols - 2, cx + r)
        y0, y1 = max(1, cy - r), min(rows - 2, cy + r)
        if x0 > x1 or y0 > y1:
            return 0
        return pre[y1 + 1][x1 + 1] - pre[y0][x1 + 1] - pre[y1 + 1][x0] + pre[y0][x0]

    # (No floor on the score: in later rounds every spot has been searched so often that
    # all scores are negative, and a floor of 0 ended each round at once.)
    best, best_score = None, float("-inf")
    for p, d in dist.items():
        t = tiles[p.y][p.x]
        if p in exclude or not t.is_walkable:
            continue
        closed, ways = [], []
        for _, dx, dy, q in _neighbours(level, p):
            if _passable(tiles[q.y][q.x]):
                ways.append((dx, dy))
            else:
                closed.append((tiles[q.y][q.x].search_count, unseen(p.x + 3 * dx, p.y + 3 * dy, 2)))
        # A dead end: one way out, or two side by side (the last square after a bend also
        # sees the bend's corner diagonally; a corner's own two ways touch only diagonally).
        dead_end = t.feature is None and (len(ways) == 1 or len(ways) == 2 and (
            abs(ways[0][0] - ways[1][0]) + abs(ways[0][1] - ways[1][1]) == 1))
        # A dead end gets the plain share too: most of NetHack's extra corridors simply stop
        # (sp_lev.c dig_corridor gives up 1 time in 35 a square), while a hidden corridor
        # square lies beside the dead end it makes and 15 searches find it 9 times in 10.
        fresh = [(c, u) for c, u in closed if c < per_spot and u > 0]
        if not fresh:
            continue
        behind = max(u for _, u in fresh)
        total = sum(u for _, u in fresh)
        if behind < 8 and not dead_end:
            continue
        least = min(c for c, _ in fresh)
        # Hidden doors in room walls are the commonest secret; corridors branch less often,
        # but a corridor that stops dead usually goes on: search there longest.
        weight = 1.0 if t.char == "." and t.feature is None else 0.4
        score = weight * behind + 0.1 * total + (15 if dead_end else 0) - 0.8 * least - 0.1 * d
        if score > best_score:
            best, best_score = (p, t.search_count + per_spot - least), score
    return best if best is not None else (None, 0)


# Squares a boulder push may cut off from the hero (a corridor square between two
# boulders, say) before it is refused: a room or a stretch of corridor is more.
CUT_OFF_SQUARES = 5


def _boulder_push(level, dist, tried, avoid=frozenset(), risky=False):
    """(square to stand on, direction, boulder) of the nearest push of a known boulder
    into open or unexplored ground that leaves the squares the hero reaches now
    reachable (all but a few), or None. `dist`: _distances from the hero with these
    `avoid` and `risky`."""
    tiles = level.tiles
    rows, cols = len(tiles), len(tiles[0])
    pushes = []
    for row in tiles:
        for t in row:
            if not t.description.endswith("boulder"):
                continue
            b = t.position
            for name, (dx, dy) in STEPS.items():
                stand = Position(b.x - dx, b.y - dy)
                if stand not in dist or (b, name) in tried:
                    continue
                x, y = b.x + dx, b.y + dy
                if not (1 <= x < cols - 1 and 1 <= y < rows - 1):
                    continue
                beyond = tiles[y][x]
                if not (beyond.is_walkable or beyond.description == "unexplored") or _trapped(beyond):
                    continue
                if dx and dy and any(tiles[p.y][p.x].feature in DOORS for p in (stand, b)):
                    continue
                if dx and dy and beyond.feature in DOORS:
                    continue
                pushes.append((dist[stand], stand, name, b, beyond.position))
    for _, stand, name, b, onto in sorted(pushes, key=lambda push: push[0]):
        # A boulder pushed onto the one square before a door shuts the door for good (it
        # cannot be pulled back): a Valkyrie pushed one along a corridor into the corner
        # under her only door and searched the rooms left to her for 9,000 turns.
        # (Walked from the square pushed from, with the boulder's new square shut.)
        after = _distances(level, stand, set(avoid) | {onto}, risky)
        if sum(p not in after for p in dist if p != onto) < CUT_OFF_SQUARES:
            return stand, name, b
    return None


def _way_down(level, avoid_branches):
    """The known down stairs, unless they lead into a branch to avoid."""
    if level.stairs_down is None or (level.stairs_down_branch and level.stairs_down_branch in avoid_branches):
        return None
    return level.stairs_down


def _map_shows(screen, ch):
    lines = screen.split("\n")
    return any(ch in line for line in lines[1:22])


async def explore_level(
    nh,
    max_actions: int = 500,
    stop_at_stairs: bool = False,
    stop_on_hostile: bool = True,
    hp_threshold: float = 0.34,
    search_for_hidden: bool = True,
    search_batch: int = 10,
    searches_per_spot: int = 15,
    max_search_turns: int = 400,
    kick_locked_doors: bool = True,
    max_kicks: int = 8,
    push_boulders: bool = True,
    max_pushes: int = 12,
    fight: bool = False,
    danger_margin: int = 4,
    avoid_branches: list = (),
) -> SkillResult:
    """Explore the current level: walk to every unexplored spot, open or kick doors, then search for hidden passages.

    Walks to the nearest frontier (nh.find_unexplored) again and again. Closed doors
    on the way are opened (move_to does it); a locked door is kicked open, except a
    shop's (a shopkeeper in view, or the messages mention "closed for inventory")
    and except after `max_kicks` kicks. Floating eyes, cockatrices and peaceful
    monsters are walked around, never bumped. When no frontier is left and no down
    stairs are known, it pushes boulders that may hide more of the level (not in
    Sokoban), with fight=True kills a mold or acid blob that shuts the way on (when
    HP can take its sting), then searches for hidden doors and corridors: at dead ends and
    next to walls with unexplored space behind them, `search_batch` turns at a
    time, until a spot has been searched `searches_per_spot` times, then the next
    spot, `max_search_turns` turns in all.

    Parameters:
        max_actions (int, 500): budget of game actions.
        stop_at_stairs (bool, False): stop as soon as down stairs are known.
        stop_on_hostile (bool, True): stop when a hostile monster (not a floating
            eye) is adjacent, so the caller can fight it (e.g. melee_fight).
        hp_threshold (float, 0.34): stop when HP falls below this fraction of max.
        search_for_hidden (bool, True): search for hidden passages when nothing is
            left to explore and no down stairs are known.
        search_batch (int, 10): turns per search command.
        searches_per_spot (int, 15): searches before trying another spot.
        max_search_turns (int, 400): turns of searching in all.
        kick_locked_doors (bool, True), max_kicks (int, 8): per door.
        push_boulders (bool, True), max_pushes (int, 12): push boulders that may hide
            the rest of the level (never in Sokoban) before searching.
        fight (bool, False): melee adjacent hostiles whose difficulty is at most the
            hero's level + `danger_margin` (int, 4) instead of stopping for them.
        avoid_branches (list, ()): down stairs known to lead into one of these branches
            (e.g. ["Gnomish Mines"]) do not count as a way down: keep searching.

    Stopped reasons: "fully_explored" (success; data.stairs_down tells whether the
    down stairs are known), "found_stairs" (with stop_at_stairs), "search_exhausted"
    (nothing hidden found in the search budget), "blocked" (what is left lies behind
    a floating eye, a peaceful monster or a door that stays shut), "hostile_adjacent",
    "low_hp", "hungry" (grown Weak from hunger while searching: eat or pray first),
    "level_changed", "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    here = (start.branch, start.level_in_branch)
    actions = 0
    searched = 0
    kicked = 0
    skip = set()  # frontier squares given up on
    shut = set()  # doors that stay shut: shop doors, kicked too often
    refused = 0  # failed steps in a row (they take no game time)
    bad_spots = set()
    kicks = collections.Counter()
    fails = collections.Counter()
    detours = set()  # targets walked to round this skill's own avoided squares only
    trails = {}  # target -> squares stepped from on the way to it
    walks = collections.Counter()  # steps taken toward each search spot or frontier
    spot, spot_limit = None, 0
    pushes = 0
    tried_pushes = set()
    waited = 0
    idle = 0
    memory = WalkAroundMemory(NEVER_BUMP)  # things not to bump, where last seen

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        if not data.get("game_over"):
            level = await nh.get_current_level()
            sd = level.stairs_down
            data["stairs_down"] = (sd.x, sd.y) if sd else None
            data["explored_percentage"] = round(level.explored_percentage, 1)
        data["search_turns"] = searched
        data["kicks"] = kicked
        data["boulder_pushes"] = pushes
        if shut:
            data["doors_left_shut"] = sorted((p.x, p.y) for p in shut)
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    async def step_toward(target, avoid):
        """One step toward target, never into an avoided square: round known traps, else over
        harmless ones, else over any but the deadly ones. (ActionResult, direction) or (None, None)."""
        hero = await nh.get_position()
        # Back on a square already walked over on the way to this target: the plan changes
        # as the hero moves and sees more, and can lead to and fro. From now on only the
        # squares this skill avoids count, not where the API last saw monsters.
        seen = trails.setdefault(target, collections.deque(maxlen=30))
        if hero in seen:
            detours.add(target)
        seen.append(hero)
        how = dict(avoid=avoid, traps="risky", avoid_monsters=target not in detours)
        path = await nh.find_path(target, **how)
        if not path:
            return None, None
        return await nh.move_to(target, **how), path[0]

    fought = 0  # blockers attacked (see fight_stinger)

    async def reachable_way_down(level):
        """Known down stairs a walk reaches. (Stairs seen across a secret door, on a
        magic-mapped level, are no way down yet: search for the door.)"""
        way = _way_down(level, avoid_branches)
        return way is not None and (way == await nh.get_position() or bool(await nh.find_path(way)))

    async def fight_stinger(stats):
        """Everything reachable is done: step up to a remembered mold or acid blob that
        closes a way on and hit it, when fighting and HP can take its sting. None when
        there is none (or no way to it), else what was done."""
        nonlocal actions, fought
        hero = stats.position
        if not fight or fought >= 8 or stats.hp < 0.8 * stats.max_hp:
            return None
        level = await nh.get_current_level()
        near = _distances(level, hero, set(memory.seen) | shut)
        best = None
        for p, (name, _) in memory.seen.items():
            if stats.hp < STINGERS.get(name, 10_000):
                continue
            for _, _, _, q in _neighbours(level, p):
                if q in near and (best is None or near[q] < best[0]):
                    best = (near[q], q, p)
        if best is None:
            return None
        _, stand, blocker = best
        if hero != stand:
            res, _ = await step_toward(stand, set(memory.seen) | shut)
            if res is None:
                return None
            actions += 1
            return "game_over" if res.game_over else "walked"
        fought += 1
        res = await nh.attack(hero.direction_to(blocker))
        actions += 1
        if res.game_over:
            return "game_over"
        # A yellow mold's sting stuns: a stunned hero swings at thin air. Wait it out.
        for _ in range(10):
            if "Stunned" not in await nh.get_status_effects():
                break
            wait = await nh.search()
            actions += 1
            if wait.game_over:
                return "game_over"
        if any("You kill" in m or "You destroy" in m for m in res.messages):
            memory.seen.pop(blocker, None)
            fought = 0
            bad_spots.clear()  # what lay behind it is reachable now
        return "hit"

    while actions < max_actions and idle < MAX_IDLE:
        stats = await nh.get_stats()
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("level_changed", False, depth=stats.dungeon_level)
        if stats.hp < stats.max_hp * hp_threshold:
            return await finish("low_hp", False, hp=stats.hp, max_hp=stats.max_hp)
        if stats.hunger.severity >= HungerState.WEAK.severity and stats.hunger.severity > start.hunger.severity:
            return await finish("hungry", False, hunger=stats.hunger.value)
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        if stop_on_hostile or fight:
            near = [m for m in monsters if _hostile(m) and m.name not in NEVER_BUMP and m.position.is_adjacent(hero)]
            weak = [m for m in near if m.threat_level <= stats.xp_level + danger_margin]
            if fight and weak and len(weak) == len(near):
                res = await nh.attack(hero.direction_to(min(weak, key=lambda m: m.threat_level).position))
                actions += 1
                if res.game_over:
                    return await finish("game_over", False, game_over=True)
                if not res.success:
                    await nh.search()  # e.g. diagonal out of a doorway: let it come
                    actions += 1
                continue
            if near:
                m = near[0]
                return await finish("hostile_adjacent", False, monster=m.name, at=(m.position.x, m.position.y))
        avoid = memory.update(monsters, hero, stats.turn) | shut
        # (Down stairs with an object on them show as the object: #terrain tells.)
        if stop_at_stairs and (_map_shows(await nh.get_screen(), ">") or any(
                f.feature in ("stairs down", "ladder down") for f in await nh.reveal_terrain())):
            if await reachable_way_down(await nh.get_current_level()):
                return await finish("found_stairs", True)

        level = None
        # The nearest frontier round what must not be bumped (as this skill remembers it: the
        # API's longer memory would cut off frontiers), over a trap if it must be (a squeaky
        # board may be the only way on), never one given up on.
        where = dict(avoid=avoid, traps="risky", avoid_monsters=False)
        goal = await nh.find_unexplored(**where)
        leftover = goal is not None
        if goal is None or goal in skip:
            level = await nh.get_current_level()
            every = _frontiers(level, skip)
            leftover = leftover or bool(every)
            goal = await nh.find_nearest_of(list(every), **where) if every else None
        if goal is None:
            # Nothing reachable is left to explore.
            level = level or await nh.get_current_level()
            # (Stairs cut off by a monster to be avoided: "blocked", not a search for doors.)
            cut_off = _way_down(level, avoid_branches) is not None and bool(memory.seen)
            if cut_off or await reachable_way_down(level) or not search_for_hidden:
                if leftover and waited < 8 and any(n not in NEVER_BUMP for n, _ in memory.seen.values()):
                    res = await nh.search()  # a peaceful monster may be in the way: let it wander off
                    actions += 1
                    waited += 1
                    if res.game_over:
                        return await finish("game_over", False, game_over=True)
                    continue
                if leftover:
                    return await finish("blocked", False, avoided=sorted({n for n, _ in memory.seen.values()}))
                return await finish("fully_explored", True)
            # Unexplored ground lies behind a mold or an acid blob: kill it before searching.
            acted = await fight_stinger(stats) if leftover else None
            if acted == "game_over":
                return await finish("game_over", False, game_over=True)
            if acted is not None:
                continue
            # A boulder in a corridor hides more often than a secret door: push it first.
            push = None
            # (Looked for when choosing where to go next, not at every search of a spot:
            # two walks over the whole level per search made long searches crawl.)
            if push_boulders and stats.branch != "Sokoban" and pushes < max_pushes and spot is None:
                push = (_boulder_push(level, _distances(level, hero, avoid), tried_pushes, avoid)
                        or _boulder_push(level, _distances(level, hero, avoid, True), tried_pushes, avoid, True))
            if push is not None:
                stand, d, boulder = push
                if hero != stand:
                    res, _ = await step_toward(stand, avoid)
                    if res is None or not res.success:
                        tried_pushes.add((boulder, d))
                    if res is not None:
                        actions += 1
                        if res.game_over:
                            return await finish("game_over", False, game_over=True)
                    continue
                res = await nh.move(d)
                actions += 1
                pushes += 1
                if res.game_over:
                    return await finish("game_over", False, game_over=True)
                if await nh.get_position() == hero:
                    tried_pushes.add((boulder, d))  # it would not move that way
                continue
            if searched >= max_search_turns:
                return await finish("blocked" if leftover else "search_exhausted", False)
            if spot is None:
                # A secret door is found with some luck per search, so a spot searched its
                # share without result is worth more later: when every spot has had its
                # share, the shares grow (x2, x4, x8) rather than the search ending.
                near = _distances(level, hero, avoid)  # the same for every share: compute once
                risky = None
                for share in (searches_per_spot, 2 * searches_per_spot, 4 * searches_per_spot,
                              8 * searches_per_spot):
                    spot, spot_limit = _search_spot(level, near, share, bad_spots)
                    if spot is None:  # perhaps only across a trap
                        if risky is None:
                            risky = _distances(level, hero, avoid, True)
                        spot, spot_limit = _search_spot(level, risky, share, bad_spots)
                    if spot is not None:
                        break
                if spot is None and waited < 8 and any(n not in NEVER_BUMP for n, _ in memory.seen.values()):
                    res = await nh.search(2)  # a peaceful monster (a shopkeeper?) may be in the way
                    actions += 1
                    waited += 1
                    if res.game_over:
                        return await finish("game_over", False, game_over=True)
                    continue
                acted = await fight_stinger(stats) if spot is None else None
                if acted == "game_over":
                    return await finish("game_over", False, game_over=True)
                if acted is not None:
                    continue
                if spot is None:
                    return await finish("blocked" if leftover else "search_exhausted", False)
            if hero != spot:
                # A bound on the walk to one spot: two ways there, each closed in turn, kept
                # a Valkyrie walking to and fro between two yellow molds for 360 turns a call.
                walks[spot] += 1
                if walks[spot] > 80:
                    bad_spots.add(spot)
                    spot = None
                    continue
                res, _ = await step_toward(spot, avoid)
                if res is None:
                    bad_spots.add(spot)
                    spot = None
                    idle += 1
                    continue
                actions += 1
                idle = 0
                if res.game_over:
                    return await finish("game_over", False, game_over=True)
                if not res.success:
                    fails[spot] += 1
                    if fails[spot] >= 4:
                        bad_spots.add(spot)
                        spot = None
                continue
            before = stats.turn
            res = await nh.search(search_batch)
            actions += 1
            idle = 0
            if res.game_over:
                return await finish("game_over", False, game_over=True)
            searched += max(1, (await nh.get_stats()).turn - before)
            tile = (await nh.get_current_level()).tile_at(hero)
            if tile.search_count >= spot_limit:
                spot = None  # its share is done; a bigger share may bring it back
            continue

        spot = None
        walks[goal] += 1
        if walks[goal] > 80:  # walking to and fro, never getting there (see the search spots)
            skip.add(goal)
            continue
        res, d = await step_toward(goal, avoid)
        if res is None:
            skip.add(goal)
            idle += 1
            continue
        actions += 1
        idle = 0
        if res.game_over:
            return await finish("game_over", False, game_over=True)
        if res.success:
            refused = 0
            continue
        # Refusals cost no game time: a run of them is a loop (a Barbarian tried one
        # locked door 480 times a call, for thousands of calls).
        refused += 1
        if refused >= 30:
            return await finish("blocked", False, error=res.error)
        err = (res.error or "").lower()
        if "locked" in err and d:
            door = hero.offset(d)
            messages = " ".join(await nh.get_messages(20)).lower()
            shop = "closed for inventory" in messages or any(m.name == "shopkeeper" for m in monsters)
            if shop or not kick_locked_doors or kicks[door] >= max_kicks:
                shut.add(door)
                continue
            kick = await nh.kick(d)
            actions += 1
            kicks[door] += 1
            kicked += 1
            if kick.game_over:
                return await finish("game_over", False, game_over=True)
            continue
        fails[goal] += 1
        if fails[goal] >= 6:  # e.g. a stuck door, a trap holding the hero: try elsewhere
            skip.add(goal)
    if idle >= MAX_IDLE:
        return await finish("blocked", False)
    return await finish("budget", False)
