"""The autopilot's upkeep rules: eat, heal, loot and gear up.

After the fights: a fresh kill is eaten while fresh, a hurt hero rests (on
Elbereth with monsters about), a hungry one eats or prays, a burdened one drops
what it does not need, and new objects are picked up, wielded and worn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...api.models import HungerState
from . import autopilot_survival as survival
from .autopilot_context import HEALING_POTIONS, Situation, invoke, press

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import Autopilot


PROTECTION_PRICE = 400  # a temple priest's price of protection, per experience level (priest.c)


async def heal_and_eat(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """A fresh kill eaten, rest when hurt, food when hungry, a prayer when Weak with none."""
    api, s, stats, inventory, have, ok = sit.api, sit.memory, sit.stats, sit.inventory, sit.have, sit.ok
    adjacent, near, hp_frac, hunger, timeout = sit.adjacent, sit.near, sit.hp_frac, sit.hunger, sit.timeout
    # A fresh kill is food while it is fresh, hungry or not: heroes who ate only when
    # Hungry lived from prayer to prayer (one for hunger every ~850 turns), so a prayer
    # was seldom free when HP ran out.
    kill, s.fresh_kill = s.fresh_kill, ()
    if kill and kill[0] and stats.turn - kill[1] <= 20 and hunger != HungerState.SATIATED and \
            "eat_when_hungry" in have:
        s.eating_kill = True
        return invoke("eat_when_hungry", {"force": True, "corpses_only": True, "max_walk": 6},
                      f"eat the {kill[0]} I just killed while it is fresh")
    # Floating eyes, molds and the like are walked around (pathing avoids them).
    # Hurt, nothing adjacent: heal first (under Elbereth when something is in view) —
    # unless Weak with food in the pack: eat first (resting goes on while Weak).
    weak_with_food = hunger.severity >= HungerState.WEAK.severity and ok("eat_when_hungry") and any(
        i.object_class == "food" for i in inventory)
    if hp_frac < 0.5 and not adjacent and not weak_with_food:
        if near and ok("engrave_elbereth"):
            return invoke("engrave_elbereth", {"rest_to": 0.8}, "hurt with monsters about: rest on Elbereth")
        if ok("rest_until_healed"):
            return invoke("rest_until_healed", {"hp_fraction": 0.9}, "hurt: rest before going on")
        if hp_frac < 0.4:
            # Both keep handing back (a monster in view that never comes): exploring
            # on would stop at once for low HP too. Let HP come back a little.
            return press("20s", "hurt, and resting keeps being cut short: search 20 turns")
    # 3. eat
    # (the API remembers every kill: a new one is worth another try at eating)
    kills = tuple((k.species, k.turn) for k in await api.recent_kills(5) if k.by_hero)
    food_key = (hunger.value, kills,
                sum(1 for i in inventory if i.object_class == "food"))
    if hunger.severity >= HungerState.HUNGRY.severity and ok("eat_when_hungry") and food_key != s.no_food:
        s.asked_food = food_key
        params = {}
        if hunger.severity >= HungerState.WEAK.severity:
            params["max_walk"] = 20  # a kill up to 55 turns old is food now: worth a longer walk
        return invoke("eat_when_hungry", params, f"I am {hunger.value}")
    if hunger.severity >= HungerState.WEAK.severity and ok("pray_when_safe"):
        # (Food carried but none it will eat: the same prayer as with none.)
        starving = survival.fainting_prayer(sit)
        if starving is not None:
            return starving
        if timeout <= 200:
            return invoke("pray_when_safe", {}, "Weak from hunger and no food: pray")
    return None


async def loot_and_gear(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Drop a burden, pick up what lies here, wield and wear what is new and better."""
    api, s, stats, inventory, have, ok = sit.api, sit.memory, sit.stats, sit.inventory, sit.have, sit.ok
    adjacent, hero, level_key, load_key = sit.adjacent, sit.hero, sit.level_key, sit.load_key
    # Back in its own form after a were change: the armour and weapon it slipped out of
    # lie where it changed (heroes fought on naked at AC 10, and died).
    shed = await api.shed_gear_spot()
    if shed is not None and not adjacent:
        key = (level_key[0], level_key[1], shed.x, shed.y)
        if shed == hero and key != s.shed_picked and "pickup_useful" in have:
            s.shed_picked = key
            return invoke("pickup_useful", {}, "my armour and weapon fell here when I changed form: take them back")
        if shed != hero and shed.steps_to(hero) <= 40 and ok("go_to"):
            return invoke("go_to", {"x": shed.x, "y": shed.y, "max_steps": 80},
                          "my armour and weapon fell where I changed form: go back for them")
    # A dwarf's pick-axe or mattock lies under his corpse, and a pile shows only its top
    # object: heroes killed ten dwarves in a game and walked past every pile.
    pile = None if adjacent else await _dwarf_pile(pilot, sit)
    if pile is not None:
        key, where = pile
        if where == hero and "pickup_useful" in have:
            s.dwarf_piles[key] = LOOKED
            s.picked_up_at.add((level_key[0], level_key[1], hero.x, hero.y))
            return invoke("pickup_useful", {}, "a dwarf died here: his pick-axe may lie under the corpse")
        s.dwarf_piles[key] = s.dwarf_piles.get(key, 0) + 1
        if ok("go_to"):
            return invoke("go_to", {"x": where.x, "y": where.y, "max_steps": 60},
                          "a dwarf died over there: look for his pick-axe under the corpse")
    # 4. loot and gear up. First shed a load: a Burdened hero is slower in every
    # fight and cannot squeeze between rock corners (shut in so, heroes starved).
    # (Once per inventory: what is left is what the skill keeps, e.g. a cursed loadstone.)
    squeeze = sit.facts is not None and sit.facts.too_heavy_to_squeeze  # refused a diagonal gap lately
    if (stats.encumbrance != "Unencumbered" or squeeze) and not adjacent and load_key != s.load_seen and \
            "lighten_load" in have:
        s.load_seen = load_key
        return invoke("lighten_load", {"squeeze": squeeze},
                      "too heavy to squeeze through a gap: drop what I do not need" if squeeze else
                      f"{stats.encumbrance}: drop what I do not need")
    spot = (level_key[0], level_key[1], hero.x, hero.y)
    last = s.last_result
    stopped_on_items = last is not None and last.stopped_reason == "items_here"
    if spot not in s.picked_up_at and "pickup_useful" in have and (stopped_on_items or (
            ok("pickup_useful") and await _items_on(api))):
        s.picked_up_at.add(spot)
        return invoke("pickup_useful", {}, "there are objects here")
    weapons = "|".join(i.text for i in inventory if i.object_class == "weapon")
    if weapons != s.weapons_seen:
        first = not s.weapons_seen
        s.weapons_seen = weapons
        if not first and ok("wield_better_weapon") and pilot._role.lower() != "ranger":  # keeps the bow
            return invoke("wield_better_weapon", {}, "new weapons: wield one if it is clearly better")
    armor = "|".join(i.text for i in inventory if i.object_class in ("armor", "ring", "amulet"))
    if armor != s.armor_seen:
        s.armor_seen = armor
        if ok("wear_better_armor") and any(i.object_class in ("armor", "ring", "amulet") and not i.equipped
                                           for i in inventory):
            return invoke("wear_better_armor", {}, "new armour: wear it if it is better")
    # Spare healing potions drunk at full HP raise maximum HP for good (a Healer's eight:
    # about 8 HP on top of the 12 or so she starts with); two stay for an emergency.
    if not sit.near and stats.hp >= stats.max_hp - 5 and ok("drink_for_max_hp") and sum(
            max(1, i.quantity or 1) for i in inventory if i.object_class == "potion"
            and any(h in (i.name or "").lower() for h in HEALING_POTIONS)
            and "cursed" not in (i.text or "").lower().replace("uncursed", "")) > 2:
        return invoke("drink_for_max_hp", {"keep": 2}, "spare healing potions: drink them at full HP for more max HP")
    # Divine protection from a temple priest: 400 gold a level buys AC 2-4 the first time and
    # 1 each time after (most heroes die at their starting AC). Once per experience level.
    if "buy_protection" in have and ok("buy_protection") and not sit.near and \
            stats.gold >= PROTECTION_PRICE * stats.xp_level and s.protection_asked_at != stats.xp_level and \
            any("priest" in m.name and m.is_peaceful and not m.is_tame for m in sit.monsters):
        s.protection_asked_at = stats.xp_level
        return invoke("buy_protection", {}, f"a temple priest and {stats.gold} gold: buy protection (better AC)")
    return None


