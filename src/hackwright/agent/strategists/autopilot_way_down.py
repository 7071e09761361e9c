"""The autopilot's last rules: find the way down and take it.

Diving (see diving.py) and the Gnomish Mines' hunt for a pick come first; then one
long skill explores the level, fighting what gets in the way, and goes down. A
level with no way on found is searched again in longer rounds, then a wand or a
scroll may open one; when nothing works, time passes (a counted search).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...api.commands.digging import DIGGING_TOOL
from ...api.models import HungerState
from .autopilot_context import Situation, invoke, press

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import Autopilot


async def dive_or_hunt(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Diving (advance a skill, take a dwarf's pick-axe, dig down), or the Mines' hunt for a pick."""
    api, s, stats, inventory, monsters, ok = sit.api, sit.memory, sit.stats, sit.inventory, sit.monsters, sit.ok
    hp_frac, hunger, level_key = sit.hp_frac, sit.hunger, sit.level_key
    # Diving: advance a skill, take a dwarf's pick-axe, dig down.
    step = pilot.dive.next_step(api, pilot._role, stats, inventory, monsters, ok, hp_frac,
                                hunger.severity >= HungerState.WEAK.severity, level_key,
                                fit_for_dwarves=pilot.fit_for_dwarves, race=pilot._race,
                                town_watch=sit.level.town_watch,
                                skill_ready=sit.facts is not None and sit.facts.skill_ready,
                                stairs_up_known=sit.level.stairs_up is not None or stats.turn - s.arrived_turn <= 2,
                                way_down_lost=level_key in s.explored_levels and _way_down(pilot, sit)[1] is None)
    if step is not None:
        return invoke(step.skill, step.params, step.why)
    mapping = _map_scroll(pilot, sit)
    if mapping is not None:
        return mapping
    # In the Gnomish Mines without a digging tool: hunt its dwarves for one first.
    return pilot._mines_hunt(s, stats, level_key, ok)


# The shallowest level a known scroll of magic mapping is read on while diving: the first
# levels are quick to explore, and a Tourist's four are worth most where a long walk
# past unknown monsters in search of the stairs costs most.
MAP_FROM_DLVL = 4


def map_scroll(inventory) -> Optional[Any]:
    """A carried scroll of magic mapping, known as such, that is the hero's and not cursed."""
    for i in inventory:
        text = i.text or ""
        if i.object_class == "scroll" and i.slot and "magic mapping" in text and "for sale" not in text \
                and "unpaid" not in text and "cursed" not in text.replace("uncursed", ""):
            return i
    return None


