"""The example skill of the specification (§6.2), exactly as written there.

It is the contract test: a skill written from the spec's API alone must run
unmodified against NetHackAPI. Only the imports it assumes are added above it.
"""

from dataclasses import dataclass

from hackwright.api import HungerState, NetHackAPI


@dataclass
class SkillResult:  # spec §6.1 (the skill layer will provide its own)
    stopped_reason: str
    data: dict
    actions_taken: int
    turns_elapsed: int
    success: bool


async def cautious_explore(nh: NetHackAPI, hp_threshold: float = 0.5) -> SkillResult:
    """
    Explore the current level while monitoring for dangers.
    
    Stops when:
    - Monster spotted
    - HP drops below threshold
    - Hunger becomes Hungry or worse
    - Found stairs
    - Fully explored
    
    Args:
        nh: NetHack API
        hp_threshold: Stop if HP falls below this fraction of max HP
    """
    actions = 0
    max_actions = 500
    
    while actions < max_actions:
        stats = await nh.get_stats()
        
        # Check HP
        if stats.hp < stats.max_hp * hp_threshold:
            return SkillResult(
                stopped_reason="low_hp",
                data={"hp": stats.hp, "max_hp": stats.max_hp},
                actions_taken=actions,
                turns_elapsed=stats.turn,
                success=False
            )
        
        # Check hunger
        if stats.hunger in [HungerState.HUNGRY, HungerState.WEAK, HungerState.FAINTING]:
            return SkillResult(
                stopped_reason="hungry",
                data={"hunger": stats.hunger.value},
                actions_taken=actions,
                turns_elapsed=stats.turn,
                success=False
            )
        
        # Check for monsters
        monsters = await nh.get_visible_monsters()
        if monsters:
            return SkillResult(
                stopped_reason="monster_spotted",
                data={"monsters": [(m.name, m.position.x, m.position.y) for m in monsters]},
                actions_taken=actions,
                turns_elapsed=stats.turn,
                success=False
            )
        
        # Check for stairs
        level = await nh.get_current_level()
        for row in level.tiles:
            for tile in row:
                if tile.char in ['<', '>'] and tile.is_explored:
                    return SkillResult(
                        stopped_reason="found_stairs",
                        data={"stairs_pos": (tile.position.x, tile.position.y), 
                              "stairs_type": "up" if tile.char == '<' else "down"},
                        actions_taken=actions,
                        turns_elapsed=stats.turn,
                        success=True
                    )
        
        # Find unexplored area
        target = await nh.find_unexplored()
        if target is None:
            return SkillResult(
                stopped_reason="fully_explored",
                data={"explored_pct": level.explored_percentage},
                actions_taken=actions,
                turns_elapsed=stats.turn,
                success=True
            )
        
        # Move toward unexplored
        result = await nh.move_to(target)
        actions += 1
        
        if not result.success:
            # Blocked, try a different direction
            await nh.search()
            actions += 1
    
    return SkillResult(
        stopped_reason="action_limit",
        data={},
        actions_taken=actions,
        turns_elapsed=stats.turn,
        success=False
    )
