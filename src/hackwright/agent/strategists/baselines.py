"""Baseline strategists for evaluation: a random agent and a NetPlay-style handcrafted agent.

Both run in the same loop, runner and database as the autopilot and the model
strategists, so their rows in a report compare exactly on the same seeds.
"""

from __future__ import annotations

import random
from typing import Any, Optional

from ...api.models import HungerState, Position
from .autopilot_context import LevelKey, level_key_of


def _invoke(skill: str, params: Optional[dict] = None, why: str = ""):
    from ..decisions import AgentDecision

    return AgentDecision(type="invoke_skill", skill_name=skill, params=params or {}, reasoning=why)


def _key(key: str, why: str):
    from ..decisions import AgentDecision

    return AgentDecision(type="direct_action", action=key, reasoning=why)


class RandomAgent:
    """One uniformly random key of NLE's full action set per decision (``--agent random``).

    Quitting, saving and the shell escape are left out: they end or leave the game
    without playing it. The generator is seeded from the episode seed, so a random
    run is as reproducible as any other.
    """

    name = "random"
    loop_fallback = False  # a baseline plays alone: the autopilot never steps in
    EXCLUDED = ("QUIT", "SAVE", "SHELL")

    def __init__(self, seed: Optional[int] = 0) -> None:
        from nle import nethack

        self.keys = [chr(int(a)) for a in nethack.ACTIONS if getattr(a, "name", "") not in self.EXCLUDED]
        self.rng = random.Random(seed)

    async def decide(self, ctx) -> Any:
        return _key(self.rng.choice(self.keys), "random")


class Handcrafted:
    """The handcrafted agent of NetPlay (seed 003, §III-D), on this project's skills.

    Seven rules, checked in order after every skill run; the first that holds picks
    the skill: (1) leave any open menu (the API already does), (2) attack hostile
    monsters nearby, (3) below 60% HP heal by prayer, (4) when hungry eat carried
    food, (5) pick up items (potions and food), (6) when nothing is left to explore
    go down, (7) otherwise explore the level, kicking doors open. It has none of the
    autopilot's extras (Elbereth, retreating, resting, corpse ages, armour). As in
    NetPlay's runs, an episode ends after 10 decisions without the game clock moving.
    """

    name = "handcrafted"
    loop_fallback = False
    # NetPlay's protocol ended a run after 10 model calls without the game clock moving.
    max_idle_decisions = 10

    def __init__(self) -> None:
        self.explored: set[LevelKey] = set()
        self.failures: dict[str, int] = {}
        self.picked: set[tuple[str, int, int, int]] = set()

    def observe(self, skill: str, result, api) -> None:
        now = api.last_stats
        if skill == "explore_level" and now is not None and result is not None and result.stopped_reason in (
                "fully_explored", "search_exhausted", "blocked"):
            self.explored.add(level_key_of(now))
        if result is not None and result.success:
            self.failures.pop(skill, None)
        else:
            self.failures[skill] = self.failures.get(skill, 0) + 1

    async def decide(self, ctx) -> Any:
        state = ctx.state
        stats = state["stats"]
        hero: Position = stats.position
        level_key = level_key_of(stats)
        hostile = [m for m in state["monsters"] if not m.is_peaceful and not m.is_tame
                   and m.position.steps_to(hero) <= 2]
        tired = {k for k, v in self.failures.items() if v >= 3}
        if len(tired) >= 3:
            self.failures.clear()
            return _key("s", "every rule's skill keeps failing: wait a turn")
        # 2. attack hostile monsters nearby
        if hostile and "melee_fight" not in tired:
            return _invoke("melee_fight", {}, f"rule 2: attack the {hostile[0].name}")
        # 3. heal below 60% HP (prayer; potions are unidentified at the start)
        if stats.max_hp and stats.hp < 0.6 * stats.max_hp and "pray_when_safe" not in tired:
            return _invoke("pray_when_safe", {}, "rule 3: HP below 60%")
        # 4. eat carried food when hungry
        if stats.hunger.severity >= HungerState.HUNGRY.severity and "eat_when_hungry" not in tired:
            return _invoke("eat_when_hungry", {"allow_floor": False}, "rule 4: hungry")
        # 5. pick up potions and food
        spot = (*level_key, hero.x, hero.y)
        msgs = " ".join(state.get("messages") or [])
        if spot not in self.picked and ("You see here" in msgs or "objects here" in msgs
                                        or "Things that are here" in msgs):
            self.picked.add(spot)
            return _invoke("pickup_useful", {"take_gold": False, "take_armor": False}, "rule 5: items here")
        # 6. nothing left to explore: next level
        if level_key in self.explored and "descend" not in tired:
            return _invoke("descend", {}, "rule 6: level explored, go down")
        # 7. explore, kicking doors
        return _invoke("explore_level", {"kick_locked_doors": True}, "rule 7: explore")
