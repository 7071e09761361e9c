"""Explore the level until a hostile monster shows up or HP runs low."""


async def explore_until_monster(nh, hp_threshold: float = 0.5, max_steps: int = 400):
    stats = await nh.get_stats()
    start_turn = stats.turn
    steps = 0
    while steps < max_steps:
        stats = await nh.get_stats()
        if stats.hp < stats.max_hp * hp_threshold:
            return SkillResult("low_hp", {"hp": stats.hp}, steps, stats.turn - start_turn, False)
        hostile = [m for m in await nh.get_visible_monsters() if not m.is_tame and not m.is_peaceful]
        if hostile:
            near = hostile[0]
            data = {"monster": near.name, "at": near.position}
            return SkillResult("monster_spotted", data, steps, stats.turn - start_turn, True)
        target = await nh.find_unexplored()
        if target is None:
            return SkillResult("fully_explored", {}, steps, stats.turn - start_turn, True)
        result = await nh.move_to(target)
        if not result.success:
            await nh.search()
        steps += 1
    return SkillResult("step_limit", {}, steps, stats.turn - start_turn, False)
