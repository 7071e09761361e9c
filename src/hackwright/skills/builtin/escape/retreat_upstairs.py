CATEGORY = "escape"
TRIGGERS = ("engulfed",)


async def retreat_upstairs(nh, hp_threshold: float = 0.5, force: bool = False, max_steps: int = 200) -> SkillResult:
    """Flee to the up stairs and climb them when HP is low (never on dungeon level 1, where that ends the game).

    Walks to the known up staircase (or ladder) without stopping for monsters
    — it is a retreat — but never bumps a floating eye, cockatrice or peaceful
    monster; a hostile standing in the way is attacked. Going up puts a level
    between the hero and whatever was hurting it (monsters adjacent may follow).
    On dungeon level 1 the up stairs leave the dungeon and end the game, so it
    refuses there.

    Parameters:
        hp_threshold (float, 0.5): only retreat when HP is below this fraction of max.
        force (bool, False): retreat whatever the HP.
        max_steps (int, 200): budget of game actions for the walk.

    Stopped reasons: "went_up" (success; data.depth), "hp_ok", "refused_level_1",
    "stairs_unknown", "no_path", "blocked", "failed", "budget", "game_over".
    """
    start = await nh.get_stats()
    turn0 = start.turn
    here = (start.branch, start.level_in_branch)
    actions = 0
    stuck = 0

    async def finish(reason, success, **data):
        s = await nh.get_stats()
        data["depth"] = s.dungeon_level
        data["hp"] = s.hp
        return SkillResult(stopped_reason=reason, data=data, actions_taken=actions,
                           turns_elapsed=s.turn - turn0, success=success)

    if start.dungeon_level <= 1:
        return await finish("refused_level_1", False, why="the up stairs of level 1 leave the dungeon: game over")
    if start.hp >= start.max_hp * hp_threshold and not force:
        return await finish("hp_ok", False, max_hp=start.max_hp)
    level = await nh.get_current_level()
    target = level.stairs_up
    if target is None:
        # Just arrived? The up stairs are under the hero, not yet on the map: look.
        look = await nh.look_here()
        actions += 1
        if look.stairs == "up":
            target = start.position
    if target is None:
        return await finish("stairs_unknown", False)

    walk = CarefulWalk(nh, target)  # a retreat: past hostiles (it attacks one in the way), never a peaceful

    while actions < max_steps:
        stats = await nh.get_stats()
        if (stats.branch, stats.level_in_branch) != here:
            return await finish("failed", False, error="the level changed on the way")
        hero = stats.position
        if hero == target:
            res = await nh.go_up()
            actions += 1
            if res.game_over:
                return await finish("game_over", False)
            after = await nh.get_stats()
            if (after.branch, after.level_in_branch) != here:
                return await finish("went_up", True)
            return await finish("failed", False, error=res.error, messages=res.messages)
        monsters = await nh.get_visible_monsters()
        step = await walk.step(hero, monsters, stats.turn)
        actions += step.actions
        if step.ends_walk and step.outcome != "door_locked":  # a retreat tries the door again
            return await finish(step.ends_walk[0], False, **step.ends_walk[1])
        if step.outcome == "waited":
            continue
        stuck = 0 if step.moved else stuck + 1  # (a locked door on the way is only a step that failed)
        if stuck >= 10:
            return await finish("blocked", False, error=step.error)
    return await finish("budget", False)
