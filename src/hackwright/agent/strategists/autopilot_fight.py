"""The autopilot's fighting rule: what stands next to the hero.

Weak monsters are fought inside the long exploring skill (one decision for the
whole level), strong ones with Elbereth, a wand or the up stairs; when the
fighting skills have handed back, one blow at a time. Runs after the survival
phases (autopilot_survival.py), which fill in the threat and the stairs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from . import autopilot_survival as survival
from .autopilot_context import MAIN_DUNGEON, SURVIVE, VI_KEYS, Situation, invoke, press
from .diving import is_wand

if TYPE_CHECKING:
    from ..decisions import AgentDecision
    from .autopilot import Autopilot


async def sleep_it_first(sit: Situation) -> Optional["AgentDecision"]:
    """A fight the hero likely loses more than half its HP in (nh.fight_odds), or one
    against a monster that ignores Elbereth while hurt: with a known wand of sleep, put
    the worst of them to sleep first (6d25 turns, at least 6), and the survival phase
    kills it asleep, where it cannot strike back. Healers start with one and seldom win
    a fight in melee; they used it only at critical HP, when it often came too late."""
    s, stats, ok, kit, adjacent = sit.memory, sit.stats, sit.ok, sit.kit, sit.adjacent
    if not kit.sleep_wand or not adjacent or not ok(SURVIVE):
        return None
    awake = [m for m in adjacent if not s.held_asleep(m, stats.turn) and not m.is_invisible_marker]
    if not awake:
        return None
    sleepers = []
    for m in awake:
        try:
            info = await sit.api.lookup_monster(m.name)
        except ValueError:
            continue  # a name the table lacks (hallucination)
        if "sleep" not in info.resistances:  # (elves, and the like, shrug the ray off)
            sleepers.append(m)
    if not sleepers:
        return None
    odds = await sit.api.fight_odds(awake)
    unafraid = any(m.ignores_elbereth for m in sleepers) and sit.hp_frac < 0.8
    if odds.favourable and not unafraid:
        return None
    # A zap asks no "Really attack?": farlook first (a djinni out of a smoky potion, shown
    # without its peaceful mark, was angered so and killed a Healer on turn 18).
    for m in adjacent:
        look = await sit.api.look_at(m.position)
        if look and (look.peaceful or look.tame):
            return None
    return invoke(SURVIVE, {"heal_below": 0.0},
                  f"the {sleepers[0].name} would cost me dear: put it to sleep with the wand, and kill it asleep")


def dig_away(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """A hero with a pick-axe or mattock beside monsters that all respect Elbereth digs
    down under Elbereth rather than fight: dig_down engraves it first, again in the pit,
    and the hole leaves them behind a level deeper. Digging is both the way out and the
    dive; a fight beside it is what killed the heroes who had one (an Archeologist at
    XL 1, healed by a prayer on Dlvl 9, went back to a giant bat and died in one turn).
    Not below half HP (the survival phases come first), nor outside the main dungeon
    (the dive climbs out of the Mines to dig), nor with a wand (kept for below Dlvl 5
    and for a dying hero)."""
    stats, adjacent = sit.stats, sit.adjacent
    if not adjacent or sit.hp_frac < 0.5 or stats.branch != MAIN_DUNGEON:
        return None
    tool = pilot.dive.digging_tool(sit.inventory)
    if tool is None or is_wand(tool) or any(m.ignores_elbereth_now or m.is_invisible_marker for m in adjacent):
        return None
    if sit.memory.elbereth_failed_here(stats) or not sit.ok("dig_down"):
        return None
    return invoke("dig_down", {"min_hp": 0.5},
                  f"a {adjacent[0].name} next to me and a {tool.name or 'pick'} in hand: dig down under Elbereth "
                  "rather than fight")


async def fight_adjacent(pilot: "Autopilot", sit: Situation) -> Optional["AgentDecision"]:
    """Fight the hostile monsters next to the hero, or keep away from the strong ones."""
    api, s, stats, hero, level_key, ok, kit = sit.api, sit.memory, sit.stats, sit.hero, sit.level_key, sit.ok, sit.kit
    adjacent, hp_frac, threat, stairs_close = sit.adjacent, sit.hp_frac, sit.threat, sit.stairs_close
    asleep = await sleep_it_first(sit)
    if asleep is not None:
        return asleep
    away = dig_away(pilot, sit)
    if away is not None:
        return away
    # 2. fight what is next to me: weak monsters inside the long exploring skill
    # (one decision for the whole level), strong ones with care.
    strong = [m for m in adjacent if m.threat_level > stats.xp_level + pilot.DANGER_MARGIN]
    if strong:
        if survival.on_the_way_up(pilot, sit):
            return survival.away(sit, "<", f"the {strong[0].name} is too strong to fight and I stand on "
                                           "the up stairs: go up, where it cannot follow")
        if survival.next_to_the_way_up(pilot, sit) and ok("retreat_upstairs"):
            return survival.step_up_away(sit, f"the {strong[0].name} is too strong to fight, a step from "
                                              "the up stairs: go up, where it cannot follow")
        if ok("engrave_elbereth") and not s.elbereth_failed_here(stats) and any(
                not m.ignores_elbereth for m in strong):
            return invoke("engrave_elbereth", {}, f"the {strong[0].name} is too strong to fight: Elbereth")
        if kit.wand and ok(SURVIVE):
            return invoke(SURVIVE, {}, f"the {strong[0].name} is too strong to fight: zap a wand at it")
        if stairs_close and ok("retreat_upstairs"):
            # (force: at any HP — with its default it refused while HP was above half, three
            # times a turn, and a Monk who had just prayed to full fought the Elvenking.)
            return invoke("retreat_upstairs", {"force": True}, f"the {strong[0].name} is too strong: leave upstairs")
    # (Bitten by a were-creature with a prayer to cure it: fight this one alone and hand
    # back, so the prayer comes before the change; exploring on after the fight, a Rogue
    # turned into a wererat a hundred turns later.)
    cure_due = "Lycanthropy" in (sit.effects or ()) and sit.timeout <= 200
    if adjacent and hp_frac >= 0.45 and stats.hp > pilot.DANGER_FACTOR * threat and not strong and \
            not cure_due and ok("explore_and_fight"):
        hunt = pilot._mines_hunt(s, stats, level_key, ok)
        if hunt is not None:
            return hunt
        return pilot._explore(s, level_key, stats, f"fight the {adjacent[0].name}, then go on exploring",
                              pilot._avoid_branches(api, s, level_key, stats))
    if adjacent and ok("melee_fight"):
        return invoke("melee_fight", {"hp_threshold": 0.35}, f"fight the {adjacent[0].name}")
    if adjacent:
        # The fighting skills have just handed back (low HP, nothing else helped): one
        # blow at a time rather than exploring on, which fights anyway and blindly
        # (a Cavewoman explored on between a giant spider and a giant ant, and died).
        target = min(adjacent, key=lambda m: (not m.name.startswith("were"), m.threat_level))  # (a summoner first)
        return press("F" + VI_KEYS[hero.direction_to(target.position)],
                     f"the {target.name} is next to me and nothing else helps: hit it")
    return None
