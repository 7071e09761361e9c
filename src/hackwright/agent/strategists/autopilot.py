"""The built-in offline strategist: library skills chosen by fixed priorities.

It never calls a model, so the main job always runs. Each decision hands the
game to one skill that runs many actions; it decides again only when that skill
stops (done, interrupted, or out of budget). Priorities, highest first, after the
strongest NetHack bots: emergency healing or prayer, fight, eat, pick up and
wear/wield, rest, explore, descend.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any, Optional

from nle import nethack as nh

from ...api.knowledge import PrayerClock
from ...api.models import HungerState, Position
from ...api.nethack_api import NetHackAPI
from ...api.commands.tools import DIGGING_TOOL
from .diving import DivePolicy


@dataclass
class AutopilotState:
    """What the autopilot remembers between its decisions."""

    picked_up_at: set[tuple[int, int, int]] = field(default_factory=set)  # (level key, x, y)
    inventory_seen: str = ""
    explored_levels: set[tuple[int, int]] = field(default_factory=set)
    failures: dict[str, int] = field(default_factory=dict)  # skill -> consecutive failures
    failed_at: dict[str, int] = field(default_factory=dict)  # skill -> turn of the last failure
    level: tuple[int, int] = (-1, -1)
    turn: int = 0
    recent_turns: list[int] = field(default_factory=list)  # game turn at each decision
    last_result: Optional[Any] = None  # how the previous skill ended
    armor_seen: str = ""
    weapons_seen: str = ""
    last_descend_turn: int = -10_000
    elbereth_at: tuple = ()  # (level, x, y) of the last Elbereth engraved
    # (hunger, kills, food carried) when eat_when_hungry last found nothing: no retry until it changes
    no_food: tuple = ()
    mines_ok: set = field(default_factory=set)  # levels where no way down but the Mines' was found
    asked_food: tuple = ()
    recent_stall: bool = False  # the last decisions came within a few turns of each other
    fallback_turn: int = -1  # game turn of the last "search 40" fallback
    fallbacks_short: int = 0  # consecutive fallbacks that ended within a few turns
    capped_turns: int = 0  # turns spent waiting at the depth cap since it was last raised
    depth_bonus: int = 0  # levels the cap was raised for heroes who stopped gaining levels there
    cap_xl: int = 0  # experience level when capped_turns started counting
    make_room_until: int = -1  # waiting away from an untouchable blocker until this turn
    decision_turns: list = field(default_factory=list)  # game turn of each of the last 25 decisions
    shop_tries: dict = field(default_factory=dict)  # level -> decisions spent getting past a shopkeeper
    load_seen: str = ""  # the inventory when lighten_load last ran
    search_rounds: dict = field(default_factory=dict)  # level -> searches for a way on that found none
    eye_stall_since: dict = field(default_factory=dict)  # level -> turn a floating eye first blocked the way
    way_items_tried: dict = field(default_factory=dict)  # level -> inventory letters used to find a way on
    fresh_kill: tuple = ()  # (species, turn killed, (x, y)) of the last kill by melee_fight or ranged_attack
    eating_kill: bool = False  # the running eat_when_hungry is for a fresh kill: no corpse is no failure
    asleep: dict = field(default_factory=dict)  # species -> turn until which a sleep ray holds it
    mines_hunt_start: int = -1  # game turn the hunt for a dwarf's pick in the Gnomish Mines began
    mines_hunt_over: bool = False  # the hunt ran its time or its levels: the Mines are left again

    def elbereth_failed_here(self, stats) -> bool:
        """Elbereth was already engraved on this square and the monster is still here."""
        return self.elbereth_at == (stats.dungeon_level, stats.position.x, stats.position.y)


# Touching these kills or cripples: the API's own list (its paths go round them too).
NEVER_MELEE = NetHackAPI.NEVER_TOUCH


def _decision(skill: str, params: Optional[dict] = None, why: str = ""):
    from ..decisions import AgentDecision

    return AgentDecision(type="invoke_skill", skill_name=skill, code=None, params=params or {}, action=None,
                         reasoning=why)


def _keys(action: str, why: str):
    """A direct action: raw keys for the game (a counted search, a fight-direction)."""
    from ..decisions import AgentDecision

    return AgentDecision(type="direct_action", action=action, reasoning=why)


class Autopilot:
    """Rule-based strategist over library skills (``--llm autopilot``)."""

    name = "autopilot"

    def __init__(self) -> None:
        self.state = AutopilotState()
        self._hits: dict[tuple[str, bool], float] = {}  # (species, poison resistant) -> _hit_potential
        self._speeds: dict[str, int] = {}  # species -> base speed
        self._role = ""  # the hero's role, read from the API at each decision
        self._prayer_timeout = 0  # the API's estimate, read at each decision
        self._inventory: list = []  # the pack, read at each decision
        self.dive = DivePolicy()

    DANGER_MARGIN = 4  # a monster this much above the hero's level is not meleed
    # The prayer clock assumes a 1000-turn reset after each prayer (91% of rnz(350) draws).
    # rnz(350) is at most 500 about 66% of the time: 300 turns after a prayer, a
    # dying hero's prayer is more likely answered than not.
    DESPERATE_TIMEOUT = 700
    DEADLY_EFFECTS = ("Food poisoned", "Ill", "Stoned", "Slimed", "Strangled")
    EXPLORE_DONE = ("fully_explored", "search_exhausted", "blocked", "found_stairs", "level_done")

    def observe(self, skill: str, result, api) -> None:
        """Learn from how a skill ended: what failed, which levels are done."""
        s = self.state
        bl = api.game.obs["blstats"]
        level = (int(bl[23]), int(bl[24]))
        if level != s.level:
            s.level = level
            s.failures.clear()  # a new level: everything is worth trying again
        turn = int(bl[20])
        s.turn = turn
        s.last_result = result
        handed_back = skill == "explore_and_fight" and result is not None and result.stopped_reason not in (
            "stuck", "budget")  # low HP, hunger, gear, a strong monster: a hand-back, not a failure
        # A "success" that took no game time and at most one action changed nothing
        # (e.g. "the stairs are known" again and again): count it as a failure, so the
        # same decision is not made forever.
        # So is a skill that spent many actions without the clock moving (a loop of moves
        # that go nowhere).
        idle = result is not None and result.turns_elapsed == 0 and (
            result.actions_taken <= 1 or result.actions_taken >= 50)
        eating_kill, s.eating_kill = s.eating_kill, False
        if eating_kill and skill == "eat_when_hungry":
            return  # half of all kills leave no corpse: not a failure, and no word on hunger
        if (result is not None and result.success or handed_back) and not idle:
            s.failures.pop(skill, None)
        else:
            s.failures[skill] = s.failures.get(skill, 0) + 1
            s.failed_at[skill] = turn
        data = (result.data or {}) if result is not None else {}
        if skill in ("melee_fight", "ranged_attack") and result is not None and \
                result.stopped_reason == "target_dead" and data.get("at") and data.get("killed_turn"):
            s.fresh_kill = (data.get("target"), int(data["killed_turn"]), tuple(data["at"]))
        if skill == SURVIVE:
            # A wand of sleep's ray (6d25 turns of sleep, at least 6): the monster is helpless.
            for m in data.get("messages") or []:
                for name in re.findall(r"The sleep ray hits the ([a-z][a-z -]*?)[.!]", m):
                    s.asleep[name] = turn + 12
        if skill == "read_or_zap_to_find_way":
            # the item it used, or "-" for a run that used none (runs per level are bounded)
            s.way_items_tried.setdefault(level, []).append(data.get("slot") or "-")
        if skill == "pray_when_safe" and result is not None and result.success:
            s.failures.clear()  # HP and hunger are fixed: every skill is worth trying again
        if skill == "eat_when_hungry" and not (result is not None and result.success):
            s.no_food = s.asked_food
        if skill == "dig_down":
            self.dive.note_dig_result(result, self._inventory)
        if skill == "engrave_elbereth":
            s.elbereth_at = (int(bl[12]), int(bl[0]), int(bl[1]))  # depth, x, y
        if skill == "explore_level" and result is not None and result.stopped_reason in (
                "search_exhausted", "blocked") and (result.data or {}).get("stairs_down"):
            s.mines_ok.add(level)  # searched in vain: the Mines are the only way on
        if skill == "explore_level" and result is not None and result.stopped_reason in (
                "search_exhausted", "blocked") and not (result.data or {}).get("stairs_down"):
            s.search_rounds.setdefault(level, 1)  # searched in vain once: rounds may start
        if int(bl[nh.NLE_BL_XP]) != s.cap_xl:  # a new level raises the cap by itself
            s.cap_xl = int(bl[nh.NLE_BL_XP])
            s.capped_turns = 0
        if skill == "explore_and_fight" and result is not None and result.stopped_reason == "max_depth":
            s.capped_turns += result.turns_elapsed
            if s.capped_turns >= self.CAP_PATIENCE:
                s.depth_bonus += 1
                s.capped_turns = 0
        if skill in ("explore_level", "explore_and_fight") and result is not None and \
                result.stopped_reason in self.EXPLORE_DONE:
            s.explored_levels.add(level)

    def note_result(self, skill: str, success: bool) -> None:
        if success:
            self.state.failures.pop(skill, None)
        else:
            self.state.failures[skill] = self.state.failures.get(skill, 0) + 1

    async def decide(self, ctx) -> Any:
        """``ctx``: the loop's DecisionContext (api, state, available skill names)."""
        api, state, have = ctx.api, ctx.state, ctx.skill_names
        s = self.state
        self._role = getattr(api, "hero_role", None) or ""
        stats = state["stats"]
        self._inventory = state["inventory"]
        hero: Position = stats.position
        level = state["level"]
        bl = api.game.obs["blstats"]
        level_key = (int(bl[23]), int(bl[24]))
        monsters = state["monsters"]
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame]
        adjacent = [m for m in hostile if m.position.is_adjacent(hero) and m.name not in NEVER_MELEE]
        near = [m for m in hostile if m.position.steps_to(hero) <= 6 and m.name not in NEVER_MELEE]
        hp_frac = stats.hp / stats.max_hp if stats.max_hp else 1.0
        hunger = stats.hunger
        timeout = self._prayer_timeout = await api.get_prayer_timeout()

        # A stall: decisions come and go but the game clock does not move (a skill
        # refusing at once, e.g. a monster diagonal to a doorway). Let time pass.
        if s.fallback_turn >= 0:
            s.fallbacks_short = s.fallbacks_short + 1 if stats.turn - s.fallback_turn < 10 else 0
            s.fallback_turn = -1
        s.recent_turns = (s.recent_turns + [stats.turn])[-4:]
        s.recent_stall = len(s.recent_turns) >= 3 and s.recent_turns[-1] - s.recent_turns[-3] < 20
        if len(s.recent_turns) == 4 and len(set(s.recent_turns)) == 1:
            s.recent_turns.clear()
            return _keys("s", "nothing moved for three decisions: search one turn so the situation changes")

        # A hard brake on decisions that come faster than the game moves outside a fight
        # (a loop among rules, each giving up at once): let 20 turns pass before the next.
        s.decision_turns = (s.decision_turns + [stats.turn])[-25:]
        if len(s.decision_turns) == 25 and stats.turn - s.decision_turns[0] < 50 and not adjacent \
                and hp_frac > 0.5 and hunger.severity < HungerState.WEAK.severity:
            s.decision_turns.clear()
            return _keys("20s", "25 decisions in under 50 turns: let time pass before deciding again")

        def ok(name: str) -> bool:
            if name not in have:
                return False
            if s.failures.get(name, 0) < 3:
                return True
            return stats.turn - s.failed_at.get(name, 0) > 100  # forgiven after a while

        # Before the first prayer the clock is exact (300 minus the turn): no gamble then.
        clock = getattr(api, "_prayer", None)
        gamble = self.DESPERATE_TIMEOUT if clock is not None and clock.last_prayer_turn is not None else 200

        # 0. deadly conditions only a prayer cures here (food poisoning, illness, stoning,
        # sliming, strangling): the hero dies within turns otherwise, so pray whatever the clock.
        effects = await api.get_status_effects()
        deadly = [e for e in effects if e in self.DEADLY_EFFECTS]
        if deadly and ok("pray_when_safe"):
            return _decision("pray_when_safe", {"max_timeout": 5000}, f"{deadly[0]}: pray, or die")
        # A were-creature's bite: the hero will turn into one, drop its armour and collapse
        # under its load in the next fight (seeds 15, 17 and 24 died so). It is major
        # trouble, so a prayer cures it whenever the timeout allows one.
        # (A sprig of wolfsbane or holy water cures it too, and keeps the prayer: Priests
        # start with both.)
        if "Lycanthropy" in effects and ok("cure_lycanthropy") and any(
                "wolfsbane" in i.text or "holy water" in i.text and "unholy" not in i.text
                for i in state["inventory"]):
            return _decision("cure_lycanthropy", {}, "lycanthropy: eat the wolfsbane or drink the holy water")
        # (Not in the middle of a fight: the prayer is worth more for HP there. A Ranger
        # prayed the fever away beside a werejackal and died three turns later.)
        # (Nor when Hungry with no food: within ~100 turns the hero is Weak, and a prayer
        # then fixes the hunger first and often the lycanthropy with it; prayed before,
        # it leaves the clock closed when hunger comes. A Healer so fainted to death.)
        hungry_foodless = hunger.severity >= HungerState.HUNGRY.severity and not any(
            i.object_class == "food" for i in state["inventory"])
        if "Lycanthropy" in effects and timeout <= 200 and not adjacent and not hungry_foodless and \
                ok("pray_when_safe"):
            return _decision("pray_when_safe", {}, "lycanthropy from a were-creature's bite: pray it away")

        # Overtaxed or Overloaded (a lycanthrope in rat form under a Cavewoman's flint
        # stones), the hero cannot move, fight or eat: dropping comes before all else.
        load_key = "|".join(i.text for i in state["inventory"])
        if stats.encumbrance in ("Overtaxed", "Overloaded") and load_key != s.load_seen and "lighten_load" in have:
            s.load_seen = load_key
            return _decision("lighten_load", {}, f"{stats.encumbrance}: I cannot even move; drop things")
        # Blind where peacefuls that kill live (Minetown's watch, a shopkeeper, a priest):
        # every step may bump one unseen, which angers it ("Wait! There's something
        # there you can't see! It gets angry!" — the watch killed a Cavewoman so). Wait
        # for sight to come back.
        if "Blind" in effects and not adjacent and hunger.severity < HungerState.WEAK.severity and (
                level_key[:2] in getattr(api, "_watched_levels", ()) or getattr(api, "_near_peaceful_keepers", bool)()):
            return _keys("20s", "blind where the watch or a shopkeeper may stand unseen: "
                                "wait for sight before walking into one")
        # 1. emergency: Weak from hunger in a fight, or with nothing to eat. A prayer fixes
        # the worst trouble first, and hunger outranks HP: pray now, while HP is fine, or a
        # later prayer for HP may only fill the stomach (seed 7 died so). Monsters cannot
        # touch a hero whose prayer is being answered.
        if hunger.severity >= HungerState.WEAK.severity and timeout <= 200 and ok("pray_when_safe") and (
                adjacent or not any(i.object_class == "food" for i in state["inventory"])):
            return _decision("pray_when_safe", {}, f"{hunger.value} with a fight at hand or no food: pray")
        major = stats.hp <= 5 or stats.hp * 7 <= stats.max_hp
        if major and timeout <= 200 and ok("pray_when_safe"):
            return _decision("pray_when_safe", {}, "HP is critical and prayer should be safe")
        # Put to sleep by a wand: kill it while it cannot fight back (a Healer zapped her wand
        # of sleep at a sleeping fox seven times running, never hit it, and died when it woke).
        asleep = [m for m in adjacent if s.asleep.get(m.name, -1) >= stats.turn]
        if asleep and len(asleep) == len(adjacent) and ok("melee_fight"):
            return _decision("melee_fight", {"target": asleep[0].name, "hp_threshold": 0.1},
                             f"the {asleep[0].name} is asleep: kill it while it cannot fight back")
        # Potions and wands: 20 of 40 heroes died carrying healing potions (Healers with
        # eight), attack wands or both, unused.
        kit = _emergency_kit(state["inventory"])
        if major and kit.heal and ok(SURVIVE):
            return _decision(SURVIVE, {"heal_below": 0.5}, "HP is critical and prayer is not safe: "
                             "drink a healing potion")
        # Swallowed (a dust vortex, a fog cloud, a lurker above): every attack hits the
        # engulfer, whatever the direction; searching and eating inside one only let it
        # go on (a blinded Monk searched inside a dust vortex until it killed him).
        if "Engulfed" in effects:
            if major and 200 < timeout <= gamble and ok("pray_when_safe"):
                return _decision("pray_when_safe", {"max_timeout": gamble},
                                 "engulfed with HP critical: pray even if it may be too soon")
            return _keys("Fh", "engulfed: attack the engulfer from inside (any direction hits it)")
        if major and adjacent and ok("engrave_elbereth") and not s.elbereth_failed_here(stats):
            return _decision("engrave_elbereth", {}, "HP is critical with a monster next to me: Elbereth")
        if major and adjacent and kit.wand and ok(SURVIVE):
            return _decision(SURVIVE, {"heal_below": 0.5}, "HP is critical with a monster next to me: "
                             "zap an attack wand at it")
        if major and adjacent and 200 < timeout <= gamble and ok("pray_when_safe"):
            # Elbereth did not hold and the next blow kills: a prayer that may come too
            # soon (Luck -3, an angry god) is better than certain death.
            return _decision("pray_when_safe", {"max_timeout": gamble},
                             "HP is critical, the monster is still next to me: pray even if it may be too soon")
        if major and adjacent and kit.mystery and ok(SURVIVE):
            return _decision(SURVIVE, {"heal_below": 0.5, "unknown": True},
                             "HP is critical, no prayer, nothing known to help: try an unknown potion or wand")
        # A monster zapping a wand at me (striking, magic missile, cold): Elbereth and rest do
        # not stop a wand, and five heroes of thirteen strong ones lost died so, one resting on
        # Elbereth while a gnome lord zapped it to death. Close in and kill it.
        zappers = getattr(api, "_zappers", {})
        wand_users = [m for m in hostile if stats.turn - zappers.get(m.name, -10_000) <= 30
                      and m.position.steps_to(hero) <= 6]
        if wand_users and not major and ok("melee_fight"):
            return _decision("melee_fight", {"target": wand_users[0].name, "hp_threshold": 0.2, "approach_radius": 6},
                             f"the {wand_users[0].name} zaps a wand at me, which Elbereth does not stop: "
                             "close in and kill it")
        # With HP critical too, when the zapper is weak (a gnome lord, difficulty 4; a kobold): it dies to a
        # blow or two, and waiting only gives the wand more turns.
        weak_zappers = [m for m in wand_users if m.threat_level <= max(4, stats.xp_level)]
        if weak_zappers and major and ok("melee_fight"):
            return _decision("melee_fight", {"target": weak_zappers[0].name, "hp_threshold": 0.0,
                                             "approach_radius": 6},
                             f"HP is critical and the {weak_zappers[0].name} zaps a wand at me: "
                             "it is weak, kill it before the next zap")
        # Low HP in a fight: most monsters will not melee a hero standing on Elbereth, and
        # running from a faster one (bats, dogs, ants) only gets the hero hit in the back.
        respecting = [m for m in adjacent if not m.ignores_elbereth]
        # "Low" is what the monsters next to me can take in a turn, not a fixed share:
        # a soldier ant can take 30 HP, a jackal 2.
        threat = sum([await self._hit_potential(api, m.name) for m in adjacent])
        in_danger = hp_frac < 0.4 or (adjacent and stats.hp <= self.DANGER_FACTOR * threat and hp_frac < 0.8)
        # Slower than the hero (a rothe, a zombie): walking away beats Elbereth, which takes
        # a turn and comes out smudged one time in four. Rothes, three bites a turn, killed
        # seven heroes who stood and engraved.
        outrun = bool(adjacent) and stats.encumbrance == "Unencumbered" and all(
            [await self._speed(api, m.name) < 12 for m in adjacent])
        # (Not when the stairs lie past them: a walk by them is a walk under their blows.)
        if in_danger and outrun and level.stairs_up is not None and stats.dungeon_level > 1 and \
                level.stairs_up.steps_to(hero) <= 40 and ok("retreat_upstairs") and all(
                    m.position.steps_to(level.stairs_up) >= level.stairs_up.steps_to(hero) for m in adjacent):
            return _decision("retreat_upstairs", {"hp_threshold": 0.95},
                             f"in danger next to a {adjacent[0].name} slower than me: walk away upstairs")
        if in_danger and respecting and ok("engrave_elbereth") and not s.elbereth_failed_here(stats):
            # (Rest on it nearly to full: the monster it scared waits close by, and heroes
            # who went back to it at 70% of their HP often needed Elbereth again at once.)
            return _decision("engrave_elbereth", {"rest_to": 0.9, "max_turns": 300},
                             f"HP low with a {respecting[0].name} next to me: Elbereth, and rest on it")
        if in_danger and adjacent and (kit.heal and hp_frac < 0.5 or kit.wand) and ok(SURVIVE):
            return _decision(SURVIVE, {"heal_below": 0.5},
                             f"in danger next to a {adjacent[0].name} that Elbereth does not stop: "
                             "a healing potion or an attack wand")
        # Running for the stairs only pays when they are close or the monsters slow: a fox
        # or a dog bites the back of a fleeing hero all the way there (seeds 14, 19).
        stairs_close = bool(level.stairs_up) and stats.dungeon_level > 1 and (
            level.stairs_up.steps_to(hero) <= 3 or all([await self._speed(api, m.name) < 12 for m in adjacent]))
        if hp_frac < 0.35 and adjacent and stairs_close and ok("retreat_upstairs"):
            return _decision("retreat_upstairs", {}, "HP low with a monster next to me: leave by the up stairs")
        # A cockatrice biting me: its touch and hissing turn me to stone. It is never in
        # `adjacent` (never meleed bare-handed), so deal with it here: Elbereth scares it;
        # failing that, a hero with a weapon in hand kills it (melee_fight checks that).
        petrifiers = [m for m in hostile if m.position.is_adjacent(hero) and m.name in ("cockatrice", "chickatrice")]
        if petrifiers:
            if ok("engrave_elbereth") and not s.elbereth_failed_here(stats):
                return _decision("engrave_elbereth", {}, f"a {petrifiers[0].name} is biting me: Elbereth")
            armed = any((i.equipped or "").startswith("weapon") for i in state["inventory"])
            if armed and self._role.lower() != "monk" and ok("melee_fight"):
                return _decision("melee_fight", {"target": petrifiers[0].name},
                                 f"the {petrifiers[0].name} ignores Elbereth: kill it with the weapon in hand")
        # 2. fight what is next to me: weak monsters inside the long exploring skill
        # (one decision for the whole level), strong ones with care.
        strong = [m for m in adjacent if m.threat_level > stats.xp_level + self.DANGER_MARGIN]
        if strong:
            if ok("engrave_elbereth") and not s.elbereth_failed_here(stats) and any(
                    not m.ignores_elbereth for m in strong):
                return _decision("engrave_elbereth", {}, f"the {strong[0].name} is too strong to fight: Elbereth")
            if kit.wand and ok(SURVIVE):
                return _decision(SURVIVE, {}, f"the {strong[0].name} is too strong to fight: zap a wand at it")
            if stairs_close and ok("retreat_upstairs"):
                # (force: at any HP — with its default it refused while HP was above half, three
                # times a turn, and a Monk who had just prayed to full fought the Elvenking.)
                return _decision("retreat_upstairs", {"force": True}, f"the {strong[0].name} is too strong: leave upstairs")
        if adjacent and hp_frac >= 0.45 and stats.hp > self.DANGER_FACTOR * threat and not strong and ok("explore_and_fight"):
            hunt = self._mines_hunt(s, stats, level_key, ok)
            if hunt is not None:
                return hunt
            return self._explore(s, level_key, stats, f"fight the {adjacent[0].name}, then go on exploring",
                                 self._avoid_branches(api, s, level_key, stats))
        if adjacent and ok("melee_fight"):
            return _decision("melee_fight", {"hp_threshold": 0.35}, f"fight the {adjacent[0].name}")
        if adjacent:
            # The fighting skills have just handed back (low HP, nothing else helped): one
            # blow at a time rather than exploring on, which fights anyway and blindly
            # (a Cavewoman explored on between a giant spider and a giant ant, and died).
            target = min(adjacent, key=lambda m: m.threat_level)
            return _keys("F" + _VI_KEYS[hero.direction_to(target.position)],
                         f"the {target.name} is next to me and nothing else helps: hit it")
        # A fresh kill is food while it is fresh, hungry or not: heroes who ate only when
        # Hungry lived from prayer to prayer (one for hunger every ~850 turns), so a prayer
        # was seldom free when HP ran out.
        kill, s.fresh_kill = s.fresh_kill, ()
        if kill and kill[0] and stats.turn - kill[1] <= 20 and hunger != HungerState.SATIATED and \
                "eat_when_hungry" in have:
            s.eating_kill = True
            return _decision("eat_when_hungry", {"force": True, "corpses_only": True, "max_walk": 6},
                             f"eat the {kill[0]} I just killed while it is fresh")
        # Floating eyes, molds and the like are walked around (pathing avoids them).
        # Hurt, nothing adjacent: heal first (under Elbereth when something is in view) —
        # unless Weak with food in the pack: eat first (resting goes on while Weak).
        weak_with_food = hunger.severity >= HungerState.WEAK.severity and ok("eat_when_hungry") and any(
            i.object_class == "food" for i in state["inventory"])
        if hp_frac < 0.5 and not adjacent and not weak_with_food:
            if near and ok("engrave_elbereth"):
                return _decision("engrave_elbereth", {"rest_to": 0.8}, "hurt with monsters about: rest on Elbereth")
            if ok("rest_until_healed"):
                return _decision("rest_until_healed", {"hp_fraction": 0.9}, "hurt: rest before going on")
            if hp_frac < 0.4:
                # Both keep handing back (a monster in view that never comes): exploring
                # on would stop at once for low HP too. Let HP come back a little.
                return _keys("20s", "hurt, and resting keeps being cut short: search 20 turns")
        # 3. eat
        # (the API remembers every kill: a new one is worth another try at eating)
        kills = tuple((k.species, k.turn) for k in await api.recent_kills(5) if k.by_hero)
        food_key = (hunger.value, kills,
                    sum(1 for i in state["inventory"] if i.object_class == "food"))
        if hunger.severity >= HungerState.HUNGRY.severity and ok("eat_when_hungry") and food_key != s.no_food:
            s.asked_food = food_key
            params = {}
            if hunger.severity >= HungerState.WEAK.severity:
                params["max_walk"] = 20  # a kill up to 55 turns old is food now: worth a longer walk
            return _decision("eat_when_hungry", params, f"I am {hunger.value}")
        if hunger.severity >= HungerState.WEAK.severity and ok("pray_when_safe"):
            # Fainting with nothing to eat: pray whatever the clock says (once: a god angered
            # by it leaves the clock "unknown"). Even right after a prayer about one in five
            # rnz(350) draws is low enough, and more the longer since; 16 of 80 heroes died
            # fainting, most of them with the prayer "too soon" by the cautious clock.
            if hunger.severity >= HungerState.FAINTING.severity and timeout < PrayerClock.UNKNOWN:
                return _decision("pray_when_safe", {"max_timeout": PrayerClock.UNKNOWN - 1},
                                 "Fainting with no food: pray even if it may be too soon (starving is certain)")
            if timeout <= 200:
                return _decision("pray_when_safe", {}, "Weak from hunger and no food: pray")
        # 4. loot and gear up. First shed a load: a Burdened hero is slower in every
        # fight and cannot squeeze between rock corners (shut in so, heroes starved).
        # (Once per inventory: what is left is what the skill keeps, e.g. a cursed loadstone.)
        squeeze = bool(getattr(api, "_too_heavy_to_squeeze", False))  # refused a diagonal gap lately
        if (stats.encumbrance != "Unencumbered" or squeeze) and not adjacent and load_key != s.load_seen and \
                "lighten_load" in have:
            s.load_seen = load_key
            return _decision("lighten_load", {"squeeze": squeeze},
                             "too heavy to squeeze through a gap: drop what I do not need" if squeeze else
                             f"{stats.encumbrance}: drop what I do not need")
        spot = (level_key[0], level_key[1], hero.x, hero.y)
        last = s.last_result
        stopped_on_items = last is not None and last.stopped_reason == "items_here"
        if spot not in s.picked_up_at and "pickup_useful" in have and (stopped_on_items or (
                ok("pickup_useful") and _items_on(api, hero))):
            s.picked_up_at.add(spot)
            return _decision("pickup_useful", {}, "there are objects here")
        weapons = "|".join(i.text for i in state["inventory"] if i.object_class == "weapon")
        if weapons != s.weapons_seen:
            first = not s.weapons_seen
            s.weapons_seen = weapons
            if not first and ok("wield_better_weapon") and self._role.lower() != "ranger":  # keeps the bow
                return _decision("wield_better_weapon", {}, "new weapons: wield one if it is clearly better")
        armor = "|".join(i.text for i in state["inventory"] if i.object_class in ("armor", "ring", "amulet"))
        if armor != s.armor_seen:
            s.armor_seen = armor
            if ok("wear_better_armor") and any(i.object_class in ("armor", "ring", "amulet") and not i.equipped
                                               for i in state["inventory"]):
                return _decision("wear_better_armor", {}, "new armour: wear it if it is better")
        # 5. rest when hurt and safe
        if hp_frac < 0.6 and not near and ok("rest_until_healed"):
            return _decision("rest_until_healed", {"hp_fraction": 0.9}, "hurt and nothing near: rest")
        # A monster that must not be touched (a mold in a doorway, a floating eye in a
        # corridor) stands in the only way on: shoot it if there is anything to throw.
        blocked = last is not None and last.stopped_reason in ("stuck", "blocked", "search_exhausted")
        untouchable = [m for m in monsters if m.name in NEVER_MELEE and not m.is_tame and not m.is_peaceful
                       and m.position.steps_to(hero) <= 7]
        if (blocked or s.recent_stall) and untouchable and ok("ranged_attack") and _has_missiles(state["inventory"]):
            return _decision("ranged_attack",
                             {"target": untouchable[0].name, "max_throws": 10, "wield_launcher": True},
                             f"the {untouchable[0].name} blocks the way and must not be touched: shoot it")
        # One whose touch only stings (an acid blob's acid, a mold's cold or fire, at most
        # the HP below per blow) is killed when the hero has HP to spare: an acid blob sat
        # in a doorway for 1,000 turns while a Priestess waited outside and starved.
        # (At full health a little under the mark will do: a Knight with 29 HP of 29 waited
        # 4,500 turns on Dlvl 2 for a green mold, which needs 30, to move.)
        stingers = [m for m in untouchable if m.position.steps_to(hero) <= 3
                    and stats.hp >= min(self.STING_HP.get(m.name, 10_000), stats.max_hp)
                    and stats.max_hp >= 0.6 * self.STING_HP.get(m.name, 10_000)]
        if (blocked or s.recent_stall or any(m.position.is_adjacent(hero) for m in stingers)) and stingers \
                and ok("melee_fight"):
            return _decision("melee_fight", {"target": stingers[0].name, "hp_threshold": 0.5},
                             f"the {stingers[0].name} blocks the way; its touch only stings: kill it")
        # A shopkeeper at his post inside the door stays put unless the hero stands in line
        # with him (NetHack's shk_move): step next to him and he wanders off the way out.
        # (Heroes starved inside shops, 10,000 turns behind a shopkeeper who never moved.)
        # (A few tries a level: one who still will not move is owed money or keeps out a
        # pick-axe, and waiting on him for ever only burns decisions.)
        keeper = [m for m in monsters if m.name == "shopkeeper" and m.position.steps_to(hero) <= 5]
        tries = s.shop_tries.get(level_key, 0)
        if (blocked or s.recent_stall) and keeper and ok("go_to") and tries < 8:
            s.shop_tries[level_key] = tries + 1
            shk = keeper[0].position
            # One who is owed never moves: pay first (a corpse eaten on his floor kept a
            # Ranger and a Healer at a shop door for thousands of turns). Costs no turn
            # when nothing is owed.
            if tries in (0, 4) and stats.gold > 0 and "pay_shopkeeper" in have:
                return _decision("pay_shopkeeper", {}, "the shopkeeper keeps the door: pay what I owe")
            if shk.is_adjacent(hero):
                return _keys("10s", "next to the shopkeeper: wait for him to step aside")
            occupied = {m.position for m in monsters}
            beside = [shk.offset(d) for d in ("n", "s", "e", "w", "ne", "nw", "se", "sw")]
            beside = [p for p in beside if p.on_map() and p not in occupied and level.tile_at(p).is_walkable
                      and level.tile_at(p).feature is None]
            if beside:
                spot = min(beside, key=lambda p: p.steps_to(hero))
                return _decision("go_to", {"x": spot.x, "y": spot.y, "max_steps": 20},
                                 "the shopkeeper stands in the way out: step next to him so he moves aside")
        # Nothing to shoot it with: walk well away and wait, so it can drift off. A floating
        # eye moves once in twelve turns, and never while boxed in between the hero and a
        # wall or a pet: three heroes waited beside one for 6,000+ turns and starved.
        if s.make_room_until > stats.turn and not near:
            return _decision("rest_until_healed", {"hp_fraction": 1.01, "max_turns": 40, "batch": 5},
                             "waiting away from the untouchable monster in the way, so it can move off")
        # (also when one sits right next to the hero: a gas spore there makes every rest
        # and search stop at once, and one hero spent 7,000 turns so)
        # (Not from a mold: molds never move.)
        movers = [m for m in untouchable if not m.name.endswith(" mold")]
        touching = any(m.position.is_adjacent(hero) for m in movers)
        if (blocked or s.recent_stall or touching) and movers and ok("go_to"):
            eye = min(movers, key=lambda m: m.position.steps_to(hero))
            spot = _room_to_wait(level, hero, eye.position, {m.position for m in monsters})
            if eye.position.steps_to(hero) <= (3 if touching or not blocked else 8) and spot is not None:
                s.make_room_until = stats.turn + 120
                return _decision("go_to", {"x": spot.x, "y": spot.y, "max_steps": 60},
                                 f"the {eye.name} blocks the way and I cannot shoot it: step well away "
                                 "and give it room to move")
        # A floating eye that has kept the only way shut for hundreds of turns (in a dead
        # end, between two doors, beside a boulder), with nothing left to shoot or zap:
        # four heroes starved so. Hit it after all, at full health and with no other
        # monster about: a hit that does not kill it freezes the hero for up to ~200
        # turns, which alone on a quiet level is mostly survived; starving is not.
        eyes = [m for m in untouchable if m.name == "floating eye" and m.position.is_adjacent(hero)]
        # Boxed in (monsters and walls on every side): nothing a skill tries can work.
        occupied = {m.position for m in monsters}
        boxed = not any(level.tile_at(p).is_walkable and p not in occupied
                        for p in (hero.offset(d) for d in _VI_KEYS) if p.on_map())
        if boxed and not eyes and not any(m.position.is_adjacent(hero) for m in hostile):
            # Peacefuls all round (three peaceful floating eyes held a Knight in a corner):
            # they drift off in time; wait cheaply rather than plan walks that cannot start.
            return _keys("20s", "boxed in by peaceful monsters: wait for one to move off")
        if (blocked or s.recent_stall or boxed) and eyes:
            s.eye_stall_since.setdefault(level_key, stats.turn)
            # (nobody else can reach a hero boxed in: the eyes fill every way in)
            others = [] if boxed else [m for m in hostile if m.name != "floating eye" and
                                      m.position.steps_to(hero) <= 10]
            # Boxed in by eyes: nothing will change, no waiting.
            patience = 0 if boxed else self.EYE_PATIENCE
            if stats.turn - s.eye_stall_since[level_key] >= patience and not others and \
                    hp_frac >= 0.9 and hunger.severity < HungerState.WEAK.severity:
                # (Not sleep or slow monster: a Healer put the eye in a shop's door to sleep 10
                # times over and stayed shut in; a sleeping eye still blocks, its gaze still freezes.)
                if kit.kill_wand and ok(SURVIVE):
                    return _decision(SURVIVE, {"kill_only": True},
                                     "a floating eye has blocked the way for long: zap a wand at it")
                return _keys("F" + _VI_KEYS[hero.direction_to(eyes[0].position)],
                             "a floating eye has blocked the only way for hundreds of turns "
                             "and nothing else works: hit it, alone and at full health")
        # A weak peaceful (a lichen, a newt) standing in the only way on for good: anger
        # it and fight (alignment -1) rather than wait thousands of turns.
        if blocked and level_key in s.explored_levels and ok("melee_fight"):
            meek = [m for m in monsters if m.is_peaceful and not m.is_tame and m.position.steps_to(hero) <= 3
                    and m.char not in "@&A" and m.name not in NEVER_MELEE
                    and not any(w in m.name for w in NetHackAPI.NEVER_ANGER)
                    and m.threat_level <= stats.xp_level + 1]
            if meek:
                return _decision("melee_fight", {"target": meek[0].name, "peaceful_ok": True},
                                 f"the peaceful {meek[0].name} blocks the only way on: fight it")
        # Diving: advance a skill, take a dwarf's pick-axe, dig down.
        step = self.dive.next_step(api, self._role, stats, state["inventory"], monsters, ok, hp_frac,
                                   hunger.severity >= HungerState.WEAK.severity, level_key,
                                   fit_for_dwarves=self.fit_for_dwarves)
        if step is not None:
            return _decision(step.skill, step.params, step.why)
        # In the Gnomish Mines without a digging tool: hunt its dwarves for one first.
        hunt = self._mines_hunt(s, stats, level_key, ok)
        if hunt is not None:
            return hunt
        # 6. explore this level, then 7. go down — one skill does both, level after level.
        avoid = self._avoid_branches(api, s, level_key, stats)
        if stats.branch in avoid and level.stairs_up is not None and ok("retreat_upstairs"):
            return _decision("retreat_upstairs", {"force": True},
                             f"the {stats.branch} are no place for this hero yet: back up")
        way_down = level.stairs_down
        if way_down is not None and level.stairs_down_branch in avoid:
            way_down = None  # only the Mines' stairs are known here: find the main ones
        if ok("explore_and_fight") and (level_key not in s.explored_levels or way_down is not None):
            return self._explore(s, level_key, stats, "explore, fighting what gets in the way, then go down",
                                 avoid)
        search = {"fight": True, "stop_at_stairs": True, "avoid_branches": list(avoid)}
        if level_key not in s.explored_levels and ok("explore_level"):
            return _decision("explore_level", search, "explore the level")
        if way_down is not None and ok("descend"):
            s.last_descend_turn = stats.turn
            return _decision("descend", {}, "the level is explored: go down")
        if "explore_level" in have and ok("explore_level"):
            # No way down known yet: exploring again searches for hidden passages.
            return _decision("explore_level", search, "look again for the way down: search for hidden passages")
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
        pick = any(DIGGING_TOOL.search(i.text or "") for i in state["inventory"])
        if way_down is None and level_key in s.explored_levels and (rounds >= 2 or pick and rounds >= 1) and \
                not adjacent and "read_or_zap_to_find_way" in have and len(tried) < 6 and any(
                    (i.object_class in ("scroll", "wand") or pick) and i.slot not in tried
                    and "for sale" not in i.text for i in state["inventory"]):
            return _decision("read_or_zap_to_find_way", {"tried": list(tried)},
                             "no way on found however long I search: try a wand (zapped down) or a scroll")
        # (counted as they are asked for: a round that ends at once without a search,
        # e.g. walled in, must not be asked for again and again)
        if way_down is None and level_key in s.explored_levels and "explore_level" in have and 0 < rounds \
                and not (last is not None and last.turns_elapsed == 0):
            s.search_rounds[level_key] = rounds + 1
            share = 15 * 2 ** min(rounds, 4)
            return _decision("explore_level", dict(search, searches_per_spot=share, max_search_turns=600),
                             f"no way on found: search every likely spot again, {share} times each")
        # Every skill has failed here lately: let time pass (monsters move, HP comes back)
        # rather than ask again at once.
        # (A count search stops by itself when a monster turns up or attacks.)
        if s.fallbacks_short >= 2 and "rest_until_healed" in have:
            # The counted search keeps being cut short (a monster in view that never comes):
            # wait with a skill that ignores such monsters.
            s.fallbacks_short = 0
            return _decision("rest_until_healed", {"hp_fraction": 1.01, "max_turns": 60, "batch": 5},
                             "nothing works and searching keeps being interrupted: wait 60 turns")
        s.fallback_turn = stats.turn
        return _keys("40s", "nothing works right now: search for up to 40 turns and look again")

    # Blockers whose passive harm is bounded, and the HP a hero needs to hit them: an
    # acid blob splashes 1d8 (half the time), a yellow mold stuns, a red mold burns 4d4,
    # green and brown molds 4d6 acid and 6d4 cold (only while they live, for the molds).
    STING_HP = {"acid blob": 12, "yellow mold": 15, "red mold": 25, "green mold": 30, "brown mold": 30}

    EYE_PATIENCE = 400  # turns a floating eye may block the only way before it is hit

    LINGER_TURNS = 300
    # Elbereth goes down while HP is above one worst turn by this margin: engraving takes a
    # turn of its own, and a second unlucky turn killed heroes who waited until HP <= threat.
    # (explore_and_fight hands back at the same point.)
    DANGER_FACTOR = 1.5

    async def _speed(self, api, name: str) -> int:
        """The monster's base speed (12 = the hero's usual); 12 when unknown."""
        if name not in self._speeds:
            try:
                self._speeds[name] = int((await api.lookup_monster(name)).speed)
            except Exception:
                self._speeds[name] = 12
        return self._speeds[name]

    async def _hit_potential(self, api, name: str) -> float:
        """Damage a monster can do in one of the hero's turns at worst (dice maxima, armed
        monsters counted with a weapon of d8, times the moves its speed can give it in one turn); 0 when unknown. A
        poisonous attack counts 15 more for a hero without poison resistance: a poisoned
        sting or bite kills outright one time in 30 (killer bees, soldier ants)."""
        cache = self._hits
        try:
            resistant = "poison" in api._eater().resistances
        except Exception:
            resistant = False
        key = (name, resistant)
        if key not in cache:
            try:
                info = await api.lookup_monster(name)
            except Exception:
                cache[key] = 0.0
                return 0.0
            total = float(info.max_damage_per_turn)
            if not resistant and any("poison" in a and not a.startswith("passive") for a in info.attacks):
                total += 15
            cache[key] = total
        return cache[key]

    def max_depth(self, stats, starving: bool = False) -> int:
        """How deep the hero may go at its experience level: the strongest bots stay on
        the first levels until the hero can take what lives further down. A hungry hero
        with nothing to eat goes on regardless: new levels bring food and corpses."""
        if starving or self.diving(stats):
            return 50
        ahead = 0 if self._role.lower() in self.WEAK_ROLES else self.DEPTH_AHEAD
        return max(2, stats.xp_level + ahead + self.state.depth_bonus)

    def diving(self, stats) -> bool:
        """Whether the hero now goes down as fast as it can (see diving.py)."""
        return self.dive.diving(self._role, stats, self._inventory)

    # Roles that fight poorly stay no deeper than their experience level. Over 320 games
    # (seeds 0-79, four runs) Healers, Tourists, Rogues and Priests had median scores of
    # 300-700 and died at experience level 3-4 on average (Samurai, Monks and Rangers:
    # medians of 1,900-2,800).
    WEAK_ROLES = ("healer", "tourist", "rogue", "priest", "priestess")

    # One level ahead of the experience level (was two): over seeds 0-79 the median score
    # rose in both halves (931 -> 1,150 and 702 -> 752) for a little less depth.
    DEPTH_AHEAD = 1
    # Waiting at the cap this long without gaining a level: go one level deeper anyway
    # (food runs out and score stands still; seeds 17 and 38 waited 4,000 turns at Dlvl 4-5).
    CAP_PATIENCE = 1500

    # Gnome lords with wands, dwarves with mattocks and hill orcs kill most low-level
    # heroes in the Gnomish Mines; gnomes and dwarves are at home there.
    MINES_SAFE_RACES = ("gnome", "dwarf")

    def _hunt_possible(self, s: "AutopilotState", stats) -> bool:
        """Whether this hero would hunt the Mines' dwarves for a pick if it were there."""
        return not s.mines_hunt_over and self.fit_for_dwarves(stats) and \
            self.dive.digging_tool(self._inventory) is None

    def _avoid_branches(self, api, s: "AutopilotState", level_key: tuple[int, int],
                        stats=None) -> tuple[str, ...]:
        # (Once the Mines are the only way on from some level, they are allowed below it
        # too: allowed on the entrance level alone, a Samurai went down, climbed back
        # out of the Mines as "no place for this hero yet", and went down again, 566 times.)
        if (getattr(api, "hero_race", None) or "") in self.MINES_SAFE_RACES or level_key in s.mines_ok or (
                s.mines_ok and level_key[0] != 0):
            return ()
        if stats is not None and stats.branch != "Gnomish Mines" and self._hunt_possible(s, stats):
            return ()  # the Mines are welcome: explore_and_fight hands back on arrival
        return ("Gnomish Mines",)

    # The Mines' first levels are full of dwarves, most of them carrying a pick-axe or a
    # mattock; a digging tool takes a hero down a level in about five turns. A hero able
    # to fight them hunts there for a while before going back to the main dungeon.
    MINES_HUNT_LEVELS = 2  # how many Mines levels the hunt covers
    MINES_HUNT_TURNS = 1000  # game turns the hunt may take in all

    def fit_for_dwarves(self, stats) -> bool:
        """Whether the hero can take on the Mines' dwarves (a mattock hits for up to d12)."""
        return self._role.lower() not in self.WEAK_ROLES and (stats.xp_level >= 3 or stats.max_hp >= 20)

    def _mines_hunt(self, s: "AutopilotState", stats, level_key: tuple[int, int], ok):
        if stats.branch != "Gnomish Mines" or s.mines_hunt_over or not ok("explore_and_fight"):
            return None
        if self.dive.digging_tool(self._inventory) is not None or not self.fit_for_dwarves(stats):
            return None
        if stats.level_in_branch > self.MINES_HUNT_LEVELS:
            return None
        if s.mines_hunt_start < 0:
            s.mines_hunt_start = stats.turn
        last = s.last_result
        done_here = last is not None and last.stopped_reason == "max_depth" and \
            stats.level_in_branch >= self.MINES_HUNT_LEVELS
        foodless = stats.hunger.severity >= HungerState.HUNGRY.severity and not any(
            i.object_class == "food" for i in self._inventory)
        if done_here or foodless or stats.turn - s.mines_hunt_start > self.MINES_HUNT_TURNS:
            s.mines_hunt_over = True
            return None
        decision = self._explore(s, level_key, stats, "hunt the Gnomish Mines' dwarves for a pick-axe", avoid=())
        decision.params.update(descend=True, linger_turns=150,
                               max_depth=stats.dungeon_level - stats.level_in_branch + self.MINES_HUNT_LEVELS)
        decision.params.pop("dive", None)
        return decision

    def _explore(self, s: "AutopilotState", level_key: tuple[int, int], stats, why: str,
                 avoid: tuple[str, ...] = ("Gnomish Mines",)):
        piles = [[x, y] for (dn, dl, x, y) in s.picked_up_at if (dn, dl) == level_key]
        params: dict[str, Any] = {"descend": True, "danger_margin": self.DANGER_MARGIN,
                                  "avoid_branches": list(avoid)}
        # Every Wizard starts knowing force bolt and every Healer healing, as spell a.
        role = self._role.lower()
        if role == "wizard":
            params["attack_spell"] = "a"
        elif role == "healer":
            params["heal_spell"] = "a"
        elif role in ("ranger", "tourist", "rogue"):
            # Bow and arrows, darts, daggers: better thrown than their melee (a Ranger's
            # dagger, a Tourist's bare hands, a Rogue's short sword).
            params["archery"] = True
        if stats.xp_level < 8:
            # Few hit points to spare: go into the next fight (and the next level) nearly whole.
            params["rest_below"] = 0.75
            params["descend_min_hp"] = 0.8
        if stats.max_hp and stats.max_hp < 18:
            # Few hit points: one more bite can kill, so hand back earlier (7 HP at least).
            params["hp_threshold"] = round(min(0.7, max(0.4, 7 / stats.max_hp)), 2)
        # (Not while a prayer can still fill the stomach once Weak: a Hungry Priest at XL 2
        # dived to Dlvl 8 for food with a prayer in hand, and died there.)
        starving = bool(s.no_food) and stats.hunger.severity >= HungerState.HUNGRY.severity and \
            self._prayer_timeout > 200
        deepest = self.max_depth(stats, starving=starving)
        if deepest < 50:
            params["max_depth"] = deepest
            params["linger_turns"] = self.LINGER_TURNS
        if s.no_food and s.no_food[0] == stats.hunger.value:
            params["keep_going_hungry"] = True  # no safe food to be had: go on (kills and new levels bring food)
        if self.diving(stats):
            params["dive"] = True
        if piles:
            params["known_piles"] = piles
        if "Gnomish Mines" not in avoid and stats.branch != "Gnomish Mines" and self._hunt_possible(s, stats):
            params["stop_on_branch_change"] = True
        return _decision("explore_and_fight", params, why)

    def explored(self, api) -> None:
        bl = api.game.obs["blstats"]
        self.state.explored_levels.add((int(bl[23]), int(bl[24])))


