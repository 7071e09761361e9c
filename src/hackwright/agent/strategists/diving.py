"""When the autopilot dives, and how it goes down fast.

BALROG's progression counts the deepest level and the highest experience level a
game reached, and the depth column climbs steeply past Dlvl 8 (Dlvl 8 is worth 7.0%,
Dlvl 10 12.6%, Dlvl 13 25.7%), so a hero that only ever reaches Dlvl 5 scores little
however long it lives. The autopilot therefore builds experience on the first levels
only until its role can take what lives further down, then dives: it goes down as
soon as the way down is known, and digs down whenever it carries a pick-axe, a
dwarvish mattock or a wand of digging (a level in about five turns, where finding the
stairs takes hundreds).

The policy here only decides; the skills (``dig_down``, ``get_digging_tool``,
``enhance_skills``, ``explore_and_fight`` with ``dive``) do the work, and a model can
call the same skills.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from ...api.commands.digging import DIGGING_TOOL, DIGGING_WAND
from ...api.missiles import SHOP_GOODS
from .autopilot_context import MAIN_DUNGEON, WEAK_ROLES, has_missiles

_EMPTY_WAND = re.compile(r"\(\d+:0\)")
_NAMED_WAND = re.compile(r"\bwand of |\bcalled\b|\bnamed\b")


def digging_tool(inventory, empty: frozenset = frozenset()) -> Optional[Any]:
    """The carried item that digs down (a pick-axe or mattock first, then a wand of
    digging that may have charges left), or None. Shop goods (unpaid) are not the hero's.
    ``empty``: texts of wands found empty though their charges are not shown."""
    picks = [i for i in inventory if DIGGING_TOOL.search(i.text or "") and not SHOP_GOODS.search(i.text or "")]
    if picks:
        return picks[0]
    wands = [i for i in inventory if DIGGING_WAND.search(i.text or "") and not _EMPTY_WAND.search(i.text or "")
             and not SHOP_GOODS.search(i.text or "") and i.text not in empty]
    return wands[0] if wands else None


def is_wand(item) -> bool:
    """Whether ``digging_tool``'s answer is a wand of digging (not a pick)."""
    return item is not None and bool(DIGGING_WAND.search(item.text or ""))


@dataclass
class DiveStep:
    """One decision of the diving policy: a skill with its parameters and why."""

    skill: str
    params: dict
    why: str


