"""The built-in offline strategist: library skills chosen by fixed priorities.

It never calls a model, so the main job always runs. Each decision hands the
game to one skill that runs many actions; it decides again only when that skill
stops (done, interrupted, or out of budget). Priorities, highest first, after the
strongest NetHack bots: emergency healing or prayer, fight, eat, pick up and
wear/wield, rest, explore, descend.

This module keeps what the autopilot remembers (``AutopilotState``), how it learns
from each skill's result, the depth it allows and the Gnomish Mines' hunt for a
pick. Its rules live in phase modules, tried in order by ``decide`` over a shared
``Situation`` (autopilot_context.py): autopilot_survival.py, autopilot_fight.py,
autopilot_upkeep.py, autopilot_blockers.py and autopilot_way_down.py; the diving
policy is diving.py.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
from typing import Any, Optional

from ...api import fight_odds, knowledge
from ...api.models import Alignment, HungerState, Position
from . import autopilot_blockers as blockers
from . import autopilot_fight as fight
from . import autopilot_survival as survival
from . import autopilot_upkeep as upkeep
from . import autopilot_way_down as way_down
from .autopilot_context import (MAIN_DUNGEON, NEVER_MELEE, SURVIVE, WEAK_ROLES, EmergencyKit, LevelKey, Situation,
                                VI_KEYS, emergency_kit, invoke as _decision, level_key_of, press,
                                slant_through_door)
from .diving import DivePolicy

__all__ = ["Autopilot", "AutopilotState", "EmergencyKit", "NEVER_MELEE", "PHASES", "SURVIVE"]


@dataclass
class AutopilotState:
    """What the autopilot remembers between its decisions."""

    picked_up_at: set[tuple[str, int, int, int]] = field(default_factory=set)  # (*level key, x, y)
    inventory_seen: str = ""
    explored_levels: set[LevelKey] = field(default_factory=set)
    failures: dict[str, int] = field(default_factory=dict)  # skill -> consecutive failures
    failed_at: dict[str, int] = field(default_factory=dict)  # skill -> turn of the last failure
    level: LevelKey = ("", 0)
    turn: int = 0
    recent_turns: list[int] = field(default_factory=list)  # game turn at each decision
    last_result: Optional[Any] = None  # how the previous skill ended
    armor_seen: str = ""
    weapons_seen: str = ""
    last_descend_turn: int = -10_000
    elbereth_at: tuple = ()  # (level, x, y) of the last Elbereth engraved
    elbereth_turn: int = 0  # the game turn that engrave_elbereth ended
    elbereth_held: bool = False  # and whether the hero rested on it (it kept the monsters off)
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
    eye_stall_since: dict = field(default_factory=dict)  # level -> turn a floating eye or gas spore first blocked the way
    way_items_tried: dict = field(default_factory=dict)  # level -> inventory letters used to find a way on
    mapped_levels: set = field(default_factory=set)  # levels a scroll of magic mapping was read on
    fresh_kill: tuple = ()  # (species, turn killed, (x, y)) of the last kill by melee_fight or ranged_attack
    eating_kill: bool = False  # the running eat_when_hungry is for a fresh kill: no corpse is no failure
    asleep: dict = field(default_factory=dict)  # species -> turn until which a sleep ray holds it
    protection_asked_at: int = 0  # the experience level at which buy_protection last ran
    mines_hunt_start: int = -1  # game turn the hunt for a dwarf's pick in the Gnomish Mines began
    mines_hunt_over: bool = False  # the hunt ran its time or its levels: the Mines are left again
    shed_picked: tuple = ()  # (level, x, y) of the shed-gear square already picked up from
    dwarf_piles: dict = field(default_factory=dict)  # (branch, depth, x, y, turn) of a dwarf's death -> visits
    seen_level: tuple = ()  # the level of the last decision
    came_from: tuple = ()  # the level of the decisions before the hero arrived on this one
    left_in_danger: tuple = ()  # (level, "<" or ">", turn) of the last stairs taken away from danger
    arrived_turn: int = -10_000  # game turn of the first decision on this level

    # An Elbereth that held is worn by the fights and steps since (a dust engraving smudges
    # under the hero's blows): after this many turns it is written afresh where it stood.
    ELBERETH_WEARS = 30

    def held_asleep(self, monster, turn: int) -> bool:
        """Whether a sleep ray of the hero's still holds this monster's species at ``turn``."""
        return self.asleep.get(monster.name, -1) >= turn

    def elbereth_failed_here(self, stats) -> bool:
        """Elbereth was tried on this square and writing it again would not help: the last
        one written here failed (it could not be written, or the monsters ignored it), or
        it held and is still fresh, yet the monster is back beside the hero."""
        if self.elbereth_at != (stats.dungeon_level, stats.position.x, stats.position.y):
            return False
        return not self.elbereth_held or stats.turn - self.elbereth_turn <= self.ELBERETH_WEARS



class Autopilot:
    """Rule-based strategist over library skills (``--llm autopilot``)."""

    name = "autopilot"
    # Its direct actions (a fight, a counted search) are whole commands, never answers to a
    # question: without this, every later key went into an incubus's open question.
    keys_are_commands = True

    def __init__(self) -> None:
        self.state = AutopilotState()
        self._hits: dict[tuple[str, bool], float] = {}  # (species, poison resistant) -> _hit_potential
        self._outrunnable: dict[str, bool] = {}  # species -> whether the hero can walk away from it
        self._role = ""  # the hero's role, read from the API at each decision
        self._race = ""  # and its race
        self._resists_poison = False  # and whether it resists poison (its role, race and level)
        self._prayer_timeout = 0  # the API's estimate, read at each decision
        self._inventory: list = []  # the pack, read at each decision
        self._digging_heard: Optional[int] = None  # turn a monster was last heard digging on this level
        self._spells: list = []  # the spells the hero knows (nh.get_spells), read again at each new XL
        self._spells_read_at = 0  # the experience level they were read at (0: not yet)
        self.dive = DivePolicy()

    DANGER_MARGIN = 4  # a monster this much above the hero's level is not meleed
    # The prayer clock assumes a 1000-turn reset after each prayer (91% of rnz(350) draws).
    # A dying hero with nothing else left prays whenever the god is not angry: rnz(350) is
    # at most 200 about one draw in five (a prayer just after the last one), at most 300
    # nearly half the time and at most 500 two times in three, which beats an unknown potion
    # (about one in nine heals). 80% of such gambles 300+ turns after a prayer were answered.
    DESPERATE_TIMEOUT = 1000
    GAMBLE_FIRST = 600  # the clock's timeout up to which a dying hero beside a monster prays first
    # What a monster does that shows it awake (after a sleep ray hit it).
    AWAKE_VERBS = "hits|bites|stings|kicks|butts|claws|touches|thrusts|swings|misses|just misses|changes into|summons"
    DEADLY_EFFECTS = ("Food poisoned", "Ill", "Stoned", "Slimed", "Strangled")
    ELBERETH_HELD = ("healed", "safe", "budget", "hungry")  # engrave_elbereth rested on it
    # ("max_depth": the level is done and the hero is to stay. With no way down known, the
    # wait is better spent searching for one than where exploring ended: a Wizard held on
    # Dlvl 2 at XL 1 waited 750 turns in one corridor, the down stairs behind a hidden door.)
    EXPLORE_DONE = ("fully_explored", "search_exhausted", "blocked", "found_stairs", "level_done", "max_depth")

    def observe(self, skill: str, result, api) -> None:
        """Learn from how a skill ended: what failed, which levels are done."""
        s = self.state
        now = api.last_stats
        if now is None:
            return  # the game is over
        level = level_key_of(now)
        if level != s.level:
            s.level = level
            s.failures.clear()  # a new level: everything is worth trying again
        turn = now.turn
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
            # A wand of sleep's ray (6d25 turns of sleep, at least 6): the monster is helpless,
            # unless it resisted or woke: a were changing form wakes (were.c new_were), and
            # one that strikes after the ray is plainly awake.
            for m in data.get("messages") or []:
                for name in re.findall(r"The sleep ray hits the ([a-z][a-z -]*?)[.!]", m):
                    s.asleep[name] = turn + 12
                for name in list(s.asleep):
                    if re.search(rf"The {re.escape(name)} ({self.AWAKE_VERBS})", m.split("The sleep ray hits")[-1]):
                        s.asleep.pop(name)
        if skill == "melee_fight" and result is not None and result.stopped_reason != "target_dead":
            # A fight that ended short of a kill: a sleeper in it struck back (the fight on
            # one stops at the first blow the hero takes, save_a_dying_hero), so none is held asleep.
            s.asleep.clear()
        if skill == "read_or_zap_to_find_way":
            # the item it used, or "-" for a run that used none (runs per level are bounded)
            s.way_items_tried.setdefault(level, []).append(data.get("slot") or "-")
        if skill == "pray_when_safe" and result is not None and result.success:
            s.failures.clear()  # HP and hunger are fixed: every skill is worth trying again
        if skill == "eat_when_hungry" and not (result is not None and result.success):
            s.no_food = s.asked_food
        if skill == "dig_down":
            self.dive.note_dig_result(result, self._inventory)
        if skill == "ranged_attack" and result is not None and result.stopped_reason == "target_dead":
            s.make_room_until = -1  # the blocker waited on may be the one just shot: look again
        if skill == "engrave_elbereth":
            s.elbereth_at = (now.dungeon_level, now.position.x, now.position.y)
            s.elbereth_turn = turn
            s.elbereth_held = result is not None and result.stopped_reason in self.ELBERETH_HELD
        if skill == "explore_level" and result is not None and result.stopped_reason in (
                "search_exhausted", "blocked") and (result.data or {}).get("stairs_down"):
            s.mines_ok.add(level)  # searched in vain: the Mines are the only way on
        if skill == "explore_level" and result is not None and result.stopped_reason in (
                "search_exhausted", "blocked") and not (result.data or {}).get("stairs_down"):
            s.search_rounds.setdefault(level, 1)  # searched in vain once: rounds may start
        if now.xp_level != s.cap_xl:  # a new level raises the cap by itself
            s.cap_xl = now.xp_level
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
        sit = await self._situation(ctx)
        paced = self._pace(sit)
        if paced is not None:
            return paced
        for phase in PHASES[:-1]:
            decision = await phase(self, sit)
            if decision is not None:
                return self._spare_sleepers(decision, sit)
        return self._spare_sleepers(await PHASES[-1](self, sit), sit)

    def _spare_sleepers(self, decision, sit: Situation):
        """A wand used beside a monster a sleep ray holds is aimed at another: the skill's
        own choice, the most dangerous, was often the sleeper (a Healer zapped a sleeping
        gecko five times while a sewer rat bit her to death). Only while one beside the
        hero is awake: "the sleep ray hits" is said of a monster that resists it too."""
        if decision.skill_name == SURVIVE:
            asleep = sorted({m.name for m in sit.adjacent if self.state.held_asleep(m, sit.stats.turn)})
            if asleep and any(m.name not in asleep for m in sit.adjacent):
                decision.params["spare"] = asleep
        return decision

    async def _situation(self, ctx) -> Situation:
        """Read the game once for this decision (and note the role, pack and prayer clock)."""
        api, state, have = ctx.api, ctx.state, ctx.skill_names
        s = self.state
        facts = await api.get_hero()
        self._role, self._race = facts.role, facts.race
        self._resists_poison = "poison" in facts.resistances
        stats = state["stats"]
        if self._role.lower() in self.CASTERS and self._spells_read_at != stats.xp_level:
            # (Failure rates fall as the hero grows; the menu is read once per level.)
            self._spells, self._spells_read_at = await api.get_spells(), stats.xp_level
        self._inventory = state["inventory"]
        self._digging_heard = state["level"].digging_heard_turn
        hero: Position = stats.position
        key = level_key_of(stats)
        monsters = state["monsters"]
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame]
        if key != s.seen_level:
            s.came_from = s.seen_level
            s.seen_level, s.arrived_turn = key, stats.turn
        timeout = self._prayer_timeout = facts.prayer_timeout
        # Before the first prayer the clock is exact (300 minus the turn): no gamble then.
        gamble = self.DESPERATE_TIMEOUT if facts.last_prayer_turn is not None else 200
        return Situation(
            api=api, have=have, memory=s, stats=stats, hero=hero, level=state["level"],
            level_key=key, monsters=monsters, hostile=hostile,
            adjacent=[m for m in hostile if m.position.is_adjacent(hero) and m.name not in NEVER_MELEE],
            near=[m for m in hostile if m.position.steps_to(hero) <= 6 and m.name not in NEVER_MELEE],
            hp_frac=stats.hp / stats.max_hp if stats.max_hp else 1.0, hunger=stats.hunger, timeout=timeout,
            inventory=state["inventory"], gamble=gamble, load_key="|".join(i.text for i in state["inventory"]),
            last=s.last_result, kit=emergency_kit(state["inventory"], state["level"], hero, hostile), facts=facts)

    def _pace(self, sit: Situation) -> Optional[Any]:
        """Keys that let game time pass when decisions come faster than the game moves;
        None to decide by the rules."""
        s, stats, hunger = self.state, sit.stats, sit.hunger
        # A stall: decisions come and go but the game clock does not move (a skill
        # refusing at once, e.g. a monster diagonal to a doorway). Let time pass.
        if s.fallback_turn >= 0:
            s.fallbacks_short = s.fallbacks_short + 1 if stats.turn - s.fallback_turn < 10 else 0
            s.fallback_turn = -1
        s.recent_turns = (s.recent_turns + [stats.turn])[-4:]
        s.recent_stall = len(s.recent_turns) >= 3 and s.recent_turns[-1] - s.recent_turns[-3] < 20
        if len(s.recent_turns) == 4 and len(set(s.recent_turns)) == 1:
            s.recent_turns.clear()
            foe = self._foe_to_strike(sit)
            if foe is not None:
                return press("F" + VI_KEYS[sit.hero.direction_to(foe.position)],
                             f"nothing moved for three decisions with a {foe.name} beside me: strike it "
                             "rather than let it bite while I search")
            return press("s", "nothing moved for three decisions: search one turn so the situation changes")

        # A hard brake on decisions that come faster than the game moves outside a fight
        # (a loop among rules, each giving up at once): let 20 turns pass before the next.
        s.decision_turns = (s.decision_turns + [stats.turn])[-25:]
        if len(s.decision_turns) == 25 and stats.turn - s.decision_turns[0] < 50 and not sit.adjacent \
                and sit.hp_frac > 0.5 and hunger.severity < HungerState.WEAK.severity:
            s.decision_turns.clear()
            return press("20s", "25 decisions in under 50 turns: let time pass before deciding again")
        return None

    def _foe_to_strike(self, sit: Situation):
        """The hostile beside the hero that a stalled hero strikes instead of searching (it
        bites either way; a blow may kill it), or None: not one that must not be touched,
        not across a door on a slant, and not from an Elbereth written on this square (a
        blow from it smudges the engraving that keeps the others off)."""
        s, stats = self.state, sit.stats
        if s.elbereth_at == (stats.dungeon_level, stats.position.x, stats.position.y):
            return None
        return next((m for m in sit.adjacent if not slant_through_door(sit.level, sit.hero, m.position)), None)

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

    async def _outrun(self, api, name: str) -> bool:
        """Whether the hero can walk away from this monster: it is slower than the hero's
        usual 12, and has no hug that holds the hero fast (a rope golem's, an owlbear's:
        held heroes walked "away" from rope golems on the spot until they died)."""
        if name not in self._outrunnable:
            try:
                info = await api.lookup_monster(name)
                self._outrunnable[name] = int(info.speed) < 12 and not any(a.startswith("hug") for a in info.attacks)
            except Exception:
                self._outrunnable[name] = False
        return self._outrunnable[name]

    async def _hit_potential(self, api, name: str) -> float:
        """Damage a monster can do in one of the hero's turns at worst (dice maxima, armed
        monsters counted with a weapon of d8, times the moves its speed can give it in one turn); 0 when unknown. A
        poisonous attack counts 15 more for a hero without poison resistance: a poisoned
        sting or bite kills outright one time in 30 (killer bees, soldier ants)."""
        cache = self._hits
        resistant = self._resists_poison
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
        weak = self._role.lower() in self.WEAK_ROLES
        ahead = 0 if weak else self.DEPTH_AHEAD
        floor = self.WEAK_GROW_DEPTH if weak else 2
        # (The patience bonus raises the floor too: a weak hero at XL 1-2 lingering on
        # Dlvl 3 had its bonus swallowed by the floor until XL plus bonus passed it.)
        return max(floor, stats.xp_level + ahead) + self.state.depth_bonus

    def diving(self, stats) -> bool:
        """Whether the hero now goes down as fast as it can (see diving.py)."""
        return self.dive.diving(self._role, stats, self._inventory)

    # Roles that fight poorly (autopilot_context) stay no deeper than their experience level.
    WEAK_ROLES = WEAK_ROLES
    # ...but may always go to Dlvl 3 while they grow to their diving level (diving.py):
    # Dlvl 2 holds few monsters, and half of them took 2,000 turns there to reach XL 3,
    # some starving on the way. Over 152 weak-role games, growing on Dlvl 3 took those
    # reaching Dlvl 10 from 24 to 27 (Dlvl 4: 28; diving from XL 4 instead: 19).
    WEAK_GROW_DEPTH = 3

    # One level ahead of the experience level (was two): over seeds 0-79 the median score
    # rose in both halves (931 -> 1,150 and 702 -> 752) for a little less depth.
    DEPTH_AHEAD = 1
    # Waiting at the cap this long without gaining a level: go one level deeper anyway
    # (food runs out and score stands still; seeds 17 and 38 waited 4,000 turns at Dlvl 4-5).
    CAP_PATIENCE = 1500
    # Turns a hero without a digging tool stays on a level after hearing a monster dig there.
    DIGGER_WAIT = 300

    def _hunt_possible(self, s: "AutopilotState", stats) -> bool:
        """Whether this hero would hunt the Mines' dwarves for a pick if it were there."""
        return not s.mines_hunt_over and self.dive.digging_tool(self._inventory) is None and \
            self.dwarf_hunter(stats) and not self.dwarves_mostly_peaceful(stats)

    def dwarves_mostly_peaceful(self, stats) -> bool:
        """Whether most of the Mines' dwarves are peaceful to this hero, who is not of their
        kin: dwarves are lawful, and a lawful hero meets about four in five of them peaceful
        (makemon.c peace_minded), so a hunt there finds few picks among the gnome lords'
        wands and the hill orcs."""
        return stats.alignment == Alignment.LAWFUL and self._race not in self.dive.KIN_OF_DWARVES

    def _avoid_branches(self, api, s: "AutopilotState", level_key: LevelKey,
                        stats=None) -> tuple[str, ...]:
        # (Once the Mines are the only way on from some level, they are allowed below it
        # too: allowed on the entrance level alone, a Samurai went down, climbed back
        # out of the Mines as "no place for this hero yet", and went down again, 566 times.)
        # Gnomish and dwarvish heroes keep out of them like the others, but for the hunt:
        # the Mines' own folk are peaceful to them, their random monsters are not, and let
        # in freely they reached Dlvl 10 less often than human heroes of their roles.
        if level_key in s.mines_ok or (s.mines_ok and level_key[0] != MAIN_DUNGEON):
            return ()
        if stats is not None and stats.branch != "Gnomish Mines" and self._hunt_possible(s, stats):
            return ()  # the Mines are welcome: explore_and_fight hands back on arrival
        return ("Gnomish Mines",)

    # The Mines' first levels are full of dwarves, most of them carrying a pick-axe or a
    # mattock; a digging tool takes a hero down a level in about five turns. A hero able
    # to fight them hunts there for a while before going back to the main dungeon.
    MINES_HUNT_LEVELS = 2  # how many Mines levels the hunt covers
    MINES_HUNT_TURNS = 1000  # game turns the hunt may take in all

    # A dwarf's mattock hits for d8 + d12 (up to 20): the hunt is for heroes whose whole
    # fight with one likely costs no more than this share of their full HP (nh.fight_odds).
    # At a third, starting Knights and Valkyries (a Mines dwarf costs them 40-55% of 16 HP)
    # left the Mines at XL 1 and dived past them. At 55% they hunt: over 750 fresh games,
    # 23 more digging tools and 17 more games at Dlvl 10+.
    DWARF_FIGHT_SHARE = 0.55

    def fit_for_dwarves(self, stats) -> bool:
        """Whether the hero can take on the Mines' dwarves: its fight with one, at full HP
        and with the weapon in hand, likely costs at most DWARF_FIGHT_SHARE of its HP."""
        weapon, weapon_text = fight_odds.weapon_in_hand(self._inventory)
        odds = fight_odds.estimate([knowledge.lookup_monster("dwarf")], replace(stats, hp=stats.max_hp),
                                   self._role, weapon, weapon_text)
        return odds.expected_damage <= self.DWARF_FIGHT_SHARE * max(1, stats.max_hp)

    def dwarf_hunter(self, stats) -> bool:
        """Whether the hero can take a dwarf's pick from him: fit to fight one in melee, or
        of a role that kills one from afar (diving.py SHOOTERS)."""
        return self._role.lower() in self.dive.SHOOTERS or self.fit_for_dwarves(stats)

    def _mines_hunt(self, s: "AutopilotState", stats, level_key: LevelKey, ok):
        if stats.branch != "Gnomish Mines" or s.mines_hunt_over:
            return None
        if not ok("explore_and_fight"):
            # Exploring here failed three times (a gap too narrow for the load): the hero
            # would climb out and come straight back down, for the rest of the hunt.
            s.mines_hunt_over = True
            return None
        if not self._hunt_possible(s, stats):
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
        if self._race in self.dive.KIN_OF_DWARVES and self.fit_for_dwarves(stats):
            # Its dwarves are peaceful and walk by unnoticed (diving.py takes a fit hero
            # of their kin to their picks): hand back when one comes near, not only a
            # hostile one. (Minetown, with its watch, is deeper than the hunt's levels.)
            decision.params["watch_peaceful"] = True
        return decision

    # Roles that start knowing spells: every Wizard force bolt, every Healer healing, a
    # Priest two clerical-school books' worth, a Monk one of healing, protection or sleep.
    CASTERS = ("wizard", "healer", "priest", "priestess", "monk")
    # Spells explore_and_fight casts, best first, when they seldom fail (a failed casting
    # costs its Pw all the same). Not sleep or magic missile: cast at a monster beside
    # the hero, a ray bounces off the wall behind it and back into the hero.
    ATTACK_SPELLS = ("force bolt",)
    HEAL_SPELLS = ("healing", "extra healing")
    MAX_SPELL_FAIL = 25

    def _spell_letter(self, names: tuple[str, ...]) -> str:
        """The letter of the first of ``names`` the hero knows and seldom fails at, or ""."""
        known = {sp.name: sp for sp in self._spells if sp.fail_percent <= self.MAX_SPELL_FAIL
                 and sp.retention != "(gone)"}
        return next((known[n].letter for n in names if n in known), "")

    def attack_spell_letter(self) -> str:
        """The letter of an attack spell (ATTACK_SPELLS) the hero knows and seldom fails at, or ""."""
        return self._spell_letter(self.ATTACK_SPELLS)

    def _explore(self, s: "AutopilotState", level_key: LevelKey, stats, why: str,
                 avoid: tuple[str, ...] = ("Gnomish Mines",)):
        piles = [[x, y] for (branch, number, x, y) in s.picked_up_at if (branch, number) == level_key]
        params: dict[str, Any] = {"descend": True, "danger_margin": self.DANGER_MARGIN,
                                  "avoid_branches": list(avoid)}
        role = self._role.lower()
        attack, heal = self.attack_spell_letter(), self._spell_letter(self.HEAL_SPELLS)
        if attack:
            params["attack_spell"] = attack
        if heal:
            params["heal_spell"] = heal
        if role in ("ranger", "tourist", "rogue"):
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
        # Just arrived, a strong monster coming is fought on the up stairs: one step up
        # leaves it behind (autopilot_survival.on_the_way_up).
        params["hold_the_stairs"] = True
        if piles:
            params["known_piles"] = piles
        if params.get("dive") and way_down.map_scroll(self._inventory) is not None:
            params["stop_on_new_level"] = True  # to read it on the next level (autopilot_way_down)
        if self.dive.digging_tool(self._inventory) is None and self.dwarf_hunter(stats):
            # A dwarf coming into view is a pick-axe to take (diving.py), not a fight to
            # wait for: exploring hands back at once.
            params["watch_for"] = ["dwarf"]
        if "Gnomish Mines" not in avoid and stats.branch != "Gnomish Mines" and self._hunt_possible(s, stats):
            params["stop_on_branch_change"] = True
        heard = self._digging_heard
        if heard is not None and stats.turn - heard <= self.DIGGER_WAIT and "watch_for" in params and \
                stats.hunger.severity < HungerState.HUNGRY.severity and stats.branch != "Sokoban":
            # Something digs through rock on this level ("You hear crashing rock"): a dwarf
            # with a pick-axe or a mattock. Stay a while for him to tunnel into view.
            params["max_depth"] = stats.dungeon_level
            params["linger_turns"] = max(10, heard + self.DIGGER_WAIT - stats.turn)
            params.pop("dive", None)
        return _decision("explore_and_fight", params, why)

    def explored(self, api) -> None:
        now = api.last_stats
        if now is not None:
            self.state.explored_levels.add(level_key_of(now))


# The rule phases, highest priority first: the first to decide wins; the last always decides.
PHASES = (
    survival.cure_or_unburden,
    survival.save_a_dying_hero,
    survival.out_of_the_line_of_fire,
    survival.escape_danger,
    fight.fight_adjacent,
    upkeep.heal_and_eat,
    upkeep.loot_and_gear,
    upkeep.rest_when_safe,
    blockers.shoot_or_sting,
    blockers.shopkeeper_in_the_door,
    blockers.make_room,
    blockers.floating_eye_in_the_way,
    blockers.gas_spore_in_the_way,
    blockers.meek_peaceful_in_the_way,
    way_down.dive_or_hunt,
    way_down.explore_and_descend,
    way_down.search_for_a_way_on,
)