SURVIVE = "quaff_or_zap_to_survive"
HEALING_POTIONS = ("potion of healing", "potions of healing", "potion of extra healing",
                   "potions of extra healing", "potion of full healing", "potions of full healing")
ATTACK_WANDS = ("wand of sleep", "wand of cold", "wand of fire", "wand of lightning", "wand of magic missile",
                "wand of striking", "wand of teleportation", "wand of slow monster")


@dataclass
class EmergencyKit:
    """What quaff_or_zap_to_survive could use: healing potions, attack wands, unknown ones."""

    heal: bool
    wand: bool
    mystery: bool
    kill_wand: bool = False  # a wand that hurts or removes a monster (not sleep, not slow)


def _emergency_kit(inventory) -> EmergencyKit:
    names = [((i.name or "").lower(), i) for i in inventory]
    heal = any(any(h in n for h in HEALING_POTIONS) for n, i in names if i.object_class == "potion")
    charged = [(n, i) for n, i in names if i.object_class == "wand" and "(0:0)" not in (i.text or "")
               and "(0:-1)" not in (i.text or "")]
    wand = any(any(w in n for w in ATTACK_WANDS) for n, _ in charged)
    mystery = any(" of " not in n for n, i in names if i.object_class == "potion"
                  and i.blessed_cursed_unknown != "cursed" and "water" not in n and "clear" not in n) or \
        any(" of " not in n for n, _ in charged)
    kill_wand = any(any(w in n for w in ATTACK_WANDS if w not in ("wand of sleep", "wand of slow monster"))
                    for n, _ in charged)
    return EmergencyKit(heal, wand, mystery, kill_wand)


