"""What the agent sees, reduced to what choosing skills needs, and how well a skill
fits it (:func:`relevance`, the order of ``SkillLibrary.relevant``)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Optional

from ..stats import SkillStats, hunger_severity
from .records import Skill
from .vocabulary import MIN_RUNS_TO_JUDGE

@dataclass
class Situation:
    """What the agent sees now, reduced to what choosing skills needs.

    ``level_explored_pct`` is 0–100 (``DungeonLevel.explored_percentage``).
    """

    hostile_adjacent: bool = False
    hostile_visible: bool = False
    hp_fraction: float = 1.0
    hungry: bool = False  # Hungry or worse
    weak: bool = False  # Weak or worse
    items_here: bool = False
    stairs_down_known: bool = False
    on_stairs_down: bool = False
    level_explored_pct: float = 0.0
    in_danger: bool = False
    engulfed: bool = False
    burdened: bool = False
    depth: int = 1

    @classmethod
    def from_state(
        cls,
        stats: Any,
        monsters: Iterable[Any] = (),
        level: Any = None,
        *,
        items_here: bool = False,
        engulfed: bool = False,
        in_danger: Optional[bool] = None,
    ) -> "Situation":
        """From the API's ``Stats``, visible ``Monster`` s and ``DungeonLevel`` (any may be
        None). Hostile: neither peaceful nor tame. ``in_danger`` defaults to HP
        below a third with a hostile within two squares."""
        hp_fraction = stats.hp / stats.max_hp if stats is not None and stats.max_hp else 1.0
        hero = getattr(stats, "position", None)
        hostile = [m for m in monsters if not m.is_peaceful and not m.is_tame
                   and not getattr(m, "is_invisible_marker", False)]
        adjacent = bool(hero is not None and any(m.position.is_adjacent(hero) for m in hostile))
        close = bool(hero is not None and any(m.position.steps_to(hero) <= 2 for m in hostile))
        sev = hunger_severity(getattr(stats, "hunger", None)) or 0
        stairs = getattr(level, "stairs_down", None) if level is not None else None
        return cls(
            hostile_adjacent=adjacent,
            hostile_visible=bool(hostile),
            hp_fraction=hp_fraction,
            hungry=sev >= 1,
            weak=sev >= 2,
            items_here=items_here,
            stairs_down_known=stairs is not None,
            on_stairs_down=stairs is not None and hero is not None and stairs == hero,
            level_explored_pct=float(getattr(level, "explored_percentage", 0.0) or 0.0),
            in_danger=(hp_fraction < 1 / 3 and close) if in_danger is None else in_danger,
            engulfed=engulfed,
            burdened=str(getattr(stats, "encumbrance", "Unencumbered")) not in ("Unencumbered", ""),
            depth=int(getattr(stats, "dungeon_level", 1) or 1),
        )

    @property
    def low_hp(self) -> bool:
        return self.hp_fraction < 0.5

    @property
    def critical(self) -> bool:
        return self.hp_fraction < 0.3 or self.in_danger

    @property
    def quiet(self) -> bool:
        return not (self.hostile_visible or self.hostile_adjacent or self.engulfed or self.in_danger)

    def active_events(self) -> set[str]:
        """The trigger events that hold right now (a skill with one of them would stop at once)."""
        ev = set()
        if self.hostile_visible or self.hostile_adjacent:
            ev.add("monster")
        if self.low_hp:
            ev.add("low_hp")
        if self.hungry or self.weak:
            ev.add("hunger")
        if self.items_here:
            ev.add("items")
        if self.engulfed:
            ev.add("engulfed")
        return ev


def _parse_time(text: Optional[str]) -> Optional[datetime]:
    if not text:
        return None
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


# ---------------------------------------------------------------- relevance
_NEED_WORDS: dict[str, tuple[str, ...]] = {
    "fight": ("fight", "attack", "melee", "kill", "combat", "kite"),
    "flee": ("flee", "escape", "retreat", "elbereth", "pray", "evade"),
    "eat": ("eat", "food", "hunger", "hungry"),
    "heal": ("heal", "rest", "pray", "recover", "regen"),
    "pickup": ("pick", "loot", "collect", "item"),
    "descend": ("stairs", "descend", "downstairs", "go_down", "dive"),
    "explore": ("explore", "search", "scout"),
}


def _needs(s: Situation) -> set[str]:
    n = set()
    if s.hostile_adjacent or s.hostile_visible or s.engulfed:
        n.add("fight")
    if s.critical:
        n.add("flee")
    if s.hungry or s.weak:
        n.add("eat")
    if s.low_hp and s.quiet:
        n.add("heal")
    if s.items_here and not s.hostile_adjacent:
        n.add("pickup")
    if s.stairs_down_known and s.quiet and not s.low_hp:
        n.add("descend")
    if s.level_explored_pct < 90 and s.quiet and not s.low_hp:
        n.add("explore")
    return n


def category_fit(category: str, s: Situation) -> float:
    """How much the situation calls for skills of ``category`` (0 … ~4.5)."""
    quiet_ok = s.quiet and not s.low_hp
    if category == "combat":
        if s.hostile_adjacent or s.engulfed:
            return 2.5 if s.critical else 4.0
        return 2.0 if s.hostile_visible else 0.0
    if category == "escape":
        if s.critical:
            return 4.5 if not s.quiet else 2.0
        return 1.0 if s.low_hp and s.hostile_visible else 0.0
    if category == "resource":
        v = 3.0 if s.weak else 2.0 if s.hungry else 0.2
        if s.low_hp and s.quiet:
            v = max(v, 2.5)
        return v if not s.hostile_adjacent else v * 0.3
    if category == "inventory":
        if s.items_here and not s.hostile_adjacent:
            return 1.5
        return 0.6 if s.burdened else 0.1
    if category == "navigation":
        if not quiet_ok:
            return 0.1
        if s.on_stairs_down or (s.stairs_down_known and s.level_explored_pct >= 60):
            return 2.0
        return 1.0 if s.stairs_down_known else 0.3
    if category == "exploration":
        if not quiet_ok:
            return 0.3 if not s.hostile_adjacent else 0.0
        return 2.0 if s.level_explored_pct < 60 else 1.0 if s.level_explored_pct < 95 else 0.3
    return 0.5  # special and other categories


def _recency_bonus(last_used: Optional[str], now: datetime) -> float:
    t = _parse_time(last_used)
    if t is None:
        return 0.0
    hours = max(0.0, (now - t).total_seconds() / 3600)
    return 0.3 * 0.5 ** (hours / 24)


def relevance(skill: Skill, stats: Optional[SkillStats], s: Situation, now: Optional[datetime] = None) -> float:
    """The score ``relevant()`` sorts by: category fit + name/description words
    for what the situation needs + trigger fit + success rate (Beta(1, 1) prior)
    + value (weighted by how many runs back it) + recency + a nudge for untried skills."""
    now = now or datetime.now(timezone.utc)
    score = category_fit(skill.category, s)
    name = skill.name.lower()
    desc = skill.description.lower()
    for need in _needs(s):
        words = _NEED_WORDS[need]
        if any(w in name for w in words):
            score += 1.0
        elif any(re.search(rf"\b{re.escape(w)}", desc) for w in words):
            score += 0.5
    active = s.active_events()
    trig = set(skill.triggers)
    for ev in trig & active:
        if ev == "monster" and skill.category in ("combat", "escape"):
            continue
        score -= 0.5  # it would stop at once
    if not active and trig & {"monster", "low_hp"}:
        score += 0.25  # cautious skills for long quiet stretches
    n = stats.recent_executions if stats else 0
    k = stats.recent_successes if stats else 0
    finished = stats.recent_finished if stats else 0  # an interrupted run is no failure
    score += 1.5 * (k + 1) / (finished + 2)
    if stats and n:
        score += (n / (n + 5)) * math.tanh(stats.recent_mean_value / 50)
    score += _recency_bonus(stats.last_used if stats else None, now)
    if n < MIN_RUNS_TO_JUDGE:
        score += 0.2
    return score
