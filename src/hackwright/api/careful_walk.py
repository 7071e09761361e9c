"""A walk to one square that never bumps what must not be touched, a step per call.

go_to, go_to_stairs, descend and retreat_upstairs all walk the same way: re-plan each
step round floating eyes, molds and peaceful monsters (remembered where last seen,
``WalkAroundMemory``), over harmless known traps when nothing else leads there, wait a
little for a peaceful monster to wander out of a corridor, and kick a locked door open
unless it is a shop's. ``CarefulWalk`` is that walk, once; every skill gets it without
importing it, as a model's skill does. What to do when a step fails (stop, try a
hole instead, count it as stuck) stays with the skill.
The sandbox worker imports this module, so it stays free of NLE and numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Optional

from .tactics import WalkAroundMemory

if TYPE_CHECKING:
    from .models import ActionResult, Monster, Position

# Bumping these is a melee attack whose passive (paralysis, stoning, acid, fire, cold, an
# explosion) costs more than the fight gains. The API's paths go round them too
# (NetHackAPI.NEVER_TOUCH is this list; skills get it as NEVER_BUMP, injected like CarefulWalk).
NEVER_BUMP = ("floating eye", "cockatrice", "chickatrice", "gas spore", "green slime", "acid blob",
              "blue jelly", "spotted jelly", "brown mold", "yellow mold", "green mold", "red mold")

# The worst a hit on each passes back (NetHack's passive attacks, as facts): what is
# worth risking when such a monster blocks the only way on (a gas spore: its explosion).
# Floating eyes (paralysis) and cockatrices (stoning) never are.
PASSIVE_WORST = {"acid blob": 8, "red mold": 4, "yellow mold": 4, "spotted jelly": 6, "green mold": 24,
                 "blue jelly": 24, "brown mold": 24, "gas spore": 21}
# A gas spore's explosion (4d6) is all it does, once: above 21 HP it kills 1.2% of the time
# (above 24 never), which beats waiting forever behind it.
NO_AFTERMATH = ("gas spore",)


def worth_hitting_through(monsters: Iterable["Monster"], stats: Any) -> Optional["Monster"]:
    """The nearest hostile of ``monsters`` whose passive the hero can take when it blocks
    the only way on (HP above 60% and 6 above its worst, PASSIVE_WORST; a gas spore's
    explosion at its worst alone), or None. Never a floating eye or a cockatrice."""
    hero = stats.position
    best = None
    for m in monsters:
        worst = PASSIVE_WORST.get(m.name)
        margin = 0 if m.name in NO_AFTERMATH else 6
        if worst is None or m.is_peaceful or m.is_tame or stats.hp <= worst + margin or \
                stats.hp < 0.6 * stats.max_hp:
            continue
        if best is None or hero.steps_to(m.position) < hero.steps_to(best.position):
            best = m
    return best


@dataclass
class WalkStep:
    """What one ``CarefulWalk.step`` did.

    ``outcome``: "moved" (a step was taken; ``moved`` says whether the hero stands
    elsewhere: fighting through a monster is a step that does not move), "failed" (the
    step was refused: ``error``), "waited" (a peaceful monster blocks the only way: one
    turn searched for it to wander off), "kicked" (a locked door on the way was kicked),
    "door_locked" (a locked door the walk may not kick: a shop's, or kicking is off or
    used up), "blocked" (only past monsters it must not bump, and waiting is over:
    ``blockers``), "no_path" (no way known; ``route_known`` says whether one exists
    through the monsters), "game_over"."""

    outcome: str
    actions: int = 0  # game actions the step took (0, 1, or 2: a refused step and a kick)
    moved: bool = False  # the hero stands on another square than before the step
    result: Optional["ActionResult"] = None  # the action's result, when one was taken
    error: Optional[str] = None  # why a step failed, in the game's or the API's words
    blockers: list = field(default_factory=list)  # with "blocked"/"no_path": species remembered in the way
    route_known: bool = False  # with "no_path": a way exists if the monsters in it were not there
    door: Optional["Position"] = None  # with "kicked"/"door_locked": the locked door
    direction: str = ""  # with "kicked"/"door_locked": the step towards the door
    shop: bool = False  # with "door_locked": it is a shop's ("closed for inventory", or a shopkeeper in view)
    avoided: set = field(default_factory=set)  # the squares the step kept off (memory's, the target excepted)

    @property
    def ends_walk(self) -> Optional[tuple[str, dict]]:
        """(stopped_reason, data) for a SkillResult when this step ends the walk
        ("game_over", "no_path", "blocked" with blocked_by, "door_locked" with door,
        direction and shop); None when the walk goes on."""
        if self.outcome in ("game_over", "no_path"):
            return self.outcome, {}
        if self.outcome == "blocked":
            return "blocked", {"blocked_by": list(self.blockers)}
        if self.outcome == "door_locked" and self.door is not None:
            return "door_locked", {"door": (self.door.x, self.door.y), "direction": self.direction, "shop": self.shop}
        return None


class CarefulWalk:
    """Steps to ``target`` on this level that keep off what must not be bumped.

    Each ``step()`` re-plans over the remembered map (``nh.find_path`` / ``nh.move_to``,
    which open closed doors), never into a square where a monster to avoid or a peaceful
    one was last seen (``memory``, a ``WalkAroundMemory``), round known traps, else over
    harmless ones, else over any but the deadly ones (traps="risky"). When only such
    monsters stand in the way it searches up to ``wait_for_peaceful`` turns in all for a
    peaceful one to move, then reports "blocked"; a locked door is kicked up to
    ``max_kicks`` times with ``kick_locked_doors``, never a shop's::

        walk = CarefulWalk(nh, target, kick_locked_doors=True)
        while (await nh.get_position()) != target:
            step = await walk.step()
            if step.outcome in ("no_path", "blocked", "door_locked", "game_over"):
                break  # say why; "failed" and a "moved" that did not move count as stuck
    """

    def __init__(self, nh: Any, target: "Position", avoid: Iterable[str] = NEVER_BUMP,
                 kick_locked_doors: bool = False, max_kicks: int = 8, wait_for_peaceful: int = 8) -> None:
        self.nh = nh
        self.target = target  # may be changed between steps (a hole instead of the stairs)
        self.memory = WalkAroundMemory(tuple(avoid))
        self.kick_locked_doors = kick_locked_doors
        self.max_kicks = max_kicks
        self.wait_for_peaceful = wait_for_peaceful
        self.kicks = 0  # locked doors kicked so far
        self.waited = 0  # turns searched so far for a peaceful monster to move

    async def step(self, hero: Optional["Position"] = None, monsters: Optional[list["Monster"]] = None,
                   turn: Optional[int] = None) -> WalkStep:
        """One step towards the target (or a wait, or a kick), as a WalkStep. ``hero``,
        ``monsters`` (in view) and ``turn`` may be passed when the caller has just read
        them; they are read otherwise."""
        nh, target = self.nh, self.target
        if hero is None or turn is None:
            stats = await nh.get_stats()
            hero, turn = stats.position, stats.turn
        if monsters is None:
            monsters = await nh.get_visible_monsters()
        avoid = self.memory.update(monsters, hero, turn) - {target}
        path = await nh.find_path(target, avoid=avoid, traps="risky")
        if not path:
            step = await self._no_way(avoid)
            step.avoided = avoid
            return step
        res = await nh.move_to(target, avoid=avoid, traps="risky")
        if res.game_over:
            return WalkStep("game_over", 1, result=res)
        moved = (await nh.get_position()) != hero
        if res.success:
            return WalkStep("moved", 1, moved=moved, result=res, error=res.error)
        direction = path[0]
        if "locked" not in (res.error or "").lower() or not direction:
            return WalkStep("failed", 1, moved=moved, result=res, error=res.error)
        door = hero.offset(direction)
        text = " ".join(await nh.get_messages(20)).lower()
        shop = "closed for inventory" in text or any(m.name == "shopkeeper" for m in monsters)
        if shop or not self.kick_locked_doors or self.kicks >= self.max_kicks:
            return WalkStep("door_locked", 1, moved=moved, result=res, error=res.error, door=door,
                            direction=direction, shop=shop)
        kick = await nh.kick(direction)
        self.kicks += 1
        return WalkStep("game_over" if kick.game_over else "kicked", 2, result=kick, door=door, direction=direction)

    async def _no_way(self, avoid: set) -> WalkStep:
        nh = self.nh
        blockers = self.memory.names_at(avoid)
        route = await nh.find_path(self.target, traps="risky", avoid_monsters=False)  # a way past them?
        if not route or not blockers:
            return WalkStep("no_path", blockers=blockers, route_known=bool(route))
        if any(n not in self.memory.avoid for n in blockers) and self.waited < self.wait_for_peaceful:
            res = await nh.search()  # a peaceful monster is in the way: give it time to wander off
            self.waited += 1
            return WalkStep("game_over" if res.game_over else "waited", 1, result=res)
        return WalkStep("blocked", blockers=blockers, route_known=True)


__all__ = ["CarefulWalk", "NEVER_BUMP", "WalkStep"]
