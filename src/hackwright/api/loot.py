"""What a skill takes on its way: gold and its own missiles seen lying about, safe food while
little is carried, and the small valuables of a pile it walks onto.

explore_and_fight fetches and takes these between its fights; any skill may, with
``LootInView`` (the walk to what lies in view) and ``take_from_pile`` (what to pick up
underfoot), injected as ``CarefulWalk`` is. The sandbox worker imports this module, so it
stays free of NLE and numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from .meals import is_safe_food

if TYPE_CHECKING:
    from .models import ActionResult, Item, Position

# Object classes taken from a pile walked onto (not rocks or gray stones: a loadstone cannot
# be dropped, and 71 rocks left a Wizard Stressed and starving).
SMALL_VALUABLES = ("coin", "wand", "ring", "amulet", "potion", "scroll", "gem")
# Object classes left for the strategist to judge.
GEAR = ("armor", "weapon", "tool")
# Fewer safe food items carried than this, LootInView walks to safe food in view: a meal
# found is a prayer kept for HP (two heroes in five prayed for hunger).
FOOD_ENOUGH = 5


@dataclass
class LootStep:
    """What one ``LootInView.step`` did: ``busy`` when the walk took this round (a step,
    whose ``result`` it is, or a look that makes the caller come round again before
    exploring on); not busy, there is nothing to fetch now."""

    busy: bool
    result: Optional["ActionResult"] = None


class LootInView:
    """The walk to gold in view, to the missiles of ``quiver`` lying along the lines they
    were shot on (``Quiver.shot_squares``), and to safe food lying about while fewer than
    ``food_enough`` safe food items are carried: one pile at a time, each tried once (its
    square is remembered with the dungeon level), only when a path of at most 40 steps
    leads there. Looked for every 8th call (the search reads the whole level, and gold
    does not run away), at once while shot missiles lie about. A walk that keeps coming
    back to the same few squares (a monster in view pauses it and another walk undoes
    each step) gives up for the rest of the level::

        loot = LootInView(nh, quiver)
        fetch = await loot.step(hero, stats.dungeon_level, active=not hostile)
        if fetch.busy:
            ...  # count fetch.result as an action when it is not None; then round again
        loot.new_level()  # on arriving at another level
    """

    def __init__(self, nh: Any, quiver: Any = None, food_enough: int = FOOD_ENOUGH) -> None:
        self.nh = nh
        self.quiver = quiver
        self.food_enough = food_enough
        self.tried: set = set()  # (x, y, depth) of piles walked to, looked at or found out of reach
        self.target: Optional["Position"] = None  # the pile being walked to
        self.given_up = False  # the walk went to and fro on this level: no more fetching here
        self._look = 0
        self._trail: list = []  # the hero's squares at its last steps toward a pile

    def new_level(self) -> None:
        """Forget the walk on the level left (the piles tried stay tried, by depth)."""
        self.target = None
        self._trail.clear()
        self.given_up = False

    async def step(self, hero: "Position", depth: int, active: bool = True) -> LootStep:
        """One round of the walk from ``hero`` on dungeon level ``depth``, called once a
        round of the skill's loop whether or not it may fetch now (``active`` False: a
        hostile in view, or picking up is off), as it counts the rounds between looks."""
        self._look = (self._look + 1) % 8
        if not active or self.given_up:
            return LootStep(False)
        nh = self.nh
        shot = self.quiver.shot_squares if self.quiver is not None else set()
        if self.target is None and (self._look == 1 or shot):
            pile = await nh.find_nearest(lambda t: (t.char == "$" or t.char in ")%" and (
                t.position.x, t.position.y, depth) in shot) and (t.position.x, t.position.y, depth) not in self.tried)
            if pile is None:
                shot.clear()  # nothing left in view to fetch
                larder = sum(i.quantity for i in await nh.get_inventory()
                             if i.object_class == "food" and is_safe_food(i))
                food = await nh.find_nearest(lambda t: t.char == "%" and (
                    t.position.x, t.position.y, depth) not in self.tried) if larder < self.food_enough else None
                if food is not None:
                    self.tried.add((food.x, food.y, depth))  # one look per pile
                    if any(is_safe_food(i) for i in await nh.get_items_at(food)):
                        pile = food
            if pile is not None:
                self.tried.add((pile.x, pile.y, depth))  # one try per pile
                if pile == hero:
                    return LootStep(True)  # the map's memory of the square underfoot: look for the next
                if len(await nh.find_path(pile)) <= 40:
                    self.target = pile
        if self.target is not None and self.target != hero:
            self._trail = (self._trail + [hero])[-40:]
            if len(self._trail) == 40 and len(set(self._trail)) <= 6:
                self.target, self.given_up = None, True
                return LootStep(True)
            res = await nh.move_to(self.target)
            if not res.success:
                self.target = None
            return LootStep(True, res)
        if self.target is not None:  # arrived: look for the next pile before exploring on
            self.target = None
            return LootStep(True)
        return LootStep(False)


@dataclass
class PileTake:
    """What ``take_from_pile`` did: the items ``taken``, the game ``actions`` it took,
    ``game_over``, ``burdened`` (the item whose weight first burdened an unencumbered hero:
    it stopped there) and ``gear`` (armour, weapons and tools left for the caller to judge)."""

    taken: list = field(default_factory=list)
    actions: int = 0
    game_over: bool = False
    burdened: Optional[str] = None
    gear: list = field(default_factory=list)


async def take_from_pile(nh: Any, items: list["Item"], quiver: Any = None, encumbrance: str = "Unencumbered",
                         pick_up: bool = True) -> PileTake:
    """Pick up, of the ``items`` underfoot (nh.get_items_here), the small valuables
    (SMALL_VALUABLES, not rocks or gray stones), safe food and the missiles ``quiver`` shoots;
    never what is for sale or a corpse that is not safe food. With ``pick_up`` False only
    the gear is listed. Stops at the first item that burdens a hero whose ``encumbrance``
    was "Unencumbered"."""
    out = PileTake()
    for i in items:
        text = (i.text or i.name).lower()
        if "for sale" in text or i.corpse_of is not None and not is_safe_food(i):
            continue
        mine = quiver is not None and await quiver.is_own_ammunition(i)
        stone = "rock" in text or "stone" in text
        if pick_up and (i.object_class in SMALL_VALUABLES and not stone or mine or
                        i.object_class == "food" and is_safe_food(i)):
            res = await nh.pickup(i.text or i.name)
            out.actions += 1
            if res.game_over:
                out.game_over = True
                return out
            if res.success:
                out.taken.append(i.text or i.name)
                after = await nh.get_stats()
                if after.encumbrance != "Unencumbered" and encumbrance == "Unencumbered":
                    out.burdened = i.text or i.name
                    return out
        elif i.object_class in GEAR:
            out.gear.append(i.text or i.name)
    return out


__all__ = ["FOOD_ENOUGH", "GEAR", "LootInView", "LootStep", "PileTake", "SMALL_VALUABLES", "take_from_pile"]
