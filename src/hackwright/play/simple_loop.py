"""A small built-in player over the API: fight, eat, pray, explore, descend.

It exists so ``hackwright play`` plays a real game before the agent layer lands,
and doubles as an end-to-end exercise of the API. Each decision is one API
action; the loop never sends keys itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..api.models import HungerState, Position
from ..api.nethack_api import NetHackAPI


@dataclass
class GameSummary:
    seed: Optional[int]
    role: str
    turns: int
    depth: int
    max_depth: int
    xp_level: int
    score: int
    actions: int
    died: bool
    end_reason: str
    last_messages: list[str] = field(default_factory=list)
    ttyrec: Optional[str] = None


async def play_simple(
    api: NetHackAPI,
    max_actions: int = 3000,
    on_action: Optional[Callable[[int, str, NetHackAPI], None]] = None,
) -> GameSummary:
    """Play until death or ``max_actions`` API actions; returns a summary."""
    max_depth = 0
    searches_here = 0
    last_pos: Optional[Position] = None
    stuck = 0
    actions = 0
    end_reason = "action limit"
    while actions < max_actions:
        if api.game_over:
            end_reason = "died"
            break
        stats = await api.get_stats()
        max_depth = max(max_depth, stats.dungeon_level)
        pos = stats.position
        what = await _decide_and_act(api, stats, searches_here)
        actions += 1
        if what == "search":
            searches_here += 1
        elif what in ("descend",):
            searches_here = 0
        if pos == last_pos and what.startswith("walk"):
            stuck += 1
        else:
            stuck = 0
        last_pos = pos
        if stuck > 20:
            await api.search(5)
            stuck = 0
        if on_action:
            on_action(actions, what, api)
    else:
        end_reason = "action limit"
    if api.game_over:
        end_reason = "died"
    s = api.last_stats or await api.get_stats()
    return GameSummary(
        seed=api.game.config.seed,
        role=api.hero_role or "?",
        turns=s.turn,
        depth=s.dungeon_level,
        max_depth=max(max_depth, s.dungeon_level),
        xp_level=s.xp_level,
        score=s.score,
        actions=api.actions_taken,
        died=api.game_over,
        end_reason=end_reason,
        last_messages=await api.get_messages(8),
        ttyrec=api.game.ttyrec_path,
    )


async def _decide_and_act(api: NetHackAPI, stats, searches_here: int) -> str:
    hostile = [m for m in await api.get_adjacent_monsters() if not m.is_tame and not m.is_peaceful]
    # Never melee a floating eye: its passive paralysis is a classic death.
    hostile = [m for m in hostile if m.name != "floating eye"]
    if stats.hp < max(6, stats.max_hp // 7) and await api.get_prayer_timeout() < 200:
        await api.pray()
        return "pray"
    if hostile:
        target = min(hostile, key=lambda m: m.threat_level * -1)
        await api.attack(stats.position.direction_to(target.position))
        return f"fight {target.name}"
    if stats.hunger.severity >= HungerState.HUNGRY.severity:
        food = [i for i in await api.get_inventory() if i.object_class == "food" and i.corpse_of is None]
        if food:
            await api.eat(food[0].slot)
            return "eat"
        if stats.hunger.severity >= HungerState.WEAK.severity and await api.get_prayer_timeout() < 200:
            await api.pray()
            return "pray"
    frontier = await api.find_unexplored()
    if frontier is not None:
        r = await api.move_to(frontier)
        if r.success:
            return "walk to frontier"
        if r.error and "locked" in r.error:
            path = await api.find_path(frontier)
            if path:
                await api.kick(path[0])  # no shop check yet: the skill library's explore does that
                return "kick door"
    level = await api.get_current_level()
    if level.stairs_down is not None:
        if stats.position == level.stairs_down:
            await api.go_down()
            return "descend"
        r = await api.move_to(level.stairs_down)
        if r.success:
            return "walk to stairs"
    spot = _search_spot(level, stats.position)
    if spot is not None and spot != stats.position:
        r = await api.move_to(spot)
        if r.success:
            return "walk to search spot"
    await api.search(10)
    return "search"


def _search_spot(level, hero: Position) -> Optional[Position]:
    """Where a hidden door or passage is likeliest: a walkable square with much
    unexplored space within two squares (dead ends, room walls) and few searches."""
    tiles = level.tiles
    best, best_score = None, float("-inf")
    for row in tiles:
        for t in row:
            if not t.is_walkable or t.search_count >= 15:
                continue
            x, y = t.position.x, t.position.y
            unknown = 0
            for yy in range(max(0, y - 2), min(len(tiles), y + 3)):
                for xx in range(max(0, x - 2), min(len(row), x + 3)):
                    if not tiles[yy][xx].is_explored:
                        unknown += 1
            if unknown == 0:
                continue
            score = unknown * 2 - t.search_count - 0.3 * hero.steps_to(t.position)
            if score > best_score:
                best, best_score = t.position, score
    return best