class DivePolicy:
    """Decides when the hero dives and which diving skill runs next."""

    # Experience level from which each role dives (goes down as soon as the way down is
    # known, with no depth cap). Below it the autopilot's experience-first rule holds
    # (no deeper than one level past the experience level, and for the weak roles no
    # deeper than the experience level itself or Dlvl 3, Autopilot.max_depth).
    DIVE_XL_DEFAULT = 1
    # The roles that fight poorly at XL 1 (10-15 HP, AC 7-10): diving at once, a quarter of
    # them died at XL 1-2 on Dlvl 3-7. Grown to XL 3 first on the easy levels, their games
    # of 136 reached Dlvl 10 in 23 against 17, and twice as many found a digging tool (24
    # against 12): at XL 3 a Wizard or Rogue is fit to go for a dwarf's pick.
    DIVE_XL: dict[str, int] = {r: 3 for r in WEAK_ROLES + ("wizard",)}

    def __init__(self) -> None:
        self._wands_tested: set[str] = set()  # inventory letters of wands already engrave-tested
        # A wand of digging whose charges were never shown reads the same once empty:
        # its text when dig_down found it so.
        self.empty_wands: set[str] = set()

    def dive_xl(self, role: str) -> int:
        return self.DIVE_XL.get(role.lower(), self.DIVE_XL_DEFAULT)

    def diving(self, role: str, stats, inventory=()) -> bool:
        """Whether the hero now goes down as fast as it can. A hero with a digging tool
        always does: digging takes it past the monsters of each level in a few turns."""
        if self.digging_tool(inventory) is not None:
            return True
        return stats.xp_level >= self.dive_xl(role)

    # Roles whose missiles or spells kill a dwarf before he reaches them (see next_step).
    SHOOTERS = ("wizard", "ranger", "rogue")

    # The shallowest main-dungeon level a wand of digging is zapped down from (see next_step).
    WAND_FROM_DLVL = 5

    # Races to whom the Gnomish Mines' dwarves are peaceful (NetHack's racial love masks).
    KIN_OF_DWARVES = ("dwarf", "gnome")

    def digging_tool(self, inventory):
        """The carried digging tool this policy would dig with, or None."""
        return digging_tool(inventory, frozenset(self.empty_wands))

    def spent_wand_letters(self, inventory) -> str:
        """Letters of the carried wands of digging found empty (see note_dig_result)."""
        return "".join(sorted(i.slot for i in inventory if i.slot and i.text in self.empty_wands))

    def note_dig_result(self, result, inventory) -> None:
        """dig_down said "no_tool" with a wand in the pack: that wand is empty."""
        if result is not None and result.stopped_reason == "no_tool":
            self.empty_wands.update(i.text for i in inventory if DIGGING_WAND.search(i.text or ""))

    def next_step(self, api, role: str, stats, inventory, monsters, ok, hp_frac: float,
                  hungry_weak: bool, level_key: tuple[str, int], fit_for_dwarves=None, race: str = "",
                  town_watch: bool = False, skill_ready: bool = False,
                  stairs_up_known: bool = True, way_down_lost: bool = False) -> Optional[DiveStep]:
        """A diving skill to run now, or None to let the autopilot's other rules decide.
        Called only when nothing is next to the hero and HP is not low. ``race``: the
        hero's and ``skill_ready`` whether a skill can be advanced (nh.get_hero());
        ``town_watch``: the watch keeps the peace on this level; ``stairs_up_known``: this
        level's up stairs are on the map (or under the hero, just arrived);
        ``way_down_lost``: the level is explored and no way down is known."""
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame]
        fit_for_dwarves = fit_for_dwarves or (lambda st: st.xp_level >= 3)
        if skill_ready and ok("enhance_skills"):
            return DiveStep("enhance_skills", {}, "I feel more confident in a skill: advance it")
        tool = self.digging_tool(inventory)
        hero = stats.position
        if tool is None:
            # A hostile dwarf often carries a pick-axe or a mattock (he digs through walls
            # with it): take it from him when the hero can win the fight.
            # A dwarvish or gnomish hero's dwarves are peaceful and let it strike first
            # (not where the watch keeps the peace: Minetown).
            kin = race in self.KIN_OF_DWARVES and not town_watch
            dwarves = [m for m in (monsters if kin else hostile) if m.name == "dwarf" and not m.is_tame
                       and m.position.steps_to(hero) <= 7]
            if dwarves and hp_frac >= 0.7 and fit_for_dwarves(stats) and ok("get_digging_tool"):
                params: dict = {"max_turns": 300}
                spent = self.spent_wand_letters(inventory)
                if spent:
                    params["spent_wands"] = spent  # an empty wand of digging is no reason to spare the dwarf
                if dwarves[0].is_peaceful:
                    params["peaceful_ok"] = True
                return DiveStep("get_digging_tool", params,
                                "a dwarf: he may carry a pick-axe; kill him and take it")
            # Too weak to trade blows with one, but trained to hit from afar (a Ranger's
            # arrows, a Rogue's daggers, a Wizard's force bolt): a dwarf moves at half the
            # hero's speed, so he takes volleys before he can swing. His pile is searched
            # once he dies (autopilot_upkeep). (A Tourist's darts mostly miss a dwarf in
            # his iron helm and mithril: twelve thrown at one asleep left him unhurt.)
            spell = "a" if role.lower() == "wizard" and stats.pw >= 5 else ""
            shootable = [m for m in dwarves if not m.is_peaceful]
            if shootable and hp_frac >= 0.5 and role.lower() in self.SHOOTERS and (
                    spell or has_missiles(inventory)) and ok("ranged_attack"):
                params = {"target": "dwarf", "max_throws": 12, "wield_launcher": True}
                if spell:
                    params["spell"] = spell
                return DiveStep("ranged_attack", params,
                                "a dwarf: he may carry a pick-axe; shoot him before he reaches me")
            # An unknown wand may be digging: engraving with it tells (one turn each).
            untested = [i.slot for i in inventory if i.object_class == "wand" and i.slot
                        and not _NAMED_WAND.search(i.text or "") and i.slot not in self._wands_tested
                        and not SHOP_GOODS.search(i.text or "")]
            if untested and not hostile and ok("get_digging_tool"):
                params = {"fight": False, "max_turns": 20, "skip_wands": "".join(sorted(self._wands_tested))}
                self._wands_tested.update(untested)
                return DiveStep("get_digging_tool", params,
                                "an unknown wand: engrave with it to see whether it digs")
            return None
        # (Not when this level's up stairs were never seen, e.g. after a fall: looking for
        # them costs a Mines level's fights; digging on reaches Mines' End, Dlvl 10-13.)
        if stats.branch == "Gnomish Mines" and not is_wand(tool) and stairs_up_known and ok("retreat_upstairs"):
            # The Mines end some eight levels down and the main dungeon goes on for fifty:
            # dig there. (Not with a wand: its 4-8 charges end before the Mines do, and
            # each level climbed out is one the charges must dig again.)
            return DiveStep("retreat_upstairs", {"force": True},
                            f"I have the {tool.name or tool.text}: climb out of the Mines to dig in the main dungeon")
        # (With a pick, dig_down writes Elbereth before it digs when a monster is this near:
        # only one that ignores it is a reason to wait.)
        near = [m for m in hostile if m.position.steps_to(hero) <= 3
                and (is_wand(tool) or m.ignores_elbereth_now or m.is_invisible_marker)]
        if is_wand(tool) and stats.branch == MAIN_DUNGEON and stats.dungeon_level < self.WAND_FROM_DLVL \
                and not way_down_lost:
            # A wand digs as many levels as it has charges (4-8). Zapped from Dlvl 1 they
            # left XL 1 Wizards on Dlvl 5-7 to die there; the stairs above Dlvl 5 seldom
            # kill. Below them, where a toolless visit ends in death one time in five, a
            # zap a level skips the danger. (Zapped at once when the way down is lost, and
            # by the dying-hero rule of autopilot_survival.)
            return None
        if is_wand(tool) and stats.branch != "Sokoban" and ok("dig_down"):
            # A zap a level: neither hunger nor a monster nearby is a reason to wait.
            params = {"min_hp": 0.0, "stop_on_hunger": False}
            if stats.branch == MAIN_DUNGEON and stats.dungeon_level < self.WAND_FROM_DLVL:
                # The way down is lost above Dlvl 5: one zap out, the other charges kept for
                # below (a Monk walled in on Dlvl 2 spent all six and died on Dlvl 8 at XL 1;
                # four heroes of 600 zapped from Dlvl 1 and none reached Dlvl 10).
                params["levels"] = 1
            return DiveStep("dig_down", params, f"dive: zap the {tool.name or tool.text} down, a level a turn")
        if self.diving(role, stats, inventory) and not near and hp_frac >= 0.6 and not hungry_weak \
                and stats.branch != "Sokoban" and ok("dig_down"):
            return DiveStep("dig_down", {"min_hp": 0.5},
                            f"dive: dig down with the {tool.name or tool.text}")
        return None
