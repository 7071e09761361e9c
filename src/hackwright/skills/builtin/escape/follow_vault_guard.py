CATEGORY = "escape"
TRIGGERS = ()


async def follow_vault_guard(nh, max_turns: int = 200) -> SkillResult:
    """Leave a vault alive when its guard comes: drop your gold and follow him out.

    A hero who spends about 30 turns in a closed vault (teleported in by a trap
    in a dead-end niche, or dug in) is visited by the vault's guard ("Suddenly
    one of the Vault's guards enters!" or "Someone else has entered the Vault.").
    He asks for gold to be dropped and the hero to follow; a hero still carrying
    gold, or not next to him, after about six turns is attacked ("You've been
    warned, knave!"), and a guard kills a low-level hero in two or three blows.
    This drops every gold piece carried, finds the guard (in a dark vault he is
    seen only from a square next to him), steps beside him and follows the
    corridor he digs until he vanishes, then steps off his temporary corridor
    onto the level's own squares. Never attacks him.

    Parameters:
        max_turns (int, 200): game turns to spend at most.

    Stopped reasons: "escorted" (success: the guard led you out and left),
    "no_guard" (no guard in view or heard of: nothing to do), "guard_angry" (he
    is hostile now: fight, flee or pray), "lost_guard" (he went out of view and
    was not found again), "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    actions = 0
    trail = [start.position]  # the squares stood on, in order
    last_seen = None  # where the guard was last in view
    said = []  # every message of the skill's own actions
    over = False  # the game ended

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["gold"] = s.gold
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    def the_guard(monsters):
        return next((m for m in monsters if m.name == "guard"), None)

    async def act(res):
        nonlocal actions, over
        actions += 1
        said.extend(res.messages)
        over = over or res.game_over
        return res

    async def step(to_pos):
        """One step onto to_pos (a neighbour); True when the hero moved."""
        here = (await nh.get_stats()).position
        res = await act(await nh.move(here.direction_to(to_pos)))
        now = (await nh.get_stats()).position
        if now != here and now not in trail:
            trail.append(now)
        return now != here and not res.game_over

    async def step_toward(goal, monsters):
        """A step that brings the hero nearer goal, over squares a plain move enters."""
        here = (await nh.get_stats()).position
        level = await nh.get_current_level()
        taken = {m.position for m in monsters}
        options = sorted((p for p in here.neighbors() if p.on_map() and p not in taken
                          and level.tile_at(p).is_walkable and p.steps_to(goal) < here.steps_to(goal)),
                         key=lambda p: (p.steps_to(goal), p.distance_to(goal)))
        for p in options[:3]:
            if await step(p):
                return True
        return False

    monsters = await nh.get_visible_monsters()
    guard = the_guard(monsters)
    heard = any("Vault's guards" in t or "entered the Vault" in t or "follow me" in t
                for t in await nh.get_messages(20))
    if guard is None and not heard:
        return await finish("no_guard", False)
    if guard is not None and not guard.is_peaceful:
        return await finish("guard_angry", False)
    if start.gold > 0 and (await act(await nh.drop("$"))).game_over:
        return await finish("game_over", False)
    unseen = 0  # actions since the guard was last in view
    gone_at = None  # actions taken when he vanished ("Suddenly, the guard disappears.")

    while True:
        stats = await nh.get_stats()
        if over:
            return await finish("game_over", False)
        if stats.turn - turn0 > max_turns:
            return await finish("budget", False)
        if any("corridor disappears" in t for t in said) or \
                gone_at is not None and actions - gone_at >= 3:
            # His corridor closes behind a hero who stands off it: out on the level's own squares.
            return await finish("escorted", True, position=stats.position)
        if gone_at is None and any("guard disappears" in t or "Well, begone" in t for t in said):
            gone_at = actions
        hero = stats.position
        monsters = await nh.get_visible_monsters()
        guard = the_guard(monsters)
        if guard is not None and not guard.is_peaceful:
            return await finish("guard_angry", False)
        if guard is not None:
            last_seen, unseen = guard.position, 0
            if hero.is_adjacent(guard.position):
                await act(await nh.search(1))  # beside him he digs on: a square ahead each turn
            elif not await step_toward(guard.position, monsters):
                await act(await nh.search(1))
            continue
        unseen += 1
        if unseen > 12 and gone_at is None:
            return await finish("lost_guard", False, where=last_seen)
        # Out of sight: in the dark he is seen only next to the hero, and he steps on as
        # soon as the hero comes beside him. Take the next new square, the doorway he dug
        # in the vault's wall or his corridor before the vault's floor.
        level = await nh.get_current_level()
        taken = {m.position for m in monsters}

        def order(p):
            tile = level.tile_at(p)
            dug = tile.feature == "doorway" or tile.char == "#"
            return (not dug, p.steps_to(last_seen) if last_seen else 0, -p.steps_to(start.position))

        ahead = sorted((p for p in hero.neighbors() if p.on_map() and p not in trail and p not in taken
                        and level.tile_at(p).is_walkable), key=order)
        if not ahead or not await step(ahead[0]):
            await act(await nh.search(1))