THROWN = ("dagger", "knife", "spear", "javelin", "dart", "shuriken")
AMMO_FOR = {"bow": ("arrow",), "yumi": ("ya",), "crossbow": ("crossbow bolt",)}


def _has_missiles(inventory) -> bool:
    """Something ranged_attack could throw, or ammunition with its launcher (a rough look;
    the skill checks properly)."""
    names = [(i.name or "").lower() for i in inventory if i.object_class == "weapon"
             and not (i.equipped or "").startswith("weapon")]
    wielded = " ".join((i.name or "").lower() for i in inventory if (i.equipped or "").startswith("weapon"))
    if any(w in n for n in names for w in THROWN):
        return True
    carried = " ".join(names) + " " + wielded
    return any(launcher in carried and any(a in n for n in names for a in ammo)
               for launcher, ammo in AMMO_FOR.items())


def _room_to_wait(level, hero: Position, blocker: Position, occupied: set) -> Optional[Position]:
    """A known floor square within 25 steps of the hero, reachable without passing the
    blocker, and as far from it as possible (at least 6 squares); None when there is none."""
    dist = {hero: 0}
    order = [hero]
    i = 0
    while i < len(order):
        p = order[i]
        i += 1
        if dist[p] >= 25:
            continue
        for d in ("n", "s", "e", "w", "ne", "nw", "se", "sw"):
            q = p.offset(d)
            if q in dist or not q.on_map() or q in occupied or q.steps_to(blocker) <= 1:
                continue
            t = level.tile_at(q)
            if not t.is_walkable or t.has_trap:
                continue
            if len(d) == 2 and (level.tile_at(p).feature in _DOORS or t.feature in _DOORS):
                continue
            dist[q] = dist[p] + 1
            order.append(q)
    best = max(order, key=lambda p: (p.steps_to(blocker), -dist[p]))
    return best if best.steps_to(blocker) >= 6 else None


_DOORS = ("doorway", "open door", "closed door")
_VI_KEYS = {"n": "k", "s": "j", "e": "l", "w": "h", "ne": "u", "nw": "y", "se": "n", "sw": "b"}


def _items_on(api, hero: Position) -> bool:
    """Whether the hero stands on objects, from the messages of the last step (no extra look)."""
    recent = " ".join(api._kb.history[-4:])
    return "You see here" in recent or "Things that are here" in recent or "several objects here" in recent \
        or "many objects here" in recent