def _map_scroll(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Diving onto a level whose way down is not known, with a known scroll of magic
    mapping: read it, and the stairs are on the map at once."""
    s, stats, level_key, inventory = sit.memory, sit.stats, sit.level_key, sit.inventory
    # (The scroll first: most heroes carry none, and the way down asks the branch rules.)
    scroll = map_scroll(inventory)
    if scroll is None or stats.dungeon_level < MAP_FROM_DLVL or stats.branch == "Sokoban" or sit.adjacent or \
            level_key in s.mapped_levels or level_key in s.explored_levels or not pilot.diving(stats) or \
            _way_down(pilot, sit)[1] is not None or not sit.ok("read_or_zap_to_find_way"):
        return None
    s.mapped_levels.add(level_key)
    others = [i.slot for i in inventory if i.slot and i.slot != scroll.slot]
    return invoke("read_or_zap_to_find_way", {"unknown": False, "tried": others},
                  "diving onto a level with no way down known: read the scroll of magic mapping")


def _way_down(pilot: "Autopilot", sit: Situation) -> tuple[tuple[str, ...], Any]:
    """The branches to keep out of, and the known down stairs unless they lead into one."""
    avoid = pilot._avoid_branches(sit.api, sit.memory, sit.level_key, sit.stats)
    way_down = sit.level.stairs_down
    if way_down is not None and sit.level.stairs_down_branch in avoid:
        way_down = None  # only the Mines' stairs are known here: find the main ones
    return avoid, way_down


async def explore_and_descend(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Out of a branch this hero avoids; explore the level, then go down."""
    s, stats, level, level_key, have, ok = sit.memory, sit.stats, sit.level, sit.level_key, sit.have, sit.ok
    # 6. explore this level, then 7. go down — one skill does both, level after level.
    avoid, way_down = _way_down(pilot, sit)
    if stats.branch in avoid and level.stairs_up is not None and ok("retreat_upstairs"):
        return invoke("retreat_upstairs", {"force": True},
                      f"the {stats.branch} are no place for this hero yet: back up")
    if ok("explore_and_fight") and (level_key not in s.explored_levels or way_down is not None):
        return pilot._explore(s, level_key, stats, "explore, fighting what gets in the way, then go down",
                              avoid)
    search = {"fight": True, "stop_at_stairs": True, "avoid_branches": list(avoid)}
    if level_key not in s.explored_levels and ok("explore_level"):
        return invoke("explore_level", search, "explore the level")
    if way_down is not None and ok("descend"):
        s.last_descend_turn = stats.turn
        return invoke("descend", {}, "the level is explored: go down")
    if "explore_level" in have and ok("explore_level"):
        # No way down known yet: exploring again searches for hidden passages.
        return invoke("explore_level", search, "look again for the way down: search for hidden passages")
    return None


async def search_for_a_way_on(pilot: "Autopilot", sit: Situation) -> "AgentDecision":
    """No way down found on an explored level: search again in longer rounds, try a wand or
    a scroll; when nothing works, let time pass. Always decides."""
    s, stats, level_key, inventory, have = sit.memory, sit.stats, sit.level_key, sit.inventory, sit.have
    adjacent, last = sit.adjacent, sit.last
    avoid, way_down = _way_down(pilot, sit)
    search = {"fight": True, "stop_at_stairs": True, "avoid_branches": list(avoid)}
    # Searched every likely spot its share and found nothing: search them all again,
    # longer each round (a hidden door is found one search in seven at Luck 0, far
    # less after a failed prayer). A Barbarian shut in two rooms on Dlvl 1 otherwise
    # searched one corridor square for 7,000 turns and starved.
    rounds = s.search_rounds.get(level_key, 0)
    # Searched twice over in vain: a wand may be digging (zapped down, a hole to the next
    # level) or secret door detection, a scroll teleportation (a random square of the
    # level, often past what shuts the hero in) or magic mapping. Walled-off heroes
    # carried them unused for 10,000 turns.
    # (A pick-axe digs down at once: no need to search long first.)
    tried = s.way_items_tried.setdefault(level_key, [])
    pick = any(DIGGING_TOOL.search(i.text or "") for i in inventory)
    if way_down is None and level_key in s.explored_levels and (rounds >= 2 or pick and rounds >= 1) and \
            not adjacent and "read_or_zap_to_find_way" in have and len(tried) < 6 and any(
                (i.object_class in ("scroll", "wand") or pick) and i.slot not in tried
                and "for sale" not in i.text for i in inventory):
        return invoke("read_or_zap_to_find_way", {"tried": list(tried)},
                      "no way on found however long I search: try a wand (zapped down) or a scroll")
    # (counted as they are asked for: a round that ends at once without a search,
    # e.g. walled in, must not be asked for again and again)
    if way_down is None and level_key in s.explored_levels and "explore_level" in have and 0 < rounds \
            and not (last is not None and last.turns_elapsed == 0):
        s.search_rounds[level_key] = rounds + 1
        share = 15 * 2 ** min(rounds, 4)
        return invoke("explore_level", dict(search, searches_per_spot=share, max_search_turns=600),
                      f"no way on found: search every likely spot again, {share} times each")
    # Every skill has failed here lately: let time pass (monsters move, HP comes back)
    # rather than ask again at once.
    # (A count search stops by itself when a monster turns up or attacks.)
    if s.fallbacks_short >= 2 and "rest_until_healed" in have:
        # The counted search keeps being cut short (a monster in view that never comes):
        # wait with a skill that ignores such monsters.
        s.fallbacks_short = 0
        return invoke("rest_until_healed", {"hp_fraction": 1.01, "max_turns": 60, "batch": 5},
                      "nothing works and searching keeps being interrupted: wait 60 turns")
    s.fallback_turn = stats.turn
    return press("40s", "nothing works right now: search for up to 40 turns and look again")