async def rest_when_safe(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Rest when hurt with no monster near."""
    hp_frac, near, ok = sit.hp_frac, sit.near, sit.ok
    # 5. rest when hurt and safe
    if hp_frac < 0.6 and not near and ok("rest_until_healed"):
        return invoke("rest_until_healed", {"hp_fraction": 0.9}, "hurt and nothing near: rest")
    return None


DWARVES = ("dwarf", "dwarf lord", "dwarf king")
LOOKED = 99  # dwarf_piles' mark of a pile already looked through


async def _dwarf_pile(pilot: "Autopilot", sit: Situation):
    """(key, square) of a dwarf seen dying lately on this level, by any hand, whose pile
    the hero has not looked through yet while it has no digging tool; else None."""
    stats = sit.stats
    if pilot.dive.digging_tool(sit.inventory) is not None:
        return None
    for k in reversed(await sit.api.recent_kills(10)):
        if k.species not in DWARVES or k.position is None or stats.turn - k.turn > 600 or \
                k.dungeon_level != stats.dungeon_level or k.branch != stats.branch:
            continue
        key = (k.branch, k.dungeon_level, k.position.x, k.position.y, k.turn)
        walks = sit.memory.dwarf_piles.get(key, 0)
        if walks >= LOOKED or k.position != sit.hero and (walks >= 2 or k.position.steps_to(sit.hero) > 30):
            continue  # looked through; or walked for twice (a monster may cut a walk short), or far
        return key, k.position
    return None


async def _items_on(api) -> bool:
    """Whether the hero stands on objects, from the messages of the last step (no extra look)."""
    recent = " ".join(await api.get_messages(4))
    return "You see here" in recent or "Things that are here" in recent or "several objects here" in recent \
        or "many objects here" in recent
