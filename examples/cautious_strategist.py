"""A cautious rule-based strategist: a complete Hackwright plug-in in one file.

Each step it looks at the state a model would see and picks one library skill,
first rule that holds wins:

1. nearly dead: pray (the skill refuses when the god would be angry);
2. a hostile monster next to the hero: fight it;
3. hurt and nothing hostile in sight: rest until healed;
4. hungry: eat something carried;
5. the level is explored (or exploring keeps failing): go down;
6. otherwise: explore the level.

Play it (from the repository's top folder):

    hackwright play --agent examples/cautious_strategist.py:CautiousStrategist --seed 3
    hackwright eval --agent examples/cautious_strategist.py:CautiousStrategist --seeds 0-3

Results are recorded under that name. See docs/strategists.md for the protocol.
"""

from hackwright.api.models import HungerState
from hackwright.strategist import DecisionContext, direct_action, invoke_skill


class CautiousStrategist:
    name = "cautious"  # a description; results carry the name it was loaded by
    HANDED_BACK = ("hostile_adjacent", "low_hp", "hungry", "level_changed")

    def __init__(self) -> None:
        self.done_levels: set[tuple[str, int]] = set()  # (branch, level) explored to the end
        self.failures: dict[str, int] = {}  # skill -> failures in a row
        self.level: tuple[str, int] = ("", 0)  # where the last decision was made

    def observe(self, skill: str, result, api) -> None:
        """Called by the loop after each decision ran: remember what failed and which
        levels have nothing left to explore."""
        # A skill that stopped to hand back (a monster came, HP fell) did not fail.
        ok = result is not None and (result.success or result.stopped_reason in self.HANDED_BACK)
        self.failures[skill] = 0 if ok else self.failures.get(skill, 0) + 1
        if skill == "explore_level" and result is not None and result.stopped_reason in (
                "fully_explored", "search_exhausted", "blocked"):
            self.done_levels.add(self.level)

    async def decide(self, ctx: DecisionContext):
        stats = ctx.state["stats"]
        self.level = (stats.branch, stats.level_in_branch)
        hero = stats.position
        hostile = [m for m in ctx.state["monsters"] if not m.is_peaceful and not m.is_tame
                   and not m.is_invisible_marker]
        adjacent = [m for m in hostile if m.position.steps_to(hero) <= 1]
        hp_share = stats.hp / max(stats.max_hp, 1)

        # 1. Nearly dead: a prayer is the one full heal a new character has.
        if (stats.hp <= 5 or hp_share < 1 / 7) and self._usable("pray_when_safe"):
            return invoke_skill("pray_when_safe", reasoning=f"HP {stats.hp}/{stats.max_hp}: pray")
        # 2. Something hostile is next to us: fight it rather than turn our back.
        if adjacent and self._usable("melee_fight"):
            target = adjacent[0].name
            return invoke_skill("melee_fight", {"target": target}, reasoning=f"{target} adjacent: fight")
        # 3. Hurt with nothing hostile in sight: rest (searching finds hidden doors too).
        if hp_share < 0.6 and not hostile and self._usable("rest_until_healed"):
            return invoke_skill("rest_until_healed", {"hp_fraction": 0.9}, reasoning="hurt and alone: rest")
        # 4. Hungry: eat what we carry before it becomes Weak.
        if stats.hunger.severity >= HungerState.HUNGRY.severity and self._usable("eat_when_hungry"):
            return invoke_skill("eat_when_hungry", reasoning=f"{stats.hunger.name.lower()}: eat")
        # 5. Nothing left here (or exploring keeps failing): down we go, with enough HP.
        if (self.level in self.done_levels or not self._usable("explore_level")) and self._usable("descend"):
            return invoke_skill("descend", {"hp_threshold": 0.6}, reasoning="level done: go down")
        # 6. Explore; when every rule's skill keeps failing, wait a turn so the world moves.
        if self._usable("explore_level"):
            return invoke_skill("explore_level", reasoning="explore")
        self.failures.clear()
        return direct_action("s", reasoning="every skill keeps failing: search once and start over")

    def _usable(self, skill: str) -> bool:
        """A skill that failed three times in a row is given a rest."""
        return self.failures.get(skill, 0) < 3
