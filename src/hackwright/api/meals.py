"""A skill's meals on the way: which carried food is safe, and a fresh kill eaten where it fell.

explore_and_fight eats what it kills while the corpse is fresh (heroes who ate only
when Hungry lived from prayer to prayer) and eats carried food that never goes bad.
Skills get ``is_safe_food`` and ``eat_fresh_kill`` without importing them, as they get
``CarefulWalk``. The sandbox worker imports this module, so it stays free of NLE and numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .careful_walk import NEVER_BUMP

# Food that never rots, poisons or turns to stone, by the words NetHack names it with.
SAFE_FOOD = ("food ration", "cram ration", "lembas wafer", "fortune cookie", "apple", "orange", "pear",
             "melon", "banana", "carrot", "slime mold", "candy bar", "pancake", "cream pie", "kelp frond",
             "eucalyptus leaf", "clove of garlic", "sprig of wolfsbane", "lichen corpse", "lizard corpse",
             "K-ration", "C-ration")


def known_cursed(item: Any) -> bool:
    """Whether the item's text says it is cursed (not "uncursed")."""
    return "cursed" in (item.text or item.name or "").lower().replace("uncursed", "")


def is_safe_food(item: Any) -> bool:
    """Whether the item is food that is safe to eat whenever (SAFE_FOOD), the hero's own
    (not a shop's) and not known to be cursed."""
    text = (item.text or item.name).lower()
    if "for sale" in text or "unpaid" in text or known_cursed(item):
        return False
    return any(f.lower() in text for f in SAFE_FOOD)


@dataclass
class KillMeal:
    """What ``eat_fresh_kill`` did."""

    eaten: Optional[bool]  # True: eaten; None: not now, a monster is at hand (try once it is gone); False: not at all
    actions: int = 0  # the game actions it took (steps and the meal)


async def eat_fresh_kill(nh: Any, victim: Any, age: int = 0, max_steps: int = 8) -> KillMeal:
    """Walk onto the square where ``victim`` (a Monster) died, at most ``max_steps`` steps,
    and eat its corpse if it lies on top of the pile and is safe at ``age`` turns old.
    Never on a known trap, never with a hostile monster next to the hero (eating takes
    turns), never a shop's corpse (eaten, it is owed)."""
    actions = 0
    if victim.is_invisible_marker or victim.name in NEVER_BUMP:
        return KillMeal(False)
    try:
        if not await nh.is_safe_to_eat(victim.name, age):
            return KillMeal(False)
    except Exception:
        return KillMeal(False)
    for _ in range(max_steps):
        me = await nh.get_position()
        if any(m.position.is_adjacent(me) for m in await nh.get_visible_monsters()
               if not m.is_peaceful and not m.is_tame and m.name not in NEVER_BUMP):
            return KillMeal(None, actions)
        if me == victim.position:
            break
        if (await nh.get_current_level()).tile_at(victim.position).has_trap:
            return KillMeal(False, actions)  # a rolling boulder trap killed a Cavewoman going back for a newt
        res = await nh.move_to(victim.position)
        actions += 1
        if res.game_over or not res.success:
            return KillMeal(False, actions)
    if (await nh.get_position()) != victim.position:
        return KillMeal(False, actions)
    food = [i for i in await nh.get_items_here() if i.object_class == "food"]
    # The floor's first food is what "eat it?" offers first: only that very corpse.
    if not food or food[0].corpse_of != victim.name:
        return KillMeal(False, actions)
    if "for sale" in (food[0].text or ""):
        return KillMeal(False, actions)
    res = await nh.eat()
    return KillMeal(bool(res.success), actions + 1)
